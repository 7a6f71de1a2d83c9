"""Code structure from tree-sitter syntax trees, as one boundary level of whole lines.

:class:`SyntaxLevel` parses a text once and offers its structure to packing as a
recursive level: the top-level definitions and statements of the file, then, inside a
piece over budget, its own parts (a class's header and methods, a function's signature,
docstring and statements, a block's statements), down to single statements, which the
next levels cut at lines and words. Every piece is made of whole lines (a line holding
two statements stays whole), so no chunk starts mid-line unless one line is over budget.
Comments, decorators and attributes on the lines right above a definition or statement
go with it, and a docstring with its signature.

Pieces are found lazily, only for the regions packing asks about, so a file whose
definitions fit is parsed and walked one level deep. Offsets come from the tree's rows
(line numbers), never from its byte offsets, so non-ASCII text needs no conversion.
Grammars are the per-language wheels (``pip install 'spansplit[code]'``), loaded on first
use, one parser per language and thread; nothing is downloaded.
"""

from __future__ import annotations

import importlib
import re
import threading
import warnings
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from ..chunk import Span, after_whitespace, before_whitespace, trim_span
from ..errors import GrammarUnavailableError
from ..lines import LINE_ENDING, line_ending_ends, lone_crs_as_lf
from .code_languages import CodeLanguage
from .levels import Level
from .words import word_spans

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Point, Tree

_THREAD = threading.local()
_BODY_FIELDS = ("body",)
_COMMENTED_BODIES = frozenset({"body", "consequence"})
"""Fields of a statement's body that a comment between its header and it opens (Python's
``for x in y:`` then ``# note``, a ``block``): the comment goes with the body's first
statement, as it would above a statement of a body that it does not precede."""
_FUNCTION_VALUES = frozenset(
    {
        "arrow_function",
        "function_expression",
        "function",
        "generator_function",
        "class",
        "class_expression",
        "function_definition",  # Lua's "function (x) ... end"
        "func_literal",  # Go
        "lambda_literal",  # Kotlin, Swift
        "anonymous_function",  # Kotlin
        "lambda_expression",  # Scala, C++, Java, C#
        "closure_expression",  # Rust
        "anonymous_method_expression",  # C#'s "delegate (int x) {...}"
    }
)
"""Values that make the name they are bound to a definition: function literals."""
_DECLARATOR_NAMES = frozenset(
    {
        "identifier",
        "field_identifier",
        "qualified_identifier",
        "destructor_name",
        "operator_name",
        "type_identifier",
    }
)
_MODIFIERS = "modifiers"
"""The node that holds a definition's annotations with its keywords (Java, Kotlin, Swift)."""

_ACCESSORS = frozenset({"getter", "setter", "willset_didset_block"})
"""The parts of a property that hold code (Kotlin's ``get()``/``set()``, Swift's
``didSet {}``; Swift's computed property has a ``computed_value`` field)."""

_LITERAL_NAMES = frozenset({"init", "deinit", "subscript", "constructor", "this[]"})


BLANK_RUN_CHARS = 256
"""Whitespace after a word, inside a line, that leaves the word level's pieces (see
:func:`code_words`)."""


def code_words(text: str, start: int, end: int) -> list[Span]:
    """The words of a line over budget, each with the spaces after it (:func:`word_spans`),
    but a run of at least :data:`BLANK_RUN_CHARS` whitespace characters after a word is
    in no piece: cut into budgets, it would only make chunks of spaces alone, which are
    dropped, after measuring each of them. Packing reads it a window at a time (a line of
    a megabyte: its words held at once took 43 times the text)."""
    kept: list[Span] = []
    for first, last in word_spans(text, start, end):
        if last - first >= BLANK_RUN_CHARS and text[last - 1].isspace():
            content = before_whitespace(text, first, last)
            if last - content >= BLANK_RUN_CHARS:
                if content > first:
                    kept.append((first, content))
                continue
        kept.append((first, last))
    return kept


def _install_hint(language: CodeLanguage) -> str:
    extra = f"pip install 'spansplit[{language.extra}]'"
    return f"{extra} (or pip install tree-sitter {language.package})"


def load_parser(language: CodeLanguage) -> Parser:
    """A tree-sitter parser for ``language`` (one per language and thread, made on first
    use from the grammar wheel); :class:`GrammarUnavailableError` says what to install."""
    parsers: dict[str, Parser] | None = getattr(_THREAD, "parsers", None)
    if parsers is None:
        parsers = _THREAD.parsers = {}
    parser = parsers.get(language.name)
    if parser is None:
        parser = parsers[language.name] = new_parser(language)
    return parser


def new_parser(language: CodeLanguage) -> Parser:
    """A new parser for ``language`` from its grammar wheel."""
    if language.grammar is None:
        raise GrammarUnavailableError(
            language.name,
            f"no tree-sitter grammar for {language.name!r} works offline; split it with its "
            f"separator table: RecursiveSplitter.from_language({language.name!r}, chunk_size) "
            "or CodeSplitter(..., fallback='separators')",
        )
    module_name, function_name = language.grammar
    try:
        import tree_sitter
    except ImportError as error:
        raise GrammarUnavailableError(
            language.name,
            f"splitting {language.name} code by its syntax needs tree-sitter and the "
            f"{language.package} grammar: {_install_hint(language)}",
        ) from error
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise GrammarUnavailableError(
            language.name,
            f"the {language.name} grammar is not installed: {_install_hint(language)}",
        ) from error
    with warnings.catch_warnings():
        # Some grammar wheels hand the language over as an int (deprecated by tree-sitter).
        warnings.simplefilter("ignore", DeprecationWarning)
        grammar = tree_sitter.Language(getattr(module, function_name)())
    try:
        return tree_sitter.Parser(grammar)
    except ValueError as error:  # a grammar newer than the installed tree-sitter reads
        raise GrammarUnavailableError(
            language.name,
            f"the installed tree-sitter cannot read the {language.package} grammar ({error}): "
            "pip install 'tree-sitter>=0.25'",
        ) from error


def grammar_available(language: CodeLanguage) -> bool:
    """Whether ``language``'s grammar loads here (tree-sitter and its wheel installed)."""
    try:
        load_parser(language)
    except GrammarUnavailableError:
        return False
    return True


def _source(text: str) -> bytes:
    """What tree-sitter parses of ``text``: its UTF-8, each lone CR as LF."""
    return lone_crs_as_lf(text).encode("utf-8")


def _end_point(source: bytes) -> tuple[int, int]:
    """The row and byte column where ``source`` ends."""
    return source.count(b"\n"), len(source) - source.rfind(b"\n") - 1


def parse(text: str, language: CodeLanguage, start: tuple[str, Tree] | None = None) -> Tree:
    """The syntax tree of ``text`` (each lone CR given to the grammar as LF).

    ``start`` is a start of ``text`` that ends at a line start, and its tree (which this
    edits), parsed already: tree-sitter reuses the nodes that the rest of the text leaves
    as they are. Where the start's tree or the result has errors (a start that ends
    inside a string, a rest that does not parse), or the language's grammar does not
    parse on as it parses afresh (``CodeLanguage.parses_on``), the text is parsed afresh:
    such parses were seen to differ from fresh ones."""
    source = _source(text)
    parser = load_parser(language)
    if start is None or start[1].root_node.has_error or not language.parses_on:
        return parser.parse(source)
    head, tree = start
    head_source = _source(head)
    at = _end_point(head_source)
    tree.edit(len(head_source), len(head_source), len(source), at, at, _end_point(source))
    grown = parser.parse(source, tree)
    return parser.parse(source) if grown.root_node.has_error else grown


BYTE_ORDER_MARK = "\ufeff"


def is_blank(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether ``text[start:end]`` holds nothing but whitespace (and the byte order mark
    that may start a text, which marks its encoding: nothing a reader sees)."""
    end = len(text) if end is None else end
    if start == 0 and text.startswith(BYTE_ORDER_MARK):
        start = 1
    return start >= end or text[start:end].isspace()


def _line_start(text: str, start: int, position: int) -> int:
    """The start of the line holding ``position`` (not before ``start``); ``position``
    itself where a line starts there."""
    found = max(text.rfind("\n", start, position), text.rfind("\r", start, position))
    if found < 0:
        return start
    if found + 1 == position and text[found] == "\r" and text.startswith("\n", position):
        return _line_start(text, start, found)  # between the CR and LF of one line ending
    return found + 1


def _next_line_start(text: str, position: int, end: int) -> int:
    """The first line start at or after ``position`` (``end`` where none is before it)."""
    if position == 0 or text[position - 1] == "\n":
        return position
    if text[position - 1] == "\r" and not text.startswith("\n", position):
        return position
    found = LINE_ENDING.search(text, position, end)
    return end if found is None else min(found.end(), end)


@dataclass(frozen=True, slots=True)
class WholeLines:
    """A separator level (see :mod:`.separators`) made to cut at line starts only, for
    code split by its separator table: each cut moves to the start of its line where
    only indentation is before it on that line, else to the next line's start (a
    separator such as ``\\n(?=def )``, kept with the piece after it, would start that
    piece with the line ending of the line before). Blank lines at a piece's edges are
    left out, so every piece is whole lines with their line endings, and the blank lines
    between pieces belong to none (as between the units of :class:`SyntaxLevel`)."""

    level: Level

    @property
    def recursive(self) -> bool:
        return getattr(self.level, "recursive", False) is True

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        cuts = [start]
        for piece_start, _ in self.level(text, start, end)[1:]:
            line = _line_start(text, start, piece_start)
            if text[line:piece_start] and not text[line:piece_start].isspace():
                line = _next_line_start(text, piece_start, end)
            if cuts[-1] < line < end:
                cuts.append(line)
        if len(cuts) == 1:
            return [(start, end)]
        cuts.append(end)
        pieces = []
        for piece_start, piece_end in pairwise(cuts):
            skip = piece_start == 0 and text.startswith(BYTE_ORDER_MARK)
            first = after_whitespace(text, piece_start + skip, piece_end)
            if first == piece_end:
                continue  # blank lines only
            last = before_whitespace(text, first, piece_end)
            pieces.append(
                (_line_start(text, piece_start, first), _next_line_start(text, last, piece_end))
            )
        return pieces


SAMPLE_CHARS = 1 << 16
"""How much of a text (about its first this many code points) is parsed to decide whether
it is code in the language at all (see :func:`code_sample`)."""

DENSE_SAMPLE_LINES = 1 << 12
"""Lines in the first :data:`SAMPLE_CHARS` code points (16 code points a line) above which
the sample is a quarter as long: tree-sitter's tree of such code (one-letter statements)
takes up to 190 bytes a code point, and the sample is parsed before any window is."""

NOT_CODE_ERROR_LINES = 0.5
"""A sample with syntax errors starting on more than this share of its non-blank lines is
not code in the language: prose, data, or another language."""

TOP_LEVEL_LINE = re.compile(r"(?:\r\n|\r|\n)(?=\S)")
"""A line ending before a line that starts at its first column: where a sample may end
outside any construct (a string, a bracket, an indented body)."""


def _errors(tree: Tree) -> list[Node]:
    """The tree's ``ERROR`` nodes, nested ones too, an outer one first: a walk that enters
    only nodes holding an error. (A query for them took time quadratic in the length of a
    run of siblings: 2.9 s for one line of 64K unclosed brackets, this walk 0.01 s.)"""
    found: list[Node] = []
    cursor = tree.root_node.walk()
    while True:
        node = cursor.node
        if node is None:  # pragma: no cover - a cursor always stands on a node
            return found
        if node.type == "ERROR":
            found.append(node)
        if not (node.has_error and cursor.goto_first_child()):
            while not cursor.goto_next_sibling():
                if not cursor.goto_parent():
                    return found


def error_line_share(text: str, tree: Tree, language: CodeLanguage) -> float:
    """The share of the non-blank lines of ``text`` (which ``tree`` was parsed from) on
    which an ``ERROR`` node starts (0.0 for a tree without errors). Lines an error node
    only spans are not counted: tree-sitter may wrap a long stretch of good code around
    one error. Python's standard library and site-packages (11,170 files) and 6,912
    JavaScript files: 0 each; English prose as Python 0.3–0.8, Chinese 1.0."""
    errors = _errors(tree)
    if not errors:
        return 0.0
    content = [bool(line.strip()) for line in lone_crs_as_lf(text).split("\n")]
    rows = {node.start_point.row for node in errors}
    return sum(1 for row in rows if row < len(content) and content[row]) / max(1, sum(content))


def code_sample(text: str, language: CodeLanguage) -> tuple[int, Tree | None] | None:
    """Whether ``text`` is code in ``language``, from a sample of it: ``None`` when syntax
    errors start on more than :data:`NOT_CODE_ERROR_LINES` of the sample's non-blank
    lines, else where the sample ends and its tree (``None`` where the sample had to be
    cut inside a line: its tree is not the start of the text's). Such a text is split by
    lines and words instead, and where the sample is short of the text only the sample
    is parsed: prose or data given as code costs neither tree-sitter's error recovery
    over all of it nor its tree's memory.

    The sample is the text up to its last line in the first :data:`SAMPLE_CHARS` code
    points (a quarter as many where the lines there are many, see
    :data:`DENSE_SAMPLE_LINES`), after the first quarter of them, that starts at the first
    column: outside any construct but a string or comment whose lines start there. Where
    one line runs through all that quarter to the end of the sample, the sample is cut
    inside it, and code cut short holds one ``ERROR`` node (what the cut left open) where
    prose or data holds more than one a KB. Where lines there are all indented (one
    construct spans them), the whole text is the sample."""
    limit = SAMPLE_CHARS
    if text.count("\n", 0, limit) > DENSE_SAMPLE_LINES:
        limit //= 4
    sample_end = len(text)
    if sample_end > limit:
        low = limit // 4
        for found in TOP_LEVEL_LINE.finditer(text, low, limit):
            sample_end = found.end()
        if sample_end == len(text) and LINE_ENDING.search(text, low, limit) is None:
            cut = parse(text[:limit], language)
            return None if len(_errors(cut)) > limit >> 10 else (limit, None)
    sample = text[:sample_end]
    tree = parse(sample, language)
    if error_line_share(sample, tree, language) > NOT_CODE_ERROR_LINES:
        return None
    return sample_end, tree


def parse_as_code(text: str, language: CodeLanguage) -> Tree | None:
    """The syntax tree of ``text``, or ``None`` when it is not code in ``language`` (see
    :func:`code_sample`). Code longer than its sample is parsed on from the sample's tree."""
    found = code_sample(text, language)
    return None if found is None else tree_from_sample(text, language, *found)


def tree_from_sample(text: str, language: CodeLanguage, sample_end: int, tree: Tree | None) -> Tree:
    """The syntax tree of ``text``, parsed on from the tree of its sample (see
    :func:`code_sample`), or afresh where the sample was cut inside a line."""
    if tree is None:
        return parse(text, language)
    return tree if sample_end == len(text) else parse(text, language, (text[:sample_end], tree))


def _text(node: Node | None) -> str | None:
    if node is None or node.text is None:
        return None
    return node.text.decode("utf-8", "replace")


def _declarator_name(node: Node) -> tuple[str, ...] | None:
    """The name at the end of a C/C++ declarator chain (pointer, reference, parenthesized,
    function declarator ...), a qualified one as its parts (``geo::Point::norm`` as
    ``("geo", "Point", "norm")``, the path of a method declared in its class); a
    conversion operator as ``operator <type>``."""
    current = node.child_by_field_name("declarator")
    while current is not None and current.type not in _DECLARATOR_NAMES:
        if current.type == "operator_cast":
            type_name = _text(current.child_by_field_name("type"))
            return None if type_name is None else (f"operator {type_name}",)
        inner = current.child_by_field_name("declarator")
        if inner is None:  # a reference or parenthesized declarator: its declarator unnamed
            inner = next(
                (
                    child
                    for child in current.named_children
                    if child.type in _DECLARATOR_NAMES or child.type.endswith("declarator")
                ),
                None,
            )
        current = inner
    if current is not None and current.type == "qualified_identifier":
        return _qualified_name(current)
    name = _text(current)
    return None if name is None else (name,)


def _qualified_name(node: Node) -> tuple[str, ...] | None:
    """A qualified name as its scopes and its name (``geo::Point::norm`` as ``("geo",
    "Point", "norm")``, ``P::operator bool`` as ``("P", "operator bool")``)."""
    parts: list[str] = []
    current: Node | None = node
    while current is not None and current.type == "qualified_identifier":
        scope_node = current.child_by_field_name("scope")
        if scope_node is not None and scope_node.type == "template_type":
            # "Poly<double>::area", a specialization's member: in Poly, as Poly's own are
            scope_node = scope_node.child_by_field_name("name") or scope_node
        scope = _text(scope_node)
        if scope:
            parts.append(scope)
        current = current.child_by_field_name("name")
    if current is not None and current.type == "operator_cast":
        type_name = _text(current.child_by_field_name("type"))
        name = None if type_name is None else f"operator {type_name}"
    else:
        name = _text(current)
    if name is None:
        return None
    return (*parts, name)


def _go_method(node: Node) -> tuple[str, ...] | None:
    """``(Type, Method)`` for a Go method, from its receiver's type."""
    name = _text(node.child_by_field_name("name"))
    if name is None:
        return None
    receiver = node.child_by_field_name("receiver")
    for parameter in receiver.named_children if receiver is not None else ():
        type_text = _text(parameter.child_by_field_name("type"))
        if type_text:
            return (type_text.lstrip("*").split("[")[0].strip(), name)
    return (name,)


def _holds_functions(value: Node) -> bool:
    """Whether ``value`` is an object literal with a method or a function among its
    members (``const api = { parse() {}, render: () => {} }``: a namespace of functions;
    Lua's table ``{ render = function () end }``)."""
    return value.type in ("object", "table_constructor") and any(
        member.type == "method_definition"
        or (
            member.type in ("pair", "field")
            and (inner := member.child_by_field_name("value")) is not None
            and inner.type in _FUNCTION_VALUES
        )
        for member in value.named_children
    )


def _wraps_function(value: Node) -> bool:
    """Whether ``value`` passes a function to a plain function's call, not to a method of
    a value (``items.map((x) => x * 2)``). Assigned to a capitalised name, such a call
    defines a component (React's ``const Fancy = forwardRef((props, ref) => {...})``,
    ``React.memo(function () {})``); to another name it mostly gives data
    (``setTimeout(...)``, ``useMemo(...)``, ``JSON.parse(text, reviver)``)."""
    if value.type != "call_expression":
        return False
    callee = value.child_by_field_name("function")
    if callee is None:
        return False
    if callee.type == "member_expression":  # a module's or a class's function: React.memo
        owner = callee.child_by_field_name("object")
        name = _text(owner) if owner is not None and owner.type == "identifier" else None
        if not name or not name[0].isupper():
            return False
    elif callee.type != "identifier":
        return False
    arguments = value.child_by_field_name("arguments")
    return arguments is not None and any(
        argument.type in _FUNCTION_VALUES for argument in arguments.named_children
    )


def _scopes_file(item: _Item, language: CodeLanguage) -> bool:
    """Whether ``item`` is a namespace without a body, which scopes the rest of the file
    (see ``CodeLanguage.file_scopes``)."""
    return item.type in language.file_scopes and item.node.child_by_field_name("body") is None


def definition_name(node: Node, language: CodeLanguage) -> tuple[str, ...] | None:
    """The symbol path elements a definition node adds (usually its name), or ``None``
    when ``node`` is not a definition of ``language`` (wrappers name their inner one)."""
    if node.type in language.wrappers:
        inner = _wrapped_definition(node, language)
        return None if inner is None else definition_name(inner, language)
    rule = language.definitions.get(node.type)
    if rule is None:
        return None
    name: str | None
    if rule == "name":
        name = _text(node.child_by_field_name("name"))
    elif rule == "optional_name":
        name = _text(node.child_by_field_name("name")) or "(anonymous)"
    elif rule == "with_body":
        if node.child_by_field_name("body") is None:
            return None
        name = _text(node.child_by_field_name("name")) or "(anonymous)"
    elif rule == "declarator":
        return _declarator_name(node)
    elif rule == "variable":
        name = next(
            (
                _text(target)
                for declarator in node.named_children
                if declarator.type == "variable_declarator"
                and (target := declarator.child_by_field_name("name")) is not None
                and target.type == "identifier"  # (not "[count, setCount]" destructured)
                and (value := declarator.child_by_field_name("value")) is not None
                and (
                    value.type in _FUNCTION_VALUES
                    or _holds_functions(value)
                    or (_wraps_function(value) and (_text(target) or "")[:1].isupper())
                )
            ),
            None,
        )
    elif rule == "field":
        value = node.child_by_field_name("value")
        if value is None or value.type not in _FUNCTION_VALUES:
            return None
        name = _text(
            node.child_by_field_name("name")
            or node.child_by_field_name("property")
            or node.child_by_field_name("key")  # an object's pair: "render: function () {}"
        )
    elif rule == "assignment":  # CommonJS: "module.exports.format = function () {}"
        value = node.child_by_field_name("right")
        if value is None or value.type not in _FUNCTION_VALUES:
            return None
        target = node.child_by_field_name("left")
        if target is not None and target.type == "member_expression":
            target = target.child_by_field_name("property")
        name = _text(target)
    elif rule == "accessors":  # Swift's "var area: Double { … }", Kotlin's "get() { … }"
        if node.child_by_field_name("computed_value") is None and not any(
            child.type in _ACCESSORS or child.type in _FUNCTION_VALUES
            for child in node.named_children
        ):
            return None  # (a stored property: data, as a Python attribute is)
        found = node.child_by_field_name("name")
        if found is None:  # Kotlin: "val area: Double"
            declared = next(
                (c for c in node.named_children if c.type == "variable_declaration"), None
            )
            found = None if declared is None else declared.named_child(0)
        name = _text(found)
    elif rule == "closure":  # a name bound to a function literal (see _bound_function)
        name = _bound_function(node, language)
    elif rule == "go_method":
        return _go_method(node)
    elif rule == "namespace":  # C++'s "namespace a::inline b {" as ("a", "b"); or anonymous
        scopes = (_text(node.child_by_field_name("name")) or "(anonymous)").split("::")
        return tuple(_INLINE.sub("", scope.strip()) for scope in scopes)
    elif rule == "lua_table":  # "ui = { render = function () end }" (with "local" too)
        targets, values = node.named_children[0], node.named_children[-1]
        target, value = targets.named_child(0), values.named_child(0)
        if target is None or value is None or not _holds_functions(value):
            return None
        return _qualified_parts(_text(target))
    elif rule == "dotted":  # Lua's "function M:f()", Ruby's "A::B", C#'s "namespace A.B"
        found = node.child_by_field_name("name")
        if found is None or found.type != "string":
            return _qualified_parts(_text(found))
        name = _text(found)  # (TypeScript's 'declare module "a.b"': one name, unquoted)
    elif rule == "go_type":  # "type A struct {...}"; a group "type ( A ...; B ... )" is none
        specs = _go_type_specs(node)
        name = _text(specs[0].child_by_field_name("name")) if len(specs) == 1 else None
    elif rule == "go_type_spec":  # a type of a group (one alone is named by its declaration)
        name = _text(node.child_by_field_name("name")) if _in_type_group(node) else None
    elif rule == "rust_impl":
        # The type without its generic arguments, as its struct is named: Lexer, not Lexer<'a>
        type_node = node.child_by_field_name("type")
        if type_node is not None and type_node.type == "generic_type":
            type_node = type_node.child_by_field_name("type") or type_node
        type_name = _text(type_node)
        trait = _text(node.child_by_field_name("trait"))
        name = f"{trait} for {type_name}" if trait else type_name
    elif rule == "singleton":  # Ruby's "class << self": its methods are the class's own
        receiver = _text(node.child_by_field_name("value"))
        return () if receiver in (None, "self") else (receiver,)  # ("class << obj": obj's)
    elif rule == "companion":
        name = _text(node.child_by_field_name("name")) or "Companion"
    elif rule == "operator":  # C#: "operator+", a conversion "operator decimal" (as C++)
        symbol = _text(node.child_by_field_name("operator"))
        converted = _text(node.child_by_field_name("type"))
        name = f"operator{symbol}" if symbol else f"operator {converted}" if converted else None
    elif rule in _LITERAL_NAMES:
        name = rule
    else:  # pragma: no cover - a table entry with an unknown rule
        raise AssertionError(f"unknown naming rule {rule!r} for {node.type}")
    return None if name is None else (_unquoted(name),)


_DECLARATORS = frozenset(
    {"var_spec", "var_spec_list", "variable_declaration", "variable_declarator", "init_declarator"}
)
"""The nodes between a declaration and the one name it declares (Go's ``var_spec``, C#'s
``variable_declaration``, Java's ``variable_declarator``, C++'s ``init_declarator``)."""
_BOUND_NAMES = ("name", "pattern", "left", "declarator")
_BOUND_VALUES = ("value", "right", "default_value")  # (C++'s member: "default_value")


def _bound_function(node: Node, language: CodeLanguage) -> str | None:
    """The name that a declaration of one name binds to a function literal: Go's ``var h
    = func() {…}`` and ``h := func() {…}``, Rust's ``let f = |x| {…}``, Scala's ``val f =
    (x: Int) => …``, C++'s ``auto f = [](int x) {…}``, Java's and C#'s ``f = x -> {…}``;
    ``None`` for data, a destructuring pattern or several names (``a, b := …``)."""
    if not _may_bind_function(node, language):
        return None
    spec = node
    while True:
        inner = [child for child in spec.named_children if child.type in _DECLARATORS]
        if not inner:
            break
        if len(inner) > 1:
            return None  # (a group of several)
        spec = inner[0]
    target = next(filter(None, map(spec.child_by_field_name, _BOUND_NAMES)), None)
    value = next(filter(None, map(spec.child_by_field_name, _BOUND_VALUES)), None)
    if value is None and target is not None and spec.named_child_count > 1:
        value = spec.named_children[-1]  # C#'s declarator: "f = x => …", no field
    # Go's lists of one (`h := func…`); Scala's lambda in braces, "val k = { (x: Int) => x }"
    target, value = _one_inside(target, "expression_list"), _one_inside(value, "expression_list")
    value = _one_inside(value, "block")
    if target is None or target.type not in ("identifier", "field_identifier"):
        return None
    if value is None or value.type not in _FUNCTION_VALUES:
        return None
    return _text(target)


def _may_bind_function(node: Node, language: CodeLanguage) -> bool:
    """Whether declaration ``node``'s text holds one of the language's ``closure_marks``
    (all of them where it has none): else it binds no function literal."""
    marks = language.closure_marks
    if not marks:
        return True
    text = node.text
    return text is not None and any(mark in text for mark in marks)


def _one_inside(node: Node | None, wrapper: str) -> Node | None:
    """``node``'s one named part where ``node`` is a ``wrapper`` (``None`` where it holds
    several), else ``node``."""
    if node is None or node.type != wrapper:
        return node
    return node.named_child(0) if node.named_child_count == 1 else None


_INLINE = re.compile(r"^inline\s+")
"""C++20's ``inline`` before a part of a nested namespace's name (``a::inline b``)."""

_QUALIFIERS = re.compile(r"::|[.:\\]")
"""What separates the parts of a qualified name in the languages named by ``dotted``."""


def _qualified_parts(name: str | None) -> tuple[str, ...] | None:
    """``M.sub.f``, ``M:f``, ``A::B`` or PHP's ``App\\Models`` as its parts; ``None`` where
    one is empty (PHP's global ``namespace {}``: no scope of its own)."""
    parts = tuple(part.strip() for part in _QUALIFIERS.split(name)) if name else ()
    return parts if parts and all(parts) else None


def _unquoted(name: str) -> str:
    """A name written as a string literal (TypeScript's ``declare module "fs"``, a quoted
    object key) without its quotes, as the symbol it names."""
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "\"'`":
        return name[1:-1]
    return name


_GO_TYPE_SPECS = ("type_spec", "type_alias")


def _go_type_specs(node: Node) -> list[Node]:
    """The types that Go's ``type`` declaration ``node`` declares (one, or a group's)."""
    return [spec for spec in node.named_children if spec.type in _GO_TYPE_SPECS]


def _in_type_group(spec: Node) -> bool:
    """Whether the Go type ``spec`` has another beside it in its declaration (comments
    aside): found from its neighbours, as a group may declare thousands."""
    return _beside_spec(spec, backwards=True) or _beside_spec(spec, backwards=False)


def _beside_spec(spec: Node, backwards: bool) -> bool:
    sibling = spec.prev_named_sibling if backwards else spec.next_named_sibling
    while sibling is not None and sibling.type == "comment":
        sibling = sibling.prev_named_sibling if backwards else sibling.next_named_sibling
    return sibling is not None and sibling.type in _GO_TYPE_SPECS


def _wrapped_definition(node: Node, language: CodeLanguage) -> Node | None:
    """The definition inside a wrapper node (decorators, ``export``, ``template<>``); a
    declaration that binds no function literal (C++'s ``template <class T> T f(T);``) is
    none, so the wrapper keeps its own kind."""
    for child in node.named_children:
        if child.type in language.wrappers or _is_definition(child, language):
            return child
    return None


def _is_definition(node: Node, language: CodeLanguage) -> bool:
    """Whether ``node`` is of a definition's type and, where that type is a declaration
    (the ``closure`` rule: Go's ``x := …``, C++'s ``int x = …;``), binds a function literal;
    other declarations are statements."""
    rule = language.definitions.get(node.type)
    return rule is not None and (rule != "closure" or _bound_function(node, language) is not None)


@dataclass(slots=True)
class _Item:
    """One node placed in a row range; ``owner`` is the definition whose header it is.
    ``type`` and ``named`` are the node's, read once (each read makes a Python object)."""

    node: Node
    first: int
    last: int
    owner: str | None
    type: str
    named: bool


class Unit:
    """A run of whole lines of the text holding one or more syntax nodes.

    ``start``/``end`` are code point offsets of its first line's start and its last
    line's end; ``kind`` is the type of its main node (a wrapped definition's own type;
    ``""`` for punctuation alone); ``name`` the symbol path elements it adds (a
    definition's name, else empty). ``children`` are found on first use: from ``items``
    (the nodes on its lines); for two units made one (``joined``: a signature and its
    docstring, comments and what they precede), those two; for a definition with
    comments above it (``attached``: the comment units and the definition's own unit) as
    described in :meth:`SyntaxLevel.children`.
    """

    __slots__ = (
        "attached",
        "children",
        "end",
        "first",
        "items",
        "joined",
        "kind",
        "last",
        "name",
        "start",
    )

    def __init__(
        self,
        start: int,
        end: int,
        first: int,
        last: int,
        kind: str,
        name: tuple[str, ...],
        items: list[_Item],
        attached: tuple[list[Unit], Unit] | None = None,
        joined: tuple[Unit, Unit] | None = None,
    ) -> None:
        self.start = start
        self.end = end
        self.first = first
        self.last = last
        self.kind = kind
        self.name = name
        self.items = items
        self.attached = attached
        self.joined = joined
        self.children: list[Unit] | None = None

    def __repr__(self) -> str:
        return f"Unit({self.start}, {self.end}, {self.kind!r}, {self.name!r})"


ATTACHED_PREFIXES = 64
"""Comment and prefix units (decorators, attributes) right above a unit that go with it, at
most: a longer run's earlier ones are units of their own, so that packing a window at a
time can resume inside a run of comments (a file of comments alone, or commented-out code)."""

LINE_DEPTH = 256
"""Enclosing syntax nodes looked at to name the definitions that hold a piece of a line."""


def _may_be_header(unit: Unit) -> bool:
    """Whether ``unit`` may be a signature (see ``SyntaxLevel._is_header``), alone or
    joined with what follows it: not where its first node is a named one that no
    definition owns (a statement: most units), nor where it holds no nodes of its own (a
    definition with the comments above it attached)."""
    items = unit.items
    return bool(items) and (items[0].owner is not None or not items[0].named)


def _one_line(unit: Unit) -> bool:
    """Whether ``unit`` is one line of nodes (not two units joined): such a line has no
    parts of whole lines, as the nodes on it make one unit again down to the leaves, so
    finer levels cut it when it is over budget."""
    return unit.first == unit.last and unit.joined is None and unit.attached is None


@dataclass(frozen=True, slots=True)
class Definition:
    """A definition found in a text: its symbol path, node kind and span (whole lines,
    leading comments, decorators and attributes included)."""

    path: tuple[str, ...]
    kind: str
    start: int
    end: int
    own_start: int  # where the definition's own first line starts (after its comments)


class SyntaxLevel:
    """The syntax tree of one text as a recursive boundary level (see the module
    docstring), and where each chunk lies in it (:meth:`describe`).

    Made per text by the code splitter (it holds the tree, so it is never pickled).
    ``fits(start, end)`` says whether a span is within the budget: the one question of
    size the level asks, for a definition with comments above it that is over budget
    with them (see :meth:`children`); without it, such a definition is kept whole.
    ``tree`` is the text's tree when it was parsed already (:func:`parse_as_code`).
    ``scope`` is the name of a namespace declared before ``text`` that scopes all of it
    (a later part of a C# file after ``namespace N;``, split on its own).
    """

    recursive = True

    def __init__(
        self,
        text: str,
        language: CodeLanguage,
        fits: Callable[[int, int], bool] | None = None,
        tree: Tree | None = None,
        scope: tuple[str, ...] = (),
    ) -> None:
        self.text = text
        self.language = language
        self.fits = fits
        if tree is None:
            tree = parse(text, language)
        self.row_starts = line_ending_ends(text)  # 4 bytes a row, where a list takes 36
        self.row_starts.insert(0, 0)
        root = tree.root_node
        self._tree = tree  # nodes stay valid while the tree lives
        self.root_node = root
        last_row = len(self.row_starts) - 1
        self.root = Unit(
            0,
            len(text),
            0,
            last_row,
            root.type,
            (),
            [_Item(root, 0, last_row, None, root.type, root.is_named)],
        )
        self._by_span: dict[Span, Unit] = {(0, len(text)): self.root}
        # Node types whose unit is not simply of their own kind with no name.
        self._closures = frozenset(
            kind for kind, rule in language.definitions.items() if rule == "closure"
        )
        self._special_kinds = (
            language.comments
            | language.prefixes
            | language.wrappers
            | language.statement_wrappers
            | set(language.definitions)
        )
        self._descent = _Descent(text)
        self._leading_units: dict[int, Unit] = {}  # see leads: by each of their rows
        self._content_ends: dict[int, tuple[Unit, int]] = {}  # see _content_end
        self._last_byte = (0, 0)  # a code point offset and its UTF-8 offset (see _byte)
        self._line: _Line | None = None  # the line unit whose pieces were described last
        # See _file_scopes; an inherited scope holds every chunk up to the first scope of
        # the text's own (each starts at or after 0 and ends after 0).
        self._inherited = scope
        self._scopes: list[tuple[int, int, tuple[str, ...]]] | None = None

    # -- the level ----------------------------------------------------------------------

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        unit = self._by_span.get((start, end))
        if unit is None and start == 1 and text.startswith(BYTE_ORDER_MARK):
            unit = self._by_span.get((0, end))  # packing trims a byte order mark as blank
        if unit is None:
            return [(start, end)]
        children = self._parts(unit)
        if not children:
            return [(start, end)]
        return self._cover(start, end, [(child.start, child.end) for child in children])

    def _cover(self, start: int, end: int, spans: list[Span]) -> list[Span]:
        """``spans`` clipped to ``[start, end)``, with any text between them that is not
        blank (a token outside every part) as parts of its own, so nothing is lost."""
        text = self.text
        out: list[Span] = []
        position = start
        clip = bool(spans) and (spans[0][0] < start or spans[-1][1] > end)  # (units ascend)
        for piece_start, piece_end in spans:
            if clip:
                piece_start, piece_end = max(piece_start, start), min(piece_end, end)
            if piece_start >= piece_end:
                continue  # (a unit of a missing node only, at the end)
            if piece_start > position and not is_blank(text, position, piece_start):
                out.append((position, piece_start))
            out.append((piece_start, piece_end))
            position = piece_end
        if end > position and not is_blank(text, position, end):
            out.append((position, end))
        return out

    def _parts(self, unit: Unit) -> list[Unit]:
        """The children of ``unit``, looking through a unit whose only child holds all of
        its text but blank lines."""
        while True:
            if _one_line(unit):
                return []
            sole = self._sole_part(unit)
            if sole is None:
                return self.children(unit)
            unit = sole

    def _sole_part(self, unit: Unit) -> Unit | None:
        """The one child of ``unit`` where it holds all of its text but blank lines."""
        children = self.children(unit)
        if len(children) != 1:
            return None
        child, text = children[0], self.text
        before, after = text[unit.start : child.start], text[child.end : unit.end]
        if (before and not before.isspace()) or (after and not after.isspace()):
            return None
        return child

    def children(self, unit: Unit) -> list[Unit]:
        """The parts of ``unit`` (made once), each registered for later look-ups.

        A definition with comments (or attributes, decorators) right above it splits
        into the comments and the whole definition when the definition alone fits, so
        that it stays whole; otherwise the comments join the definition's first part (its
        signature), so that they are never apart from it.
        """
        if unit.children is None:
            if unit.joined is not None:
                unit.children = list(unit.joined)
            elif unit.attached is not None:
                unit.children = self._with_comments(*unit.attached)
            else:
                items: list[_Item] = []
                language = self.language
                for item in unit.items:
                    node = item.node
                    if item.type in language.statement_wrappers:
                        node = self._statement_definition(node) or node
                    self._flatten(node, items, node.type in language.wrappers or node != item.node)
                if items and items[0].first < unit.first:  # (annotations above, apart)
                    items = [
                        _Item(
                            it.node, max(it.first, unit.first), it.last, it.owner, it.type, it.named
                        )
                        for it in items
                        if it.last >= unit.first
                    ]
                unit.children = self._units(items)
            for child in unit.children:
                if not _one_line(child):  # (a unit of one line has no parts to look up)
                    self._register(child)
        return unit.children

    def _with_comments(self, prefix: list[Unit], main: Unit) -> list[Unit]:
        """The parts of a definition with comments above it (see :meth:`children`): the
        comments and the definition where it fits, else the comments with as much of its
        first part (a signature, with its docstring where that fits too) as fits."""
        fits = self.fits
        if fits is not None and fits(main.start, main.end):
            # Attributes right above the definition (Rust's ``#[derive(...)]``) stay with it
            # where they fit together, the comments above them apart.
            kept = len(prefix)
            while kept > 0 and prefix[kept - 1].kind in self.language.prefixes:
                kept -= 1
            if 0 < kept < len(prefix) and fits(prefix[kept].start, main.end):
                attributes = prefix[kept:]
                with_attributes = Unit(
                    attributes[0].start,
                    main.end,
                    attributes[0].first,
                    main.last,
                    main.kind,
                    (),
                    [],
                    (attributes, main),
                )
                return [self._leading(self._joined(prefix[:kept])), with_attributes]
        head = self._joined(prefix)
        if fits is None or fits(main.start, main.end):
            return [self._leading(head), main]
        inner = self._parts(main)
        if not inner or not inner[0].items or inner[0].name:
            return [self._leading(head), main]
        first, rest = inner[0], inner[1:]
        # A signature joined with its first statements: with as many of them as fit.
        part, peeled = first, list[Unit]()
        while not fits(head.start, part.end) and part.joined is not None:
            part, after = part.joined
            peeled.insert(0, after)
        if part is not first and fits(head.start, part.end):
            first, rest = part, [*peeled, *rest]
        if fits(head.start, first.end):
            leads = bool(rest) and self._leads_as_header(first, head, rest[0])
            joined = self._join(head, first)  # (a signature alone: see _lead_after_header)
            return [self._leading(joined) if leads else joined, *rest]
        leads = bool(rest) and self._leads_as_header(first, first, rest[0])
        return [self._leading(head), self._leading(first) if leads else first, *rest]

    def _leading(self, unit: Unit) -> Unit:
        """``unit`` (comments or prefixes above code, apart from it), marked so that
        :meth:`leads` says it goes with what follows it."""
        for row in range(unit.first, unit.last + 1):
            self._leading_units[row] = unit
        return unit

    def leads(self, text: str, start: int, end: int) -> bool:
        """Whether ``text[start:end]`` (``text`` is this level's) lies in a unit of comments
        or prefixes above code that is not attached to it (those of a definition that does
        not fit with them, a section's comment): packing then ends a chunk before such
        pieces rather than after them, so that they go with the code they are about (a
        comment cut into a few pieces, its words or lines: these too). Units are marked as
        they are made, before packing reads their pieces."""
        if not self._leading_units or end <= start:
            return False
        unit = self._leading_units.get(bisect_right(self.row_starts, start) - 1)
        return unit is not None and unit.start <= start and end <= unit.end

    def _joined(self, units: list[Unit]) -> Unit:
        """One unit of adjacent ``units`` (comment and prefix lines)."""
        head = units[0]
        for other in units[1:]:
            head = self._join(head, other)
        return head

    def _register(self, unit: Unit) -> None:
        """Let packing find ``unit`` (which has parts) by its span or its span trimmed."""
        self._by_span.setdefault((unit.start, unit.end), unit)
        self._by_span.setdefault(trim_span(self.text, unit.start, unit.end), unit)

    # -- from nodes to units ------------------------------------------------------------

    def _flatten(self, parent: Node, out: list[_Item], header: bool, body: bool = False) -> None:
        """Append the children of ``parent`` to ``out``, opening those that cannot be a
        piece of their own: a child sharing its first line with what came before, the body
        of a definition, the definition inside a wrapper, the one list of statements
        inside a body, a statement's body below a comment of its own (Python's ``for``
        header, a comment, then the block that the comment's next line starts), so that
        the comment goes with that line's statement. A definition's signature stays
        whole (its parameters may span lines). ``header``: ``parent`` is a definition
        (or wrapper), so its own children are its header; ``body``: ``parent`` is a
        definition's body."""
        language = self.language
        definitions, wrappers, comments = language.definitions, language.wrappers, language.comments
        own_body = None
        for field_name in _BODY_FIELDS:
            own_body = parent.child_by_field_name(field_name)
            if own_body is not None:
                break
        is_definition = header or parent.type in definitions
        owner = self._kind(parent) if is_definition else None
        joins_lines = not (is_definition and own_body)  # a child on the line before opens
        # A definition in a header is part of it (C's "typedef struct {...} T;"), but for
        # the one a wrapper names and those a group that names none holds (Go's "type (
        # A ...; B ... )"): found where a header holds a definition (rare).
        in_wrapper = parent.type in wrappers
        keeps_definitions: bool | None = True if in_wrapper else None  # (read once)
        sole = body and parent.named_child_count == 1
        for index, child in enumerate(parent.children):
            first, (last, end_column) = child.start_point[0], child.end_point
            if last > first:
                last = self._content_row(first, last, end_column)
            kind = child.type
            defines = kind in definitions or kind in wrappers
            if last > first:
                opens_body = is_definition and child == own_body
                if (
                    opens_body
                    or (joins_lines and out and first <= out[-1].last and not defines)
                    or (in_wrapper and defines)
                    or (sole and not defines and child.is_named)
                    or (
                        out
                        and out[-1].type in comments
                        and out[-1].first > parent.start_point[0]
                        and (
                            kind == "block"  # Python's except/finally: no field
                            or parent.field_name_for_child(index) in _COMMENTED_BODIES
                        )
                    )
                ):
                    self._flatten(child, out, defines, opens_body)
                    continue
            named = child.is_named
            header_part = child != own_body
            if header_part and owner is not None and named and defines:
                if keeps_definitions is None:
                    keeps_definitions = definition_name(parent, language) is not None
                header_part = keeps_definitions
            owned = owner if owner is not None and header_part else None
            if defines and owned is None and last > first:
                below = self._below_annotations(child, first)
                if below is not None:  # (its annotations items of their own, see there)
                    annotations, first = below
                    for node in annotations:
                        rows = node.start_point[0], node.end_point[0]
                        out.append(_Item(node, *rows, None, node.type, node.is_named))
            out.append(_Item(child, first, last, owned, kind, named))

    def _below_annotations(self, node: Node, first: int) -> tuple[list[Node], int] | None:
        """Where definition ``node`` starts with lines that hold only its annotations
        (Java's ``@Override``, C#'s ``[Test]``, Python's decorators: the language's
        prefixes, within a ``modifiers`` node or not, and comments among them), those
        annotations and the row where the rest starts (with the annotations on its first
        line: ``@Override public int size() {``): they are then units above it, as
        comments are, and it stays whole where it fits alone. Not so for a node of a
        definition's type that names nothing (data: Java's ``@Stable byte[] T = {…}``, a
        Kotlin property with no accessors)."""
        prefixes = self.language.prefixes
        lead = node.child(0) if prefixes else None
        if lead is None or (lead.type not in prefixes and lead.type != _MODIFIERS):
            return None
        comments = self.language.comments
        annotations: list[Node] = []
        for part in node.children:
            for inner in part.children if part.type == _MODIFIERS else (part,):
                kind = inner.type
                if kind in prefixes or (annotations and kind in comments):
                    annotations.append(inner)
                    continue
                rest = inner.start_point[0]
                while annotations and annotations[-1].end_point[0] >= rest:
                    rest = min(rest, annotations.pop().start_point[0])  # (on its line)
                if not annotations or rest <= first:
                    return None
                # (a declaration that names nothing, Java's "@Stable byte[] DIGITS = {…}",
                # is a statement: its annotations would not be attached to it again)
                return None if definition_name(node, self.language) is None else (annotations, rest)
        return None

    def _content_row(self, first: int, last: int, end_column: int) -> int:
        """The row of a node's last character that is not whitespace: some grammars end a
        node at the next line's indentation or after blank lines (Scala's ``def f =``
        body, Swift's ``case``), which would take that line's statement with it.
        ``end_column`` counts bytes; a prefix of spaces and tabs has as many code points."""
        text, starts = self.text, self.row_starts
        row_start = starts[last]
        if end_column and not is_blank(text, row_start, row_start + end_column):
            return last
        last -= 1  # (a node that ends at column 0 ends on the row before)
        while last > first and is_blank(text, starts[last], self._row_end(last)):
            last -= 1
        return last

    def _kind(self, node: Node) -> str:
        """A node's kind: its type, or its inner definition's for a wrapper."""
        while node.type in self.language.wrappers:
            inner = _wrapped_definition(node, self.language)
            if inner is None:
                break
            node = inner
        return node.type

    def _units(self, items: list[_Item]) -> list[Unit]:
        """Units of whole lines from ``items``: items sharing a line go together; comments
        and prefixes right above an item (no blank line between) go with it, a docstring
        with the signature above it."""
        groups: list[list[_Item]] = []
        for item in items:
            if groups and item.first <= groups[-1][-1].last:
                groups[-1].append(item)
            else:
                groups.append([item])
        units: list[Unit] = []
        pending: list[Unit] = []  # comment/prefix units waiting for what follows them
        language = self.language
        comments, prefixes = language.comments, language.prefixes
        special, rows, closures = self._special_kinds, self.row_starts, self._closures
        for group in groups:
            lead = group[0].type
            if (
                len(group) == 1
                and group[0].named
                and not group[0].owner
                and (
                    lead not in special
                    or (lead in closures and not _may_bind_function(group[0].node, language))
                )
            ):
                # (most units: one statement or expression, as _unit makes it; a
                # declaration that binds no function is one)
                first, last = group[0].first, group[0].last
                unit = Unit(rows[first], self._row_end(last), first, last, lead, (), group)
            else:
                unit = self._unit(group)
            if (lead in comments or lead in prefixes) and self._is_prefix(group):
                if pending and unit.first != pending[-1].last + 1:
                    self._lead_after_header(units, pending, comments=True)
                    units += map(self._leading, pending)  # (above another comment)
                    pending = []
                pending.append(unit)
                if len(pending) > ATTACHED_PREFIXES:
                    # (a comment that far up is no unit's own, but it is above code)
                    self._lead_after_header(units, pending, comments=True)
                    units.append(self._leading(pending.pop(0)))
                continue
            if pending:
                if unit.first == pending[-1].last + 1:
                    unit = self._attach(pending, unit)
                else:
                    self._lead_after_header(units, pending, comments=True)
                    units += map(self._leading, pending)  # (a section's comment: blank below)
                pending = []
            if units and _may_be_header(units[-1]):
                if self._follows_header(unit, units[-1]):
                    unit = self._join(units.pop(), unit)
                else:
                    self._lead_after_header(units, [unit])
            units.append(unit)
        return units + pending

    def _lead_after_header(
        self, units: list[Unit], following: list[Unit], comments: bool = False
    ) -> None:
        """Mark the last of ``units`` as leading where it is a definition's signature (its
        header) that the ``following`` units did not join: a signature goes with what
        follows it, as a comment above code does, rather than end a chunk of other code;
        but where the first of them fits alone and not with it, it stays (it would be a
        chunk alone), and so does a signature with its first statements (a class's, with
        its docstring) before ``comments`` that lead on to code of their own (a section's)."""
        if not following or not units or (comments and units[-1].joined is not None):
            return
        if self._leads_as_header(units[-1], units[-1], following[0]):
            self._leading(units[-1])

    def _leads_as_header(self, header: Unit, start: Unit, after: Unit) -> bool:
        """Whether ``header`` is a signature alone that, from the start of ``start``, fits
        with the unit ``after`` it, or ``after`` must be split anyway and its first part may
        take the signature (not a comment, which leads on to its own code): see
        :meth:`_lead_after_header`."""
        if not self._is_header(header):
            return False
        fits = self.fits
        if fits is None or fits(start.start, after.end):
            return True
        opens_with_comment = bool(after.items) and after.items[0].type in self.language.comments
        return not opens_with_comment and not fits(after.start, after.end)

    def _is_header(self, unit: Unit) -> bool:
        """Whether ``unit`` is a definition's signature (the parts of its header, owned by
        the definition or unnamed punctuation, the first owned; no comment), alone or
        joined with the first statements after it."""
        if unit.joined is not None:
            return self._is_header(unit.joined[0])
        items, comments = unit.items, self.language.comments
        return (
            bool(items)
            and unit.attached is None
            and items[0].owner is not None
            and all(
                (item.owner is not None or not item.named) and item.type not in comments
                for item in items
            )
        )

    def _main_item(self, group: list[_Item]) -> _Item | None:
        """The item that gives a unit of ``group`` its kind and name: its first named item
        but a comment, or where that defines nothing, a definition after it (C's "static
        MACRO int f(...)", read as a declaration, then the function; minified code), one
        with a body rather than a namespace that scopes the rest of the file (which
        ``describe`` puts before the path of the code after it)."""
        comments = self.language.comments
        main = next((item for item in group if item.named and item.type not in comments), None)
        if main is not None and len(group) > 1 and not self._defines(main, bodied=True):
            main = next((item for item in group if self._defines(item, bodied=True)), None) or next(
                (item for item in group if self._defines(item)), main
            )
        return main

    def _unit(self, group: list[_Item]) -> Unit:
        first = group[0].first
        last = group[0].last if len(group) == 1 else max(item.last for item in group)
        main = self._main_item(group)
        start, end = self.row_starts[first], self._row_end(last)
        if main is None:
            comment = next((item for item in group if item.named), None)
            kind = comment.type if comment else ""
            return Unit(start, end, first, last, kind, (), group)
        if main.owner:
            return Unit(start, end, first, last, main.owner, (), group)
        language = self.language
        if main.type in language.wrappers:
            kind, name = self._kind(main.node), definition_name(main.node, language) or ()
        elif main.type in language.definitions:
            name = definition_name(main.node, language) or ()
            if name or language.definitions[main.type] != "closure":
                kind = main.type
            else:  # (a declaration of data: a statement, in an ``if`` header as elsewhere)
                kind = self._line_kind(main, group)
        elif main.type in language.statement_wrappers:
            inner = self._statement_definition(main.node)
            if inner is None:
                kind, name = main.type, ()
            else:
                kind, name = self._kind(inner), definition_name(inner, language) or ()
        else:  # (most units: a statement, an expression; the first line of one)
            kind, name = self._line_kind(main, group), ()
        return Unit(start, end, first, last, kind, name, group)

    def _line_kind(self, main: _Item, group: list[_Item]) -> str:
        """The kind of a line whose main node is no definition: that of the definition or
        statement whose header it holds (``const`` of ``const api = {``, ``if x:``), else the
        node's own, or where it is a name alone (``Collections`` of
        ``Collections.sort(items, new Comparator<T>() {``), the node around it."""
        owner = next((item.owner for item in group if item.owner), None)
        if owner:
            return owner
        lead = group[0].node
        if not group[0].named:  # a statement's header ("if x:", "for (...) {"): the statement
            parent = lead.parent
            if parent is not None and parent.start_byte == lead.start_byte:
                return parent.type
        node = main.node
        if node.child_count == 0 and node.parent is not None:
            return node.parent.type
        return main.type

    def _defines(self, item: _Item, bodied: bool = False) -> bool:
        """Whether ``item`` is a definition; with ``bodied``, not one that scopes the rest
        of the file (see ``CodeLanguage.file_scopes``)."""
        language = self.language
        if bodied and _scopes_file(item, language):
            return False
        if item.type in language.wrappers:
            return True
        return item.type in language.definitions and _is_definition(item.node, language)

    def _statement_definition(self, node: Node) -> Node | None:
        """The definition that a statement wrapper (see ``CodeLanguage``) holds as its
        one part, if it holds one."""
        if node.named_child_count != 1:
            return None
        inner = node.named_child(0)
        if inner is None or definition_name(inner, self.language) is None:
            return None
        return inner

    def _is_prefix(self, group: list[_Item]) -> bool:
        language = self.language
        for item in group:
            if item.type not in language.comments and item.type not in language.prefixes:
                return False
        return True

    def _follows_header(self, unit: Unit, before: Unit) -> bool:
        """Whether ``unit`` joins the signature above it (blank lines between them
        aside): a definition's header does not end a chunk alone, so its first statement
        (its docstring) goes with it where both fit, unless that is a definition of its
        own; a group's opening line, which names nothing (Go's ``type (`` before the
        definitions it groups), goes with its first definition."""
        items = before.items
        return (
            _may_be_header(before)  # (most often settles it)
            and (
                (not unit.name and unit.attached is None)
                or (
                    before.joined is None
                    and all(item.owner is not None and not item.named for item in items)
                )
            )
            and before.attached is None
            and all(item.owner is not None or not item.named for item in items)
            and (unit.first == before.last + 1 or self.text[before.end : unit.start].isspace())
            and (self.fits is None or self.fits(before.start, unit.end))  # measured last
        )

    def _attach(self, prefix: list[Unit], unit: Unit) -> Unit:
        """Comments and prefixes above ``unit``: a definition keeps them apart (see
        :meth:`children`); any other unit takes them in."""
        if unit.name or unit.attached is not None or not unit.items:
            name, unit.name = unit.name, ()  # the whole carries the name, once
            return Unit(
                prefix[0].start,
                unit.end,
                prefix[0].first,
                unit.last,
                unit.kind,
                name,
                [],
                (prefix, unit),
            )
        return self._join(self._leading(self._joined(prefix)), unit)

    def _join(self, before: Unit, after: Unit) -> Unit:
        """One unit of two adjacent ones; the main kind and name are ``after``'s when
        ``before`` holds only comments or prefixes (decorators, attributes), a header's
        otherwise."""
        language = self.language
        lead = (
            not before.kind or before.kind in language.comments or before.kind in language.prefixes
        )
        main = after if lead else before
        name, main.name = main.name, ()  # the whole carries the name, once
        return Unit(
            before.start,
            after.end,
            before.first,
            after.last,
            main.kind,
            name,
            [*before.items, *after.items],
            joined=(before, after),
        )

    def _row_end(self, row: int) -> int:
        return self.row_starts[row + 1] if row + 1 < len(self.row_starts) else len(self.text)

    # -- where a chunk lies -------------------------------------------------------------

    def describe(self, start: int, end: int) -> tuple[list[str], list[str]]:
        """:meth:`_describe`, with the name of a namespace that scopes the rest of the file
        (C#'s ``namespace N;``) first in the path of the code after its declaration, up to
        the next one's; a chunk that starts in the declaration (or the comments above it)
        lies in that namespace only. Whitespace at the chunk's end (the blank lines and
        indentation before a line cut by words) does not take it out of the definition its
        text is in."""
        content_end = before_whitespace(self.text, start, end)
        path, kinds = self._describe(start, content_end if content_end > start else end)
        scopes = self._file_scopes()
        at = bisect_right(scopes, (start, len(self.text) + 1)) - 1
        if at >= 0:
            _, declaration_end, name = scopes[at]
            next_start = scopes[at + 1][0] if at + 1 < len(scopes) else len(self.text)
            if content_end <= next_start:
                path = [*name, *path] if start >= declaration_end else list(name)
        return path, kinds

    def scope_after(self, position: int) -> tuple[str, ...]:
        """The name of the namespace that scopes the text from ``position`` on (see
        ``scope``): the last one declared before it."""
        found = [name for _, scope_end, name in self._file_scopes() if scope_end <= position]
        return found[-1] if found else ()

    def _file_scopes(self) -> list[tuple[int, int, tuple[str, ...]]]:
        """Each top-level namespace without a body that scopes the file after it (C#'s
        ``namespace N;``, PHP's, of which a file may hold several), in order: where its
        declaration starts (with the comments above it, where it starts its unit), where
        it ends (with its line, where nothing follows it there), and its name; a scope
        inherited from the text before comes first, at 0."""
        if self._scopes is not None:
            return self._scopes
        self._scopes = [(0, 0, self._inherited)] if self._inherited else []
        language = self.language
        if not language.file_scopes:
            return self._scopes
        comments = language.comments
        for child in self.children(self.root):
            own = child.attached[1] if child.attached is not None else child
            leading = next((it for it in own.items if it.named and it.type not in comments), None)
            for item in own.items:
                name = _scopes_file(item, language) and definition_name(item.node, language)
                if not name:
                    continue
                start = child.start if item is leading else self._offset(item.node.start_point)
                end = self._offset(item.node.end_point)
                row_end = self._row_end(item.node.end_point.row)
                if before_whitespace(self.text, end, row_end) <= end:
                    end = row_end  # (nothing follows it on its line)
                self._scopes.append((start, end, name))
        return self._scopes

    def _offset(self, point: Point) -> int:
        """The code point offset of the tree's ``point`` (a row and a column in bytes)."""
        row, column = point
        row_start = self.row_starts[row]
        head = self.text[row_start : row_start + column].encode("utf-8", "surrogatepass")
        return row_start + len(head[:column].decode("utf-8", "surrogatepass"))

    def _describe(self, start: int, end: int) -> tuple[list[str], list[str]]:
        """The symbol path of the deepest definition holding ``text[start:end]`` and the
        kinds of the nodes it holds (its parts' kinds, or its own when it is one part; the
        enclosing node's for a piece of one, such as a line of a string or ``else:``).

        The walk down from the root is remembered (:class:`_Descent`): the next chunk,
        which lies near this one, takes the part of it that still holds it by binary
        search, so that a tree as deep as the text is long (one long line of nested
        expressions) costs a walk once, not once per chunk.
        """
        descent = self._descent
        descent.start = start
        units = descent.units
        # Along the walk, the units holding the chunk are a prefix and those it covers
        # (the walk stops at the first of them) a suffix: both found by binary search.
        held = _prefix_length(len(units), lambda k: units[k].start <= start < end <= units[k].end)
        covered = _prefix_length(held, lambda k: not self._covers(start, end, units[k]))
        if covered < held:
            descent.cut(covered + 1)
            return descent.result()
        descent.cut(held)
        unit = units[-1] if units else self.root
        while True:
            children = unit.children if unit is not self.root else self.children(unit)
            if not children:
                return self._in_line(unit, start, end) if _one_line(unit) else descent.result()
            inner = _containing(children, start, end)
            if inner is None:
                kinded = [child for child in _overlapping(children, start, end) if child.kind]
                if len(kinded) != 1 or start >= self._content_end(kinded[0]):
                    path, kinds = descent.result(list(dict.fromkeys(c.kind for c in kinded)))
                    # Parts that all lie in one scope by name, not by nesting (Go's methods
                    # of one type, C++'s out-of-class members): the chunk lies in it too.
                    return path + list(_shared_scope([child.name for child in kinded])), kinds
                # Some of one part and lines of no kind (the ``}`` that closes a class after
                # its last method): the chunk lies in that part (but for its name, with a
                # header before it: see _Descent.result).
                inner = kinded[0]
            descent.push(inner)
            if self._covers(start, end, inner):
                if inner.name and _one_line(inner) and self._defines_several(inner):
                    return self._in_line(inner, start, end)  # (minified: a line of them)
                self._push_sole_definition(inner)
                path, kinds = descent.result()
                if inner.joined is not None and descent.units[-1] is inner:
                    kinds = self._joined_kinds(inner) or kinds
                if not inner.name and _one_line(inner) and len(inner.items) == 1:
                    # One node that holds a definition of the whole line (a class body of
                    # one method on one line, ``def m(self): return 1``): named by it.
                    more, kind, _ = self._within_line(inner, start, end)
                    if more:
                        return path + more, kind
                return path, self._partly_held_kind(inner, start, end) or kinds
            unit = inner

    def _in_line(self, unit: Unit, start: int, end: int) -> tuple[list[str], list[str]]:
        """The path and kinds of ``[start, end)`` in the one-line ``unit``, the last unit of
        the walk: named by the definitions on the line that hold it (see
        :meth:`_within_line`), not by the line's first one where that does not."""
        path, own_kind = self._descent.result()
        more, kind, elsewhere = self._within_line(unit, start, end)
        own = self._line_name(unit)
        if elsewhere and own and path[-len(own) :] == list(own):
            path = path[: -len(own)]
        return path + more, kind or own_kind

    def _defines_several(self, unit: Unit) -> bool:
        """Whether more than one of ``unit``'s nodes is a definition (minified code)."""
        defining = (item for item in unit.items if item.named and self._defines(item))
        return next(defining, None) is not None and next(defining, None) is not None

    def _push_sole_definition(self, unit: Unit) -> None:
        """Where the unnamed ``unit`` is only a definition (with blank lines), as the block
        of Python's ``except ImportError:`` holding one ``def``, add the units down to it to
        the walk, so that the chunk is named and kinded by that definition."""
        chain: list[Unit] = []
        while not unit.name and not _one_line(unit):
            sole = self._sole_part(unit)
            if sole is None:
                return
            chain.append(sole)
            unit = sole
        for part in chain if unit.name else ():
            self._descent.push(part)

    def _content_end(self, unit: Unit) -> int:
        """Where the last line of ``unit`` that holds more than parts of no kind (closing
        brackets, ``end``) ends: along its last parts with a kind. Kept for every unit on
        the way down, so that code nested thousands of levels deep is walked once, not
        once per chunk."""
        known = self._content_ends
        chain = []
        while (entry := known.get(id(unit))) is None or entry[0] is not unit:
            chain.append(unit)
            kinded = None if _one_line(unit) else self._last_kinded(unit)
            if kinded is None:
                entry = (unit, unit.end)
                break
            unit = kinded
        for passed in chain:
            known[id(passed)] = (passed, entry[1])
        return entry[1]

    def _last_kinded(self, unit: Unit) -> Unit | None:
        for child in reversed(self.children(unit)):
            if child.kind:
                return child
        return None

    def _line_name(self, unit: Unit) -> tuple[str, ...]:
        """The name that the one-line ``unit``'s main node gives the walk: the unit's own,
        or that of the unit of comments above it that it is attached to."""
        if unit.name:
            return unit.name
        units = self._descent.units
        if len(units) > 1 and units[-1] is unit:
            parent = units[-2]
            if parent.attached is not None and parent.attached[1] is unit:
                return parent.name
        return ()

    def _within_line(self, unit: Unit, start: int, end: int) -> tuple[list[str], list[str], bool]:
        """For a piece ``[start, end)`` of the one-line ``unit`` (a line over budget): the
        names of the definitions on that line holding it, outermost first (the unit's own
        name aside), the kind of the smallest named node holding it, and whether it lies
        outside the line's main node (which names the unit: minified code holds several
        definitions on one line). Found by going down from the unit's node that holds the
        piece, at most :data:`LINE_DEPTH` nodes deep, however deeply the line nests; no
        kind where no one node of the unit holds it."""
        line, low, high, index = self._line_piece(unit, start, end)
        items = unit.items
        main = line.main
        elsewhere = main is not None and not (main.start_byte <= low and high <= main.end_byte)
        if index < 0 or items[index].node.end_byte < high:
            if len(items) == 1:  # (one node that holds only part of the line)
                return [], _enclosing_kind(items[0].node, low, high), elsewhere
            # Several nodes of a minified line: their kinds, and where they are definitions
            # of one scope by name (Go's methods of one type), that scope, as across lines.
            spanned = [
                item.node
                for item in items[max(index, 0) :]
                if item.named
                and not item.node.is_extra  # (a comment, Python's backslash continuation)
                and item.type not in self.language.comments
                and item.node.start_byte < high
            ]
            scopes = [definition_name(node, self.language) or () for node in spanned]
            if len(scopes) == 1:  # (one definition's end and a comment after it)
                return list(scopes[0]), [spanned[0].type], elsewhere
            kinds = list(dict.fromkeys(node.type for node in spanned))
            return list(_shared_scope(scopes)), kinds, elsewhere
        definitions, wrappers = self.language.definitions, self.language.wrappers
        names: list[str] = []
        kind = ""
        wrapped = False  # the node is the definition inside a wrapper already named
        # A cursor, not Node.first_child_for_byte: that returns a null node (which crashes
        # py-tree-sitter when used) where no child covers the byte.
        cursor = items[index].node.walk()
        for _ in range(LINE_DEPTH):
            node = cursor.node
            if node is None or node.start_byte > low:
                break
            if node.end_byte < high:
                # A definition's end and only comments after it (Ruby's ``def m; end # c``
                # in a class body): the piece lies in that definition.
                if (node.type in wrappers or (node.type in definitions and not wrapped)) and (
                    self._comments_only(node.next_sibling, high)
                ):
                    names += definition_name(node, self.language) or ()
                    kind = node.type
                break
            if node.is_named:
                kind = node.type
            if node.type in wrappers or (node.type in definitions and not wrapped):
                if node != main:
                    names += definition_name(node, self.language) or ()
                wrapped = node.type in wrappers
            else:
                # (a statement that holds a definition, as the unit, is named by it already)
                wrapped = node == main and node.type in self.language.statement_wrappers
            if cursor.goto_first_child_for_byte(low) is None:
                break
        return names, [kind] if kind else [], elsewhere

    def _comments_only(self, node: Node | None, end: int) -> bool:
        """Whether ``node`` and its next siblings up to byte ``end`` are all comments."""
        comments = self.language.comments
        while node is not None and node.start_byte < end:
            if not node.is_extra and node.type not in comments:
                return False
            node = node.next_sibling
        return True

    def _line_piece(self, unit: Unit, start: int, end: int) -> tuple[_Line, int, int, int]:
        """The line of the one-line ``unit``, the UTF-8 offsets of ``[start, end)`` within
        its content (trimmed), and the index of the last of its items starting by then."""
        line = self._line
        if line is None or line.unit is not unit:
            line = self._line = _Line(self, unit)
        row_start = line.row_start
        start, end = trim_span(self.text, max(start, row_start), min(end, line.content_end))
        end = max(start, end)
        low = self._byte(line.byte, row_start, start)
        high = self._byte(low, start, end)
        return line, low, high, bisect_right(line.item_starts, low) - 1

    def _joined_kinds(self, unit: Unit) -> list[str]:
        """The kinds of the units ``unit`` was joined from (a signature and the statements
        after it), in order and without repeats, leaving out comments and prefixes
        (decorators) unless nothing else is there: a chunk that holds a signature and its
        first statement holds both kinds of node, and one of a decorator and the comment
        below it holds ``decorator`` and ``comment``."""
        language, parts = self.language, [unit]
        kinds: list[str] = []
        lead_kinds: list[str] = []  # of the comments and prefixes
        while parts:
            part = parts.pop()
            if part.joined is not None:
                parts += reversed(part.joined)
            elif part.kind:
                leads = part.kind in language.comments or part.kind in language.prefixes
                (lead_kinds if leads else kinds).append(part.kind)
        return list(dict.fromkeys(kinds or lead_kinds))

    def _partly_held_kind(self, unit: Unit, start: int, end: int) -> list[str] | None:
        """For ``[start, end)`` of the one-line ``unit`` of one node that holds only part of
        its line (a docstring's opening quotes, the string's content going on below): the
        kind of the node around that one; ``None`` for any other unit."""
        if not _one_line(unit) or len(unit.items) != 1:
            return None
        _, low, high, _ = self._line_piece(unit, start, end)
        node = unit.items[0].node
        if node.start_byte <= low and high <= node.end_byte:
            return None
        return _enclosing_kind(node, low, high)

    def _byte(self, base: int, start: int, position: int) -> int:
        """The UTF-8 offset of code point ``position``, where ``start`` is at ``base``,
        counted from the last offset asked for instead when that is nearer (chunks are
        described in order, overlapping a little, so a long line is encoded about once)."""
        last, last_byte = self._last_byte
        if start <= position < last and last - position < position - start:
            found = last_byte - len(self.text[position:last].encode("utf-8", "surrogatepass"))
            self._last_byte = (position, found)
            return found
        if start <= last <= position:
            start, base = last, last_byte
        found = base + len(self.text[start:position].encode("utf-8", "surrogatepass"))
        self._last_byte = (position, found)
        return found

    def _covers(self, start: int, end: int, unit: Unit) -> bool:
        content_start, content_end = trim_span(self.text, unit.start, unit.end)
        return start <= content_start and content_end <= end

    # -- definitions --------------------------------------------------------------------

    def definitions(self, depth: int = 2) -> Iterator[Definition]:
        """The definitions of the text up to ``depth`` levels of nesting (2: top-level
        ones and their members; a namespace's definitions count at its own level, see
        ``CodeLanguage.namespaces``), with their leading comments; statements are opened
        to find definitions inside them (``if TYPE_CHECKING:`` ...), but for the
        language's simple statements."""
        # A stack of the units being read, not recursion: statements may nest a thousand
        # levels deep (generated data, a literal of nested lists).
        no_path: tuple[str, ...] = ()
        namespaces, file_scopes = self.language.namespaces, self.language.file_scopes
        # Each entry: the units being read, their path, the levels left, and the unit of
        # the definition itself among them (where comments were attached to it: it is no
        # definition of its own).
        stack: list[tuple[Iterator[Unit], tuple[str, ...], int, Unit | None]] = [
            (iter(self.children(self.root)), no_path, depth, None)
        ]
        while stack:
            children, path, levels, itself = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
            elif child.name:
                main = child.attached[1] if child.attached is not None else None
                own = main.start if main is not None else child.start
                # C#'s "namespace N;" (one of the file's top-level units): the rest is in N
                scopes_rest = child.kind in file_scopes and any(
                    _scopes_file(item, self.language) for item in (main or child).items
                )
                inner = (*(no_path if scopes_rest else path), *child.name)
                yield Definition(inner, child.kind, child.start, child.end, own)
                if scopes_rest:
                    stack[-1] = (children, inner, levels, itself)
                elif child.kind in namespaces:  # (its definitions count at its level)
                    stack.append((iter(self.children(child)), inner, levels, main))
                elif levels > 1:
                    stack.append((iter(self.children(child)), inner, levels - 1, main))
            elif child.last > child.first and not self._simple(child):
                stack.append((iter(self.children(child)), path, levels, None))
            elif child is not itself and (line := self._line_definition(child)) is not None:
                name = definition_name(line, self.language) or ()
                kind = self._kind(line)
                yield Definition((*path, *name), kind, child.start, child.end, child.start)

    def _line_definition(self, unit: Unit) -> Node | None:
        """The definition that a one-line unit of one node is or holds as its only part
        (``except ImportError:`` then ``def loads(s): return s``, a class body of one
        method on one line); never a simple statement (``CodeLanguage.simple_statements``)."""
        if len(unit.items) != 1 or not _one_line(unit) or unit.items[0].owner:
            return None  # (an owned node is a part of the definition being read)
        if unit.items[0].type in self.language.simple_statements:
            return None
        node: Node | None = unit.items[0].node
        for _ in range(3):  # (the node, its only part, and that one's)
            if node is None or definition_name(node, self.language):
                return node
            node = node.named_child(0) if node.named_child_count == 1 else None
        return None

    def _simple(self, unit: Unit) -> bool:
        """Whether ``unit`` is made of statements that hold no definition (and comments)."""
        simple, comments = self.language.simple_statements, self.language.comments
        return bool(simple) and all(
            item.type in simple or item.type in comments for item in unit.items
        )


class _Line:
    """What the pieces of one line unit over budget share, found once for all of them (a
    line cut into many chunks is described chunk by chunk, in order): where its row starts
    in code points and bytes, where its content ends, where its nodes start (bytes), and
    its main node, which the unit (or the comments' unit it is attached to) names."""

    __slots__ = ("byte", "content_end", "item_starts", "main", "row_start", "unit")

    def __init__(self, level: SyntaxLevel, unit: Unit) -> None:
        self.unit = unit
        self.row_start = level.row_starts[unit.first]
        # the content, within the line (its line ending is on the line after)
        self.content_end = before_whitespace(level.text, self.row_start, level._row_end(unit.first))
        first = unit.items[0].node
        row, self.byte = first.start_point.row, first.start_byte - first.start_point.column
        if row < unit.first:  # (an item that starts above, its annotations left out)
            above = level.text[level.row_starts[row] : self.row_start]
            self.byte += len(above.encode("utf-8", "surrogatepass"))
        self.item_starts = [item.node.start_byte for item in unit.items]  # ascending
        main = level._main_item(unit.items)
        self.main = None if main is None else main.node


class _Descent:
    """The units of the last walk down the tree of :meth:`SyntaxLevel.describe` (the root
    left out), with what its answer needs at each depth: the symbol path so far (kept as
    the depths of the named units) and the innermost kind. ``start`` is where the chunk
    described starts."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.start = 0
        self.units: list[Unit] = []
        self.named: list[int] = []  # depths of the units with a name
        self.kinded: list[int] = []  # at each depth, the deepest depth with a kind (-1: none)

    def cut(self, depth: int) -> None:
        """Keep the first ``depth`` units of the walk."""
        del self.units[depth:], self.kinded[depth:]
        while self.named and self.named[-1] >= depth:
            self.named.pop()

    def push(self, unit: Unit) -> None:
        depth = len(self.units)
        self.units.append(unit)
        if unit.name:
            self.named.append(depth)
        self.kinded.append(depth if unit.kind else self.kinded[-1] if self.kinded else -1)

    def result(self, kinds: list[str] | None = None) -> tuple[list[str], list[str]]:
        """The symbol path of the walk and ``kinds`` (by default the innermost unit's kind).
        The path ends before a definition that the chunk starts before with more than
        whitespace (the ``try:`` line above a function in the block it opens): the chunk
        does not lie in it, though its lines are most of it."""
        path: list[str] = []
        for depth in self.named:
            unit = self.units[depth]
            if unit.start > self.start and not is_blank(self.text, self.start, unit.start):
                break
            path += unit.name
        if not kinds:
            deepest = self.kinded[-1] if self.kinded else -1
            kinds = [self.units[deepest].kind] if deepest >= 0 else []
        return path, kinds


def _shared_scope(names: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The scope that every one of several definitions' names lies in (``("P", "f")`` and
    ``("P", "g")``: ``("P",)``; with the type ``("P",)`` too, the same; ``("P", "f")`` twice,
    an overload: ``("P",)`` too); none where one of them is not a definition."""
    if len(names) < 2 or not all(names):
        return ()
    shortest = min(len(name) for name in names)
    shared = 0
    while shared < shortest and len({name[shared] for name in names}) == 1:
        shared += 1
    if all(len(name) == shared for name in names):
        shared -= 1  # two definitions of one name (overloads, a getter and its setter)
    return names[0][:shared]


def _enclosing_kind(node: Node, low: int, high: int) -> list[str]:
    """The type of the smallest named node above ``node`` that holds bytes ``[low, high)``
    (the string of a docstring's first line, which holds more than that line's
    ``string_start``), as a one-item list; empty where none does."""
    parent = node.parent
    while parent is not None and not (
        parent.is_named and parent.start_byte <= low < high <= parent.end_byte
    ):
        parent = parent.parent
    return [] if parent is None else [parent.type]


def _prefix_length(size: int, holds: Callable[[int], bool]) -> int:
    """The number of leading indices in ``range(size)`` for which ``holds`` is true, where
    it holds on a prefix."""
    low, high = 0, size
    while low < high:
        middle = (low + high) // 2
        if holds(middle):
            low = middle + 1
        else:
            high = middle
    return low


def _overlapping(children: list[Unit], start: int, end: int) -> list[Unit]:
    """The children (in order, apart) that overlap ``[start, end)``: found by binary
    search, since a chunk is described once per chunk and a unit may have many children."""
    low, high = 0, len(children)
    while low < high:  # the first child ending after ``start``
        middle = (low + high) // 2
        if children[middle].end <= start:
            low = middle + 1
        else:
            high = middle
    first, high = low, len(children)
    while low < high:  # the first child starting at or after ``end``
        middle = (low + high) // 2
        if children[middle].start < end:
            low = middle + 1
        else:
            high = middle
    return children[first:low]


def _containing(children: list[Unit], start: int, end: int) -> Unit | None:
    """The child whose lines hold all of ``[start, end)``, if one does."""
    low, high = 0, len(children)
    while low < high:  # the last child starting at or before ``start``
        middle = (low + high) // 2
        if children[middle].start <= start:
            low = middle + 1
        else:
            high = middle
    if low == 0:
        return None
    child = children[low - 1]
    return child if end <= child.end else None


__all__ = [
    "Definition",
    "SyntaxLevel",
    "Unit",
    "WholeLines",
    "definition_name",
    "grammar_available",
    "is_blank",
    "load_parser",
    "new_parser",
]
