"""CommonMark lines: one linear scan, then O(log n) offset-to-line lookups.

A line ending is LF, CR not followed by LF, or CRLF (CommonMark 0.31.2, section 2.1);
a final line ending does not start another line. ``line(pos)`` is 1 plus the number of
line endings that end at or before ``pos``, so a line ending belongs to the line it ends.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

LINE_ENDING = re.compile(r"\r\n|\r|\n")
_LF = re.compile("\n")


def line_ending_ends(text: str) -> list[int]:
    """Offsets just past each line ending of ``text``, in order (one linear scan)."""
    if "\r" not in text or text.count("\r") == text.count("\r\n"):
        # LF and CRLF endings both end just past a LF.
        return [m.end() for m in _LF.finditer(text)]
    return [m.end() for m in LINE_ENDING.finditer(text)]


def count_lines(text: str) -> int:
    """Number of CommonMark lines in ``text``: 0 for empty text, blank lines included."""
    if not text:
        return 0
    endings = text.count("\n") + text.count("\r") - text.count("\r\n")
    return endings if text[-1] in "\r\n" else endings + 1


def iter_lines(text: str) -> Iterator[tuple[int, int, int]]:
    """Yield ``(start, content_end, end)`` for each line; ``end`` includes the line ending."""
    start = 0
    for m in LINE_ENDING.finditer(text):
        yield start, m.start(), m.end()
        start = m.end()
    if start < len(text):
        yield start, len(text), len(text)


class LineIndex:
    """Maps code point offsets of one text to 1-based CommonMark line numbers.

    Queries in (nearly) increasing order, as chunk lists make them, count line endings
    between consecutive offsets with ``str.count`` (C speed, no per-line objects); the
    first long backward jump builds the list of line ends once, and every later query is
    a binary search, O(log n).
    """

    __slots__ = ("_cursor", "_ends", "_has_cr", "_seen", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._has_cr = "\r" in text
        self._cursor = 0  # offset of the last sequential query
        self._seen = 0  # line endings that end at or before the cursor
        self._ends: list[int] | None = None

    def _endings_between(self, start: int, end: int) -> int:
        """Line endings that end in ``(start, end]`` (a CRLF counts once, at its LF)."""
        text = self._text
        count = text.count("\n", start, end)
        if self._has_cr:
            count += text.count("\r", start, end) - text.count("\r\n", start, end + 1)
        return count

    def line(self, pos: int) -> int:
        """1-based line of the character at ``pos`` (line endings belong to their line)."""
        if self._ends is not None:
            return bisect_right(self._ends, pos) + 1
        if pos >= self._cursor:
            self._seen += self._endings_between(self._cursor, pos)
        elif self._cursor - pos <= 4096:
            self._seen -= self._endings_between(pos, self._cursor)
        else:
            self._ends = line_ending_ends(self._text)
            return bisect_right(self._ends, pos) + 1
        self._cursor = pos
        return self._seen + 1

    def span_lines(self, start: int, end: int) -> tuple[int, int]:
        """``(line(start), line(end - 1))``: the first and last lines of ``[start, end)``."""
        first = self.line(start)
        return first, (self.line(end - 1) if end - 1 > start else first)

    @property
    def line_count(self) -> int:
        """Number of CommonMark lines (a final line ending does not start another line)."""
        return count_lines(self._text)
