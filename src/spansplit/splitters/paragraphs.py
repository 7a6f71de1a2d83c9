"""Seed 002 exactly: paragraphs with code point spans, line numbers and the seed's JSON."""

from __future__ import annotations

from typing import Any

from ..boundaries.paragraphs import paragraph_spans
from ..chunk import Chunk
from ..lines import count_lines
from .base import SizedSpan, Splitter


class ParagraphSplitter(Splitter):
    """Paragraphs as seed 002 defines them; ``size`` is the length in code points."""

    kind = "paragraph"

    def spans(self, text: str) -> list[SizedSpan]:
        return [(start, end, end - start) for start, end in paragraph_spans(text)]


def split_paragraphs(text: str) -> list[Chunk]:
    """Paragraphs of ``text``: maximal runs of non-blank lines, as seed 002 defines them.

    Each chunk's ``size`` is its length in code points and its ``kind`` is ``"paragraph"``.
    """
    return ParagraphSplitter().split(text)


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
