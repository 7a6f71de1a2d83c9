"""Token counts with tiktoken: the length function, and fast batch counting.

Encodings are loaded by :mod:`.tiktoken_loader` (offline where a local copy exists); the
few private tiktoken attributes that make counting fast are read in
:mod:`.tiktoken_internals`, which falls back to the public API.
"""

from __future__ import annotations

import functools
import os
import threading
import weakref
from array import array
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import accumulate, pairwise
from typing import TYPE_CHECKING, Any, TypeVar

from ..chunk import Span
from ..lines import optional_numpy
from .base import LengthFunction, TextMeasurer
from .pretoken_cuts import PretokenCuts, cuts_for
from .tiktoken_internals import (
    buffer_encoder,
    count_ordinary,
    encode_ordinary,
    encode_with_special,
    has_long_whitespace,
    pretokenizer_pattern,
    private_copy,
    token_bytes,
)
from .tiktoken_loader import _LOCK, encoding_name_for, encoding_names, load_encoding
from .token_index import (
    EXACT_INDEX_MIN_CHARS,
    INDEX_MIN_CHARS,
    ExactTokenIndexMeasurer,
    SharedSegments,
    TokenIndexMeasurer,
)

if TYPE_CHECKING:
    from tiktoken import Encoding

_T = TypeVar("_T")

__all__ = ["TiktokenLength", "encode_ordinary", "encode_with_special", "tiktoken_length"]


def tiktoken_length(name_or_model: str) -> TiktokenLength:
    """A :class:`TiktokenLength` for an encoding name (``cl100k_base``) or model (``gpt-4o``)."""
    return TiktokenLength(load_encoding(encoding_name_for(name_or_model)))


PARALLEL_MIN_CHARS = 1 << 16
"""Batches with fewer code points than this are counted in a plain loop (threads don't pay)."""

_POOL: ThreadPoolExecutor | None = None
_CHAR_STARTS: dict[str, bytes] = {}
_LONGEST_TOKEN_CHARS: dict[str, int] = {}
_POOL_PID = 0
_THREAD_STATE = threading.local()


THREADS_VARIABLE = "SPANSPLIT_THREADS"
"""Environment variable that caps the threads one process encodes with (``1``: no pool).
Worker processes of a batch set it to 1, so that N workers use N cores, not N squared."""


def _workers() -> int:
    """Threads worth using: the CPUs this process may run on, at most 8, or fewer where
    ``SPANSPLIT_THREADS`` says so."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    limit = os.environ.get(THREADS_VARIABLE, "")
    if limit.isdigit() and int(limit) >= 1:
        cpus = min(cpus, int(limit))
    return max(1, min(cpus, 8))


def _pool() -> ThreadPoolExecutor:
    """The shared counting pool (made anew in a forked child, whose threads did not survive)."""
    global _POOL, _POOL_PID
    with _LOCK:
        if _POOL is None or os.getpid() != _POOL_PID:
            _POOL = ThreadPoolExecutor(_workers(), thread_name_prefix="spansplit-count")
            _POOL_PID = os.getpid()
        return _POOL


def _balanced_groups(spans: Sequence[Span], groups: int) -> list[tuple[int, int]]:
    """Split ``spans`` into at most ``groups`` runs ``(first, stop)`` of similar total length."""
    total = sum(end - start for start, end in spans)
    bounds: list[tuple[int, int]] = []
    first, running, target = 0, 0, total / groups
    for index, (start, end) in enumerate(spans):
        running += end - start
        if running >= target * (len(bounds) + 1) and len(bounds) < groups - 1:
            bounds.append((first, index + 1))
            first = index + 1
    if first < len(spans):
        bounds.append((first, len(spans)))
    return bounds


SHORT_TEXT_CHARS = 16
"""Texts this short are counted once per :class:`TiktokenLength` (see ``count_short``)."""

SHORT_COUNTS_KEPT = 1 << 14
"""Counts of short texts kept; all are forgotten when there are this many."""


class TiktokenLength(LengthFunction):
    """Tokens of a ``tiktoken.Encoding``; special-token text such as ``<|endoftext|>`` counts
    as ordinary text (``encode_ordinary``), as it would in a document sent to a model."""

    additive = False

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.name = str(encoding.name)
        self.unit = f"{self.name} tokens"
        self._chars_per_token = 4.0  # sizes measure's first window; learnt as it goes
        self._short_counts: dict[str, int] = {}

    def count(self, text: str) -> int:
        return count_ordinary(self.encoding, text)

    def count_short(self, text: str) -> int:
        """:meth:`count`, remembered for texts of at most :data:`SHORT_TEXT_CHARS` code
        points: the ends of spans that a token index encodes are mostly the same few
        (``"\\n"``, ``")\\n"``, an indentation)."""
        if len(text) > SHORT_TEXT_CHARS:
            return len(encode_ordinary(self.encoding, text))
        known = self._short_counts.get(text)
        if known is None:
            if len(self._short_counts) >= SHORT_COUNTS_KEPT:
                self._short_counts.clear()
            known = self._short_counts[text] = len(self.encoding.encode_ordinary(text))
        return known

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by name when tiktoken knows the encoding, so a worker process loads it
        from its own copy (offline as here) instead of receiving megabytes of ranks."""
        if self.name in encoding_names():
            return (tiktoken_length, (self.name,))
        return (TiktokenLength, (self.encoding,))

    def count_spans(self, text: str, spans: Sequence[Span]) -> list[int]:
        """Sizes of the spans; large batches are shared among threads (the encoder releases
        the GIL), each thread counting one run of spans of similar total length."""
        if len(spans) < 2 or sum(e - s for s, e in spans) < PARALLEL_MIN_CHARS:
            return self._count_run(text, spans)
        workers = _workers()
        if workers < 2:
            return self._count_run(text, spans)
        runs = _balanced_groups(spans, workers)
        pool = _pool()
        futures = [pool.submit(self._count_run_on_pool, text, spans[a:b]) for a, b in runs[1:]]
        sizes = self._count_run(text, spans[runs[0][0] : runs[0][1]])
        for future in futures:
            sizes.extend(future.result())
        return sizes

    def count_spans_capped(self, text: str, spans: Sequence[Span], cap: int) -> list[int]:
        """Sizes of the spans; a long span is first encoded through a window sized from the
        code points per token seen so far, grown while it holds no more than ``cap + 16``
        tokens, and reported as ``cap + 1`` as soon as it holds more.

        Only the last pretoken of a window can differ from the whole span's (the window may
        cut a word), a difference of a few tokens, well inside the 16-token margin: a span
        reported over ``cap`` is over it, and a long one costs about one window to reject.
        """
        limit = cap + 16
        first_window = int(limit * self._chars_per_token * 1.25) + 64
        long = {i for i, (start, end) in enumerate(spans) if end - start > 2 * first_window}
        if not long:
            return self.count_spans(text, spans)
        exact = iter(self.count_spans(text, [s for i, s in enumerate(spans) if i not in long]))
        encode = functools.partial(encode_ordinary, self.encoding)
        sizes = []
        for index, (start, end) in enumerate(spans):
            if index not in long:
                sizes.append(next(exact))
                continue
            window = first_window
            while True:
                stop = min(end, start + window)
                tokens = len(encode(text[start:stop]))
                self._chars_per_token = max((stop - start) / max(tokens, 1), 0.25)
                if tokens > limit:
                    sizes.append(cap + 1)
                    break
                if stop == end:
                    sizes.append(tokens)
                    break
                window *= 2
        return sizes

    def measurer(self, text: str) -> TextMeasurer:
        """For a long text in cl100k_base or o200k_base, a measurer that encodes the text
        once and counts any span exactly from that (see :mod:`.token_index`)."""
        cuts = self._index_cuts() if len(text) >= EXACT_INDEX_MIN_CHARS else None
        if cuts is None:
            return TextMeasurer(self, text)
        if len(text) < INDEX_MIN_CHARS:
            return ExactTokenIndexMeasurer(self, text, cuts)
        return TokenIndexMeasurer(self, text, cuts)

    def _index_cuts(self) -> PretokenCuts | None:
        """The cuts a token index of this encoding counts with, or None where it cannot
        index (cuts unproven for its pattern, or a token of more than 254 characters)."""
        cuts = cuts_for(self.name, pretokenizer_pattern(self.encoding))
        if cuts is None or self._longest_token_chars() > 254:
            return None
        return cuts

    def _longest_token_chars(self) -> int:
        """The most characters that start in one token's bytes; found once per encoding."""
        longest = _LONGEST_TOKEN_CHARS.get(self.name)
        if longest is None:
            longest = _LONGEST_TOKEN_CHARS[self.name] = max(self.token_char_starts())
        return longest

    def workers(self) -> int:
        """Threads that encode at once (the encoder releases the GIL)."""
        return _workers()

    def in_background(self, function: Callable[[], None]) -> Future[None]:
        """``function`` started on the counting pool (worth it with :meth:`workers` 2 or more)."""
        return _pool().submit(function)

    def token_ends(
        self, text: str, cuts: Sequence[int], shared: SharedSegments | None = None
    ) -> array[int]:
        """The code point offset where each token of ``text`` ends (rounded up when it ends
        inside a character), the text encoded in the segments between ``cuts`` (a cut that
        is not a pretoken boundary changes the tokens next to it: the token index counts
        across such a seam by encoding): the first on this thread, the others on the pool
        (with ``shared``, on this pool thread and the thread that waits for them). With
        numpy installed, token ids stay in native buffers (4 bytes a token instead of
        about 36 in a Python list) and are mapped without a Python loop."""
        segments = list(pairwise(cuts))
        starts = self.token_char_starts()
        code = "I" if len(text) < 1 << 32 else "Q"
        np = optional_numpy()
        shared_buffer_encoder = buffer_encoder(self.encoding)
        if np is None or shared_buffer_encoder is None:

            def char_counts(span: Span, encoding: Encoding) -> bytes:
                tokens = encode_ordinary(encoding, text[span[0] : span[1]])
                return bytes(map(starts.__getitem__, tokens))

            counted = self._map_segments(char_counts, segments, shared)
            return array(code, accumulate(b"".join(counted)))
        table = np.frombuffer(starts, dtype=np.uint8)

        def mapped(span: Span, encoding: Encoding) -> Any:
            segment = text[span[0] : span[1]]
            if has_long_whitespace(segment):
                ids: Any = array("I", encode_ordinary(encoding, segment))
            else:
                ids = (buffer_encoder(encoding) or shared_buffer_encoder)(segment)
            return table[np.frombuffer(ids, dtype=np.uint32)]

        counts = self._map_segments(mapped, segments, shared)
        # summed straight into the array returned: 4 bytes a token at the peak, no copies
        ends = array(code, [0]) * sum(map(len, counts))
        view = np.frombuffer(ends, dtype=np.dtype(f"u{ends.itemsize}"))
        at = 0
        for index, part in enumerate(counts):
            counts[index] = table[:0]  # each part freed once summed
            if len(part):
                np.cumsum(part, dtype=view.dtype, out=view[at : at + len(part)])
                view[at : at + len(part)] += view[at - 1] if at else 0
            at += len(part)
        del view  # the array cannot be resized while a view of it exists
        return ends

    def _map_segments(
        self,
        encode: Callable[[Span, Encoding], _T],
        segments: list[Span],
        shared: SharedSegments | None = None,
    ) -> list[_T]:
        """``encode`` of each segment, the segments shared in runs among this thread (with
        the shared encoding) and the pool's (each with an encoding of its own); with
        ``shared``, this is a pool thread encoding ahead, helped by the thread that waits."""
        if shared is not None:
            return shared.run(encode, segments, self._thread_encoding())
        workers = min(_workers(), len(segments))
        if workers < 2:
            return [encode(segment, self.encoding) for segment in segments]
        bounds = [len(segments) * k // workers for k in range(workers + 1)]
        runs = [segments[a:b] for a, b in pairwise(bounds)]
        futures = [_pool().submit(self._map_run, encode, run) for run in runs[1:]]
        done = [encode(segment, self.encoding) for segment in runs[0]]
        for future in futures:
            done += future.result()
        return done

    def _map_run(self, encode: Callable[[Span, Encoding], _T], run: list[Span]) -> list[_T]:
        """``encode`` of each segment of ``run``, on a pool thread, with its own encoding."""
        encoding = self._thread_encoding()
        return [encode(segment, encoding) for segment in run]

    def _thread_encoding(self) -> Encoding:
        """This thread's own copy of the encoding, made the first time (about 20 MB for
        cl100k_base, 40 ms): tiktoken encodes fastest on the first thread that used an
        ``Encoding`` (see benchmarks/README.md), so each pool thread has one of its own."""
        copies: weakref.WeakKeyDictionary[Encoding, Encoding] | None
        copies = getattr(_THREAD_STATE, "encodings", None)
        if copies is None:
            copies = _THREAD_STATE.encodings = weakref.WeakKeyDictionary()
        copy = copies.get(self.encoding)
        if copy is None:
            copy = copies[self.encoding] = private_copy(self.encoding) or self.encoding
        return copy

    def token_char_starts(self) -> bytes:
        """For every token, how many characters start in its UTF-8 bytes (its bytes that
        are not continuation bytes), indexed by token; made once per encoding. Summed over
        a text's tokens, they give the code point offset where each token ends, rounded up
        when it ends inside a character."""
        starts = _CHAR_STARTS.get(self.name)
        if starts is None:
            ranks = token_bytes(self.encoding)
            counts = [0] * (max(ranks.values()) + 1)
            continuation = bytes(range(0x80, 0xC0))
            for token, rank in ranks.items():
                counts[rank] = len(token.translate(None, continuation))
            starts = _CHAR_STARTS[self.name] = bytes(min(count, 255) for count in counts)
        return starts

    def _count_run(self, text: str, spans: Sequence[Span]) -> list[int]:
        encoding = self.encoding
        return [count_ordinary(encoding, text[start:end]) for start, end in spans]

    def _count_run_on_pool(self, text: str, spans: Sequence[Span]) -> list[int]:
        encoding = self._thread_encoding()
        return [count_ordinary(encoding, text[start:end]) for start, end in spans]

    def prefix_hint(self, text: str, start: int, end: int, budget: int) -> int | None:
        """Code points covered by the first ``budget`` tokens of ``text[start:end]``.

        Encodes a window sized from the code points per token of the text's first
        characters (plus a margin), growing it only while it has no more than
        ``budget`` tokens, so the work is O(budget) even in a huge region. The bytes of the
        first ``budget`` tokens are mapped back to whole code points (a character split
        between tokens is left out). A window that cuts a long pretoken can give another
        hint than a longer one, and the cut found from it another chunk: the window depends
        on the text alone, so the same text always splits the same way.
        """
        if budget <= 0 or start >= end:
            return 0
        encoding = self.encoding
        # Code points per token from the text's first few dozen characters, encoded.
        sample = min(end, start + max(16, min(64, 4 * budget)))
        per_token = (sample - start) / max(len(encode_ordinary(encoding, text[start:sample])), 1)
        window = int(budget * max(per_token, 0.25) * 1.2) + 16
        while True:
            stop = min(end, start + window)
            piece = text[start:stop]
            tokens = encode_ordinary(encoding, piece)
            if len(tokens) > budget:
                covered = len(encoding.decode_bytes(tokens[:budget]))
                return len(piece.encode("utf-8")[:covered].decode("utf-8", "ignore"))
            if stop == end:
                return end - start
            growth = 2.0 if not tokens else max(1.5, 1.2 * (budget + 1) / len(tokens))
            window = int(window * growth) + 1

    def __repr__(self) -> str:
        return f"TiktokenLength({self.name!r})"
