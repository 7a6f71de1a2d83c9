"""Pieces that fit: the first step of the general packing path.

:func:`fit` measures the pieces of a text and splits each one over the budget with the
next finer boundary level that finds a boundary in it; after the last level a piece is
hard-cut at grapheme-cluster boundaries (:func:`hard_cut`), where the length function
says the budget is reached.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import regex

from ..boundaries.graphemes import cluster_ends, cuts_inside_clusters, first_cluster_end
from ..boundaries.levels import Level, cut_anywhere, is_recursive, splits
from ..boundaries.linebreaks import break_opportunities, glue, punctuation_forbids
from ..boundaries.paragraphs import (
    STACKED_HEADINGS,
    fence_line,
    holds_blank_line,
    looks_like_heading,
    next_line,
)
from ..chunk import (
    FIRST_PREPEND,
    SizedSpan,
    Span,
    after_whitespace,
    before_whitespace,
    trim_span,
)
from ..errors import ChunkTooLargeError
from ..sizing.base import LengthFunction, TextMeasurer


@dataclass(slots=True)
class Pieces:
    """Pieces of one text that each fit the budget, ready for :func:`merge`.

    ``sizes[i]`` is the size of piece ``i`` alone. For a non-additive length, ``joined[i]``
    is the size of the text from the end of piece ``i - 1`` to the end of piece ``i`` (the
    gap and the piece), measured once, and ``sizes[i]`` is that same figure (an estimate
    that the final measurement checks) unless it was over budget and the piece was then
    measured alone; for an additive length ``joined`` is derived in ``merge``.
    ``breaks`` holds the indices of pieces that must start a new chunk, ``starts`` those of
    them the structure asks for (not only the isolation of a split piece's parts); ``balanced``
    the index ranges ``[first, end)`` of pieces cut from one piece that had to be split
    (with ``isolate``), whose chunks :func:`~.merge.merge` evens out instead of filling
    greedily (no runt at the end of a split piece).
    """

    spans: list[Span] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    joined: list[int] = field(default_factory=list)
    breaks: set[int] = field(default_factory=set)
    starts: set[int] = field(default_factory=set)
    balanced: list[Span] = field(default_factory=list)
    trimmed: bool = False  # no piece starts or ends with whitespace (``fit(trim=True)``)
    measurer: TextMeasurer | None = None  # what measured them, reused by ``merge``
    lead: int | None = None  # the end of the piece before the first, when it is elsewhere
    top_lead: int | None = None  # the end of the top-level span before the first, likewise
    top_spans: list[Span] = field(default_factory=list)  # the top level, trimmed and glued


def fit(
    text: str,
    spans: Sequence[Span],
    budget: int,
    length: LengthFunction,
    levels: Sequence[Level] = (),
    *,
    breaks: Sequence[int] = (),
    isolate: bool = False,
    trim: bool = False,
    punctuation: bool = True,
    headings: bool = False,
    measurer: TextMeasurer | None = None,
    lead: int | None = None,
    top_lead: int | None = None,
    overlap: int = 0,
) -> Pieces:
    """Measure ``spans`` and split each one over ``budget`` until every piece fits.

    ``levels`` are tried in order on a piece that is too big (a level that finds no
    boundary inside it is skipped); after the last level the piece is hard-cut at
    grapheme-cluster boundaries. ``breaks`` are indices into ``spans`` of pieces that must
    start a chunk. With ``isolate``, the pieces of a split piece never share a chunk with
    its neighbours (LangChain's recursive behaviour). With ``trim`` (for splitters whose
    chunks are trimmed), pieces lose their surrounding whitespace before they are measured,
    so whitespace that trimming removes never counts against the budget, and blank pieces
    are dropped. With ``punctuation``, pieces are joined across every cut that line
    breaking forbids (:func:`~spansplit.boundaries.linebreaks.glue`: none starts with
    closing or ends with opening punctuation). With ``headings``, the heading lines just
    before a split piece whose pieces start a chunk join its pieces (see :func:`_close`).
    ``measurer`` measures ``text`` with
    ``length`` (by default, a new one). When ``spans`` continue pieces packed already,
    ``lead`` is where the last of those ends and ``top_lead`` where the span before
    ``spans`` ends (trimmed): the gaps before the first piece and the first span count.
    ``overlap`` (the chunks', given only where the structure's one level cuts anywhere: the
    empty separator alone) makes the parts of a text cut anywhere after the first that much
    smaller, so that each chunk has room to repeat the one before: a window sliding over the
    text.
    """
    out = Pieces(
        trimmed=trim, measurer=measurer or length.measurer(text), lead=lead, top_lead=top_lead
    )
    rules = _Rules(budget, length, levels, isolate, trim, punctuation, overlap, headings)
    # Pieces nest as deeply as the structure does (a list in a list in a quote ...): the
    # regions being split are a stack, not a recursion, so no depth is too deep.
    stack = [frame] if (frame := _open(text, list(spans), 0, set(breaks), out, rules)) else []
    out.top_spans = frame.spans if frame else []
    while stack:
        frame = stack[-1]
        if frame.refining is not None:
            _close(text, frame, out, rules)
        if frame.next == len(frame.stops):
            stack.pop()
            continue
        k = frame.stops[frame.next]
        frame.next += 1
        _append_fitting(frame, k, out, rules)
        if k < len(frame.spans):
            frame.done = k + 1
            frame.refining = (k, len(out.spans))
            child = _refine(text, frame.spans[k], frame.level, out, rules)
            if child is not None:
                stack.append(child)
    return out


def starting_at(spans: Sequence[Span], offsets: Sequence[int]) -> list[int]:
    """Indices of the ``spans`` that start at one of ``offsets`` (ascending)."""
    if not offsets:
        return []
    found = []
    for index, (start, _) in enumerate(spans):
        at = bisect_left(offsets, start)
        if at < len(offsets) and offsets[at] == start:
            found.append(index)
    return found


@dataclass(frozen=True, slots=True)
class _Rules:
    """How :func:`fit` treats pieces (its arguments)."""

    budget: int
    length: LengthFunction
    levels: Sequence[Level]
    isolate: bool
    trim: bool
    punctuation: bool
    overlap: int = 0
    headings: bool = False  # heading lines go with the pieces of a split piece after them


@dataclass(slots=True)
class _Frame:
    """Pieces of one region being placed into :class:`Pieces`: their sizes, the pieces
    over budget (``stops``, then ``len(spans)``) and how far placing has got."""

    spans: list[Span]
    sizes: list[int]
    joined: list[int]
    level: int  # the index of the level that splits a piece of these over budget
    wanted: set[int]  # indices of pieces that must start a chunk
    breaks: list[int]  # the same, sorted
    stops: list[int]
    next: int = 0  # the next index into stops
    done: int = 0  # pieces before this one are placed
    refining: tuple[int, int] | None = None  # piece being split, its first index in out


_SPACE = re.compile(r"\s")  # the characters str.isspace accepts (both use Py_UNICODE_ISSPACE)
_TAIL = 8  # the window a piece's trailing whitespace is first looked for in


def _trim_spans(text: str, spans: list[Span], wanted: set[int]) -> tuple[list[Span], set[int]]:
    """``spans`` without surrounding whitespace, blank ones dropped; a break on a dropped
    span moves to the next kept one.

    Most pieces have no whitespace at their edges: their first and last characters are
    gathered into two strings and searched at C speed, and only the pieces found are
    trimmed one by one, most of them (a piece ending in a line ending or a blank line)
    from a short window at their end.
    """
    firsts = "".join([text[start] for start, _ in spans])
    lasts = "".join([text[end - 1] for _, end in spans])
    edged = sorted(
        {m.start() for m in _SPACE.finditer(firsts)}.union(
            m.start() for m in _SPACE.finditer(lasts)
        )
    )
    if not edged:
        return spans, wanted
    kept = list(spans)
    dropped: list[int] = []
    for index in edged:
        start, end = spans[index]
        # Most are a piece that ends in a few whitespace characters (a line ending, a
        # blank line, a word's space): its trimmed end is read off a short window (the
        # whole of a short piece) at C speed.
        window = text[max(start, end - _TAIL) : end]
        content = window.rstrip()
        if content and content[-1] < FIRST_PREPEND and not text[start].isspace():
            kept[index] = (start, end - len(window) + len(content))
            continue
        start, end = trim_span(text, start, end)
        if start == end:
            dropped.append(index)
        else:
            kept[index] = (start, end)
    if not dropped:
        return kept, wanted
    gone = set(dropped)
    origins = [index for index in range(len(spans)) if index not in gone]
    kept = [kept[index] for index in origins]
    moved = {bisect_left(origins, index) for index in wanted}
    return kept, moved - {len(kept)}


def _trim_and_glue(
    text: str, spans: list[Span], wanted: set[int], rules: _Rules
) -> tuple[list[Span], set[int]]:
    """``spans`` trimmed (with ``rules.trim``), then joined across the cuts that line
    breaking forbids (:func:`glue`); ``wanted`` (indices of pieces that must start a
    chunk) follow their pieces."""
    if rules.trim:
        spans, wanted = _trim_spans(text, spans, wanted)
    return glue(text, spans, wanted, rules.punctuation, trimmed=rules.trim)


def _open(
    text: str,
    spans: list[Span],
    level: int,
    wanted: set[int],
    out: Pieces,
    rules: _Rules,
    glued: bool = False,
) -> _Frame | None:
    """Trim, glue and measure the pieces of one region (``None`` when none is left);
    pieces ``glued`` were trimmed and glued already."""
    if not glued:
        spans, wanted = _trim_and_glue(text, spans, wanted, rules)
    if not spans:
        return None
    budget, length = rules.budget, rules.length
    measurer = out.measurer or length.measurer(text)
    if length.additive:
        sizes = joined = measurer.sizes(spans, budget)
    else:
        # One measure per piece, with the gap before it (what packing adds); a piece over
        # budget that way is measured alone too, since alone it may still fit.
        if out.spans:
            lead = out.spans[-1][1]
        else:  # the first piece: from where the span (piece) before it ends, if any
            before = out.lead if glued else out.top_lead
            lead = spans[0][0] if before is None else before
        leads = [lead] + [end for _, end in spans[:-1]]
        reach = [(a, end) for a, (_, end) in zip(leads, spans)]
        joined = measurer.sizes(reach, budget)
        sizes = list(joined)
        over = [k for k, size in enumerate(joined) if size > budget]
        if over:
            for k, alone in zip(over, measurer.sizes([spans[k] for k in over], budget)):
                sizes[k] = alone
    stops = [k for k, size in enumerate(sizes) if size > budget] + [len(spans)]
    return _Frame(spans, sizes, joined, level, wanted, sorted(wanted), stops)


def _append_fitting(frame: _Frame, stop: int, out: Pieces, rules: _Rules) -> None:
    """Append the pieces of ``frame`` from the first not yet placed up to ``stop`` (they
    fit) in bulk, with their breaks."""
    done, breaks = frame.done, frame.breaks
    shift = len(out.spans) - done
    window = breaks[bisect_left(breaks, done) : bisect_left(breaks, stop)]
    out.breaks.update(i + shift for i in window)
    out.starts.update(i + shift for i in window)
    out.spans += frame.spans[done:stop]
    out.sizes += frame.sizes[done:stop]
    if not rules.length.additive:
        out.joined += frame.joined[done:stop]


def _close(text: str, frame: _Frame, out: Pieces, rules: _Rules) -> None:
    """Mark the breaks around the pieces that the piece of ``frame`` being split became;
    where they start a chunk, the heading lines just before them go with them (with
    ``isolate`` their chunks are evened out apart from the pieces around them: a heading was
    left a chunk alone), and so do the fences of a code block around them."""
    assert frame.refining is not None
    k, first = frame.refining
    frame.refining = None
    # The runs closed last lie inside this piece (its own pieces split further): the run
    # before them, if any, must end before the heading for it to move.
    before = len(out.balanced)
    while before and out.balanced[before - 1][0] >= first:
        before -= 1
    moved = 0
    while (
        rules.headings
        and (rules.isolate or k in frame.wanted)
        and first > 0
        and moved < STACKED_HEADINGS
        and (not before or out.balanced[before - 1][1] < first)
        and looks_like_heading(text, *out.spans[first - 1])
    ):
        out.breaks.discard(first)
        out.starts.discard(first)
        first -= 1
        moved += 1
    # A fence line on the line before opens the block (one with an info string, or the
    # region's first line): it goes with the code's first part.
    opening = None
    if rules.isolate and k > 0 and next_line(text, frame.spans[k - 1][1], frame.spans[k][0]):
        opening = fence_line(text, *frame.spans[k - 1])
    fenced = opening is not None and (k == 1 or opening[1] != "")
    if fenced and not moved and (not before or out.balanced[before - 1][1] < first):
        out.breaks.discard(first)
        out.starts.discard(first)
        first -= 1
    if k in frame.wanted or rules.isolate:
        out.breaks.add(first)
    if k in frame.wanted:
        out.starts.add(first)
    if rules.isolate:
        if _closes_fence(text, frame, k, opening if fenced else None, rules):
            _append_fitting(frame, k + 2, out, rules)  # the closing fence: with the last
            frame.done = k + 2
        out.balanced.append((first, len(out.spans)))
        if frame.done < len(frame.spans):
            out.breaks.add(len(out.spans))


_FENCE_REACH = 64
"""The most lines back that :func:`_closes_fence` looks for the fence a block opens with."""


def _closes_fence(
    text: str, frame: _Frame, k: int, opening: tuple[str, str] | None, rules: _Rules
) -> bool:
    """Whether the piece after piece ``k`` of ``frame`` (a line cut in parts) is on the next
    line and closes the fence that ``opening`` (the fence line before it) or the region's
    first line opened, with no blank line between: that fence goes with its last part."""
    after = k + 1
    if (
        frame.done != after
        or after >= len(frame.spans)
        or after in frame.wanted
        or frame.sizes[after] > rules.budget
        or not next_line(text, frame.spans[k][1], frame.spans[after][0])
    ):
        return False
    closing = fence_line(text, *frame.spans[after])
    if closing is None or closing[1]:
        return False
    if opening is None and 0 < k <= _FENCE_REACH:  # the region's first line, the same block
        opening = fence_line(text, *frame.spans[0])
        if opening is not None and holds_blank_line(text, frame.spans[0][1], frame.spans[k][0]):
            opening = None
    return (
        opening is not None
        and closing[0][0] == opening[0][0]
        and len(closing[0]) >= len(opening[0])
    )


def _refine(text: str, span: Span, level: int, out: Pieces, rules: _Rules) -> _Frame | None:
    """Split one piece that is over budget with the next level that finds a boundary in it
    (a recursive level, such as nested sections, is tried again on its own parts): the
    frame of its parts, to be placed next; or, after the last level, its hard cuts,
    appended to ``out`` at once (``None``)."""
    levels, budget, length = rules.levels, rules.budget, rules.length
    opportunities = True
    while level < len(levels):
        cuts = cut_anywhere(levels[level])
        if cuts is not None:
            opportunities = cuts
            break
        parts = _trim_and_glue(text, levels[level](text, span[0], span[1]), set(), rules)[0]
        following = level if is_recursive(levels[level]) else level + 1
        level += 1
        if splits(parts, *span):
            return _open(text, parts, following, set(), out, rules, glued=True)
    cut_parts: list[SizedSpan] | None = None
    if opportunities is False and 0 < rules.overlap < budget:
        # A sliding window (see fit's overlap): the first part as long as fits, the others
        # leaving the overlap room, so that each chunk repeats the end of the one before;
        # where a cluster is larger than that room leaves, parts as long as fit.
        cut_parts = _cut(text, span[0], span[1], budget, length, False, 0, rules.trim)[:1]
        if cut_parts and cut_parts[0][1] < span[1]:
            try:
                cut_parts += hard_cut(
                    text,
                    cut_parts[0][1],
                    span[1],
                    budget - rules.overlap,
                    length,
                    opportunities=False,
                    skip_blank=rules.trim,
                )
            except ChunkTooLargeError:
                cut_parts = None
    if cut_parts is None:
        cut_parts = hard_cut(
            text,
            span[0],
            span[1],
            budget,
            length,
            opportunities=opportunities,
            skip_blank=rules.trim,
        )
    for start, end, size in cut_parts:
        if rules.trim and (text[start].isspace() or text[end - 1].isspace()):
            start, end = trim_span(text, start, end)
            if start == end:
                continue
            size = length.count(text[start:end])
        out.spans.append((start, end))
        out.sizes.append(size)
        if not length.additive:
            out.joined.append(size)
    return None


def hard_cut(
    text: str,
    start: int,
    end: int,
    budget: int,
    length: LengthFunction,
    *,
    opportunities: bool = True,
    skip_blank: bool = False,
) -> list[SizedSpan]:
    """Cut ``text[start:end]`` into ``(start, end, size)`` pieces of at most ``budget``.

    Cuts fall on line-break opportunities (:func:`break_opportunities`: between words,
    ideographs and kana, never before closing or after opening punctuation) where one
    lies in the part that fits, else (with ``skip_blank``) before a run of spaces whose
    opportunity lies past it, else after a hyphen, a dash or a slash inside a word, else
    on grapheme-cluster boundaries. Where ``k`` parts
    are needed, they are balanced: each cut falls at the opportunity nearest to an even
    share of what remains (a CRLF pair counting as one code point in shares and distances,
    so that CRLF text is cut where its LF version is), never past the longest part that
    fits (found from the length function's hint, else by galloping and binary search,
    always measured); if that
    would take more than ``k`` parts, each part is as long as fits instead. A single
    cluster over the budget raises :class:`ChunkTooLargeError` naming its offset and
    both sizes; with ``skip_blank`` (for trimmed chunks), a cluster of whitespace alone is
    left between two pieces instead, as trimming would leave it out of any chunk. Without
    ``opportunities`` (the empty separator), the places after a hyphen, a dash or a slash
    come first where the parts stay even and no more (up to :data:`INNER_CUTS_MOST_PARTS`
    parts), then every cluster boundary is as good a cut as any other. Only the text
    near each cut is looked at, so a piece of any length takes memory for its parts alone.
    """
    longest = _cut(text, start, end, budget, length, opportunities, 0, skip_blank)
    if len(longest) < 2:
        return longest
    parts = len(longest)
    inner = parts <= INNER_CUTS_MOST_PARTS
    even = _cut(text, start, end, budget, length, opportunities, parts, skip_blank, inner)
    if inner and len(even) > parts:  # a cut inside a word took a part more: even parts
        even = _cut(text, start, end, budget, length, opportunities, parts, skip_blank)
    return even if len(even) <= parts else longest


INNER_CUTS_MOST_PARTS = 16
"""The most parts of a word over budget cut after its hyphens, dashes or slashes first (a
URL in prose, a compound); a longer run (minified code, a list of paths) is cut evenly
alone, as the second pass that such cuts may need would cost half the time again."""


def _cut(
    text: str,
    start: int,
    end: int,
    budget: int,
    length: LengthFunction,
    opportunities: bool,
    parts: int,
    skip_blank: bool = False,
    inner: bool = False,
) -> list[SizedSpan]:
    """:func:`hard_cut`'s parts: each as long as fits (``parts == 0``), or aiming at an
    even share of the rest among ``parts`` parts."""
    pieces: list[SizedSpan] = []
    pos = start
    # A CRLF pair counts as one in the even share, as an LF does: the same lines with
    # other line endings are cut at the same places (a cut never falls inside a pair).
    pairs = text.count("\r\n", start, end) if parts else 0
    edges = _TrimmedEdges(text, end)
    while pos < end:
        cut, size = _longest_fitting_prefix(text, pos, end, budget, length)
        if cut == pos:
            cluster = first_cluster_end(text, pos, end)
            if skip_blank and text[pos:cluster].isspace():
                if pairs:
                    pairs -= text.count("\r\n", pos, cluster)
                pos = cluster  # (trimming leaves it out: it fits no chunk, and needs none)
                continue
            raise ChunkTooLargeError(pos, length.count(text[pos:cluster]), budget, length.unit)
        if cut < end:
            if parts:
                share = (end - pos - pairs) / max(1, parts - len(pieces))
                target = _after_units(text, pos, share) if pairs else pos + share
            else:
                target = end
            # The opportunities in (pos, cut]: break_opportunities reads the text around
            # its region, so a window gives the positions the whole piece would.
            found = break_opportunities(text, pos, cut + 1) if opportunities else []
            chosen = _best_cut(found, text, pos, cut, target, inner, skip_blank, edges)
            if chosen != cut:
                cut, size = chosen, length.count(text[pos:chosen])
        if pairs:
            pairs -= text.count("\r\n", pos, cut)
        pieces.append((pos, cut, size))
        pos = cut
    return pieces


def _after_units(text: str, pos: int, units: float) -> float:
    """The position ``units`` code points after ``pos``, a CRLF pair counting as one (the
    LF it stands for: a fraction of it is twice that fraction of the pair)."""
    while True:
        pair = text.find("\r\n", pos, pos + int(units) + 2)
        if pair < 0:
            return pos + units
        units -= pair - pos
        if units < 1:
            return pair + 2 * units
        units -= 1
        pos = pair + 2


def _best_cut(
    opportunities: list[int],
    text: str,
    pos: int,
    longest: int,
    target: float,
    inner: bool,
    trimmed: bool,
    edges: _TrimmedEdges,
) -> int:
    """Where a part from ``pos`` that fits up to ``longest`` ends: among the opportunities
    in the later half of ``(pos, longest]`` (a CRLF pair counting as one; in all of it
    where that half has none), the
    best ranked (:func:`cut_rank`: a line end, then a sentence end, then a clause end, then
    any) nearest to ``target`` (the later one of two as near); else, when the part falls
    short of ``longest`` (even parts), for ``trimmed`` parts the start of a run of spaces
    that reaches past it (:func:`_spaces_reached`), or with ``inner``, the place after a
    hyphen, a dash or a slash nearest to ``target`` (:func:`_inner_breaks`), or the
    grapheme-cluster boundary nearest to it; where a part as long as fits would put closing
    punctuation first or opening punctuation last, the latest boundary before that does not
    (:func:`_latest_allowed`)."""
    scale = _unit_scale(text, pos, longest)
    half = (scale(longest) if scale else longest - pos) // 2
    low = bisect_right(opportunities, _after_units(text, pos, half) if scale else pos + half)
    last = bisect_right(opportunities, longest)
    if last <= low:
        low = bisect_right(opportunities, pos)
    if last > low:
        candidates = opportunities[low:last]
        ranks = [cut_rank(text, position) for position in candidates]
        best = max(ranks)
        candidates = [p for p, rank in zip(candidates, ranks) if rank == best]
    elif trimmed and target < longest and (spaces := _spaces_reached(text, pos, longest)):
        candidates = spaces  # before the spaces whose break after them lies past the part
    elif (
        inner and target < longest and (breaks := _inner_breaks(text, pos, longest, target, scale))
    ):
        candidates = breaks  # a word over budget: after a hyphen, a dash or a slash in it
    elif target < longest:
        bounds = cluster_ends(text, pos, longest)
        return _nearest(
            bounds,
            target,
            lambda b: b == longest or not edges.forbid(pos, b),
            scale,
        )
    elif edges.forbid(pos, longest):
        return _latest_allowed(text, pos, longest, edges)
    else:
        return longest
    return _nearest(candidates, target, lambda _: True, scale)


def _latest_allowed(text: str, pos: int, longest: int, edges: _TrimmedEdges) -> int:
    """The latest grapheme-cluster boundary in the :data:`CUTS_TRIED_BACK` code points before
    ``longest`` where a part from ``pos`` may end (see :class:`_TrimmedEdges`); ``longest``
    where there is none (a longer run of closing marks is cut anyway)."""
    candidates = range(max(pos + 1, longest - CUTS_TRIED_BACK), longest)
    inside = set(cuts_inside_clusters(text, candidates))
    for cut in reversed(candidates):
        if cut not in inside and not edges.forbid(pos, cut):
            return cut
    return longest


CUTS_TRIED_BACK = 16
"""How far back from the end of a part as long as fits :func:`_latest_allowed` looks."""


class _TrimmedEdges:
    """Whether a cut inside a piece that ends at ``end`` puts closing punctuation first or
    opening punctuation last once the whitespace around it is trimmed (as :func:`glue`
    reads pieces: ``"ab"`` and ``" 」x"`` cannot part). The whitespace around the last cut
    asked about is kept (in the part, and ahead of it), so that the cuts of a long run of
    it (tabs, no-break spaces, which no separator splits) read it once, not once a part."""

    __slots__ = ("ahead", "end", "run", "text")

    def __init__(self, text: str, end: int) -> None:
        self.text, self.end = text, end
        self.run = (-1, -1, -1)  # a part's start, and the whitespace around a cut in it
        self.ahead = (-1, -1)  # whitespace, and where it ends (any part)

    def forbid(self, pos: int, cut: int) -> bool:
        """Whether the part from ``pos`` may not end at ``cut``."""
        text = self.text
        start, last, first = self.run
        if not (start == pos and last <= cut <= first):
            last, first = cut, cut
            if cut > pos and text[cut - 1].isspace():
                last = before_whitespace(text, pos, cut)
            if cut < self.end and text[cut].isspace():
                low, first = self.ahead
                if not low <= cut <= first:
                    first = after_whitespace(text, cut, self.end)
                    self.ahead = (cut, first)
            self.run = (pos, last, first)
        return punctuation_forbids(text, last, first, pos, self.end)


def _spaces_reached(text: str, pos: int, longest: int) -> list[int]:
    """Where a run of spaces or tabs starts in ``(pos, longest]`` whose line-break
    opportunity (after it) lies past ``longest``: a cut there leaves the spaces to the next
    part, which trimming removes, where a cut by grapheme clusters would fall inside the
    word before them (``"hello.  x"`` in parts of 7: ``"hello."``, not ``"hell"``); none
    before closing punctuation."""
    run_end = longest
    while run_end < len(text) and text[run_end] in " \t":
        run_end += 1
    run_start = longest
    while run_start > pos and text[run_start - 1] in " \t":
        run_start -= 1
    if run_start <= pos or run_start == run_end or punctuation_forbids(text, run_start, run_end):
        return []
    if cuts_inside_clusters(text, [run_start]):  # (a prepended mark holds the space after it)
        return []
    return [run_start]


def _unit_scale(text: str, pos: int, end: int) -> Callable[[float], float] | None:
    """Positions in ``text[pos:end]`` (a target may fall inside a CRLF pair) as code points
    after ``pos``, a CRLF pair counting as one (half of it, half a unit), as
    :func:`_after_units` places them: so that the distances to a target are those of the
    same text with LF line endings. ``None`` where the part holds no pair."""
    if text.find("\r\n", pos, end + 1) < 0:
        return None
    pairs = [match.start() for match in _CRLF.finditer(text, pos, end + 1)]

    def units(position: float) -> float:
        before = bisect_right(pairs, position - 2)  # the pairs wholly before it
        if before < len(pairs) and pairs[before] < position:  # (inside a pair)
            return pairs[before] - pos - before + (position - pairs[before]) / 2
        return position - pos - before

    return units


_CRLF = re.compile("\r\n")


_INNER_BREAK = regex.compile(r"(?<=[\p{L}\p{N}])[-\u2010\u2013\u2014/]+(?=[\p{L}\p{N}])")
"""A hyphen, dash or slash between letters or digits: where a word longer than the budget
is cut before anywhere else (``state-of-|the-art``, ``example.com/|docs``)."""


def _inner_breaks(
    text: str,
    pos: int,
    longest: int,
    target: float,
    scale: Callable[[float], float] | None,
) -> list[int]:
    """The places after a hyphen, a dash or a slash in ``(pos, longest]`` that leave a
    part of half to one and a half times the even share ``target - pos`` (a CRLF pair
    counting as one, as ``scale``, :func:`_unit_scale` of the part, reads it): no runt,
    and the parts after it can still be even."""
    share = scale(target) if scale else target - pos
    low = _after_units(text, pos, share / 2)
    high = min(longest, _after_units(text, pos, 1.5 * share))
    return [
        match.end()
        for match in _INNER_BREAK.finditer(text, pos, longest)
        if low <= match.end() <= high
    ]


def _nearest(
    candidates: list[int],
    target: float,
    allowed: Callable[[int], bool],
    units: Callable[[float], float] | None = None,
) -> int:
    """The allowed one of ``candidates`` (ascending) nearest to ``target``, the later one
    of two as near; among all of them when none is allowed. Distances are measured in
    ``units`` of positions where given (a CRLF pair as one: :func:`_unit_scale`). Only the
    candidates around ``target`` are asked about: a cut's window may hold thousands."""
    scale = units or float
    above = bisect_left(candidates, target)
    up = next((k for k in range(above, len(candidates)) if allowed(candidates[k])), None)
    aim = scale(target)
    reach = scale(candidates[up]) - aim if up is not None else float("inf")
    down = None
    for k in range(above - 1, -1, -1):
        if aim - scale(candidates[k]) >= reach:
            break
        if allowed(candidates[k]):
            down = k
            break
    if down is not None:
        return candidates[down]
    if up is not None:
        return candidates[up]
    return _nearest(candidates, target, lambda _: True, units)


_CLOSERS = "\"'\u201d\u2019)\\]\u300d\u300f\uff09"
_SENTENCE_END = re.compile(f"[.!?\u3002\uff01\uff1f][{_CLOSERS}]*\\Z")
_CLAUSE_END = re.compile(f"[,;:\u3001\uff0c\uff1b\uff1a][{_CLOSERS}]*\\Z")


def cut_rank(text: str, position: int) -> int:
    """How good a cut before ``text[position]`` is: 3 after a line ending (spaces aside),
    2 after a sentence's end (``.!?。！？`` and closing marks), 1 after a clause's, 0
    otherwise."""
    before = position
    if position > 0 and text[position - 1].isspace():
        before = before_whitespace(text, 0, position)
        run = text[before:position]
        if "\n" in run or "\r" in run:
            return 3
    if _SENTENCE_END.search(text, max(0, before - 4), before):
        return 2
    if _CLAUSE_END.search(text, max(0, before - 4), before):
        return 1
    return 0


def _longest_fitting_prefix(
    text: str, pos: int, end: int, budget: int, length: LengthFunction
) -> tuple[int, int]:
    """The furthest cluster boundary ``b`` in ``(pos, end]`` with ``text[pos:b]`` in budget.

    Returns ``(b, size)``, or ``(pos, 0)`` when not even the first cluster fits. Only text
    near the answer is measured: the window grows from the hint (or from 256 code points)
    until its end no longer fits, then a search runs over its cluster boundaries: from the
    hint outwards, then binary.
    """
    count = length.count
    hint = length.prefix_hint(text, pos, end, budget)
    window = 256 if hint is None else hint + 64
    while True:
        window_end = min(end, pos + max(window, 1))
        bounds = cluster_ends(text, pos, window_end)
        if window_end < end:
            bounds.pop()  # the window may end inside a cluster
        if not bounds:
            window *= 4
            continue
        if window_end < end and count(text[pos : bounds[-1]]) <= budget:
            window *= 4
            continue
        break
    best, best_size = pos, 0
    low, high = 0, len(bounds) - 1
    if hint is not None:
        # Probe the hint first, then gallop away from it (1, 2, 4 ... clusters): the
        # answer is most often within a cluster or two of the hint, so two or three
        # measurements find it where a binary search over the window takes seven.
        probe = bisect_right(bounds, pos + hint) - 1
        if probe >= 0:
            size = count(text[pos : bounds[probe]])
            fits = size <= budget
            if fits:
                best, best_size, low = bounds[probe], size, probe + 1
            else:
                high = probe - 1
            step = 1
            while low <= high:
                probe = min(probe + step, high) if fits else max(probe - step, low)
                size = count(text[pos : bounds[probe]])
                if size <= budget:
                    best, best_size, low = bounds[probe], size, probe + 1
                else:
                    high = probe - 1
                if (size <= budget) != fits:
                    break
                step *= 2
    while low <= high:
        mid = (low + high) // 2
        size = count(text[pos : bounds[mid]])
        if size <= budget:
            best, best_size, low = bounds[mid], size, mid + 1
        else:
            high = mid - 1
    return best, best_size
