"""Packing pieces into chunks: the second step of the general packing path.

:func:`merge` packs consecutive pieces greedily up to the budget, adds overlap made of
whole trailing pieces (or of a finer level inside the last piece, :class:`OverlapSearch`),
trims whitespace and measures every chunk with the real length function, shrinking any
chunk that a non-additive length (a tokenizer) finds over the budget.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import accumulate

from ..boundaries.levels import Level
from ..chunk import SizedSpan, Span, trim_span
from ..sizing.base import LengthFunction, TextMeasurer
from .pieces import Pieces, hard_cut

VERIFY_BATCH = 128
"""Chunks planned ahead and measured together when the length is not additive."""


def merge(
    text: str,
    pieces: Pieces,
    budget: int,
    length: LengthFunction,
    *,
    overlap: int = 0,
    overlap_level: Level | None = None,
    trim: bool = True,
) -> list[SizedSpan]:
    """Pack ``pieces`` into ``(start, end, size)`` chunks of at most ``budget``.

    A chunk covers the text from its first piece's start to its last piece's end, gaps
    included. With ``overlap``, a chunk starts with the longest run of trailing pieces of
    the previous chunk that measures at most ``overlap`` and leaves room for one new piece;
    where no whole piece fits, ``overlap_level`` (e.g. words) offers finer starts inside
    the previous chunk's last piece. Every chunk holds at least one new piece and starts
    after the previous chunk starts; with ``trim``, pieces of whitespace alone are dropped.
    """
    measurer = pieces.measurer or length.measurer(text)
    if trim and not pieces.trimmed:
        pieces = _without_blank(text, pieces, measurer)
    packer = _Packer(text, pieces, budget, length, measurer, overlap, overlap_level, trim)
    return packer.run()


def _without_blank(text: str, pieces: Pieces, measurer: TextMeasurer) -> Pieces:
    """``pieces`` without those made only of whitespace, which trimming would erase.

    A blank piece starting a chunk would leave that chunk nothing but its overlap (the
    text before it), so it is dropped; the text it covers stays inside any chunk that
    spans it. A break on a dropped piece moves to the next kept piece.
    """
    spans = pieces.spans
    kept = [
        i
        for i, (start, end) in enumerate(spans)
        if not (text[start].isspace() and text[end - 1].isspace() and text[start:end].isspace())
    ]
    if len(kept) == len(spans):
        return pieces
    out = Pieces(
        [spans[i] for i in kept],
        [pieces.sizes[i] for i in kept],
        breaks={bisect_left(kept, b) for b in pieces.breaks} - {len(kept)},
        measurer=measurer,
    )
    if not measurer.length.additive:
        # The size from the previous kept piece's end must include the dropped pieces.
        previous = -1
        for i in kept:
            if previous < 0:
                out.joined.append(pieces.sizes[i])
            elif i == previous + 1:
                out.joined.append(pieces.joined[i])
            else:
                out.joined.append(measurer.count(spans[previous][1], spans[i][1]))
            previous = i
    return out


class OverlapSearch:
    """Where the overlap of a chunk may start: the longest trailing context within a room.

    Shared by every packer: ``longest_fit`` chooses among candidate starts by exact counts,
    ``finer`` looks inside a chunk's last piece with ``level`` when no whole piece fits.
    """

    def __init__(self, text: str, measurer: TextMeasurer, level: Level | None) -> None:
        self.text = text
        self.measurer = measurer
        self.level = level

    def longest_fit(self, starts: list[int], end: int, room: int) -> tuple[int | None, int]:
        """The longest context ``text[s:end]`` for ``s`` in ``starts`` (ascending, so longest
        first and sizes falling) that really measures within ``room``.

        A binary search on exact counts; where the measurer estimates cheaply, the estimates
        choose the first probe and its neighbour the second, which usually settles it.
        """
        count = self.measurer.count
        low, high = 0, len(starts) - 1  # the answer lies in low..high, or none fits
        guess = (low + high) // 2
        if self.measurer.cheap_sizes and starts:
            guess = self.measurer.estimated_fit(starts, end, room)
        best: tuple[int | None, int] = (None, 0)
        probes = 0
        while low <= high:
            if probes == 0:
                probe = guess
            elif probes == 1 and self.measurer.cheap_sizes:
                probe = high if best[0] is not None else low  # the first probe's neighbour
            else:
                probe = (low + high) // 2
            probes += 1
            size = count(starts[probe], end)
            if size <= room:
                best, high = (starts[probe], size), probe - 1
            else:
                low = probe + 1
        return best

    def finer(self, start: int, end: int, room: int, floor: int) -> tuple[int | None, int]:
        """Overlap from the finer level inside the last piece ``text[start:end]``,
        descending while none fits; ``(None, 0)`` without a level or a fitting start.

        Candidates are the suffixes of ``text[start:end]`` that begin at a part, after
        ``floor``, and hold more than whitespace (trimming would erase the rest); the
        longest that fits wins. When none fits, the last part with content is split further.
        """
        if self.level is None:
            return None, 0
        text = self.text
        tail = end  # text[tail:end] is blank
        while tail > start and text[tail - 1].isspace():
            tail -= 1
        region_end = end
        # No context from before this fits: split only what follows (its first part, maybe
        # cut short, is never a candidate, as the whole piece's first part is not).
        start = max(start, self.measurer.reach_back(end, room))
        while True:
            parts = self.level(text, start, region_end)
            if len(parts) < 2:
                return None, 0
            starts = [s for s, _ in parts[1:] if floor < s < tail]
            found = self.longest_fit(starts, end, room)
            if found[0] is not None:
                return found
            content = [part for part in parts if part[0] < tail]
            if not content:
                return None, 0
            start, region_end = content[-1]


@dataclass(slots=True)
class _Plan:
    first: int  # index of the first new piece
    last: int  # index of the last piece
    overlap_start: int | None  # text offset where the overlap begins, if any
    overlap_size: int  # estimated size of the overlap


class _Packer:
    """Greedy packing with overlap; sizes are estimates until the final measurement.

    ``prefix[k]`` is the sum of ``joined[:k]``, so the estimated size of pieces
    ``i..j`` is ``sizes[i] + prefix[j + 1] - prefix[i + 1]`` and the greedy end of a chunk
    is one binary search.
    """

    def __init__(
        self,
        text: str,
        pieces: Pieces,
        budget: int,
        length: LengthFunction,
        measurer: TextMeasurer,
        overlap: int,
        overlap_level: Level | None,
        trim: bool,
    ) -> None:
        self.text = text
        self.measurer = measurer
        self.spans = pieces.spans
        self.sizes = pieces.sizes
        self.budget = budget
        self.length = length
        self.overlap = overlap
        self.search = OverlapSearch(text, measurer, overlap_level)
        self.trim = trim
        if length.additive and self.spans:
            ends = [end for _, end in self.spans]
            self.joined = measurer.count_spans(list(zip([self.spans[0][0], *ends], ends)))
        else:
            self.joined = list(pieces.joined)
        self._index(pieces.breaks)

    def _index(self, breaks: set[int]) -> None:
        self.breaks = sorted(breaks)
        self.prefix = [0, *accumulate(self.joined)]

    def run(self) -> list[SizedSpan]:
        """Plan chunks ahead in batches and measure each batch at once (a tokenizer counts a
        batch in parallel); a chunk over budget is shrunk and planning resumes after it.
        Measured spans are remembered, so a re-plan that meets the same chunk again does not
        measure it twice."""
        chunks: list[SizedSpan] = []
        batch = len(self.spans) if self.length.additive else VERIFY_BATCH
        measured: dict[Span, int] = {}
        plan: _Plan | None = self._greedy(0, None, 0) if self.spans else None
        while plan is not None:
            plans: list[_Plan] = []
            while plan is not None and len(plans) < batch:
                plans.append(plan)
                plan = self._after(plan)
            bounds = [self._bounds(p) for p in plans]
            todo = [span for span in dict.fromkeys(bounds) if span not in measured]
            measured.update(zip(todo, self.measurer.count_spans(todo)))
            for planned, (start, end) in zip(plans, bounds):
                size = measured[start, end]
                if size > self.budget:
                    # A non-additive length found this plan over budget: shrink it for real.
                    fixed = self._shrink(planned)
                    start, end = self._bounds(fixed)
                    size = self.measurer.count(start, end)
                    plan = self._after(fixed)
                    if end > start:
                        chunks.append((start, end, size))
                    break
                if end > start:
                    chunks.append((start, end, size))
        return chunks

    def _greedy(self, first: int, overlap_start: int | None, overlap_size: int) -> _Plan:
        """The longest plan from piece ``first`` (after the overlap) within the budget."""
        prefix = self.prefix
        head = self.sizes[first] if overlap_start is None else overlap_size + self.joined[first]
        last = bisect_right(prefix, self.budget - head + prefix[first + 1], first + 1) - 2
        following_break = bisect_right(self.breaks, first)
        if following_break < len(self.breaks):
            last = min(last, self.breaks[following_break] - 1)
        return _Plan(first, max(last, first), overlap_start, overlap_size)

    def _after(self, plan: _Plan) -> _Plan | None:
        """The plan of the chunk after ``plan``, with its overlap; ``None`` at the end."""
        following = plan.last + 1
        if following >= len(self.spans):
            return None
        if self.overlap == 0:
            return self._greedy(following, None, 0)
        room = min(self.overlap, self.budget - self.joined[following])
        start, size = self._overlap(plan, room) if room > 0 else (None, 0)
        return self._greedy(following, start, size)

    def _overlap(self, plan: _Plan, room: int) -> tuple[int | None, int]:
        """Start and size of the longest trailing context of ``plan`` that fits ``room``.

        The context starts after the first character of ``plan``'s chunk: a chunk wholly
        repeated by the next one would add nothing.
        """
        sizes, joined = self.sizes, self.joined
        floor = self._content_start(plan)
        starts: list[int] = []  # candidate starts, shortest context first
        estimates: list[int] = []
        run = 0
        for k in range(plan.last, plan.first - 1, -1):
            size = run + sizes[k]
            if size > room or self.spans[k][0] <= floor:
                break
            starts.append(self.spans[k][0])
            estimates.append(size)
            run += joined[k]
        if starts and self.length.additive:
            return starts[-1], estimates[-1]
        if starts:
            end = self.spans[plan.last][1]
            size = self.measurer.count(starts[-1], end)  # summed sizes are usually right
            if size <= room:
                return starts[-1], size
            found = self.search.longest_fit(starts[-2::-1], end, room)
            if found[0] is not None:
                return found
        return self.search.finer(*self.spans[plan.last], room, floor)

    def _content_start(self, plan: _Plan) -> int:
        """Where ``plan``'s chunk starts once trimmed (a few characters looked at)."""
        text = self.text
        start = plan.overlap_start if plan.overlap_start is not None else self.spans[plan.first][0]
        if self.trim:
            end = self.spans[plan.last][1]
            while start < end and text[start].isspace():
                start += 1
        return start

    def _bounds(self, plan: _Plan) -> Span:
        start = plan.overlap_start if plan.overlap_start is not None else self.spans[plan.first][0]
        end = self.spans[plan.last][1]
        if self.trim:
            return trim_span(self.text, start, end)
        return start, end

    def _shrink(self, plan: _Plan) -> _Plan:
        """Drop trailing pieces, then the overlap, until the chunk measures within budget."""
        count, budget = self.measurer.count, self.budget
        while True:
            start, end = self._bounds(plan)
            if count(start, end) <= budget:
                return plan
            if plan.last > plan.first:
                plan = _Plan(plan.first, plan.last - 1, plan.overlap_start, plan.overlap_size)
            elif plan.overlap_start is not None:
                plan = _Plan(plan.first, plan.last, None, 0)
            else:
                return self._recut(plan)

    def _recut(self, plan: _Plan) -> _Plan:
        """A single piece that measured within budget alone does not after trimming."""
        start, end = self._bounds(plan)
        cuts = hard_cut(self.text, start, end, self.budget, self.length)
        index = plan.first
        self.spans[index : index + 1] = [(s, e) for s, e, _ in cuts]
        self.sizes[index : index + 1] = [size for _, _, size in cuts]
        self.joined[index : index + 1] = [size for _, _, size in cuts]
        self._index({b if b <= index else b + len(cuts) - 1 for b in self.breaks})
        return _Plan(index, index, None, 0)
