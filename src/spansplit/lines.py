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


def line_ending_ends(text: str) -> list[int]:
    """Offsets just past each line ending of ``text``, in order (one linear scan)."""
    if "\r" not in text:
        ends: list[int] = []
        append = ends.append
        find = text.find
        pos = find("\n")
        while pos >= 0:
            pos += 1
            append(pos)
            pos = find("\n", pos)
        return ends
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
    """Maps code point offsets of one text to 1-based CommonMark line numbers."""

    __slots__ = ("_ends", "length")

    def __init__(self, text: str) -> None:
        self._ends = line_ending_ends(text)
        self.length = len(text)

    def line(self, pos: int) -> int:
        """1-based line of the character at ``pos`` (line endings belong to their line)."""
        return bisect_right(self._ends, pos) + 1

    def span_lines(self, start: int, end: int) -> tuple[int, int]:
        """``(line(start), line(end - 1))``: the first and last lines of ``[start, end)``."""
        first = bisect_right(self._ends, start) + 1
        if end - 1 <= start:
            return first, first
        return first, bisect_right(self._ends, end - 1) + 1

    @property
    def line_count(self) -> int:
        """Number of CommonMark lines (a final line ending does not start another line)."""
        if self.length == 0:
            return 0
        trailing = 1 if not self._ends or self._ends[-1] < self.length else 0
        return len(self._ends) + trailing
