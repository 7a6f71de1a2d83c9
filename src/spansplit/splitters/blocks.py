"""Paging blocks: structure-aware blocks of a target size that tile the input.

Headings and thematic breaks start a new block, blank lines end the current one, and all
other lines break only when the target would be exceeded. A single line longer than the
target is its own block, marked ``oversized``: the one case where a block exceeds the
target. Concatenating the blocks gives back the input exactly (a BOM included). (Seed
000's ``splitTextBlocks``: see :mod:`spansplit.compat`.)
"""

from __future__ import annotations

from itertools import accumulate, count, repeat
from operator import lt, sub

from ..boundaries.blocks import TEXT, block_layout
from ..chunk import Chunk, SizedSpan
from ..config import ChunkConfig
from ..packing import tile_batches
from ..sizing import LengthSpec
from ..sizing.base import LengthFunction
from .base import Splitter


class BlockSplitter(Splitter):
    """Paging blocks of at most ``chunk_size`` (in the unit of ``length``), tiling the text.

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
    until it fits, or takes more while they fit measured together (tokens join across
    lines; up to 8 times the lines the sum allowed).
    """

    kind = TEXT

    def __init__(self, chunk_size: int, *, length: LengthSpec = None) -> None:
        # No overlap and no trimming: blocks tile the text.
        self.config = ChunkConfig(chunk_size, 0, length, strip_whitespace=False)

    @property
    def chunk_size(self) -> int:
        """Target size of a block, in the unit of :attr:`length`."""
        return self.config.chunk_size

    @property
    def length(self) -> LengthFunction:
        """How sizes are measured."""
        return self.config.length

    def spans(self, text: str) -> list[SizedSpan]:
        spans: list[SizedSpan] = []
        for blocks in tile_batches(text, block_layout(text), self.config):
            spans += zip(blocks.starts, blocks.stops, blocks.sizes)
        return spans

    def _chunks(self, text: str, source: int, first_index: int) -> list[Chunk]:
        layout = block_layout(text)
        walker = layout.lines
        chunks: list[Chunk] = []
        first_line = 1
        for blocks in tile_batches(text, layout, self.config):
            starts, stops, sizes = blocks.starts, blocks.stops, blocks.sizes
            # Everything per block is done by ``map`` (C speed), a batch at a time. Blocks
            # tile the text and are whole lines, so line numbers come from counting the line
            # endings of each block once: a block starts on the line after the one the block
            # before ends with its line ending. (Counting in the block's own text is cheaper
            # than in a range of the source, whose code points may be wider.)
            texts = list(map(text.__getitem__, map(slice, starts, stops)))
            if walker.lone_cr:
                endings = list(map(walker.endings, starts, stops))
            else:
                endings = list(map(str.count, texts, repeat("\n")))
            first_lines = list(accumulate(endings, initial=first_line))
            last_lines = list(map(sub, first_lines[1:], repeat(1)))
            first_line = first_lines.pop()
            if stops[-1] == len(text) and text[-1] not in "\r\n":
                last_lines[-1] += 1  # the last block ends with no line ending
            chunks += map(
                Chunk,
                texts,
                starts,
                stops,
                count(first_index + len(chunks)),
                first_lines,
                last_lines,
                sizes,
                blocks.kinds,
                repeat(source),
                map(lt, repeat(self.chunk_size), sizes),  # oversized: size > target
            )
        return chunks


def split_blocks(text: str, chunk_size: int, *, length: LengthSpec = None) -> list[Chunk]:
    """Paging blocks of ``text``; see :class:`BlockSplitter` for the rules.

    ``"".join(b.text for b in blocks) == text``; each block is at most ``chunk_size``
    long in the unit of ``length`` unless it is one line (``block.oversized``).
    """
    return BlockSplitter(chunk_size, length=length).split(text)
