"""Paging blocks (seed 000): structure-aware blocks of a target size that tile the input.

Headings and thematic breaks start a new block, blank lines end the current one, and all
other lines break only when the target would be exceeded. A single line longer than the
target is its own block, marked ``oversized``: the one case where a block exceeds the
target. Concatenating the blocks gives back the input exactly (a BOM included).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import accumulate, chain, compress, count, pairwise, repeat
from operator import lt, sub

from ..boundaries.blocks import TEXT, BlockLayout, block_layout
from ..chunk import Chunk
from ..lines import split_lines
from ..sizing import LengthSpec, resolve_length
from ..sizing.base import CodePoints, LengthFunction
from ..validate import check_int, check_text
from .base import SizedSpan, Splitter, gc_paused


class BlockSplitter(Splitter):
    """Paging blocks of at most ``target_chars`` (in the unit of ``length``), tiling the text.

    A block is whole lines. It starts at a heading (ATX or setext: a setext heading's text
    and underline stay together), a thematic break, a code fence, the first line after a
    closing fence, or the first non-blank line after blank lines; otherwise lines join the
    current block while it stays within the target. Blank lines belong to the block they
    end. When that block has no room for them, they start the next block (and form the
    last block if no content follows); only if they fit with neither the content before
    nor the content after do they make a block of their own. A code fence longer than
    the target is cut between its lines, and every piece is a ``code`` block.

    ``kind`` of each block: ``"heading"`` (starts with a heading; it holds the section
    text that follows up to the next blank line), ``"rule"`` (starts with a thematic
    break), ``"code"`` (a fenced code block, or a piece of one), ``"text"`` (anything else,
    including the rest of a section cut for size and a text of blank lines only).

    ``length`` is anything :func:`spansplit.resolve_length` accepts: code points by
    default, ``"utf16"`` to count as JavaScript does (parity with the TypeScript
    original), ``"utf8"``, a tokenizer ... Sizes are always measured with it. For a
    length that is not additive (a tokenizer), a stretch between two forced breaks that
    fits for real is one block; a longer one is cut where the sum of its lines' sizes
    reaches the target, and each block is then measured for real and gives back lines
    until it fits.
    """

    kind = TEXT

    def __init__(self, target_chars: int, length: LengthSpec = None) -> None:
        self.target_chars = check_int("target_chars", target_chars, 1)
        self.length = resolve_length(length)

    def spans(self, text: str) -> list[SizedSpan]:
        blocks = self._blocks(text, block_layout(text))
        return list(zip(blocks.starts, blocks.stops, blocks.sizes))

    @gc_paused
    def split(self, text: str) -> list[Chunk]:
        check_text(text)
        return self._chunks(text, 0, 0)

    @gc_paused
    def split_texts(self, texts: Sequence[str]) -> list[Chunk]:
        chunks: list[Chunk] = []
        for source, text in enumerate(texts):
            check_text(text, f"texts[{source}]")
            chunks += self._chunks(text, source, len(chunks))
        return chunks

    def _blocks(self, text: str, layout: BlockLayout) -> _Blocks:
        return _Assembly(text, layout, self.target_chars, self.length).run()

    def _chunks(self, text: str, source: int, first_index: int) -> list[Chunk]:
        layout = block_layout(text)
        blocks = self._blocks(text, layout)
        starts, stops, sizes = blocks.starts, blocks.stops, blocks.sizes
        if not starts:
            return []
        # Everything per block is done by ``map`` (C speed). Blocks tile the text and are
        # whole lines, so line numbers come from counting the line endings of each block
        # once: a block starts on the line after the one the block before ends with its
        # line ending. (Counting in the block's own text is cheaper than in a range of the
        # source, whose code points may be wider.)
        texts = list(map(text.__getitem__, map(slice, starts, stops)))
        walker = layout.lines
        if walker.lone_cr:
            endings = list(map(walker.endings, starts, stops))
        else:
            endings = list(map(str.count, texts, repeat("\n")))
        first_lines = list(accumulate(endings, initial=1))
        last_lines = list(map(sub, first_lines[1:], repeat(1)))
        if text[-1] not in "\r\n":
            last_lines[-1] += 1  # the last block ends with no line ending
        return list(
            map(
                Chunk,
                texts,
                starts,
                stops,
                count(first_index),
                first_lines,
                last_lines,
                sizes,
                blocks.kinds,
                repeat(source),
                map(lt, repeat(self.target_chars), sizes),  # oversized: size > target
            )
        )


def split_blocks(text: str, target_chars: int, *, length: LengthSpec = None) -> list[Chunk]:
    """Paging blocks of ``text`` (seed 000); see :class:`BlockSplitter` for the rules.

    ``"".join(b.text for b in blocks) == text``; each block is at most ``target_chars``
    long in the unit of ``length`` unless it is one line (``block.oversized``).
    """
    return BlockSplitter(target_chars, length).split(text)


class _Blocks:
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
    target whole is one block: the common case. In code points, the segments that fit
    are found at C speed from the differences of their offsets and taken as they are;
    the others are cut with each block taking as many lines as fit, by looking back from
    the target for a line end. In other units, each segment is measured once, and one
    that does not fit is cut by the sums of the sizes of its lines (a non-additive
    length then measures each block for real and gives back lines until it fits).
    """

    def __init__(self, text: str, layout: BlockLayout, target: int, length: LengthFunction) -> None:
        self.text = text
        self.layout = layout
        self.target = target
        self.length = length
        self.blocks = _Blocks()

    def run(self) -> _Blocks:
        if isinstance(self.length, CodePoints):
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
        content_end = max(first, self.layout.blank_starts.get(end, end))
        lead_end = self.layout.lead_ends.get(first, first + 1)
        return self._pack_code_points(start, first, content_end, end, kind, lead_end)

    def _run_measured(self) -> None:
        size = len(self.text)
        start = 0  # where the next block starts: blank lines may come before a segment
        for first, content_end, end, kind, lead_end in [
            *self.layout.segments,
            (size, size, size, TEXT, size),  # blank lines left over form the last blocks
        ]:
            if start >= content_end:
                continue
            whole = self.length.count(self.text[start:end])
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
        self, start: int, first: int, content_end: int, end: int, kind: str, lead_end: int
    ) -> int:
        """Blocks of ``[start, end)`` until its content is placed; returns the next start."""
        text, target, length = self.text, self.target, self.length
        bounds = list(accumulate(map(len, split_lines(text[start:end])), initial=start))
        sums = list(accumulate(length.count_spans(text, list(pairwise(bounds))), initial=0))
        last = len(bounds) - 1
        at_first = bisect_left(bounds, first)
        at_content_end = bisect_left(bounds, content_end)
        measure = None if length.additive else length.count
        i = 0
        while i < at_content_end:
            j = bisect_right(sums, sums[i] + target, i, last + 1) - 1
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
        return bounds[i]
