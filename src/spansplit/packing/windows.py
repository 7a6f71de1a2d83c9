"""Packing a long text a window at a time: the chunks of the general path, with memory
bounded by a window instead of the text.

The general path holds every piece of the text at once (a tuple and a size or two per
piece: a hundred times the text where pieces are a few characters long). Here the pieces
of the top level are read off the text a window at a time, fitted and merged, and packing
resumes after a chunk well inside the window whose first piece starts a group of
top-level pieces (those glued across cuts the rules forbid): the next window starts with
that group, and the packer continues after that chunk exactly as it would have over the
whole text. Only levels whose pieces away from a region's end do not depend on where the
region ends are read this way; a text whose top level is another, or a window that does
not meet the pieces the one before it left, is packed whole (``whole``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from itertools import chain
from typing import TYPE_CHECKING

from ..boundaries.blocks import MarkdownCuts
from ..boundaries.code import WholeLines, code_words
from ..boundaries.levels import Level, cut_anywhere, is_recursive, splits
from ..boundaries.linebreaks import ClauseLevel
from ..boundaries.markdown import (
    HeadingRunLevel,
    KidsLevel,
    LinesLevel,
    SectionCuts,
    WordLevel,
)
from ..boundaries.paragraphs import STACKED_HEADINGS, looks_like_heading, paragraph_spans
from ..boundaries.sentences import SentenceLevel, lookahead_ends
from ..boundaries.separators import HeadingLines, SeparatorLevel
from ..boundaries.words import word_spans
from ..chunk import SizedSpan, Span, after_whitespace, trim_span
from ..config import ChunkConfig
from ..lines import LINE_ENDING
from ..sizing.base import TextMeasurer
from .merge import Plan, merge, union_bounds
from .pieces import Pieces, fit, starting_at

if TYPE_CHECKING:
    from . import Structure

WINDOW_CHARS = 1 << 15
"""Code points of top-level pieces packed at a time (a window grows where no chunk in it
can be resumed from)."""

WINDOW_PIECES = 1 << 12
"""Top-level pieces packed at a time, at most (a window shrinks where pieces are tiny: a
piece held while packing takes about 150 bytes, fifty times a paragraph of one letter)."""

WINDOW_MIN_PIECES = 1 << 10
"""Top-level pieces (or budgets of text) a first window must hold for windows to be used: a
text of larger pieces (paragraphs of prose) in larger chunks takes little memory packed
whole, and faster."""

ONE_LINE_CHARS = 1 << 16
"""Code points of the longest line packed in one go, into even chunks (a longer one is
packed in windows)."""

LONG_PIECE_CHARS = 1 << 16
"""Code points of the longest top-level piece packed with all its pieces held at once
(evened, as the general path packs a piece that had to be split); a longer one is read as
its own pieces, a window at a time (see :func:`_opened`)."""

SETTLED_CHARS = 1 << 10
"""How far before the end of the region a level is asked about its pieces are taken as
final: a boundary needs no more context after it than this."""


_BOUNDED = frozenset({LINE_ENDING.pattern})
"""Regular expressions that look no further than their match (line endings: CodeSplitter's
line level)."""


def _is_local(level: Level) -> bool:
    """Whether ``level``'s pieces ending well before a region's end are those it finds in
    any longer region from the same start (sentences: once their look-ahead has ended, see
    :func:`_settled`). A separator given as a regular expression may look ahead without
    limit: it is not, unless it is one of :data:`_BOUNDED`."""
    if isinstance(level, SeparatorLevel):
        return level.literal is not None or (level.is_regex and level.separator in _BOUNDED)
    if isinstance(level, WholeLines):  # cuts moved to line starts near them
        return _is_local(level.level)
    return isinstance(
        level,
        (
            SentenceLevel,
            ClauseLevel,
            MarkdownCuts,
            HeadingLines,
            KidsLevel,
            HeadingRunLevel,
            LinesLevel,
            SectionCuts,
            WordLevel,
        ),
    ) or (level in (paragraph_spans, word_spans, code_words))


def _settled(level: Level, text: str, start: int, stop: int) -> bool:
    """Whether the pieces ``level`` found before ``start`` in a window that ends at ``stop``
    are final: sentences need their look-ahead to end inside the window."""
    if not isinstance(level, SentenceLevel):
        return True
    return lookahead_ends(text, start, stop, wrapped=level.wrapped)


class _NotLocal(Exception):
    """A level read from an earlier piece start did not find the piece a window starts
    with: its pieces depend on where it is read from, and the text is packed whole."""


def _level_pieces(level: Level, text: str, start: int, end: int) -> Iterator[list[Span]]:
    """The pieces of ``text[start:end]`` at ``level``, in batches asked for a window at a
    time. Each window starts at a piece start the one before found away from its end, and
    is read from the piece before it (what comes before a piece may decide it: the
    look-behind of sentence rules); :class:`_NotLocal` if it then is no piece start."""
    base = size = WINDOW_CHARS  # base: the window for pieces as dense as the last ones
    context = start  # where the window is read from: a piece start at or before ``start``
    failed = 0  # the largest window from ``start`` that settled too few pieces
    while start < end:
        if size > 4 * WINDOW_CHARS:
            size = end - start  # a piece that long: the rest at once, not ever larger windows
        stop = end if end - start <= size + SETTLED_CHARS else start + size
        parts = level(text, context, stop)
        starts = [piece_start for piece_start, _ in parts]
        skipped = bisect_left(starts, start)
        if skipped == len(parts) or starts[skipped] != start:
            if context < start:
                raise _NotLocal
            skipped = 0  # the region's own start: its first piece may start later
        dense = len(parts) - skipped > WINDOW_PIECES and size > 4 * SETTLED_CHARS
        smaller = max(4 * SETTLED_CHARS, size * WINDOW_PIECES // (len(parts) - skipped))
        if dense and stop < end and smaller > failed:
            # Tiny pieces: read a smaller window (never one known to settle too few, else
            # a long piece before tiny ones would swing the size back and forth forever).
            base = size = smaller
            continue
        if stop == end:
            yield parts[skipped:]
            return
        # Pieces before the first one that starts in the last SETTLED_CHARS are final.
        parts = parts[skipped:]
        settled = bisect_right(starts, stop - SETTLED_CHARS, skipped) - skipped
        following = parts[settled - 1][0] if settled else start
        if settled < 2 or following <= start or not _settled(level, text, following, stop):
            failed, size = size, 2 * size  # no piece ends early enough: a longer window
            continue
        yield parts[: settled - 1]
        context, start, size, failed = parts[settled - 2][0], following, base, 0


def _top_level(
    text: str, levels: Sequence[Level], start: int, end: int
) -> tuple[Iterator[list[Span]], Sequence[Level], bool]:
    """As the general path's top level: the pieces of the coarsest level that splits the
    region, in batches (read a window at a time where the level allows it), the levels
    after it, and whether the batches are windows (else one batch holds them all)."""
    for index, level in enumerate(levels):
        rest = levels[index if is_recursive(level) else index + 1 :]
        if cut_anywhere(level) is not None:
            return iter([[(start, end)]]), levels[index:], False  # cut where the budget says
        occurs = getattr(level, "occurs", None)
        if occurs is not None and not occurs(text, start, end):
            continue
        local_for = getattr(level, "local_for", None)  # a level local in this region
        if local_for is not None:
            level = local_for(text, start, end) or level
        if not _is_local(level):
            parts = level(text, start, end)
            if _edges_only(text, parts, start, end):
                start, end = parts[0]
            elif splits(parts, start, end):
                return iter([parts]), rest, False
            continue
        batches = _level_pieces(level, text, start, end)
        head: list[Span] = []
        try:
            for batch in batches:
                head += batch
                if len(head) > 1:
                    break
        except _NotLocal:
            return iter([level(text, start, end)]), rest, False
        if _edges_only(text, head, start, end):
            start, end = head[0]
        elif splits(head, start, end):
            return chain([head], batches), rest, True
    return iter([[(start, end)]]), (), False


def _edges_only(text: str, parts: list[Span], start: int, end: int) -> bool:
    """Whether a level's ``parts`` of ``[start, end)`` are one part, the region less the
    whitespace at its edges: a long text that is one paragraph and its line ending. The
    finer levels are then read in that part, as in a text without the line ending, and the
    finest a window at a time, instead of all its pieces held at once as the parts of one
    (evened as those are: a text shorter than two windows still is)."""
    return len(parts) == 1 and parts[0] != (start, end) and parts[0] == trim_span(text, start, end)


def pack_windows(
    text: str,
    structure: Structure,
    config: ChunkConfig,
    start: int,
    end: int,
    measurer: TextMeasurer,
    whole: Callable[[list[Span] | None, Sequence[Level]], list[SizedSpan]],
) -> list[SizedSpan]:
    """The general path's chunks of ``text[start:end]``, packed a window at a time where
    they can be (see the module's docstring), else by ``whole``: the general path given the
    top level's pieces and the levels after it (``None``: to be found again)."""
    stream, rest, windowed = _top_level(text, structure.levels, start, end)
    if not windowed:
        return whole(next(stream), rest)
    starts_chunk: set[int] = set()  # where a piece must start a chunk (see _opened)
    stream = _opened(text, structure.levels, stream, rest, starts_chunk, structure.isolate)
    trim = config.strip_whitespace
    chunks: list[SizedSpan] = []
    pending: list[Span] = []  # top-level pieces from the one the next window starts with
    more = True
    after: Plan | None = None  # the last chunk taken, as the packer planned it
    lead: int | None = None  # where the piece before the window's first ends
    top_lead: int | None = None  # where the top-level span before the window's first ends
    expected: tuple[list[Span], list[int], list[int]] = ([], [], [])  # the window's first pieces
    size = WINDOW_CHARS
    while True:
        try:
            most = WINDOW_PIECES * (size // WINDOW_CHARS)
            while more and (
                not pending or (pending[-1][1] - pending[0][0] < size and len(pending) < most)
            ):
                batch = next(stream, None)
                if batch is None:
                    more = False
                else:
                    pending += batch
            if after is None and not more:
                # one window holds it all: packed as it is whole
                return whole(None, ()) if starts_chunk else whole(pending, rest)
            if after is None and not _many_pieces(pending, config, measurer):
                if starts_chunk:
                    return whole(None, ())  # (the top level's own pieces isolate a long one)
                return whole(pending + [piece for batch in stream for piece in batch], rest)
            if after is None and not _holds_budgets(pending, 2, config, measurer):
                # A text that might fit in a chunk is packed whole, where a text that fits
                # is one chunk: the first window grows until it holds two budgets.
                if size >= 64 * WINDOW_CHARS:
                    if starts_chunk:
                        return whole(None, ())
                    return whole(pending + [piece for batch in stream for piece in batch], rest)
                size *= 2
                continue
        except _NotLocal:
            return whole(None, ())
        pieces = fit(
            text,
            pending,
            config.chunk_size,
            config.length,
            rest,
            breaks=[k for k, (piece, _) in enumerate(pending) if piece in starts_chunk]
            + starting_at(pending, structure.chunk_starts),
            isolate=structure.isolate,
            trim=trim,
            punctuation=structure.punctuation,
            headings=structure.heading_lines,
            measurer=measurer,
            lead=lead,
            top_lead=top_lead,
            overlap=config.chunk_overlap if structure.slides else 0,
        )
        if after is not None and _first_pieces(pieces, len(expected[0])) != expected:
            return whole(None, ())  # the window did not meet the pieces the last one left
        plans: list[Plan | None] = []
        made = merge(
            text,
            pieces,
            config.chunk_size,
            config.length,
            overlap=config.chunk_overlap,
            overlap_level=structure.overlap_starts,
            overlap_boundaries=structure.overlap_boundaries,
            overlap_fences=structure.overlap_fences,
            overlap_blocks=structure.overlap_blocks,
            punctuation=structure.punctuation,
            headings=structure.heading_lines,
            lead_test=structure.lead_pieces,
            trim=trim,
            after=after,
            plans=plans,
        )
        if not more:
            return chunks + made
        resumed = _resume_point(text, pending, pieces, plans, trim)
        if resumed is None:
            if size >= 4 * WINDOW_CHARS:
                return whole(None, ())  # groups as long as that: no window helps
            size *= 2
            continue
        taken, top, group, settled, plan = resumed
        chunks += made[: taken + 1]
        first = plan.first
        lead, top_lead = pieces.spans[first - 1][1], pieces.top_spans[group - 1][1]
        expected = _first_pieces(pieces, settled, first)
        after = Plan(
            0,
            plan.last - first,
            plan.overlap_start,
            plan.overlap_size,
            plan.cut,
            plan.fresh,
            led=plan.led,
            leads=tuple(run - first for run in plan.leads),
        )
        pending = pending[top:]
        size = WINDOW_CHARS


def _opened(
    text: str,
    levels: Sequence[Level],
    stream: Iterator[list[Span]],
    rest: Sequence[Level],
    starts_chunk: set[int],
    isolate: bool,
) -> Iterator[list[Span]]:
    """The batches of top-level pieces of ``stream``, with each piece longer than
    :data:`LONG_PIECE_CHARS` read as its own pieces instead, a window at a time, where
    ``levels`` read it so (a heading and a quote of a megabyte were packed with every
    piece of the quote held at once). Its pieces are split further by ``rest`` (the
    levels after the top level) where they are over the budget: the levels after theirs,
    preceded by coarser ones that found no boundary in the long piece. Where the general
    path isolates a piece that had to be split (``isolate``), the first of its pieces and
    the piece after it start a chunk: their offsets are added to ``starts_chunk`` before
    they are handed over; the pieces of a piece so long are not evened then, as a window
    holds only some of them, so the chunks differ from the general path's there."""
    mark = False  # whether the next piece follows a piece read as its own pieces
    for batch in stream:
        run: list[Span] = []
        for piece in batch:
            inner, found, windowed = None, rest, False
            if piece[1] - piece[0] > LONG_PIECE_CHARS:
                inner, found, windowed = _top_level(text, levels, *piece)
            if inner is None or not windowed or not _finer(found, rest):
                if mark:
                    starts_chunk.add(piece[0])
                    mark = False
                run.append(piece)
                continue
            if run:
                yield run
                run = []
            first = next(inner)
            if isolate:
                starts_chunk.add(first[0][0])
                mark = True
            yield first
            yield from inner
        if run:
            yield run


def _finer(levels: Sequence[Level], rest: Sequence[Level]) -> bool:
    """Whether ``levels`` are the last of ``rest`` (or all of them)."""
    return len(levels) <= len(rest) and tuple(rest[len(rest) - len(levels) :]) == tuple(levels)


def _many_pieces(pending: list[Span], config: ChunkConfig, measurer: TextMeasurer) -> bool:
    """Whether the first window's pieces are many: its top-level pieces, or the chunks it
    makes at the least (its size in budgets: a small budget cuts large pieces small), where
    it has a few top-level pieces within about a window's length to resume between."""
    if len(pending) >= WINDOW_MIN_PIECES:
        return True
    window = (pending[0][0], pending[-1][1])
    if len(pending) < 4 or window[1] - window[0] > 2 * WINDOW_CHARS:
        return False  # one piece longer than a window: no chunk in it to resume after
    return _holds_budgets(pending, WINDOW_MIN_PIECES, config, measurer)


def _holds_budgets(
    pending: list[Span], count: int, config: ChunkConfig, measurer: TextMeasurer
) -> bool:
    """Whether the first window's pieces measure ``count`` budgets at least (estimated)."""
    least = count * config.chunk_size
    return measurer.sizes([(pending[0][0], pending[-1][1])], least)[0] >= least


def _first_pieces(
    pieces: Pieces, stop: int, start: int = 0
) -> tuple[list[Span], list[int], list[int]]:
    """Spans, sizes and joined sizes of ``pieces`` from ``start`` to ``stop``."""
    return (
        pieces.spans[start:stop],
        pieces.sizes[start:stop],
        pieces.joined[start:stop],
    )


def _resume_point(
    text: str, pending: list[Span], pieces: Pieces, plans: list[Plan | None], trim: bool
) -> tuple[int, int, int, int, Plan] | None:
    """The last chunk the next window can resume after: its position among the chunks, the
    top-level piece and the group of them (glued across cuts the rules forbid) that its
    first piece starts, the end of the pieces the next window must find again, and its
    plan. Its pieces and the piece after them, and every piece its end was decided by,
    end before the window's last group with text (which may go on past the window, through
    blank pieces, or take in closing punctuation from the next) and the heading lines
    right before it, so nothing at the window's end decided them; the group it starts is
    not the first (the window moves on)."""
    groups = pieces.top_spans
    last = _last_with_text(text, groups, len(groups) - 1)
    # Heading lines right before it go with it where it turns out to be a piece to split
    # (they join its run: see pieces' _close), which the next window may find: they are
    # as open as it is.
    for _ in range(STACKED_HEADINGS):
        before = _last_with_text(text, groups, last - 1)
        if before < 0 or not looks_like_heading(text, *groups[before]):
            break
        last = before
    if last < 2:
        return None
    limit = groups[last][0]
    group_starts = [start for start, _ in groups]
    top_starts = [start for start, _ in pending]
    spans = pieces.spans
    settled = bisect_right([end for _, end in spans], limit)  # pieces ending by the limit
    balanced = union_bounds(pieces.balanced)
    for taken in range(len(plans) - 1, -1, -1):
        plan = plans[taken]
        if plan is None or max(plan.last + 1, plan.seen) >= settled:
            continue
        if bisect_right(balanced, plan.first) % 2 and plan.first not in pieces.breaks:
            # Inside a run evened from its first piece (a split piece's parts and the
            # heading lines before it that go with them): the next window would even it
            # from this chunk instead.
            continue
        following = plans[taken + 1] if taken + 1 < len(plans) else None
        if not plan.leads and (plan.led or (following is not None and following.led)):
            continue  # a run a runt leads is evened with it: a window must start with the runt
        first = spans[plan.first][0]
        group = bisect_right(group_starts, first) - 1
        top = bisect_right(top_starts, first) - 1
        top_start = after_whitespace(text, *pending[top]) if trim else top_starts[top]
        if plan.first > 0 and group > 0 and group_starts[group] == first == top_start:
            return taken, top, group, settled, plan
    return None


def _last_with_text(text: str, groups: list[Span], last: int) -> int:
    """The last of ``groups[: last + 1]`` that is not blank (-1 if none)."""
    while last >= 0 and text[groups[last][0] : groups[last][1]].isspace():
        last -= 1
    return last
