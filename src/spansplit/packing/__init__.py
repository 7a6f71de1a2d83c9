"""Packing: pieces in, chunks out, never over budget — the one place that enforces budgets.

A splitter describes how it sees text as a :class:`Structure` (boundary levels, coarsest
first, and how their pieces may share chunks) and hands it with a
:class:`~spansplit.config.ChunkConfig` to :func:`pack`, which chooses a strategy:

* the general path: :func:`~.pieces.fit` splits every piece over budget with the next
  level that finds a boundary in it (after the last level, hard cuts at grapheme clusters
  where the length function says the budget is reached), then :func:`~.merge.merge` packs
  consecutive pieces up to the budget, adds overlap and measures every chunk for real;
* scanning (:mod:`.scan`): with code points, trimmed chunks and whitespace separators
  as the first levels, chunks are read off the text directly — the same chunks as the
  general path, in far fewer steps.

Paging blocks tile their text with whole lines and keep a line longer than the budget
whole; :func:`~.tiling.tile` is that documented extension. Whatever the strategy, every
chunk's size is checked against the budget here before it is returned.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import accumulate, pairwise
from typing import Protocol

from ..boundaries.blocks import fenced_blocks
from ..boundaries.levels import (
    FirstSplit,
    LeadTest,
    Level,
    StartsLevel,
    cut_anywhere,
    is_recursive,
    splits,
)
from ..boundaries.paragraphs import (
    code_indentation_start,
    ends_with_heading,
    ends_with_lead,
    indentation_start,
    starts_with_heading,
)
from ..boundaries.sentences import forget_sentence_starts
from ..boundaries.separators import SeparatorLevel, cuts_at_words, is_line_feeds, line_endings
from ..chunk import SizedSpan, Span, trim_span
from ..config import ChunkConfig
from ..errors import InconsistentLengthError
from ..lines import LINE_ENDING, SpanArray
from ..sizing.base import CODE_POINTS, LengthFunction, TextMeasurer
from . import windows
from .merge import (
    RUNT_SHARE,
    OverlapSearch,
    adds_too_little,
    holds_content,
    merge,
    sentence_kinds,
)
from .pieces import Pieces, fit, hard_cut, starting_at
from .scan import RecursiveScan, literal_levels, scan_separators
from .tiling import Tiles, tile, tile_batches


@dataclass(frozen=True, slots=True)
class Structure:
    """How a splitter sees text: what :func:`pack` needs besides the text and the budget.

    ``levels`` split a region at one structure each, coarsest first. With ``isolate``,
    the pieces of a piece that had to be split never share a chunk with the pieces around
    it (LangChain's recursive splitting; seed 003's paragraphs), and they are packed into
    chunks of even size. ``overlap_level`` gives the starts that overlap may take inside
    the last piece of a chunk when no whole piece fits; by default the coarsest of
    ``levels`` that splits that piece. ``overlap_boundaries``, where given, replace both:
    the kinds of start overlap may take, best first (sentences, clauses, words), each
    looked for anywhere after the previous chunk's start. ``punctuation``: cuts follow
    the line-breaking rules for punctuation (UAX #14: no chunk starts with closing or
    ends with opening punctuation), and a title goes with the paragraph after it
    (:func:`~spansplit.boundaries.paragraphs.looks_like_title`); off for source code, where a
    line may end with ``{`` and the next start with ``}``. ``overlap_fences`` (ascending
    offsets) are never crossed by overlap: a chunk's overlap starts at or after the last of
    them at or before its new text, so a chunk that starts at one repeats nothing before it
    (a Markdown section's heading). No overlap starts inside one of ``overlap_blocks`` (spans,
    ascending and apart) that ends where the chunk before ends or earlier: a fenced code
    block's last lines, then its closing fence, would open the chunk. ``chunk_starts`` (ascending
    offsets) start a chunk wherever a piece of the top level starts at one: no chunk holds
    text from both sides of one (a Markdown heading, where sections are not merged). With
    ``heading_lines``, a piece that is a Markdown heading line goes with the text after it
    (see :func:`~spansplit.boundaries.paragraphs.looks_like_heading`); off where the
    structure places headings itself (Markdown) or the text is code. ``lead_pieces`` tells
    the pieces that the structure knows go with the piece after them (comments above
    code), in packing as heading lines do, but not where that would leave a runt
    (:meth:`~.merge._Packer._before_leading`). ``code``: the text is
    source code, so a trimmed chunk that starts after a line's indentation keeps it
    whatever the lines around it (see :func:`with_code_indentation`).
    """

    levels: tuple[Level, ...]
    isolate: bool = False
    overlap_level: Level | None = None
    overlap_boundaries: tuple[StartsLevel, ...] = ()
    punctuation: bool = True
    overlap_fences: Sequence[int] = ()
    overlap_blocks: Sequence[Span] = ()
    chunk_starts: Sequence[int] = ()
    heading_lines: bool = True
    lead_pieces: LeadTest | None = None
    code: bool = False

    @property
    def slides(self) -> bool:
        """Whether the one level cuts anywhere (the empty separator alone): its overlap is a
        window sliding over the text (see :func:`~.pieces.fit`)."""
        return len(self.levels) == 1 and cut_anywhere(self.levels[0]) is False

    @property
    def overlap_starts(self) -> Level:
        """:attr:`overlap_level`, or its default."""
        return self.overlap_level or FirstSplit(self.levels)


def pack(
    text: str,
    structure: Structure,
    config: ChunkConfig,
    *,
    region: Span | None = None,
    measurer: TextMeasurer | None = None,
    lead: int | None = None,
) -> list[SizedSpan]:
    """``(start, end, size)`` of the chunks of ``text`` (already validated), in order;
    with ``region``, of ``text[start:end]`` only (offsets stay those of ``text``).
    ``measurer`` is one the caller already measures ``text`` with (a token index made
    once serves its levels and packing alike). ``lead`` is where the piece before the
    first ends, where ``text`` is a part of a longer text packed a part at a time (a
    negative offset: before ``text``, for a :class:`~spansplit.sizing.base.PartMeasurer`):
    the first piece is measured from there, with the gap before it, as in the whole text."""
    if region is None:
        # Trimmed chunks leave out a byte order mark that starts the text, as whitespace:
        # it marks the encoding, it is nothing a reader sees (Dart's and JavaScript's trim
        # drop it too), and it counts against no budget.
        bom = config.strip_whitespace and text.startswith(BYTE_ORDER_MARK)
        start, end = int(bom), len(text)
    else:
        start, end = region
    if start >= end:
        return []
    if config.strip_whitespace and trim_span(text, start, end)[0] == end:
        return []  # blank: trimming leaves nothing (no level is asked for its lines)
    reach = None
    if config.chunk_overlap and structure.overlap_boundaries:
        measurer = measurer or config.length.measurer(text)  # (one, shared with packing)
        reach = _overlap_reach(text, structure, config, measurer)
    try:
        chunks = _chunks(text, structure, config, start, end, region, measurer, lead)
        check_budget(chunks, config)
        chunks = without_repeated(
            text,
            chunks,
            config.chunk_overlap,
            config.chunk_size,
            config.length,
            reach,
            config.strip_whitespace,
        )
        chunks = with_runts_joined(text, chunks, structure, config, measurer)
        if not config.strip_whitespace:
            return chunks
        return with_code_indentation(text, chunks, config, start, end, structure.code)
    finally:
        forget_sentence_starts()  # overlap read the text's sentences once: let them go


def with_code_indentation(
    text: str, chunks: list[SizedSpan], config: ChunkConfig, low: int, high: int, code: bool
) -> list[SizedSpan]:
    """Trimmed ``chunks`` (of ``text[low:high]``, changed in place) of which each that
    starts on an indented line of code starts at the line's start instead, where the
    chunk stays within the budget and its overlap within ``chunk_overlap``: any indented
    line where the text is ``code``, else as
    :func:`~spansplit.boundaries.paragraphs.code_indentation_start` finds (the fenced code
    blocks read from ``text[low:high]`` once some chunk starts after an indentation)."""
    fences: SpanArray | None = None
    count = config.length.count
    for index, (start, end, _) in enumerate(chunks):
        if start <= low or text[start - 1] not in " \t":
            continue
        if code:
            line = indentation_start(text, start, low)
        else:
            if fences is None:  # (a region's own fences: a section does not start in one)
                fences = fenced_blocks(text, low, high)
            at = bisect_right(fences, (start,)) - 1
            fenced = at >= 0 and fences[at][1] > start and _after_line(text, fences[at][0], start)
            line = code_indentation_start(text, start, end, fenced)
        before = chunks[index - 1] if index else None
        if line == start or line < low or (before is not None and before[0] >= line):
            continue
        size = count(text[line:end])
        if size <= config.chunk_size and (
            before is None
            or before[1] <= line
            or count(text[line : before[1]]) <= config.chunk_overlap
        ):
            chunks[index] = (line, end, size)
    return chunks


def _after_line(text: str, line_start: int, position: int) -> bool:
    """Whether ``position`` lies after the end of the line that starts at ``line_start``."""
    return LINE_ENDING.search(text, line_start, position) is not None


def _chunks(
    text: str,
    structure: Structure,
    config: ChunkConfig,
    start: int,
    end: int,
    region: Span | None,
    measurer: TextMeasurer | None,
    lead: int | None = None,
) -> list[SizedSpan]:
    """:func:`pack`'s chunks of ``text[start:end]`` before they are checked: scanned where
    the scan applies, else by the general path, a window at a time where it can be."""
    chunks = _scan(text, structure, config, start) if region is None else None
    if chunks is None:

        def whole(top: list[Span] | None, rest: Sequence[Level]) -> list[SizedSpan]:
            one_piece = False
            if top is None:
                top, rest, one_piece = _top_level(text, structure.levels, start, end)
                one_piece = one_piece and _one_line(text, start, end)
            return _general(
                text,
                top,
                rest,
                structure,
                config,
                measurer=measurer,
                one_piece=one_piece,
                lead=lead,
            )

        if end - start > 2 * windows.WINDOW_CHARS and not _one_line(text, start, end):
            measurer = measurer or config.length.measurer(text)  # windows and whole share it
            chunks = windows.pack_windows(text, structure, config, start, end, measurer, whole)
        else:
            chunks = whole(None, ())
    return chunks


BYTE_ORDER_MARK = "\ufeff"


_BLANK_LINE = re.compile(r"(?:\r\n|\r(?!\n)|\n)[^\S\r\n]*(?:\r\n|\r|\n)")
"""A line ending, blank space and another: a blank line between two chunks (a CRLF pair is
one line ending, never a CR and an LF, as in
:func:`~spansplit.boundaries.separators.line_endings`)."""


class Reach(Protocol):
    """The chunk ``after`` with an overlap reaching back into ``before``, where one fits;
    ``None`` where none does (see :func:`_overlap_reach`). With ``sentence``, from a
    sentence start only, and none where ``after`` starts a sentence already."""

    def __call__(
        self, before: SizedSpan, after: SizedSpan, *, sentence: bool = False
    ) -> SizedSpan | None: ...


def without_repeated(
    text: str,
    chunks: list[SizedSpan],
    overlap: int,
    budget: int,
    length: LengthFunction = CODE_POINTS,
    reach: Reach | None = None,
    strip_whitespace: bool = True,
) -> list[SizedSpan]:
    """``chunks`` less every one no larger than half the ``budget`` whose text the chunks
    either side of it hold between them (whitespace aside) and whose own new text (after
    the previous chunk) is no larger than ``overlap``: such a chunk is the previous
    chunk's tail and a short run that the next chunk repeats as its overlap, as a chapter
    title alone between two paragraphs that had to be split. A runt that adds nothing.
    Where its neighbours would then share punctuation alone (a thematic break ``---``, a
    closing fence), the next chunk starts after it instead, where the one before ends (no
    overlap at all is better than one that repeats nothing a reader needs; with
    ``strip_whitespace``, trimmed). Where its neighbours would only meet inside a
    paragraph, ``reach`` gives the next chunk an overlap from the one before, where one
    fits, so that they share text as overlapping chunks do (a chunk that starts a
    paragraph, a chapter's title, starts there); where the next chunk's overlap had to start
    after the start of the chunk that goes, and inside a sentence, ``reach`` gives it one
    from a sentence start instead where one fits (the sentence that chunk started, not a
    word into it). The chunk before is the last one kept, so
    a run of such chunks goes as far as the chunks kept either side of it still meet. A
    chunk whose new text ends with a heading line and lies in the next chunk goes whatever
    its size: it would end with that heading (and overlap across a heading repeats text of
    another section)."""
    if any(after[1] <= before[1] for before, after in pairwise(chunks)):
        # A chunk that ends inside the one before (from a length that is not monotonic:
        # its overlap measured smaller than a shorter one) holds nothing the other lacks.
        ends = accumulate((end for _, end, _ in chunks), max)
        chunks = [chunks[0], *(c for c, most in zip(chunks[1:], ends) if c[1] > most)]
    if min(overlap, budget // 2) <= 0 or len(chunks) < 3:
        return chunks
    chunks = list(chunks)  # (a next chunk may be given an overlap)
    kept = [chunks[0]]
    for index in range(1, len(chunks) - 1):
        chunk, before = chunks[index], kept[-1]
        after = chunks[index + 1]
        following = after[0]
        if following <= chunk[0]:
            # A chunk started after punctuation alone (below) that the next one holds
            # whole: it goes, and the next one starts there too if it started before.
            if following < chunk[0]:
                chunks[index + 1] = _restarted(text, chunk[0], after, length, budget)
            continue
        if (following <= before[1] or text[before[1] : following].isspace()) and (
            adds_too_little(
                chunk[2], partial(_size_after, text, before[1], chunk[1], length), budget, overlap
            )
            or ends_with_heading(text, before[1], chunk[1])
        ):
            if following < before[1] and not holds_content(text, following, before[1]):
                # What its neighbours would share is no overlap: the next starts after it.
                low = before[1]
                if strip_whitespace:
                    low = trim_span(text, low, after[1])[0]
                restarted = _restarted(text, low, after, length, budget)
                if restarted is not after:
                    chunks[index + 1] = restarted
                    continue
                kept.append(chunk)
                continue
            starts_paragraph = _BLANK_LINE.search(text, before[1], following) is not None
            if reach is not None and following >= before[1] and not starts_paragraph:
                chunks[index + 1] = reach(before, after) or after
            elif reach is not None and before[0] < chunk[0] < following < before[1]:
                # The next one's overlap had to start after this one's start (a word into
                # the sentence this one starts): chosen again from the chunk before, it may
                # start earlier, where that fits.
                found = reach(before, after, sentence=True)
                if found is not None and found[0] < following:
                    chunks[index + 1] = found
            continue
        kept.append(chunk)
    kept.append(chunks[-1])
    return kept


def with_runts_joined(
    text: str,
    chunks: list[SizedSpan],
    structure: Structure,
    config: ChunkConfig,
    measurer: TextMeasurer | None = None,
) -> list[SizedSpan]:
    """``chunks`` where each runt (under :data:`~.merge.RUNT_SHARE` of the budget: a short
    list item beside one that fills a chunk, a link definition after a list that had to be
    split) and a chunk beside it fit in the budget together is one chunk with it: the one
    before it where they fit, else the one after. Not across a start that the structure
    asks for (``chunk_starts``), nor into the chunk after it where that one starts with a
    heading (the end of one section never goes with another's text; a short section may
    join the chunk before it, as packing joins sections that fit together), nor where the
    chunk would end with a line that goes with the text after it (a heading, a lead-in or a
    title, a comment above code)."""
    budget = config.chunk_size
    if len(chunks) < 2 or all(RUNT_SHARE * size >= budget for _, _, size in chunks):
        return chunks
    count = measurer.count if measurer else lambda start, end: config.length.count(text[start:end])
    starts = structure.chunk_starts
    joined = [chunks[0]]
    for chunk in chunks[1:]:
        before = joined[-1]
        if RUNT_SHARE * min(before[2], chunk[2]) < budget and not ends_with_lead(
            text, chunk[0], chunk[1], titles=structure.punctuation, leads=structure.lead_pieces
        ):
            following_start = bisect_right(starts, before[0])
            apart = following_start < len(starts) and starts[following_start] <= chunk[0]
            if RUNT_SHARE * chunk[2] >= budget:  # (a runt before it: does a section start?)
                apart = apart or starts_with_heading(text, chunk[0], chunk[1])
            size = budget + 1 if apart else count(before[0], chunk[1])
            if size <= budget:
                joined[-1] = (before[0], chunk[1], size)
                continue
        joined.append(chunk)
    return joined


def _restarted(
    text: str, start: int, chunk: SizedSpan, length: LengthFunction, budget: int
) -> SizedSpan:
    """``chunk`` started at ``start`` instead (inside it, at its text), measured again;
    ``chunk`` itself where nothing would be left or a tokenizer counts more than the
    budget in what is left (a suffix may take other tokens)."""
    if start >= chunk[1]:
        return chunk
    size = length.count(text[start : chunk[1]])
    return (start, chunk[1], size) if size <= budget else chunk


def _overlap_reach(
    text: str, structure: Structure, config: ChunkConfig, measurer: TextMeasurer
) -> Reach:
    """:func:`without_repeated`'s ``reach``: the earliest start of the best kind (sentences,
    clauses, words; sentences only where ``after`` starts one) in ``before``, after its first
    character and the last overlap fence, whose text fits the overlap and, with ``after``,
    the budget, as packing chooses overlap."""
    search = OverlapSearch(
        text,
        measurer,
        structure.overlap_starts,
        structure.overlap_boundaries,
        structure.punctuation,
        trim=config.strip_whitespace,
        blocks=structure.overlap_blocks,
    )
    fences = structure.overlap_fences

    def reach(before: SizedSpan, after: SizedSpan, *, sentence: bool = False) -> SizedSpan | None:
        floor = before[0]
        fence = bisect_right(fences, after[0]) - 1
        if fence >= 0:
            floor = max(floor, fences[fence] - 1)
        room = min(config.chunk_overlap, config.chunk_size - after[2])
        if room <= 0 or floor + 1 >= before[1]:
            return None
        # A chunk that starts a sentence takes a sentence as overlap or none (it reads well
        # as it is); one that starts inside a sentence, a clause or words as well.
        starts_sentence = bool(search.sentence_starts(after[0], after[0] + 1))
        if sentence and starts_sentence:
            return None
        find = search.at_sentence if starts_sentence or sentence else search.ranked
        start, _ = find(floor, before[1], room)
        if start is None or not holds_content(text, start, before[1]):
            return None
        low, high = (
            trim_span(text, start, after[1]) if config.strip_whitespace else (start, after[1])
        )
        size = measurer.count(low, high)
        return (low, high, size) if size <= config.chunk_size else None

    return reach


def _size_after(text: str, start: int, end: int, length: LengthFunction) -> int:
    """Size of ``text[start:end]`` trimmed (0 where nothing is left)."""
    start, end = trim_span(text, start, end)
    return length.count(text[start:end]) if end > start else 0


def _top_level(
    text: str, levels: Sequence[Level], start: int, end: int
) -> tuple[list[Span], Sequence[Level], bool]:
    """The pieces of the region at the coarsest level that splits it, the levels after
    that one (a recursive level stays), and whether a coarser level found the region one
    piece (a text that is one paragraph: its pieces are those of a piece that had to be
    split); the region rarely fits, so it is not measured."""
    for index, level in enumerate(levels):
        if cut_anywhere(level) is not None:
            return [(start, end)], levels[index:], False  # cut where the budget says
        occurs = getattr(level, "occurs", None)
        if occurs is not None and not occurs(text, start, end):
            continue
        parts = level(text, start, end)
        if splits(parts, start, end):
            return parts, levels[index if is_recursive(level) else index + 1 :], index > 0
    return [(start, end)], (), False


def _general(
    text: str,
    top: list[Span],
    levels: Sequence[Level],
    structure: Structure,
    config: ChunkConfig,
    *,
    overlap: bool = True,
    measurer: TextMeasurer | None = None,
    one_piece: bool = False,
    lead: int | None = None,
) -> list[SizedSpan]:
    """The general path: :func:`fit` then :func:`merge`. With ``one_piece`` (and
    ``isolate``), ``top`` are the pieces of one piece that had to be split, packed evenly;
    ``lead`` as :func:`pack` has it."""
    budget, length, trim = config.chunk_size, config.length, config.strip_whitespace
    pieces = fit(
        text,
        top,
        budget,
        length,
        levels,
        breaks=starting_at(top, structure.chunk_starts),
        isolate=structure.isolate,
        trim=trim,
        punctuation=structure.punctuation,
        headings=structure.heading_lines,
        measurer=measurer,
        lead=lead,
        top_lead=lead,
        overlap=config.chunk_overlap if overlap and structure.slides else 0,
    )
    if one_piece and structure.isolate:
        pieces.balanced.append((0, len(pieces.spans)))
    whole = _whole_if_it_fits(text, pieces, budget, length)
    if whole is not None:
        return whole
    return merge(
        text,
        pieces,
        budget,
        length,
        overlap=config.chunk_overlap if overlap else 0,
        overlap_level=structure.overlap_starts,
        overlap_boundaries=structure.overlap_boundaries,
        overlap_fences=structure.overlap_fences,
        overlap_blocks=structure.overlap_blocks,
        punctuation=structure.punctuation,
        headings=structure.heading_lines,
        lead_test=structure.lead_pieces,
        trim=trim,
    )


EXCESS_PER_CUT = 3
"""How many tokens a cut may add to a text's count, as far as a region is then measured
whole (see :func:`_whole_if_it_fits`): a token merged across it counted twice, the
word-start marker that a SentencePiece-style tokenizer (Metaspace ``▁``) puts before a part
counted alone, and the one it gives the whitespace at the cut (a line break); a quarter of
the budget is allowed in any case."""


def _whole_if_it_fits(
    text: str, pieces: Pieces, budget: int, length: LengthFunction
) -> list[SizedSpan] | None:
    """All ``pieces`` as one chunk where they fit together although their sizes summed say
    otherwise: a length that does not add up (tokens merge across a cut) can sum a region
    that fits over the budget, and packing would then cut it. Measured only where the sum
    is within :data:`EXCESS_PER_CUT` units a cut, or a quarter, of the budget; ``None``
    where the pieces do not fit as one."""
    spans = pieces.spans
    if length.additive or len(spans) < 2 or len(pieces.breaks - {0}) > 0:
        return None
    excess = max(EXCESS_PER_CUT * (len(spans) - 1), budget // 4)
    if pieces.sizes[0] + sum(pieces.joined[1:]) > budget + excess:
        return None
    start, end = spans[0][0], spans[-1][1]
    size = (pieces.measurer or length.measurer(text)).count(start, end)
    return [(start, end, size)] if size <= budget else None


def _scan(
    text: str, structure: Structure, config: ChunkConfig, start: int = 0
) -> list[SizedSpan] | None:
    """The chunks read off the text by :class:`RecursiveScan` where it applies, else ``None``.
    It does not apply where overlap is to start at sentences (the general path then moves
    chunk ends so that it can, see ``merge``), nor at words inside a piece of separators
    that do not cut at words (see ``cuts_at_words``)."""
    levels = structure.levels
    if config.chunk_overlap and (
        sentence_kinds(structure.overlap_boundaries) or not cuts_at_words(levels)
    ):
        return None
    separators = scan_separators(levels, structure.isolate, config, text)
    first = next(
        (
            index
            for index, level in enumerate(levels[: len(separators)])
            if isinstance(level, SeparatorLevel) and level.occurs(text, start, len(text))
        ),
        None,
    )
    if first is None or _one_part(levels[first], text, start):
        return None

    def split_pieces(spans: list[Span], level: int) -> list[SizedSpan]:
        # A piece too big for the scan's level ``level`` (and the runt before it), alone
        # (no overlap: its chunks never cross its edges).
        after = levels[first + level + 1 :]
        return _general(text, spans, after, structure, config, overlap=False)

    search = OverlapSearch(
        text,
        config.length.measurer(text),
        structure.overlap_starts,
        structure.overlap_boundaries,
        structure.punctuation,
        trim=config.strip_whitespace,
        blocks=structure.overlap_blocks,
    )
    scan = RecursiveScan(
        text,
        separators[first:],
        config.chunk_size,
        config.chunk_overlap,
        search,
        split_pieces,
        literal_levels(levels),
        start,
        one_piece=first > 0 and _one_line(text, start, len(text)),
        headings=structure.heading_lines,
    )
    return scan.spans()


def _one_line(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is one line (blank lines around it aside: a text that
    starts with a line ending), short enough to be packed in one go: a paragraph given
    alone, which a coarser level finds whole, is then cut into even chunks as a paragraph
    of a longer text is (no runt at its end). Text of several lines is packed line by
    line, as LangChain packs it."""
    if end - start > windows.ONE_LINE_CHARS:
        return False
    start, end = trim_span(text, start, end)
    return LINE_ENDING.search(text, start, end) is None


def _one_part(level: Level, text: str, start: int = 0) -> bool:
    """Whether a separator level that occurs in ``text[start:]`` still leaves it one part: kept
    with the piece before it at the very end, or with the one after it at the very start,
    and nowhere else. The general path then splits the text at the next level as its top
    level (its runs are not evened out), which the scan does not follow: it hands over."""
    if not isinstance(level, SeparatorLevel) or level.keep is False or level.literal is None:
        return False
    literal = level.literal
    if is_line_feeds(literal) and "\r" in text:  # (it matches CRLF and lone CR too)
        found = line_endings(len(literal)).finditer(text, start)
        first = next(found, None)
        if first is None or next(found, None) is not None:
            return False
        return first.start() == start if level.keep == "start" else first.end() == len(text)
    at_edge = text.startswith(literal, start) if level.keep == "start" else text.endswith(literal)
    return at_edge and text.count(literal, start) == 1


def check_budget(chunks: Sequence[SizedSpan], config: ChunkConfig) -> None:
    """Raise :class:`InconsistentLengthError` if a chunk measured over the budget: only a
    length function whose sizes contradict each other can get a chunk past the cuts."""
    budget = config.chunk_size
    for start, end, size in chunks:
        if size > budget:
            raise InconsistentLengthError(config.length, start, end, size, budget)


__all__ = [
    "Structure",
    "Tiles",
    "check_budget",
    "hard_cut",
    "pack",
    "tile",
    "tile_batches",
    "without_repeated",
]
