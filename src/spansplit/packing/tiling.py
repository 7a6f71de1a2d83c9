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
from itertools import accumulate, chain, compress, count, pairwise, repeat
from operator import lt, sub

from ..boundaries.blocks import TEXT, BlockLayout
from ..config import ChunkConfig
from ..lines import split_lines
from ..sizing.base import LengthFunction

LINE_WINDOW_CHARS = 1 << 14
"""Code points of a segment's lines read at a time when it is cut into blocks."""


def tile(text: str, layout: BlockLayout, config: ChunkConfig) -> Tiles:
    """The blocks of ``text`` for ``layout``, each within ``config.chunk_size`` unless it
    is one line (see the module docstring)."""
    return _Assembly(text, layout, config.chunk_size, config.length).run()


class Tiles:
    """``start``, ``stop``, ``size`` and ``kind`` of each block, as parallel lists."""

    __slots__ = ("kinds", "sizes", "starts", "stops")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.stops: list[int] = []
        self.sizes: list[int] = []
        self.kinds: list[str] = []


class _Assembly:
    """Greedy packing of whole lines into blocks, segment by segment.

    A segment (with the blank lines carried over from the one before) that fits the
    target whole is one block: the common case. In code points (and lengths that count
    them on this text), the segments that fit are found at C speed from the differences
    of their offsets and taken as they are; the others are cut with each block taking as
    many lines as fit, by looking back from the target for a line end. In other units,
    each segment is measured once, and one that does not fit is cut by the sums of the
    sizes of its lines (a non-additive length then measures each block for real and
    gives back lines until it fits).
    """

    def __init__(self, text: str, layout: BlockLayout, target: int, length: LengthFunction) -> None:
        self.text = text
        self.layout = layout
        self.target = target
        self.length = length
        self.blocks = Tiles()

    def run(self) -> Tiles:
        if self.length.counts_code_points(self.text):
            self._run_code_points()
        else:
            self._run_measured()
        return self.blocks

    def _run_code_points(self) -> None:
        layout, blocks, target = self.layout, self.blocks, self.target
        firsts, kinds, size = layout.firsts, layout.kinds, len(self.text)
        ends = [*firsts[1:], size]
        starts = [0, *ends[:-1]]  # blank lines before the first content join its block
        sizes = list(map(sub, ends, starts))
        start = 0  # where the next block starts: blank lines may come before a segment
        done = 0  # segments before this one are placed
        for cut in chain(compress(count(), map(lt, repeat(target), sizes)), [len(firsts)]):
            if cut < done:
                continue
            while done < cut and start != starts[done]:  # blank lines carried over
                start = self._pack_segment(start, firsts[done], ends[done], kinds[done])
                done += 1
            if done < cut:  # segments that fit whole, each one block
                blocks.starts += starts[done:cut]
                blocks.stops += ends[done:cut]
                blocks.sizes += sizes[done:cut]
                blocks.kinds += kinds[done:cut]
                start, done = ends[cut - 1], cut
            if cut < len(firsts):
                start = self._pack_segment(start, firsts[cut], ends[cut], kinds[cut])
                done = cut + 1
        if start < size:  # blank lines left over form the last blocks
            self._pack_code_points(start, size, size, size, TEXT, size)

    def _pack_segment(self, start: int, first: int, end: int, kind: str) -> int:
        """:meth:`_pack_code_points` for the segment ``[first, end)``."""
        _, content_end, _, _, lead_end = self.layout.segment(first, end, kind)
        return self._pack_code_points(start, first, content_end, end, kind, lead_end)

    def _run_measured(self) -> None:
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
                if measure is not None and j - i > 1:
                    block_size = measure(text[bounds[i] : bounds[j]])
                    while block_size > target and j - i > 1:
                        j -= 1
                        block_size = measure(text[bounds[i] : bounds[j]])
                else:
                    block_size = sums[j] - sums[i]
                self._add(bounds[i], bounds[j], block_size, first, kind, lead_end)
                i = j
            else:
                return bounds[i]
            window = window * 2 if i == 0 else LINE_WINDOW_CHARS
            start = bounds[i]
