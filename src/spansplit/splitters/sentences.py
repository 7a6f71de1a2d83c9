"""Sentence chunks with overlap (seed 001), done right.

Chunks are whole sentences (UAX #29, CJK terminators, English abbreviations) packed up to
``max_chars``; a sentence longer than that is cut at word boundaries, then at grapheme
clusters, so no chunk ever exceeds the limit (the seed could return ``max_chars + 1``
characters). Chunks are trimmed and keep the span of the trimmed text (the seed lost
positions). Overlap is trailing context of at most ``overlap`` units from the previous
chunk, snapped to a sentence boundary where one fits, else to a word boundary.
"""

from __future__ import annotations

from collections.abc import Collection

from ..boundaries.sentences import DEFAULT_ABBREVIATIONS, sentence_spans
from ..boundaries.words import word_spans
from ..chunk import Chunk
from ..packing import fit, merge
from ..sizing import LengthSpec, resolve_length
from ..validate import check_int, check_overlap
from .base import SizedSpan, Splitter


class SentenceChunker(Splitter):
    """Whole sentences packed into chunks of at most ``max_chars`` (in ``length`` units).

    ``max_chars`` keeps seed 001's name; with ``length="cl100k_base"`` it counts tokens.
    ``abbreviations`` are words whose period does not end a sentence (``()`` for pure
    UAX #29). ``wrapped`` (default on) reads a line ending inside a paragraph as a space,
    so hard-wrapped prose (books, PDF text) is cut at its sentences, not at its lines;
    blank lines still end sentences. Turn it off where every line stands alone.
    """

    kind = "sentences"

    def __init__(
        self,
        max_chars: int = 500,
        overlap: int = 0,
        length: LengthSpec = None,
        abbreviations: Collection[str] = DEFAULT_ABBREVIATIONS,
        wrapped: bool = True,
    ) -> None:
        self.max_chars = check_int("max_chars", max_chars, 1)
        self.overlap = check_overlap(overlap, max_chars, "overlap", "max_chars")
        self.length = resolve_length(length)
        self.abbreviations = tuple(abbreviations)
        self.wrapped = bool(wrapped)

    def spans(self, text: str) -> list[SizedSpan]:
        sentences = sentence_spans(text, abbreviations=self.abbreviations, wrapped=self.wrapped)
        pieces = fit(text, sentences, self.max_chars, self.length, (word_spans,), trim=True)
        return merge(
            text,
            pieces,
            self.max_chars,
            self.length,
            overlap=self.overlap,
            overlap_level=word_spans,
        )


def chunk_sentences(
    text: str, max_chars: int = 500, overlap: int = 0, length: LengthSpec = None
) -> list[Chunk]:
    """Shortcut for ``SentenceChunker(max_chars, overlap, length).split(text)``."""
    return SentenceChunker(max_chars, overlap, length).split(text)
