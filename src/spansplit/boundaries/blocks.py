"""Paging-block structure (seed 000): where Markdown, read as a reader reads it, starts a block.

The text is cut into *segments*, each starting where a block must start: at an ATX or
setext heading (a setext heading starts at the first line of its text), a thematic break,
a code fence opening, the first line after a closing fence, and the first non-blank line
after blank lines. A segment is content lines followed by the blank lines that end it.
How segments are packed into blocks of a target size is the splitter's business.

Markdown is recognised as CommonMark reads it, for the constructs that matter here:

* ATX heading: 0-3 spaces, 1-6 ``#``, then a space, a tab or the line end.
* Setext heading: paragraph text followed by a line of ``=`` or ``-`` (0-3 spaces of
  indent, trailing spaces allowed). A ``---`` under paragraph text is an underline, not a
  rule; a ``---`` after a blank line, a heading, a fence or a list item is a rule. The
  paragraph must not be the lazy continuation of a list item or block quote line, and
  leading lines indented 4+ columns are indented code, not heading text. A list item
  interrupts a paragraph only if it has content and, when ordered, is numbered 1.
* Thematic break: 0-3 spaces, then 3 or more of the same ``*``, ``-`` or ``_``, with
  spaces or tabs allowed between them.
* Fenced code: 0-3 spaces, 3 or more backticks (no backtick in the info string) or
  tildes; it closes at a line of 0-3 spaces and at least as many of the same character,
  and runs to the end of the text if it never closes. Nothing inside is a heading, a rule
  or a blank line that ends a block.
* A byte order mark at the start of the text is ignored when reading its first line.

List items, block quotes, HTML blocks and indented code are not parsed beyond that:
their lines are read one by one like other lines (a fence indented 4+ spaces in a list
item or prefixed by ``>`` is text, and a ``# x`` line inside an HTML comment starts a
block).

Everything is found by offsets, in one regex pass over the whole text whose pattern
starts with a literal LF (the engine skips from LF to LF at C speed) and stops only
where a line starts with a blank, an indent or a structure character: the lines that may
be blank or structure. Python work is done only for those lines (prose lines start with
none of these); segments are kept as arrays of offsets (8 bytes each) and a list of
kinds, and no object is kept per line or per segment.
"""

from __future__ import annotations

import re
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, pairwise
from typing import overload

from ..chunk import before_whitespace
from ..lines import LineWalker, SpanArray, has_lone_cr, offset_typecode, put_sorted
from .paragraphs import BLANK_CHARACTERS, leading_blanks_end

HEADING = "heading"
RULE = "rule"
CODE = "code"
TEXT = "text"
_KIND_NAMES = (TEXT, HEADING, RULE, CODE)
_KIND_CODES = {kind: code for code, kind in enumerate(_KIND_NAMES)}


class SegmentKinds(Sequence[str]):
    """The kind of each segment, a byte each (a list took 8: 2.7 times the text for a
    megabyte of one-letter paragraphs). A slice is a list of the kinds."""

    __slots__ = ("_codes",)

    def __init__(self, kinds: Iterable[str]) -> None:
        self._codes = bytearray(map(_KIND_CODES.__getitem__, kinds))

    @classmethod
    def of_codes(cls, codes: bytearray) -> SegmentKinds:
        """The kinds whose codes (indices into ``_KIND_NAMES``) are ``codes``."""
        kinds = cls(())
        kinds._codes = codes
        return kinds

    def __len__(self) -> int:
        return len(self._codes)

    def __iter__(self) -> Iterator[str]:
        return map(_KIND_NAMES.__getitem__, self._codes)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return list(map(_KIND_NAMES.__getitem__, self._codes[index]))
        return _KIND_NAMES[self._codes[index]]


class _StartKinds:
    """The lines that start a block other than text, ascending, with the kind of each (a
    byte each: a dict of them took 25 times the text for a megabyte of headings)."""

    __slots__ = ("codes", "positions")

    def __init__(self, typecode: str) -> None:
        self.positions = array(typecode)
        self.codes = bytearray()

    def __setitem__(self, position: int, kind: str) -> None:
        """Record (or change) the kind of the block the line at ``position`` starts; lines
        come in order but for a setext heading's first line, found at its underline."""
        put_sorted(self.positions, self.codes, position, _KIND_CODES[kind])

    def kinds_of(self, lines: Sequence[int]) -> SegmentKinds:
        """The kind of the block each of ``lines`` (ascending) starts: text where none."""
        codes = bytearray(len(lines))  # (text's code is 0)
        at = 0
        for position, code in zip(self.positions, self.codes):
            at = bisect_left(lines, position, at)
            if at < len(lines) and lines[at] == position:
                codes[at] = code
        return SegmentKinds.of_codes(codes)


# A line that may be structure starts with 0-3 spaces, then the start of one of the
# constructs above, of a list item or of a block quote: that character says which
# constructs to try.
_STRUCTURE_CHARACTERS = "#*\\-_=`~>+0-9"
# The one pass over the text finds the lines that start with a blank, an indent or a
# structure character (the first line is tried alone). The pattern looks ahead, so a
# match ends where its line starts and leaves the next line ending to the next match. In
# a text with no lone CR it starts with a literal LF (the engine skips from LF to LF at
# C speed); most lines start with none of these characters and are never seen.
_LINE_CHARACTERS = rf"(?=[ \t\r\n{_STRUCTURE_CHARACTERS}])"
_LINE = re.compile(_LINE_CHARACTERS)
_LINE_AFTER_LF = re.compile(r"\n" + _LINE_CHARACTERS)
_LINE_AFTER_ANY = re.compile(r"(?:\r\n|\r(?!\n)|\n)" + _LINE_CHARACTERS)
_BLANK_LINE = re.compile(r"[ \t]*(?:\r\n|\r(?!\n)|\n|\Z)")
_INDENTED_CANDIDATE = re.compile(rf" {{1,3}}([{_STRUCTURE_CHARACTERS}])")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_FENCE_CLOSE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*[\r\n]*\Z")
_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t\r\n]|\Z)")
_SETEXT_UNDERLINE = re.compile(r" {0,3}(?:=+|-+)[ \t]*[\r\n]*\Z")
_RULE_LINES = {
    char: re.compile(rf" {{0,3}}{re.escape(char)}[ \t{re.escape(char)}]*[\r\n]*\Z")
    for char in "*-_"
}
"""A thematic break's line by its character, once it holds three of it (see :func:`_is_rule`)."""
_CONTAINER = re.compile(
    r" {0,3}(?:(?P<quote>>)|(?:[-+*]|(?P<number>[0-9]{1,9})[.)])(?:[ \t\r\n]|\Z))"
)

Segment = tuple[int, int, int, str, int]
"""``(start, content_end, end, kind, lead_end)``: offsets of one segment.

``[start, content_end)`` is content, ``[content_end, end)`` the blank lines that end it.
``kind`` is the kind of the block that starts at ``start``; a later block of the segment
that starts before ``lead_end`` has that kind too (the rest of a long fence is code, the
rest of a long setext heading is heading); any other is text.
"""


@dataclass(frozen=True, slots=True)
class BlockLayout:
    """The lines of a text, its segments and the starts of its setext underlines.

    Segments are kept as parallel sequences (``firsts``, ``kinds``): most of them become one
    block whole, which needs no more. Where one must be cut, :meth:`segment` gives its
    blank lines and lead. A setext underline should not start a block (it would read as
    a rule), so a block that cannot hold it breaks one line earlier when it can.
    """

    lines: LineWalker
    firsts: array[int]
    """Start of each segment, in order; each segment ends where the next one starts."""
    kinds: SegmentKinds
    """Kind of the block that starts each segment."""
    run_starts: array[int]
    """Start of each run of blank lines (outside fences), in order."""
    run_ends: array[int]
    """End of each of those runs: each but one at the end of the text starts a segment."""
    lead_ends: SpanArray
    """Each fence or setext heading, from its start to where it ends."""
    underlines: frozenset[int]

    def blank_start(self, end: int) -> int:
        """Where the run of blank lines that ends at ``end`` starts (``end`` if none does)."""
        index = bisect_left(self.run_ends, end)
        found = index < len(self.run_ends) and self.run_ends[index] == end
        return self.run_starts[index] if found else end

    def segment(self, first: int, end: int, kind: str, blank: int | None = None) -> Segment:
        """The segment of ``kind`` from ``first`` to ``end``; ``blank``: where the blank
        lines that end it start, if known (else looked up)."""
        content_end = max(first, self.blank_start(end) if blank is None else blank)
        return first, content_end, end, kind, self.lead_ends.span_end(first, first + 1)

    def segments(self) -> Iterator[Segment]:
        """Every segment, in order (one at a time: a megabyte of one-letter paragraphs
        has 333,000), the runs of blank lines walked alongside."""
        firsts, run_starts, run_ends = self.firsts, self.run_starts, self.run_ends
        size, runs = self.lines.size, len(self.run_ends)
        run = 0  # the first run that does not end before the segment's end
        for index, first in enumerate(firsts):
            end = firsts[index + 1] if index + 1 < len(firsts) else size
            while run < runs and run_ends[run] < end:
                run += 1
            blank = run_starts[run] if run < runs and run_ends[run] == end else end
            yield self.segment(first, end, self.kinds[index], blank)


def block_layout(text: str) -> BlockLayout:
    """Segments of ``text`` (see the module docstring)."""
    lines = LineWalker(text)
    found = _Structure(text, lines)
    size = len(text)
    run_starts, run_ends = found.run_starts, found.run_ends
    # The first line after a fence, unless blank lines come first, and the first content,
    # with the lines that start a block and the first line after blank lines: the runs'
    # ends, merged in (a set of them all took 50 bytes a run)
    first_content = run_ends[0] if run_starts and run_starts[0] == 0 else 0
    others = _merged(_without(found.fence_ends, run_starts), (first_content,), size)
    structure = _merged(found.starts.positions, others, size)
    firsts = array(offset_typecode(text), _merged(run_ends, structure, size))
    kinds = found.starts.kinds_of(firsts)
    return BlockLayout(
        lines, firsts, kinds, run_starts, run_ends, found.lead_ends, frozenset(found.underlines)
    )


def fenced_blocks(text: str, start: int = 0, end: int | None = None) -> SpanArray:
    """The spans of the fenced code blocks of ``text[start:end]`` read alone (``start``
    and ``end`` within the text; the spans are offsets into ``text``), from the opening
    fence's line to the closing fence (an unclosed fence runs to the end), in order,
    without the line ending or blank lines after them: the fences :func:`block_layout`
    finds, found from the fence lines alone (a tenth of the time) unless a lone CR ends
    some line."""
    stop = len(text) if end is None else end
    blocks = SpanArray(text)
    if text.find("```", start, stop) < 0 and text.find("~~~", start, stop) < 0:
        return blocks
    if has_lone_cr(text, start, stop):
        for opened, closed in fences_by_lines(text[start:stop]):
            blocks.put(start + opened, start + closed)
        return blocks
    opened, char, length = -1, "", 0
    first = _FIRST_FENCE_LINE.match(text, start, stop)
    for line in chain([first] if first else [], _FENCE_LINE.finditer(text, start, stop)):
        fence, rest = line[1], text[line.end(1) : line.end()]
        if opened >= 0:
            if fence[0] == char and len(fence) >= length and not rest.strip():
                blocks.put(opened, before_whitespace(text, opened, line.end()))
                opened = -1
        elif not (fence[0] == "`" and "`" in rest):
            opened, char, length = line.start() + (line is not first), fence[0], len(fence)
    if opened >= 0:
        blocks.put(opened, before_whitespace(text, opened, stop))
    return blocks


def fences_by_lines(text: str) -> list[tuple[int, int]]:
    """:func:`fenced_blocks` as the line-by-line pass of :func:`block_layout` finds them."""
    found = _Structure(text, LineWalker(text))
    fence_ends = set(found.fence_ends)
    return sorted(
        (start, before_whitespace(text, start, end))
        for start, end in found.lead_ends
        if end in fence_ends
    )


_FENCE_LINE = re.compile("\n {0,3}(`{3,}|~{3,})[^\n]*")
"""A line that may open or close a fence (:data:`_FENCE`), with the line feed before it
(a literal first: searched at C speed)."""
_FIRST_FENCE_LINE = re.compile("\ufeff? {0,3}(`{3,}|~{3,})[^\n]*")
""":data:`_FENCE_LINE` as the text's first line, after its byte order mark if any."""


def _without(values: Iterable[int], removed: Sequence[int]) -> Iterator[int]:
    """``values`` (ascending) but those in ``removed`` (ascending)."""
    at = 0
    for value in values:
        at = bisect_left(removed, value, at)
        if at == len(removed) or removed[at] != value:
            yield value


def _merged(one: Iterable[int], other: Iterable[int], stop: int) -> Iterator[int]:
    """The values of two ascending sequences that are below ``stop``, ascending, once each."""
    later = iter(other)
    pending = next(later, None)
    last = -1
    for value in one:
        while pending is not None and pending <= value:
            if pending != last and pending < stop:
                yield pending
                last = pending
            pending = next(later, None)
        if value != last and value < stop:
            yield value
            last = value
    while pending is not None:
        if pending != last and pending < stop:
            yield pending
            last = pending
        pending = next(later, None)


class _Structure:
    """One pass over the lines that may be blank or structure, in order: runs of blank
    lines, fences, headings, rules, underlines.

    Positions are offsets of line starts (``_end`` suffixes: offsets just past a line).
    The pass keeps its state in local variables (it runs once per line it sees); the
    rarer list item, block quote and setext cases get it as arguments.
    """

    def __init__(self, text: str, lines: LineWalker) -> None:
        self.text = text
        self.lines = lines
        # A byte order mark is not part of what a reader sees: "\ufeff# Title" is a heading.
        self.bom = 1 if text[:1] == "\ufeff" else 0
        self.starts = _StartKinds(offset_typecode(text))  # line -> kind of its block
        self.lead_ends = SpanArray(text)  # a fence or setext heading, to where it ends
        self.fence_ends = array(offset_typecode(text))
        self.underlines: list[int] = []
        # Runs of blank lines outside fences (blank lines inside a fence are code).
        self.run_starts = array(offset_typecode(text))
        self.run_ends = array(offset_typecode(text))
        self.indent_memo = (-1, -1)  # (run start, paragraph start)
        self._read()

    def _lines(self) -> Iterator[re.Match[str]]:
        """Matches that end where a line that may be blank or structure starts, in order
        (on the first line, after its BOM). Leading blank lines are recorded as a run."""
        text, bom = self.text, self.bom
        first = leading_blanks_end(text, bom)
        pattern = _LINE_AFTER_ANY if self.lines.lone_cr else _LINE_AFTER_LF
        if first > bom:  # from the line ending before the first content line
            self.run_starts.append(0)
            self.run_ends.append(first)
            return pattern.finditer(text, first - 1)
        first_line = _LINE.match(text, bom)
        later = pattern.finditer(text, bom)
        return chain((first_line,), later) if first_line else later

    def _read(self) -> None:
        # Each line is matched in place (``pos``/``endpos``: no copy of the line); on the
        # first line, ``pos`` skips a BOM.
        starts, lead_ends, run_starts, run_ends = (
            self.starts,
            self.lead_ends,
            self.run_starts,
            self.run_ends,
        )
        text, bom, lines = self.text, self.bom, self.lines
        lone_cr, size, find = lines.lone_cr, lines.size, text.find
        # Where the last line that ends paragraph text by what it is (a heading, a rule, a
        # fence, a list item or block quote line) ends, and whether it was a list item or
        # block quote line (whose paragraph may continue lazily).
        structure_end = -1
        after_container = False
        fence_start, fence_char, fence_length = -1, "", 0
        for match in self._lines():
            pos = match.end()  # where the line starts (after a BOM on the first line)
            char = text[pos]
            if char in " \t\r\n":
                if char == "\n":
                    blank_end = pos + 1
                elif char == "\r" and not lone_cr:
                    blank_end = pos + 2  # a CRLF
                else:
                    blank = _BLANK_LINE.match(text, pos)
                    blank_end = blank.end() if blank else -1
                if blank_end >= 0:
                    if fence_start >= 0:
                        continue  # blank lines inside a fence are code
                    if run_ends and run_ends[-1] == pos:
                        run_ends[-1] = blank_end
                    else:
                        run_starts.append(pos)
                        run_ends.append(blank_end)
                    continue
                # Indented: structure only after 1-3 spaces.
                indented = _INDENTED_CANDIDATE.match(text, pos) if char == " " else None
                if indented is None:
                    continue
                char = indented[1]
            if fence_start >= 0 and char != fence_char:
                continue  # inside a fence only a closing fence matters
            start = pos if pos > bom else 0
            end = lines.end(start) if lone_cr else (find("\n", pos) + 1 or size)
            if fence_start >= 0:
                close = _FENCE_CLOSE.match(text, pos, end)
                if close and close[1][0] == fence_char and len(close[1]) >= fence_length:
                    self.fence_ends.append(end)
                    lead_ends.put(fence_start, end)
                    fence_start = -1
                    structure_end, after_container = end, False
                continue
            if char in "`~":
                fence = _FENCE.match(text, pos, end)
                if fence and not (char == "`" and find("`", fence.end(), end) >= 0):
                    fence_start, fence_char, fence_length = start, char, len(fence[1])
                    starts[start] = CODE
                    structure_end, after_container = end, False
            elif char == "#":
                if _ATX.match(text, pos, end):
                    starts[start] = HEADING
                    structure_end, after_container = end, False
            elif (
                char in "=-"
                and _SETEXT_UNDERLINE.match(text, pos, end)
                and (heading := self._setext(start, structure_end, after_container)) is not None
            ):
                starts[heading] = HEADING
                lead_ends.put(heading, end)
                self.underlines.append(start)
                structure_end, after_container = end, False
            elif char in "*-_" and _is_rule(text, pos, end, char):
                starts[start] = RULE
                structure_end, after_container = end, False
            elif char == ">" or (  # a block quote line always opens one
                (container := _CONTAINER.match(text, pos, end))
                and self._opens_container(start, end, container, structure_end)
            ):
                structure_end, after_container = end, True
        if fence_start >= 0:  # an unclosed fence runs to the end
            self.fence_ends.append(size)
            lead_ends.put(fence_start, size)

    def _continues_paragraph(self, start: int, structure_end: int) -> bool:
        """Whether the line above the one at ``start`` is paragraph text."""
        if start == 0 or start == structure_end:
            return False
        above = self.lines.start(start)
        return bool(
            self.text[above + (self.bom if above == 0 else 0) : start].strip(BLANK_CHARACTERS)
        )

    def _opens_container(
        self, start: int, end: int, marker: re.Match[str], structure_end: int
    ) -> bool:
        """Whether the block quote or list item line ``[start, end)`` starts one here,
        rather than continue the paragraph above: a list item interrupts a paragraph only
        if it has content and, when ordered, is numbered 1."""
        if marker["quote"] or not self._continues_paragraph(start, structure_end):
            return True
        number = marker["number"]
        if number is not None and int(number) != 1:
            return False
        return bool(self.text[marker.end() : end].strip(BLANK_CHARACTERS))

    def _setext(self, underline: int, structure_end: int, after_container: bool) -> int | None:
        """First line of the setext heading the line at ``underline`` ends, if it
        underlines paragraph text."""
        if not self._continues_paragraph(underline, structure_end):
            return None
        # The blank lines read so far all come before the underline.
        blank_end = self.run_ends[-1] if self.run_ends else -1
        if blank_end <= structure_end and after_container:
            return None  # lazy continuation of a list item or block quote
        return self._paragraph_start(max(structure_end, blank_end, 0), underline)

    def _paragraph_start(self, run_start: int, stop: int) -> int | None:
        """First line of ``[run_start, stop)`` not indented 4+ columns (indented code)."""
        memo_start, memo_first = self.indent_memo
        first = memo_first if memo_start == run_start else run_start
        text, lines = self.text, self.lines
        while first < stop:
            end = lines.end(first)
            if not _indented_code(text[first + (self.bom if first == 0 else 0) : end]):
                break
            first = end
        self.indent_memo = (run_start, first)
        return first if first < stop else None


def _is_rule(text: str, start: int, end: int, char: str) -> bool:
    """Whether the line ``text[start:end]``, whose first character after its indentation is
    ``char``, is a thematic break: three or more of ``char`` and spaces or tabs between.
    One pattern of a repeated group kept every repetition to backtrack over: a line of
    nested list markers (``- - - ... x``) took 60 times its size."""
    return (
        _RULE_LINES[char].match(text, start, end) is not None and text.count(char, start, end) >= 3
    )


def _indented_code(line: str) -> bool:
    """Whether ``line`` is indented 4 or more columns (a tab reaches the next multiple of 4)."""
    stripped = line.lstrip(" ")
    return len(line) - len(stripped) >= 4 or stripped[:1] == "\t"


MARKDOWN_CUTS = ("heading", "fence", "rule", "paragraph")
"""The structures :class:`MarkdownCuts` can cut before, coarsest first."""

_CACHE = threading.local()


def _cuts_of(text: str) -> dict[str, array[int]]:
    """Where each of :data:`MARKDOWN_CUTS` starts in ``text``, from its block layout
    (made once per text: recursive splitting asks every level about the same text; kept
    as arrays: a megabyte of one-letter paragraphs has 333,000 cuts)."""
    cached = getattr(_CACHE, "last", None)
    if cached is not None and cached[0] is text:
        found: dict[str, array[int]] = cached[1]
        return found
    layout = block_layout(text)
    firsts, kinds, lines = layout.firsts, layout.kinds, layout.lines
    code = firsts.typecode

    def end_of(index: int) -> int:
        return firsts[index + 1] if index + 1 < len(firsts) else lines.size

    def bare_heading(index: int) -> bool:
        """Whether heading segment ``index`` holds the heading and nothing else (before
        blank lines)."""
        first = firsts[index]
        content_end = layout.blank_start(end_of(index))
        return layout.lead_ends.span_end(first, lines.end(first)) >= content_end

    content = firsts[0] if firsts else lines.size  # where the first content line starts
    # (arrays, not lists or sets of ints: a megabyte of headings took 30 times the text)
    headings = array(code, (index for index, kind in enumerate(kinds) if kind == HEADING))
    after_bare = array(code, (end_of(index) for index in headings if bare_heading(index)))

    def follows_bare_heading(end: int) -> bool:
        at = bisect_left(after_bare, end)
        return at < len(after_bare) and after_bare[at] == end

    # Each fence's start and end (its lead): fences do not overlap, so these ascend.
    fence_bounds = (
        bound
        for first, kind in zip(firsts, kinds)
        if kind == CODE
        for bound in (first, layout.lead_ends.span_end(first, lines.size))
    )
    found = {
        "heading": array(code, (firsts[index] for index in headings)),
        "fence": array(code, _merged(fence_bounds, (), lines.size)),
        # After a thematic break: it closes what is before it (and alone it says nothing).
        "rule": array(code, [lines.end(f) for f, kind in zip(firsts, kinds) if kind == RULE]),
        # Every run of blank lines but one ending the text or before the first content
        # ends where a segment starts.
        "paragraph": array(
            code,
            (
                end
                for end in layout.run_ends
                if content < end < lines.size and not follows_bare_heading(end)
            ),
        ),
    }
    _CACHE.last = (text, found)
    return found


@dataclass(frozen=True, slots=True)
class MarkdownCuts:
    """A level for recursive splitting read off the paging-block structure: cut before
    every ``what`` of :data:`MARKDOWN_CUTS` (a heading, a fence or the line after one,
    after a thematic break, before a paragraph after blank lines unless they follow a bare
    heading), as CommonMark reads them: a ``# comment`` inside a fence is not a heading."""

    what: str

    def __call__(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        cuts = _cuts_of(text)[self.what]
        inside = cuts[bisect_right(cuts, start) : bisect_left(cuts, end)]
        bounds = [start, *inside, end]
        return list(pairwise(bounds))
