"""Tiling: chunks of whole lines that tile the text, the paging blocks' extension of packing.

Paging blocks (seed 000) differ from every other splitter in three ways that the general
path does not do: chunks are whole lines and together give back the text exactly (no
trimming, nothing dropped); every structural segment (a heading, a fence, the text after
blank lines ...) starts a chunk, and the blank lines that end a segment go with it, or
start the next chunk when there is no room for them; a single line longer than the
budget is a chunk of its own (the one documented exception to budgets, marked
``oversized`` by the splitter) instead of being hard-cut. The segments and lines come
from :func:`spansplit.boundaries.blocks.block_layout`; this module only decides where
the chunks end, and labels each with the kind of the segment it starts.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from itertools import accumulate, chain, compress, count, pairwise, repeat
from operator import lt, sub

from ..boundaries.blocks import TEXT, BlockLayout
from ..config import ChunkConfig
from ..lines import split_lines
from ..sizing.base import LengthFunction

LINE_WINDOW_CHARS = 1 << 14
"""Code points of a segment's lines read at a time when it is cut into blocks."""

EXTEND_LINES = 8
"""With a length that is not additive, how many times the lines their summed sizes fit a
block may take where, measured together, more still fit."""

BATCH_BLOCKS = 1 << 12
"""Blocks handed over at a time by :func:`tile_batches` (about as many segments are read at
once): a megabyte of one-letter paragraphs is 333,000 blocks, whose lists held whole took
thirty times the text beside the blocks returned."""


def tile(text: str, layout: BlockLayout, config: ChunkConfig) -> Tiles:
    """The blocks of ``text`` for ``layout``, each within ``config.chunk_size`` unless it
    is one line (see the module docstring)."""
    whole = Tiles()
    for batch in tile_batches(text, layout, config):
        whole.extend(batch)
    return whole


def tile_batches(text: str, layout: BlockLayout, config: ChunkConfig) -> Iterator[Tiles]:
    """The blocks of :func:`tile`, in order, a batch of about :data:`BATCH_BLOCKS` at a
    time (a segment cut into many blocks may make a batch larger)."""
    return _Assembly(text, layout, config.chunk_size, config.length).run()


class Tiles:
    """``start``, ``stop``, ``size`` and ``kind`` of each block, as parallel lists."""

    __slots__ = ("kinds", "sizes", "starts", "stops")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.stops: list[int] = []
        self.sizes: list[int] = []
        self.kinds: list[str] = []

    def __len__(self) -> int:
        return len(self.starts)

    def extend(self, other: Tiles) -> None:
        """Append the blocks of ``other``."""
        self.starts += other.starts
        self.stops += other.stops
        self.sizes += other.sizes
        self.kinds += other.kinds


class _Assembly:
    """Greedy packing of whole lines into blocks, segment by segment.

    A segment (with the blank lines carried over from the one before) that fits the
    target whole is one block: the common case. In code points (and lengths that count
    them on this text), the segments that fit are found at C speed from the differences
    of their offsets and taken as they are; the others are cut with each block taking as
    many lines as fit, by looking back from the target for a line end. In other units,
    each segment is measured once, and one that does not fit is cut by the sums of the
    sizes of its lines (a non-additive length then measures each block for real and
    gives back lines until it fits, or takes more while they fit).
    """

    def __init__(self, text: str, layout: BlockLayout, target: int, length: LengthFunction) -> None:
        self.text = text
        self.layout = layout
        self.target = target
        self.length = length
        self.blocks = Tiles()

    def run(self) -> Iterator[Tiles]:
        """The blocks, a batch at a time (see :func:`tile_batches`)."""
        if self.length.counts_code_points(self.text):
            parts = self._run_code_points()
        else:
            parts = self._run_measured()
        for _ in parts:
            if len(self.blocks) >= BATCH_BLOCKS:
                yield self._handed_over()
        if len(self.blocks):
            yield self._handed_over()

    def _handed_over(self) -> Tiles:
        """The blocks added since the last batch, as the next batch."""
        batch, self.blocks = self.blocks, Tiles()
        return batch

    def _run_code_points(self) -> Iterator[None]:
        """Place the segments a window of :data:`BATCH_BLOCKS` at a time, yielding after
        each window."""
        layout, target = self.layout, self.target
        firsts, kinds, size = layout.firsts, layout.kinds, len(self.text)
        start = 0  # where the next block starts: blank lines may come before a segment
        for low in range(0, len(firsts), BATCH_BLOCKS):
            high = min(low + BATCH_BLOCKS, len(firsts))
            # segment low + i spans [starts[i], ends[i]); the blank lines before the first
            # content join its block
            ends = [*firsts[low + 1 : high], firsts[high] if high < len(firsts) else size]
            starts = [firsts[low] if low else 0, *ends[:-1]]
            sizes = list(map(sub, ends, starts))
            done = 0  # segments of the window before this one are placed
            for cut in chain(compress(count(), map(lt, repeat(target), sizes)), [len(ends)]):
                if cut < done:
                    continue
                while done < cut and start != starts[done]:  # blank lines carried over
                    start = self._pack_segment(
                        start, firsts[low + done], ends[done], kinds[low + done]
                    )
                    done += 1
                if done < cut:  # segments that fit whole, each one block
                    blocks = self.blocks
                    blocks.starts += starts[done:cut]
                    blocks.stops += ends[done:cut]
                    blocks.sizes += sizes[done:cut]
                    blocks.kinds += kinds[low + done : low + cut]
                    start, done = ends[cut - 1], cut
                if cut < len(ends):
                    start = self._pack_segment(
                        start, firsts[low + cut], ends[cut], kinds[low + cut]
                    )
                    done = cut + 1
            yield
        if start < size:  # blank lines left over form the last blocks
            self._pack_code_points(start, size, size, size, TEXT, size)

    def _pack_segment(self, start: int, first: int, end: int, kind: str) -> int:
        """:meth:`_pack_code_points` for the segment ``[first, end)``."""
        _, content_end, _, _, lead_end = self.layout.segment(first, end, kind)
        return self._pack_code_points(start, first, content_end, end, kind, lead_end)

    def _run_measured(self) -> Iterator[None]:
        """Place the segments one at a time, yielding after each."""
        size = len(self.text)
        start = 0  # where the next block starts: blank lines may come before a segment
        for first, content_end, end, kind, lead_end in chain(
            self.layout.segments(),
            [(size, size, size, TEXT, size)],  # blank lines left over form the last blocks
        ):
            if start >= content_end:
                continue
            # capped: a long segment over the target is told from its start (a megabyte of
            # blank lines is one pretoken, which tiktoken merges in 40 bytes a byte)
            whole = self.length.count_spans_capped(self.text, [(start, end)], self.target)[0]
            if whole <= self.target:
                self._add(start, end, whole, first, kind, lead_end)
                start = end
            else:
                start = self._pack(start, first, content_end, end, kind, lead_end)
            yield

    def _pack_code_points(
        self, start: int, first: int, content_end: int, end: int, kind: str, lead_end: int
    ) -> int:
        """As :meth:`_pack` for code points, where a size is a difference of offsets: the
        furthest line boundary within the target is found by ``rfind``, not line by line."""
        lines, target, underlines = self.layout.lines, self.target, self.layout.underlines
        while start < content_end:
            limit = start + target
            if end <= limit:
                stop = end
            elif content_end <= limit:
                stop = lines.last_end(content_end, limit)  # as many blank lines as fit
            else:
                stop = lines.last_end(start, limit)
                if underlines and stop in underlines and lines.start(stop) > max(start, first):
                    stop = lines.start(stop)  # keep a setext underline with its heading text
                elif stop <= start:
                    stop = lines.end(start)  # a line longer than the target: its own block
            self._add(start, stop, stop - start, first, kind, lead_end)
            start = stop
        return start

    def _add(self, start: int, stop: int, size: int, first: int, kind: str, lead_end: int) -> None:
        if start < first:
            block_kind = kind if stop > first else TEXT  # blank lines, then content?
        else:
            block_kind = kind if start < lead_end else TEXT
        blocks = self.blocks
        blocks.starts.append(start)
        blocks.stops.append(stop)
        blocks.sizes.append(size)
        blocks.kinds.append(block_kind)

    def _pack(
        self,
        start: int,
        first: int,
        content_end: int,
        end: int,
        kind: str,
        lead_end: int,
    ) -> int:
        """Blocks of ``[start, end)`` (over the target) until its content is placed;
        returns the next start. The lines are read a window at a time (a megabyte of
        blank lines listed at once took 120 times the text in memory)."""
        text, target, length = self.text, self.target, self.length
        measure = None if length.additive else length.count
        window = LINE_WINDOW_CHARS
        segment_start = start
        while True:
            stop = min(end, start + window)
            bounds = list(accumulate(map(len, split_lines(text[start:stop])), initial=start))
            complete = stop == end
            if not complete:
                bounds.pop()  # the last line may go on after the window
                if len(bounds) < 2:
                    window *= 2  # one line longer than the window
                    continue
            if complete and len(bounds) == 2 and start == segment_start:
                sums = [0, length.count(text[start:end])]  # one line: its exact size
            else:
                sums = list(accumulate(length.count_spans(text, list(pairwise(bounds))), initial=0))
            last = len(bounds) - 1
            at_first = bisect_left(bounds, first)
            at_content_end = bisect_left(bounds, content_end)
            i = 0
            while i < at_content_end:
                j = bisect_right(sums, sums[i] + target, i, last + 1) - 1
                if not complete and j >= last:
                    break  # the block may take lines after the window
                if j < at_content_end:
                    if bounds[j] in self.layout.underlines and j - 1 > max(i, at_first):
                        j -= 1  # keep a setext underline with its heading text
                    elif j <= i:
                        j = i + 1  # a line longer than the target is a block of its own
                if measure is not None:
                    block_size = measure(text[bounds[i] : bounds[j]])
                    while block_size > target and j - i > 1:
                        j -= 1
                        block_size = measure(text[bounds[i] : bounds[j]])
                    if block_size <= target and j < last:
                        # Lines measured together are often smaller than their sizes summed
                        # (a tokenizer joins tokens across lines): take more while they fit,
                        # up to EXTEND_LINES times as many (a flood of blank lines, a few
                        # tokens a thousand, is not measured a window at a time).
                        furthest = min(last, i + EXTEND_LINES * (j - i))
                        j, block_size = _furthest_fit(
                            text, bounds, i, j, furthest, block_size, target, measure
                        )
                        if not complete and j >= last:
                            break  # the block may take lines after the window
                        if (
                            j < at_content_end
                            and bounds[j] in self.layout.underlines
                            and j - 1 > max(i, at_first)
                        ):
                            j -= 1  # keep a setext underline with its heading text
                            block_size = measure(text[bounds[i] : bounds[j]])
                else:
                    block_size = sums[j] - sums[i]
                self._add(bounds[i], bounds[j], block_size, first, kind, lead_end)
                i = j
            else:
                return bounds[i]
            window = window * 2 if i == 0 else LINE_WINDOW_CHARS
            start = bounds[i]


def _furthest_fit(
    text: str,
    bounds: list[int],
    first: int,
    fits: int,
    limit: int,
    size: int,
    target: int,
    measure: Callable[[str], int],
) -> tuple[int, int]:
    """The furthest line boundary ``bounds[k]`` (``fits <= k <= limit``) such that the
    block ``text[bounds[first]:bounds[k]]`` measures within ``target``, where the block to
    ``bounds[fits]`` measures ``size`` (within it): found by galloping, then bisecting, in
    a few measures. The size returned is the block's as measured."""
    low, high, step = fits, limit + 1, 1  # the block to low fits; to high, it does not
    while low + 1 < high:
        probe = min(low + step, high - 1) if step else (low + high) // 2
        probe_size = measure(text[bounds[first] : bounds[probe]])
        if probe_size <= target:
            low, size = probe, probe_size
            step = 2 * step if step else 0
        else:
            high, step = probe, 0  # bisect from here on
    return low, size
