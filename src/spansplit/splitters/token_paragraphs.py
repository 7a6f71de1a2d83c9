"""Token-budgeted paragraphs (seed 003), done right.

Paragraphs (seed 002 rules) are packed greedily up to ``max_tokens``; a paragraph over the
budget is split at sentence boundaries (Chinese and English punctuation, UAX #29; a
line ending inside a paragraph is read as a space, so hard-wrapped text), a
sentence over the budget at word boundaries, and a word at grapheme clusters where the
real tokenizer says the budget is reached. The seed cut at ``max_tokens * 1.5``
characters, a guess that breaks the budget on CJK text; here every chunk is measured by
the real tokenizer. A chunk that joins paragraphs keeps the text between them.
"""

from __future__ import annotations

from ..boundaries.paragraphs import paragraph_spans
from ..boundaries.sentences import sentence_spans
from ..boundaries.words import word_spans
from ..chunk import Chunk
from ..packing import fit, merge
from ..sizing import LengthSpec, resolve_length
from ..validate import check_int, check_overlap
from .base import SizedSpan, Splitter


class TokenParagraphSplitter(Splitter):
    """Paragraphs packed into chunks of at most ``max_tokens`` under a real tokenizer.

    ``length`` defaults to tiktoken's ``cl100k_base`` (loaded offline where possible);
    any form :func:`spansplit.resolve_length` accepts works. As in seed 003, the pieces
    of a paragraph that had to be split never share a chunk with its neighbours.
    ``overlap`` (default 0) repeats trailing sentences (or words) of the previous chunk.
    """

    kind = "paragraphs"

    def __init__(
        self, max_tokens: int, length: LengthSpec = "cl100k_base", overlap: int = 0
    ) -> None:
        self.max_tokens = check_int("max_tokens", max_tokens, 1)
        self.overlap = check_overlap(overlap, max_tokens, "overlap", "max_tokens")
        self.length = resolve_length(length)

    def spans(self, text: str) -> list[SizedSpan]:
        paragraphs = paragraph_spans(text)
        pieces = fit(
            text,
            paragraphs,
            self.max_tokens,
            self.length,
            (_prose_sentences, word_spans),
            isolate=True,
            trim=True,
        )
        return merge(
            text,
            pieces,
            self.max_tokens,
            self.length,
            overlap=self.overlap,
            overlap_level=word_spans,
        )


def _prose_sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentences of one paragraph, its inner line endings read as spaces (hard wraps)."""
    return sentence_spans(text, start, end, wrapped=True)


def split_token_paragraphs(
    text: str, max_tokens: int, length: LengthSpec = "cl100k_base", overlap: int = 0
) -> list[Chunk]:
    """Shortcut for ``TokenParagraphSplitter(max_tokens, length, overlap).split(text)``."""
    return TokenParagraphSplitter(max_tokens, length, overlap).split(text)
