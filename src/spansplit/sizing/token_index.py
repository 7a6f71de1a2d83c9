"""Exact token counts of many spans of one text from one tiktoken encoding of the whole text.

Tokens never cross a pretoken boundary, and :mod:`.pretoken_cuts` finds positions that
are pretoken boundaries whatever the text around them (*cuts*). A span ``text[a:b]`` is
pretokenized from its first cut ``c >= a`` on exactly as the whole text is, up to its last
cut ``d <= b``. So its tokens are those of ``text[a:c]`` (encoded: usually one word),
the whole text's tokens between ``c`` and ``d`` (looked up), and those of ``text[d:b]``
(encoded: usually nothing, or a punctuation mark). One encoding of the whole text, made
in segments cut at cuts and shared among threads, then serves every span; a span with no
cut inside is encoded whole. Tested against tiktoken on generated and real text
(``tests/test_token_index.py``).

A long run with no cut (CJK without punctuation, emoji sequences, a whitespace run) is one
pretoken, and tiktoken's memory for one pretoken grows by tens of bytes per byte. So the
index encodes such a run in parts cut at *seams* (:data:`SEAM_CHARS` apart), which are not
pretoken boundaries: the index's token ends there are estimates, and a span whose counted
middle crosses a seam is encoded whole instead (it holds the whole run, so it is long).
"""

from __future__ import annotations

import functools
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, TypeVar

from ..chunk import Span
from ..lines import optional_numpy
from .base import TextMeasurer
from .pretoken_cuts import CUT_LOOKAHEAD, PretokenCuts
from .tiktoken_internals import encode_ordinary

if TYPE_CHECKING:
    from .tiktoken import TiktokenLength

_T = TypeVar("_T")

INDEX_MIN_CHARS = 1 << 15
"""Texts at least this long are packed by the index's estimates (:class:`TokenIndexMeasurer`)."""

EXACT_INDEX_MIN_CHARS = 1 << 11
"""Texts shorter than :data:`INDEX_MIN_CHARS` but at least this long are packed by exact
sizes, as span by span measuring packs them, counted from an index
(:class:`ExactTokenIndexMeasurer`); shorter ones are measured span by span."""

SEGMENT_CHARS = 1 << 20
"""The whole text is encoded in segments of about this size (bounded memory, threads)."""

SEAM_CHARS = 1 << 14
"""A window this long with no cut gets a seam in its middle (see the module docstring)."""

MEMO_SIZE = 4096
"""Span starts and ends whose contributions are kept (see :meth:`TokenIndexMeasurer.count`)."""

VECTOR_MIN_SPANS = 8
"""Batches of spans at least this long are looked up with numpy, when it is installed."""

REACH_MARGIN = 16
"""Tokens allowed for the difference between a span's estimate and its count: those come
from the few pretokens at its ends, each cut differently in the span and in the text."""


def exact_margin(cap: int) -> int:
    """How far below ``cap`` an estimate is counted exactly: :data:`REACH_MARGIN` tokens,
    less for a small cap (a quarter of it), where nearly every piece is that close and an
    estimate is off by a token or two at most."""
    return min(REACH_MARGIN, max(1, cap // 4))


class SharedSegments:
    """The segments of one text being encoded ahead on a pool thread, taken from the first
    on, while the thread that will need them (:meth:`help`) takes the rest from the last
    on once it has nothing else to do: where the text's structure took little time to
    read, the encode is still shared between two threads."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._encode: Callable[[Span, Any], Any] | None = None
        self._segments: list[Span] = []
        self._todo: deque[int] = deque()
        self._done: list[Any] = []
        self._left = 0

    def run(
        self, encode: Callable[[Span, Any], _T], segments: list[Span], encoding: Any
    ) -> list[_T]:
        """``encode`` of each segment (on the pool thread), with the help it gets; the
        first error of either thread is raised here."""
        with self._lock:
            self._encode, self._segments = encode, segments
            self._done, self._left = [None] * len(segments), len(segments)
            self._todo = deque(range(len(segments)))
        self._take(encoding, first=True)
        with self._lock:
            while self._left:
                self._lock.wait()
        for result in self._done:
            if isinstance(result, BaseException):
                raise result
        return self._done

    def help(self, encoding: Any) -> None:
        """Encode the segments not yet begun, from the last on (none if the pool thread
        has not reached its segments yet)."""
        self._take(encoding, first=False)

    def _take(self, encoding: Any, first: bool) -> None:
        while True:
            with self._lock:
                if not self._todo or self._encode is None:
                    return
                index = self._todo.popleft() if first else self._todo.pop()
                encode, segment = self._encode, self._segments[index]
            try:
                result: Any = encode(segment, encoding)
            except BaseException as error:  # raised by run, on the pool thread
                result = error
            with self._lock:
                self._done[index] = result
                self._left -= 1
                if not self._left:
                    self._lock.notify_all()


class TokenIndexMeasurer(TextMeasurer):
    """A :class:`TextMeasurer` that encodes its text once and answers from that encoding.

    The index keeps, for every token of the whole text, the code point offset where it ends
    (rounded up when a token ends inside a character): an array of 4 bytes per token, so
    how many tokens end by any offset is one binary search.
    """

    cheap_sizes = True

    def __init__(self, length: TiktokenLength, text: str, cuts: PretokenCuts) -> None:
        super().__init__(length, text)
        self.tokenizer = length
        self._cuts = cuts
        self._ends = array("I")  # code point offset where each token of the text ends
        self._vector: Any = None  # the same as a numpy array, when numpy is installed
        self._seams: list[int] = []  # where the index's encoding cut a pretoken, ascending
        self._encode = functools.partial(encode_ordinary, length.encoding)
        self._lefts: dict[int, tuple[int, int]] = {}  # what a span's start contributes
        self._rights: dict[int, tuple[int, int]] = {}  # what a span's end contributes
        self._built = False
        self._pending: Future[None] | None = None  # the index being built on the pool
        self._shared: SharedSegments | None = None  # its segments, to help with

    # -- the index ------------------------------------------------------------------------

    def prepare(self) -> None:
        """Start encoding the text on the counting pool while the caller reads the text's
        structure (the encoder releases the GIL); the caller, once it needs the index,
        encodes the segments the pool thread has not begun (:class:`SharedSegments`).
        Without a second thread, or for a text too short to share among threads, the
        index is built when first asked for, as otherwise."""
        if self._built or self._pending is not None or len(self.text) < INDEX_MIN_CHARS:
            return
        if self.tokenizer.workers() < 2:
            return
        seams = self._find_seams()
        bounds = sorted({*self._segment_cuts(), *seams})
        self._shared = SharedSegments()
        make = functools.partial(self._make, seams, bounds, self._shared)
        self._pending = self.tokenizer.in_background(make)

    def release(self) -> None:
        """Cancel an index :meth:`prepare` started that has not begun (one begun ends on
        its own)."""
        if self._pending is not None and self._pending.cancel():
            self._pending = self._shared = None

    def _build(self) -> None:
        """Make the index; where :meth:`prepare` started it on the pool, help with its
        segments and wait for it (its error, if any, is raised here), or make it here if
        it has not begun."""
        self.release()
        if self._pending is not None:
            if self._shared is not None:
                self._shared.help(self.tokenizer.encoding)
            self._pending.result()
            return
        seams = self._find_seams()
        self._make(seams, sorted({*self._segment_cuts(), *seams}))

    def _make(
        self, seams: list[int], bounds: list[int], shared: SharedSegments | None = None
    ) -> None:
        """The index, the text encoded between ``bounds`` (``shared``: on a pool thread,
        helped through ``shared``)."""
        ends = self.tokenizer.token_ends(self.text, bounds, shared)
        np = optional_numpy()
        vector = None if np is None else np.frombuffer(ends, dtype=f"u{ends.itemsize}")
        self._seams, self._ends, self._vector = seams, ends, vector
        self._built = True

    def _segment_cuts(self) -> list[int]:
        """Cuts about ``SEGMENT_CHARS`` apart (at least one segment per thread, for a text
        long enough to share among threads)."""
        text, first = self.text, self._cuts.first
        n = len(text)
        threads = self.tokenizer.workers() if n >= INDEX_MIN_CHARS else 1
        wanted = max(threads, -(-n // SEGMENT_CHARS))
        cuts = [0]
        for k in range(1, wanted):
            found = first(text, max(cuts[-1] + 1, k * n // wanted), n)
            if found is None:
                break
            cuts.append(found)
        cuts.append(n)
        return cuts

    def _find_seams(self) -> list[int]:
        """The middle of every window of ``SEAM_CHARS`` (at multiples of it) with no cut."""
        windows = self._cuts.cut_free_windows(self.text, SEAM_CHARS)
        return [at + SEAM_CHARS // 2 for at in windows]

    def _tokens_upto(self, position: int) -> int:
        """How many tokens of the whole text end at or before code point ``position``:
        differences are exact between pretoken boundaries, close elsewhere."""
        return bisect_right(self._ends, position)

    # -- measuring ----------------------------------------------------------------------

    def sizes(self, spans: Sequence[Span], cap: int) -> list[int]:
        """Estimates from the whole text's tokens (off by a token or two at the ends),
        counted exactly where an estimate is near ``cap`` (:func:`exact_margin`): a span
        reported within ``cap`` fits, so packing splits one that does not by its levels
        (a definition at its lines), not by a hard cut after the fact."""
        if not self._built:
            self._build()
        low = cap - exact_margin(cap)
        if self._vector is not None and len(spans) >= VECTOR_MIN_SPANS:
            np = optional_numpy()
            bounds = np.array(spans, dtype=self._vector.dtype)  # type: ignore[union-attr]
            upto = self._vector.searchsorted(bounds, side="right")  # as bisect_right
            estimates = upto[:, 1] - upto[:, 0]
            found: list[int] = estimates.tolist()
            near = np.flatnonzero((estimates > low) & (estimates <= cap)).tolist()  # type: ignore[union-attr]
        else:
            ends = self._ends  # as _tokens_upto, inlined: a batch is often many short spans
            found = [bisect_right(ends, b) - bisect_right(ends, a) for a, b in spans]
            near = [k for k, size in enumerate(found) if low < size <= cap]
        for k in near:
            found[k] = self.count(*spans[k])
        return found

    def estimated_fit(self, starts: Sequence[int], end: int, room: int) -> int:
        """The first of ``starts`` (ascending) whose estimate of ``text[start:end]`` is at
        most ``room``, by one binary search: the start of the last ``room`` tokens."""
        if not self._built:
            self._build()
        first = self._tokens_upto(end) - room  # the first token that must be left out
        threshold = self._ends[first - 1] if first > 0 else 0
        return min(bisect_left(starts, threshold), len(starts) - 1)

    def count_spans(self, spans: Sequence[Span]) -> list[int]:
        """Exact counts: each span's ends are encoded, its middle looked up."""
        count = self.count
        return [count(start, end) for start, end in spans]

    def count(self, start: int, end: int) -> int:
        """One exact count (see the module docstring).

        What a span's start contributes (its first cut, and the whole text's tokens before
        it less the tokens of the encoded head) and what its end contributes are kept for
        the next span that starts or ends there: overlap makes a chunk's start, and probes
        a chunk's end, several times."""
        if not self._built:
            self._build()
        left = self._lefts.get(start)
        if left is None or left[0] + CUT_LOOKAHEAD >= end:  # (found within a farther end)
            left = self._left(start, end)
            if left is None:
                return len(self._encode(self.text[start:end]))
        inner, before = left
        right = self._rights.get(end)
        if right is None or right[0] < inner:
            right = self._right(inner, end)
        seams = self._seams
        if seams and bisect_right(seams, inner) != bisect_left(seams, right[0]):
            return len(self._encode(self.text[start:end]))  # the middle's lookup crosses a seam
        return right[1] - before

    def _left(self, start: int, end: int) -> tuple[int, int] | None:
        """``(c, k)`` for the first cut ``c`` in ``[start, end)``: ``k`` is the number of
        the whole text's tokens before ``c`` less those of ``text[start:c]``; None if no
        cut lies there."""
        inner = self._cuts.first(self.text, start, end)
        if inner is None:
            return None
        before = bisect_right(self._ends, inner)
        if start < inner:
            before -= self.tokenizer.count_short(self.text[start:inner])
        if len(self._lefts) >= MEMO_SIZE:
            self._lefts.clear()
        self._lefts[start] = left = (inner, before)
        return left

    def _right(self, inner: int, end: int) -> tuple[int, int]:
        """``(d, k)`` for the last cut ``d`` in ``[inner, end]`` (``inner`` is a cut):
        ``k`` is the number of the whole text's tokens before ``d`` plus those of
        ``text[d:end]``."""
        text = self.text
        if end == len(text) or self._cuts.at(text, end):
            outer, after = end, 0
        else:
            found = self._cuts.last(text, inner, end)
            outer = inner if found is None else found
            after = self.tokenizer.count_short(text[outer:end])
        if len(self._rights) >= MEMO_SIZE:
            self._rights.clear()
        self._rights[end] = right = (outer, bisect_right(self._ends, outer) + after)
        return right

    def reach_back(self, end: int, size: int) -> int:
        """Where the last ``size`` tokens before ``end`` begin, less a margin of
        ``REACH_MARGIN`` tokens for the estimates' error at the ends."""
        if not self._built:
            self._build()
        first = self._tokens_upto(end) - size - REACH_MARGIN
        return self._ends[first - 1] if first > 0 else 0


class ExactTokenIndexMeasurer(TokenIndexMeasurer):
    """A token index that answers packing with exact sizes and no estimates, as measuring
    span by span does: a text shorter than :data:`INDEX_MIN_CHARS` gets the chunks it
    always got (estimates would pack some differently), only faster."""

    cheap_sizes = False

    def sizes(self, spans: Sequence[Span], cap: int) -> list[int]:
        return self.count_spans(spans)

    def reach_back(self, end: int, size: int) -> int:
        return 0
