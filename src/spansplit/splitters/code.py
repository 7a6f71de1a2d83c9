"""Source code split at its syntax: definitions, nested definitions, blocks, lines, words.

:class:`CodeSplitter` is configuration only: a :class:`~spansplit.config.ChunkConfig` and
boundary levels for :func:`~spansplit.packing.pack`: the syntax tree (top-level
definitions and statements, then the parts of any piece over budget: a class's methods, a
function's statements, a block's statements; see :mod:`spansplit.boundaries.code`), then
lines, then words (then grapheme clusters, by packing). It overrides ``_chunks`` only to
parse each text once and to say where each chunk lies (``chunk.metadata``):

* ``symbols``: the symbol path of the deepest definition holding the whole chunk, e.g.
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

from typing import TYPE_CHECKING, Any, Literal

from ..boundaries.code import (
    SyntaxLevel,
    WholeLines,
    grammar_available,
    is_blank,
    load_parser,
    parse_as_code,
)
from ..boundaries.code_languages import CodeLanguage, get_language
from ..boundaries.levels import Level
from ..boundaries.separators import SeparatorLevel, separator_levels
from ..boundaries.words import word_spans
from ..chunk import Chunk
from ..errors import InvalidParameterError
from ..lines import LINE_ENDING
from ..packing import Structure, pack
from ..sizing import LengthSpec
from ..sizing.base import TextMeasurer
from .base import BudgetedSplitter, make_chunks

if TYPE_CHECKING:
    from tree_sitter import Tree

Fallback = Literal["error", "separators"]

LINES: Level = SeparatorLevel(LINE_ENDING.pattern, keep="end", is_regex=True)
"""Whole lines, each with its line ending: the level after the syntax tree, and where
overlap may start."""

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
        (*coarse, LINES, word_spans), isolate=True, overlap_level=LINES, punctuation=False
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
            (syntax, LINES, word_spans),
            overlap_level=LINES,
            punctuation=False,
            overlap_fences=fences,
        )

    def spans(self, text: str) -> list[tuple[int, int, int]]:
        return self._parsed(text)[0]

    def _parsed(self, text: str) -> tuple[list[tuple[int, int, int]], SyntaxLevel | None]:
        """The chunks of one text, by its syntax (returned too) or else by separators
        (without the grammar, or for a text that is not code in the language); the syntax
        tree and packing measure with one measurer. Without trimming, a cut inside an
        over-long line can leave a chunk of spaces alone, which is dropped."""
        measurer = self.length.measurer(text)
        tree = parse_as_code(text, self.info) if self.uses_grammar else None
        syntax = None if tree is None else self.syntax(text, measurer, tree)
        structure = self.structure if syntax is None else self.syntax_structure(syntax)
        spans = pack(text, structure, self.config, measurer=measurer)
        if not self.strip_whitespace:
            spans = [span for span in spans if not is_blank(text, span[0], span[1])]
        return spans, syntax

    def _chunks(self, text: str, source: int, first_index: int) -> list[Chunk]:
        if is_blank(text):  # (a byte order mark alone too)
            return []
        spans, syntax = self._parsed(text)
        language = self.language

        def metadata(start: int, end: int) -> dict[str, Any]:
            symbols, kinds = ([], []) if syntax is None else syntax.describe(start, end)
            return {"language": language, "symbols": symbols, "node_kinds": kinds}

        return make_chunks(
            text, spans, self.kind, source=source, first_index=first_index, metadata=metadata
        )


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
