"""Programming languages as data: grammar, file extensions, definitions and separators.

One :class:`CodeLanguage` per language that LangChain's ``Language`` enum lists (and a
few close relatives, such as TSX). Each says where its tree-sitter grammar lives (a
per-language wheel that ships the compiled grammar, so nothing downloads at run time;
``None`` where no such wheel exists), which file extensions it has, which syntax nodes are
definitions and how each is named, which nodes are comments or prefixes (decorators,
attributes) that belong to the definition after them, and a separator table (regular
expressions at line starts, coarsest first) for splitting without a grammar. The
separator tables were written for spansplit from each language's syntax.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePath

from ..errors import InvalidParameterError, ParameterTypeError
from .separators import PRESETS, SeparatorPreset

CODE_EXTRA = "code"
"""The extra that brings tree-sitter and the grammars of the common languages."""

MORE_EXTRA = "code-more"
"""The extra that brings the grammars of Kotlin, Scala, Swift, Lua and Solidity."""


@dataclass(frozen=True, slots=True)
class CodeLanguage:
    """What spansplit knows of one programming language.

    ``grammar`` is ``(module, function)`` of a tree-sitter grammar wheel, ``package`` its
    name on PyPI and ``extra`` the spansplit extra that installs it (``None`` when no
    offline grammar exists: only the separator table then). ``definitions`` maps a
    definition's node type to how it is named: ``"name"`` (its ``name`` field) or one of
    the rules of :func:`spansplit.boundaries.code.definition_name`. ``wrappers`` are node
    types around a definition (decorators, ``export``, ``template<>``) whose name is
    their inner definition's. ``comments`` and ``prefixes`` (decorators, attributes) stay
    with the definition or statement on the next line. ``parses_on``: a text is parsed on
    from the tree of its start (tree-sitter's incremental parse) to the tree a fresh parse
    makes; not so for Lua, whose grammar keeps a statement ended before a comment when the
    next line continues it as a call (``b -- c`` then ``(c)``). ``statement_wrappers``
    are statements that hold a definition as their one part (TypeScript's
    ``namespace N {}`` is an ``expression_statement``): such a statement is named and
    kinded as the definition. ``file_scopes`` are definitions without a body that scope
    the rest of the file (C#'s ``namespace N;``, PHP's ``namespace N;``): their name
    starts the symbol path of what follows them. ``simple_statements`` never hold a
    definition (Python's expression statements: a lambda is none): the search for
    definitions does not read their parts. ``namespaces`` are definitions that only group
    others (C++'s and C#'s ``namespace N {}``, Rust's ``mod``): the definitions in one count
    at its own level, so overlap never reaches back across the start of a class in a
    namespace, as of a top-level one. ``closure_marks``: text that every function literal
    of the language holds (Java's ``->``); a declaration named by the ``closure`` rule whose
    text holds none binds no function, and is read as the statement it is at once.
    """

    name: str
    separators: SeparatorPreset
    extensions: tuple[str, ...] = ()
    grammar: tuple[str, str] | None = None
    package: str | None = None
    extra: str | None = None
    definitions: Mapping[str, str] = field(default_factory=dict)
    wrappers: frozenset[str] = frozenset()
    comments: frozenset[str] = frozenset({"comment"})
    prefixes: frozenset[str] = frozenset()
    parses_on: bool = True
    statement_wrappers: frozenset[str] = frozenset()
    file_scopes: frozenset[str] = frozenset()
    simple_statements: frozenset[str] = frozenset()
    namespaces: frozenset[str] = frozenset()
    closure_marks: tuple[bytes, ...] = ()


def _code(*separators: str) -> SeparatorPreset:
    """A separator table: the given patterns (regular expressions, each kept with the piece
    after it), then blank lines, lines, spaces and grapheme clusters."""
    return SeparatorPreset((*separators, r"\n\n", r"\n", r" ", r""), keep_separator="start")


def _line_starting(*words: str) -> str:
    """A line break followed (after indentation) by one of ``words`` and a word boundary."""
    return r"\n(?=[ \t]*(?:" + "|".join(words) + r")\b)"


_C_LIKE_FLOW = _line_starting("if", "for", "while", "do", "switch", "case", "return", "try")
_NAME = "name"

_LANGUAGES: tuple[CodeLanguage, ...] = (
    CodeLanguage(
        "python",
        _code(
            r"\n(?=(?:@[^\n]*\n)*(?:async[ \t]+)?(?:class|def)[ \t])",
            r"\n(?=[ \t]+(?:@[^\n]*\n[ \t]*)*(?:async[ \t]+)?def[ \t])",
            _line_starting("if", "for", "while", "with", "try", "return", "match"),
        ),
        (".py", ".pyi", ".pyw"),
        ("tree_sitter_python", "language"),
        "tree-sitter-python",
        CODE_EXTRA,
        {"function_definition": _NAME, "class_definition": _NAME},
        frozenset({"decorated_definition"}),
        prefixes=frozenset({"decorator"}),
        simple_statements=frozenset(
            {
                "expression_statement",
                "return_statement",
                "import_statement",
                "import_from_statement",
                "raise_statement",
                "assert_statement",
                "delete_statement",
                "global_statement",
                "nonlocal_statement",
                "print_statement",
            }
        ),
    ),
    CodeLanguage(
        "javascript",
        _code(
            r"\n(?=(?:export[ \t]+(?:default[ \t]+)?)?(?:async[ \t]+)?(?:function\*?|class)\b)",
            r"\n(?=(?:export[ \t]+)?(?:const|let|var)[ \t])",
            _line_starting("if", "for", "while", "do", "switch", "case", "return", "try"),
        ),
        (".js", ".mjs", ".cjs", ".jsx"),
        ("tree_sitter_javascript", "language"),
        "tree-sitter-javascript",
        CODE_EXTRA,
        {
            "function_declaration": _NAME,
            "generator_function_declaration": _NAME,
            "class_declaration": _NAME,
            "method_definition": _NAME,
            "field_definition": "field",
            "pair": "field",
            "lexical_declaration": "variable",
            "variable_declaration": "variable",
            "assignment_expression": "assignment",
        },
        frozenset({"export_statement"}),
        prefixes=frozenset({"decorator"}),
        statement_wrappers=frozenset({"expression_statement"}),
    ),
    CodeLanguage(
        "typescript",
        _code(
            r"\n(?=(?:export[ \t]+(?:default[ \t]+)?)?(?:declare[ \t]+)?(?:abstract[ \t]+)?"
            r"(?:async[ \t]+)?(?:function\*?|class|interface|enum|namespace|module|type)\b)",
            r"\n(?=(?:export[ \t]+)?(?:const|let|var)[ \t])",
            _line_starting("if", "for", "while", "do", "switch", "case", "return", "try"),
        ),
        (".ts", ".mts", ".cts"),
        ("tree_sitter_typescript", "language_typescript"),
        "tree-sitter-typescript",
        CODE_EXTRA,
        {
            "function_declaration": _NAME,
            "generator_function_declaration": _NAME,
            "class_declaration": _NAME,
            "abstract_class_declaration": _NAME,
            "method_definition": _NAME,
            "abstract_method_signature": _NAME,
            "method_signature": _NAME,  # an interface's method, a method's overload
            "function_signature": _NAME,
            "interface_declaration": _NAME,
            "enum_declaration": _NAME,
            "type_alias_declaration": _NAME,
            "internal_module": "dotted",  # "namespace A.B"
            "module": "dotted",
            "public_field_definition": "field",
            "pair": "field",
            "lexical_declaration": "variable",
            "variable_declaration": "variable",
            "assignment_expression": "assignment",
        },
        frozenset({"export_statement", "ambient_declaration"}),
        prefixes=frozenset({"decorator"}),
        statement_wrappers=frozenset({"expression_statement"}),
        namespaces=frozenset({"internal_module", "module"}),
    ),
    CodeLanguage(
        "go",
        _code(
            r"\n(?=func[ \t])",
            r"\n(?=(?:type|var|const)[ \t(])",
            _line_starting("if", "for", "switch", "select", "case", "return", "go", "defer"),
        ),
        (".go",),
        ("tree_sitter_go", "language"),
        "tree-sitter-go",
        CODE_EXTRA,
        {
            "function_declaration": _NAME,
            "method_declaration": "go_method",
            "type_declaration": "go_type",
            "type_spec": "go_type_spec",
            "type_alias": "go_type_spec",
            "method_elem": _NAME,  # an interface's method
            "var_declaration": "closure",  # "var handler = func(...) {...}"
            "short_var_declaration": "closure",  # "handler := func(...) {...}"
        },
        closure_marks=(b"func",),
    ),
    CodeLanguage(
        "rust",
        _code(
            r"\n(?=(?:#\[[^\n]*\n)*(?:pub(?:\([^)\n]*\))?[ \t]+)?(?:unsafe[ \t]+)?"
            r"(?:impl|trait|mod|struct|enum|union|macro_rules!)\b)",
            r"\n(?=[ \t]*(?:#\[[^\n]*\n[ \t]*)*(?:pub(?:\([^)\n]*\))?[ \t]+)?"
            r"(?:const[ \t]+)?(?:async[ \t]+)?(?:unsafe[ \t]+)?(?:extern[ \t]+\"[^\"]*\"[ \t]+)?"
            r"fn[ \t])",
            r"\n(?=[ \t]*(?:let|if|for|while|loop|match|return)\b)",
        ),
        (".rs",),
        ("tree_sitter_rust", "language"),
        "tree-sitter-rust",
        CODE_EXTRA,
        {
            "function_item": _NAME,
            "function_signature_item": _NAME,
            "impl_item": "rust_impl",
            "trait_item": _NAME,
            "mod_item": _NAME,
            "struct_item": _NAME,
            "enum_item": _NAME,
            "union_item": _NAME,
            "macro_definition": _NAME,
            "let_declaration": "closure",  # "let add = |a, b| {...};"
        },
        closure_marks=(b"|",),
        comments=frozenset({"line_comment", "block_comment"}),
        prefixes=frozenset({"attribute_item"}),
        namespaces=frozenset({"mod_item"}),
    ),
    CodeLanguage(
        "java",
        _code(
            r"\n(?=[ \t]*(?:@\w+[^\n]*\n[ \t]*)*(?:(?:public|protected|private|static|abstract|"
            r"final|sealed|non-sealed|strictfp)[ \t]+)*(?:class|interface|enum|record|@interface)"
            r"[ \t])",
            r"\n(?=[ \t]*(?:@\w+[^\n]*\n[ \t]*)*(?:(?:public|protected|private|static|abstract|"
            r"final|synchronized|native|default)[ \t]+)+[\w<>\[\],. ?]+[ \t]+\w+[ \t]*\()",
            _C_LIKE_FLOW,
        ),
        (".java",),
        ("tree_sitter_java", "language"),
        "tree-sitter-java",
        CODE_EXTRA,
        {
            "class_declaration": _NAME,
            "interface_declaration": _NAME,
            "enum_declaration": _NAME,
            "record_declaration": _NAME,
            "annotation_type_declaration": _NAME,
            "method_declaration": _NAME,
            "constructor_declaration": _NAME,
            "compact_constructor_declaration": _NAME,
            "field_declaration": "closure",  # "Comparator<T> byName = (a, b) -> {...};"
            "constant_declaration": "closure",  # an interface's
            "local_variable_declaration": "closure",
        },
        closure_marks=(b"->",),
        comments=frozenset({"line_comment", "block_comment"}),
        prefixes=frozenset({"marker_annotation", "annotation"}),
    ),
    CodeLanguage(
        "c",
        _code(
            r"\n(?=(?:static[ \t]+|inline[ \t]+|extern[ \t]+)*(?:struct|union|enum|typedef)\b)",
            r"\n(?=[A-Za-z_][\w \t*]*\b[A-Za-z_]\w*[ \t]*\([^;\n]*\)?[ \t]*\n?\{)",
            _C_LIKE_FLOW,
        ),
        (".c", ".h"),
        ("tree_sitter_c", "language"),
        "tree-sitter-c",
        CODE_EXTRA,
        {
            "function_definition": "declarator",
            "struct_specifier": "with_body",
            "union_specifier": "with_body",
            "enum_specifier": "with_body",
            "type_definition": "declarator",
            "preproc_function_def": _NAME,  # "#define CHECK(b) ..." (a function-like macro)
        },
    ),
    CodeLanguage(
        "cpp",
        _code(
            r"\n(?=(?:template[ \t]*<[^\n]*>\s*)?(?:namespace|class|struct|union|enum)\b)",
            r"\n(?=[ \t]*(?:template[ \t]*<[^\n]*>\s*)?[A-Za-z_~][\w \t*&:<>,~]*\b"
            r"(?:operator\S*|[A-Za-z_~]\w*)[ \t]*\([^;\n]*\)?[^;\n]*\n?[ \t]*\{)",
            _C_LIKE_FLOW,
        ),
        (".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".C", ".H"),
        ("tree_sitter_cpp", "language"),
        "tree-sitter-cpp",
        CODE_EXTRA,
        {
            "function_definition": "declarator",
            "class_specifier": "with_body",
            "struct_specifier": "with_body",
            "union_specifier": "with_body",
            "enum_specifier": "with_body",
            "namespace_definition": "namespace",
            "type_definition": "declarator",
            "preproc_function_def": _NAME,
            "declaration": "closure",  # "auto add = [](int a, int b) {...};"
            "field_declaration": "closure",  # a member: "static inline auto cb = [](…) {…};"
        },
        frozenset({"template_declaration", "linkage_specification"}),
        namespaces=frozenset({"namespace_definition"}),
        prefixes=frozenset({"attribute_declaration"}),
        closure_marks=(b"[",),
    ),
    CodeLanguage(
        "csharp",
        _code(
            r"\n(?=[ \t]*(?:\[[^\n]*\]\s*)*(?:(?:public|private|protected|internal|static|"
            r"abstract|sealed|partial|readonly|unsafe|file)[ \t]+)*"
            r"(?:namespace|class|interface|struct|enum|record)[ \t])",
            r"\n(?=[ \t]*(?:\[[^\n]*\]\s*)*(?:(?:public|private|protected|internal|static|"
            r"virtual|override|abstract|sealed|async|extern|unsafe|new|partial)[ \t]+)+"
            r"[\w<>\[\],.? ]+[ \t]+\w+[ \t]*[(<])",
            _C_LIKE_FLOW,
        ),
        (".cs",),
        ("tree_sitter_c_sharp", "language"),
        "tree-sitter-c-sharp",
        CODE_EXTRA,
        {
            "namespace_declaration": "dotted",  # "namespace A.B"
            "file_scoped_namespace_declaration": "dotted",
            "class_declaration": _NAME,
            "struct_declaration": _NAME,
            "interface_declaration": _NAME,
            "enum_declaration": _NAME,
            "record_declaration": _NAME,
            "method_declaration": _NAME,
            "constructor_declaration": _NAME,
            "destructor_declaration": _NAME,
            "operator_declaration": "operator",
            "conversion_operator_declaration": "operator",
            "indexer_declaration": "this[]",
            "property_declaration": _NAME,
            "local_function_statement": _NAME,
            "delegate_declaration": _NAME,
            "field_declaration": "closure",  # "Func<int, int> twice = x => {...};"
            "event_field_declaration": "closure",
            "local_declaration_statement": "closure",
        },
        closure_marks=(b"=>", b"delegate"),
        file_scopes=frozenset({"file_scoped_namespace_declaration"}),
        namespaces=frozenset({"namespace_declaration"}),
        prefixes=frozenset({"attribute_list"}),
    ),
    CodeLanguage(
        "ruby",
        _code(
            r"\n(?=[ \t]*(?:module|class)[ \t])",
            r"\n(?=[ \t]*def[ \t])",
            _line_starting("if", "unless", "while", "until", "for", "case", "begin", "return"),
        ),
        (".rb", ".rake", ".gemspec"),
        ("tree_sitter_ruby", "language"),
        "tree-sitter-ruby",
        CODE_EXTRA,
        {
            "module": "dotted",  # "module A::B"
            "class": "dotted",
            "singleton_class": "singleton",
            "method": _NAME,
            "singleton_method": _NAME,
        },
        namespaces=frozenset({"module"}),
    ),
    CodeLanguage(
        "php",
        _code(
            r"\n(?=[ \t]*(?:(?:abstract|final|readonly)[ \t]+)*"
            r"(?:namespace|class|interface|trait|enum)[ \t])",
            r"\n(?=[ \t]*(?:(?:public|private|protected|static|abstract|final)[ \t]+)*"
            r"function[ \t])",
            _line_starting("if", "foreach", "for", "while", "do", "switch", "case", "return"),
        ),
        (".php", ".phtml"),
        ("tree_sitter_php", "language_php"),
        "tree-sitter-php",
        CODE_EXTRA,
        {
            "namespace_definition": "dotted",  # "namespace App\\Models"; "namespace {}": none
            "class_declaration": _NAME,
            "interface_declaration": _NAME,
            "trait_declaration": _NAME,
            "enum_declaration": _NAME,
            "function_definition": _NAME,
            "method_declaration": _NAME,
        },
        file_scopes=frozenset({"namespace_definition"}),
        namespaces=frozenset({"namespace_definition"}),
        prefixes=frozenset({"attribute_list"}),
    ),
    CodeLanguage(
        "kotlin",
        _code(
            r"\n(?=[ \t]*(?:@\w+[^\n]*\n[ \t]*)*(?:(?:public|private|protected|internal|open|"
            r"abstract|sealed|data|enum|inner|annotation|companion|value)[ \t]+)*"
            r"(?:class|interface|object)\b)",
            r"\n(?=[ \t]*(?:@\w+[^\n]*\n[ \t]*)*(?:(?:public|private|protected|internal|open|"
            r"override|abstract|suspend|inline|operator|infix|tailrec)[ \t]+)*fun\b)",
            _line_starting("if", "for", "while", "do", "when", "return", "try"),
        ),
        (".kt", ".kts"),
        ("tree_sitter_kotlin", "language"),
        "tree-sitter-kotlin",
        MORE_EXTRA,
        {
            "class_declaration": _NAME,
            "object_declaration": _NAME,
            "companion_object": "companion",
            "function_declaration": _NAME,
            "property_declaration": "accessors",  # with get() or set(), or a lambda
        },
        comments=frozenset({"line_comment", "block_comment"}),
        prefixes=frozenset({"annotation"}),
    ),
    CodeLanguage(
        "scala",
        _code(
            r"\n(?=[ \t]*(?:(?:abstract|final|sealed|implicit|lazy|case|private|protected)"
            r"[ \t]+)*(?:class|object|trait|enum)[ \t])",
            r"\n(?=[ \t]*(?:(?:override|private|protected|final|implicit|inline)[ \t]+)*"
            r"(?:def|given)[ \t])",
            _line_starting("if", "for", "while", "match", "val", "var", "return"),
        ),
        (".scala", ".sc"),
        ("tree_sitter_scala", "language"),
        "tree-sitter-scala",
        MORE_EXTRA,
        {
            "class_definition": _NAME,
            "object_definition": _NAME,
            "trait_definition": _NAME,
            "enum_definition": _NAME,
            "function_definition": _NAME,
            "function_declaration": _NAME,
            "given_definition": "optional_name",
            "val_definition": "closure",  # "val f = (x: Int) => {...}"
            "var_definition": "closure",
        },
        closure_marks=(b"=>",),
        comments=frozenset({"comment", "block_comment"}),
        prefixes=frozenset({"annotation"}),
    ),
    CodeLanguage(
        "swift",
        _code(
            r"\n(?=[ \t]*(?:@\w+[^\n]*\n[ \t]*)*(?:(?:public|private|fileprivate|internal|open|"
            r"final)[ \t]+)*(?:class|struct|enum|protocol|extension|actor)[ \t])",
            r"\n(?=[ \t]*(?:@\w+[^\n]*\n[ \t]*)*(?:(?:public|private|fileprivate|internal|open|"
            r"override|static|class|mutating|final)[ \t]+)*(?:func|init|deinit|subscript)\b)",
            _line_starting("if", "guard", "for", "while", "repeat", "switch", "case", "return"),
        ),
        (".swift",),
        ("tree_sitter_swift", "language"),
        "tree-sitter-swift",
        MORE_EXTRA,
        {
            "class_declaration": _NAME,
            "protocol_declaration": _NAME,
            "function_declaration": _NAME,
            "protocol_function_declaration": _NAME,
            "init_declaration": "init",
            "deinit_declaration": "deinit",
            "subscript_declaration": "subscript",
            "property_declaration": "accessors",  # computed, with didSet, or a closure
        },
        comments=frozenset({"comment", "multiline_comment"}),
        prefixes=frozenset({"attribute"}),
    ),
    CodeLanguage(
        "lua",
        _code(
            r"\n(?=(?:local[ \t]+)?function[ \t])",
            r"\n(?=[ \t]*(?:local[ \t]+)?function[ \t])",
            _line_starting("if", "for", "while", "repeat", "return", "local"),
        ),
        (".lua",),
        ("tree_sitter_lua", "language"),
        "tree-sitter-lua",
        MORE_EXTRA,
        {
            "function_declaration": "dotted",
            "field": "field",  # "render = function () end" in a table
            "assignment_statement": "lua_table",  # "ui = { render = function () end }"
        },
        parses_on=False,
        statement_wrappers=frozenset({"variable_declaration"}),  # "local ui = {...}"
    ),
    CodeLanguage(
        "solidity",
        _code(
            r"\n(?=[ \t]*(?:abstract[ \t]+)?(?:pragma|contract|interface|library)[ \t])",
            r"\n(?=[ \t]*(?:constructor|function|modifier|event|struct|enum|error|fallback|"
            r"receive)\b)",
            _line_starting("if", "for", "while", "do", "return", "try", "emit", "require"),
        ),
        (".sol",),
        ("tree_sitter_solidity", "language"),
        "tree-sitter-solidity",
        MORE_EXTRA,
        {
            "contract_declaration": _NAME,
            "interface_declaration": _NAME,
            "library_declaration": _NAME,
            "function_definition": _NAME,
            "modifier_definition": _NAME,
            "constructor_definition": "constructor",
            "struct_declaration": _NAME,
            "enum_declaration": _NAME,
            "event_definition": _NAME,
        },
    ),
    # Languages without a grammar wheel that works offline: separator tables only.
    CodeLanguage(
        "proto",
        _code(
            r"\n(?=[ \t]*(?:message|service|enum|oneof|extend)[ \t])",
            r"\n(?=[ \t]*(?:rpc|option|import|syntax|package)[ \t])",
            r"\n(?=[ \t]*(?:optional|required|repeated|map<|reserved)\b)",
        ),
        (".proto",),
    ),
    CodeLanguage(
        "r",
        _code(
            r"\n(?=[\w.]+[ \t]*(?:<-|=)[ \t]*function\b)",
            r"\n(?=[ \t]*(?:setClass|setGeneric|setMethod|setRefClass|R6Class)\b)",
            _line_starting("if", "for", "while", "repeat", "switch", "return"),
        ),
        (".r",),
    ),
    CodeLanguage(
        "rst",
        _code(
            # A section title, with its overline if it has one (never cut from its lines)
            r"(?<![=\-~^*#\"])\n(?=(?:[=\-~^*#\"]+\n)?[^\n]+\n[=\-~^*#\"]+\n)",
            r"\n(?=\.\. [\w-]+::)",
            r"(?<=\n)\n(?=(?:=+|-+|\*+)\n)",  # a transition line, after a blank line
        ),
        (".rst",),
    ),
    CodeLanguage(
        "cobol",
        _code(
            r"\n(?=[ \t\d]*(?:IDENTIFICATION|ENVIRONMENT|DATA|PROCEDURE)[ \t]+DIVISION)",
            r"\n(?=[ \t\d]*[\w-]+[ \t]+SECTION\.)",
            r"\n(?=[ \t\d]*(?:PERFORM|IF|EVALUATE|MOVE|COMPUTE|CALL|DISPLAY|STOP)\b)",
        ),
        (".cob", ".cbl", ".cpy"),
    ),
    CodeLanguage(
        "perl",
        _code(
            r"\n(?=(?:package|sub|BEGIN|END)[ \t{])",
            r"\n(?=[ \t]*sub[ \t])",
            _line_starting("if", "unless", "for", "foreach", "while", "until", "return", "my"),
        ),
        (".pl", ".pm", ".t"),
    ),
    CodeLanguage(
        "haskell",
        _code(
            r"\n(?=(?:module|import|data|newtype|type|class|instance)[ \t])",
            r"\n(?=[a-z_][\w']*[ \t]+::)",
            r"\n(?=[a-z_][\w']*\b)",
            r"\n(?=[ \t]+(?:where|let|case|do)\b)",
        ),
        (".hs", ".lhs"),
    ),
    CodeLanguage(
        "elixir",
        _code(
            r"\n(?=[ \t]*(?:defmodule|defprotocol|defimpl)[ \t])",
            r"\n(?=[ \t]*(?:@doc|@spec|@impl|def|defp|defmacro|defmacrop|defguard|"
            r"defdelegate|defstruct|describe|test)\b)",
            _line_starting("if", "unless", "case", "cond", "with", "for", "receive"),
        ),
        (".ex", ".exs"),
    ),
    CodeLanguage(
        "powershell",
        _code(
            r"\n(?=[ \t]*(?:function|filter|workflow|class|enum|configuration)[ \t])",
            r"\n(?=[ \t]*(?:param|begin|process|end)\b)",
            _line_starting("if", "elseif", "else", "foreach", "for", "while", "switch", "try"),
        ),
        (".ps1", ".psm1", ".psd1"),
    ),
    CodeLanguage(
        "visualbasic6",
        _code(
            r"\n(?=[ \t]*(?:(?:Public|Private|Friend|Static)[ \t]+)*"
            r"(?:Sub|Function|Property|Type|Enum)[ \t])",
            r"\n(?=[ \t]*(?:If|For|Do|While|Select|With)\b)",
        ),
        (".bas", ".cls", ".frm", ".vb"),
    ),
    CodeLanguage("markdown", PRESETS["markdown"], (".md", ".markdown")),
    CodeLanguage("latex", PRESETS["latex"], (".tex", ".latex")),
    CodeLanguage("html", PRESETS["html"], (".html", ".htm", ".xhtml")),
)

LANGUAGES: dict[str, CodeLanguage] = {language.name: language for language in _LANGUAGES}
"""Every language spansplit knows, by its name."""

MARKUP_LANGUAGES = frozenset({"markdown", "latex", "html", "rst"})
"""The languages whose texts are documents (prose in markup), not programs: overlap in
them may start inside a line, at a word; ``spansplit code`` leaves such files found in a
folder out, and ``spansplit auto`` splits them by their separator tables."""

# TSX: TypeScript's definitions and separators with the grammar that reads JSX.
_TS = LANGUAGES["typescript"]
LANGUAGES["tsx"] = CodeLanguage(
    "tsx",
    _TS.separators,
    (".tsx",),
    ("tree_sitter_typescript", "language_tsx"),
    _TS.package,
    CODE_EXTRA,
    _TS.definitions,
    _TS.wrappers,
    _TS.comments,
    _TS.prefixes,
    statement_wrappers=_TS.statement_wrappers,
    namespaces=_TS.namespaces,
)

ALIASES: dict[str, str] = {
    # LangChain's ``Language`` values that are not our names.
    "js": "javascript",
    "ts": "typescript",
    "sol": "solidity",
    # Common spellings.
    "py": "python",
    "python3": "python",
    "golang": "go",
    "c++": "cpp",
    "cxx": "cpp",
    "c#": "csharp",
    "c-sharp": "csharp",
    "c_sharp": "csharp",
    "cs": "csharp",
    "jsx": "javascript",
    "rb": "ruby",
    "rs": "rust",
    "kt": "kotlin",
    "vb6": "visualbasic6",
    "protobuf": "proto",
    "md": "markdown",
    "tex": "latex",
}

EXTENSIONS: dict[str, str] = {
    extension: language.name for language in LANGUAGES.values() for extension in language.extensions
}
"""File extension (with its dot, as written) to language name."""


def get_language(language: object) -> CodeLanguage:
    """The :class:`CodeLanguage` of a name, an alias (``"js"``, ``"c++"``) or a LangChain
    ``Language`` member; :class:`InvalidParameterError` names the value otherwise."""
    value = getattr(language, "value", language)
    if not isinstance(value, str):
        raise ParameterTypeError(
            f"language must be a language name such as 'python', got "
            f"{type(language).__name__}: {language!r:.80}"
        )
    key = value.strip().lower()
    key = ALIASES.get(key, key)
    if key not in LANGUAGES:
        close = difflib.get_close_matches(key, [*LANGUAGES, *ALIASES], n=1)
        guess = f"; did you mean {close[0]!r}?" if close else ""
        raise InvalidParameterError(
            "language",
            language,
            f"not a language spansplit knows; one of {sorted(LANGUAGES)}{guess}",
        )
    return LANGUAGES[key]


_C_OR_CPP = frozenset({".h", ".C", ".H"})
"""Extensions that C and C++ share, or that a case-insensitive name does: ``.h`` is a
header of either; ``.C`` and ``.H`` are C++ to GCC and Clang, and C where the whole name
is upper case (``MAIN.C``, a name from DOS)."""

_CPP_MARKS = re.compile(
    r"^[ \t]*(?:"
    r"namespace(?:[ \t]+[\w:]+)?[ \t]*(?:\{|=|$)|using[ \t]+namespace\b|template[ \t]*<"
    r"|(?:class|struct)[ \t]+\w+(?:[ \t]+final)?[ \t]*:[ \t]*(?:public|protected|private)\b"
    r"|class[ \t]+\w+(?:[ \t]+final)?[ \t]*(?:\{|$)|(?:public|protected|private)[ \t]*:"
    r"|#[ \t]*include[ \t]*<\w+>|enum[ \t]+(?:class|struct)\b|virtual\b"
    r")|\bstd::\w"
    r"|\boperator[ \t]*(?:[-+*/%^&|~!=<>]{1,3}|\[\]|\(\))[ \t]*\(",
    re.MULTILINE,
)
"""What C does not have and C++ code (a header above all) usually shows at once, each
at a line start: a namespace, a template, a class (or a struct with a base), an access
specifier, an ``#include`` of a standard header without ``.h``, a scoped enum, a virtual
member; or anywhere ``std::`` or an operator overloaded (not ``constexpr`` or ``nullptr``:
C23 has them too)."""

SNIFF_CHARS = 1 << 16
"""How much of a text (its first this many code points) :func:`language_for_path` reads
to tell C++ from C."""


_CPP_OR_NOT = re.compile(r"__cplusplus\b(?![ \t)]*[<>=!])")
_NOT_CPP = re.compile(r"![ \t(]*(?:defined[ \t(]*)?__cplusplus\b")
_CONDITIONAL = re.compile(
    r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b([^\n]*)", re.MULTILINE
)


def _for_cpp_only(text: str, end: int) -> list[tuple[int, int]]:
    """The stretches of ``text[:end]`` that only a C++ compiler reads: between ``#ifdef
    __cplusplus`` (or an ``#if`` that asks for it) and its ``#else``/``#endif`` (a C
    header's ``extern "C" {`` or C++ helpers), or after the ``#else`` of ``#ifndef``."""
    stack: list[tuple[bool, bool]] = []  # per open conditional: asks for C++, branch is C++
    stretches: list[tuple[int, int]] = []
    opened = -1  # where the current C++-only stretch began
    for found in _CONDITIONAL.finditer(text, 0, end):
        directive, condition = found.group(1), found.group(2)
        if directive in ("if", "ifdef", "ifndef"):
            # only whether it is C++ (``#if __cplusplus >= 201103L`` is C++ code's own)
            asks = "__cplusplus" in condition and _CPP_OR_NOT.search(condition) is not None
            negated = directive == "ifndef" or _NOT_CPP.search(condition) is not None
            stack.append((asks, asks and not negated))
        elif not stack:
            continue
        elif directive == "endif":
            stack.pop()
        else:
            asks, branch = stack[-1]
            stack[-1] = (asks, asks and not branch if directive == "else" else False)
        inside = any(branch for _, branch in stack)
        if inside and opened < 0:
            opened = found.end()
        elif not inside and opened >= 0:
            stretches.append((opened, found.start()))
            opened = -1
    if opened >= 0:
        stretches.append((opened, end))
    return stretches


def looks_like_cpp(text: str) -> bool:
    """Whether ``text`` (its first :data:`SNIFF_CHARS` code points) reads as C++ rather
    than C: whether it shows what only C++ has (see :data:`_CPP_MARKS`) outside the
    stretches a C header keeps for C++ compilers (``#ifdef __cplusplus``)."""
    end = min(len(text), SNIFF_CHARS)
    found = _CPP_MARKS.search(text, 0, end)
    if found is None or "__cplusplus" not in text[:end]:
        return found is not None
    stretches = _for_cpp_only(text, end)
    while found is not None:
        position = found.start()
        if not any(low <= position < high for low, high in stretches):
            return True
        found = _CPP_MARKS.search(text, found.end(), end)
    return False


def language_for_path(path: str | PurePath, text: str | None = None) -> str:
    """The language name of a file from its extension (``"src/app.tsx"`` → ``"tsx"``);
    :class:`InvalidParameterError` names the path when the extension is unknown.

    C and C++ share ``.h``: with the file's ``text``, a header that shows what only C++
    has (a namespace, a class, a template, ``std::``, an access specifier, an overloaded
    operator, a scoped enum ...) is ``"cpp"``;
    without it, ``.h`` is ``"c"``. ``.C`` and ``.H`` are C++ (as to GCC and Clang), but C
    where the whole file name is upper case (``MAIN.C``); the text decides where given."""
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterTypeError(
            f"path must be a str or a path, got {type(path).__name__}: {path!r:.80}"
        )
    pure = PurePath(path)
    suffix = pure.suffix
    name = EXTENSIONS.get(suffix) or EXTENSIONS.get(suffix.lower())
    if name is None:
        raise InvalidParameterError(
            "path",
            str(path),
            f"no language for the extension {suffix!r}; pass the language by name "
            f"(one of {sorted(LANGUAGES)})",
        )
    if suffix in _C_OR_CPP:
        if text is not None:
            return "cpp" if looks_like_cpp(text) else "c"
        if suffix != ".h" and pure.name.isupper():
            return "c"
    return name
