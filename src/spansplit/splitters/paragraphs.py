"""Seed 002 exactly: paragraphs with code point spans, line numbers and the seed's JSON."""

from __future__ import annotations

from typing import Any

from ..boundaries.paragraphs import paragraph_spans
from ..chunk import Chunk
from ..lines import LineIndex, count_lines
from ..validate import check_text


def split_paragraphs(text: str) -> list[Chunk]:
    """Paragraphs of ``text``: maximal runs of non-blank lines, as seed 002 defines them.

    Each chunk's ``size`` is its length in code points and its ``kind`` is ``"paragraph"``.
    """
    check_text(text)
    lines = LineIndex(text)
    chunks = []
    for index, (start, end) in enumerate(paragraph_spans(text)):
        first, last = lines.span_lines(start, end)
        chunks.append(
            Chunk(text[start:end], start, end, index, first, last, end - start, "paragraph")
        )
    return chunks


def paragraphs_json(text: str) -> dict[str, Any]:
    """Seed 002's result object: ``paragraph_count``, ``line_count_total``, ``paragraphs``."""
    chunks = split_paragraphs(text)
    return {
        "paragraph_count": len(chunks),
        "line_count_total": count_lines(text),
        "paragraphs": [
            {
                "index": c.index,
                "start": c.start,
                "end": c.end,
                "start_line": c.start_line,
                "end_line": c.end_line,
                "line_count": c.line_count,
                "text": c.text,
            }
            for c in chunks
        ],
    }
