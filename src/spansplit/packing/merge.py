"""Packing pieces into chunks: the second step of the general packing path.

:func:`merge` packs consecutive pieces greedily up to the budget, adds overlap made of
whole trailing pieces (or of a finer level inside the last piece, :class:`OverlapSearch`;
in prose, starting at a sentence, for which a chunk may end at a nearby sentence end),
trims whitespace and measures every chunk with the real length function, shrinking any
chunk that a non-additive length (a tokenizer) finds over the budget.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import accumulate

import regex

from ..boundaries.graphemes import cuts_inside_clusters
from ..boundaries.levels import LeadTest, Level, StartsLevel
from ..boundaries.linebreaks import CLOSING, glue, punctuation_joins
from ..boundaries.paragraphs import (
    STACKED_HEADINGS,
    inside_heading,
    looks_like_code,
    looks_like_heading,
    looks_like_lead,
)
from ..boundaries.sentences import SentenceStarts
from ..chunk import (
    SizedSpan,
    Span,
    after_whitespace,
    before_whitespace,
    trim_span,
    trimmed_end,
)
from ..errors import InconsistentLengthError
from ..sizing.base import CodePoints, LengthFunction, TextMeasurer, Utf8Bytes, Utf16Units
from .pieces import Pieces, hard_cut

VERIFY_BATCH = 128
"""Chunks planned ahead and measured together when the length is not additive."""

EARLIER_END_TRIES = 16
"""How many earlier pieces' ends before a sentence start a chunk may try to move back to, for
the next chunk's overlap to start a sentence (see ``_Packer._cut``), latest first: more is
not worth the search. On the corpus none was found after the 7th; a text of tiny pieces with
none (a flood of fence lines) tried every piece end of the chunk, each a search of the
overlap room: 45 s a MB."""

RUNT_SHARE = 10
"""A chunk under one tenth of the budget is a runt: before the parts of a piece that had to
be split, it goes with them (see ``_Packer._leads_run``)."""


def merge(
    text: str,
    pieces: Pieces,
    budget: int,
    length: LengthFunction,
    *,
    overlap: int = 0,
    overlap_level: Level | None = None,
    overlap_boundaries: tuple[StartsLevel, ...] = (),
    overlap_fences: Sequence[int] = (),
    overlap_blocks: Sequence[Span] = (),
    punctuation: bool = True,
    headings: bool = False,
    lead_test: LeadTest | None = None,
    trim: bool = True,
    after: Plan | None = None,
    plans: list[Plan | None] | None = None,
) -> list[SizedSpan]:
    """Pack ``pieces`` into ``(start, end, size)`` chunks of at most ``budget``.

    A chunk covers the text from its first piece's start to its last piece's end, gaps
    included. With ``overlap``, a chunk starts with the longest run of trailing pieces of
    the previous chunk that measures at most ``overlap`` and leaves room for one new piece;
    where no whole piece fits, ``overlap_level`` (e.g. words) offers finer starts inside
    the previous chunk's last piece; with ``overlap_boundaries`` (sentence, clause, word
    starts, best first), the overlap starts instead at the earliest start of the best kind
    that fits (see :meth:`OverlapSearch.ranked`); where that is not a sentence start, the
    chunk may end at another sentence end instead, one after which it is (see
    ``_Packer._cut``). With ``headings``, a Markdown heading line does not end a chunk that
    holds other pieces: it goes with the pieces after it; so does a piece that
    ``lead_test`` tells (a comment above code) where that leaves no runt (see
    ``_Packer._before_leading``).
    Overlap never starts before the last of ``overlap_fences`` at or before the new text of
    its chunk, nor inside one of ``overlap_blocks`` that ends by the end of the chunk before (see
    :class:`~spansplit.packing.Structure`). Every chunk holds at least one new piece and
    starts after the previous chunk starts; with ``trim``, pieces of whitespace alone are
    dropped. The pieces of one split piece (``pieces.balanced``) are packed into chunks of
    even size rather than filled greedily. Packing in windows continues after the chunk
    planned as ``after`` (its pieces are the first of ``pieces``; it is not returned again)
    and has the plan of each chunk appended to ``plans`` (``None`` for a chunk that had to
    be shrunk).
    """
    measurer = pieces.measurer or length.measurer(text)
    if trim and not pieces.trimmed:
        pieces = _without_blank(text, pieces, measurer)
    search = OverlapSearch(
        text,
        measurer,
        overlap_level,
        overlap_boundaries,
        punctuation,
        trim=trim,
        blocks=overlap_blocks,
    )
    packer = _Packer(
        text,
        pieces,
        budget,
        length,
        measurer,
        overlap,
        search,
        trim,
        fences=overlap_fences,
        headings=headings,
        lead_test=lead_test,
    )
    chunks, chunk_plans = packer.run(after)
    if plans is not None:
        plans += chunk_plans
    return chunks


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
        starts={bisect_left(kept, b) for b in pieces.starts} - {len(kept)},
        balanced=[(bisect_left(kept, a), bisect_left(kept, b)) for a, b in pieces.balanced],
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


_WORD = regex.compile(r"[\p{L}\p{N}\p{So}]")


def holds_content(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds a letter, a digit, an ideograph or a symbol such as
    an emoji: overlap of punctuation alone (a closing fence, a bracket) repeats nothing a
    reader needs, and a closing fence at a chunk's start reads as an opening one."""
    return _WORD.search(text, start, end) is not None


def _opens_with_closing(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` starts with closing punctuation once trimmed."""
    start = after_whitespace(text, start, end)
    return start < end and CLOSING.match(text, start) is not None


_UNIT_PER_CODE_POINT = (CodePoints, Utf8Bytes, Utf16Units)
"""Lengths that count at least one unit per code point: a suffix of size ``n`` is at most
``n`` code points long."""


def adds_too_little(size: int, new_size: Callable[[], int], budget: int, overlap: int) -> bool:
    """Whether a chunk of ``size``, whose new text (after the chunk before it) measures
    ``new_size()``, adds too little to be kept where its neighbours hold its text: no larger
    than half the ``budget``, and it or its new text no larger than the ``overlap`` (see
    :func:`~spansplit.packing.without_repeated`)."""
    most = min(overlap, budget // 2)
    return size <= budget // 2 and (size <= most or new_size() <= most)


def sentence_kinds(boundaries: tuple[StartsLevel, ...]) -> tuple[StartsLevel, ...]:
    """The kinds of overlap start as good as a sentence start: ``boundaries`` up to the
    sentences, none where they have no sentences."""
    for index, kind in enumerate(boundaries):
        if isinstance(kind, SentenceStarts):
            return boundaries[: index + 1]
    return ()


class OverlapSearch:
    """Where the overlap of a chunk may start: the longest trailing context within a room.

    Shared by every packer: ``longest_fit`` chooses among candidate starts by exact counts;
    ``ranked`` takes the starts of ``boundaries`` best first (sentences, clauses, words);
    ``finer`` looks inside a chunk's last piece with ``level`` when no whole piece fits.
    With ``trim`` and a length that is not additive (a tokenizer), an overlap is measured
    as the chunk will hold it, from its first character that is not whitespace: cl100k_base
    counts ``"readings"`` as two tokens and ``" readings"`` as one. (An additive length
    only shrinks when trimmed.)
    """

    def __init__(
        self,
        text: str,
        measurer: TextMeasurer,
        level: Level | None,
        boundaries: tuple[StartsLevel, ...] = (),
        punctuation: bool = True,
        *,
        trim: bool = False,
        blocks: Sequence[Span] = (),
    ) -> None:
        self.text = text
        self.blocks = blocks  # (see Structure.overlap_blocks)
        self.measurer = measurer
        self.level = level
        self.boundaries = boundaries
        self.punctuation = punctuation  # the level's parts joined as fit joins pieces
        self.trim = trim and not measurer.length.additive
        self.sentence_kinds = sentence_kinds(boundaries)
        self._between_blocks: dict[tuple[int, int, int], list[int]] = {}

    def measure(self, start: int, end: int) -> int:
        """The size of the overlap ``text[start:end]`` as its chunk holds it."""
        if self.trim:  # (as trimming leaves it: a space that a mark joins stays)
            start = trim_span(self.text, start, end)[0]
        return self.measurer.count(start, end)

    def ranked(self, floor: int, end: int, room: int) -> tuple[int | None, int]:
        """The overlap of a chunk that starts at ``floor`` (after trimming) and ends at
        ``end``: the earliest start after ``floor`` of the first kind of ``boundaries``
        that fits ``room`` (the most whole sentences that fit, else clauses, else words),
        never at closing punctuation; ``(None, 0)`` where none fits. It may start inside
        the text that chunk repeated from the one before it."""
        return self.ranked_kind(floor, end, room)[:2]

    def ranked_kind(self, floor: int, end: int, room: int) -> tuple[int | None, int, int]:
        """:meth:`ranked`, with the index into ``boundaries`` of the kind found (-1: none)."""
        return self._ranked(floor, end, room, self.boundaries)

    def at_sentence(self, floor: int, end: int, room: int) -> tuple[int | None, int]:
        """:meth:`ranked` with the kinds of start up to sentences only (no clause or word)."""
        return self._ranked(floor, end, room, self.sentence_kinds)[:2]

    def sentence_starts(self, low: int, end: int, *, ending: bool = False) -> list[int]:
        """The starts of the kinds of :meth:`at_sentence` in ``[low, end)``, ascending;
        with ``ending``, those a chunk may end before (:meth:`SentenceStarts.ends`)."""
        found: set[int] = set()
        for starts in self.sentence_kinds:
            if ending and isinstance(starts, SentenceStarts):
                found.update(starts.ends(self.text, low, end))
            else:
                found.update(starts(self.text, low, end))
        return sorted(found)

    def _ranked(
        self, floor: int, end: int, room: int, boundaries: tuple[StartsLevel, ...]
    ) -> tuple[int | None, int, int]:
        text = self.text
        tail = before_whitespace(text, floor, end)  # text[tail:end] is blank
        low = max(floor + 1, self.measurer.reach_back(end, room))
        if isinstance(self.measurer.length, _UNIT_PER_CODE_POINT):
            low = max(low, end - room)
        if low >= tail:
            return None, 0, -1
        # Starts are looked for outside the blocks the chunk holds to their end only.
        ranges = self._outside_closed_blocks(low, tail, end) if self.blocks else [(low, tail)]
        for kind, starts in enumerate(boundaries):
            found = [
                s
                for first, last in ranges
                for s in self._starts(starts, first, last, len(ranges) > 1)
                if not _opens_with_closing(text, s, tail)
            ]
            best = self.longest_fit(found, end, room)
            while best[0] is not None and (
                cuts_inside_clusters(text, [best[0]]) or inside_heading(text, best[0])
            ):
                found.remove(best[0])  # a start inside a grapheme cluster or heading is none
                best = self.longest_fit(found, end, room)
            if best[0] is not None and holds_content(text, best[0], end):
                return best[0], best[1], kind
        return None, 0, -1

    def _starts(self, starts: StartsLevel, first: int, last: int, between: bool) -> list[int]:
        """``starts`` in ``[first, last)``. A range ``between`` closed blocks is kept for
        the searches that follow: the overlap rooms of nearby chunk ends share most of the
        gaps between small blocks (a flood of fence lines: 25 gaps a room, 2 new)."""
        if not between:
            return starts(self.text, first, last)
        key = (id(starts), first, last)
        found = self._between_blocks.get(key)
        if found is None:
            if len(self._between_blocks) >= 4096:
                self._between_blocks.clear()
            found = self._between_blocks[key] = starts(self.text, first, last)
        return found

    def _outside_closed_blocks(self, low: int, tail: int, end: int) -> list[Span]:
        """``[low, tail)`` in ranges without the inside of the blocks that end by ``end``
        (a block's own start stays: overlap may take it whole)."""
        ranges: list[Span] = []
        index = bisect_left(self.blocks, (tail,)) - 1  # the last block starting before tail
        while index >= 0 and self.blocks[index][1] > low:
            block_start, block_end = self.blocks[index]
            if block_end <= end:  # (a block the chunk ends inside is not closed)
                if block_end < tail:
                    ranges.append((max(block_end, low), tail))
                tail = min(tail, block_start + 1)
            index -= 1
        if low < tail:
            ranges.append((low, tail))
        return ranges[::-1]

    def longest_fit(self, starts: list[int], end: int, room: int) -> tuple[int | None, int]:
        """The longest context ``text[s:end]`` for ``s`` in ``starts`` (ascending, so longest
        first and sizes falling) that really measures within ``room``.

        A binary search on exact counts; where the measurer estimates cheaply, the estimates
        choose the first probe and its neighbour the second, which usually settles it.
        """
        count = self.measure
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
        tail = before_whitespace(text, start, end)  # text[tail:end] is blank
        region_end = end
        # No context from before this fits: split only what follows (its first part, maybe
        # cut short, is never a candidate, as the whole piece's first part is not).
        start = max(start, self.measurer.reach_back(end, room))
        while True:
            parts = self.level(text, start, region_end)
            parts = glue(text, parts, set(), self.punctuation)[0]
            if len(parts) < 2:
                return None, 0
            starts = [
                s
                for s, _ in parts[1:]
                if floor < s < tail and not _opens_with_closing(text, s, tail)
            ]
            found = self.longest_fit(starts, end, room)
            if found[0] is not None:
                return found
            content = [part for part in parts if part[0] < tail]
            if not content:
                return None, 0
            start, region_end = content[-1]


@dataclass(slots=True)
class Plan:
    first: int  # index of the first new piece
    last: int  # index of the last piece
    overlap_start: int | None  # text offset where the overlap begins, if any
    overlap_size: int  # estimated size of the overlap
    # Where the chunk ends inside piece ``last`` instead (a sentence end), and the start
    # and size of the next chunk's overlap, which holds a sentence start (see _cut).
    cut: tuple[int, int, int] | None = None
    fresh: int | None = None  # after a cut: where the new text starts, inside piece ``first``
    led: bool = False  # in the run of a split piece's parts that a runt leads (_leads_run)
    # Where this chunk's first piece is that runt: the starts of the runs it leads (it
    # leads on into a run inside the first where it is still a runt before that run).
    leads: tuple[int, ...] = ()
    # The last piece whose size decided where the chunk ends or where its overlap starts:
    # the first that did not fit (it may lie past ``last + 1``: headings before it go with
    # it, see _greedy; past a break it is only cautious), or one that planning the chunk
    # after read (_after, _ahead_cut). A window resumes only after it (see windows).
    seen: int = 0


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
        search: OverlapSearch,
        trim: bool,
        *,
        fences: Sequence[int] = (),
        headings: bool = False,
        lead_test: LeadTest | None = None,
    ) -> None:
        self.text = text
        self.headings = headings  # heading lines go with what follows them
        self.lead_test = lead_test  # and so do the pieces it tells (comments above code)
        self.measurer = measurer
        self.spans = pieces.spans
        self.sizes = pieces.sizes
        self.budget = budget
        self.length = length
        self.overlap = overlap
        self.search = search
        self.trim = trim
        self.balanced = union_bounds(pieces.balanced)
        runs = [(start, end) for start, end in pieces.balanced if start < end]
        self.run_starts = {start for start, _ in runs}
        self.run_ends = {end for _, end in runs}
        self.caps: dict[int, int] = {}  # run start -> even cap (see _cap)
        self.run_heads: dict[int, int] = {}  # run start -> the runt before it that leads it
        self.alone: dict[int, int] = {}  # piece -> its size alone (see _alone)
        # the end of the piece before the first (elsewhere: packed a window at a time)
        self.lead = (self.spans[0][0] if self.spans else 0) if pieces.lead is None else pieces.lead
        if length.additive and self.spans:
            ends = [end for _, end in self.spans]
            self.joined = measurer.count_spans(list(zip([self.lead, *ends], ends)))
        else:
            self.joined = list(pieces.joined)
        self.breaks = sorted(pieces.breaks)
        self.break_set = pieces.breaks
        self.starts = pieces.starts  # breaks of the structure's, not a split piece's alone
        self.fences = fences  # see merge's overlap_fences
        self.prefix = [0, *accumulate(self.joined)]

    def _in_balanced(self, index: int) -> bool:
        """Whether piece ``index`` was cut from a piece that had to be split."""
        bounds = self.balanced
        return bisect_right(bounds, index) % 2 == 1

    def run(self, after: Plan | None = None) -> tuple[list[SizedSpan], list[Plan | None]]:
        """Plan chunks ahead in batches and measure each batch at once (a tokenizer counts a
        batch in parallel); a chunk over budget is shrunk and planning resumes after it,
        the plans after it being discarded. The batch starts again at one plan after a
        shrink and doubles after a batch without one, so text where many chunks shrink
        (a budget of a few tokens) discards few plans.
        Measured spans are remembered, so a re-plan that meets the same chunk again does not
        measure it twice."""
        chunks: list[SizedSpan] = []
        chunk_plans: list[Plan | None] = []  # the plan of each chunk, None where shrunk
        most = len(self.spans) if self.length.additive else VERIFY_BATCH
        batch = most
        measured: dict[Span, int] = {}
        plan: Plan | None = None
        if after is not None:
            for led_run in after.leads:  # (evened with the runt the chunk starts with)
                self.run_heads[led_run] = after.first
            plan = self._after(after)
        elif self.spans:
            plan = self._greedy(0, None, 0)
        while plan is not None:
            plans: list[Plan] = []
            while plan is not None and len(plans) < batch:
                plans.append(plan)
                plan = self._after(plan, may_cut=True)
            bounds = [self._bounds(p) for p in plans]
            todo = [span for span in dict.fromkeys(bounds) if span not in measured]
            measured.update(zip(todo, self.measurer.count_spans(todo)))
            batch = min(most, 2 * batch)
            for planned, (start, end) in zip(plans, bounds):
                size = measured[start, end]
                if size > self.budget:
                    # A non-additive length found this plan over budget: shrink it for real.
                    fixed, cuts = self._shrink(planned)
                    if cuts:
                        chunks += cuts
                        chunk_plans += [None] * len(cuts)
                    else:
                        start, end = self._bounds(fixed)
                        size = self.measurer.count(start, end)
                        if end > start:
                            chunks.append((start, end, size))
                            chunk_plans.append(None)
                    plan = self._after(fixed)
                    batch = 1
                    break
                if end > start:
                    chunks.append((start, end, size))
                    chunk_plans.append(planned)
        return chunks, chunk_plans

    def _greedy(
        self, first: int, overlap_start: int | None, overlap_size: int, head: int | None = None
    ) -> Plan:
        """The longest plan from piece ``first`` (after the overlap) within the budget and,
        in the run of a piece that had to be split, within the run's even cap. ``head`` is
        the size of the overlap and piece ``first`` together where it is known."""
        prefix = self.prefix
        fresh = head is None and overlap_start is None  # the chunk starts with piece first
        if head is None:
            head = self.sizes[first] if overlap_start is None else overlap_size + self.joined[first]
        last = bisect_right(prefix, self.budget - head + prefix[first + 1], first + 1) - 2
        if fresh and not self.length.additive and last + 1 < len(self.spans):
            # The estimate of piece first counts the gap before it (see Pieces), which the
            # chunk leaves out: measured alone where that could make room for one more
            # piece. It is at most the gap's code points and one smaller alone (a tokenizer
            # may merge across the gap).
            spans = self.spans
            gap = spans[first][0] - (spans[first - 1][1] if first else self.lead)
            if (
                gap > 0
                and head - gap - 1 + prefix[last + 2] - prefix[first + 1] <= self.budget
                and head == self.joined[first]  # (not measured alone already)
            ):
                head = self._alone(first)
                last = bisect_right(prefix, self.budget - head + prefix[first + 1], first + 1) - 2
        following_break = bisect_right(self.breaks, first)
        run_end = len(self.spans)
        if following_break < len(self.breaks):
            run_end = self.breaks[following_break]
        fitting, last = last, max(min(last, run_end - 1), first)
        # A heading (a comment above code) goes with what follows it, not at the end of a
        # chunk (inside a piece that had to be split, its parts are evened out instead).
        if last + 1 < run_end and not self._in_balanced(first):
            last = self._before_leading(first, last)
        run_start: int | None = None
        led = False
        leads: tuple[int, ...] = ()
        if last + 1 < run_end and self._in_balanced(first):
            run_start = self.breaks[following_break - 1] if following_break else 0
            led = run_start in self.run_heads
            run_start = self.run_heads.get(run_start, run_start)
        while self._leads_run(first, last, run_end):
            # A runt before the parts of a piece that had to be split (a chapter title
            # before its first paragraph, the chunk before being full): their run takes it,
            # and a run inside it where their first parts and the runt are a runt still.
            self.run_heads[run_end] = run_start = first
            led = True
            leads += (run_end,)
            following_break += 1
            run_end = len(self.spans)
            if following_break < len(self.breaks):
                run_end = self.breaks[following_break]
            last = max(min(fitting, run_end - 1), first)
        if run_start is not None and last + 1 < run_end:
            cap = self._cap(run_start, run_end)
            # Where the cap leaves the run two more chunks, they are evened on their own:
            # several packings may share the run's smallest largest chunk, and the greedy
            # one can still end in a runt ("aaaa bbbb|cccc dddd|ee" at 10; now "cccc|dddd ee").
            # Not with overlap, which the caps leave out: the two might then become three.
            remaining = self._span_size(first, run_end - 1)
            if (
                self.overlap == 0
                and remaining <= 3 * cap
                and _greedy_chunks(self.sizes, prefix, first, run_end, cap)[0] == 2
            ):
                cap = min(cap, self._cap(first, run_end))
            capped = bisect_right(prefix, cap - self.sizes[first] + prefix[first + 1], first + 1)
            last = max(first, min(last, capped - 2))
        return Plan(
            first, last, overlap_start, overlap_size, led=led, leads=leads, seen=fitting + 1
        )

    def _leads_run(self, first: int, last: int, run_end: int) -> bool:
        """Whether pieces ``first..last``, a chunk that ends where the parts of a piece that
        had to be split begin (``run_end``), are a runt: under :data:`RUNT_SHARE` of the
        budget, and not the last of another such piece's parts (they may be the first of
        its parts: a chapter's introduction before its first section that had to be split);
        the structure may ask for those parts to start a chunk (a Markdown section) all
        the same."""
        return (
            last + 1 == run_end < len(self.spans)
            and run_end not in self.starts
            and not self._goes_with_next(run_end)  # (a section's: the runt ends the one before)
            and run_end in self.run_starts
            and run_end not in self.run_ends
            and RUNT_SHARE * self._span_size(first, run_end - 1) < self.budget
        )

    def _alone(self, index: int) -> int:
        """The size of piece ``index`` alone, where a chunk starts with it, measured once
        (see :meth:`_greedy`), so a chunk is not planned short of a piece that fits."""
        alone = self.alone.get(index)
        if alone is None:
            alone = self.alone[index] = self.measurer.count(*self.spans[index])
        return alone

    def _before_leading(self, first: int, last: int) -> int:
        """``last``, or the last piece before the pieces that go with what follows them
        (:meth:`_goes_with_next`: heading lines, comments above code) that end pieces
        ``first..last``, where some piece before them does not and they are no more than
        :data:`STACKED_HEADINGS`, or before a lead-in or title that ends them (see
        :meth:`_leads_in`) where the pieces before it are no runt.
        Pieces that ``lead_test`` tells stay where moving them leaves a runt (under
        :data:`RUNT_SHARE` of the budget) before them (Go's ``type (`` alone; or the first of
        them stay with it, as many as it takes), or where they would be one alone, too large
        to share a chunk with the piece after them (a one-line comment above a definition
        that fills a chunk); heading lines always move."""
        top = last
        if last > first and self._leads_in(last):
            # (measured: a tokenizer may count the pieces before it fewer than their estimate)
            left = self.measurer.count(self.spans[first][0], self.spans[last - 1][1])
            top = last - 1 if RUNT_SHARE * left >= self.budget else last
        end = top
        while end >= first and top - end < STACKED_HEADINGS and self._goes_with_next(end):
            end -= 1
        if end < first or (top - end == STACKED_HEADINGS and self._goes_with_next(end)):
            return last
        if end < top and not any(self._is_heading_line(k) for k in range(end + 1, top + 1)):
            # Where moving them all leaves a runt behind, the first of them stay with it (a
            # signature with the runt, the comment below it moving on).
            while end < top and RUNT_SHARE * self._span_size(first, end) < self.budget:
                end += 1
            moved = self._span_size(end + 1, top)
            if end == top or (
                RUNT_SHARE * moved < self.budget and moved + self.joined[top + 1] > self.budget
            ):
                return top  # (a lead-in after them still goes with what follows it)
        return end

    def _span_size(self, first: int, last: int) -> int:
        """The estimated size of pieces ``first..last`` as one chunk's (as planning sums it)."""
        return self.sizes[first] + self.prefix[last + 1] - self.prefix[first + 1]

    def _leads_in(self, index: int) -> bool:
        """Whether piece ``index`` is a lead-in or, in prose, a title (:func:`looks_like_lead`)
        that fits in a chunk with the piece after it and the overlap (else it might be a
        chunk of its own): it goes with that piece."""
        if not looks_like_lead(self.text, *self.spans[index], titles=self.search.punctuation):
            return False
        return self.sizes[index] + self.joined[index + 1] + self.overlap <= self.budget

    def _is_heading_line(self, index: int) -> bool:
        """Whether piece ``index`` is a Markdown heading line alone (``## Install``), where
        heading lines go with what follows them."""
        return self.headings and looks_like_heading(self.text, *self.spans[index])

    def _goes_with_next(self, index: int) -> bool:
        """Whether piece ``index`` goes with what follows it: a heading line, or a piece
        that ``lead_test`` tells (a comment above code)."""
        if self._is_heading_line(index):
            return True
        return self.lead_test is not None and self.lead_test(self.text, *self.spans[index])

    def _cap(self, start: int, end: int) -> int:
        """The even cap of the run of pieces ``start..end - 1`` (see :func:`even_cap`),
        remembered for the run's later chunks."""
        cap = self.caps.get(start)
        if cap is None:
            joined = self.joined[start:end]
            cap = self.caps[start] = even_cap(self.sizes[start:end], joined, self.budget)
        return cap

    def _after(self, plan: Plan, may_cut: bool = False) -> Plan | None:
        """The plan of the chunk after ``plan``, with its overlap; ``None`` at the end.

        With ``may_cut`` (``plan``'s chunk is not measured yet), where the overlap cannot
        start at a sentence, ``plan`` may be changed to end at a sentence end inside a
        piece so that it can (:meth:`_cut`). Where the next piece leaves the overlap too
        little room, the next chunk may end inside it for the sentences to fit
        (:meth:`_ahead_cut`)."""
        if plan.cut is not None:
            end, resume, resume_size = plan.cut
            rest = self.spans[plan.last][1]
            resumed = self._greedy(
                plan.last, resume, resume_size, self.measurer.count(resume, rest)
            )
            resumed.fresh = end
            return resumed
        following = plan.last + 1
        if following >= len(self.spans):
            return None
        if self.overlap == 0:
            return self._greedy(following, None, 0)
        found = self._next_overlap(plan, following)
        if found is None:
            return self._greedy(following, None, 0)  # it starts at a fence: no overlap
        start, size, kind, room, floor = found
        sentence_kinds = len(self.search.sentence_kinds)
        seen = 0  # (the pieces that the chunk from piece following was planned with)
        if sentence_kinds and not 0 <= kind < sentence_kinds:
            if may_cut:
                cut = self._cut(plan)
                if cut is not None:
                    plan.last, plan.cut = cut
                    return self._after(plan)
            # Also where plan's chunk is taken already (a window resumes after it, a
            # shrink), as when it was planned: its cut, if any, would be in plan.
            if room < self.overlap:
                ahead, seen = self._ahead_cut(plan, following, floor)
                if ahead is not None:
                    return ahead
        next_plan: Plan | None = None
        if start is None and room < self.overlap and self.search.boundaries:
            next_plan = self._room_cut(plan, following, floor)
        if next_plan is None:
            next_plan = self._greedy(following, start, size)
        next_plan.seen = max(next_plan.seen, seen)
        return next_plan

    def _next_overlap(
        self, plan: Plan, following: int
    ) -> tuple[int | None, int, int, int, int] | None:
        """The overlap of the chunk after ``plan``, whose new text starts with piece
        ``following``: its start, size and kind (as :meth:`_overlap`), the room it had
        and the offset it must start after; ``None`` where that chunk starts at a fence."""
        floor = self._overlap_floor(plan, self.spans[following][0])
        if self.fences and floor + 1 >= self._end(plan):
            return None
        room = min(self.overlap, self.budget - self.joined[following])
        start, size, kind = self._overlap(plan, room, floor) if room > 0 else (None, 0, -1)
        if start is not None and not holds_content(self.text, start, self._end(plan)):
            start, size, kind = None, 0, -1
        return start, size, kind, room, floor

    def _ahead_cut(self, plan: Plan, following: int, floor: int) -> tuple[Plan | None, int]:
        """The chunk after ``plan`` with an overlap from a sentence start, where piece
        ``following`` leaves room for none (or for a clause or a word only) but that chunk
        is to end at a sentence end inside it anyway (:meth:`_cut`, as :meth:`_after` will
        cut it: the overlap after it cannot start a sentence), so that the sentences fit
        before the part it holds. ``None`` where they do not; and the pieces the chunk from
        piece ``following`` was planned with (its ``seen``: they decide either way, and a
        window must hold them before it resumes after the chunk, see windows)."""
        ahead = self._greedy(following, None, 0)
        seen = ahead.seen
        if ahead.last != following or following + 1 >= len(self.spans):
            return None, seen
        found = self._next_overlap(ahead, following + 1)
        if found is None or 0 <= found[2] < len(self.search.sentence_kinds):
            return None, seen
        cut = self._cut(ahead)
        if cut is None or cut[0] != following or cut[1] is None:
            return None, seen
        # From plan's end: the gap before the piece counts too. A token may join across
        # the seam: the chunk is measured before it is kept.
        room = min(self.overlap, self.budget - self.measurer.count(self._end(plan), cut[1][0]) - 1)
        # From a sentence start only: it replaces no overlap, or one from a clause or a
        # word, where the chunk would otherwise start at its piece or inside a sentence.
        start, size = (
            self.search.at_sentence(floor, self._end(plan), room) if room > 0 else (None, 0)
        )
        if start is None or not holds_content(self.text, start, self._end(plan)):
            return None, seen
        return Plan(following, following, start, size, cut[1], seen=seen), seen

    def _room_cut(self, plan: Plan, following: int, floor: int) -> Plan | None:
        """The chunk after ``plan`` where piece ``following`` leaves no room for any
        overlap (it nearly fills the budget): the overlap the full room allows, then the
        piece up to its latest sentence, clause or word start (best kind first) that keeps
        the chunk within the budget and at least half of it, so that consecutive chunks
        still share text. The rest of the piece starts the chunk after, with an overlap of
        its own. ``None`` where there is no such start, where the rest would not fit with
        its overlap, and for a piece that does not start a sentence (a part of a sentence
        that had to be split is cut at its best places already: cut again for an overlap,
        it would make more chunks that read worse) or that reads as code."""
        text, count, budget = self.text, self.measurer.count, self.budget
        end = self._end(plan)
        start, size = self.search.ranked(floor, end, self.overlap)
        piece_start, piece_end = self.spans[following]
        if (
            start is None
            or not self.search.sentence_starts(piece_start, piece_start + 1)
            or looks_like_code(text, piece_start, piece_end)
        ):
            return None
        head = Plan(following, following, start, size)

        def measured(cut: int) -> int:
            """The size of the chunk ending at ``cut``."""
            head.cut = (cut, 0, 0)
            return count(*self._bounds(head))

        for starts in self.search.boundaries:
            found = [
                s
                for s in starts(text, piece_start + 1, piece_end)
                if piece_start < s < piece_end
                and not punctuation_joins(text, piece_start, s, s, piece_end)
            ]
            cuts = [trimmed_end(text, piece_start, s) for s in found]
            # The latest cut that keeps the chunk within the budget.
            low = _fitting_count(cuts, lambda cut: measured(cut) <= budget)
            for index in range(low - 1, -1, -1):
                cut = cuts[index]
                if 2 * measured(cut) < budget:
                    break
                if cuts_inside_clusters(text, [found[index]]):
                    continue
                resume, resume_size = self.search.ranked(
                    self._overlap_floor(head, cut), cut, self.overlap
                )
                if resume is not None:
                    if count(resume, piece_end) > budget:
                        break  # an earlier cut leaves the next chunk more still
                    head.cut = (cut, resume, resume_size)
                    return head
        return None

    def _cut(self, plan: Plan) -> tuple[int, tuple[int, int, int] | None] | None:
        """A new end for ``plan``'s chunk at a sentence end whose overlap can start a
        sentence: the latest one in the piece after the chunk that keeps it within the
        budget, else the latest one in its last piece, else the end of an earlier piece,
        that keeps at least a quarter of the budget (and is not one that
        :func:`adds_too_little`, which would be left out) and lets the next chunk still hold
        the piece after this one. The new last piece and, for an end inside it, ``(end,
        overlap start, overlap size)``; ``None`` where there is none. A piece that reads as
        code is not cut, and nothing crosses a break or a run of split pieces."""
        spans, count, budget, room = self.spans, self.measurer.count, self.budget, self.overlap
        following = plan.last + 1
        # Ending elsewhere must not make a chunk more: the next one must still hold the
        # piece after this chunk (so never before a break, nor at the end of the pieces).
        if following == len(spans) or following in self.break_set:
            return None
        start = self._bounds(plan)[0]
        fresh = spans[plan.first][0] if plan.fresh is None else plan.fresh  # its new text
        reach = spans[following][1]
        forward = not self._in_balanced(following) and not self._in_balanced(plan.last)
        region_end = spans[following if forward else plan.last][1]
        starts = self.search.sentence_starts(spans[plan.first][0], region_end, ending=True)

        def too_short(end: int) -> bool:
            """Whether the chunk would keep too little of the budget ending at ``end``."""
            size = count(start, end)
            new_size = partial(count, fresh, end)
            return 4 * size < budget or adds_too_little(size, new_size, budget, room)

        def overlap_for(
            index: int, end: int, room: int = room, new_start: int | None = None
        ) -> tuple[int | None, int]:
            """The overlap after a chunk ending at ``end`` (new text from ``new_start``,
            by default ``end``), where sentence ``index`` (of ``starts``) is the one that
            ends there: none unless that sentence fits."""
            floor = self._overlap_floor(plan, end if new_start is None else new_start)
            if index >= 0 and (starts[index] <= floor or count(starts[index], end) > room):
                return None, 0
            return self.search.at_sentence(floor, end, room)

        for last in [following, plan.last] if forward else [plan.last]:
            if self._goes_with_next(last):
                continue  # a heading (a comment above code) goes with what follows it
            piece_start, piece_end = spans[last]
            least = spans[plan.last][1] if last == following else fresh
            first = bisect_right(starts, piece_start)
            inside = bisect_left(starts, piece_end)
            if first == inside or looks_like_code(self.text, piece_start, piece_end):
                continue  # code is cut between its pieces, not at its "sentences"
            ends = {k: trimmed_end(self.text, piece_start, starts[k]) for k in range(first, inside)}
            # The last sentence end in the piece that keeps the chunk within the budget.
            in_piece = [ends[k] for k in range(first, inside)]
            low = first + _fitting_count(in_piece, lambda end: count(start, end) <= budget)
            for k in range(low - 1, first - 1, -1):
                end = ends[k]
                if end <= least or (last == plan.last and too_short(end)):
                    break
                if punctuation_joins(self.text, piece_start, starts[k], starts[k], piece_end):
                    continue  # (UAX #29 ends a sentence after "。「 ", reading 「 as closing)
                overlap, overlap_size = overlap_for(k - 1, end)
                if overlap is None:
                    continue
                if count(overlap, piece_end if last == following else reach) <= budget:
                    return last, (end, overlap, overlap_size)
        found = set(starts)
        tries = EARLIER_END_TRIES
        for last in range(plan.last - 1, plan.first - 1, -1):  # earlier pieces' ends
            end = spans[last][1]
            if end <= fresh or too_short(end):
                break
            if spans[last + 1][0] not in found or self._goes_with_next(last):
                continue
            tries -= 1
            if tries < 0:
                break
            # The room that _after will give the overlap there (as it measures it).
            there = min(room, budget - self.joined[last + 1])
            overlap = overlap_for(bisect_left(starts, end) - 1, end, there, spans[last + 1][0])[0]
            if overlap is not None and count(overlap, reach) <= budget:
                return last, None
        return None

    def _overlap(self, plan: Plan, room: int, floor: int) -> tuple[int | None, int, int]:
        """Start and size of the longest trailing context of ``plan`` that fits ``room``,
        and the index of its kind among the search's boundaries (-1: whole pieces, a
        finer level or none).

        The context starts after the first character of ``plan``'s chunk: a chunk wholly
        repeated by the next one would add nothing.
        """
        if self.search.boundaries:
            return self.search.ranked_kind(floor, self._end(plan), room)
        return (*self._piece_overlap(plan, room, floor), -1)

    def _piece_overlap(self, plan: Plan, room: int, floor: int) -> tuple[int | None, int]:
        """:meth:`_overlap` made of whole trailing pieces, else of the finer level."""
        sizes, joined = self.sizes, self.joined
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
        end = self.spans[plan.last][1]
        # Never from closing punctuation on (a piece cut where a separator of the user's says)
        opening = [
            i for i, start in enumerate(starts) if not _opens_with_closing(self.text, start, end)
        ]
        starts = [starts[i] for i in opening]
        estimates = [estimates[i] for i in opening]
        if starts and self.length.additive:
            return starts[-1], estimates[-1]
        if starts:
            size = self.search.measure(starts[-1], end)  # summed sizes are usually right
            if size <= room:
                return starts[-1], size
            found = self.search.longest_fit(starts[-2::-1], end, room)
            if found[0] is not None:
                return found
        return self.search.finer(*self.spans[plan.last], room, floor)

    def _overlap_floor(self, plan: Plan, new_start: int) -> int:
        """What the overlap before new text at ``new_start`` must start after: the start
        of ``plan``'s chunk, and the offset before the last fence up to ``new_start``."""
        floor = self._content_start(plan)
        if self.fences:
            index = bisect_right(self.fences, new_start) - 1
            if index >= 0:
                floor = max(floor, self.fences[index] - 1)
        return floor

    def _content_start(self, plan: Plan) -> int:
        """Where ``plan``'s chunk starts once trimmed (a few characters looked at)."""
        text = self.text
        start = plan.overlap_start if plan.overlap_start is not None else self.spans[plan.first][0]
        if self.trim:
            start = trim_span(text, start, self.spans[plan.last][1])[0]
        return start

    def _end(self, plan: Plan) -> int:
        """Where ``plan``'s chunk ends (before trimming)."""
        return self.spans[plan.last][1] if plan.cut is None else plan.cut[0]

    def _bounds(self, plan: Plan) -> Span:
        start = plan.overlap_start if plan.overlap_start is not None else self.spans[plan.first][0]
        end = self._end(plan)
        if self.trim:
            return trim_span(self.text, start, end)
        return start, end

    def _shrink(self, plan: Plan) -> tuple[Plan, list[SizedSpan]]:
        """Drop trailing pieces, then the overlap, until the chunk measures within budget.

        A single piece that measured within budget (an estimate) but does not for real is
        hard-cut, and its parts packed on their own (with overlap between them): those
        chunks are returned with the plan that the next chunk follows (its overlap from the
        last of them on). The pieces are left as they are, so no index is rebuilt: with a
        small token budget, where estimates often fall short, rebuilding made packing
        quadratic."""
        count, budget = self.measurer.count, self.budget
        while True:
            start, end = self._bounds(plan)
            if count(start, end) <= budget:
                return plan, []
            if plan.cut is not None:  # the whole last piece, then fewer pieces as below
                plan = Plan(plan.first, plan.last, plan.overlap_start, plan.overlap_size)
            elif plan.last > plan.first:
                plan = Plan(plan.first, plan.last - 1, plan.overlap_start, plan.overlap_size)
            elif plan.overlap_start is not None:
                plan = Plan(plan.first, plan.last, None, 0)
            else:
                parts = Pieces(trimmed=self.trim, measurer=self.measurer)
                for cut_start, cut_end, size in hard_cut(
                    self.text, start, end, budget, self.length, skip_blank=self.trim
                ):
                    if self.trim:
                        trimmed = trim_span(self.text, cut_start, cut_end)
                        if trimmed != (cut_start, cut_end):
                            cut_start, cut_end = trimmed
                            size = count(cut_start, cut_end)
                            if size > budget:  # trimming made it larger: no cut can help
                                raise InconsistentLengthError(
                                    self.length, cut_start, cut_end, size, budget
                                )
                    if cut_end > cut_start:
                        parts.spans.append((cut_start, cut_end))
                        parts.sizes.append(size)
                        parts.joined.append(size)
                packer = _Packer(
                    self.text,
                    parts,
                    budget,
                    self.length,
                    self.measurer,
                    self.overlap,
                    self.search,
                    self.trim,
                    fences=self.fences,
                )
                cuts = packer.run()[0]
                last = cuts[-1] if cuts else (start, end, 0)
                return Plan(plan.first, plan.last, last[0], last[2]), cuts


def _fitting_count(values: Sequence[int], fits: Callable[[int], bool]) -> int:
    """How many of ``values`` fit, where those that fit come first (a binary search)."""
    low, high = 0, len(values)
    while low < high:
        middle = (low + high) // 2
        if fits(values[middle]):
            low = middle + 1
        else:
            high = middle
    return low


def even_cap(sizes: list[int], joined: list[int], budget: int) -> int:
    """The cap on a chunk's size that packs a run of pieces evenly: ``budget`` where
    filling each chunk up to it already leaves a last chunk of at least half the budget,
    else the smallest cap that packs the run into no more chunks than that (the linear
    partition that makes the largest chunk smallest), so no runt is left at its end.
    ``sizes[i]`` is piece ``i`` alone and ``joined[i]`` its size with the gap before it,
    as :class:`~.pieces.Pieces` holds them; pieces ``i..j`` measure
    ``sizes[i] + joined[i + 1] + ... + joined[j]``."""
    prefix = [0, *accumulate(joined)]
    end = len(sizes)
    most, last_size = _greedy_chunks(sizes, prefix, 0, end, budget)
    if 2 * last_size >= budget:
        return budget
    low, high = 1, budget  # no more chunks than ``most`` under ``high``
    while low < high:
        middle = (low + high) // 2
        if _greedy_chunks(sizes, prefix, 0, end, middle)[0] <= most:
            high = middle
        else:
            low = middle + 1
    return high


def _greedy_chunks(
    sizes: Sequence[int], prefix: Sequence[int], first: int, end: int, cap: int
) -> tuple[int, int]:
    """How many chunks greedy packing of pieces ``first..end - 1`` under ``cap`` makes, and
    the last one's size (``prefix`` sums the pieces' joined sizes, as in :class:`_Packer`)."""
    count = last_size = 0
    while first < end:
        last = bisect_right(prefix, cap - sizes[first] + prefix[first + 1], first + 1) - 2
        last = max(min(last, end - 1), first)
        last_size = sizes[first] + prefix[last + 1] - prefix[first + 1]
        first = last + 1
        count += 1
    return count, last_size


def union_bounds(ranges: list[Span]) -> list[int]:
    """The union of index ranges ``[a, b)`` as sorted bounds ``[a1, b1, a2, b2, ...]``:
    an index ``i`` lies in the union when ``bisect_right(bounds, i)`` is odd."""
    bounds: list[int] = []
    for start, end in sorted(ranges):
        if start >= end:
            continue
        if bounds and start <= bounds[-1]:
            bounds[-1] = max(bounds[-1], end)
        else:
            bounds += [start, end]
    return bounds
