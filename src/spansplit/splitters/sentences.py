"""Sentence chunks: whole sentences packed up to ``chunk_size``, with overlap.

Chunks are whole sentences (UAX #29, CJK terminators, English abbreviations) packed up to
``chunk_size``; a sentence longer than that is cut at clauses, then at word boundaries,
then at line-break opportunities and grapheme clusters, so no chunk ever exceeds the
budget. Chunks are trimmed and keep the span of the trimmed text. Overlap is trailing
context of at most ``chunk_overlap`` units from the previous chunk, snapped to a sentence
start where one fits, else to a clause start, else to a word start (a line-break
opportunity: between ideographs in Chinese and Japanese).
(Seed 001's ``chunkText``, done right: see :mod:`spansplit.compat`.)
"""

from __future__ import annotations

from collections.abc import Collection

from ..boundaries.linebreaks import CLAUSES, clause_starts_from, word_starts
from ..boundaries.sentences import (
    DEFAULT_ABBREVIATIONS,
    SentenceLevel,
    SentenceStarts,
    check_abbreviations,
)
from ..boundaries.words import word_spans
from ..chunk import Chunk
from ..packing import Structure
from ..sizing import LengthSpec
from ..validate import check_bool
from .base import BudgetedSplitter


class SentenceSplitter(BudgetedSplitter):
    """Whole sentences packed into chunks of at most ``chunk_size`` (in ``length`` units).

    ``abbreviations`` are words whose full stop does not end a sentence (``()`` for none;
    :func:`~spansplit.sentence_spans` lists the other tailorings of UAX #29). ``wrapped``
    (default on) reads a line ending inside a paragraph as a space, so hard-wrapped prose
    (books, PDF text) is cut at its sentences, not at its lines; blank lines still end
    sentences. Turn it off where every line stands alone.
    """

    kind = "sentences"

    def __init__(
        self,
        chunk_size: int = 500,
        chunk_overlap: int = 0,
        *,
        length: LengthSpec = None,
        strip_whitespace: bool = True,
        abbreviations: Collection[str] = DEFAULT_ABBREVIATIONS,
        wrapped: bool = True,
    ) -> None:
        super().__init__(
            chunk_size, chunk_overlap, length=length, strip_whitespace=strip_whitespace
        )
        self.abbreviations = check_abbreviations(abbreviations)
        self.wrapped = check_bool("wrapped", wrapped)
        sentences = SentenceLevel(self.abbreviations, wrapped=self.wrapped)
        starts = SentenceStarts(self.abbreviations, wrapped=self.wrapped)
        self.structure = Structure(
            (sentences, CLAUSES, word_spans),
            overlap_level=word_spans,
            overlap_boundaries=(starts, clause_starts_from, word_starts),
        )


def split_sentences(
    text: str,
    chunk_size: int = 500,
    chunk_overlap: int = 0,
    *,
    length: LengthSpec = None,
    strip_whitespace: bool = True,
    abbreviations: Collection[str] = DEFAULT_ABBREVIATIONS,
    wrapped: bool = True,
) -> list[Chunk]:
    """Shortcut for ``SentenceSplitter(...).split(text)``."""
    splitter = SentenceSplitter(
        chunk_size,
        chunk_overlap,
        length=length,
        strip_whitespace=strip_whitespace,
        abbreviations=abbreviations,
        wrapped=wrapped,
    )
    return splitter.split(text)
