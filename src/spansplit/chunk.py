"""The span model: a chunk is a piece of its source that knows exactly where it came from."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Generic, Literal, TypeVar

import regex

from .errors import InvalidParameterError, ParameterTypeError
from .validate import check_int

NO_METADATA: Mapping[str, Any] = MappingProxyType({})
"""The metadata of a chunk whose splitter adds none."""

Span = tuple[int, int]
"""``(start, end)``: code point offsets of a piece of a text, end exclusive."""

SizedSpan = tuple[int, int, int]
"""``(start, end, size)`` of one chunk in its text, ``size`` in the length function's unit."""


_SPACES = re.compile(r"\s*")  # \s is str.isspace for str patterns (both Py_UNICODE_ISSPACE)
# Grapheme cluster classes (UAX #29) that trimming needs, kept here for every layer above:
# a character that joins the one before it (GB9, GB9a; a control before it aside, GB4),
# a Prepend character that joins the one after it (GB9b), and the controls.
JOINING_MARKS = r"\p{GCB=Extend}\p{GCB=ZWJ}\p{GCB=SpacingMark}"
"""Members of a regex set: the characters that join the one before them into its grapheme
cluster (UAX #29 GB9, GB9a)."""
JOINS_BACK = regex.compile(f"[{JOINING_MARKS}]")
PREPEND = regex.compile(r"\p{GCB=Prepend}")
CONTROL_CHAR = regex.compile(r"[\p{GCB=Control}\r\n]")
FIRST_MARK, FIRST_PREPEND = "\u0300", "\u0600"  # no character below joins or prepends


def after_whitespace(text: str, start: int, end: int) -> int:
    """The first position of ``text[start:end]`` that is not whitespace (``end`` if none)."""
    if start < end and text[start].isspace():
        return _SPACES.match(text, start, end).end()  # type: ignore[union-attr]  # \s* always matches
    return start


def before_whitespace(text: str, start: int, end: int) -> int:
    """The position after the last character of ``text[start:end]`` that is not whitespace
    (``start`` if none). A long run is stepped over 64 characters at a time, at C speed."""
    last = end
    if last > start and text[last - 1].isspace():
        last -= 1  # most runs are one character
        while last > start and text[last - 1].isspace():
            block = text[max(start, last - 64) : last]
            content = block.rstrip()
            last -= len(block) - len(content)
            if content:
                break
    return last


def trim_span(text: str, start: int, end: int) -> Span:
    """``(start, end)`` without surrounding whitespace (``str.isspace``, as ``str.strip``),
    except whitespace that one grapheme cluster holds with what it touches (a space that
    a combining mark joins): a trimmed span never cuts a cluster. Long runs are skipped
    at C speed."""
    if start < end and text[start].isspace():
        first = after_whitespace(text, start, end)
        if (
            first < end
            and text[first] >= FIRST_MARK
            and JOINS_BACK.match(text, first)
            and not CONTROL_CHAR.match(text, first - 1)
        ):
            first -= 1
        start = first
    return start, trimmed_end(text, start, end)


def trimmed_end(text: str, start: int, end: int) -> int:
    """The end of ``text[start:end]`` without trailing whitespace, but the space that a
    Prepend character before it holds in its grapheme cluster (UAX #29 GB9b): the end
    :func:`trim_span` gives, which never cuts a cluster."""
    if end <= start or not text[end - 1].isspace():
        return end
    last = before_whitespace(text, start, end)
    if (
        last > start
        and text[last - 1] >= FIRST_PREPEND
        and PREPEND.match(text, last - 1)
        and not CONTROL_CHAR.match(text, last)
    ):
        last += 1
    return last


@dataclass(frozen=True, slots=True, init=False)
class Chunk:
    """One chunk: ``text == source[start:end]`` always holds.

    ``start``/``end`` are code point offsets (Python ``str`` indices, end exclusive);
    ``start_line``/``end_line`` are 1-based CommonMark lines of ``start`` and ``end - 1``;
    ``size`` is the chunk's size in the splitter's length unit; ``kind`` says what structure
    made it; ``source`` is the position of its text when a list of texts was split;
    ``oversized`` marks the one documented exception to budgets (a paging block made of a
    single line longer than the target). ``metadata`` is what a structure-aware splitter
    knows of where the chunk lies (a Markdown heading path, a code symbol path; each
    splitter documents its keys), read-only and empty for the others.
    """

    text: str
    start: int
    end: int
    index: int
    start_line: int
    end_line: int
    size: int
    kind: str = "text"
    source: int = 0
    oversized: bool = False
    metadata: Mapping[str, Any] = field(default_factory=lambda: NO_METADATA, hash=False)

    def __init__(
        self,
        text: str,
        start: int,
        end: int,
        index: int,
        start_line: int,
        end_line: int,
        size: int,
        kind: str = "text",
        source: int = 0,
        oversized: bool = False,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        # Written out (the slots' own setters) because splitters make a chunk per ~200
        # characters and the generated frozen __init__ costs twice as much.
        _set_text(self, text)
        _set_start(self, start)
        _set_end(self, end)
        _set_index(self, index)
        _set_start_line(self, start_line)
        _set_end_line(self, end_line)
        _set_size(self, size)
        _set_kind(self, kind)
        _set_source(self, source)
        _set_oversized(self, oversized)
        _set_metadata(self, MappingProxyType(dict(metadata)) if metadata else NO_METADATA)

    def __reduce__(self) -> tuple[type[Chunk], tuple[Any, ...]]:
        values = [getattr(self, f.name) for f in fields(self)]
        values[-1] = dict(self.metadata)  # a read-only view does not pickle
        return (Chunk, tuple(values))

    @property
    def number(self) -> int:
        """1-based position of the chunk, as paging UIs count."""
        return self.index + 1

    @property
    def line_count(self) -> int:
        """Number of lines the chunk touches."""
        return self.end_line - self.start_line + 1

    def to_dict(self) -> dict[str, Any]:
        """The chunk as a dict of its fields, in declaration order (``metadata`` as a dict)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["metadata"] = dict(self.metadata)
        return values


(
    _set_text,
    _set_start,
    _set_end,
    _set_index,
    _set_start_line,
    _set_end_line,
    _set_size,
    _set_kind,
    _set_source,
    _set_oversized,
    _set_metadata,
) = (getattr(Chunk, f.name).__set__ for f in fields(Chunk))

Unit = Literal["utf8", "utf16"]


def _unit_length(piece: str, unit: Unit) -> int:
    if unit == "utf8":
        return len(piece.encode("utf-8", "surrogatepass"))
    return len(piece.encode("utf-16-le", "surrogatepass")) // 2


def convert_offsets(
    text: str, chunks: Sequence[Chunk], unit: Unit = "utf8"
) -> list[tuple[int, int]]:
    """``(start, end)`` of every chunk in UTF-8 bytes or UTF-16 code units, in chunk order.

    One linear pass over ``text`` whatever the number of chunks: the distinct offsets are
    sorted once and the text between consecutive offsets is measured once. A chunk that is
    not a span of ``text`` (chunks of another text) raises ``InvalidParameterError``.
    """
    if unit not in ("utf8", "utf16"):
        raise InvalidParameterError("unit", unit, "must be 'utf8' or 'utf16'")
    for index, chunk in enumerate(chunks):
        if not (
            0 <= chunk.start <= chunk.end <= len(text) and text.startswith(chunk.text, chunk.start)
        ):
            raise InvalidParameterError(
                f"chunks[{index}]",
                chunk.text[:40],
                f"is not text[{chunk.start}:{chunk.end}]: chunks of another text?",
            )
    positions = sorted({p for c in chunks for p in (c.start, c.end)})
    converted: dict[int, int] = {}
    previous, total = 0, 0
    for pos in positions:
        total += _unit_length(text[previous:pos], unit)
        converted[pos] = total
        previous = pos
    return [(converted[c.start], converted[c.end]) for c in chunks]


PAGE_KEYS = ("page_start", "page_end")
"""The metadata keys :func:`with_page_numbers` adds."""


def first_page(metadata: Mapping[Any, Any]) -> int:
    """The page a text starts on, as its metadata says (``page_start``, from a split with
    page numbers: a part split again counts its pages on from there); else 1."""
    page = metadata.get(PAGE_KEYS[0])
    return page if isinstance(page, int) and not isinstance(page, bool) and page >= 1 else 1


def with_page_numbers(text: str, chunks: Sequence[Chunk]) -> list[Chunk]:
    """``chunks`` of ``text`` with ``page_start``/``page_end`` in their metadata: 1-based
    pages of their first and last characters, where a form feed (U+000C, as text extracted
    from PDFs has between pages) ends a page. One pass over the text's form feeds."""
    feeds = [i for i, char in enumerate(text) if char == "\f"] if "\f" in text else []
    out = []
    for chunk in chunks:
        first = bisect_right(feeds, chunk.start - 1) + 1 if feeds else 1
        last = bisect_right(feeds, max(chunk.start, chunk.end - 1) - 1) + 1 if feeds else 1
        metadata = {**chunk.metadata, **dict(zip(PAGE_KEYS, (first, last)))}
        values = [getattr(chunk, f.name) for f in fields(chunk)]
        values[-1] = metadata
        out.append(Chunk(*values))
    return out


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of items and the offset of the next page (``None`` on the last page)."""

    items: list[T]
    next_offset: int | None


def page(items: Sequence[T], offset: int, limit: int) -> Page[T]:
    """Items ``[offset, offset + limit)`` and the next offset, as seed 000's paging example."""
    if not isinstance(items, Sequence) or isinstance(items, (str, bytes)):
        raise ParameterTypeError(
            f"items must be a sequence (a list of blocks), got {type(items).__name__}: "
            f"{items!r:.80}"
        )
    offset = check_int("offset", offset, 0)
    limit = check_int("limit", limit, 1)
    end = offset + limit
    return Page(list(items[offset:end]), end if end < len(items) else None)
