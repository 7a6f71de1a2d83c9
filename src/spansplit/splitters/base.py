"""What every splitter shares: input checks, line numbers and the making of ``Chunk``s.

A splitter is a small configured object; subclasses only find ``(start, end, size)``
spans of one validated text, and this base turns them into chunks.
"""

from __future__ import annotations

import gc
from abc import ABC, abstractmethod
from collections.abc import Callable, Container, Iterable, Sequence
from functools import wraps
from typing import ParamSpec, TypeVar

from ..chunk import Chunk
from ..lines import LineIndex
from ..validate import check_text

SizedSpan = tuple[int, int, int]
"""``(start, end, size)`` of one chunk in its text."""

_P = ParamSpec("_P")
_R = TypeVar("_R")


def gc_paused(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``function`` with the cyclic garbage collector paused (if it was running).

    Splitting allocates many small objects that live until it returns; the collector's
    passes over them grow with the size of the text (a 16 MB text spent a third of its time
    in them) and find nothing to free. Reference counting frees as usual, and any cycle is
    collected once the collector runs again.
    """

    @wraps(function)
    def paused(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if not gc.isenabled():
            return function(*args, **kwargs)
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()

    return paused


def make_chunks(
    text: str,
    spans: Iterable[SizedSpan],
    kind: str | Sequence[str] = "text",
    *,
    source: int = 0,
    first_index: int = 0,
    oversized: Container[int] = (),
) -> list[Chunk]:
    """Chunks for ``spans`` of ``text``, numbered from ``first_index``, with line numbers.

    ``kind`` is one kind for all chunks or one per span; ``oversized`` holds the positions
    (in ``spans``) of chunks allowed over their target by contract (seed 000 blocks).
    """
    spans = spans if isinstance(spans, list) else list(spans)
    lines = LineIndex(text).spans_lines([(start, end) for start, end, _ in spans])
    if isinstance(kind, str):
        kinds: Sequence[str] = [kind] * len(spans)
    else:
        kinds = kind
    return [
        Chunk(
            text[start:end],
            start,
            end,
            first_index + position,
            first,
            last,
            size,
            kinds[position],
            source,
            position in oversized,
        )
        for position, ((start, end, size), (first, last)) in enumerate(zip(spans, lines))
    ]


class Splitter(ABC):
    """A configured splitter: :meth:`split` returns the chunks of one text, in order."""

    kind: str = "text"

    @abstractmethod
    def spans(self, text: str) -> list[SizedSpan]:
        """``(start, end, size)`` of each chunk of ``text``, already validated."""

    @gc_paused
    def split(self, text: str) -> list[Chunk]:
        """The chunks of ``text``; ``chunk.text == text[chunk.start:chunk.end]`` for each."""
        check_text(text)
        return make_chunks(text, self.spans(text), self.kind)

    @gc_paused
    def split_texts(self, texts: Sequence[str]) -> list[Chunk]:
        """Chunks of several texts in one list; ``chunk.source`` is the text's position."""
        chunks: list[Chunk] = []
        for source, text in enumerate(texts):
            check_text(text, f"texts[{source}]")
            chunks += make_chunks(
                text, self.spans(text), self.kind, source=source, first_index=len(chunks)
            )
        return chunks

    def split_text(self, text: str) -> list[str]:
        """Only the chunk texts, for callers that need plain strings."""
        return [chunk.text for chunk in self.split(text)]
