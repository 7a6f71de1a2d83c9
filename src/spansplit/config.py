"""The one vocabulary of every budgeted splitter, checked in one place.

``chunk_size`` is the budget of a chunk in the unit of ``length``; ``chunk_overlap`` (same
unit) is the most trailing context a chunk may repeat from the one before it;
``strip_whitespace`` trims each chunk (its span follows the trimmed text, and trimmed
whitespace never counts against the budget). Every splitter, adapter and the command line
build a :class:`ChunkConfig`, so a parameter means the same everywhere and a bad value
gets the same typed error that names it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .chunk import trim_span
from .sizing import LengthSpec, resolve_length
from .sizing.base import CodePoints, LengthFunction, TextMeasurer, Utf8Bytes, Utf16Units
from .validate import check_bool, check_int, check_overlap

_TIKTOKEN_MODULE = "spansplit.sizing.tiktoken"  # not imported here: tiktoken is optional


@dataclass(frozen=True, slots=True, init=False)
class ChunkConfig:
    """``chunk_size``, ``chunk_overlap``, ``length`` and ``strip_whitespace``, validated."""

    chunk_size: int
    chunk_overlap: int
    length: LengthFunction
    strip_whitespace: bool

    def __init__(
        self,
        chunk_size: int,
        chunk_overlap: int = 0,
        length: LengthSpec = None,
        strip_whitespace: bool = True,
    ) -> None:
        size = check_int("chunk_size", chunk_size, 1)
        overlap = check_overlap(chunk_overlap, size, "chunk_overlap", "chunk_size")
        object.__setattr__(self, "chunk_size", size)
        object.__setattr__(self, "chunk_overlap", overlap)
        object.__setattr__(self, "length", resolve_length(length))
        object.__setattr__(
            self, "strip_whitespace", check_bool("strip_whitespace", strip_whitespace)
        )

    def span_fits(
        self, text: str, measurer: TextMeasurer | None = None
    ) -> Callable[[int, int], bool]:
        """Whether a span of ``text`` is within ``chunk_size`` once trimmed (with
        ``strip_whitespace``), measured by ``measurer`` (the one packing measures ``text``
        with, so a token index is made once): the question of size that structure-aware
        levels ask, for a part that should stay whole if it fits."""
        count = (measurer or self.length.measurer(text)).count
        budget, trim = self.chunk_size, self.strip_whitespace
        # Units where an ASCII character never counts more than one.
        ascii_bound = isinstance(self.length, (CodePoints, Utf8Bytes, Utf16Units)) or (
            type(self.length).__module__ == _TIKTOKEN_MODULE
        )

        def fits(start: int, end: int) -> bool:
            if trim:
                start, end = trim_span(text, start, end)
            if ascii_bound and end - start <= budget and text[start:end].isascii():
                return True
            return count(start, end) <= budget

        return fits

    def __reduce__(self) -> tuple[type[ChunkConfig], tuple[int, int, LengthFunction, bool]]:
        settings = (self.chunk_size, self.chunk_overlap, self.length, self.strip_whitespace)
        return (ChunkConfig, settings)
