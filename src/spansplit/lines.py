"""CommonMark lines: one linear scan, then O(log n) offset-to-line lookups.

A line ending is LF, CR not followed by LF, or CRLF (CommonMark 0.31.2, section 2.1);
a final line ending does not start another line. ``line(pos)`` is 1 plus the number of
line endings that end at or before ``pos``, so a line ending belongs to the line it ends.
"""

from __future__ import annotations

import functools
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from itertools import accumulate
from types import ModuleType
from typing import Any, TypeVar, overload


@functools.cache
def optional_numpy() -> ModuleType | None:
    """numpy if installed (optional: it only speeds up look-ups over a long text), else
    None."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


LINE_ENDING = re.compile(r"\r\n|\r|\n")
_LF = re.compile("\n")
_MATCH_END = re.Match.end


LONE_CR = re.compile("\r(?!\n)")
"""A CR that is not followed by LF: a line ending of its own."""


def lone_crs_as_lf(text: str) -> str:
    """``text`` with each lone CR made LF, the same length in code points and in UTF-8:
    for readers that end lines at LF only (a grammar, the Markdown parser, a separator's
    regular expression written with ``\n``), a lone CR ends a line too."""
    return LONE_CR.sub("\n", text) if has_lone_cr(text) else text


def has_lone_cr(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether ``text[start:end]`` holds a CR that is not followed by LF (a line ending).

    Without one, every line ending ends with LF, and a search for LF finds them all.
    """
    stop = len(text) if end is None else end
    return text.find("\r", start, stop) >= 0 and LONE_CR.search(text, start, stop) is not None


_VECTOR_SLICE = 1 << 15
"""Code points a text is searched for LF at once by numpy (about 16 bytes each while
searched, a blank line of the text 12 more: a slice takes about 0.6 MB at most)."""


def offset_typecode(text: str) -> str:
    """The ``array`` type code for offsets into ``text``: 4 bytes an offset (8 for a text
    of 4G code points or more), where a list of ints takes 36 or more."""
    return "I" if len(text) < 1 << 32 else "q"


_V = TypeVar("_V")


def put_sorted(keys: array[int], values: MutableSequence[_V], key: int, value: _V) -> None:
    """Set ``value`` for ``key`` in two columns kept sorted by key (an array of keys, their
    values beside it: a dict takes tens of bytes an entry); keys mostly come in order, and
    are then appended."""
    if not keys or keys[-1] < key:
        keys.append(key)
        values.append(value)
        return
    at = bisect_left(keys, key)
    if keys[at] == key:
        values[at] = value
    else:
        keys.insert(at, key)
        values.insert(at, value)


class SpanArray(Sequence[tuple[int, int]]):
    """Spans ``(start, end)`` of one text, ascending by start, in two arrays of offsets:
    8 bytes a span where a list of tuples or a dict takes about 120 (a flood of empty
    fenced code blocks made that 15 times the text)."""

    __slots__ = ("ends", "starts")

    def __init__(self, text: str) -> None:
        self.starts = array(offset_typecode(text))
        self.ends = array(offset_typecode(text))

    def put(self, start: int, end: int) -> None:
        """Add (or change) the span that starts at ``start``; spans mostly come in order."""
        put_sorted(self.starts, self.ends, start, end)

    def span_end(self, start: int, default: int) -> int:
        """The end of the span that starts at ``start``, else ``default``."""
        at = bisect_left(self.starts, start)
        found = at < len(self.starts) and self.starts[at] == start
        return self.ends[at] if found else default

    def __len__(self) -> int:
        return len(self.starts)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return zip(self.starts, self.ends)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # (mutable)

    def __repr__(self) -> str:
        return f"SpanArray({list(self)!r})"

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, int] | list[tuple[int, int]]:
        if isinstance(index, slice):
            return list(zip(self.starts[index], self.ends[index]))
        return self.starts[index], self.ends[index]


def line_ending_ends(text: str) -> array[int]:
    """Offsets just past each line ending of ``text``, in order (one linear scan), in an
    array of :func:`offset_typecode`."""
    code = offset_typecode(text)
    lone_cr = has_lone_cr(text)
    np = optional_numpy() if not lone_cr and len(text) > _VECTOR_SLICE // 8 else None
    if np is None:
        # LF and CRLF endings both end just past a LF.
        pattern = LINE_ENDING if lone_cr else _LF
        return array(code, map(_MATCH_END, pattern.finditer(text)))
    ends = array(code)
    for at in range(0, len(text), _VECTOR_SLICE):
        points = text[at : at + _VECTOR_SLICE].encode("utf-32-le", "surrogatepass")
        found = np.flatnonzero(np.frombuffer(points, "<u4") == 10)  # as encoded: little-endian
        found += at + 1
        ends.frombytes(memoryview(found.astype("=u4" if code == "I" else "=i8")).cast("B"))
    return ends


# Characters ``str.splitlines`` breaks at that CommonMark does not count as line endings.
_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def split_lines(text: str) -> list[str]:
    """The CommonMark lines of ``text``, each with its line ending; they join back to ``text``.

    ``str.splitlines`` does the work at C speed; when it made more lines than ``text`` has
    line endings, it broke at one of the other characters it knows (form feed, U+2028 ...),
    and those pieces are joined back.
    """
    lines = text.splitlines(keepends=True)
    if not lines:
        return lines
    endings = text.count("\n")
    if "\r" in text:
        endings += text.count("\r") - text.count("\r\n")
    if len(lines) != endings + (lines[-1][-1] not in "\r\n"):
        lines = _join_other_breaks(lines)
    return lines


def _join_other_breaks(pieces: list[str]) -> list[str]:
    lines: list[str] = []
    pending: list[str] = []
    for piece in pieces:
        if piece[-1] in _OTHER_BREAKS:  # not a CommonMark line ending: the line goes on
            pending.append(piece)
        elif pending:
            pending.append(piece)
            lines.append("".join(pending))
            pending = []
        else:
            lines.append(piece)
    if pending:
        lines.append("".join(pending))
    return lines


class LineWalker:
    """Steps between the line boundaries of one text by offsets, without scanning it all.

    A line boundary is 0, the end of a line ending, or the end of the text. In a text whose
    line endings all end with LF (LF or CRLF), ``str.find``/``rfind`` of a LF do the work.
    """

    __slots__ = ("lone_cr", "size", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.size = len(text)
        self.lone_cr = has_lone_cr(text)

    def end(self, start: int) -> int:
        """End of the line that starts at ``start``, its line ending included."""
        if self.lone_cr:
            found = LINE_ENDING.search(self.text, start)
            return found.end() if found else self.size
        newline = self.text.find("\n", start)
        return newline + 1 if newline >= 0 else self.size

    def start(self, end: int) -> int:
        """Start of the line that ends at the line boundary ``end`` (``end > 0``)."""
        text = self.text
        if end >= 2 and text[end - 2 : end] == "\r\n":
            content_end = end - 2
        elif text[end - 1 : end] in ("\r", "\n"):
            content_end = end - 1
        else:
            content_end = end
        if not self.lone_cr:
            return text.rfind("\n", 0, content_end) + 1
        # Back a growing window at a time: where lines end in a lone CR there may be no LF
        # at all, and a search for one would read back to the start of the text each time.
        window = 256
        while True:
            low = max(0, content_end - window)
            last = max(text.rfind("\n", low, content_end), text.rfind("\r", low, content_end))
            if last >= 0 or low == 0:
                return last + 1
            window *= 4

    def last_end(self, start: int, limit: int) -> int:
        """The furthest line boundary in ``(start, limit]``, else ``start`` (``limit`` must
        be less than the text's length, whose end is a boundary too)."""
        text = self.text
        last = text.rfind("\n", start, limit)
        if self.lone_cr:
            last = max(last, text.rfind("\r", start, limit))
            if last >= 0 and text[last] == "\r" and text[last + 1 : last + 2] == "\n":
                # The CR of a CRLF that ends past the limit.
                last = max(text.rfind("\n", start, last), text.rfind("\r", start, last))
        return last + 1 if last >= 0 else start

    def endings(self, start: int, stop: int) -> int:
        """Number of line endings in ``[start, stop)``, two line boundaries."""
        count = self.text.count("\n", start, stop)
        if self.lone_cr:
            count += self.text.count("\r", start, stop) - self.text.count("\r\n", start, stop)
        return count


def count_lines(text: str) -> int:
    """Number of CommonMark lines in ``text``: 0 for empty text, blank lines included."""
    if not text:
        return 0
    endings = text.count("\n") + text.count("\r") - text.count("\r\n")
    return endings if text[-1] in "\r\n" else endings + 1


class LineIndex:
    """Maps code point offsets of one text to 1-based CommonMark line numbers.

    Queries in (nearly) increasing order, as chunk lists make them, count line endings
    between consecutive offsets with ``str.count`` (C speed, no per-line objects); the
    first long backward jump builds the list of line ends once, and every later query is
    a binary search, O(log n).
    """

    __slots__ = ("_cursor", "_ends", "_lone_cr", "_seen", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        # Only a lone CR needs counting apart: a CRLF ends just past its LF.
        self._lone_cr = has_lone_cr(text)
        self._cursor = 0  # offset of the last sequential query
        self._seen = 0  # line endings that end at or before the cursor
        self._ends: array[int] | None = None

    def _endings_between(self, start: int, end: int) -> int:
        """Line endings that end in ``(start, end]`` (a CRLF counts once, at its LF)."""
        text = self._text
        count = text.count("\n", start, end)
        if self._lone_cr:
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

    def spans_lines(self, spans: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int]]:
        """:meth:`span_lines` of each span as it is asked for, for spans in text order
        (overlaps allowed): a chunk is made from each pair as it comes, with no list of
        them all beside the chunks.

        The common case (no lone CR) is one ``str.count`` per offset, with no method calls:
        splitters make a chunk per few hundred characters, so this loop is hot.
        """
        if self._lone_cr or self._ends is not None:
            for start, end in spans:
                yield self.span_lines(start, end)
            return
        count = self._text.count
        cursor, seen = self._cursor, self._seen
        try:
            for start, end in spans:
                if start >= cursor:
                    seen += count("\n", cursor, start)
                else:
                    seen -= count("\n", start, cursor)
                first = seen + 1
                cursor = end - 1 if end - 1 > start else start
                lines = count("\n", start, cursor)
                seen += lines
                yield first, seen + 1 if lines else first  # one int for both (a chunk holds them)
        finally:
            self._cursor, self._seen = cursor, seen

    @property
    def line_count(self) -> int:
        """Number of CommonMark lines (a final line ending does not start another line)."""
        return count_lines(self._text)


class RangeOffsets(Sequence[int]):
    """The offsets of some ranges ``[start, end)``, ascending, as a sequence to bisect
    (a range may hold a megabyte of code: its offsets are not listed)."""

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for start, end in sorted(ranges):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            elif start < end:
                merged.append([start, end])
        self._starts = [start for start, _ in merged]
        self._before = list(accumulate((end - start for start, end in merged), initial=0))

    def __len__(self) -> int:
        return self._before[-1]

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        at = bisect_right(self._before, index) - 1
        return self._starts[at] + index - self._before[at]
