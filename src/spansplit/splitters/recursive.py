"""Recursive separator splitting (seed 004) with exact spans, real overlap and hard budgets.

Separators are tried coarsest first: the text is split on the first one that occurs,
consecutive small pieces are merged up to ``chunk_size``, and a piece still too large is
split again with the finer separators (LangChain's ``RecursiveCharacterTextSplitter``
scheme). Unlike it, every chunk is a span of the source, no chunk ever exceeds
``chunk_size`` under the length function (after the last separator, pieces are hard-cut
at grapheme clusters), and overlap is present between every pair of consecutive chunks
whenever a trailing piece fits in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import regex

from ..boundaries.separators import (
    PRESETS,
    KeepSeparator,
    check_keep_separator,
    compile_separators,
    first_present,
    split_at,
)
from ..chunk import Chunk
from ..errors import InvalidParameterError
from ..packing import Level, OverlapSearch, fit, merge
from ..sizing import LengthSpec, resolve_length
from ..sizing.base import CodePoints
from ..validate import check_int, check_overlap, check_text
from .base import SizedSpan, Splitter
from .recursive_scan import RecursiveScan, whitespace_prefix

DEFAULT_SEPARATORS: tuple[str, ...] = ("\n\n", "\n", " ", "")


class RecursiveSplitter(Splitter):
    """Split on separators, coarsest first, and merge the pieces up to ``chunk_size``.

    ``chunk_overlap`` (in the same unit) is the most trailing context a chunk repeats from
    the one before it, made of whole pieces. ``keep_separator``: ``False`` drops separators
    at chunk edges, ``True``/``"end"`` keeps each with the piece before it, ``"start"``
    with the piece after it. ``length`` is any form :func:`spansplit.resolve_length`
    accepts. ``strip_whitespace`` trims each chunk (its span follows the trimmed text).
    """

    def __init__(
        self,
        chunk_size: int,
        chunk_overlap: int = 0,
        separators: Sequence[str] = DEFAULT_SEPARATORS,
        keep_separator: KeepSeparator = False,
        length: LengthSpec = None,
        strip_whitespace: bool = True,
        separators_are_regex: bool = False,
    ) -> None:
        self.chunk_size = check_int("chunk_size", chunk_size, 1)
        self.chunk_overlap = check_overlap(chunk_overlap, chunk_size, "chunk_overlap", "chunk_size")
        self.keep_separator = check_keep_separator(keep_separator)
        self.length = resolve_length(length)
        self.strip_whitespace = bool(strip_whitespace)
        self.separators_are_regex = bool(separators_are_regex)
        # Checked before the tuple is made: tuple("\n\n") would be two separators.
        self._patterns = compile_separators(separators, self.separators_are_regex)
        self.separators = tuple(separators)
        self._levels: list[Level] = [self._level(i) for i in range(len(self._patterns))]
        # Code points, trimmed chunks and whitespace separators first: chunks can be read
        # off the text by scanning (recursive_scan), the same chunks, far fewer steps.
        scannable = type(self.length) is CodePoints and self.strip_whitespace
        self._scan_separators = whitespace_prefix(self._patterns) if scannable else ()
        # Literal separators dropped at cuts: overlap inside a piece is found by search.
        # (Patterns are compiled only with separators_are_regex; the filter narrows the type.)
        self._finer_levels: list[str | None] | None = (
            [p for p in self._patterns if not isinstance(p, regex.Pattern)]
            if not self.separators_are_regex and self.keep_separator is False
            else None
        )

    @classmethod
    def from_preset(cls, preset: str, chunk_size: int, **options: Any) -> RecursiveSplitter:
        """A splitter with the separators of a preset: one of ``spansplit.PRESETS``."""
        if preset not in PRESETS:
            raise InvalidParameterError("preset", preset, f"must be one of {sorted(PRESETS)}")
        chosen = PRESETS[preset]
        options.setdefault("keep_separator", chosen.keep_separator)
        return cls(
            chunk_size,
            separators=chosen.separators,
            separators_are_regex=chosen.regex,
            **options,
        )

    def _level(self, index: int) -> Level:
        separator, keep = self._patterns[index], self.keep_separator

        def level(text: str, start: int, end: int) -> list[tuple[int, int]]:
            return split_at(text, start, end, separator, keep)

        return level

    def spans(self, text: str) -> list[SizedSpan]:
        if not text:
            return []
        # Start at the first separator present, as the whole text rarely fits.
        first = first_present(text, 0, len(text), self._patterns)
        if first < len(self._scan_separators):
            search = OverlapSearch(text, self.length.measurer(text), self._finest_split)
            separators = self._scan_separators[first:]
            scan = RecursiveScan(
                text,
                separators,
                self.chunk_size,
                self.chunk_overlap,
                search,
                lambda start, end: self._packed_piece(text, start, end),
                self._finer_levels,
            )
            scanned = scan.spans()
            if scanned is not None:
                return scanned
        return self._packed_spans(text, first)

    def _packed_spans(self, text: str, first: int) -> list[SizedSpan]:
        """The general path: every piece measured (:func:`fit`), then packed (:func:`merge`);
        ``first`` is the index of the first separator present in ``text``."""
        if first < len(self._patterns):
            top = self._levels[first](text, 0, len(text))
            levels = self._levels[first + 1 :]
        else:
            top, levels = [(0, len(text))], []
        pieces = fit(
            text,
            top,
            self.chunk_size,
            self.length,
            levels,
            isolate=True,
            trim=self.strip_whitespace,
        )
        return merge(
            text,
            pieces,
            self.chunk_size,
            self.length,
            overlap=self.chunk_overlap,
            overlap_level=self._finest_split,
            trim=self.strip_whitespace,
        )

    def _packed_piece(self, text: str, start: int, end: int) -> list[SizedSpan]:
        """The general path on one piece too big for every whitespace separator, with the
        levels after them (overlap 0: its chunks are the piece's alone)."""
        levels = self._levels[len(self._scan_separators) :]
        pieces = fit(
            text, [(start, end)], self.chunk_size, self.length, levels, isolate=True, trim=True
        )
        return merge(text, pieces, self.chunk_size, self.length, trim=True)

    def _finest_split(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        """Pieces of ``text[start:end]`` at the coarsest separator that splits it: where no
        whole piece fits in the overlap, a finer one may (langchain#8142)."""
        for separator in self._patterns:
            if isinstance(separator, str) and text.find(separator, start, end) < 0:
                continue  # absent: one part (the cheap test of the common case)
            parts = split_at(text, start, end, separator, self.keep_separator)
            if len(parts) > 1:
                return parts
        return [(start, end)]

    def split_any(self, content: str | Sequence[str]) -> list[Chunk]:
        """Seed 004's input: one text or a list of texts (``chunk.source`` says which)."""
        if isinstance(content, str):
            return self.split(content)
        if isinstance(content, (bytes, bytearray, memoryview)) or not isinstance(content, Sequence):
            check_text(content, "content")  # raises the typed error that names the type
        return self.split_texts(content)


def split_recursive(
    content: str | Sequence[str],
    chunk_size: int,
    chunk_overlap: int = 0,
    separators: Sequence[str] = DEFAULT_SEPARATORS,
    keep_separator: KeepSeparator = False,
    length: LengthSpec = None,
    strip_whitespace: bool = True,
    separators_are_regex: bool = False,
) -> list[Chunk]:
    """Shortcut for ``RecursiveSplitter(...).split_any(content)``."""
    splitter = RecursiveSplitter(
        chunk_size,
        chunk_overlap,
        separators,
        keep_separator,
        length,
        strip_whitespace,
        separators_are_regex,
    )
    return splitter.split_any(content)


def content_view(chunks: Sequence[Chunk]) -> list[dict[str, Any]]:
    """Seed 004's output shape: ``[{"content": ..., "size": ...}, ...]``."""
    return [{"content": chunk.text, "size": chunk.size} for chunk in chunks]
