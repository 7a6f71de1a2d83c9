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

Everything is found by offsets, with regex passes over the whole text whose patterns
start with a literal LF (the engine skips from LF to LF at C speed): blank-line runs,
then the few lines that may be structure. Python work is done only for those lines and
once per segment; no object is made per line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from ..lines import LineWalker
from .paragraphs import BLANK_CHARACTERS, blank_line_runs

HEADING = "heading"
RULE = "rule"
CODE = "code"
TEXT = "text"

# What may follow 0-3 spaces on a line that may be structure: the start of one of the
# constructs above, of a list item or of a block quote.
# The character is captured: it says which constructs to try.
_STRUCTURE_START = r" {0,3}([#*\-_=`~>+0-9])"
_CANDIDATE = re.compile(_STRUCTURE_START)
_CANDIDATE_AFTER_LF = re.compile(r"\n(?=" + _STRUCTURE_START + ")")
_CANDIDATE_AFTER_ANY = re.compile(r"(?:\r\n|\r(?!\n)|\n)(?=" + _STRUCTURE_START + ")")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_FENCE_CLOSE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*[\r\n]*\Z")
_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t\r\n]|\Z)")
_SETEXT_UNDERLINE = re.compile(r" {0,3}(?:=+|-+)[ \t]*[\r\n]*\Z")
_RULE = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})[\r\n]*\Z")
_CONTAINER = re.compile(
    r" {0,3}(?:(?P<quote>>)|(?:[-+*]|(?P<number>[0-9]{1,9})[.)])(?:[ \t\r\n]|\Z))"
)

Segment = tuple[int, int, int, str, int]
"""``(start, content_end, end, kind, lead_end)``: offsets of one segment.

``[start, content_end)`` is content, ``[content_end, end)`` the blank lines that end it.
``kind`` is the kind of the block that starts at ``start``; a later block of the segment
that starts before ``lead_end`` has that kind too (the rest of a long fence is code, the
rest of a long setext heading is heading); any other is text. (A plain tuple: there is
one per paragraph, and a named tuple costs as much again to make.)
"""


@dataclass(frozen=True, slots=True)
class BlockLayout:
    """The lines of a text, its segments and the starts of its setext underlines.

    A setext underline should not start a block (it would read as a rule), so a block
    that cannot hold it breaks one line earlier when it can.
    """

    lines: LineWalker
    segments: list[Segment]
    underlines: frozenset[int]


def block_layout(text: str) -> BlockLayout:
    """Segments of ``text`` (see the module docstring)."""
    lines = LineWalker(text)
    # A byte order mark is not part of what a reader sees: "\ufeff# Title" is a heading.
    bom = 1 if text[:1] == "\ufeff" else 0
    runs = blank_line_runs(text, bom, lines.lone_cr)
    if runs and runs[0][0] == bom:
        runs[0] = (0, runs[0][1])
    found = _Structure(text, lines, bom, runs, _candidates(text, lines, bom))
    segments = _segments(found, runs, len(text))
    return BlockLayout(lines, segments, frozenset(found.underlines))


def _candidates(text: str, lines: LineWalker, bom: int) -> list[tuple[int, str]]:
    """Start and first character (after 0-3 spaces) of each line that may be structure."""
    pattern = _CANDIDATE_AFTER_ANY if lines.lone_cr else _CANDIDATE_AFTER_LF
    first = _CANDIDATE.match(text, bom)
    found = [(0, first[1])] if first else []
    found += [(m.end(), m[1]) for m in pattern.finditer(text)]
    return found


def _segments(found: _Structure, runs: list[tuple[int, int]], size: int) -> list[Segment]:
    inside = found.fence_spans
    if inside:  # blank lines inside a fence are code, not the end of a block
        starts = [start for start, _ in inside]
        runs = [
            run
            for run in runs
            if (k := bisect_right(starts, run[0]) - 1) < 0 or run[0] >= inside[k][1]
        ]
    run_starts = {start: end for start, end in runs}
    breaks = set(found.starts)
    breaks.update(end for _, end in runs)  # the first line after blank lines
    breaks.update(end for _, end in inside if end not in run_starts)  # after a fence
    breaks.add(run_starts.get(0, 0))  # the first content line
    breaks.discard(size)
    firsts = sorted(breaks)
    blank_before = {end: start for start, end in runs}
    kinds, lead_ends = found.starts, found.lead_ends
    return [
        (first, max(first, blank_before.get(end, end)), end, kinds.get(first, TEXT), lead)
        for first, end, lead in zip(
            firsts, [*firsts[1:], size], [lead_ends.get(f, f + 1) for f in firsts]
        )
    ]


class _Structure:
    """One pass over the candidate lines, in order: fences, headings, rules, underlines.

    Positions are offsets of line starts (``_end`` suffixes: offsets just past a line).
    """

    def __init__(
        self,
        text: str,
        lines: LineWalker,
        bom: int,
        blank_runs: list[tuple[int, int]],
        candidates: list[tuple[int, str]],
    ) -> None:
        self.text = text
        self.lines = lines
        self.bom = bom
        self.blank_ends = [end for _, end in blank_runs]
        self.starts: dict[int, str] = {}  # line -> kind of the block it starts
        self.lead_ends: dict[int, int] = {}  # fence or setext heading -> where it ends
        self.fence_spans: list[tuple[int, int]] = []
        self.underlines: list[int] = []
        # Where the last line that ends paragraph text by what it is (a heading, a rule, a
        # fence, a list item or block quote line) ends, and whether it was a list item or
        # block quote line (whose paragraph may continue lazily).
        self.structure_end = -1
        self.after_container = False
        self.indent_memo = (-1, -1)  # (run start, paragraph start)
        fence_start, fence_char, fence_length = -1, "", 0
        for start, char in candidates:
            if fence_start >= 0 and char != fence_char:
                continue  # inside a fence only a closing fence matters
            end = lines.end(start)
            line = text[start + bom : end] if start == 0 else text[start:end]
            if fence_start >= 0:
                close = _FENCE_CLOSE.match(line)
                if close and close[1][0] == fence_char and len(close[1]) >= fence_length:
                    self.fence_spans.append((fence_start, end))
                    self.lead_ends[fence_start] = end
                    fence_start = -1
                    self._structure(end)
                continue
            if char in "`~":
                fence = _FENCE.match(line)
                if fence and not (char == "`" and "`" in line[fence.end() :]):
                    fence_start, fence_char, fence_length = start, char, len(fence[1])
                    self._structure(end, start, CODE)
            elif char == "#":
                if _ATX.match(line):
                    self._structure(end, start, HEADING)
            elif char in "=-" and _SETEXT_UNDERLINE.match(line) and self._setext(start, end):
                pass
            elif char in "*-_" and _RULE.match(line):
                self._structure(end, start, RULE)
            elif (container := _CONTAINER.match(line)) and self._opens_container(
                start, line, container
            ):
                self._structure(end)
                self.after_container = True
        if fence_start >= 0:  # an unclosed fence runs to the end
            self.fence_spans.append((fence_start, lines.size))
            self.lead_ends[fence_start] = lines.size

    def _structure(self, end: int, start: int = -1, kind: str | None = None) -> None:
        if kind is not None:
            self.starts[start] = kind
        self.structure_end = end
        self.after_container = False

    def _continues_paragraph(self, start: int) -> bool:
        """Whether the line above the one at ``start`` is paragraph text."""
        if start == 0 or start == self.structure_end:
            return False
        above = self.lines.start(start)
        return bool(
            self.text[above + (self.bom if above == 0 else 0) : start].strip(BLANK_CHARACTERS)
        )

    def _opens_container(self, start: int, line: str, marker: re.Match[str]) -> bool:
        """Whether a block quote or list item line starts one here, rather than continue
        the paragraph above: a list item interrupts a paragraph only if it has content
        and, when ordered, is numbered 1."""
        if marker["quote"] or not self._continues_paragraph(start):
            return True
        number = marker["number"]
        if number is not None and int(number) != 1:
            return False
        return bool(line[marker.end() :].strip(BLANK_CHARACTERS))

    def _setext(self, underline: int, end: int) -> bool:
        """Record the setext heading the line at ``underline`` ends, if it underlines text."""
        if not self._continues_paragraph(underline):
            return False
        ends = self.blank_ends
        blank_end = ends[bisect_right(ends, underline) - 1] if ends and ends[0] <= underline else -1
        if blank_end <= self.structure_end and self.after_container:
            return False  # lazy continuation of a list item or block quote
        first = self._paragraph_start(max(self.structure_end, blank_end, 0), underline)
        if first is None:
            return False
        self.starts[first] = HEADING
        self.lead_ends[first] = end
        self.underlines.append(underline)
        self._structure(end)
        return True

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


def _indented_code(line: str) -> bool:
    """Whether ``line`` is indented 4 or more columns (a tab reaches the next multiple of 4)."""
    stripped = line.lstrip(" ")
    return len(line) - len(stripped) >= 4 or stripped[:1] == "\t"
