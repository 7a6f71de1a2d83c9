"""Markdown structure as CommonMark (and GFM tables) reads it: sections, blocks, their parts.

The text is parsed once by pulldown-cmark (the ``pyromark`` package, the ``markdown``
extra): every block (paragraph, heading, fenced or indented code, table and its rows,
list and its items, block quote, HTML block, thematic break, footnote) with its source
range, converted from UTF-8 bytes to code points. A BOM and YAML front matter (``---``
lines at the very start) are read here, not by the parser.

Two boundary levels, both recursive, give packing the places to cut:

* :class:`SectionLevel` splits a region at the coarsest headings inside it (only headings
  outside block quotes and lists open sections), so a section that fits stays whole and a
  larger one splits into its introduction and its sub-sections;
* :class:`BlockLevel` splits a region at its blocks, a list at its items, a table at its
  rows, a code block at its lines and a paragraph at its sentences.

Cuts fall at line starts, and never right after a heading: a heading goes with the start of
what follows it (a table's header rows with its first row, a fence's opening line with its
first line and its closing line with its last), so no chunk ends on a heading whose body
could follow it; but a fence, table, HTML block or list item that fits alone is never cut
to keep a heading with it (see :meth:`MarkdownLayout.block_cuts`), nor a word that fits
alone (see :class:`WordLevel`).

:class:`OverlapLevel` and :meth:`MarkdownLayout.overlap_fences` keep overlap from starting
inside a code block, a table or an HTML block, whether it was kept whole or cut.
"""

from __future__ import annotations

import itertools
import re
from array import array
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from operator import neg
from types import ModuleType
from typing import Any, NamedTuple, overload

from ..chunk import Span, after_whitespace, trim_span
from ..errors import ExtraNotInstalledError
from ..lines import (
    LINE_ENDING,
    LineWalker,
    RangeOffsets,
    line_ending_ends,
    lone_crs_as_lf,
    optional_numpy,
    put_sorted,
)
from .levels import StartsLevel
from .linebreaks import clause_starts_from, word_starts
from .sentences import SentenceLevel, SentenceStarts
from .words import word_spans

FRONT_MATTER = re.compile(
    r"---[ \t]*(?:\r\n|\r|\n)"
    r"(?=(?:[ \t]*#[^\r\n]*(?:\r\n|\r|\n)(?:[ \t]*(?:\r\n|\r|\n))*)*"
    r"[ \t]*[^\s#:][^\r\n:]*:(?:[ \t]|\r|\n|\Z)|---|\.\.\.)"
    r"(?:.*?(?:\r\n|\r|\n))??(?:---|\.\.\.)[ \t]*(?:\r\n|\r|\n|\Z)",
    re.DOTALL,
)
"""YAML front matter: a ``---`` line at the start, a line that reads as a YAML key (``key:``,
after ``#`` comment lines and blank lines after them) or none, and the next ``---`` or ``...``
line. (A text that opens with a thematic break and a paragraph, or an ATX heading, is
Markdown, not front matter.)"""

_STRETCH_END = re.compile(
    r"\n[ \t]*\r?\n[ \t\r\n]*[^\n]*\n?|\n(?=#{1,6}(?![^ \t\r\n])|```|~~~)[^\n]*\n?"
)
"""A blank line, any more, and the line after them, or a line that starts with an ATX
heading's marks (``# Title``, a run of headings has no blank line) or a code fence (fenced
blocks one after another): where a stretch ends (see :func:`_parse`). (No group is
repeated: the pattern keeps no state per line of a long run of blank lines.)"""
_BLANK_LINE = re.compile(rb"\n[ \t]*\r?\n")
"""A blank line (with the line ending before it) in UTF-8 where no line ends in a lone CR."""
_BLOCKS_TRIED = 4
"""How many of a stretch's last top-level blocks may be dropped to find a blank line."""
_LABEL = re.compile(r"\[((?:[^\[\]\\]|\\.)*)\]", re.DOTALL)
"""Brackets around no bracket but an escaped one: what may be a link label in use (in a
heading's source, with the markers of its containers after a line break)."""
_NEWER_CASE_PAIRS = (
    "\u019b\ua7dc\u0264\ua7cb\u0277\ua7dd\u027c\ua7e2\u1c89\u1c8a\ua7cc\ua7cd\ua7ce\ua7cf"
    "\ua7d3\ua7d2\ua7d5\ua7d4\ua7da\ua7db\uab4b\uab6c\uab4c\uab6d"
    "\U0001df40\U0001df41\U0001df48\U0001df49\U0001df4a\U0001df4b\U0001df4d\U0001df4e"
    "\U0001df51\U0001df52"
    + "".join(chr(c) + chr(c + 0x20) for c in range(0x10D50, 0x10D66))  # Garay
    + "".join(chr(c) + chr(c + 0x1B) for c in range(0x16EA0, 0x16EB9))
    + "".join(chr(c) + chr(c + 1) for c in range(0x1DF68, 0x1DF80, 2) if c != 0x1DF70)
)
"""Characters, two by two, that pulldown-cmark's Unicode tables fold together and Python
3.11's (Unicode 14) does not (``tests/test_markdown.py`` scans every character for them)."""
_NEWER_CASE_FOLDS = {ord(b): a for a, b in zip(_NEWER_CASE_PAIRS[::2], _NEWER_CASE_PAIRS[1::2])}
_ATX_HEADING = re.compile(rb" {0,3}#{1,6}(?![^ \t\r\n])")
"""The start of an ATX heading (``# Title``), which is one line and means the same alone."""
_CODE_FENCE = re.compile(rb" {0,3}(?:```|~~~)")
"""The start of a fenced code block's opening fence, which means the same alone."""
_HEADINGS_PER_PARSE = 1024
"""How many headings :func:`_relink` gives the parser at once."""


# The kinds of block, by their code in :attr:`BlockTree.kinds`.
_KIND_NAMES = (
    "document",
    "paragraph",
    "heading",
    "code",
    "html",
    "quote",
    "list",
    "item",
    "table",
    "row",
    "footnote",
    "rule",
)
(
    _DOCUMENT,
    _PARAGRAPH,
    _HEADING,
    _CODE,
    _HTML,
    _QUOTE,
    _LIST,
    _ITEM,
    _TABLE,
    _ROW,
    _FOOTNOTE,
    _RULE,
) = range(len(_KIND_NAMES))

# pulldown-cmark's block tags, by the kind we give them; other tags are inline.
_KINDS = {
    "Paragraph": _PARAGRAPH,
    "Heading": _HEADING,
    "CodeBlock": _CODE,
    "HtmlBlock": _HTML,
    "BlockQuote": _QUOTE,
    "List": _LIST,
    "Item": _ITEM,
    "Table": _TABLE,
    "TableHead": _ROW,
    "TableRow": _ROW,
    "FootnoteDefinition": _FOOTNOTE,
    "DefinitionList": _LIST,
    "DefinitionListTitle": _ITEM,
    "DefinitionListDefinition": _ITEM,
}
_LINKS = frozenset({"Link", "Image"})
"""Inline tags whose text can hang on a link definition anywhere in the document."""
_LINE_BREAKS = frozenset({"SoftBreak", "HardBreak"})
"""Breaks inside a heading's text (of a setext heading's lines): a space in its text."""
_CONTAINERS = frozenset({_QUOTE, _LIST, _ITEM, _FOOTNOTE})
"""Kinds whose headings do not open sections of the document."""
_UNITS = frozenset({_CODE, _HTML, _TABLE, _ITEM})
"""Blocks that are never cut where they fit, even to keep a heading with their start."""
_WHOLE_TO_OVERLAP = frozenset({_CODE, _HTML, _TABLE, _ROW})
"""Blocks that overlap never starts inside: out of their context, their lines read as
something else (a ``# comment`` in a fence as a heading, half a row as text)."""

_QUOTE_MARKERS = re.compile(r"[>\s]*")
"""Blank lines, or those of a block quote (its markers only)."""

_DEFINITION_START = re.compile(r"(?:\r\n|[\r\n])(?= {0,3}\[)")
"""A line ending before a line that may start a link reference definition."""

_LIST_MARKER = re.compile(r"[ \t>]*(?:[-+*]|[0-9]{1,9}[.)])\s*")
"""A list item's marker, with the quote markers and indentation before it on its line."""


_MARKER_WORD = re.compile(r"[>\s]*|[-+*]\s+")
"""A word that is only a container's markers: a quote's (``>``, a blank line of a quote)
or a list item's bullet (``-``, ``+``, ``*``) with the space after it. (A number such as
``1.`` is not one: in a sentence, "Chapter 13) says" may be cut after it.)"""

_GLUED_MARKERS_CHARS = 1 << 10
"""The most code points of markers joined to the word after them: a line of 500,000
nested quotes was one part, its words all read at once (60 times the text)."""


def _after_markers(
    text: str, words: list[Span], fits: Fits | None = None
) -> list[tuple[int, int, int]]:
    """``words`` with each that is only markers (:data:`_MARKER_WORD`) joined to the word
    after it, so that no part ends on a quote's ``>`` or a list item's bullet (unless the
    markers run on for more than :data:`_GLUED_MARKERS_CHARS`, or, ``fits`` telling, the
    word fits alone and not with them: then they are a part of their own; a line of
    nested list items was a part a bullet, 500,000 a megabyte): each as its start, the
    start of its own word after such markers, and its end."""
    joined: list[tuple[int, int, int]] = []
    pending: int | None = None  # where the markers before the next word start
    markers_end = 0  # where the last of them ends
    for first, last in words:
        if text[first] in ">-+*" and _MARKER_WORD.fullmatch(text, first, last):
            if pending is not None and last - pending > _GLUED_MARKERS_CHARS:
                joined.append((pending, pending, markers_end))  # (a part of markers alone)
                pending = None
            pending = first if pending is None else pending
            markers_end = last
            continue
        if pending is not None and _apart(fits, pending, first, last):
            joined.append((pending, pending, markers_end))
            pending = None
        joined.append((first if pending is None else pending, first, last))
        pending = None
    if pending is not None:
        joined.append((pending, pending, words[-1][1]))
    return joined


def _before_quote_blank_lines(text: str, start: int) -> int:
    """Where the blank lines of a block quote (``>`` and spaces) right before the line
    start ``start`` begin (``start`` where there are none). Only those lines are read
    (back from ``start`` to the first other character): a text of lines ending in a lone
    CR, which has no LF to stop a search for one, was read back to its start each time.
    A line ends in an LF, a CRLF pair or a lone CR."""
    while start > 0:
        # The line ending before ``start`` (a CRLF pair as one), then back over the line
        # before it (up to its own line ending), while it is '>' or blank.
        line = start - 2 if start >= 2 and text[start - 2 : start] == "\r\n" else start - 1
        char = text[line]
        if char != ">" and not char.isspace():
            return start
        while line > 0 and text[line - 1] not in "\r\n":
            char = text[line - 1]
            if char != ">" and not char.isspace():
                return start
            line -= 1
        if ">" not in text[line:start]:
            break
        start = line
    return start


_SENTENCES = SentenceLevel(wrapped=True)

_BARE = 1
"""The mark of an item that holds text outside a paragraph, as a tight list's items do."""

VECTOR_MIN_BLOCKS = 256
"""Documents with at least this many blocks are placed on their lines by numpy, when it is
installed, ``_VECTOR_BATCH`` blocks at a time."""
_VECTOR_BATCH = 1 << 13

STRETCH_CHARS = 1 << 13
"""A longer document is parsed a stretch of about this many code points at a time (the
parser's events for it are held at once, outside Python's heap)."""


class HeadingTexts:
    """Each heading's text as rendered, by its block's index: the indices ascending in one
    array and the texts in a list beside it while the document is read (a dict took 42
    bytes a heading: ten times a megabyte of one-letter headings), then, once it is read
    (:meth:`pack`), in one string and an array of where each ends (a string object a
    heading took about 65 bytes: 1.6 times a changelog's text)."""

    __slots__ = ("_ends", "_joined", "blocks", "texts")

    def __init__(self, typecode: str) -> None:
        self.blocks = array(typecode)
        self.texts: list[str] | None = []  # None once packed
        self._joined = ""
        self._ends = array(typecode)

    def __setitem__(self, block: int, text: str) -> None:
        if self.texts is None:
            raise RuntimeError("the heading texts are packed: a text cannot be set now")
        put_sorted(self.blocks, self.texts, block, text)  # (read in document order)

    def get(self, block: int, default: str = "") -> str:
        at = bisect_left(self.blocks, block)
        if at == len(self.blocks) or self.blocks[at] != block:
            return default
        if self.texts is not None:
            return self.texts[at]
        return self._joined[self._ends[at - 1] if at else 0 : self._ends[at]]

    def truncate(self, count: int) -> None:
        """Drop the texts of every block from index ``count`` on."""
        at = bisect_left(self.blocks, count)
        del self.blocks[at:]
        if self.texts is not None:
            del self.texts[at:]
        else:
            del self._ends[at:]

    def pack(self) -> None:
        """Keep the texts in one string from now on (no text is set after)."""
        if self.texts is not None:
            self._joined = "".join(self.texts)
            self._ends = array(self._ends.typecode, accumulate(map(len, self.texts)))
            self.texts = None


class BlockTree:
    """Every block of a document in document order (a block before the blocks it holds),
    as one entry of each of a few arrays: a megabyte of one-letter paragraphs holds 350,000
    blocks, which as objects took sixty times the text. Block 0 is the document."""

    __slots__ = ("afters", "ends", "kinds", "marks", "parents", "starts", "texts")

    def __init__(self, typecode: str) -> None:
        self.kinds = bytearray()  # codes of _KIND_NAMES
        self.starts = array(typecode)  # whole lines (see Block)
        self.ends = array(typecode)
        self.parents = array(typecode)  # the block that holds it (the document's: itself)
        self.afters = array(typecode)  # the index past the blocks it holds
        self.marks = bytearray()  # a heading's level; 1 for fenced code; _BARE
        self.texts = HeadingTexts(typecode)  # a heading's text as rendered

    def add(self, kind: int, start: int, end: int, parent: int) -> int:
        """Append a block holding no other yet; its index."""
        index = len(self.kinds)
        self.kinds.append(kind)
        self.starts.append(start)
        self.ends.append(end)
        self.parents.append(parent)
        self.afters.append(index + 1)
        self.marks.append(0)
        return index

    def truncate(self, count: int) -> None:
        """Drop every block from index ``count`` on."""
        for column in (self.kinds, self.starts, self.ends, self.parents, self.afters, self.marks):
            del column[count:]
        self.texts.truncate(count)

    def holds_blocks(self, index: int) -> bool:
        """Whether block ``index`` holds other blocks."""
        return self.afters[index] > index + 1

    def cut_between_children(self, index: int) -> bool:
        """Whether block ``index`` is cut between the blocks it holds (a table is cut at
        its rows, after its header: see :meth:`MarkdownLayout._inner_cuts`)."""
        return self.kinds[index] != _TABLE and self.holds_blocks(index)

    def children(self, index: int) -> Iterator[int]:
        """The blocks block ``index`` holds directly, in order."""
        child, after = index + 1, self.afters[index]
        while child < after:
            yield child
            child = self.afters[child]

    def ancestry(self, index: int) -> list[int]:
        """Block ``index`` and the blocks that hold it, the document last."""
        chain = [index]
        while index:
            index = self.parents[index]
            chain.append(index)
        return chain


@dataclass(frozen=True, slots=True)
class Block:
    """One block of the document (a view of its entry in a :class:`BlockTree`): its kind,
    its span (whole lines: it starts at a line start, or where the body starts), and the
    blocks it holds."""

    tree: BlockTree
    index: int

    @property
    def kind(self) -> str:
        return _KIND_NAMES[self.tree.kinds[self.index]]

    @property
    def start(self) -> int:
        return self.tree.starts[self.index]

    @property
    def end(self) -> int:
        return self.tree.ends[self.index]

    @property
    def depth(self) -> int:
        """How many containers (quotes, lists, items, footnotes) hold it."""
        kinds = self.tree.kinds
        return sum(kinds[held_by] in _CONTAINERS for held_by in self.tree.ancestry(self.index)[1:])

    @property
    def level(self) -> int:
        """A heading's level, 1 to 6; 0 for other blocks."""
        return self.tree.marks[self.index] if self.tree.kinds[self.index] == _HEADING else 0

    @property
    def text(self) -> str:
        """A heading's text as rendered (entities decoded, no markup); "" for others."""
        return self.tree.texts.get(self.index, "")

    @property
    def fenced(self) -> bool:
        """Whether a code block is fenced (else indented)."""
        return self.tree.kinds[self.index] == _CODE and self.tree.marks[self.index] == 1

    @property
    def children(self) -> list[Block]:
        return [Block(self.tree, child) for child in self.tree.children(self.index)]


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading that opens a section: its level, text, and the section's span."""

    level: int
    text: str
    start: int  # where its line starts
    title_end: int  # where its own lines end (both lines of a setext heading)
    end: int  # where its section ends: the next heading of the same level or higher
    parent: int  # index of the enclosing section's heading, -1 for none


_PATHS_KEPT = 16
"""The most paths :meth:`MarkdownLayout._path_down` keeps."""

_PATH_BLOCKS_KEPT = 1 << 14
"""The most blocks on the paths it keeps, in all (a path as deep as a line of nested quotes
is kept alone)."""

_SHORT_PATH_BLOCKS = 16
"""Paths down to a block that are walked as they are, not made into arrays and kept (see
:meth:`MarkdownLayout._short_path`)."""


class _PathDown(NamedTuple):
    """The blocks from the document's child down to one block, and for each the latest
    start and the earliest end of the blocks down to it (the earliest negated: ascending);
    where blocks of a set of kinds are on it (:meth:`whole`)."""

    blocks: array[int]
    latest_starts: array[int]
    earliest_ends: array[int]
    kinds_at: dict[frozenset[int], array[int]]

    def whole(self, kinds: bytearray, whole_kinds: frozenset[int]) -> array[int]:
        """Where on the path the blocks of ``whole_kinds`` are, top down (``kinds``: the
        tree's)."""
        found = self.kinds_at.get(whole_kinds)
        if found is None:
            found = self.kinds_at[whole_kinds] = array(
                "I", (at for at, block in enumerate(self.blocks) if kinds[block] in whole_kinds)
            )
        return found


class MarkdownLayout:
    """The blocks and sections of one text, and the lookups the levels and metadata need."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = LineWalker(text)
        base = 1 if text.startswith("\ufeff") else 0
        matter = FRONT_MATTER.match(text, base)
        self.front_matter: Span | None = (base, matter.end()) if matter else None
        self.body_start = matter.end() if matter else base
        self.tree, heading_blocks = _parse(text, self.body_start)
        self.root = Block(self.tree, 0)
        tree = self.tree
        self.headings = Sections(tree, len(text))
        # The lines of every heading (in containers too), ascending: see WordLevel. Where
        # every heading opens a section, those are the sections' arrays (not copied).
        if self.headings.holds_every_heading:
            self._heading_line_starts = self.headings.starts
            self._heading_line_ends = self.headings.title_ends
        else:
            code, starts, ends = tree.starts.typecode, tree.starts, tree.ends
            self._heading_line_starts = array(code, map(starts.__getitem__, heading_blocks))
            self._heading_line_ends = array(code, map(ends.__getitem__, heading_blocks))
        del heading_blocks
        self.heading_starts: Sequence[int] = self.headings.starts  # ascending
        self._section_levels: dict[tuple[int, int, int], int | None] = {}  # see section_level
        self._paths: dict[int, _PathDown] = {}  # see _path_down
        self._paths_kept = 0

    @property
    def heading_lines(self) -> list[Span]:
        """The lines of every heading (in containers too), ascending: ``(start, end)``."""
        return list(zip(self._heading_line_starts, self._heading_line_ends))

    # -- lines ---------------------------------------------------------------------------

    def in_heading_lines(self, pos: int) -> bool:
        """Whether ``pos`` lies on the lines of a heading."""
        index = bisect_right(self._heading_line_starts, pos) - 1
        return index >= 0 and pos < self._heading_line_ends[index]

    # -- sections ------------------------------------------------------------------------

    def section_of(self, start: int, end: int) -> int:
        """Index of the innermost section holding all of ``[start, end)``; -1 for none."""
        sections = self.headings
        index = bisect_right(sections.starts, start) - 1
        while index >= 0 and sections.ends[index] < end:
            index = sections.parents[index]
        return index

    def heading_path(self, index: int) -> list[Heading]:
        """The headings from the outermost section down to section ``index``."""
        path = []
        while index >= 0:
            path.append(self.headings[index])
            index = self.headings.parents[index]
        return path[::-1]

    def section_cuts(self, start: int, end: int, fits: Fits | None = None) -> list[int]:
        """Line starts of the coarsest headings inside ``(start, end)``, except after a
        part that is headings alone: they go with the part after it, unless (``fits``
        telling) that part fits alone and not with them, since a section that fits is
        never cut to keep a heading with it, or they do not fit with the heading that
        starts it, which is never cut. Where every cut at that level goes, the next finer
        level is tried: "# Guide" and "## Install" with a "### Linux" that fits alone."""
        top = self.section_level(start, end, fits)
        return [] if top is None else self.level_cuts(top, start, end, start, end, fits)

    def section_level(self, start: int, end: int, fits: Fits | None = None) -> int | None:
        """The level of the headings :meth:`section_cuts` cuts ``(start, end)`` at; ``None``
        where it cuts nowhere (remembered: packing asks for a region's local level, then,
        where there is none, for its cuts)."""
        key = (start, end, id(fits))
        if key in self._section_levels:
            return self._section_levels[key]
        starts, levels = self.headings.starts, self.headings.levels
        low, high = bisect_right(starts, start), bisect_left(starts, end)
        found = None
        for top in sorted(set(levels[low:high])):
            if self.level_cuts(top, start, end, start, end, fits, first=True):
                found = top
                break
        if len(self._section_levels) > 64:
            self._section_levels.clear()
        self._section_levels[key] = found
        return found

    def level_cuts(
        self,
        top: int,
        low: int,
        stop: int,
        start: int,
        end: int,
        fits: Fits | None = None,
        first: bool = False,
    ) -> list[int]:
        """The cuts of :meth:`section_cuts` at the headings of level ``top`` in ``(low,
        stop)``, a part of the region ``(start, end)`` they are decided in (each by the
        headings of its level before and after it there); with ``first``, the first only."""
        sections = self.headings
        starts, levels, title_ends = sections.starts, sections.levels, sections.title_ends
        first_in_region = bisect_right(starts, start)
        past_region = bisect_left(starts, end)
        index = bisect_right(starts, low)
        stop_index = min(bisect_left(starts, stop), past_region)
        previous = levels.rfind(top, first_in_region, index)
        before = start if previous < 0 else starts[previous]
        index = levels.find(top, index, past_region)
        cuts: list[int] = []
        while 0 <= index < stop_index:
            following = levels.find(top, index + 1, past_region)
            at = starts[index]
            after = end if following < 0 else starts[following]
            if (
                not self._bare(before, at)
                or _apart(fits, before, at, after)
                or (fits is not None and not fits(before, title_ends[index]))
            ):
                cuts.append(at)
                if first:
                    break
            before, index = at, following
        return cuts

    def _bare(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` holds nothing but headings (and blank lines)."""
        sections, text = self.headings, self.text
        starts, title_ends = sections.starts, sections.title_ends
        at = start
        index = bisect_left(starts, at)
        while index < len(starts) and starts[index] < end:
            if text[at : starts[index]].strip():
                return False
            at = title_ends[index]
            index += 1
        return at > start and not text[at:end].strip()

    # -- blocks --------------------------------------------------------------------------

    def _holder(self, start: int, end: int) -> int:
        """The innermost block whose span holds all of ``[start, end)``: walking down from
        the document to the last block starting at or before ``start``, the last before
        one that does not reach ``end`` (the parser may give a block an end past its
        parent's: a quote in a list item, after an empty item of its own list)."""
        last = max(bisect_right(self.tree.starts, start) - 1, 0)
        short = self._short_path(last)
        if short is not None:
            ends, holder = self.tree.ends, 0
            for block in short:
                if ends[block] < end:
                    break
                holder = block
            return holder
        path = self._path_down(last)
        reaching = bisect_right(path.earliest_ends, -end)  # (negated: ascending)
        return path.blocks[reaching - 1] if reaching else 0

    def _short_path(self, last: int) -> list[int] | None:
        """The path from the document's child down to block ``last``, top down, where it
        holds at most :data:`_SHORT_PATH_BLOCKS` blocks and :meth:`_path_down` does not
        keep it already: walked as it is, not made into arrays (each of 125,000 fenced
        blocks asked about made a path of arrays: 2 s a MB)."""
        if last in self._paths:
            return None
        parents, block = self.tree.parents, last
        up: list[int] = []
        while block > 0:
            if len(up) == _SHORT_PATH_BLOCKS:
                return None
            up.append(block)
            block = parents[block]
        up.reverse()
        return up

    def _path_down(self, last: int) -> _PathDown:
        """The path from the document's child down to block ``last`` (see
        :class:`_PathDown`), remembered for the last :data:`_PATHS_KEPT` blocks while they
        hold at most :data:`_PATH_BLOCKS_KEPT` blocks in all, as positions are asked about
        one after another (a path 10,000 quotes deep was walked for each: quadratic in the
        depth)."""
        found = self._paths.get(last)
        if found is None:
            tree = self.tree
            starts, ends, parents = tree.starts, tree.ends, tree.parents
            blocks = array(starts.typecode)
            block = last
            while block > 0:
                blocks.append(block)
                block = parents[block]
            blocks.reverse()
            signed = "i" if starts.typecode == "I" else "q"  # (offsets below 2**30 or not)
            np = optional_numpy() if len(blocks) > VECTOR_MIN_BLOCKS else None
            if np is None:
                latest = array(signed, accumulate(map(starts.__getitem__, blocks), max))
                earliest = array(signed, map(neg, accumulate(map(ends.__getitem__, blocks), min)))
            else:  # (a path of a million nested list items: 0.4 s, else 0.01 s)
                down = np.frombuffer(blocks, dtype=blocks.typecode)

                def on_path(column: array[int]) -> Any:
                    return np.frombuffer(column, dtype=column.typecode)[down].astype(signed)

                latest = array(signed, np.maximum.accumulate(on_path(starts)).tobytes())
                earliest = array(signed, (-np.minimum.accumulate(on_path(ends))).tobytes())
            found = _PathDown(blocks, latest, earliest, {})
            self._paths_kept += len(found.blocks)
            if self._paths_kept > _PATH_BLOCKS_KEPT or len(self._paths) >= _PATHS_KEPT:
                self._paths.clear()
                self._paths_kept = len(found.blocks)
            self._paths[last] = found
        return found

    def holders(self, start: int, end: int) -> Iterator[Block]:
        """The blocks whose span holds all of ``[start, end)``, the document first."""
        for index in reversed(self.tree.ancestry(self._holder(start, end))):
            yield Block(self.tree, index)

    def holder(self, start: int, end: int) -> Block:
        """The innermost block whose span holds all of ``[start, end)``."""
        return Block(self.tree, self._holder(start, end))

    def held_blocks(self, block: int, start: int, end: int) -> Iterator[int]:
        """The blocks ``block`` holds directly that meet ``[start, end)``, in order: from
        the last starting at or before ``start`` (or the first) to the last starting
        before ``end``, less any ending by ``start``."""
        tree = self.tree
        starts, ends, afters, parents = tree.starts, tree.ends, tree.afters, tree.parents
        after = afters[block]
        kid = max(bisect_right(starts, start, block + 1, after) - 1, block + 1)
        while parents[kid] != block:  # the last block to start by ``start`` is in kid
            kid = parents[kid]
        while kid < after and starts[kid] < end:
            if ends[kid] > start:
                yield kid
            kid = afters[kid]

    def kid_cuts(self, block: int, start: int, end: int, fits: Fits | None = None) -> Iterator[int]:
        """Where ``(start, end)`` may be cut between the blocks ``block`` holds, ascending:
        before each but the first (before the blank lines of a quote, ``>``, between them,
        unless, ``fits`` telling, the block after fits alone and not with them: then
        after them), except right after a heading; and around text that no block holds
        (link reference definitions, which the parser reads but does not report), so that
        it is a part of its own, or after a heading goes with it."""
        text = self.text
        kinds, starts, ends = self.tree.kinds, self.tree.starts, self.tree.ends
        cuts: list[int] = []
        previous, last = -1, start
        for kid in self.held_blocks(block, start, end):
            cuts.clear()
            if previous < 0:
                if _QUOTE_MARKERS.fullmatch(text, start, starts[kid]) is None:
                    cuts.append(starts[kid])
            elif _QUOTE_MARKERS.fullmatch(text, ends[previous], starts[kid]) is None:
                if kinds[previous] != _HEADING:
                    cuts.append(ends[previous])
                cuts.append(starts[kid])
            elif kinds[previous] != _HEADING:
                # A quote's blank lines (">") go with the block after them, also those at
                # the end of the block before (a list's last item holds them), unless that
                # block fits alone and not with them while the block before fits with them:
                # they would be a chunk of their own.
                blank = _before_quote_blank_lines(text, starts[kid])
                if (
                    blank < starts[kid]
                    and fits is not None
                    and fits(starts[previous], starts[kid])
                    # (the block after measured without its own blank lines at its end)
                    and _apart(fits, blank, starts[kid], _before_quote_blank_lines(text, ends[kid]))
                ):
                    cuts.append(starts[kid])
                else:
                    cuts.append(blank)
            for cut in cuts:
                if last < cut < end:
                    yield cut
                    last = cut
            previous = kid
        if (
            previous >= 0
            and kinds[previous] != _HEADING
            and last < ends[previous] < end
            and text[ends[previous] : end].strip()
        ):
            yield ends[previous]

    def blocks_cut(self, start: int, end: int) -> int | None:
        """The block whose blocks :meth:`block_cuts` cuts ``[start, end)`` between
        (:meth:`kid_cuts`), if it does."""
        tree = self.tree
        block = self._holder(start, end)
        if not tree.cut_between_children(block):
            return None
        return block if next(self.kid_cuts(block, start, end), None) is not None else None

    def heading_run(self, start: int, end: int) -> tuple[int, int] | None:
        """Where :meth:`block_cuts` cuts ``[start, end)`` between the headings of a run of
        them with no block after it: the block that holds them and where the first of them
        in the region starts (no cut there), if it does."""
        tree = self.tree
        block = self._holder(start, end)
        if not tree.cut_between_children(block) or next(self.kid_cuts(block, start, end), None):
            return None
        kinds, first = tree.kinds, None
        for kid in self.held_blocks(block, start, end):
            if kinds[kid] != _HEADING:
                return None
            first = tree.starts[kid] if first is None else first
        return None if first is None else (block, first)

    def lines_block(self, start: int, end: int) -> int | None:
        """The code or HTML block that ``[start, end)`` is (whitespace around it aside),
        which :meth:`block_cuts` cuts at its lines, if it is one."""
        block = self._holder(*trim_span(self.text, start, end))
        tree = self.tree
        if tree.kinds[block] not in (_CODE, _HTML) or tree.cut_between_children(block):
            return None
        whole = _same_text(self.text, (start, end), (tree.starts[block], tree.ends[block]))
        return block if whole else None

    def line_cuts(self, block: int, start: int, end: int) -> list[int]:
        """The cuts of :meth:`_inner_cuts` of a code or HTML block that lie in ``(start,
        end)``, found without reading its other lines."""
        tree = self.tree
        low, high = tree.starts[block], tree.ends[block]
        if tree.kinds[block] == _CODE and tree.marks[block] == 1 and low < high:
            # the fences go with the first and last lines (but with one line between them,
            # which the fences cannot go with both: they stand apart)
            first_end, last_start = self.lines.end(low), self.lines.start(high)
            # (a line ending between them, not the one before the closing fence: a CRLF
            # pair is one, whose CR alone read as a second line)
            pair = last_start >= 2 and self.text.startswith("\r\n", last_start - 2)
            before_last = last_start - (2 if pair else 1)
            if LINE_ENDING.search(self.text, first_end, max(first_end, before_last)):
                low, high = first_end, last_start
        low, high = max(low, start), min(high, end)
        if low >= high:
            return []
        cuts = [match.end() for match in LINE_ENDING.finditer(self.text, low, high)]
        if cuts and cuts[-1] == high:
            cuts.pop()  # (a line ending that ends the range starts no line inside it)
        return cuts

    def block_cuts(self, start: int, end: int, fits: Fits | None = None) -> list[int]:
        """Where a region may be cut at its blocks (see the module docstring).

        Headings go with the block after them: with the part of it inside the region, or
        that part's first part if it is cut. The headings stand apart instead (``fits``
        telling) where that part fits alone and not with them and is a whole fence, table,
        HTML block or list item (in a list or quote of its own, too), or a list or quote
        with no cut inside: those are never cut to keep a heading with them, while a
        paragraph (its first sentence or words) or a list or quote of several items or
        blocks gives the heading its first part."""
        tree, text = self.tree, self.text
        kinds, starts, ends = tree.kinds, tree.starts, tree.ends
        block = self._holder(start, end)
        if not tree.cut_between_children(block):
            if _same_text(text, (start, end), (starts[block], ends[block])):
                return [cut for cut in self._inner_cuts(block, fits) if start < cut < end]
            if kinds[block] == _TABLE:
                return self._head_cut(block, start, end, fits) or self._line_ends(start, end)
            if kinds[block] in (_CODE, _HTML):
                # A part that its inner cuts left over budget (a fence and the line it
                # goes with): cut at its lines before its words.
                return self._line_ends(start, end)
            return []
        inside = list(self.kid_cuts(block, start, end, fits))
        if inside:
            return inside
        kids = list(self.held_blocks(block, start, end))
        if not kids:  # (one definition over budget, its title on a line of its own: its lines)
            return self._definition_cuts(start, end) or self._line_ends(start, end)
        # One group: headings glued to the block after them, of which the region holds a
        # part (the whole block, or the first part of it that an earlier cut left).
        last = kids[-1]
        if not all(kinds[kid] == _HEADING for kid in kids[:-1]):
            return []
        if kinds[last] == _HEADING:
            # Headings alone, with no block after them to go with: cut between them all,
            # and packing puts together as many as fit (cut only before the last, a run of
            # them was cut once for each, in time that grew with the square of their number).
            cuts = [starts[kid] for kid in kids[1:] if start < starts[kid] < end]
            return cuts + self._definition_cuts(max(start, ends[last]), end)
        before = starts[last]
        part = (max(start, before), min(end, ends[last]))
        if not tree.cut_between_children(last) or _same_text(text, part, (before, ends[last])):
            inner = self._inner_cuts(last, fits)
        else:  # a part of a container: cut at what that part holds (an item's blocks ...)
            inner = self.block_cuts(*part)
        inner = [cut for cut in inner if start < cut < end]
        if not inner and kinds[last] == _TABLE and fits is not None and not fits(*part):
            inner = self._head_cut(last, *part, fits)
        if (
            start < before
            and (self._one_unit(*part) or (not inner and kinds[last] != _PARAGRAPH))
            and _apart(fits, start, before, part[1])
        ):
            # The block stands apart from the headings, but the innermost of them that fit
            # with it go with it ("## Install" with its fence, "# Guide" alone).
            for kid in kids[1:-1]:
                if start < starts[kid] and _apart(fits, start, starts[kid], part[1]):
                    return [starts[kid]]
            return [before]
        if inner and fits is not None and not fits(start, inner[0]):
            # A stack of headings that does not fit with the first part of its paragraph:
            # the innermost of them that fit with it go with it, the rest apart, rather than
            # all of them with its first word ("# Guide", then "## Install" and its sentence).
            for kid in kids[1:-1]:
                if start < starts[kid] and fits(starts[kid], inner[0]):
                    return [starts[kid], *inner]
        return inner

    def _head_cut(self, table: int, start: int, end: int, fits: Fits | None = None) -> list[int]:
        """In ``[start, end)``, the first part of ``table`` (its header and delimiter rows
        and first row, kept together where they fit), the cut between its header rows and
        its first row; where its header and delimiter rows do not fit together (``fits``
        telling), or it has no first row, the cut between those two instead (the delimiter
        row then goes with the first row)."""
        tree = self.tree
        rows = list(itertools.islice(tree.children(table), 2))
        if start > tree.starts[table] or not rows:
            return []
        header_end = tree.ends[rows[0]]  # (the delimiter row is no block of its own)
        if len(rows) > 1 and start < tree.starts[rows[1]] < end:
            first_row = tree.starts[rows[1]]
            if fits is None or fits(start, first_row) or not start < header_end < first_row:
                return [first_row]
        return [header_end] if start < header_end < end else []

    def _line_ends(self, start: int, end: int) -> list[int]:
        """The ends of the lines inside ``[start, end)``, where the next line starts."""
        cuts = [match.end() for match in LINE_ENDING.finditer(self.text, start, end)]
        return cuts[:-1] if cuts and cuts[-1] >= end else cuts

    def _definition_cuts(self, start: int, end: int) -> list[int]:
        """In ``[start, end)``, which lies between blocks, the starts of the lines that may
        start a link reference definition (``[rust]: https://...``), the only text there:
        cut at these, not between a label and its destination."""
        found = _DEFINITION_START.finditer(self.text, max(0, start - 1), end)
        return [m.end() for m in found if start < m.end() < end]

    def _one_unit(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` is one fence, table, HTML block or list item (alone in
        the blocks that hold it, or not): what is never cut where it fits."""
        tree = self.tree
        return any(
            tree.kinds[block] in _UNITS
            and _same_text(self.text, (start, end), (tree.starts[block], tree.ends[block]))
            for block in tree.ancestry(self._holder(start, end))
        )

    def inside_whole_to_overlap(self, pos: int) -> bool:
        """Whether ``pos`` lies inside a code block, a table or an HTML block, past the
        start of its first line's text (where overlap never starts)."""
        return self._inside(pos, _WHOLE_TO_OVERLAP)

    def inside_unit(self, pos: int) -> bool:
        """Whether ``pos`` lies inside a block that is not cut where it fits (a list item
        too), past the start of its first line's text."""
        return self._inside(pos, _UNITS)

    def inside_one_unit(self, start: int, end: int) -> bool:
        """Whether all of ``[start, end)`` lies inside one block that is not cut where it
        fits, past the start of its first line's text."""
        holder, kinds = self._holder(start, end), self.tree.kinds
        short = self._short_path(holder)
        if short is not None:
            return any(kinds[block] in _UNITS for block in short) and self.inside_unit(start)
        path = self._path_down(holder)
        return self.inside_unit(start) and bool(path.whole(kinds, _UNITS))

    def overlap_may_start(self, pos: int) -> bool:
        """Whether overlap may start at ``pos`` (and packing may end a chunk or cut a piece
        there): in the body, not inside a block that is not cut where it fits (a code
        block, a table, an HTML block, a list item; :meth:`inside_whole_to_overlap` is
        within these), nor inside a heading's lines (at their start it may)."""
        if pos < self.body_start or self.inside_unit(pos):
            return False
        index = bisect_right(self._heading_line_starts, pos) - 1
        return (
            index < 0
            or not pos < self._heading_line_ends[index]
            or pos == self._heading_line_starts[index]
        )

    def follows_heading(self, pos: int) -> bool:
        """Whether ``pos`` comes right after a heading's lines (blank lines, or a quote's
        markers, between)."""
        text = self.text
        while pos > 0 and (text[pos - 1].isspace() or text[pos - 1] == ">"):
            pos -= 1
        return pos > 0 and self.in_heading_lines(pos - 1)

    def block_starts(self, low: int, end: int) -> set[int]:
        """The starts of the blocks that start in ``[low, end)``; of a block after blank
        lines of a quote (``>``), where those lines start, in the region (they go with
        the block, see :meth:`kid_cuts`, so that a chunk ending before it does not end
        with them)."""
        starts = self.tree.starts
        first, stop = bisect_left(starts, low, 1), bisect_left(starts, end, 1)
        found = set(starts[first:stop])
        if _QUOTE not in self.tree.kinds:
            return found
        return {max(low, _before_quote_blank_lines(self.text, start)) for start in found}

    def _inside(self, pos: int, whole_kinds: frozenset[int]) -> bool:
        """Whether ``pos`` lies inside a block of ``whole_kinds``, past the start of its
        first line's text: down from the document to the last block that starts at or
        before ``pos``, while each holds ``pos`` strictly inside (a short path walked as
        it is, see :meth:`_short_path`)."""
        tree, text = self.tree, self.text
        kinds, starts, ends = tree.kinds, tree.starts, tree.ends
        last = bisect_right(starts, pos) - 1
        short = self._short_path(last)
        if short is not None:
            for block in short:
                if not starts[block] < pos < ends[block]:
                    return False
                if kinds[block] in whole_kinds and after_whitespace(text, starts[block], pos) < pos:
                    return True  # (read up to its first text, not to pos: a long item)
            return False
        path = self._path_down(last)
        for at in path.whole(kinds, whole_kinds):
            if not path.latest_starts[at] < pos < -path.earliest_ends[at]:
                return False
            if after_whitespace(text, starts[path.blocks[at]], pos) < pos:
                return True  # (read up to its first text, not to pos: a line of nested items)
        return False

    def overlap_fences(self, fits: Fits | None = None) -> Sequence[int]:
        """Offsets that overlap never reaches back across (see
        :class:`~spansplit.packing.Structure`): the headings, so that overlap stays in its
        section, and (``fits`` telling) every offset inside a code block, table or HTML
        block that does not fit alone, past its first character, and its end: no overlap
        starts inside a block that had to be cut, where its lines, or the end of one line,
        would read as something else."""
        if fits is None:
            return self.heading_starts
        ranges: list[Span] = []
        tree, text = self.tree, self.text
        kinds, starts, ends, afters = tree.kinds, tree.starts, tree.ends, tree.afters
        block = 1
        while block < len(kinds):
            if kinds[block] not in _WHOLE_TO_OVERLAP:
                block += 1
                continue
            if not fits(starts[block], ends[block]):
                first = trim_span(text, starts[block], ends[block])[0]
                ranges.append((first + 1, ends[block] + 1))
            block = afters[block]  # not the rows of a table
        if not ranges:
            return self.heading_starts
        return RangeOffsets([*((h, h + 1) for h in self.heading_starts), *ranges])

    def _inner_cuts(self, block: int, fits: Fits | None = None) -> list[int]:
        """The cuts inside one block: its children, rows, lines or sentences (``fits`` as
        :meth:`block_cuts` has it, for the blocks inside)."""
        tree, text = self.tree, self.text
        kind, start, end = tree.kinds[block], tree.starts[block], tree.ends[block]
        if kind in (_CODE, _HTML):
            return self.line_cuts(block, start, end)
        if kind == _TABLE:
            rows = [tree.starts[row] for row in tree.children(block)]
            # the header and delimiter rows go with the first row (apart where a table of
            # one row does not fit)
            return rows[2:] or self._head_cut(block, start, end, fits)
        if kind == _DOCUMENT:  # no block: link reference definitions only
            return self._definition_cuts(start, end) or self._line_ends(start, end)
        if tree.holds_blocks(block):
            return self.block_cuts(start, end, fits)
        if kind in (_PARAGRAPH, _ITEM, _FOOTNOTE, _QUOTE):
            cuts = [cut for cut, _ in _SENTENCES(text, start, end)[1:]]
            if (
                kind in (_ITEM, _PARAGRAPH)
                and cuts
                and _LIST_MARKER.fullmatch(text, start, cuts[0])
            ):
                del cuts[0]  # "1. Install": an item's marker is no sentence of its own
            return cuts
        return []


Fits = Callable[[int, int], bool]
"""Whether the span ``[start, end)`` is within the budget (the splitter's length)."""


def _apart(fits: Fits | None, start: int, cut: int, end: int) -> bool:
    """Whether ``[cut, end)`` fits alone and not with ``[start, cut)`` before it."""
    return fits is not None and fits(cut, end) and not fits(start, end)


def _same_text(text: str, a: Span, b: Span) -> bool:
    """Whether two spans hold the same text once whitespace around it is trimmed."""
    return trim_span(text, *a) == trim_span(text, *b)


def load_pyromark() -> Any:
    """The CommonMark parser's module; :class:`ExtraNotInstalledError` names the extra."""
    try:
        import pyromark
    except ImportError as error:
        raise ExtraNotInstalledError("MarkdownSplitter", "markdown", "pyromark") from error
    return pyromark


class _Reading:
    """What the parse of a document has found so far: its blocks, its headings, the
    headings whose text may hang on a definition elsewhere (a link, an image, a footnote
    reference or a bracket in it), and its footnote definitions' labels by block."""

    def __init__(self, typecode: str) -> None:
        self.tree = BlockTree(typecode)
        self.headings = array(typecode)  # (4 bytes a heading, where a list takes 36)
        self.linked: list[int] = []
        self.footnotes: list[tuple[int, str]] = []

    def truncate(self, count: int) -> None:
        """Forget every block from index ``count`` on."""
        self.tree.truncate(count)
        for found in (self.headings, self.linked):
            while found and found[-1] >= count:
                found.pop()
        while self.footnotes and self.footnotes[-1][0] >= count:
            self.footnotes.pop()


def _label_key(label: str) -> str:
    """``label`` as pulldown-cmark compares labels, or coarser (a coarser key costs only a
    definition more): every ``>`` a space (in a heading's source it may mark a quote on a
    line of the label), whitespace collapsed, case folded, and the case pairs this
    Python's Unicode may lack folded too."""
    folded = " ".join(label.replace(">", " ").casefold().split())
    return folded if folded.isascii() else folded.translate(_NEWER_CASE_FOLDS)


def _parser() -> Any:
    """pulldown-cmark with the extensions the levels read: tables, footnotes ..."""
    pyromark = load_pyromark()
    options = pyromark.Options
    return pyromark.Markdown(
        options=options.ENABLE_TABLES
        | options.ENABLE_TASKLISTS
        | options.ENABLE_STRIKETHROUGH
        | options.ENABLE_FOOTNOTES
    )


def _parse(text: str, start: int, inside_blocks: bool = True) -> tuple[BlockTree, array[int]]:
    """The document ``text[start:]`` as a tree of blocks (pulldown-cmark), each block's
    span widened to whole lines of ``text``, and the indices of its headings in order.

    A long document is parsed about :data:`STRETCH_CHARS` code points at a time (the
    parser holds every event of what it is given, 32 bytes each): each stretch keeps its
    top-level blocks but the last, which may go on past it, and the next starts after a
    blank line between them. Blocks that have been followed by another are final in CommonMark,
    so the tree is the one a single parse gives; only a heading's text can hang on a
    definition in another stretch (see :func:`_relink`). A long quote or list (one block)
    is parsed a stretch at a time too, each stretch after the first starting at a line
    inside it (see :func:`_container_cut`); where a list's parts disagree on whether it is
    tight (see :func:`_lists_agree`), the body is parsed again with ``inside_blocks``
    false, which makes no such cut."""
    body = text[start:]
    body = lone_crs_as_lf(body)  # a lone CR ends a line here, not for the parser
    # Byte offsets of the body until the end, then code points of the text.
    reading = _Reading("I" if 4 * len(text) < 1 << 32 else "q")
    tree = reading.tree
    tree.add(_DOCUMENT, start, len(text), 0)
    stretches: list[_Stretch] = []
    position = byte_base = 0  # where the next stretch starts, in code points and bytes
    going_on: tuple[int, ...] = ()  # the containers the stretch starts inside, outermost first
    lists_cut: dict[int, list[int]] = {}  # each list cut: the items that start a stretch
    size = STRETCH_CHARS
    stretch_ends = _FirstMatch(_STRETCH_END, body)
    while True:
        # A stretch ends on the line after a blank line past its size, which starts a
        # block; without one, the rest of the body is one stretch.
        found = stretch_ends.after(position + size) if len(body) - position > size else None
        end = len(body) if found is None else found.end()
        blocks, headings = len(tree.kinds), len(reading.headings)
        probe_end = body.find("\n", position + 2 * size) + 1
        inside: _ContainerCut | None = None
        probed: deque[tuple[int, int]] | None = None  # a probe that read the whole stretch
        if inside_blocks and end - position > 4 * size and probe_end > 0:
            # Far from a blank line: where a quote or a list goes on past about twice the
            # size, the next stretch starts at a line inside it and goes on with it.
            probed = _add_events(reading, body[position:probe_end], byte_base, going_on)
            inside = _container_cut(body, tree, blocks, position, byte_base, size, probe_end)
            if inside is None and probe_end != end:
                probed = None
                reading.truncate(blocks)
        if inside is None:
            # (a probe up to the stretch's end, as one long line gives, is not read again)
            if probed is None:
                latest = _add_events(reading, body[position:end], byte_base, going_on)
            else:
                latest = probed
            if end == len(body):
                stretches.append(_Stretch(position, end, None, headings, len(reading.headings)))
                break
            data = body[position:end].encode("utf-8")
            # The next stretch starts after a blank line between the blocks kept and the
            # first dropped (where no paragraph is open: link definitions before a block can
            # make its first lines go on a paragraph, and are read with it): the last top-level
            # block is dropped, else the last two ... A list's range goes on over the blank
            # lines and definitions after it, to the next block: where it ends at a blank line,
            # the next stretch starts there only if the block after is followed by another
            # (so it starts where a single parse has it start, and so does the list end; the
            # stretch's last line alone, "[foo]: /u 'ti", may yet become a definition).
            cut = 0
            for dropped, (last, last_start) in enumerate(reversed(latest), 1):
                if last == blocks:
                    break
                # (the quotes and list the stretch went on with are kept too: a list's
                # range runs over the blank lines after it, to the next block)
                kept_end = max(tree.ends[blocks:last], default=0)
                kept_end = max([kept_end, *(tree.ends[b] for b in going_on)]) - byte_base
                first_dropped = last_start - byte_base
                blank = _BLANK_LINE.search(data, kept_end - 1, first_dropped)
                if blank is not None:
                    cut = blank.end()
                    break
                if (
                    (
                        (tree.kinds[last] == _HEADING and _ATX_HEADING.match(data, first_dropped))
                        or (
                            tree.kinds[last] == _CODE
                            and tree.marks[last] == 1
                            and _CODE_FENCE.match(data, first_dropped)
                        )
                    )
                    and kept_end <= first_dropped
                    and not data[kept_end:first_dropped].strip()
                ):
                    # A top-level ATX heading or fenced code block after nothing but line
                    # endings closes every block before it, and its first line opens it
                    # alone: the parse may start again there.
                    cut = first_dropped
                    break
                # (the line before the first dropped block is blank: a stretch starts with a
                # block, so a line ending comes before that blank line)
                if (
                    dropped > 1
                    and kept_end == first_dropped
                    and _BLANK_LINE.fullmatch(
                        data, data.rfind(b"\n", 0, first_dropped - 1), first_dropped
                    )
                ):
                    cut = first_dropped
                    break
            if cut > 0:
                going_on = ()
                reading.truncate(last)
                stretches.append(_Stretch(position, end, cut, headings, len(reading.headings)))
                position += len(data[:cut].decode("utf-8"))
                byte_base += cut
                size = STRETCH_CHARS
                continue
            # One block so far, or none that ends before a blank line: the stretch ends
            # inside the last (a loose list), or else it grows.
            if inside_blocks:
                inside = _container_cut(body, tree, blocks, position, byte_base, size // 2, end)
            if inside is None:
                size *= 2
                reading.truncate(blocks)
                continue
        reading.truncate(inside.first_dropped)
        stretches.append(_Stretch(position, inside.at, None, headings, len(reading.headings)))
        position, byte_base, going_on = inside.at, inside.byte, inside.going_on
        if tree.kinds[going_on[-1]] == _LIST:
            lists_cut.setdefault(going_on[-1], []).append(inside.first_dropped)
        size = STRETCH_CHARS
    if lists_cut and not _lists_agree(tree, lists_cut):
        return _parse(text, start, inside_blocks=False)
    if reading.linked and len(stretches) > 1:
        _relink(reading, body, stretches)
    tree.afters[0] = len(tree.kinds)
    tree.texts.pack()
    _to_whole_lines(tree, body, start)
    return tree, reading.headings


class _Stretch(NamedTuple):
    """One stretch of the body parsed: ``body[start:end]``, of which the bytes before
    ``kept`` gave blocks (all of them where ``kept`` is ``None``), and the range of the
    document's headings it gave."""

    start: int
    end: int
    kept: int | None
    first_heading: int
    stop_heading: int


_QUIET_LINE = re.compile(rb"[ \t>]*\r?\n")
"""A line blank but for quote markers (a blank line inside a quote)."""


class _FirstMatch:
    """The first match of ``pattern`` at or after a position of a text, searched once for
    the many positions of a long run of text it does not match in (the stretches of a long
    list without a blank line)."""

    def __init__(self, pattern: re.Pattern[str], text: str) -> None:
        self.pattern, self.text = pattern, text
        self.since = len(text) + 1  # (none looked for yet)
        self.found: re.Match[str] | None = None

    def after(self, position: int) -> re.Match[str] | None:
        found = self.found
        if not (self.since <= position and (found is None or found.start() >= position)):
            self.found = found = self.pattern.search(self.text, position)
            self.since = position
        return found


class _ContainerCut(NamedTuple):
    """Where the next stretch starts, inside the containers it goes on with."""

    at: int  # in code points of the body
    byte: int  # in bytes of the body
    first_dropped: int  # the first block parsed again with the next stretch
    going_on: tuple[int, ...]  # the quotes and list it starts inside, outermost first


def _container_cut(
    body: str,
    tree: BlockTree,
    first_block: int,
    position: int,
    byte_base: int,
    size: int,
    end: int,
) -> _ContainerCut | None:
    """Where a stretch of ``body`` that starts at ``position`` (byte ``byte_base``), parsed
    up to ``end`` (blocks from ``first_block`` on), may end after about ``size`` code
    points: the latest line, two lines or more before ``end``, that starts a block held
    by quotes and at most one list (a new item of it) that all started before that line.
    The blocks before it are final, and that line, parsed alone, opens the same quotes and
    list, which go on as they do in the document. The line before is blank or in the
    block before (not a link definition whose title may go on). Where a blank line comes
    before an item, the list is loose, and so must the part before be (its item before
    holds a paragraph). ``None`` where there is no such line."""
    data = body[position:end].encode("utf-8")
    low = len(body[position : position + size].encode("utf-8"))
    last_line = data.rfind(b"\n", 0, len(data) - 1) + 1
    high = data.rfind(b"\n", 0, max(last_line - 1, 0)) + 1  # the last line but one
    kinds, starts, parents = tree.kinds, tree.starts, tree.parents
    for block in range(len(kinds) - 1, first_block - 1, -1):
        at = starts[block] - byte_base
        if at < low:
            return None
        if at >= high:
            continue
        line = data.rfind(b"\n", 0, at) + 1
        if line == 0:
            return None  # (the stretch's first line)
        holders: list[int] = []  # innermost first
        holder = parents[block]
        if kinds[holder] == _LIST and kinds[block] == _ITEM:
            holders.append(holder)
            holder = parents[holder]
        while holder and kinds[holder] == _QUOTE:
            holders.append(holder)
            holder = parents[holder]
        if holder or not holders or starts[holders[0]] - byte_base >= line:
            continue
        after_blank = _QUIET_LINE.fullmatch(data, data.rfind(b"\n", 0, max(line - 1, 0)) + 1, line)
        previous = tree.ancestry(block - 1)
        if holders[0] in previous:
            previous = previous[: previous.index(holders[0])]
        if not ((previous and tree.ends[previous[-1]] - byte_base >= line) or after_blank):
            continue  # (the line before may be a link definition whose title goes on)
        if not _opens_alone(
            data[line : data.find(b"\n", data.find(b"\n", at) + 1) + 1],
            [*(kinds[holder] for holder in reversed(holders)), kinds[block]],
            at - line,
        ):
            continue  # (pulldown-cmark reads "\t>" as a quote's marker after a paragraph)
        if kinds[holders[0]] == _LIST and after_blank:
            # A blank line before the item: the list is loose as a whole, so the part
            # before it must be (the part after is checked once read, see _lists_agree).
            before = tree.ancestry(block - 1)
            item = before[before.index(holders[0]) - 1]
            if not any(kinds[child] == _PARAGRAPH for child in tree.children(item)):
                continue
        cut = position + len(data[:line].decode("utf-8"))
        return _ContainerCut(cut, byte_base + line, block, tuple(reversed(holders)))
    return None


def _opens_alone(lines: bytes, kinds: list[int], start: int) -> bool:
    """Whether ``lines`` parsed alone open blocks of ``kinds`` one inside the other, the
    last at byte ``start``."""
    tree = _read(lines.decode("utf-8")).tree
    depth = len(kinds)
    return (
        len(tree.kinds) > depth
        and list(tree.kinds[1 : depth + 1]) == kinds
        and list(tree.parents[1 : depth + 1]) == list(range(depth))
        and tree.starts[depth] == start
    )


def _lists_agree(tree: BlockTree, lists_cut: dict[int, list[int]]) -> bool:
    """Whether each list read in stretches (the items that start a stretch, by list) has
    the items a single parse gives it: a tight list's items hold text bare, a loose list's
    in paragraphs. Where some part of it is loose, the whole is, and no part may be tight;
    where some part is tight, every part must show that it is (a part that holds no text
    may be loose and make the whole loose)."""
    kinds, marks, afters = tree.kinds, tree.marks, tree.afters
    for block, cuts in lists_cut.items():
        stretch_starts = set(cuts)
        loose = tight = part_tight = False
        parts_tight = True
        for item in tree.children(block):
            if item in stretch_starts:
                parts_tight, part_tight = parts_tight and part_tight, False
            part_tight = part_tight or marks[item] == _BARE
            tight = tight or part_tight
            if not loose and afters[item] > item + 1:
                loose = any(kinds[child] == _PARAGRAPH for child in tree.children(item))
        if tight and (loose or not (parts_tight and part_tight)):
            return False
    return True


def _relink(reading: _Reading, body: str, stretches: list[_Stretch]) -> None:
    """Give each heading that may hang on a definition the text it has in one parse of
    the whole body: parsed again after the definitions (``[label]: x``, ``[^label]: x``)
    of the labels bracketed in it, wherever in the document they are. An ATX heading
    outside containers is parsed by itself (many at once), any other with its stretch."""
    if "]:" not in body:
        return  # nothing is defined, in the document or in a stretch's reading of it
    # By label key, each definition (written to be read alone) by its kind and its label
    # as the parser gives it (whitespace collapsed; in lower case where ASCII, as folding
    # surely agrees there): a label spelt many ways is written once, however many
    # definitions it has.
    written: dict[str, dict[tuple[bool, str], str]] = {}

    def write(label: str, footnote: bool) -> None:
        # spaced: a label may end with \, and a link's may start with ^
        definition = f"[^{label} ]: x" if footnote else f"[ {label} ]: x"
        key = _label_key("^" + label if footnote else label)
        spelling = label.lower() if label.isascii() else label
        written.setdefault(key, {}).setdefault((footnote, spelling), definition)

    for _, label in reading.footnotes:
        write(label, footnote=True)
    parser = _parser()
    for stretch in stretches:
        found = parser.reference_definitions(body[stretch.start : stretch.end])
        for label, where in found.items():
            if stretch.kept is None or where["span"]["end"] <= stretch.kept:
                write(label, footnote=False)

    def definitions(sources: Iterable[str]) -> str:
        """The definitions of the labels in ``sources``, apart (that none reads as the
        continuation of a footnote's) and then a thematic break (that what follows
        starts as a document does); empty where none is defined."""
        keys = {_label_key(label) for source in sources for label in _LABEL.findall(source)}
        wanted = sorted(d for key in keys for d in written.get(key, {}).values())
        return "\n\n".join(wanted) + "\n\n***\n\n" if wanted else ""

    tree = reading.tree
    data = body.encode("utf-8")

    def source(heading: int) -> str:
        """The heading's lines, as the body has them."""
        return data[tree.starts[heading] : tree.ends[heading]].decode("utf-8").rstrip("\r\n")

    linked = set(reading.linked)
    alone = [
        heading
        for heading in reading.linked
        if tree.parents[heading] == 0 and _ATX_HEADING.match(data, tree.starts[heading])
    ]
    for first in range(0, len(alone), _HEADINGS_PER_PARSE):
        batch = alone[first : first + _HEADINGS_PER_PARSE]
        sources = [source(heading) for heading in batch]
        again = _read(definitions(sources) + "\n\n".join(sources))
        if len(again.headings) == len(batch):
            for heading, same in zip(batch, again.headings):
                tree.texts[heading] = again.tree.texts.get(same, "")
            linked.difference_update(batch)
    for stretch in stretches:
        mine = reading.headings[stretch.first_heading : stretch.stop_heading]
        if linked.isdisjoint(mine):
            continue
        prefix = definitions(source(heading) for heading in mine if heading in linked)
        if not prefix:
            # The texts its own parse gave, where it read definitions past the blocks kept
            # too: lines after a definition can give it a title but not unmake it.
            continue
        again = _read(prefix + body[stretch.start : stretch.end])
        for heading, same in zip(mine, again.headings):  # the same headings, in order
            if heading in linked:
                tree.texts[heading] = again.tree.texts.get(same, "")


def _read(markdown: str) -> _Reading:
    """The blocks and headings of a short ``markdown`` in one parse (offsets in bytes)."""
    reading = _Reading("q")
    reading.tree.add(_DOCUMENT, 0, 0, 0)
    _add_events(reading, markdown, 0)
    return reading


def _add_events(
    reading: _Reading, markdown: str, byte_base: int, going_on: tuple[int, ...] = ()
) -> deque[tuple[int, int]]:
    """Add the blocks of ``markdown`` (which starts at byte ``byte_base`` of the body) to
    ``reading`` as children of the document; where ``markdown`` starts inside the quotes
    and list ``going_on`` (added already, outermost first, see :func:`_container_cut`),
    the blocks it opens first are those. The index and byte start of the last few
    top-level blocks added."""
    tree, headings = reading.tree, reading.headings
    add, afters, marks = tree.add, tree.afters, tree.marks
    # (arrays: a line of 500,000 nested items held a list and an int object a level, 44x)
    holders = array("q", [0])  # the blocks open, outermost first
    opened = array("q")  # for every Start not yet ended: its block, or -1
    latest: deque[tuple[int, int]] = deque(maxlen=_BLOCKS_TRIED)
    heading_text: list[str] | None = None
    linked = False  # the heading being read holds a link, an image, a footnote reference or [
    markers: _LineMarkers | None = None  # on markdown's UTF-8, made where a container ends
    events: Iterable[tuple[Any, Any]]
    parser = _parser()
    try:
        events = parser.events_with_range(markdown, merge_text=True)
    except TypeError:  # pyromark 0.9 (the last for Python 3.10): the same events, text unmerged
        events = parser.events_with_range(markdown)
    for event, where in events:
        if type(event) is str:  # SoftBreak, HardBreak, Rule ...
            if heading_text is not None:  # inside a heading: a break is a space in its text
                if event in _LINE_BREAKS:
                    heading_text.append(" ")
            elif event == "Rule":
                if len(holders) == 1:
                    latest.append((len(tree.kinds), byte_base + where["start"]))
                add(_RULE, byte_base + where["start"], byte_base + where["end"], holders[-1])
            continue
        if "Start" in event:
            tag = event["Start"]
            name = tag if type(tag) is str else next(iter(tag))
            kind = _KINDS.get(name)
            if kind is None:
                opened.append(-1)
                linked = linked or name in _LINKS
                if tree.kinds[holders[-1]] == _ITEM:
                    marks[holders[-1]] = _BARE
                continue
            if going_on:
                depth = len(holders) - 1
                if depth < len(going_on) and kind == tree.kinds[going_on[depth]]:
                    block = going_on[depth]  # more of a quote or list already added
                    markers = _LineMarkers(markdown.encode()) if markers is None else markers
                    tree.ends[block] = byte_base + markers.before(where["end"])
                    holders.append(block)
                    opened.append(block)
                    going_on = going_on if depth + 1 < len(going_on) else ()
                    continue
                going_on = ()
            if len(holders) == 1:
                latest.append((len(tree.kinds), byte_base + where["start"]))
            end = where["end"]
            if kind in _CONTAINERS:
                markers = _LineMarkers(markdown.encode()) if markers is None else markers
                end = markers.before(end)
            block = add(kind, byte_base + where["start"], byte_base + end, holders[-1])
            if kind == _HEADING:
                marks[block] = int(tag["Heading"]["level"][1:])
                heading_text, linked = [], False
                headings.append(block)
            elif kind == _CODE:
                marks[block] = type(tag["CodeBlock"]) is dict  # {"Fenced": info}
            elif kind == _FOOTNOTE:
                reading.footnotes.append((block, tag["FootnoteDefinition"]))
            holders.append(block)
            opened.append(block)
        elif "End" in event:
            closed = opened.pop()  # an End closes the last Start
            if closed < 0:
                continue
            holders.pop()
            afters[closed] = len(tree.kinds)
            if heading_text is not None and closed == headings[-1]:
                tree.texts[closed] = "".join(heading_text).strip()
                if linked:
                    reading.linked.append(closed)
                heading_text = None
        elif heading_text is not None:  # inside a heading: its text, until its End
            plain = event.get("Text")  # a bracket there may be a link left undefined
            piece = plain or event.get("Code")
            if piece is not None:
                heading_text.append(piece)
            linked = linked or "FootnoteReference" in event or (plain is not None and "[" in plain)
        elif tree.kinds[holders[-1]] == _ITEM:
            marks[holders[-1]] = _BARE
    return latest


class _LineMarkers:
    """Container ends in one parse's UTF-8 text moved back before the quote markers that
    start their line: pulldown-cmark ends a list inside a quote past the ``> `` of the line
    after a blank line of the quote, which would widen it to that whole line (the next
    block's). The line last found and a run of markers are read once, not once a container
    (a line of 100,000 nested quotes was read 100,000 times: 46 s for 200 KB)."""

    __slots__ = ("_data", "_high", "_line", "_low", "_plain_to")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._line = self._plain_to = 0  # no line ending in data[_line:_plain_to]
        self._low = self._high = -1  # data[_low:_high] are markers, on the line at _line

    def before(self, end: int) -> int:
        """``end``, or the start of its line where only quote markers and spaces come
        before it there."""
        if not self._low <= end <= self._high:
            data, line = self._data, self._line
            if end > self._plain_to and data.find(b"\n", self._plain_to, end) < 0:
                self._plain_to = end
            elif not line <= end <= self._plain_to:
                line = self._line = data.rfind(b"\n", 0, end) + 1
                self._plain_to = end
            low, size = end, 256
            while low > line:  # back over the markers before end, a growing stretch at a time
                stretch = max(line, low - size)
                kept = len(data[stretch:low].rstrip(b" \t>"))
                low = stretch + kept
                if kept:
                    break
                size *= 4
            self._low, self._high = low, end
        return self._line if self._line == self._low < end else end


def _to_whole_lines(tree: BlockTree, body: str, base: int) -> None:
    """Turn every block's UTF-8 byte range in ``body`` (which starts at code point
    ``base`` of the text) into whole lines of the text, in code points (the document's
    span is the text's already).

    The lines of ``body`` (lone CRs made LF) are the text's lines from ``base`` on, so a
    byte offset is placed by the body's line it falls in: where ``body`` is ASCII, found
    around the offset itself (no array of every line: 4 bytes a line were 4 times a
    megabyte of blank lines); else among the lines' byte starts."""
    count = len(tree.kinds)
    if count == 1:
        return
    np = optional_numpy() if count > VECTOR_MIN_BLOCKS else None
    if body.isascii():
        if np is not None:
            _ascii_whole_lines_vectorised(np, tree, body, base)
        else:
            _ascii_to_whole_lines(tree, body, base)
        return
    data = body.encode("utf-8")
    line_starts = _body_line_starts(body, base)
    if np is not None:
        # every line of the body ends in LF (a lone CR was made LF)
        after_newlines = np.flatnonzero(np.frombuffer(data, np.uint8) == ord("\n")) + 1
        body_lines = np.append(0, after_newlines)[: len(line_starts)].astype(tree.starts.typecode)
        _whole_lines_vectorised(np, tree, body_lines, base, line_starts, base + len(body))
        return
    # bytes.splitlines breaks at LF, CRLF and CR only, as CommonMark does
    byte_starts = array("q", accumulate(map(len, data.splitlines(keepends=True)), initial=0))
    del data
    if len(byte_starts) > len(line_starts):
        byte_starts.pop()  # the end of the text is not a line start
    size = base + len(body)

    def line(index: int) -> int:
        """The code point where line ``index`` of ``body`` starts (``size``: none)."""
        return line_starts[index] if index < len(line_starts) else size

    # Most offsets are line starts themselves (nine in ten in documentation): found by a
    # look-up where blocks are many for the lines, the others by binary search.
    dense = len(byte_starts) <= 8 * count + 1024
    line_at = dict(zip(byte_starts, range(len(byte_starts)))) if dense else {}
    starts, ends = tree.starts, tree.ends
    for block in range(1, count):
        found = line_at.get(starts[block])
        starts[block] = line(
            bisect_right(byte_starts, starts[block]) - 1 if found is None else found
        )
        found = line_at.get(ends[block])
        ends[block] = line(bisect_left(byte_starts, ends[block]) if found is None else found)


def _body_line_starts(body: str, base: int) -> array[int]:
    """Where each line of ``body`` starts, as code points of the text (``body`` starts at
    ``base``; the end of the text is not a line start)."""
    ends = line_ending_ends(body)  # (a lone CR was made LF)
    if ends and ends[-1] == len(body):
        ends.pop()
    ends.insert(0, 0)
    return array(ends.typecode, (base + end for end in ends)) if base else ends


def _whole_lines_vectorised(
    np: ModuleType,
    tree: BlockTree,
    body_lines: Any,
    base: int,
    line_starts: array[int],
    size: int,
) -> None:
    """:func:`_to_whole_lines` by numpy, a batch of blocks at a time: each offset is placed
    among the body's line starts in bytes (``body_lines``, an ascending integer array
    starting at 0), whose code points in the text are ``line_starts``. The batches keep
    numpy's arrays small beside the tree."""
    lines = np.frombuffer(line_starts, dtype=line_starts.typecode)
    last_line = len(lines) - 1

    def line_start(index: Any) -> Any:
        """Where each line ``index`` of the body starts; the text's end past the last."""
        return np.where(index <= last_line, lines[np.minimum(index, last_line)], size)

    all_starts = np.frombuffer(tree.starts, dtype=tree.starts.typecode)
    all_ends = np.frombuffer(tree.ends, dtype=tree.ends.typecode)
    for first in range(1, len(all_starts), _VECTOR_BATCH):
        batch = slice(first, first + _VECTOR_BATCH)
        # Searched for in the type of what they are searched in (else numpy converts that)
        starts = body_lines.searchsorted(all_starts[batch], side="right") - 1
        ends = body_lines.searchsorted(all_ends[batch])
        all_starts[batch] = np.where(starts > 0, line_start(starts), base)
        all_ends[batch] = np.where(ends > 0, line_start(ends), base)


class _AsciiLines:
    """The line around an offset of an ASCII body whose lines all end in LF, read from the
    body itself; offsets mostly come in order, and a line read once is not read again (a
    megabyte-long line holding many blocks is read once, not once a block)."""

    __slots__ = ("_after", "_asked", "_body", "_last", "_line", "_read_to")

    def __init__(self, body: str) -> None:
        self._body = body
        self._last = len(body) - 1  # (the end of the body is not a line start)
        self._line = self._read_to = 0  # every offset in [_line, _read_to] is on line _line
        self._asked, self._after = 0, -1  # no LF in [_asked, _after); -1: nothing asked yet

    def start(self, position: int) -> int:
        """Where the line holding ``position`` starts (at the body's end: the last line)."""
        position = min(position, self._last)
        if position < self._line:
            self._line = self._body.rfind("\n", 0, position) + 1
        elif position > self._read_to:
            found = self._body.rfind("\n", self._read_to, position)
            if found >= 0:
                self._line = found + 1
        else:
            return self._line
        self._read_to = position
        return self._line

    def next_start(self, position: int) -> int:
        """The first line start at or after ``position`` (the body's length where none)."""
        if position <= 0:
            return 0
        if not self._asked <= position - 1 <= self._after:
            found = self._body.find("\n", position - 1)
            self._asked, self._after = position - 1, found if found >= 0 else self._last + 1
        return min(self._after + 1, self._last + 1)


def _ascii_to_whole_lines(tree: BlockTree, body: str, base: int) -> None:
    """:func:`_to_whole_lines` where a byte offset of ``body`` is code point ``base +
    offset`` of the text, one block at a time."""
    lines = _AsciiLines(body)
    starts, ends = tree.starts, tree.ends
    for block in range(1, len(starts)):
        starts[block] = base + lines.start(starts[block])
        ends[block] = base + lines.next_start(ends[block])


def _ascii_whole_lines_vectorised(np: ModuleType, tree: BlockTree, body: str, base: int) -> None:
    """:func:`_ascii_to_whole_lines` by numpy, a batch of blocks at a time: the line starts
    between the batch's first and last starts are found in that stretch of the body, the
    line around them by :class:`_AsciiLines` (a long line holding many batches is read
    once, not once a batch); an end past the last start's line (a container's) is placed
    one at a time."""
    lines = _AsciiLines(body)
    size = len(body)
    all_starts = np.frombuffer(tree.starts, dtype=tree.starts.typecode)
    all_ends = np.frombuffer(tree.ends, dtype=tree.ends.typecode)
    for first in range(1, len(all_starts), _VECTOR_BATCH):
        batch = slice(first, first + _VECTOR_BATCH)
        starts, ends = all_starts[batch].astype(np.int64), all_ends[batch].astype(np.int64)
        low, high = int(starts.min()), int(starts.max())
        inside = line_ending_ends(body[low:high])  # line starts in (low, high]
        line_starts = np.empty(len(inside) + 2, np.int64)
        line_starts[0] = lines.start(low)
        line_starts[1:-1] = np.frombuffer(inside, dtype=inside.typecode)
        line_starts[1:-1] += low
        high = line_starts[-1] = lines.next_start(high + 1)
        line_starts = line_starts[line_starts < size]  # the end of the body is no line start
        placed = line_starts.searchsorted(ends)
        new_ends = line_starts[np.minimum(placed, len(line_starts) - 1)]
        new_ends[placed == len(line_starts)] = size
        far = np.flatnonzero(ends > high) if high < size else ()
        for at in far[np.argsort(ends[far], kind="stable")] if len(far) else ():
            new_ends[at] = lines.next_start(int(ends[at]))  # (in order: each line read once)
        all_starts[batch] = line_starts[line_starts.searchsorted(starts, side="right") - 1] + base
        all_ends[batch] = new_ends + base


class Sections(Sequence[Heading]):
    """The headings outside containers (those that open sections), in order, each a
    :class:`Heading` made when it is looked up: the sections are kept as a few arrays (as
    objects, with their texts and lines, they took 90 times a megabyte of one-letter
    headings). ``starts``, ``title_ends``, ``ends`` and ``parents`` are each section's
    :class:`Heading` fields, ``levels`` its heading's level."""

    def __init__(self, tree: BlockTree, size: int) -> None:
        typecode = tree.starts.typecode
        self._tree = tree
        self.blocks = array(typecode)
        self.levels = bytearray()
        self.starts = array(typecode)
        self.title_ends = array(typecode)
        self.ends = array(typecode)
        self.parents = array("i" if typecode == "I" else "q")  # -1 for none
        open_sections: list[int] = []  # indices of the sections still open, outermost first
        for block in tree.children(0):
            if tree.kinds[block] != _HEADING:
                continue
            level, start = tree.marks[block], tree.starts[block]
            while open_sections and self.levels[open_sections[-1]] >= level:
                self.ends[open_sections.pop()] = start
            self.parents.append(open_sections[-1] if open_sections else -1)
            open_sections.append(len(self.blocks))
            self.blocks.append(block)
            self.levels.append(level)
            self.starts.append(start)
            self.title_ends.append(tree.ends[block])
            self.ends.append(size)
        self.holds_every_heading = len(self.blocks) == len(tree.texts.blocks)  # (all have texts)
        if self.holds_every_heading:  # every heading opens a section: its block, kept once
            self.blocks = tree.texts.blocks

    def __len__(self) -> int:
        return len(self.blocks)

    def text(self, index: int) -> str:
        """Section ``index``'s heading text, as rendered."""
        return self._tree.texts.get(self.blocks[index], "")

    @overload
    def __getitem__(self, index: int) -> Heading: ...

    @overload
    def __getitem__(self, index: slice) -> list[Heading]: ...

    def __getitem__(self, index: int | slice) -> Heading | list[Heading]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return Heading(
            self.levels[index],
            self.text(index),
            self.starts[index],
            self.title_ends[index],
            self.ends[index],
            self.parents[index],
        )


@dataclass(frozen=True, slots=True)
class SectionLevel:
    """Cut a region at the coarsest headings inside it (nested: tried again on each part);
    ``fits`` (the budget) lets a section that fits part from a heading alone before it.
    With ``every_heading``, at every heading at once: each part is one section's own text
    (its heading and what comes before the next heading)."""

    layout: MarkdownLayout
    fits: Fits | None = None
    every_heading: bool = False
    recursive = True

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        if self.every_heading:
            return SectionCuts(self.layout, 0, start, end)(text, start, end)
        return _parts(start, end, self.layout.section_cuts(start, end, self.fits))

    def local_for(self, text: str, start: int, end: int) -> SectionCuts | None:
        """A level that finds this one's pieces of ``[start, end)`` in any part of it:
        packing reads it a window at a time (see :mod:`spansplit.packing.windows`), not
        holding a megabyte of one-line sections as 250,000 pieces at once."""
        if self.every_heading:
            return SectionCuts(self.layout, 0, start, end)
        top = self.layout.section_level(start, end, self.fits)
        return None if top is None else SectionCuts(self.layout, top, start, end, self.fits)


@dataclass(frozen=True, slots=True)
class SectionCuts:
    """Cut a part of the region ``[start, end)`` where :class:`SectionLevel` cuts the
    whole region: at its headings of level ``top`` (see
    :meth:`MarkdownLayout.level_cuts`), or at every heading for ``top`` 0."""

    layout: MarkdownLayout
    top: int
    start: int
    end: int
    fits: Fits | None = None

    def __call__(self, text: str, low: int, stop: int) -> list[Span]:
        layout = self.layout
        if self.top:
            cuts = layout.level_cuts(self.top, low, stop, self.start, self.end, self.fits)
        else:
            starts = layout.heading_starts
            cuts = list(starts[bisect_right(starts, low) : bisect_left(starts, stop)])
        return _parts(low, stop, cuts)


@dataclass(frozen=True, slots=True)
class BlockLevel:
    """Cut a region at its blocks, items, rows, lines or sentences (nested); ``fits`` (the
    budget) lets a block that fits part from the headings before it."""

    layout: MarkdownLayout
    fits: Fits | None = None
    recursive = True

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        return _parts(start, end, self.layout.block_cuts(start, end, self.fits))

    def local_for(
        self, text: str, start: int, end: int
    ) -> KidsLevel | HeadingRunLevel | LinesLevel | None:
        """A level that finds this one's pieces of ``[start, end)`` in any part of it,
        where they are cuts between the blocks one block holds or the lines of a code or
        HTML block: packing reads it a window at a time (see
        :mod:`spansplit.packing.windows`), not holding a megabyte of one-letter paragraphs
        as 350,000 pieces at once."""
        block = self.layout.blocks_cut(start, end)
        if block is not None:
            return KidsLevel(self.layout, block, self.fits)
        run = self.layout.heading_run(start, end)
        if run is not None:
            return HeadingRunLevel(self.layout, *run)
        block = self.layout.lines_block(start, end)
        return None if block is None else LinesLevel(self.layout, block)


@dataclass(frozen=True, slots=True)
class KidsLevel:
    """Cut a region between the blocks that block ``block`` holds (see
    :meth:`MarkdownLayout.kid_cuts`): in a part of a region that :class:`BlockLevel` cuts
    there, the same cuts."""

    layout: MarkdownLayout
    block: int
    fits: Fits | None = None

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        return _parts(start, end, list(self.layout.kid_cuts(self.block, start, end, self.fits)))


@dataclass(frozen=True, slots=True)
class HeadingRunLevel:
    """Cut a region between the headings that block ``block`` holds, but before the one
    at ``first`` (see :meth:`MarkdownLayout.heading_run`): in a part of a run of headings
    that :class:`BlockLevel` cuts between them all, the same cuts."""

    layout: MarkdownLayout
    block: int
    first: int

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        starts, low = self.layout.tree.starts, max(start, self.first)
        kids = self.layout.held_blocks(self.block, start, end)
        return _parts(start, end, [starts[kid] for kid in kids if low < starts[kid] < end])


@dataclass(frozen=True, slots=True)
class LinesLevel:
    """Cut a region at the lines of code or HTML block ``block`` (see
    :meth:`MarkdownLayout.line_cuts`): in a part of the block, the cuts
    :class:`BlockLevel` makes there in the whole block."""

    layout: MarkdownLayout
    block: int

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        return _parts(start, end, self.layout.line_cuts(self.block, start, end))


@dataclass(frozen=True, slots=True)
class WordLevel:
    """Cut a region at its words, never inside a heading's lines, which also keep the
    first word after them: where text must be cut between words, no part ends on a
    heading. Where that word fits alone but not with the heading (``fits`` telling), the
    heading stands alone instead of being cut from its underline or in its text; a word
    over budget (a sentence without spaces) is cut anyway, and gives the heading its
    first part."""

    layout: MarkdownLayout
    fits: Fits | None = None

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        inside = self.layout.in_heading_lines
        glued: list[Span] = []
        joins = False  # the last word is a heading's: the next word joins it
        for word_start, own_start, word_end in _after_markers(
            text, word_spans(text, start, end), self.fits
        ):
            heading = inside(own_start)
            if joins and (heading or not _apart(self.fits, glued[-1][0], word_start, word_end)):
                glued[-1] = (glued[-1][0], word_end)
            else:
                glued.append((word_start, word_end))
            joins = heading
        return glued


@dataclass(frozen=True, slots=True)
class BlockSentenceStarts(SentenceStarts):
    """Where overlap may start at a sentence in Markdown: a block's start (a paragraph, an
    item, a heading ...) or a sentence's, but not inside a heading's lines nor inside a
    block that is not cut where it fits (code, a table, an HTML block, a list item):
    packing also ends chunks at these starts (so that the overlap after can start a
    sentence; not right after a heading, see :meth:`ends`) and cuts a piece at them where
    it leaves overlap no room."""

    layout: MarkdownLayout = field(kw_only=True)

    def __call__(self, text: str, low: int, end: int) -> list[int]:
        layout = self.layout
        if layout.inside_one_unit(low, end):
            return []  # (not read into sentences: a code block may be one long paragraph)
        found = set(SentenceStarts.__call__(self, text, low, end))
        found.update(layout.block_starts(low, end))
        return sorted(filter(layout.overlap_may_start, found))

    def ends(self, text: str, low: int, end: int) -> list[int]:
        """The starts a chunk may end before: not right after a heading, which would end
        the chunk (overlap may start there)."""
        follows = self.layout.follows_heading
        return [start for start in self(text, low, end) if not follows(start)]


@dataclass(frozen=True, slots=True)
class AllowedStarts:
    """Where overlap may start in Markdown at one kind of boundary (clauses, words): those
    of ``starts`` that :meth:`MarkdownLayout.overlap_may_start` allows."""

    layout: MarkdownLayout
    starts: StartsLevel

    def __call__(self, text: str, low: int, end: int) -> list[int]:
        return list(filter(self.layout.overlap_may_start, self.starts(text, low, end)))


def overlap_boundaries(layout: MarkdownLayout) -> tuple[StartsLevel, ...]:
    """Where overlap may start in Markdown, best first: blocks and sentences, clauses,
    words (or, in text without spaces, where a line may break)."""
    return (
        BlockSentenceStarts(layout=layout),
        AllowedStarts(layout, clause_starts_from),
        AllowedStarts(layout, word_starts),
    )


def _parts(start: int, end: int, cuts: list[int]) -> list[Span]:
    bounds = [start, *(cut for cut in cuts if start < cut < end), end]
    return list(itertools.pairwise(bounds))
