"""Packing by scanning: the fast strategy for code points and whitespace separators.

With sizes in code points (or a length that counts them on this text), trimmed chunks
and separators made only of whitespace (the defaults ``"\\n\\n"``, ``"\\n"``, ``" "``),
the pieces at one level are the stretches of text between the whitespace runs that hold
its separator, and a chunk's size is its length. Chunks can then be read off the text: a
chunk ends where the last such run that starts at or before ``start + chunk_size``
starts (one ``rfind``), so the work follows the number of chunks, not of pieces, and no
piece list is built; overlap is found by search too, down to the parts of a chunk's last
piece. The chunks are exactly those of the general path (:func:`~spansplit.packing.fit`
then :func:`~spansplit.packing.merge`), as the tests check on generated text through
:func:`spansplit.packing.pack`. A piece that needs a finer level than whitespace (a word
longer than the budget) is split by the general path alone when there is no overlap;
with overlap, it hands the whole text back to the general path, which splits it from the
start (the scan so far is lost: at most the cost of scanning it).

:func:`scan_separators` says when the scan applies: the structure keeps the pieces of a
split piece apart (``isolate``), sizes are code points, chunks are trimmed, and the
structure's first levels are literal separators made only of whitespace.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..boundaries.graphemes import run_in_clusters
from ..boundaries.levels import Level
from ..boundaries.linebreaks import CLOSING, forbidden_run, punctuation_forbids
from ..boundaries.paragraphs import (
    HEADING_MOST_CHARS,
    STACKED_HEADINGS,
    heading_hint,
    looks_like_heading,
    looks_like_lead,
    may_hold_headings,
    may_lead,
)
from ..boundaries.separators import SeparatorLevel, is_line_feeds, line_endings
from ..chunk import SizedSpan, Span, after_whitespace, before_whitespace
from ..config import ChunkConfig
from .merge import RUNT_SHARE, OverlapSearch, holds_content


class _JoinedSpace(Exception):
    """Raised inside :class:`RecursiveScan` at a whitespace run that a grapheme cluster
    joins to its neighbour: the general path splits that text instead."""


_Previous = tuple[str, int, int, int]
"""The chunk before: its level's separator, its first new piece's start, its start (after
trimming) and its end. A plain tuple: one is made per chunk."""


def scan_separators(
    levels: Sequence[Level], isolate: bool, config: ChunkConfig, text: str
) -> tuple[str, ...]:
    """The separators the scan can read ``text``'s chunks off it with: the leading levels
    that split at a literal made only of whitespace, when the scan applies at all (see the
    module docstring; sizes count code points where ``counts_code_points`` says so for the
    text: UTF-8 bytes of ASCII text too); empty when it does not."""
    if not (isolate and config.strip_whitespace and config.length.counts_code_points(text)):
        return ()
    prefix: list[str] = []
    for level in levels:
        literal = level.literal if isinstance(level, SeparatorLevel) else None
        if literal is None or not literal.isspace():
            break
        prefix.append(literal)
    return tuple(prefix)


def literal_levels(levels: Sequence[Level]) -> list[str | None] | None:
    """Every level's literal separator (``None`` for grapheme clusters) when all levels are
    literal separators dropped at cuts, so that overlap inside a piece can be found by
    search; ``None`` otherwise."""
    found: list[str | None] = []
    for level in levels:
        if not isinstance(level, SeparatorLevel) or level.keep is not False:
            return None
        if level.literal is None and level.separator:
            return None  # a regular expression with special characters
        found.append(level.literal)
    return found


FinerSplit = Callable[[list[Span], int], list[SizedSpan]]
"""The general path's chunks of pieces at one of the scan's levels (its index), split with
the levels after it: a piece that had to be split, alone or led by a runt (alone: without
overlap, the chunks of a split piece never cross its edges)."""


class RecursiveScan:
    """One text split by scanning: :meth:`spans` gives the chunks, or ``None`` when a piece
    needs a level past ``separators`` and ``finer`` cannot take it (the general path then
    splits the whole text)."""

    def __init__(
        self,
        text: str,
        separators: Sequence[str],
        budget: int,
        overlap: int,
        search: OverlapSearch,
        finer: FinerSplit | None = None,
        finer_levels: Sequence[str | None] | None = None,
        start: int = 0,
        *,
        one_piece: bool = False,
        headings: bool = False,
    ) -> None:
        self.text = text
        self.start = start  # where the text to split starts (after a byte order mark)
        # The text is one piece at a coarser level (one paragraph): its first separator's
        # pieces are those of a piece that had to be split, packed evenly.
        self.one_piece = one_piece
        self.separators = separators
        self.budget = budget
        self.overlap = overlap
        self.search = search
        # Without overlap a piece's chunks depend on that piece alone, so the general path
        # can split just the piece; with overlap, they also depend on the chunk before.
        self.finer = finer if overlap == 0 else None
        # Every separator (None: grapheme clusters), for finding overlap inside a piece by
        # search; None when separators are kept (parts then start at or after them).
        self.finer_levels = finer_levels
        # Whether some whitespace run has closing punctuation after it or opening before
        # it: only then may a run holding a separator be no cut (see ``_is_cut``).
        self.glued = search.punctuation and forbidden_run(text)
        # Whether a mark may join a space (only text beyond ASCII has marks): see _run_end.
        self.marks = not text.isascii()
        self._run_cache = (-1, -1, -1, -1, 0)  # level, region end, start, end, cap: see _run
        self.hashes = headings and may_hold_headings(text)  # (else no piece is a heading)
        carriage_returns = "\r" in text
        self.carriage_returns = self.hashes and carriage_returns  # (a lone CR ends a line too)
        # In text with a CR, separators of line feeds match every kind of line ending (see
        # _find), which _finer's search by character does not.
        self.line_feeds = frozenset(filter(is_line_feeds, separators) if carriage_returns else ())
        if carriage_returns:
            self.finer_levels = None

    def _is_cut(self, run_start: int, run_end: int) -> bool:
        """Whether the whitespace run ``text[run_start:run_end]`` may separate two pieces:
        not before closing punctuation, not after opening punctuation (as
        :func:`~spansplit.boundaries.linebreaks.glue` joins the general path's pieces)."""
        if self.marks:
            self._check_clusters(run_start, run_end)
        return not (self.glued and punctuation_forbids(self.text, run_start, run_end))

    def _run_start(self, pos: int) -> int:
        """Start of the whitespace run holding ``text[pos - 1]`` (``pos`` if that is not
        whitespace)."""
        return before_whitespace(self.text, 0, pos)

    def _run_end(self, pos: int) -> int:
        """End of the whitespace run holding ``text[pos]`` (``pos`` if that is not
        whitespace)."""
        return after_whitespace(self.text, pos, len(self.text))

    def _check_clusters(self, run_start: int, run_end: int) -> None:
        """Raise :class:`_JoinedSpace` if an edge of the whitespace run
        ``text[run_start:run_end]`` shares a grapheme cluster with the character beside it
        (a space that a combining mark joins): the general path, which keeps clusters
        whole, would not cut there (nor trim such a space), so the text is handed to it."""
        if run_in_clusters(self.text, run_start, run_end):
            raise _JoinedSpace

    def spans(self) -> list[SizedSpan] | None:
        """``(start, end, size)`` of each chunk, or ``None`` to use the general path."""
        try:
            return self._spans()
        except _JoinedSpace:
            return None

    def _spans(self) -> list[SizedSpan] | None:
        text, separators, budget = self.text, self.separators, self.budget
        chunks: list[SizedSpan] = []
        level, pos = 0, self._run_end(self.start)
        if pos == len(text):
            return chunks  # blank
        region_end = self._run_start(len(text))
        if self.marks:  # the edges of the text are trimmed: whitespace there is no cut
            self._check_clusters(self.start, pos)
            self._check_clusters(region_end, len(text))
        parents: list[tuple[int, int, int]] = []  # (level, region end, next piece start)
        previous: _Previous | None = None
        skip_run = self._run_end  # the end of a run that _is_cut checked
        while True:
            while pos >= region_end:
                if not parents:
                    return chunks
                level, region_end, pos = parents.pop()
            separator = separators[level]
            start = content_start = pos
            if previous is not None and self.overlap:
                piece_end = self._cut_after(separator, pos, region_end)[0]
                previous_end = previous[3]
                room = min(self.overlap, budget - (piece_end - previous_end))
                overlap_start = self._overlap(previous, room) if room > 0 else None
                if overlap_start is not None and holds_content(text, overlap_start, previous[3]):
                    start, content_start = overlap_start, self._run_end(overlap_start)
                    if self.marks and content_start > start:  # no chunk starts on a mark
                        self._check_clusters(start, content_start)
            limit = start + budget
            end = region_end if region_end <= limit else self._chunk_end(separator, pos, limit)
            if not (parents or self.one_piece) and pos < end < region_end:
                whole = end
                if may_lead(text[end - 1], titles=self.search.punctuation):  # (then headings)
                    end = self._before_lead_in(separator, pos, end, region_end)
                if self.hashes:
                    end = self._before_headings(separator, pos, end, region_end, whole)
            if (
                pos < end < region_end
                and RUNT_SHARE * (end - pos) < budget
                and self._over_budget(separator, end, region_end)
            ):
                # A runt before a piece that must be split (a chapter's title, the chunk
                # before it full; a paragraph's first line, inside a paragraph being split)
                # goes with that piece's parts (see merge's _leads_run):
                # read at the next level with them where its pieces are pieces there too.
                following = self._run_end(end)
                piece_end, after = self._cut_after(separator, following + budget, region_end)
                runt = self._pieces(separator, pos, end)
                if (
                    level + 1 < len(separators)
                    and not self.hashes  # (nor before a heading: the general path decides)
                    and self._whole_below(level, runt, following, piece_end)
                ):
                    parents.append((level, region_end, after))
                    level, region_end = level + 1, piece_end
                    continue
                if self.finer is None:
                    raise _JoinedSpace
                chunks += self.finer([*runt, (following, piece_end)], level)
                pos = after
                continue
            if (parents or self.one_piece) and pos < end < region_end:
                # Inside a piece that had to be split: even chunks, not a runt at its end.
                run_end, cap = self._run(separator, level, pos, region_end)
                cap = self._last_two_cap(separator, pos, run_end, cap)
                if end < run_end and end - pos > cap:
                    capped = self._chunk_end(separator, pos, pos + cap)
                    end = capped if capped > pos else self._cut_after(separator, pos, region_end)[0]
            if end == pos:
                # The piece at ``pos`` is over budget: split it at the next level, and its
                # pieces never share a chunk with the pieces around it (LangChain's way).
                if self.hashes and self._heading_before(pos):
                    raise _JoinedSpace  # the general path packs the heading with its parts
                piece_end, following = self._cut_after(separator, pos + budget, region_end)
                if level + 1 == len(separators):
                    if self.finer is None:
                        return None
                    chunks += self.finer([(pos, piece_end)], level)
                    pos = following
                    continue
                parents.append((level, region_end, following))
                level, region_end = level + 1, piece_end
                continue
            chunks.append((content_start, end, end - content_start))
            previous = (separator, pos, content_start, end)
            pos = skip_run(end)

    def _before_headings(
        self, separator: str, pos: int, end: int, region_end: int, whole: int
    ) -> int:
        """The end of the chunk of pieces from ``pos`` to ``end`` without the heading lines
        it ends with, where a piece before them is not one and they are no more than
        :data:`STACKED_HEADINGS` (the general path's rule: a heading goes with what follows
        it); else ``whole``, its end before a lead-in was taken off it (headings alone keep
        theirs). Where the chunk is such headings only and the piece after them must be
        split, :class:`_JoinedSpace` hands the text to the general path, which packs them
        with its parts (the next level may cut a heading otherwise: at its words)."""
        text, last_end, stripped = self.text, whole, 0
        while True:
            line = max(pos, text.rfind("\n", pos, end) + 1)
            if self.carriage_returns:
                line = max(line, text.rfind("\r", pos, end) + 1)
            if not heading_hint(text, line, end):
                return end  # (its last line is no heading: nor is its last piece)
            piece_start = self._piece_start(separator, pos, end)
            if not looks_like_heading(text, piece_start, end):
                return end  # (a piece that is not a heading: the chunk ends with it)
            if stripped == STACKED_HEADINGS:
                if self._over_budget(separator, last_end, region_end):
                    raise _JoinedSpace  # the general path moves some of them only
                return last_end  # more headings in a row: packed as any text
            stripped += 1
            if piece_start > pos:
                end = self._run_start(piece_start)
                continue
            if self._over_budget(separator, last_end, region_end):
                raise _JoinedSpace
            return last_end

    def _before_lead_in(self, separator: str, pos: int, end: int, region_end: int) -> int:
        """The end of the chunk of pieces from ``pos`` to ``end`` without the lead-in or
        title it ends with (:func:`looks_like_lead`), where pieces that are no runt come before
        it and it fits in a chunk with the piece after it and the overlap (the general path's
        rule)."""
        piece_start = self._piece_start(separator, pos, end)
        if piece_start <= pos or not looks_like_lead(
            self.text, piece_start, end, titles=self.search.punctuation
        ):
            return end
        if RUNT_SHARE * (self._run_start(piece_start) - pos) < self.budget:
            return end  # (what is before it would be a runt)
        following_end = self._cut_after(separator, self._run_end(end), region_end)[0]
        if following_end - piece_start + self.overlap > self.budget:
            return end  # (with all the overlap: else it might be a chunk of its own)
        return self._run_start(piece_start)

    def _heading_before(self, pos: int) -> bool:
        """Whether the line just before ``pos`` (whitespace between) is a heading line: the
        piece before a piece to split may be one, at any level (a heading is a line whole,
        so it is a piece's only at the start of its line)."""
        text = self.text
        end = self._run_start(pos)
        if end <= self.start:
            return False
        # (a heading line is short: no search back further than one can be long)
        low = max(self.start, end - HEADING_MOST_CHARS - 8)
        line_start = max(low, text.rfind("\n", low, end) + 1, text.rfind("\r", low, end) + 1)
        return looks_like_heading(text, line_start, end)

    def _pieces(self, separator: str, low: int, end: int) -> list[Span]:
        """The pieces of ``[low, end)`` (``low`` a piece's start, ``end`` a piece's end)."""
        pieces = []
        while True:
            piece_end, following = self._cut_after(separator, low, end)
            pieces.append((low, piece_end))
            if following >= end:
                return pieces
            low = following

    def _whole_below(self, level: int, pieces: list[Span], following: int, end: int) -> bool:
        """Whether the next level's separator finds ``pieces`` (of ``level``) each one piece,
        with a cut after each, and cuts the piece from ``following`` to ``end`` after them
        (the general path splits a piece at the first level that cuts it) into a first part
        that fits (one over the budget would be split apart from the runt at that level)."""
        below = self.separators[level + 1]
        starts = [start for start, _ in pieces[1:]] + [following]
        first_end = self._cut_after(below, following, end)[0]
        return (
            first_end < end
            and first_end - following <= self.budget
            and all(
                self._find(below, start, stop) < 0 and self._find(below, stop, after) >= 0
                for (start, stop), after in zip(pieces, starts)
            )
        )

    def _piece_start(self, separator: str, low: int, end: int) -> int:
        """Where the last piece of ``[low, end)`` (``end`` a piece's end) starts."""
        before = self._chunk_end(separator, low, end - 1)  # the cut before it, or low
        return self._run_end(before) if before > low else low

    def _over_budget(self, separator: str, end: int, region_end: int) -> bool:
        """Whether the piece after the one ending at ``end`` is over budget (to be split)."""
        following = self._run_end(end)
        limit = following + self.budget
        return limit < region_end and self._chunk_end(separator, following, limit) == following

    def _cut_after(self, separator: str, low: int, region_end: int) -> tuple[int, int]:
        """The cut after ``low``: start and end of the first whitespace run holding
        ``separator`` after ``low`` that may be a cut (``low`` must not be inside a
        run), that is the end of the piece there and the start of the next;
        ``region_end`` twice if there is none."""
        while True:
            found = self._find(separator, low, region_end)
            if found < 0:
                return region_end, region_end
            run_start, run_end = self._run_start(found), self._run_end(found)
            if self._is_cut(run_start, run_end):
                return run_start, run_end
            low = run_end

    def _find(self, separator: str, low: int, high: int) -> int:
        """Where ``separator`` first occurs in ``text[low:high]`` (-1 where it does not);
        line feeds match line endings of every kind (see
        :func:`~spansplit.boundaries.separators.is_line_feeds`)."""
        if separator not in self.line_feeds:
            return self.text.find(separator, low, high)
        found = line_endings(len(separator)).search(self.text, low, high)
        return -1 if found is None else found.start()

    def _rfind(self, separator: str, low: int, high: int) -> int:
        """Where ``separator`` occurs in the last whitespace run of ``text[low:high]`` that
        holds it (-1 where none does), as :meth:`_find` matches it."""
        text = self.text
        if separator not in self.line_feeds:
            return text.rfind(separator, low, high)
        # One or two line endings in a row hold one of these at least, and each of these is
        # one or two (CRLF then CRLF holds "\n\r", CR then CRLF "\r\r"): the last is found
        # by searching back for each.
        if separator == "\n":
            return max(text.rfind("\n", low, high), text.rfind("\r", low, high))
        if separator == "\n\n":
            return max(
                text.rfind("\n\n", low, high),
                text.rfind("\n\r", low, high),
                text.rfind("\r\r", low, high),
            )
        pattern = line_endings(len(separator))
        while high > low:
            last = max(text.rfind("\n", low, high), text.rfind("\r", low, high))
            if last < 0:
                return -1
            run_start = max(low, self._run_start(last + 1))
            found = pattern.search(text, run_start, last + 1)
            if found is not None:
                return found.start()
            high = run_start
        return -1

    def _chunk_end(self, separator: str, low: int, limit: int) -> int:
        """A chunk's end: the furthest piece end in ``(low, limit]``, ``low`` if none, where
        the region goes on past ``limit`` (the start of a whitespace run holding
        ``separator`` that may be a cut, that run maybe reaching past ``limit``)."""
        text = self.text
        high = limit
        if text[limit].isspace():
            # A run that holds the separator and starts by ``limit`` may reach past it.
            run_start, run_end = self._run_start(limit), self._run_end(limit)
            if self._find(separator, run_start, run_end) >= 0:
                if self._is_cut(run_start, run_end):
                    return run_start
                high = run_start
        while True:
            found = self._rfind(separator, low, high)
            if found < 0:
                return low
            run_start = self._run_start(found)
            if self._is_cut(run_start, self._run_end(found)):
                return run_start
            high = run_start

    def _run(self, separator: str, level: int, pos: int, region_end: int) -> tuple[int, int]:
        """End and even cap (:func:`~.merge.even_cap`) of the run of pieces that fit,
        from ``pos`` on, at this level of the region ending at ``region_end``: the general
        path packs each such run on its own (a piece over budget between two runs is split
        apart). ``pos`` starts a run unless an earlier chunk of the same run is
        remembered. The cap is found as ``even_cap`` finds it, by counting greedy chunks
        (a few searches each) rather than by listing the run's pieces."""
        cached_level, cached_region, cached_start, cached_end, cap = self._run_cache
        same_region = (cached_level, cached_region) == (level, region_end)
        if same_region and cached_start <= pos < cached_end:
            return cached_end, cap
        run_end, most, last_start = self._greedy_chunks(separator, pos, region_end, self.budget)
        cap = self._even_cap(separator, pos, run_end, most, last_start)
        self._run_cache = (level, region_end, pos, run_end, cap)
        return run_end, cap

    def _even_cap(self, separator: str, pos: int, run_end: int, most: int, last_start: int) -> int:
        """The smallest cap that packs the pieces from ``pos`` to ``run_end`` into no more
        chunks than the budget does (``most``, the last starting at ``last_start``); the
        budget where that last chunk is no runt."""
        budget = self.budget
        if 2 * (run_end - last_start) >= budget:
            return budget  # the last chunk is no runt: the budget is the cap
        if most == 2:
            return self._two_chunk_cap(separator, pos, run_end)
        low, high = 1, budget
        while low < high:
            middle = (low + high) // 2
            if self._greedy_chunks(separator, pos, run_end, middle)[1] <= most:
                high = middle
            else:
                low = middle + 1
        return high

    def _two_chunk_cap(self, separator: str, pos: int, run_end: int) -> int:
        """:meth:`_even_cap` for two chunks, from the cuts around the middle. Greedy
        packing under a cap makes two chunks where one cut leaves each side within the
        cap or a single piece (a piece wider than the cap is a chunk alone): the cap is
        the smallest larger side over the cuts, a single piece's side counting as 1.
        Within the first and last cuts, the larger side falls and then rises along the
        cuts (the left side grows, the right one shrinks), so from the cut at the middle
        a short walk finds where it is smallest."""

        def larger_side(cut: int) -> int:
            return max(cut - pos, run_end - self._run_end(cut))

        first = self._cut_after(separator, pos, run_end)[0]
        last = self._chunk_end(separator, pos, run_end - 1)
        if first == last:
            return 1  # two pieces: two chunks under any cap
        ends = min(run_end - self._run_end(first), last - pos)  # a single piece on one side
        cut = max(first, self._chunk_end(separator, pos, (pos + run_end) // 2))
        best = larger_side(cut)
        while cut < last:  # right while the larger side falls
            following = self._cut_after(separator, self._run_end(cut), run_end)[0]
            side = larger_side(following)
            if side >= best:
                break
            cut, best = following, side
        while cut > first:  # else left
            previous = self._chunk_end(separator, pos, cut - 1)
            side = larger_side(previous)
            if side >= best:
                break
            cut, best = previous, side
        return min(best, ends)

    def _last_two_cap(self, separator: str, pos: int, run_end: int, cap: int) -> int:
        """``cap``, lowered where it leaves two chunks of the run from ``pos`` on to the
        even cap of those two (see :meth:`~.merge._Packer._greedy`)."""
        if self.overlap or run_end - pos > 3 * cap:
            return cap
        if self._greedy_chunks(separator, pos, run_end, cap)[1] != 2:
            return cap
        _, most, last_start = self._greedy_chunks(separator, pos, run_end, self.budget)
        return min(cap, self._even_cap(separator, pos, run_end, most, last_start))

    def _greedy_chunks(self, separator: str, pos: int, stop: int, cap: int) -> tuple[int, int, int]:
        """Chunks of at most ``cap`` filled greedily with the pieces from ``pos`` (a piece
        start) to ``stop``, a piece wider than ``cap`` alone in its chunk: ``(end, count,
        last chunk's start)``. With ``cap`` equal to the budget, a piece wider than it ends
        the run instead, and ``end`` is then the end of the piece before it."""
        count, last_start = 0, pos
        while pos < stop:
            if stop - pos <= cap:
                return stop, count + 1, pos
            end = self._chunk_end(separator, pos, pos + cap)
            if end == pos:
                if cap == self.budget:
                    return self._run_start(pos), count, last_start
                end = self._cut_after(separator, pos, stop)[0]
            count += 1
            last_start, pos = pos, self._run_end(end)
        return stop, count, last_start

    def _overlap(self, previous: _Previous, room: int) -> int | None:
        """Start of the longest trailing context of the previous chunk within ``room``:
        the search's ranked boundaries where it has them; else whole pieces from its
        first new piece on, starting after its trimmed start, else a finer part of its
        last piece (as the general packer chooses)."""
        text = self.text
        separator, first, floor, end = previous
        if self.search.boundaries:
            return self.search.ranked(floor, end, room)[0]
        low = max(end - room, floor + 1, first)
        if low == first and not self._closing(first):
            return first
        if low < end:
            search_from = low
            if low > first and text[low - 1].isspace():
                run_start, run_end = self._run_start(low), self._run_end(low)
                if (
                    self._find(separator, run_start, run_end) >= 0
                    and self._is_cut(run_start, run_end)
                    and not self._closing(run_end)
                ):
                    return run_end
                search_from = run_end
            found = self._cut_after(separator, search_from, end)[1]
            while found < end and self._closing(found):  # never from closing punctuation on
                found = self._cut_after(separator, found, end)[1]
            if found < end:
                return found
        last_piece_start = first
        high = end
        while True:
            found = self._rfind(separator, first, high)
            if found < 0:
                break
            run_start, run_end = self._run_start(found), self._run_end(found)
            if self._is_cut(run_start, run_end):
                last_piece_start = run_end
                break
            high = run_start
        return self._finer(last_piece_start, end, room, floor)

    def _closing(self, position: int) -> bool:
        """Whether closing punctuation starts ``text[position:]``: no overlap starts there."""
        return CLOSING.match(self.text, position) is not None

    def _finer(self, start: int, end: int, room: int, floor: int) -> int | None:
        """:meth:`OverlapSearch.finer` on the last piece ``text[start:end]``, by search
        where its levels are single whitespace characters dropped at the cut
        (``keep_separator=False``): the parts then start just after runs of the character,
        so the longest fitting suffix starts after the first run at or after
        ``end - room``. Any other level takes over with the search from where it stands."""
        if self.finer_levels is None or (self.glued and forbidden_run(self.text, start, end)):
            return self.search.finer(start, end, room, floor)[0]
        text = self.text
        low = max(end - room, floor + 1)
        while True:
            for separator in self.finer_levels:
                if separator is not None and text.find(separator, start, end) < 0:
                    continue  # absent: one part
                if separator is None or len(separator) > 1 or not separator.isspace():
                    return self.search.finer(start, end, room, floor)[0]
                first = start  # the first part's start: after any leading separators
                while text[first] == separator:
                    first += 1
                if text.find(separator, first, end) >= 0:
                    break  # two parts or more
            else:
                return None  # no level splits the piece
            found = text.find(separator, max(low, first + 1) - 1, end)
            if found >= 0:
                part = found + 1
                while text[part] == separator:
                    part += 1
                if self.marks:
                    self._check_clusters(found, part)
                if self._closing(self._run_end(part)):  # (a blank part: what follows it)
                    return self.search.finer(start, end, room, floor)[0]
                return part
            # No part fits: the last one is split further.
            start = text.rfind(separator, first, end) + 1
