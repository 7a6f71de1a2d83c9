"""Paging blocks (seed 000): structure-aware blocks of a target size that tile the input.

Headings and thematic breaks start a new block, blank lines end the current one, and all
other lines break only when the target would be exceeded. A single line longer than the
target is its own block, marked ``oversized``: the one case where a block exceeds the
target. Concatenating the blocks gives back the input exactly (a BOM included).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import partial
from itertools import accumulate, pairwise

from ..boundaries.blocks import TEXT, BlockLayout, block_layout
from ..chunk import Chunk
from ..lines import split_lines
from ..sizing import LengthSpec, resolve_length
from ..sizing.base import CodePoints, LengthFunction
from ..validate import check_int, check_text
from .base import SizedSpan, Splitter


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
        return [(start, stop, size) for start, stop, size, _ in self._blocks(text)]

    def split(self, text: str) -> list[Chunk]:
        check_text(text)
        return self._chunks(text, 0, 0)

    def split_texts(self, texts: Sequence[str]) -> list[Chunk]:
        chunks: list[Chunk] = []
        for source, text in enumerate(texts):
            check_text(text, f"texts[{source}]")
            chunks += self._chunks(text, source, len(chunks))
        return chunks

    def _blocks(self, text: str, layout: BlockLayout | None = None) -> list[Block]:
        layout = layout or block_layout(text)
        return _Assembly(text, layout, self.target_chars, self.length).run()

    def _chunks(self, text: str, source: int, first_index: int) -> list[Chunk]:
        # Blocks tile the text, so line numbers come from counting the line endings of each
        # block once, rather than from make_chunks looking every offset up.
        layout = block_layout(text)
        walker = layout.lines
        endings = walker.endings if walker.lone_cr else partial(text.count, "\n")
        target, line = self.target_chars, 1
        chunks = []
        for index, (start, stop, size, kind) in enumerate(self._blocks(text, layout), first_index):
            inside = endings(start, stop)
            last = line + inside - (text[stop - 1] in "\r\n")
            chunk = Chunk(
                text[start:stop], start, stop, index, line, last, size, kind, source, size > target
            )
            chunks.append(chunk)
            line += inside
        return chunks


def split_blocks(text: str, target_chars: int, *, length: LengthSpec = None) -> list[Chunk]:
    """Paging blocks of ``text`` (seed 000); see :class:`BlockSplitter` for the rules.

    ``"".join(b.text for b in blocks) == text``; each block is at most ``target_chars``
    long in the unit of ``length`` unless it is one line (``block.oversized``).
    """
    return BlockSplitter(target_chars, length).split(text)


Block = tuple[int, int, int, str]
"""``(start, stop, size, kind)`` of one block."""


class _Assembly:
    """Greedy packing of whole lines into blocks, segment by segment.

    A segment (with the blank lines carried over from the one before) that fits the
    target whole is one block: the common case, measured once. Otherwise each block takes
    as many lines as fit: in code points by looking back from the target for a line end;
    in other units by the sums of the sizes of the segment's lines (and a non-additive
    length then measures the block for real and gives back lines until it fits).
    """

    def __init__(self, text: str, layout: BlockLayout, target: int, length: LengthFunction) -> None:
        self.text = text
        self.layout = layout
        self.target = target
        self.length = length
        self.code_points = isinstance(length, CodePoints)
        self.blocks: list[Block] = []

    def run(self) -> list[Block]:
        size = len(self.text)
        layout = self.layout
        start = 0  # where the next block starts: blank lines may come before a segment
        for first, content_end, end, kind, lead_end in [
            *layout.segments,
            (size, size, size, TEXT, size),  # blank lines left over form the last blocks
        ]:
            if start >= content_end:
                continue
            if self.code_points:
                start = self._pack_code_points(start, first, content_end, end, kind, lead_end)
                continue
            whole = self.length.count(self.text[start:end])
            if whole <= self.target:
                self._add(start, end, whole, first, kind, lead_end)
                start = end
            else:
                start = self._pack(start, first, content_end, end, kind, lead_end)
        return self.blocks

    def _pack_code_points(
        self, start: int, first: int, content_end: int, end: int, kind: str, lead_end: int
    ) -> int:
        """As :meth:`_pack` for code points, where a size is a difference of offsets: the
        furthest line boundary within the target is found by ``rfind``, not line by line."""
        lines, target = self.layout.lines, self.target
        while start < content_end:
            limit = start + target
            if end <= limit:
                stop = end
            elif content_end <= limit:
                stop = lines.last_end(content_end, limit)  # as many blank lines as fit
            else:
                stop = lines.last_end(start, limit)
                if stop in self.layout.underlines and lines.start(stop) > max(start, first):
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
        self.blocks.append((start, stop, size, block_kind))

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
