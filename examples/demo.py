"""What ``make demo`` runs: split the bundled sample document and show every chunk's span.

The sample (``examples/sample.md``: Markdown with headings, a list, a quote, a code fence,
a rule, an emoji and a Chinese section) is split twice: by the recursive splitter with its
default separators (400 characters, 60 of overlap, which starts at a sentence where one fits
in it) and into paragraphs under a token budget
(``ParagraphSplitter(96, length="cl100k_base")``: 96 cl100k_base tokens, counted offline
by tiktoken). Each chunk is printed as

    [index] start-end  lines a-b  size unit  first words…

and checked: its text is exactly ``source[start:end]`` and it is measured again against
the budget. A summary line ends each run.

    python examples/demo.py [FILE]      # the bundled sample unless FILE is given
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from spansplit import (
    BudgetedSplitter,
    Chunk,
    ParagraphSplitter,
    RecursiveSplitter,
    TokenizerUnavailableError,
    count_lines,
)

SAMPLE = Path(__file__).resolve().parent / "sample.md"
PREVIEW_COLUMNS = 44


def preview(text: str, columns: int = PREVIEW_COLUMNS) -> str:
    """The start of ``text`` on one line (line endings and tabs escaped), cut to fit in
    ``columns`` terminal columns (CJK and emoji take two)."""
    shown = text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")
    kept: list[str] = []
    width = 0
    for char in shown:
        char_width = 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if width + char_width > columns - 1:
            return "".join(kept) + "…"
        kept.append(char)
        width += char_width
    return shown


def run(
    title: str,
    source: str,
    splitter: BudgetedSplitter,
    unit: str,
) -> list[Chunk]:
    """Split ``source``, print one line per chunk, check every span and size, summarise."""
    chunks = splitter.split(source)
    budget, length = splitter.chunk_size, splitter.length
    print(f"== {title}")
    for chunk in chunks:
        assert source[chunk.start : chunk.end] == chunk.text, f"chunk {chunk.index} is no span"
        measured = length.count(chunk.text)
        assert measured == chunk.size <= budget, f"chunk {chunk.index}: {measured} > {budget}"
        print(
            f"[{chunk.index:>2}] {chunk.start:>4}-{chunk.end:<4}  "
            f"lines {chunk.start_line:>2}-{chunk.end_line:<2}  "
            f"{chunk.size:>3} {unit:<6}  {preview(chunk.text)}"
        )
    largest = max((chunk.size for chunk in chunks), default=0)
    print(
        f"-> {len(chunks)} chunks, all spans exact, max size {largest} {unit} "
        f"(budget {budget} {length.unit})\n"
    )
    return chunks


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else SAMPLE
    source = path.read_text(encoding="utf-8")
    print(f"{path.name}: {len(source)} characters, {count_lines(source)} lines\n")

    recursive = RecursiveSplitter(400, chunk_overlap=60)
    run("recursive, 400 characters, 60 overlap", source, recursive, "chars")
    try:
        tokens = ParagraphSplitter(96, length="cl100k_base")
    except TokenizerUnavailableError as error:
        print(f"paragraphs in cl100k_base tokens skipped: {error}")
        return 0
    run("paragraphs, 96 cl100k_base tokens", source, tokens, "tokens")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
