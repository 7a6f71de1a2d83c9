"""Paragraph chunks: paragraphs packed up to ``chunk_size``, then sentences, then words.

Paragraphs (maximal runs of non-blank lines) are packed greedily up to ``chunk_size``; a
paragraph over the budget is split at its line ends if it reads as code (indented lines,
doctest prompts, fences, table rows), else at sentence boundaries (Chinese and English punctuation,
UAX #29; a line ending inside a paragraph reads as a space, for hard-wrapped text), a
sentence over the budget at clauses, then word boundaries, and a word at line-break
opportunities or grapheme clusters where the real length function says the budget is
reached. The pieces of a paragraph that had to be split never share a chunk with its
neighbours, and are packed into chunks of even size. Overlap starts at a line of code, a
sentence, a clause or a word, the best that fits. A chunk that joins
paragraphs keeps the text between them. (Seed 003's token-limited paragraphs, done
right: see :mod:`spansplit.compat`.)
"""

from __future__ import annotations

from dataclasses import replace

from ..boundaries.blocks import fenced_blocks
from ..boundaries.linebreaks import CLAUSES, clause_starts_from, word_starts
from ..boundaries.paragraphs import code_line_spans, code_line_starts, paragraph_spans
from ..boundaries.sentences import SentenceLevel, SentenceStarts
from ..boundaries.words import word_spans
from ..chunk import Chunk, SizedSpan
from ..packing import Structure, pack
from ..sizing import LengthSpec
from .base import BudgetedSplitter

_STRUCTURE = Structure(
    (paragraph_spans, code_line_spans, SentenceLevel(wrapped=True), CLAUSES, word_spans),
    isolate=True,
    overlap_level=word_spans,
    overlap_boundaries=(code_line_starts, SentenceStarts(), clause_starts_from, word_starts),
)


class ParagraphSplitter(BudgetedSplitter):
    """Paragraphs packed into chunks of at most ``chunk_size`` (in ``length`` units);
    ``chunk_overlap`` repeats trailing sentences (else clauses, else words) of the previous
    chunk."""

    kind = "paragraphs"
    structure = _STRUCTURE

    def spans(self, text: str) -> list[SizedSpan]:
        # Overlap never starts inside fenced code that the chunk before holds to its end
        # (Markdown's fences, whose lines this splitter cuts as code): its last lines,
        # then its closing fence, would open the chunk.
        blocks = fenced_blocks(text) if self.chunk_overlap else []
        if not blocks:
            return super().spans(text)
        return pack(text, replace(self.structure, overlap_blocks=blocks), self.config)


def split_paragraphs(
    text: str,
    chunk_size: int,
    chunk_overlap: int = 0,
    *,
    length: LengthSpec = None,
    strip_whitespace: bool = True,
) -> list[Chunk]:
    """Shortcut for ``ParagraphSplitter(...).split(text)``."""
    splitter = ParagraphSplitter(
        chunk_size, chunk_overlap, length=length, strip_whitespace=strip_whitespace
    )
    return splitter.split(text)
