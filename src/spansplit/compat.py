"""The five seed contracts, with their own names and output shapes.

spansplit's main API speaks one vocabulary (``chunk_size``, ``chunk_overlap``,
``length``). The systems it replaces each had their own; this module keeps their names
and shapes so that code written against them moves over unchanged:

====  ==========================  ================================================
seed  original                    here
====  ==========================  ================================================
000   ``splitTextBlocks``         :func:`split_text_blocks` (``target_chars``)
001   ``chunkText``               :func:`chunk_text` (``max_chars``, ``overlap``)
002   ``text-paragraphs-split``   :func:`paragraphs_json`, :class:`PlainParagraphSplitter`
003   ``_split_large_paragraph``  :func:`split_token_paragraphs` (``max_tokens``)
004   ``splitText``               :func:`split_text` (``{content, size}`` records)
====  ==========================  ================================================

Where a seed had a flaw (a chunk over its limit, lost positions, a character-count guess
for tokens), the function here has the fix; the README's table and the tests show both.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from .boundaries.paragraphs import paragraph_spans
from .boundaries.separators import KeepSeparator
from .chunk import Chunk, Page, SizedSpan, page
from .errors import InvalidParameterError, ParameterTypeError
from .lines import count_lines
from .sizing import LengthSpec
from .splitters.base import Splitter
from .splitters.blocks import BlockSplitter
from .splitters.paragraphs import ParagraphSplitter
from .splitters.recursive import DEFAULT_SEPARATORS, RecursiveSplitter
from .splitters.sentences import SentenceSplitter
from .validate import check_text


@contextmanager
def _seed_names(names: Mapping[str, str]) -> Iterator[None]:
    """Parameter errors raised inside name the seed's parameters (``max_chars``, not
    ``chunk_size``), as the caller wrote them."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")

    def renamed(message: str) -> str:
        return pattern.sub(lambda match: names[match.group()], message)

    try:
        yield
    except InvalidParameterError as error:
        raise InvalidParameterError(
            names.get(error.name, error.name), error.value, renamed(error.reason)
        ) from None
    except ParameterTypeError as error:
        raise ParameterTypeError(renamed(str(error))) from None


def split_text_blocks(text: str, target_chars: int, *, length: LengthSpec = None) -> list[Chunk]:
    """Seed 000: paging blocks of about ``target_chars`` that tile ``text``."""
    with _seed_names({"chunk_size": "target_chars"}):
        splitter = BlockSplitter(target_chars, length=length)
    return splitter.split(text)


def chunk_text(
    text: str, max_chars: int = 500, overlap: int = 0, *, length: LengthSpec = None
) -> list[Chunk]:
    """Seed 001: whole sentences in chunks of at most ``max_chars``, ``overlap`` repeated
    (never over the limit, exact spans, UAX #29 sentences: the seed's flaws fixed)."""
    with _seed_names({"chunk_size": "max_chars", "chunk_overlap": "overlap"}):
        splitter = SentenceSplitter(max_chars, overlap, length=length)
    return splitter.split(text)


class PlainParagraphSplitter(Splitter):
    """Seed 002: one chunk per paragraph, a maximal run of non-blank lines (spaces and
    tabs only count as blank), with no size budget and no Markdown; ``size`` is the
    length in code points and a paragraph's span keeps its first line's indentation."""

    kind = "paragraph"

    def spans(self, text: str) -> list[SizedSpan]:
        return [(start, end, end - start) for start, end in paragraph_spans(text)]


def paragraphs_json(text: str) -> dict[str, Any]:
    """Seed 002's result object: ``paragraph_count``, ``line_count_total``, ``paragraphs``."""
    chunks = PlainParagraphSplitter().split(text)
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


def split_token_paragraphs(
    text: str, max_tokens: int, length: LengthSpec = "cl100k_base", overlap: int = 0
) -> list[Chunk]:
    """Seed 003: paragraphs packed under ``max_tokens`` real tokens, then sentences, then
    words (never the seed's ``max_tokens * 1.5`` characters guess)."""
    with _seed_names({"chunk_size": "max_tokens", "chunk_overlap": "overlap"}):
        splitter = ParagraphSplitter(max_tokens, overlap, length=length)
    return splitter.split(text)


def split_text(
    content: str | Sequence[str],
    chunk_size: int,
    chunk_overlap: int = 0,
    separators: Sequence[str] = DEFAULT_SEPARATORS,
    keep_separator: KeepSeparator = False,
    *,
    length: LengthSpec = None,
) -> list[dict[str, Any]]:
    """Seed 004's ``splitText``: ``content`` is a text or a list of texts; the result is
    ``[{"content": ..., "size": ...}, ...]`` in order (use :class:`RecursiveSplitter`
    for the spans); ``length="utf16"`` counts as the seed did."""
    splitter = RecursiveSplitter(
        chunk_size, chunk_overlap, separators, keep_separator, length=length
    )
    if isinstance(content, str):
        return content_view(splitter.split(content))
    if isinstance(content, (bytes, bytearray, memoryview)) or not isinstance(content, Sequence):
        check_text(content, "content")  # raises the typed error that names the type
    return content_view(splitter.split_texts(content))


def content_view(chunks: Sequence[Chunk]) -> list[dict[str, Any]]:
    """Seed 004's output shape: ``[{"content": ..., "size": ...}, ...]``."""
    return [{"content": chunk.text, "size": chunk.size} for chunk in chunks]


__all__ = [
    "Page",
    "PlainParagraphSplitter",
    "chunk_text",
    "content_view",
    "page",
    "paragraphs_json",
    "split_text",
    "split_text_blocks",
    "split_token_paragraphs",
]
