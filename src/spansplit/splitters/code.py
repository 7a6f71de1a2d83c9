"""Source code split at its syntax: definitions, nested definitions, blocks, lines, words.

:class:`CodeSplitter` is configuration only: a :class:`~spansplit.config.ChunkConfig` and
boundary levels for :func:`~spansplit.packing.pack`: the syntax tree (top-level
definitions and statements, then the parts of any piece over budget: a class's methods, a
function's statements, a block's statements; see :mod:`spansplit.boundaries.code`), then
lines, then words (then grapheme clusters, by packing). It overrides ``_chunks`` only to
parse each text once and to say where each chunk lies (``chunk.metadata``):

* ``symbols``: the symbol path of the deepest definition holding the whole chunk, lines
  that only close what holds it (a ``}``, an ``end``) aside, e.g.
  ``["Parser", "parse_block"]`` (``[]`` at the top level of the file);
* ``node_kinds``: the tree-sitter node types the chunk holds, in order and without
  repeats (a definition's own type when the chunk is one whole definition);
* ``language``: the language's name.

Pieces are packed greedily, so the parts of a definition over budget may share a chunk
with what comes before and after it; its signature comes with its first statement (or
docstring) where both fit, and comments above it with its signature. Grammars come from
the ``spansplit[code]`` extra; without one, the splitter raises
:class:`~spansplit.errors.GrammarUnavailableError` naming what to install, or with
``fallback="separators"`` splits with the language's separator table. A text that is not
code in the language (most of its first lines are syntax errors to the grammar: prose,
data, another language) is split with that table too, in whole lines as well (each cut
of the table moved to a line start).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from ..boundaries.code import (
    ATTACHED_PREFIXES,
    BYTE_ORDER_MARK,
    TOP_LEVEL_LINE,
    SyntaxLevel,
    WholeLines,
    code_sample,
    code_words,
    grammar_available,
    is_blank,
    load_parser,
    tree_from_sample,
)
from ..boundaries.code_languages import CodeLanguage, get_language
from ..boundaries.levels import Level
from ..boundaries.separators import LINE_LEVEL, SeparatorLevel, separator_levels
from ..chunk import Chunk, SizedSpan, Span, after_whitespace, before_whitespace
from ..errors import InvalidParameterError
from ..lines import LINE_ENDING
from ..packing import Structure, pack
from ..sizing import LengthSpec
from ..sizing.base import PartMeasurer, TextMeasurer
from .base import BudgetedSplitter, make_chunks

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

Fallback = Literal["error", "separators"]

LINES: Level = LINE_LEVEL
"""Whole lines, each with its line ending: the level after the syntax tree, and where
overlap may start."""

WINDOW_CHARS = 1 << 13
"""Code points of a long text parsed and packed at a time, about, or :data:`WINDOW_BUDGETS`
budgets where that is more (see :meth:`CodeSplitter._windows`)."""

WINDOW_MIN_NODES = 1 << 10
"""Top-level syntax nodes a text's sample (16K to 64K code points, see
:func:`~spansplit.boundaries.code.code_sample`) must hold for the text to be packed in
windows: code of many tiny statements, whose tree takes up to 190 bytes a code point.
Other code is parsed whole: its tree takes about 20 bytes a code point, and windows cost
time where a definition outgrows one (parsed again, twice as long)."""

WINDOW_BUDGETS = 6
"""Budgets a window holds at least (a budget counted as that many code points): enough
chunks to resume after one, and no more, as a window's tree of tiny statements takes about
190 bytes a code point."""

Describe = Callable[[int, int], tuple[list[str], list[str]]]
"""Where the chunk ``text[start:end]`` lies: its symbol path and node kinds."""

FENCE_DEPTH = 1
"""How deep the definitions go that overlap never crosses (1: top-level ones)."""

_FINE_SEPARATORS = frozenset({r"\n", "\n", " ", ""})
"""The separators of a table that cut lines and words: :data:`LINES` and words instead."""


def separator_structure(language: CodeLanguage) -> Structure:
    """The levels of ``language``'s separator table as whole lines (see
    :class:`~spansplit.boundaries.code.WholeLines`: its definitions, control flow and
    blank lines), then lines, then words. As ``RecursiveSplitter`` packs them, the
    pieces of a piece over budget share no chunk with the pieces around it (packing
    across them measures more: prose given as Python at 6 cl100k tokens took a fifth
    longer); overlap repeats whole lines."""
    table = language.separators
    if table.levels is not None:
        levels = table.levels(table.keep_separator)
    else:
        levels = separator_levels(table.separators, table.regex, table.keep_separator)
    coarse = tuple(
        WholeLines(level)
        for level in levels
        if not (isinstance(level, SeparatorLevel) and level.separator in _FINE_SEPARATORS)
    )
    return Structure(
        (*coarse, LINES, code_words),
        isolate=True,
        overlap_level=LINES,
        punctuation=False,
        heading_lines=False,  # ("# comment" lines are code)
        code=True,
    )


class CodeSplitter(BudgetedSplitter):
    """Split source code at its syntax into chunks of at most ``chunk_size``.

    ``language`` is a name (``"python"``, ``"typescript"``, ``"go"`` ...), an alias
    (``"js"``, ``"c++"``), a LangChain ``Language`` member, or found from a file name with
    :func:`spansplit.language_for_path`. ``chunk_overlap`` repeats whole trailing lines of
    the previous chunk. ``strip_whitespace`` is off by default: chunks are whole lines
    with their indentation and line endings, and the blank lines between chunks are left
    out. ``fallback="separators"`` splits with the language's separator table where its
    grammar is not installed (no ``symbols`` then), instead of raising
    :class:`~spansplit.errors.GrammarUnavailableError`. A text that is not code in the
    language (syntax errors start on more than half of the non-blank lines of about its
    first 64K code points) is split with that table as well, with no ``symbols``; such
    chunks are whole lines too.
    """

    kind = "code"

    def __init__(
        self,
        language: Any,
        chunk_size: int,
        chunk_overlap: int = 0,
        *,
        length: LengthSpec = None,
        strip_whitespace: bool = False,
        fallback: Fallback = "error",
    ) -> None:
        super().__init__(
            chunk_size, chunk_overlap, length=length, strip_whitespace=strip_whitespace
        )
        if fallback not in ("error", "separators"):
            raise InvalidParameterError("fallback", fallback, "must be 'error' or 'separators'")
        self.fallback: Fallback = fallback
        self.language = get_language(language).name
        if fallback == "error":
            load_parser(self.info)  # a missing grammar fails here, naming what to install
        # Without the grammar: the language's separator table, cutting at line starts.
        self.structure = separator_structure(self.info)

    @property
    def info(self) -> CodeLanguage:
        """What spansplit knows of :attr:`language` (grammar, definitions, separators)."""
        return get_language(self.language)

    @property
    def uses_grammar(self) -> bool:
        """Whether this splitter splits by the syntax tree here (else by separators)."""
        return self.fallback == "error" or grammar_available(self.info)

    def syntax(
        self, text: str, measurer: TextMeasurer | None = None, tree: Tree | None = None
    ) -> SyntaxLevel:
        """The syntax level of one text (parsed now, unless its ``tree`` is given), told how
        to check the budget (with ``measurer``, the one packing will measure ``text`` with)."""
        return SyntaxLevel(text, self.info, self.config.span_fits(text, measurer), tree)

    def syntax_structure(self, syntax: SyntaxLevel) -> Structure:
        """The levels for one parsed text: its syntax, then lines, then words; overlap
        stays inside a definition (a chunk that starts at one repeats nothing before it)."""
        fences = (
            sorted({definition.start for definition in syntax.definitions(FENCE_DEPTH)})
            if self.chunk_overlap
            else []
        )
        return Structure(
            (syntax, LINES, code_words),
            overlap_level=LINES,
            punctuation=False,
            overlap_fences=fences,
            heading_lines=False,  # (comments are attached by the syntax tree)
            lead_pieces=syntax.leads,  # (or go with the code after them where they are not)
            code=True,
        )

    def spans(self, text: str) -> list[tuple[int, int, int]]:
        return self._parsed(text)[0]

    def _parsed(self, text: str) -> tuple[list[SizedSpan], Describe | None]:
        """The chunks of one text, by its syntax (with what says where each lies) or else by
        separators (without the grammar, or for a text that is not code in the language).
        A text longer than :data:`WINDOW_CHARS` whose sample ends at a line start and holds
        more than :data:`WINDOW_MIN_NODES` top-level nodes is parsed and packed a window
        at a time (:meth:`_windows`)."""
        sample = code_sample(text, self.info) if self.uses_grammar else None
        if sample is None:
            return self._packed(text, self.structure, self.length.measurer(text)), None
        sample_end, tree = sample
        del sample
        if (
            tree is not None
            and len(text) > WINDOW_CHARS
            and sample_end < len(text)
            and tree.root_node.child_count > WINDOW_MIN_NODES
        ):
            handed, tree = [tree], None  # (the first window takes it, and frees it)
            windowed = self._windows(text, sample_end, handed)
            if windowed is not None:
                return windowed
            # (a window did not resume as the whole text packs: parsed whole)
        return self._whole(text, tree_from_sample(text, self.info, sample_end, tree))

    def _whole(self, text: str, tree: Tree) -> tuple[list[SizedSpan], Describe]:
        """The chunks of ``text`` parsed at once into ``tree``, and where each lies."""
        measurer = self.length.measurer(text)
        syntax = self.syntax(text, measurer, tree)
        return self._packed(text, self.syntax_structure(syntax), measurer), syntax.describe

    def _packed(
        self, text: str, structure: Structure, measurer: TextMeasurer, lead: int | None = None
    ) -> list[SizedSpan]:
        """The chunks of ``text`` by ``structure``; the syntax tree and packing measure with
        one measurer (``lead`` as :func:`~spansplit.packing.pack` has it). Without trimming,
        a cut inside an over-long line can leave a chunk of spaces alone, which is dropped."""
        spans = pack(text, structure, self.config, measurer=measurer, lead=lead)
        if not self.strip_whitespace:
            spans = [
                _after_blank_lines(text, span, measurer)
                for span in spans
                if not is_blank(text, span[0], span[1])
            ]
            # A chunk that was only blank lines more than the next holds (with overlap)
            # is now within it: left out, as it adds nothing.
            spans = [
                span
                for span, after in zip(spans, [*spans[1:], (-1, -1, 0)])
                if not (after[0] <= span[0] and span[1] <= after[1])
            ]
        return spans

    def _windows(
        self, text: str, first_end: int, first_tree: list[Tree]
    ) -> tuple[list[SizedSpan], Describe] | None:
        """The chunks of a long text, a window of about :data:`WINDOW_CHARS` parsed and
        packed at a time, so that memory is bounded by a window's syntax tree (tree-sitter
        takes about 190 bytes a code point for one-letter statements) instead of the text's;
        ``None`` where a window did not resume as the whole text packs (see below).

        Each window ends after a line that starts at the first column; the first is the
        sample :func:`code_sample` parsed, whose tree ``first_tree`` hands over (taken out
        of it, so that it is freed with the first window). All windows measure with one
        measurer of the whole text (a tokenizer's estimates are those of the whole text). A
        window's chunks are taken up to one that starts a top-level piece of the window (not
        one of its last two, which the window's end may have cut, nor after a syntax error),
        where the next window starts (:meth:`_resumption`). Where that chunk repeats nothing
        of the one before, the whole text's packing starts it just as freshly. Where it
        starts with the end of the one before (overlap), the next window must make it and
        the chunk after it as this one did, and then goes on as the whole text's packing
        does (from equal chunks, it plans the same); else ``None``. A window with no such
        chunk (a definition longer than the window, statements all overlapped by a
        tokenizer's count) is parsed again twice as long, and the rest of the text at once
        after two such tries."""
        whole = self.length.measurer(text)
        spans: list[SizedSpan] = []
        described: dict[Span, tuple[list[str], list[str]]] = {}
        least = max(WINDOW_CHARS, WINDOW_BUDGETS * self.chunk_size)
        start, end, size = 0, first_end, least
        tree: Tree | None = first_tree.pop()  # (no reference left here once it is done with)
        scope: tuple[str, ...] = ()
        expected: list[SizedSpan] = []  # the chunks the window must start with
        shared: list[_NodePlace] = []  # the top-level nodes it must start with
        lead: int | None = None  # where the piece before the window's first ends
        while True:
            window = text[start:end]
            measurer = PartMeasurer(whole, start, window)
            syntax = SyntaxLevel(
                window, self.info, self.config.span_fits(window, measurer), tree, scope
            )
            del tree
            found = self._packed(window, self.syntax_structure(syntax), measurer, lead)
            made = [(start + low, start + high, count) for low, high, count in found]
            if made[: len(expected)] != expected or (start and end == len(text) and len(made) < 2):
                # Not resumed as the whole text packs, or a rest that may be one chunk:
                # packing measures a text that may fit whole (a tokenizer's count may be
                # below its pieces'), where in the whole text it is packed piece by piece.
                return None
            if not _same_nodes(shared, syntax.root_node):
                return None  # this window reads its start otherwise (PHP: as HTML)
            try:
                resume = None if end == len(text) else self._resumption(window, syntax, found)
            except _ParsedWhole:
                return None
            if end == len(text) and syntax.root_node.has_error:
                return None  # (see _resumption)
            if end == len(text) or resume is not None:
                taken, piece_start, piece_lead, expected = (
                    (len(found), 0, 0, []) if resume is None else resume[:4]
                )
                for (low, high, count), (chunk_start, chunk_end, _) in zip(made, found[:taken]):
                    spans.append((low, high, count))
                    described[low, high] = syntax.describe(chunk_start, chunk_end)
                if resume is None:
                    return spans, lambda low, high: described.pop((low, high))
                expected = [(start + low, start + high, count) for low, high, count in expected]
                scope = syntax.scope_after(piece_start)
                shared = _nodes_between(syntax, piece_start, resume[4])
                start, size, lead = start + piece_start, least, piece_lead - piece_start
            else:
                size = 2 * max(size, end - start)
            del syntax, found, made
            end = _after_top_level_line(text, start + size)
            if size > 4 * least or len(text) - end < least:
                end = len(text)  # no chunk to resume from: the rest at once, not ever more
            tree = None

    def _resumption(
        self, window: str, syntax: SyntaxLevel, found: list[SizedSpan]
    ) -> tuple[int, int, int, list[SizedSpan], int] | None:
        """Where the next window starts (see :meth:`_windows`): the index in ``found`` of
        the last chunk that starts a top-level piece of ``window`` that is final (neither
        of its last two, comments and decorators at its end aside) after blank lines only;
        that piece's start; where the piece before it ends; the chunks the next window
        must start with; and where the final pieces end. A chunk that repeats nothing of
        the one before it needs none; one that starts with the end of the one before
        (overlap) needs itself and the chunk after it, which must end before the last
        piece whose start is final, and the piece after it must be final too (a chunk
        ends where the next piece does not fit). ``None`` where there is none;
        :class:`_ParsedWhole` where a syntax error starts before the final pieces end."""
        # The root's own parts: where it has one part, packing looks through it (a class
        # that is the whole window), but its members are no place to resume at. Comments
        # and decorators at the window's end may belong to what the window cut off.
        units = syntax.children(syntax.root)
        attachable = self.info.comments | self.info.prefixes
        kept = len(units)
        while (
            kept
            and units[kept - 1].kind in attachable
            and units[kept - 1].attached is None
            and len(units) - kept < ATTACHED_PREFIXES  # (those before go with no unit after)
        ):
            kept -= 1
        if kept < 3:
            return None
        pieces = [(unit.start, unit.end) for unit in units]
        final = pieces[kept - 2][0]
        root = syntax.root_node
        if root.has_error:
            broken = next((child for child in root.children if child.has_error), root)
            if syntax.row_starts[broken.start_point.row] < final:
                # tree-sitter recovers from an error by what surrounds it, which a window
                # starting near it would not have: the text is parsed whole.
                raise _ParsedWhole
        # A chunk start -> the index of the piece it starts (not one that starts with
        # U+FEFF, which a text's start drops as a byte order mark).
        trim, marked = self.strip_whitespace, BYTE_ORDER_MARK in window
        starts = {
            after_whitespace(window, low, high) if trim else low: index
            for index, (low, high) in enumerate(pieces)
            if 0 < low < final and not (marked and window.startswith(BYTE_ORDER_MARK, low))
        }
        piece_ends = [high for _, high in pieces]
        for index in range(len(found) - 1, 0, -1):
            piece = starts.get(found[index][0])
            if piece is None:
                continue
            before = pieces[piece - 1]
            if not is_blank(window, before[1], pieces[piece][0]):
                continue  # lines no unit holds (a heredoc's): the piece may need them
            lead = before_whitespace(window, *before) if self.strip_whitespace else before[1]
            if found[index - 1][1] <= found[index][0]:
                return index, pieces[piece][0], lead, [], final
            if index + 1 < len(found):
                after = bisect_right(piece_ends, found[index + 1][1])
                if after < len(pieces) and pieces[after][0] < final:
                    return index, pieces[piece][0], lead, found[index : index + 2], final
        return None

    def _chunks(self, text: str, source: int, first_index: int) -> list[Chunk]:
        if is_blank(text):  # (a byte order mark alone too)
            return []
        spans, describe = self._parsed(text)
        language = self.language

        def metadata(start: int, end: int) -> dict[str, Any]:
            symbols, kinds = ([], []) if describe is None else describe(start, end)
            return {"language": language, "symbols": symbols, "node_kinds": kinds}

        return make_chunks(
            text, spans, self.kind, source=source, first_index=first_index, metadata=metadata
        )


class _ParsedWhole(Exception):
    """A window's syntax tree says the text is to be parsed whole (see ``_resumption``)."""


_NodePlace = tuple[str, int, int, int, int]
"""A top-level node's type, first row and byte column, last row and byte column."""


def _nodes_between(syntax: SyntaxLevel, start: int, end: int) -> list[_NodePlace]:
    """The top-level nodes of ``syntax``'s text from the line start ``start`` to ``end``
    (those that end by it), rows counted from ``start``'s: what the next window, which starts at
    ``start``, must read there as this one did."""
    rows = syntax.row_starts
    first, last = bisect_right(rows, start) - 1, bisect_right(rows, end) - 1
    cursor = syntax.root_node.walk()
    if cursor.goto_first_child_for_point((first, 0)) is None:  # (``start`` starts a row)
        return []
    places: list[_NodePlace] = []
    while True:
        node = cursor.node
        if node is None:
            break
        (top, left), (bottom, right) = node.start_point, node.end_point
        if bottom > last or (bottom == last and right > 0):
            break
        if top >= first:
            places.append((node.type, top - first, left, bottom - first, right))
        if not cursor.goto_next_sibling():
            break
    return places


def _same_nodes(places: list[_NodePlace], root: Node) -> bool:
    """Whether the first top-level nodes under ``root`` are at ``places``."""
    if not places:
        return True
    cursor = root.walk()
    if not cursor.goto_first_child():
        return False
    for place in places:
        node = cursor.node
        if node is None:
            return False
        (top, left), (bottom, right) = node.start_point, node.end_point
        if (node.type, top, left, bottom, right) != place:
            return False
        if not cursor.goto_next_sibling() and place is not places[-1]:
            return False
    return True


_BLANK_LINES = re.compile(r"(?:[^\S\r\n]*(?:\r\n|\r|\n))+")


def _after_blank_lines(text: str, span: SizedSpan, measurer: TextMeasurer) -> SizedSpan:
    """``span`` without the blank lines it starts with (a blank line inside a docstring,
    where the chunk before it ended), measured again; as it was where that measures more
    (a tokenizer's count need not fall)."""
    start, end, size = span
    blank = _BLANK_LINES.match(text, start, end)
    if blank is None:
        return span
    shorter = measurer.count(blank.end(), end)
    return (blank.end(), end, shorter) if shorter <= size else span


def _after_top_level_line(text: str, position: int) -> int:
    """The end of the first line after ``position`` that starts at the first column (where
    a definition starts, or ends with ``}``), with its line ending; the text's end where
    there is none."""
    found = TOP_LEVEL_LINE.search(text, position)
    if found is None:
        return len(text)
    following = LINE_ENDING.search(text, found.end())
    return len(text) if following is None else following.end()


def split_code(
    text: str,
    language: Any,
    chunk_size: int,
    chunk_overlap: int = 0,
    *,
    length: LengthSpec = None,
    strip_whitespace: bool = False,
    fallback: Fallback = "error",
) -> list[Chunk]:
    """Shortcut for ``CodeSplitter(language, chunk_size, ...).split(text)``."""
    splitter = CodeSplitter(
        language,
        chunk_size,
        chunk_overlap,
        length=length,
        strip_whitespace=strip_whitespace,
        fallback=fallback,
    )
    return splitter.split(text)
