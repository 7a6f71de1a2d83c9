"""CodeSplitter: syntax-tree chunks of real code, exact and within budget.

Samples in ``tests/data/code.*`` were written for the project; the Python standard
library on disk is real code nobody tuned the splitter on. A language whose grammar
wheel is missing skips its tests with a reason.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import json
import pickle
import re
import subprocess
import sys
import sysconfig
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from conftest import DATA, sample
from hypothesis import given, settings
from hypothesis import strategies as st

from spansplit import (
    LANGUAGES,
    Chunk,
    CodeSplitter,
    GrammarUnavailableError,
    InvalidParameterError,
    ParameterTypeError,
    RecursiveSplitter,
    language_for_path,
    split_code,
)
from spansplit.batch import Document
from spansplit.boundaries import code as code_boundaries
from spansplit.boundaries.code import SyntaxLevel, grammar_available
from spansplit.boundaries.code_languages import get_language
from spansplit.corpus import SplitterByFileType
from spansplit.sizing.token_index import INDEX_MIN_CHARS
from spansplit.splitters import code as code_splitter
from tests.support import peak_memory

SAMPLES = {
    "python": "code.py",
    "go": "code.go",
    "rust": "code.rs",
    "java": "code.java",
    "typescript": "code.ts",
    "ruby": "code.rb",
}


def needs_grammar(language: str) -> None:
    if not grammar_available(get_language(language)):
        pytest.skip(f"the {language} grammar wheel is not installed")


def check_chunks(text: str, chunks: list[Chunk], splitter: CodeSplitter) -> None:
    """Exact spans, budget under the real length, order, lines, line starts, no lost text."""
    count = splitter.length.count
    covered = bytearray(len(text))
    previous = -1
    for position, chunk in enumerate(chunks):
        assert chunk.index == position
        assert text[chunk.start : chunk.end] == chunk.text
        assert chunk.text.strip()
        assert chunk.size == count(chunk.text) <= splitter.chunk_size
        assert chunk.start > previous
        previous = chunk.start
        line_start = text.rfind("\n", 0, chunk.start) + 1
        assert chunk.start_line == text.count("\n", 0, chunk.start) + 1
        if text[line_start : chunk.start].strip():
            line_end = text.find("\n", chunk.start)
            line = text[line_start : len(text) if line_end < 0 else line_end + 1]
            assert count(line) > splitter.chunk_size, f"chunk {position} starts mid-line"
        covered[chunk.start : chunk.end] = b"\x01" * (chunk.end - chunk.start)
    lost = [i for i, seen in enumerate(covered) if not seen and not text[i].isspace()]
    assert not lost, f"text lost at {lost[:5]}"


def cut_definitions(text: str, chunks: list[Chunk], splitter: CodeSplitter) -> tuple[int, int]:
    """How many definitions (top-level and members) fit the budget, and how many of those
    a chunk edge falls inside. Where chunks keep their whitespace they are whole lines,
    so a definition fits where its lines do, indentation and line ending included."""
    edges = sorted({c.start for c in chunks} | {c.end for c in chunks})
    fitting = cut = 0
    for definition in SyntaxLevel(text, splitter.info).definitions(2):
        own = text[definition.own_start : definition.end]
        start = definition.own_start + len(own) - len(own.lstrip())
        end = definition.own_start + len(own.rstrip())
        whole = (
            (start, end) if splitter.strip_whitespace else (definition.own_start, definition.end)
        )
        if splitter.length.count(text[whole[0] : whole[1]]) > splitter.chunk_size:
            continue
        fitting += 1
        following = bisect.bisect_right(edges, start)
        cut += following < len(edges) and edges[following] < end
    return fitting, cut


@pytest.mark.parametrize("language", list(SAMPLES))
@pytest.mark.parametrize(("length", "size"), [(None, 200), (None, 600), ("cl100k_base", 64)])
def test_samples_are_split_exactly(language: str, length: str | None, size: int) -> None:
    needs_grammar(language)
    text = sample(SAMPLES[language])
    splitter = CodeSplitter(language, size, length=length)
    chunks = splitter.split(text)
    check_chunks(text, chunks, splitter)
    assert splitter.split(text) == chunks  # deterministic
    fitting, cut = cut_definitions(text, chunks, splitter)
    assert fitting and cut == 0


@pytest.mark.parametrize("language", list(SAMPLES))
@settings(max_examples=25)
@given(
    size=st.integers(8, 700),
    overlap_share=st.sampled_from([0, 0, 0.1, 0.3]),
    strip=st.booleans(),
)
def test_any_budget_keeps_the_promise(
    language: str, size: int, overlap_share: float, strip: bool
) -> None:
    needs_grammar(language)
    text = sample(SAMPLES[language])
    splitter = CodeSplitter(language, size, int(size * overlap_share), strip_whitespace=strip)
    check_chunks(text, splitter.split(text), splitter)


def test_symbol_paths_and_kinds() -> None:
    needs_grammar("python")
    text = sample("code.py")
    chunks = split_code(text, "python", 300)
    paths = {tuple(c.metadata["symbols"]) for c in chunks}
    assert ("TidePredictor", "extremes") in paths
    assert all(c.metadata["language"] == "python" for c in chunks)
    whole = [c for c in chunks if c.metadata["symbols"] == ["format_table"]]
    assert whole and whole[0].metadata["node_kinds"] == ["function_definition"]
    assert whole[0].text.lstrip().startswith("def format_table")


TOP_LEVEL_DEFINITION = re.compile(r"^(?:async def |def |class |@)", re.M)  # or its decorator


@pytest.mark.parametrize(("length", "size"), [(None, 200), (None, 400), ("cl100k_base", 128)])
def test_overlap_never_reaches_back_into_the_previous_top_level_definition(
    length: str | None, size: int
) -> None:
    needs_grammar("python")
    text = sample("code.py")
    chunks = split_code(text, "python", size, size // 5, length=length)
    overlapping = 0
    for before, after in itertools.pairwise(chunks):
        if after.start >= before.end:
            continue
        overlapping += 1
        new_text = len(text) - len(text[before.end :].lstrip())  # where its new text starts
        for found in TOP_LEVEL_DEFINITION.finditer(text, after.start + 1, new_text + 1):
            # Only the definition's own comments and decorators may come before it.
            lead = text[after.start : found.start()].splitlines()
            assert all(not line or line.startswith(("#", "@")) for line in lead), (after, found)
    assert overlapping  # inside definitions, chunks still overlap


def test_a_chunk_that_starts_a_function_carries_its_name_with_overlap() -> None:
    needs_grammar("python")
    chunks = split_code(sample("code.py"), "python", 400, 80)
    starting = [c for c in chunks if c.text.startswith("@lru_cache(maxsize=None)\ndef spring_")]
    assert [c.metadata["symbols"] for c in starting] == [["spring_neap_period"]]


@pytest.mark.parametrize(
    ("language", "size", "path"),
    [
        ("go", 300, ("Predictor", "Extremes")),
        ("rust", 300, ("Predict", "extremes")),
        ("java", 300, ("TidePredictor", "extremes")),
        ("typescript", 300, ("TidePredictor", "extremes")),
        ("ruby", 300, ("Tides", "Predictor", "extremes")),
    ],
)
def test_symbol_paths_in_other_languages(language: str, size: int, path: tuple[str, ...]) -> None:
    needs_grammar(language)
    chunks = split_code(sample(SAMPLES[language]), language, size)
    assert path in {tuple(c.metadata["symbols"]) for c in chunks}


def test_a_ruby_singleton_class_adds_no_symbol() -> None:
    # "class << self" opens the class's own methods: Predictor.from_table, not a path through
    # a "<< self"; "class << obj" opens obj's.
    needs_grammar("ruby")
    paths = {tuple(c.metadata["symbols"]) for c in split_code(sample("code.rb"), "ruby", 100)}
    assert ("Tides", "Predictor", "from_table") in paths
    assert not any("<< self" in path for path in paths)
    text = "class Log\n  class << STDOUT\n    def note(x) = puts(x)\n  end\nend\n"
    chunks = split_code(text, "ruby", 30)
    assert [c.metadata["symbols"] for c in chunks if "def note" in c.text] == [
        ["Log", "STDOUT", "note"]
    ]


@pytest.mark.parametrize("language", list(SAMPLES))
def test_comments_decorators_and_attributes_stay_with_their_definition(language: str) -> None:
    needs_grammar(language)
    text = sample(SAMPLES[language])
    for size in (150, 250, 400):
        splitter = CodeSplitter(language, size)
        chunks = splitter.split(text)
        starts = [c.start for c in chunks]
        count = splitter.length.count
        for definition in SyntaxLevel(text, splitter.info).definitions(2):
            if definition.own_start == definition.start:
                continue  # nothing above it
            alone = text[definition.own_start : definition.end]
            together = text[definition.start : definition.end]
            if count(alone) <= size < count(together):
                continue  # kept whole, with its comments in the chunk before
            # The comment's first line and the definition's first line share a chunk.
            own_line_end = text.index("\n", definition.own_start)
            if count(text[definition.start : own_line_end + 1]) > size:
                continue  # they cannot
            holder = bisect.bisect_right(starts, definition.start) - 1
            assert holder >= 0 and chunks[holder].end > own_line_end, (
                size,
                definition.path,
            )


def test_standard_library_is_split_well() -> None:
    """Real code: at most 1% of the definitions that fit are cut (none, in practice)."""
    needs_grammar("python")
    folder = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(folder.glob("*.py"))[:12]
    splitter = CodeSplitter("python", 256, length="cl100k_base")
    fitting = cut = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        chunks = splitter.split(text)
        check_chunks(text, chunks, splitter)
        found = cut_definitions(text, chunks, splitter)
        fitting, cut = fitting + found[0], cut + found[1]
    assert fitting > 100 and cut <= fitting // 100


def test_line_longer_than_the_budget_is_cut_at_words() -> None:
    needs_grammar("python")
    text = "def f():\n    return [" + ", ".join(str(i) for i in range(200)) + "]\n"
    splitter = CodeSplitter("python", 60)
    check_chunks(text, splitter.split(text), splitter)


@pytest.mark.parametrize("length", [None, "cl100k_base"])
@pytest.mark.parametrize("fallback", ["error", "separators"])
def test_a_long_whitespace_run_inside_a_line_is_in_no_chunk(
    length: str | None, fallback: str
) -> None:
    # A run of BLANK_RUN_CHARS or more after a word is left between pieces (as chunks of
    # spaces alone would be dropped); a shorter one stays with the word before it.
    if fallback == "error":
        needs_grammar("python")
    run = " " * 20_000
    arguments = ", ".join(f"argument_{i}" for i in range(40))
    text = f"x = 1\nvalue = f(a,{run}{arguments})  # note\ny = 2\n"
    size = 300 if length is None else 100  # a word and 255 spaces fit, the line does not
    splitter = CodeSplitter("python", size, length=length, fallback=fallback)  # type: ignore[arg-type]
    chunks = splitter.split(text)
    check_chunks(text, chunks, splitter)
    assert not any(run[: code_boundaries.BLANK_RUN_CHARS] in chunk.text for chunk in chunks)
    assert "".join("".join(chunk.text.split()) for chunk in chunks) == "".join(text.split())
    kept = " " * (code_boundaries.BLANK_RUN_CHARS - 1)
    short = text.replace(run, kept)
    assert kept in "".join(chunk.text for chunk in splitter.split(short))


@pytest.mark.parametrize("fallback", ["error", "separators"])
def test_one_long_line_of_words_is_read_a_window_at_a_time(fallback: str) -> None:
    # Prose given as code (or a long line of code over budget) is cut at its words: they
    # were all read at once, a list of every word of a megabyte's line (43 times the text).
    if fallback == "error":
        needs_grammar("python")
    text = "- " + "Words of one long line, and more of them. " * 12_000 + "\n"
    splitter = CodeSplitter("python", 2_000, 200, fallback=fallback)  # type: ignore[arg-type]
    splitter.split(text[:60_000])
    chunks = splitter.split(text)
    check_chunks(text, chunks, splitter)
    assert peak_memory(lambda: splitter.split(text)) < 8 * sys.getsizeof(text)


def test_a_missing_closing_brace_at_the_end_is_no_piece() -> None:
    # tree-sitter gives the missing "}" a node of no width at the end of the text: the
    # unit it makes holds no text and is no piece.
    needs_grammar("go")
    text = "package p\nfunc g() {\n\tx := 1\n\ty := 2\n"
    for size in (3, 8, 40):
        splitter = CodeSplitter("go", size)
        check_chunks(text, splitter.split(text), splitter)


def test_a_trimmed_definition_over_blank_lines_at_the_end_splits_by_its_statements() -> None:
    # A function whose "}" is missing at the end runs over the blank line after it; packed
    # with trimming, it is asked about by its trimmed span and still splits at its
    # statements, so no chunk starts inside a line that fits; each keeps its first line's
    # indentation.
    needs_grammar("go")
    text = "package p\n\nfunc f() {\n" + "".join(f"\tv{i} := g(\n\t\t{i})\n" for i in range(4))
    text += "\n"
    splitter = CodeSplitter("go", 40, strip_whitespace=True)
    chunks = splitter.split(text)
    check_chunks(text, chunks, splitter)
    for chunk in chunks:
        line_start = text.rfind("\n", 0, chunk.start) + 1
        assert not text[line_start : chunk.start].strip(), chunk
    # (the function's signature and first statement start a chunk: they go with its body)
    assert [chunk.text for chunk in chunks] == [
        "package p",
        "func f() {\n\tv0 := g(\n\t\t0)\n\tv1 := g(\n\t\t1)",
        "\tv2 := g(\n\t\t2)\n\tv3 := g(\n\t\t3)",
    ]


def test_empty_and_blank_text() -> None:
    needs_grammar("python")
    assert split_code("", "python", 10) == []
    assert split_code("\n  \n", "python", 10) == []


def test_non_ascii_and_crlf() -> None:
    needs_grammar("python")
    text = sample("code.py").replace("\n", "\r\n").replace("height", "hauteur_été_😀")
    splitter = CodeSplitter("python", 200)
    check_chunks(text, splitter.split(text), splitter)


@pytest.mark.parametrize("language", ["python", "go"])
def test_a_lone_cr_ends_a_line_as_lf_does(language: str) -> None:
    needs_grammar(language)
    text = sample(SAMPLES[language])
    for size in (60, 200):
        splitter = CodeSplitter(language, size)
        as_lf = [(c.start, c.end, c.start_line, c.metadata) for c in splitter.split(text)]
        lone_cr = splitter.split(text.replace("\n", "\r"))
        assert [(c.start, c.end, c.start_line, c.metadata) for c in lone_cr] == as_lf


@pytest.mark.parametrize("language", list(SAMPLES))
def test_every_chunk_names_the_kinds_it_holds(language: str) -> None:
    """Also a line of a docstring, an ``else:``, a comment cut from what follows it."""
    needs_grammar(language)
    text = sample(SAMPLES[language])
    for size in (40, 90, 250):
        for chunk in split_code(text, language, size):
            assert chunk.metadata["node_kinds"], (size, chunk.text)


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        (
            "python",
            "class A:\n    def f(self): return [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]\n",
            [
                ("f(self): return [1, ", ["A", "f"], ["function_definition"]),
                ("2, 3, 4, 5, 6, 7, ", ["A", "f"], ["list"]),
                ("8, 9, 10, 11, 12, ", ["A", "f"], ["list"]),
                ("13, 14]\n", ["A", "f"], ["list"]),
            ],
        ),
        (
            "javascript",
            "class A { m() { return 1 + 2 + 3 + 4 + 5; } n() {} }\n",
            [
                ("class A { m() { ", ["A"], ["class_declaration"]),
                ("return 1 + 2 + 3 + ", ["A", "m"], ["return_statement"]),
                ("4 + 5; } n() {} }\n", ["A"], ["class_body"]),
            ],
        ),
        (
            "go",
            "func F(a int) int { return a + a + a + a + a + a + a + a }\r\n",
            [
                ("func F(a int) int { ", ["F"], ["function_declaration"]),
                ("return a + a + a + ", ["F"], ["return_statement"]),
                ("a + a + a + a + a ", ["F"], ["binary_expression"]),
                ("}\r\n", ["F"], ["block"]),
            ],
        ),
    ],
)
def test_pieces_of_a_line_over_budget_name_what_holds_them(
    language: str, text: str, expected: list[tuple[str, list[str], list[str]]]
) -> None:
    # A line over budget is cut by words; each piece names the definitions on the line
    # that hold it (a one-line method inside its class) and the smallest node holding it.
    needs_grammar(language)
    chunks = split_code(text, language, 20)
    found = [(c.text, c.metadata["symbols"], c.metadata["node_kinds"]) for c in chunks]
    assert found[-len(expected) :] == expected


def test_lines_of_a_docstring_name_its_string() -> None:
    # A docstring's first line holds the string's opening quotes and the start of its
    # content: the string holds it, not string_start (the quotes alone), as it holds the
    # lines after it; the closing quotes alone are the string's end.
    needs_grammar("python")
    text = 'def f():\n    """First line is here.\n    Second line here.\n    """\n    return 1\n'
    for size in (8, 30):
        chunks = split_code(text, "python", size)
        found = [(c.text.strip(), c.metadata["node_kinds"]) for c in chunks]
        in_docstring = [k for piece, k in found if piece != '"""' and piece in text[13:64]]
        assert in_docstring and set(map(tuple, in_docstring)) == {("string",)}, found
        assert ('"""', ["string_end"]) in found or size == 30, found


@pytest.mark.parametrize(
    ("language", "size", "text"),
    [
        ("python", 12, 'x = "\\n alpha beta gamma delta epsilon"\n'),  # after an escape
        ("rust", 6, "// abcdefgh\n"),  # past a comment's only child
        ("rust", 8, "fn f() { let x = 1; } // alpha beta gamma delta\n"),
        # a gap inside an ERROR node, after lines of valid Java (so the text is read as code)
        ("java", 2, 'class A{}\nclass B{}\n""" \\ \\'),
    ],
)
def test_pieces_of_a_line_where_no_child_covers_them(language: str, size: int, text: str) -> None:
    # Bytes no child node covers (py-tree-sitter's first_child_for_byte gives a null node
    # there, which crashed the process when used): the piece takes the kind of the node
    # around it.
    needs_grammar(language)
    chunks = CodeSplitter(language, size).split(text)
    # (all the text but a line ending alone: at 2 characters Java's "{}\n" parts as "{}",
    # not as "A{" and "}\n", which would end a chunk with an opening bracket and start the
    # next with a closing one; a chunk of whitespace alone is left out)
    assert "".join("".join(chunk.text for chunk in chunks).split()) == "".join(text.split())
    assert all(text[c.start : c.end] == c.text for c in chunks)
    assert all(chunk.metadata["node_kinds"] for chunk in chunks)


def test_a_chunk_of_a_decorator_and_a_comment_has_both_kinds() -> None:
    """A decorator and the comment below it, one unit, were kinded ``comment`` only: the
    kinds of a joined unit left out comments and prefixes, for a signature's sake (found by
    a review)."""
    needs_grammar("python")
    text = "@first_decorator\n# a comment between\n@second_decorator\ndef function(a):\n"
    chunks = split_code(text + "    return a + 1\n", "python", 40)
    assert (chunks[0].text, chunks[0].metadata["node_kinds"]) == (
        "@first_decorator\n# a comment between\n",
        ["decorator", "comment"],
    )


@pytest.mark.parametrize("above", ["# note\n", "@dec\n"])
def test_a_one_line_definition_below_comments_is_named_once(above: str) -> None:
    needs_grammar("python")
    text = above + "def f(): return [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]\n"
    assert [c.metadata["symbols"] for c in CodeSplitter("python", 20).split(text)] == [["f"]] * 4


def test_a_definition_is_named_by_its_kind_not_its_comment_or_attribute() -> None:
    needs_grammar("rust")
    chunks = split_code(sample("code.rs"), "rust", 32, length="cl100k_base")
    struct = next(c for c in chunks if "#[derive" in c.text)
    assert struct.text.lstrip().startswith("///") and "pub struct Constituent {" in struct.text
    assert struct.metadata["node_kinds"] == ["struct_item"]


def test_attributes_stay_with_their_definition_where_the_comments_above_cannot() -> None:
    """A doc comment, an attribute and a struct that fit only without the comment: the
    attribute was left with the comment, the struct alone; now the attribute goes with
    the struct (as a Python decorator, part of its definition, does). The comment, which
    cannot go with them, is a chunk of its own named by the struct it documents (it had
    ended the chunk before: ``use std::fmt;``)."""
    needs_grammar("rust")
    text = (
        "use std::fmt;\n\n/// A point in the plane.\n#[derive(Debug, Clone)]\n"
        "pub struct Point {\n    x: i32,\n}\n"
    )
    pieces = [
        (c.text, c.metadata["symbols"]) for c in split_code(text, "rust", 20, length="cl100k_base")
    ]
    assert pieces[-1] == (
        "#[derive(Debug, Clone)]\npub struct Point {\n    x: i32,\n}\n",
        ["Point"],
    )
    assert pieces[:2] == [("use std::fmt;\n", []), ("/// A point in the plane.\n", ["Point"])]
    # Where the comment fits too, all three stay together.
    [whole] = split_code(text[text.index("///") :], "rust", 30, length="cl100k_base")
    assert whole.metadata["symbols"] == ["Point"]


def test_a_line_is_kinded_by_its_statement_not_by_the_name_it_starts_with() -> None:
    """The first line of a statement or definition over budget was kinded by its first
    named node, often a bare name: ``identifier`` for ``const api = {``, ``for x in y:``,
    ``except ValueError:`` and ``Collections.sort(items, new Comparator<T>() {``. Now by
    the definition whose header it holds, or the node around the name."""
    for language in ("python", "javascript", "java"):
        needs_grammar(language)
    cases = [
        ("javascript", "const api = {\n  get: () => 1,\n  put: () => 2,\n};\n", 14),
        ("python", "for x in y:\n    total = total + x * 2\n", 10),
        ("python", "try:\n    run()\nexcept ValueError:\n    raise SystemExit(1)\n", 10),
        (
            "java",
            "class A {\n  void f(List<T> items) {\n    Collections.sort(items, new "
            "Comparator<T>() {\n      public int compare(T a, T b) { return 0; }\n    });\n"
            "  }\n}\n",
            20,
        ),
    ]
    kinds = {}
    for language, text, size in cases:
        for chunk in split_code(text, language, size, length="cl100k_base"):
            kinds[chunk.text.split("\n")[0].strip()] = chunk.metadata["node_kinds"]
    assert kinds["const api = {"] == ["lexical_declaration", "pair"]
    assert kinds["for x in y:"] == ["for_statement"]
    assert kinds["except ValueError:"] == ["except_clause"]
    assert kinds["Collections.sort(items, new Comparator<T>() {"] == ["method_invocation"]


def test_comments_go_with_the_signature_where_they_cannot_go_with_more() -> None:
    needs_grammar("python")
    text = (
        "# A comment that explains the function below in some detail.\n"
        "# And a second line of it, long enough to matter here.\n"
        "def compute(alpha, beta):\n"
        '    """Return the thing."""\n'
        "    total = alpha + beta\n" + "    total = total * 2\n" * 4 + "    return total\n"
    )
    signature = text.index("def compute")
    docstring_end = text.index("    total")
    # The function is over budget. Comments, signature and docstring fit: together. Only
    # comments and signature: those.
    for size, first_end in ((docstring_end, docstring_end), (docstring_end - 5, signature + 26)):
        first = split_code(text, "python", size)[0]
        assert (first.start, first.end) == (0, first_end), size
        assert first.metadata["symbols"] == ["compute"]


def test_language_from_name_alias_extension_and_langchain() -> None:
    assert language_for_path("src/app.tsx") == "tsx"
    assert language_for_path("lib/Main.JAVA") == "java"
    assert get_language("JS").name == "javascript"
    assert get_language("c++").name == "cpp"
    with pytest.raises(InvalidParameterError, match="path"):
        language_for_path("notes.unknown")
    for bad in (None, 3):
        with pytest.raises(ParameterTypeError, match="path"):
            language_for_path(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="language='klingon'"):
        CodeSplitter("klingon", 100)
    with pytest.raises(InvalidParameterError, match="did you mean 'python'"):
        CodeSplitter("pyhton", 100)
    with pytest.raises(ParameterTypeError, match="language"):
        CodeSplitter(3, 100)
    with pytest.raises(InvalidParameterError, match="chunk_size"):
        CodeSplitter("python", 0)
    with pytest.raises(InvalidParameterError, match="fallback"):
        CodeSplitter("python", 10, fallback="guess")  # type: ignore[arg-type]


def test_every_langchain_language_has_a_separator_table() -> None:
    language_enum = pytest.importorskip("langchain_text_splitters").Language
    text = sample("code.py")
    for member in language_enum:
        splitter = RecursiveSplitter.from_language(member, 120)
        chunks = splitter.split(text)
        assert all(text[c.start : c.end] == c.text and c.size <= 120 for c in chunks)
        assert get_language(member).separators.separators[-1] == ""


def assert_whole_lines(text: str, chunks: list[Chunk], splitter: CodeSplitter) -> None:
    """Besides :func:`check_chunks`: every chunk starts at a line start (a CRLF pair
    whole; without overlap, not on a blank line) and ends with its line's ending (the
    text's end aside) unless that line is over the budget."""
    check_chunks(text, chunks, splitter)
    for chunk in chunks:
        start = chunk.start
        lone_cr = text[start - 1] == "\r" and not text.startswith("\n", start)
        assert start == 0 or text[start - 1] == "\n" or lone_cr, chunk
        if not splitter.chunk_overlap:
            assert not chunk.text.startswith(("\n", "\r")), chunk
        if chunk.end < len(text) and text[chunk.end - 1] not in "\r\n":
            line_start = text.rfind("\n", 0, chunk.end) + 1
            line_end = text.find("\n", chunk.end)
            line = text[line_start : len(text) if line_end < 0 else line_end + 1]
            assert splitter.length.count(line) > splitter.chunk_size, chunk


PROTO = "".join(f"message M{i} {{\n  string name = 1;\n  int32 id = 2;\n}}\n" for i in range(3))


@pytest.mark.parametrize(
    ("language", "text", "size", "overlap"),
    [
        ("proto", PROTO, 60, 0),
        ("proto", 'syntax = "proto3";\n\n\nmessage A {\n  int32 x = 1;\n}\n' * 5, 40, 10),
        ("markdown", sample("markdown.md"), 200, 20),
        ("latex", sample("markdown.md"), 120, 0),
        ("go", sample("code.go"), 200, 0),
        ("python", sample("code.py").replace("\n", "\r\n"), 150, 30),
        ("perl", "sub a {\n  my $x = 1;\n}\n\nsub b {\n  return 2;\n}\n" * 4, 30, 0),
    ],
)
def test_the_separators_fallback_splits_whole_lines(
    language: str, text: str, size: int, overlap: int
) -> None:
    # The separator tables keep ``\n(?=message )``, ``\n\n`` and ``\n`` with the piece
    # after them: chunks used to start with the line ending of the line before (one line
    # early) and end without their own.
    splitter = CodeSplitter(language, size, overlap, fallback="separators")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(CodeSplitter, "uses_grammar", property(lambda self: False))
        chunks = splitter.split(text)
    assert len(chunks) > 1
    assert_whole_lines(text, chunks, splitter)
    assert all(c.metadata["symbols"] == [] for c in chunks)
    chunks[0].metadata["symbols"].append("changed")  # type: ignore[attr-defined]
    assert chunks[1].metadata["symbols"] == []  # one dict per chunk


def test_the_separators_fallback_keeps_each_definition_on_its_own_lines() -> None:
    chunks = split_code(PROTO, "proto", 60, fallback="separators")
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 4), (5, 8), (9, 12)]
    assert [c.text for c in chunks] == [PROTO[i * 50 : (i + 1) * 50] for i in range(3)]
    assert chunks[1].text.startswith("message M1 {\n") and chunks[1].text.endswith("}\n")
    # blank lines between the pieces belong to no chunk
    text = "message A {\n}\n\n\nmessage B {\n}\n"
    assert [c.text for c in split_code(text, "proto", 15, fallback="separators")] == [
        "message A {\n}\n",
        "message B {\n}\n",
    ]


def test_missing_grammar_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    kotlin = get_language("kotlin")
    monkeypatch.setattr(code_boundaries, "_THREAD", type(code_boundaries._THREAD)())
    real_import = code_boundaries.importlib.import_module

    def no_grammar(name: str) -> object:
        if name.startswith("tree_sitter_"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name)

    monkeypatch.setattr(code_boundaries.importlib, "import_module", no_grammar)
    with pytest.raises(GrammarUnavailableError, match=r"spansplit\[code-more\]") as error:
        CodeSplitter(kotlin.name, 100)
    assert error.value.language == "kotlin"
    with pytest.raises(GrammarUnavailableError, match=r"spansplit\[code\]"):
        CodeSplitter("go", 100)
    fallback = CodeSplitter("go", 200, fallback="separators")
    text = sample("code.go")
    chunks = fallback.split(text)
    assert chunks and all(text[c.start : c.end] == c.text and c.size <= 200 for c in chunks)
    assert chunks[0].metadata["symbols"] == []


def test_language_without_offline_grammar() -> None:
    with pytest.raises(GrammarUnavailableError, match="from_language"):
        CodeSplitter("proto", 100)
    text = 'syntax = "proto3";\n\nmessage A {\n  int32 x = 1;\n}\n'
    chunks = CodeSplitter("proto", 20, fallback="separators").split(text)
    assert chunks[0].text.strip() == 'syntax = "proto3";'
    # The corpus job's chooser (the CLI's `auto`) falls back to the separator table, and
    # says so once per language.
    chooser = SplitterByFileType(20)
    with pytest.warns(UserWarning, match="proto files are split by separators") as seen:
        for name in ("a.proto", "b.proto"):
            splitter = chooser(Document(text, name, {"source": name}))
    assert len(seen) == 1
    assert splitter.split(text)[0].text.strip() == 'syntax = "proto3";'


def _split_in_worker(splitter: CodeSplitter, text: str) -> list[Chunk]:
    return splitter.split(text)


def test_pickles_and_works_in_a_process_pool() -> None:
    needs_grammar("python")
    splitter = CodeSplitter("python", 64, 8, length="cl100k_base")
    text = sample("code.py")
    expected = splitter.split(text)
    copy = pickle.loads(pickle.dumps(splitter))
    assert copy.split(text) == expected
    assert pickle.loads(pickle.dumps(expected)) == expected
    with ProcessPoolExecutor(max_workers=1) as pool:
        assert pool.submit(_split_in_worker, splitter, text).result() == expected


OFFLINE = """
import socket, sys
def refuse(*args, **kwargs):
    raise OSError("network used")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
from spansplit import CodeSplitter, LANGUAGES
from spansplit.boundaries.code import grammar_available
text = open(sys.argv[1], encoding="utf-8").read()
loaded = [n for n, l in LANGUAGES.items() if l.grammar and grammar_available(l)]
chunks = CodeSplitter("python", 64, length="cl100k_base").split(text)
print(len(loaded), len(chunks))
"""


def test_grammars_and_tokenizer_load_without_network() -> None:
    needs_grammar("python")
    result = subprocess.run(
        [sys.executable, "-c", OFFLINE, str(DATA / "code.py")],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded, chunks = map(int, result.stdout.split())
    assert loaded >= 1 and chunks > 1


def test_languages_table_is_consistent() -> None:
    for name, language in LANGUAGES.items():
        assert language.name == name
        assert (language.grammar is None) == (language.package is None)
        for extension in language.extensions:
            assert extension.startswith(".")


@pytest.mark.parametrize("language", list(SAMPLES))
def test_code_snapshot(language: str, snapshot) -> None:  # type: ignore[no-untyped-def]
    """Chunk spans, sizes and symbol paths on each sample, with code points and tokens."""
    needs_grammar(language)
    text = sample(SAMPLES[language])
    cases: dict[str, list[list[object]]] = {}
    for length, sizes in {"chars": (100, 400), "cl100k_base": (32, 128)}.items():
        for size in sizes:
            for overlap in (0, size // 5):
                chunks = CodeSplitter(language, size, overlap, length=length).split(text)
                cases[f"{length} {size}+{overlap}"] = [
                    [c.start, c.end, c.size, ".".join(c.metadata["symbols"])] for c in chunks
                ]
    snapshot.check(f"code-{language}", cases)


def test_cli_code_subcommand(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    needs_grammar("go")
    from spansplit.cli import main

    source = tmp_path / "tides.go"
    source.write_text(sample("code.go"), encoding="utf-8")
    assert main(["code", "--chunk-size", "64", "--length", "cl100k_base", str(source)]) == 0
    records = [json.loads(line) for line in capfd.readouterr().out.splitlines()]
    assert records and all(r["size"] <= 64 for r in records)
    assert {"language", "symbols", "node_kinds"} <= set(records[0])
    bare = tmp_path / "tides"
    bare.write_text(sample("code.go"), encoding="utf-8")
    assert main(["code", "--chunk-size", "64", str(bare)]) == 1  # no extension
    assert "no extension to tell its language by (spansplit code --language NAME" in (
        capfd.readouterr().err
    )
    assert main(["code", "--chunk-size", "64", "--language", "go", str(bare)]) == 0
    # A language without an offline grammar: the error names the option that splits it.
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nsome text\n", encoding="utf-8")
    capfd.readouterr()
    assert main(["code", "--chunk-size", "64", str(notes)]) == 1
    assert "--separators-fallback" in capfd.readouterr().err
    assert main(["code", "--chunk-size", "64", "--separators-fallback", str(notes)]) == 0


def test_code_tree_example_runs_over_a_folder() -> None:
    needs_grammar("python")
    example = DATA.parent.parent / "examples" / "code_tree.py"
    done = subprocess.run(
        [sys.executable, str(example), str(DATA), "--chunk-size", "128"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    assert "code.go (go):" in done.stdout and "Predictor.Extremes" in done.stdout


def test_the_share_of_lines_with_syntax_errors() -> None:
    needs_grammar("java")
    java = get_language("java")

    def share(text: str) -> float:
        tree = code_boundaries.parse(text, java)
        return code_boundaries.error_line_share(text, tree, java)

    assert share(sample("code.java")) == 0
    broken = '""" \\ \\'  # an ERROR node over the whole line, with a nested one
    assert share(broken) == 1
    assert share("class A { int x; }\n\n" + broken) == 1 / 2  # the blank line not counted
    assert share("class A {\n  int x;\n}\r" + broken) == 1 / 4  # a lone CR ends a line


@pytest.mark.parametrize(
    ("language", "name"),
    [
        ("python", "english.txt"),
        ("python", "markdown.md"),
        ("rust", "markdown.md"),
        ("c", "chinese.txt"),
        ("python", "code.ts"),  # errors start on 0.64 of its lines
    ],
)
def test_text_that_is_not_code_in_the_language_is_split_by_its_separator_table(
    language: str, name: str
) -> None:
    # Prose, Markdown or another language given as code: most of it is syntax errors to
    # the grammar, so it is split at lines and words as without a grammar, with no symbols
    # (not into the fragments tree-sitter's error recovery makes of it), in whole lines.
    needs_grammar(language)
    text = sample(name)
    splitter = CodeSplitter(language, 200, 20)
    chunks = splitter.split(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(CodeSplitter, "uses_grammar", property(lambda self: False))
        without_grammar = splitter.split(text)
    assert [(c.start, c.end) for c in chunks] == [(c.start, c.end) for c in without_grammar]
    assert all(c.metadata["symbols"] == c.metadata["node_kinds"] == [] for c in chunks)
    assert_whole_lines(text, chunks, splitter)


def test_prose_given_as_code_is_split_in_whole_lines() -> None:
    needs_grammar("python")
    line = "This is a line of prose that is not code at all.\n"
    prose = (line + "Another line of prose, which Python cannot parse.\n") * 3
    chunks = split_code(prose, "python", 120)
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 2), (3, 4), (5, 6)]
    assert all(c.text.startswith("This") and c.text.endswith(".\n") for c in chunks)


def test_code_with_a_few_syntax_errors_is_still_split_by_its_syntax() -> None:
    needs_grammar("python")
    python = get_language("python")
    text = sample("code.py") + "\ndef broken(:\n    return )\n"
    tree = code_boundaries.parse(text, python)
    assert 0 < code_boundaries.error_line_share(text, tree, python) < 0.1
    chunks = CodeSplitter("python", 200).split(text)
    assert any(c.metadata["symbols"] for c in chunks)


def test_whether_a_text_is_code_is_read_from_its_first_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Only the first lines are parsed to decide; prose given as code is never parsed
    # whole, and code whose start is code is parsed whole once it is found to be code.
    needs_grammar("python")
    parsed: list[int] = []
    real_parse = code_boundaries.parse

    def parse(text: str, language: object, start: object = None) -> object:
        parsed.append(len(text))
        return real_parse(text, language, start)  # type: ignore[arg-type]

    monkeypatch.setattr(code_boundaries, "SAMPLE_CHARS", 2000)
    monkeypatch.setattr(code_boundaries, "parse", parse)
    code, prose = sample("code.py"), sample("english.txt")
    splitter = CodeSplitter("python", 200)
    assert not any(c.metadata["symbols"] for c in splitter.split(prose + code))
    assert len(parsed) == 1 and parsed[0] <= 2000
    parsed.clear()
    chunks = splitter.split(code + prose)
    assert parsed[0] <= 2000 < parsed[1] == len(code + prose)
    assert any(c.metadata["symbols"] for c in chunks)
    assert all(c.text.endswith("\n") for c in chunks if c.end < len(code))  # whole lines
    # A first line longer than the sample: code cut short has one ERROR node (what the
    # cut left open); URL paths, one or more a KB.
    parsed.clear()
    line = "x = " + "+".join(["ab"] * 2000) + "\n"
    chunks = splitter.split(line + code)
    assert parsed == [2000, len(line + code)]
    assert chunks[0].metadata["node_kinds"] and any(c.metadata["symbols"] for c in chunks)
    parsed.clear()
    urls = "/api/v2/items/0042/children?page=7&sort=asc " * 100 + "\n" + code
    assert not any(c.metadata["node_kinds"] for c in splitter.split(urls))
    assert parsed == [2000]


def test_a_sample_ends_outside_any_construct(monkeypatch: pytest.MonkeyPatch) -> None:
    # Cut inside a docstring or a bracket, a sample of good code reads as errors; it ends
    # before a line at the first column instead, or is the whole text where none is near.
    needs_grammar("python")
    needs_grammar("javascript")
    monkeypatch.setattr(code_boundaries, "SAMPLE_CHARS", 2000)
    docstring = 'def f():\n    """\n' + "    a line of prose in a docstring\n" * 100
    docstring += '    """\n    return 1\n\n\ndef g():\n    return 2\n'
    chunks = CodeSplitter("python", 200).split(docstring)
    assert ["f"] in [c.metadata["symbols"] for c in chunks]
    data = "x = [\n" + "    1,\n" * 500 + "]\n"
    assert CodeSplitter("python", 200).split(data)[0].metadata["node_kinds"]
    # A long line past the first: cut inside it, one ERROR node where it is code ...
    script = "(function () {\n  var a = [" + ", ".join(f"{{k: {i}}}" for i in range(400))
    script += "];\n})();\n"
    assert all(c.metadata["node_kinds"] for c in CodeSplitter("javascript", 200).split(script))
    # ... and many where it is prose
    prose = "\n" + sample("english.txt").replace("\n", " ")
    assert not any(c.metadata["node_kinds"] for c in CodeSplitter("python", 200).split(prose))


def _nodes(tree: object) -> list[tuple[str, int, int, bool]]:
    """Every node of ``tree``, in order, with its type, byte range and whether it is named."""
    found, stack = [], [tree.root_node]  # type: ignore[attr-defined]
    while stack:
        node = stack.pop()
        found.append((node.type, node.start_byte, node.end_byte, node.is_named))
        stack.extend(reversed(node.children))
    return found


@pytest.mark.parametrize("line_ending", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("inside_string", [False, True])
def test_code_parsed_on_from_its_sample_has_the_tree_of_a_fresh_parse(
    monkeypatch: pytest.MonkeyPatch, inside_string: bool, line_ending: str
) -> None:
    # A text longer than its sample is parsed on from the sample's tree; where the sample
    # ends inside a string (its lines at the first column), it is parsed afresh instead.
    needs_grammar("python")
    monkeypatch.setattr(code_boundaries, "SAMPLE_CHARS", 2000)
    language = get_language("python")
    code = sample("code.py")
    if inside_string:
        code = 'DATA = """\n' + "row,of,data\n" * 300 + '"""\n\n' + code
    text = (code * 3).replace("\n", line_ending)
    tree = code_boundaries.parse_as_code(text, language)
    assert tree is not None
    assert _nodes(tree) == _nodes(code_boundaries.parse(text, language))
    assert tree.root_node.has_error is False


def test_a_parse_on_that_could_differ_from_a_fresh_one_is_made_afresh() -> None:
    # Found by fuzzing (helper-31): tree-sitter-lua parses on from "f() -- note" to two
    # calls where a fresh parse reads one call continued on the next line; and a start
    # with no errors, parsed on into a rest that does not parse, recovers differently.
    needs_grammar("lua")
    lua = get_language("lua")
    for head, rest in [("f() -- note\n", "(g or h)()\n"), ("(c)()--\n", "(")]:
        start = (head, code_boundaries.parse(head, lua))
        assert _nodes(code_boundaries.parse(head + rest, lua, start)) == _nodes(
            code_boundaries.parse(head + rest, lua)
        )
    parses_on = dataclasses.replace(lua, parses_on=True)
    head, rest = "(c)()--\n", "("
    start = (head, code_boundaries.parse(head, parses_on))
    grown = code_boundaries.parse(head + rest, parses_on, start)
    assert _nodes(grown) == _nodes(code_boundaries.parse(head + rest, parses_on))


FTP_EXIT = (
    "class FTP:\n\n    def __enter__(self):\n        return self\n\n"
    "    # Context management protocol: try to quit() if active\n"
    "    def __exit__(self, *args):\n        if self.sock is not None:\n            try:\n"
    "                self.quit()\n            except (OSError, EOFError):\n"
    "                pass\n            finally:\n                if self.sock is not None:\n"
    "                    self.close()\n"
)


def test_a_long_file_splits_its_code_as_a_short_one_does() -> None:
    # From 32K characters on, packing starts from the token index's estimates. One piece
    # (the comment and __exit__, 65 tokens) was estimated at 64, packed whole, then found
    # over by its exact count and hard-cut mid-line; estimates near the budget are now
    # counted exactly, so it is split at its lines as in a short file.
    needs_grammar("python")
    filler = "".join(f"\ndef helper_{i}(a, b):\n    return a * {i} + b\n" for i in range(900))
    long_text = FTP_EXIT + filler
    assert len(long_text) > INDEX_MIN_CHARS
    short = split_code(FTP_EXIT + filler[:1000], "python", 64, length="cl100k_base")
    long = split_code(long_text, "python", 64, length="cl100k_base")
    assert [(c.start, c.end) for c in long[:3]] == [(c.start, c.end) for c in short[:3]]
    assert long[1].text == "    # Context management protocol: try to quit() if active\n"
    assert long[2].text.startswith("    def __exit__") and long[2].text.endswith("self.close()\n")
    assert all(c.start == 0 or long_text[c.start - 1] == "\n" for c in long)


PROCESS = """def process(items):
    total = 0
    for item in items:
        # Skip items that the caller has already counted.
        if item.seen:
            continue
        total += item.value
        log(item)
    return total
"""


@pytest.mark.parametrize("size", [110, 120, 130])
def test_a_comment_that_starts_a_block_goes_with_its_first_statement(size: int) -> None:
    # tree-sitter-python puts a comment between ``for ...:`` and its block in the
    # ``for_statement``, not in the block: it used to be a piece of its own, apart from
    # the statement it documents (a chunk by itself at 110, the end of a chunk at 130).
    needs_grammar("python")
    splitter = CodeSplitter("python", size)
    chunks = splitter.split(PROCESS)
    check_chunks(PROCESS, chunks, splitter)
    comment = PROCESS.index("        # Skip")
    statement_end = PROCESS.index("if item.seen:\n") + len("if item.seen:\n")
    assert any(c.start <= comment and statement_end <= c.end for c in chunks), [
        c.text for c in chunks
    ]


@pytest.mark.parametrize(
    "header",
    ["for item in items:", "while items:", "with lock:", "try:", "if items:", "else:", "except E:"],
)
def test_a_comment_first_in_any_python_body_goes_with_its_statement(header: str) -> None:
    needs_grammar("python")
    preludes = {"else:": "    if ready:\n        pass\n", "except E:": "    try:\n        pass\n"}
    before = preludes.get(header, "")
    body = (
        "        # Why the next statement is needed, said at some length.\n"
        "        first_statement_of_the_body(items)\n"
        "        second = another_statement_of_the_body(items)\n"
    )
    after = "    except E:\n        pass\n" if header == "try:" else ""
    text = f"def f(items):\n    start()\n{before}    {header}\n{body}{after}    return 1\n"
    splitter = CodeSplitter("python", 110)
    chunks = splitter.split(text)
    check_chunks(text, chunks, splitter)
    comment = text.index("        # Why")
    statement_end = text.index("first_statement_of_the_body(items)\n") + 35
    assert any(c.start <= comment and statement_end <= c.end for c in chunks), [
        c.text for c in chunks
    ]


SIGNATURES_APART = {
    # a function whose body opens with a comment block after a blank line
    "python": (
        "import os\n\n\ndef first(value):\n    return os.fspath(value)\n\n\n"
        "def convert(y, i, q):\n    # The matrix below is the inverse of the one above,\n"
        "    # with its constants rounded to the digits that matter.\n\n"
        + "".join(f"    r{k} = y + {k}.25 * i - {k}.75 * q\n" for k in range(8))
        + "    return (r0, r1, r2)\n",
        "def convert(y, i, q):",
    ),
    # an impl whose first method is a definition of its own, after a struct
    "rust": (
        "/// One slot.\nstruct Entry {\n    key: u32,\n    value: u64,\n}\n\n"
        "impl Entry {\n    /// Makes an entry.\n    fn new(key: u32, value: u64) -> Self {\n"
        + "".join(f"        let v{k} = value + {k};\n" for k in range(6))
        + "        Entry { key, value }\n    }\n}\n",
        "impl Entry {",
    ),
    # a class whose first member is a method, after another class
    "java": (
        "package p;\n\nfinal class Helper {\n    static int twice(int x) {\n"
        "        return 2 * x;\n    }\n}\n\npublic final class Main {\n"
        "    public static void print(List<String> items) {\n"
        + "".join(f"        System.out.println(items.get({k}));\n" for k in range(6))
        + "    }\n}\n",
        "public final class Main {",
    ),
}


@pytest.mark.parametrize("language", sorted(SIGNATURES_APART))
def test_a_signature_apart_from_its_body_starts_a_chunk(language: str) -> None:
    """A definition's signature that cannot share a chunk with all of its body went with
    the code before it, even at the end of its chunk (a class header after other code, a
    function whose body opens with a comment): it starts a chunk now, with what follows it,
    as a comment above code does."""
    needs_grammar(language)
    text, signature = SIGNATURES_APART[language]
    splitter = CodeSplitter(language, 60, length="cl100k_base")
    chunks = splitter.split(text)
    check_chunks(text, chunks, splitter)
    assert len(chunks) > 2
    at = text.index(signature)
    holding = next(c for c in chunks if c.start <= at < c.end)
    assert holding.start == at and holding.end > text.index("\n", at) + 1, [c.text for c in chunks]


def test_a_signature_goes_with_its_docstring_across_a_blank_line() -> None:
    needs_grammar("python")
    text = (
        "import os\nimport sys\n\n\nclass Base:\n\n"
        '    """Base object shared by every address."""\n\n'
        "    slots = ()\n    version = 4\n    max_prefix = 32\n"
    )
    chunks = split_code(text, "python", 70)
    assert [(c.start_line, c.end_line, c.metadata["symbols"]) for c in chunks] == [
        (1, 2, []),
        (5, 7, ["Base"]),
        (9, 11, ["Base"]),
    ]
    # and a function's signature with its first statement
    text = "def f(a, b):\n\n    total = a + b\n    more = total * 2\n    return more\n"
    chunks = split_code(text, "python", 40)
    assert chunks[0].text == "def f(a, b):\n\n    total = a + b\n"


@pytest.mark.parametrize("text", ["\ufeff", "\ufeff\n\n", "\ufeff  \r\n\t\n"])
def test_a_byte_order_mark_alone_is_blank(text: str) -> None:
    needs_grammar("python")
    assert split_code(text, "python", 10) == []
    assert split_code(text, "proto", 10, fallback="separators") == []


def test_a_byte_order_mark_on_a_line_of_its_own_is_left_out_as_a_blank_line() -> None:
    needs_grammar("python")
    text = "\ufeff\n\ndef f():\n    return 1\n"
    for language in ("python", "proto"):
        chunks = split_code(text, language, 10, fallback="separators")
        assert chunks[0].text == "def f():\n"
    # on a line with code, it stays with that line (a span of the text)
    assert split_code("\ufeffimport os\n", "python", 100)[0].text == "\ufeffimport os\n"


@pytest.mark.parametrize(
    ("language", "text", "size"),
    [
        ("python", "x = 1\n\n\ndef f(self):\n    return 1\n\n\ndef g(self):\n    return 2\n", 26),
        (
            "javascript",
            "let x = 1;\nfunction f(a) {\n  return a;\n}\nfunction g(a) {\n  return a;\n}\n",
            40,
        ),
        ("go", "package p\n\nfunc f() int {\n\treturn 1\n}\n\nfunc g() int {\n\treturn 2\n}\n", 40),
    ],
)
def test_a_byte_order_mark_that_starts_a_file_leaves_its_syntax_in_use(
    language: str, text: str, size: int
) -> None:
    """Trimmed, packing starts after the mark: the syntax tree was then not found for
    that region, and the file was split by lines (functions that fit cut in two)."""
    needs_grammar(language)
    plain = split_code(text, language, size)
    marked = split_code("\ufeff" + text, language, size)
    # (the mark stays with the first line, as any text on it)
    assert [(c.end - 1, c.text.lstrip("\ufeff"), c.metadata) for c in marked] == [
        (c.end, c.text, c.metadata) for c in plain
    ]
    assert any(c.metadata["symbols"] for c in marked)


@pytest.mark.parametrize(
    ("language", "text", "size", "header"),
    [
        (
            "python",
            "try:\n    def inner(e):\n        return e\n    x = 1\nexcept E:\n    pass\n",
            25,
            "try:",
        ),
        (
            "javascript",
            "try {\n  function inner(e) {\n    return e;\n  }\n} catch (e) {\n  x();\n}\n",
            28,
            "try {",
        ),
    ],
)
def test_a_chunk_with_a_header_above_a_definition_is_not_named_by_it(
    language: str, text: str, size: int, header: str
) -> None:
    """A chunk holding a block's header (``try:``, ``else:``) and the first line of a
    definition inside the block does not lie in that definition."""
    needs_grammar(language)
    chunks = split_code(text, language, size)
    with_header = [c for c in chunks if header in c.text and "inner" in c.text]
    assert with_header and all(c.metadata["symbols"] == [] for c in with_header)
    assert any(c.metadata["symbols"] == ["inner"] for c in chunks)


@pytest.mark.parametrize(
    ("language", "text", "size", "expected"),
    [
        (
            "typescript",
            "namespace Geometry {\n  export const a = 1;\n}\n\nnamespace Other {\n"
            "  export const b = 2;\n}\n",
            45,
            [(["Geometry"], ["internal_module"]), (["Other"], ["internal_module"])],
        ),
        (
            "typescript",
            "namespace Geometry {\n  export function area(r: number): number {\n"
            "    return Math.PI * r * r;\n  }\n}\n",
            50,
            [
                (["Geometry"], ["internal_module"]),
                (["Geometry", "area"], ["function_declaration"]),
                # the method's last line with the closing braces: still in the method
                (["Geometry", "area"], ["return_statement"]),
            ],
        ),
        (
            "csharp",
            "using System;\nnamespace App.Models;\n\npublic class User {\n"
            "    public string Name { get; set; }\n}\n",
            40,
            [
                ([], ["using_directive", "file_scoped_namespace_declaration"]),
                (["App", "Models", "User"], ["class_declaration"]),
                (["App", "Models", "User", "Name"], ["property_declaration"]),
            ],
        ),
        (
            "php",
            "<?php\nnamespace App;\n\nclass User {\n  function f() {\n    return 1;\n  }\n}\n",
            30,
            [
                ([], ["php_tag", "namespace_definition"]),
                (["App", "User"], ["class_declaration", "method_declaration"]),
                (["App", "User", "f"], ["return_statement"]),
            ],
        ),
        (
            "javascript",
            "class Widget {\n  handleClick = (event) => {\n    this.count += 1;\n"
            "    return event;\n  };\n  size = 1;\n}\n",
            40,
            [
                (["Widget"], ["class_declaration"]),
                (["Widget", "handleClick"], ["field_definition"]),
                (["Widget", "handleClick"], ["expression_statement", "return_statement"]),
                (["Widget"], ["field_definition"]),
            ],
        ),
        (
            "typescript",
            "class Widget {\n  private handleClick = (e: E): void => {\n    use(e);\n  };\n}\n",
            50,
            [
                (["Widget"], ["class_declaration"]),
                (["Widget", "handleClick"], ["public_field_definition"]),
            ],
        ),
    ],
)
def test_symbols_of_namespaces_and_class_fields(
    language: str, text: str, size: int, expected: list[tuple[list[str], list[str]]]
) -> None:
    needs_grammar(language)
    chunks = split_code(text, language, size)
    found = [(c.metadata["symbols"], c.metadata["node_kinds"]) for c in chunks]
    assert found[: len(expected)] == expected, [(f, c.text) for f, c in zip(found, chunks)]
    whole = split_code(text, language, 1000)[0].metadata
    if language == "typescript" and text.count("namespace") == 1:
        assert (whole["symbols"], whole["node_kinds"]) == (["Geometry"], ["internal_module"])


STEPS_BODY = "\n".join(f"    const v{i} = compute(input, {i}) + offset * {i};" for i in range(25))
STEPS = (
    "export class Pipeline {\n"
    + "\n\n".join(
        f"  step{m}(input: number, offset: number): number {{\n{STEPS_BODY}\n    return v0;\n  }}"
        for m in range(3)
    )
    + "\n}\n"
)


def test_two_definitions_of_one_name_in_a_chunk_lie_in_neither() -> None:
    """A chunk that holds two definitions of one name (a redefinition, Java's overloads, a
    property's getter and setter) lies in the scope around them, not in one of them (it
    was named by both as one: found by a review, 13 of 37,752 standard-library chunks)."""
    needs_grammar("python")
    text = "def f(a):\n    return a + 1\n\ndef f(a, b):\n    return a + b\n\n" + (
        "def g():\n    x = 1\n    y = 2\n    z = 3\n    return x + y + z + 1000000\n"
    )
    chunks = CodeSplitter("python", 70).split(text)
    assert chunks[0].text.count("def f") == 2 and chunks[0].metadata["symbols"] == []
    renamed = CodeSplitter("python", 70).split(text.replace("def f(a, b)", "def h(a, b)"))
    assert renamed[0].metadata["symbols"] == []  # (as two names always were)
    needs_grammar("java")
    java = "class A {\n  int f(int a) { return a; }\n  int f(int a, int b) { return a + b; }\n}\n"
    overloads = [c for c in CodeSplitter("java", 90).split(java) if c.text.count("int f(") == 2]
    assert overloads and all(c.metadata["symbols"] == ["A"] for c in overloads)


def test_a_chunk_of_a_signature_and_its_first_statement_holds_both_kinds() -> None:
    """A signature joined with its first statement, held whole by a chunk, gives the kinds
    of both (it gave the definition's alone, though the same chunk cut shorter gave both)."""
    needs_grammar("python")
    text = "def f(a):\n    if a:\n        return 1\n"
    text += "    x = a * 2\n    y = x * 3\n    return x + y\n"
    first = CodeSplitter("python", 50).split(text)[0]
    assert first.text == "def f(a):\n    if a:\n        return 1\n"
    assert first.metadata["node_kinds"] == ["function_definition", "if_statement"]
    shorter = CodeSplitter("python", 20).split(text)[0]
    assert shorter.metadata["node_kinds"] == ["function_definition", "if_statement"]
    whole = CodeSplitter("python", 200).split(text)[0]
    assert whole.text == text and whole.metadata["node_kinds"] == ["function_definition"]


def test_a_last_member_keeps_its_path_beside_the_closing_brace_of_its_class() -> None:
    """The chunk of a class's last method also holds the class's closing ``}``: its path
    is still the method's (it was the class's alone, so a filter on the method missed it),
    while a chunk of closing lines alone stays with what they close."""
    needs_grammar("typescript")
    chunks = split_code(STEPS, "typescript", 512, length="cl100k_base")
    assert [c.metadata["symbols"] for c in chunks] == [
        ["Pipeline"],  # the class's header and its first method
        ["Pipeline", "step1"],
        ["Pipeline", "step2"],
    ]
    assert chunks[-1].text.endswith("return v0;\n  }\n}\n")
    assert chunks[-1].metadata["node_kinds"] == ["method_definition"]
    needs_grammar("ruby")
    text = sample("code.rb")
    last = split_code(text, "ruby", 100)[-1]
    assert last.text == "      end\n    end\n  end\nend\n"  # only `end` lines
    assert last.metadata["symbols"] == ["Tides"]


CPP_HEADER = """// Licensed under the Apache License.

#pragma once

#include <memory>

namespace arrow {
namespace flight {

class TestServer : public FlightServerBase {
 public:
  Status ListFlights(const ServerCallContext& context,
                     std::unique_ptr<FlightListing>* listings) override;
};

}  // namespace flight
}  // namespace arrow
"""

C_HEADER = """#ifndef SPAM_H
#define SPAM_H
#ifdef __cplusplus
extern "C" {
class ForCppCompilersOnly;
#endif

struct spam { int eggs; };
int spam_count(const struct spam *s);

#ifdef __cplusplus
}
#endif
#endif
"""


def test_a_header_is_cpp_or_c_by_its_content() -> None:
    assert language_for_path("include/x.h") == "c"  # without the text: C
    assert language_for_path("include/x.h", CPP_HEADER) == "cpp"
    assert language_for_path("include/x.h", C_HEADER) == "c"  # C++ only under __cplusplus
    assert language_for_path("x.hpp", C_HEADER) == "cpp"  # only .h (.C, .H) is sniffed
    assert language_for_path("src/widget.C") == "cpp"  # as to GCC and Clang
    assert language_for_path("src/widget.H") == "cpp"
    assert language_for_path("SRC/MAIN.C") == "c"  # an upper-case name, as from DOS
    assert language_for_path("MAIN.C", CPP_HEADER) == "cpp"
    assert language_for_path("widget.c") == "c"
    needs_grammar("cpp")
    chunks = split_code(CPP_HEADER, language_for_path("test_server.h", CPP_HEADER), 200)
    assert ["arrow", "flight", "TestServer"] in [c.metadata["symbols"] for c in chunks] or [
        "arrow",
        "flight",
    ] in [c.metadata["symbols"] for c in chunks]
    assert not any("FlightServerBase" in c.metadata["symbols"] for c in chunks)


@pytest.mark.parametrize(
    "header",
    [
        "#pragma once\nstruct Vec3 {\n  float x;\n  Vec3 operator+(const Vec3& o) const;\n};\n",
        "enum class Color : int { Red, Green };\n",
        "struct Shape {\n  virtual ~Shape();\n};\n",
    ],
)
def test_a_header_with_only_some_cpp_is_cpp(header: str) -> None:
    """Headers with none of the first marks (no class, namespace, template) were read as
    C, whose grammar named an operator+ chunk after the method below it."""
    assert language_for_path("x.h", header) == "cpp"
    assert language_for_path("x.h", "/* the + operator; a virtual table */\nint f(void);\n") == "c"
    # C23 has constexpr and nullptr: a C header with them (or naming them) stays C
    assert language_for_path("x.h", "/* NULL, not nullptr */\nconstexpr int k = 3;\n") == "c"


CPP_NAMES = """namespace geo {
class Point {
 public:
  int& at(int i) {
    return v[i];
  }
  Point& operator=(const Point& o) {
    v = o.v;
    return *this;
  }
  operator bool() const {
    return true;
  }
  ~Point();
};
Point::~Point() {
  clear();
}
}  // namespace geo
double geo::Point::norm() const {
  return 0.0;
}
geo::Point::operator bool() const {
  return ok;
}
int (*get_handler(int k))(int) {
  return handlers[k];
}
"""


def test_cpp_definitions_named_through_every_declarator() -> None:
    """A function returning a reference, a conversion operator and one returning a
    function pointer had no name (their declarators have no ``declarator`` field); one
    defined out of its class was named ``geo::Point::norm`` as one element."""
    needs_grammar("cpp")
    chunks = split_code(CPP_NAMES, "cpp", 12, length="cl100k_base")
    first_lines = {c.text.strip().split("\n")[0]: c.metadata["symbols"] for c in chunks}
    assert first_lines["int& at(int i) {"] == ["geo", "Point", "at"]
    assert first_lines["Point& operator=(const Point& o) {"] == ["geo", "Point", "operator="]
    assert first_lines["operator bool() const {"] == ["geo", "Point", "operator bool"]
    assert first_lines["Point::~Point() {"] == ["geo", "Point", "~Point"]
    assert first_lines["double geo::Point::norm() const {"] == ["geo", "Point", "norm"]
    assert first_lines["geo::Point::operator bool() const {"] == ["geo", "Point", "operator bool"]
    assert first_lines["int (*get_handler(int k))(int) {"] == ["get_handler"]


def test_a_rust_impl_is_named_by_its_type_without_generic_arguments() -> None:
    """``impl<'a> Lexer<'a>`` was named ``Lexer<'a>`` where its struct is ``Lexer`` (Go's
    receivers drop them too); a trait keeps its own (``From<T>``)."""
    needs_grammar("rust")
    text = (
        "struct Lexer<'a> {\n    text: &'a str,\n}\n\nimpl<'a> Lexer<'a> {\n"
        "    fn new(text: &'a str) -> Self {\n        Lexer { text }\n    }\n}\n\n"
        "impl<T> From<T> for Wrapper<T> {\n    fn from(value: T) -> Self {\n"
        "        Wrapper(value)\n    }\n}\n"
    )
    paths = {
        tuple(c.metadata["symbols"]) for c in split_code(text, "rust", 12, length="cl100k_base")
    }
    assert ("Lexer", "new") in paths and ("From<T> for Wrapper", "from") in paths


def test_a_node_that_ends_in_the_next_lines_indentation_ends_on_its_own_line() -> None:
    """Scala's ``def f =`` body and Swift's ``case`` end at the next line's indentation (or
    after blank lines) in their grammars: the next definition or case went with them, named
    by the one before and cut where it fits whole."""
    needs_grammar("scala")
    needs_grammar("swift")
    scala = (
        "class Ledger {\n  def trialBalance: Map[Kind, Long] =\n"
        "    accounts.groupBy(_._2).map { case (kind, group) =>\n"
        "      kind -> group.keys.map(balances).sum\n    }\n\n"
        "  def reset(): Unit = {\n    balances.clear()\n    nextId = 1\n  }\n}\n"
    )
    chunks = split_code(scala, "scala", 66)
    reset = next(c for c in chunks if "def reset" in c.text)
    assert reset.text.startswith("  def reset") and "nextId = 1\n  }\n" in reset.text
    assert reset.metadata["symbols"] == ["Ledger", "reset"]
    cases = "".join(
        f'    case {n}:\n        let v{n} = "{n}"\n        return v{n}\n' for n in range(3)
    )
    swift = f"func describe(_ v: Int) -> String {{\n    switch v {{\n{cases}    }}\n}}\n"
    texts = [c.text for c in split_code(swift, "swift", 64)]
    assert [t.split("    }")[0] for t in texts if "case" in t] == [
        f'    case {n}:\n        let v{n} = "{n}"\n        return v{n}\n' for n in range(3)
    ]  # (the last with the closing braces)


def test_csharp_operators_conversions_and_indexers_are_named_apart() -> None:
    """Every C# operator was named ``operator`` (two chunks of ``+`` and ``-`` had one
    path); conversions and indexers had no name."""
    needs_grammar("csharp")
    text = (
        "struct Money {\n"
        "    public static Money operator +(Money a, Money b) { return a; }\n"
        "    public static Money operator -(Money a, Money b) { return b; }\n"
        "    public static implicit operator decimal(Money m) { return 0m; }\n"
        "    public int this[int i] { get { return i; } }\n}\n"
    )
    paths = [c.metadata["symbols"] for c in split_code(text, "csharp", 70)]
    assert paths[1:5] == [
        ["Money", "operator+"],
        ["Money", "operator-"],
        ["Money", "operator decimal"],
        ["Money", "this[]"],
    ]


def test_a_chunk_of_several_methods_of_one_go_type_lies_in_that_type() -> None:
    """Go's methods are top-level: a chunk of two methods of ``Predictor`` had no symbols,
    where a Python chunk of two methods of a class has the class."""
    needs_grammar("go")
    chunks = split_code(sample("code.go"), "go", 256, length="cl100k_base")
    both = next(c for c in chunks if "Height(" in c.text and "Extremes(" in c.text)
    assert both.metadata["symbols"] == ["Predictor"]
    assert code_boundaries._shared_scope([("P", "f"), ("P", "g")]) == ("P",)
    assert code_boundaries._shared_scope([("P",), ("P", "g")]) == ("P",)
    assert code_boundaries._shared_scope([("P", "f"), ()]) == ()  # a statement among them
    assert code_boundaries._shared_scope([("P", "f"), ("Q", "f")]) == ()


def test_a_piece_of_a_minified_line_across_methods_of_one_type_lies_in_that_type() -> None:
    """On one line over budget, a piece across two Go methods of ``T`` (or two C++
    members of ``P`` defined out of the class) had no symbols, where the same methods on
    lines of their own give ``T``; two plain functions still share none. A piece of a
    ``var`` before a method on its line had the method's symbols."""
    for language in ("go", "cpp", "javascript"):
        needs_grammar(language)
    go = (
        "package p\ntype T struct{}\nfunc (t T) Alpha() int { x := 1; y := 2; return x + y"
        " + 3 + 4 + 5 + 6 + 7 + 8 }; func (t T) Beta() int { a := 1; b := 2; return a * b *"
        " 3 * 4 * 5 * 6 * 7 * 8 }\n"
    )
    across = [c for c in split_code(go, "go", 60) if "Alpha" not in c.text and "}; fu" in c.text]
    assert [c.metadata["symbols"] for c in across] == [["T"]]
    cpp = (
        "void P::alpha(int x) { int y = x + 1; int z = y * 2; return; } "
        "void P::beta(int x) { int y = x - 1; int z = y / 2; return; }\n"
    )
    paths = [c.metadata["symbols"] for c in split_code(cpp, "cpp", 50)]
    assert paths == [["P", "alpha"], ["P"], ["P", "beta"]]
    js = "function alpha(){var x=1;return x+2+3+4+5+6};function beta(){var a=1;return a*2*3}\n"
    assert [] in [c.metadata["symbols"] for c in split_code(js, "javascript", 30)]
    # A piece of a statement before the line's definition is not in that definition, and
    # a piece across several nodes has their kinds (it had the line's first node's).
    go = "package p\nvar T = 1;func (x T) a(){ y := 2; _ = y; z := 3; _ = z }\n"
    described = [
        (c.text, c.metadata["symbols"], c.metadata["node_kinds"]) for c in split_code(go, "go", 12)
    ]
    assert described[1:3] == [
        ("var T = ", [], ["var_declaration"]),
        ("1;func (x ", [], ["var_declaration", "method_declaration"]),
    ]
    assert described[3][1] == ["T", "a"]
    go = "package p\ntype T int;func (t T) A(){x:=1;_=x};func (t T) B(){y:=2;_=y}\n"
    across = split_code(go, "go", 30)[1]
    assert (across.metadata["symbols"], across.metadata["node_kinds"]) == (
        ["T"],
        ["method_declaration"],
    )


def test_a_whole_minified_line_of_definitions_and_a_definitions_end_are_named_right() -> None:
    """A chunk of a whole line of two functions was named after the first, as if the
    second lay in it; now it lies in neither, as the same functions on lines of their own.
    A piece from a definition's end into a comment or a comma after it (Ruby's
    ``end # c``, a JS property's arrow function) had only the enclosing path; now it has
    the definition's."""
    for language in ("javascript", "ruby"):
        needs_grammar(language)
    minified = "function f(){return 1} function g(){return 2}\n"
    on_lines = minified.replace("} ", "}\n")
    for text in (minified, on_lines):
        [whole] = split_code(text, "javascript", 200)
        assert (whole.metadata["symbols"], whole.metadata["node_kinds"]) == (
            [],
            ["function_declaration"],
        )
    ruby = "class A\n  def m; 1; end # note\nend\n"
    assert [(c.text, c.metadata["symbols"]) for c in split_code(ruby, "ruby", 12)] == [
        ("class A\n", ["A"]),
        ("  def m; 1; ", ["A", "m"]),
        ("end # note\n", ["A", "m"]),  # (was ["A"])
        ("end\n", ["A"]),
    ]
    js = "const o = {\n  show: (a) => a + 1 + 2 + 3 + 4,\n  hide: () => 0,\n};\n"
    pieces = [(c.text, c.metadata["symbols"]) for c in split_code(js, "javascript", 14)]
    assert pieces[2:4] == [("=> a + 1 + 2 ", ["o", "show"]), ("+ 3 + 4,\n", ["o", "show"])]


def test_each_type_of_a_go_type_group_is_a_definition_of_its_own() -> None:
    """``type ( A ...; B ... )`` was one definition named "A, B": every chunk of it had
    that name. Now each type is named (and found by ``definitions``) as if declared
    alone, the group's ``type (`` line goes with its first type where both fit, and a
    chunk of the whole group lies in neither."""
    needs_grammar("go")
    text = (
        "package p\n\nfunc f() int {\n\treturn 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10\n}\n\n"
        "type (\n\t// A is a pair.\n\tA struct {\n\t\tx int\n\t\ty int\n\t}\n"
        "\tB interface {\n\t\tM()\n\t}\n)\n"
    )
    pieces = [(c.text, c.metadata["symbols"]) for c in split_code(text, "go", 60)]
    assert pieces[-2:] == [
        ("type (\n\t// A is a pair.\n\tA struct {\n\t\tx int\n\t\ty int\n\t}\n", ["A"]),
        ("\tB interface {\n\t\tM()\n\t}\n)\n", ["B"]),
    ]
    assert split_code(text, "go", 400)[0].metadata["symbols"] == []
    group = text[text.index("type (") :]
    [whole] = split_code(group, "go", 400)
    assert (whole.metadata["symbols"], whole.metadata["node_kinds"]) == ([], ["type_declaration"])
    level = SyntaxLevel(text, get_language("go"))
    assert [d.path for d in level.definitions()] == [("f",), ("A",), ("B",), ("B", "M")]
    # One type, in parentheses or not, is named once.
    for alone in ("type A struct {\n\tx int\n}\n", "type (\n\tA = int\n)\n"):
        level = SyntaxLevel(alone, get_language("go"))
        assert [d.path for d in level.definitions()] == [("A",)]
        assert {c.metadata["symbols"][0] for c in split_code(alone, "go", 8)} == {"A"}


def test_a_definition_that_a_named_definition_declares_is_part_of_it() -> None:
    """C's ``typedef struct point {...} point_t;``: the struct is the typedef's, so its
    chunks are ``point_t``'s alone (making Go's grouped types definitions of their own made
    them ``["point_t", "point"]`` and ``["color_t", "(anonymous)"]`` for a while)."""
    needs_grammar("c")
    text = (
        "typedef struct point {\n int x;\n int y;\n int z;\n char name[64];\n"
        " double weights[16];\n} point_t;\n\ntypedef enum {\n RED,\n GREEN\n} color_t;\n"
    )
    chunks = split_code(text, "c", 10, length="cl100k_base")
    assert {tuple(c.metadata["symbols"]) for c in chunks} == {("point_t",), ("color_t",)}
    level = SyntaxLevel(text, get_language("c"))
    assert [d.path for d in level.definitions()] == [("point_t",), ("color_t",)]


def test_overlap_stops_at_a_class_in_a_namespace_as_at_a_top_level_one() -> None:
    """Overlap never reached back across a top-level definition's start, but a class in
    ``namespace Acme { }`` is not top-level: the chunk of ``GadgetStore`` began with the end
    of ``WidgetStore`` and was named ``["Acme"]``. Definitions in a namespace now count at
    its level; and a one-line definition with a comment above it is listed once."""
    for language in ("csharp", "scala", "python"):
        needs_grammar(language)
    text = (
        "namespace Acme\n{\n    public class WidgetStore\n    {\n"
        "        public int Count { get; set; }\n"
        "        public void Add(string name) { Count++; }\n    }\n\n"
        "    public class GadgetStore\n    {\n        public int Count { get; set; }\n    }\n}\n"
    )
    chunks = split_code(text, "csharp", 40, 20, length="cl100k_base")
    gadget = next(c for c in chunks if "GadgetStore" in c.text)
    assert gadget.text.startswith("    public class GadgetStore")
    assert gadget.metadata["symbols"] == ["Acme", "GadgetStore"]
    level = SyntaxLevel(text, get_language("csharp"))
    assert [d.path for d in level.definitions(1)] == [
        ("Acme",),
        ("Acme", "WidgetStore"),
        ("Acme", "GadgetStore"),
    ]
    for text, language in [
        ("/** doc */\nsealed trait Status\n", "scala"),
        ("# c\nclass A: pass\n", "python"),
    ]:
        level = SyntaxLevel(text, get_language(language))
        assert len(list(level.definitions())) == 1, text


def test_cpp_nested_namespaces_and_specializations_and_solidity_constructors() -> None:
    """C++'s ``namespace a::b`` was one name "a::b" (the README says a qualified name is a
    path); a member of a specialization, ``Poly<double>::area``, lay in "Poly<double>", not
    in ``Poly``; Solidity's ``constructor`` was named "init"."""
    for language in ("cpp", "solidity"):
        needs_grammar(language)
    cpp = (
        "namespace a::b {\nint deep() {\n  return 1;\n}\n}\n"
        "template <typename T> struct Poly { double area() const; };\n"
        "template <> double Poly<double>::area() const {\n  return 2.0;\n}\n"
    )
    level = SyntaxLevel(cpp, get_language("cpp"))
    assert [d.path for d in level.definitions()] == [
        ("a", "b"),
        ("a", "b", "deep"),
        ("Poly",),
        ("Poly", "area"),
    ]
    spaced = "namespace a :: b {\nint f() { return 1; }\n}\nnamespace c::inline d {\n}\n"
    spaced += "namespace inlined {\n}\n"
    level = SyntaxLevel(spaced, get_language("cpp"))
    assert [d.path for d in level.definitions()] == [
        ("a", "b"),
        ("a", "b", "f"),
        ("c", "d"),
        ("inlined",),
    ]
    sol = "contract V {\n  address owner;\n  constructor(address o) {\n    owner = o;\n  }\n}\n"
    level = SyntaxLevel(sol, get_language("solidity"))
    assert [d.path for d in level.definitions()] == [("V",), ("V", "constructor")]


def test_a_function_like_macro_is_a_definition() -> None:
    # "#define BUF_CHECK(b) do {...} while (0)" over lines had no name: a search for the
    # macro found chunks named [].
    needs_grammar("c")
    text = (
        "#include <stdlib.h>\n\n#define BUF_CHECK(b) do { \\\n  if (!(b)) abort(); \\\n"
        "} while (0)\n#define N 10\n\nint f(void) {\n  return N;\n}\n"
    )
    level = SyntaxLevel(text, get_language("c"))
    assert [d.path for d in level.definitions()] == [("BUF_CHECK",), ("f",)]
    macro = next(c for c in split_code(text, "c", 30) if c.text.startswith("#define BUF"))
    assert macro.metadata["symbols"] == ["BUF_CHECK"]


def test_lua_qualified_functions_and_quoted_names_are_paths_of_names() -> None:
    """Lua's ``function M.foo()`` and ``function M:bar()`` were one name each ("M.foo",
    "M:bar") where C++'s ``P::f`` and Go's methods give the type and the method; a name
    written as a string (TypeScript's ``declare module "fs"``, a quoted key) kept its
    quotes."""
    for language in ("lua", "typescript"):
        needs_grammar(language)
    lua = "local M = {}\nfunction M.foo(a)\n  return a\nend\nfunction M:bar()\n  return 1\nend\n"
    level = SyntaxLevel(lua, get_language("lua"))
    assert [d.path for d in level.definitions()] == [("M", "foo"), ("M", "bar")]
    both = split_code(lua[lua.index("function") :], "lua", 400)[0]
    assert both.metadata["symbols"] == ["M"]  # (two methods of M, as Go's of one type)
    fields = "local api = {\n  render = function(x)\n    return x\n  end,\n  n = 1,\n}\n"
    level = SyntaxLevel(fields, get_language("lua"))
    assert [d.path for d in level.definitions()] == [("api",), ("api", "render")]  # (as JS's)
    ts = 'declare module "fs" {\n  export function readFile(p: string): string;\n}\n'
    ts += 'const o = {\n  "quoted-key": function () { return 1; },\n};\n'
    level = SyntaxLevel(ts, get_language("typescript"))
    assert [d.path for d in level.definitions()] == [
        ("fs",),
        ("fs", "readFile"),
        ("o",),
        ("o", "quoted-key"),
    ]


def test_definitions_include_one_line_ones_alone_in_a_block() -> None:
    """``definitions`` (the overlap's fences, the quality benchmark's count) missed a
    one-line definition that is the only statement of a block; Ruby's ``module A::B`` was
    one name."""
    for language in ("python", "ruby"):
        needs_grammar(language)
    cases = [
        ("try:\n    import x\nexcept ImportError:\n    def loads(s): return s\n", "python"),
        ("class A:\n    def f(self): return 1\n\nx = 1\n", "python"),
        ("module A::B\n  def helper; end\nend\n", "ruby"),
    ]
    found = [
        [d.path for d in SyntaxLevel(text, get_language(language)).definitions()]
        for text, language in cases
    ]
    assert found == [[("loads",)], [("A",), ("A", "f")], [("A", "B"), ("A", "B", "helper")]]


def test_a_body_of_one_method_on_one_line_is_named_by_that_method() -> None:
    """A class whose body is one method on one line: that line's chunk had the class's
    path only, and the body's kind (``block``); with a second method it had the method's."""
    for language in ("python", "ruby"):
        needs_grammar(language)
    cases = [
        ("class A:\n    def m(self): return 1\n\nx = 1\n", "python", 26, "function_definition"),
        ("class C\n  def m; 1; end\nend\nX = 1\n", "ruby", 16, "method"),
    ]
    for text, language, size, kind in cases:
        line = split_code(text, language, size)[1]
        assert (line.text.strip(), line.metadata["symbols"], line.metadata["node_kinds"]) == (
            text.splitlines()[1].strip(),
            ["A" if language == "python" else "C", "m"],
            [kind],
        )


def test_a_namespace_without_a_body_scopes_the_code_after_its_declaration() -> None:
    """``namespace N;`` scopes what follows it up to the next one. On a minified line the
    pieces after it had no ``N`` in their path (lines of their own had it); a class that
    starts on its line was left out of the path of its members; code before it on its line
    is not in it, nor is a chunk that reaches the next one's declaration."""
    for language in ("csharp", "php"):
        needs_grammar(language)

    def paths(text: str, language: str, size: int) -> list[tuple[str, list[str]]]:
        return [(c.text, c.metadata["symbols"]) for c in split_code(text, language, size)]

    minified = "namespace N;class A{void F(){int x=1;}void G(){int y=2;}}"
    on_lines = "namespace N;\nclass A{void F(){int x=1;}void G(){int y=2;}}\n"
    for text in (minified, on_lines):
        found = paths(text, "csharp", 20)
        assert found[0][1] == ["N"]
        assert all(path[:2] == ["N", "A"] for _, path in found[1:]), found
    # From the comments above it, a chunk holding the declaration lies in N only.
    assert paths("// c\n" + minified, "csharp", 34)[0] == (
        "// c\nnamespace N;class A{void ",
        ["N"],
    )
    assert paths("namespace N; class A {\n  void F() { int x = 1; }\n}\n", "csharp", 30) == [
        ("namespace N; class A {\n", ["N"]),
        ("  void F() { int x = 1; }\n}\n", ["N", "A", "F"]),  # (['N', 'F'] before)
    ]
    assert paths("using System;namespace N;class A{void F(){int x=1;}}", "csharp", 32) == [
        ("using System;namespace N;class ", []),
        ("A{void F(){int x=1;}}", ["N", "A"]),
    ]
    php = "<?php namespace A;function f(){return 1;}namespace B;function g(){return 2;}"
    assert paths(php, "php", 14)[3:] == [
        ("f(){return ", ["A", "f"]),
        ("1;}namespace ", []),  # (in A, then in B's declaration)
        ("B;function ", ["B"]),
        ("g(){return 2;}", ["B", "g"]),
    ]
    on_lines = "<?php\nnamespace A;\nfunction f(){return 1;}\nnamespace B;\nfunction g(){}\n"
    assert ("1;}\nnamespace B;\n", []) in paths(on_lines, "php", 20)  # (['A'] before)


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_object_literal_members_and_commonjs_exports_are_named(language: str) -> None:
    """A namespace object's functions and CommonJS exports had no name (no symbols, no
    overlap fence): ``const helpers = { render: function () {} }``,
    ``module.exports.format = function () {}``, ``exports.total = () => ...``."""
    needs_grammar(language)
    text = (
        'const helpers = {\n  parse(text) {\n    return text.split("\\n").map((l) => l.trim());\n'
        '  },\n  render: function (items) {\n    return items.map((i) => "<li>" + i).join("");\n'
        "  },\n};\n\nmodule.exports.format = function format(value) {\n"
        '  return String(value).padStart(10, " ") + " units of measure";\n};\n\n'
        "exports.total = (items) => items.reduce((sum, item) => sum + item.size, 0);\n\n"
        'const config = { retries: 3, timeout: 1000, name: "a long configuration name" };\n'
    )
    paths = [tuple(c.metadata["symbols"]) for c in split_code(text, language, 100)]
    assert {("helpers",), ("helpers", "render"), ("format",), ("total",)} <= set(paths)
    assert paths[-1] == ()  # an object of data alone is no definition
    # a statement that is a definition, cut inside its line, is named once (it was twice)
    pieces = split_code("module.exports.format = function () { return 4 };\n", language, 20)
    assert len(pieces) > 2 and all(c.metadata["symbols"] == ["format"] for c in pieces)
    if language == "typescript":
        line = "namespace Foo { export const a = 1; export const b = 2; }\n"
        assert all(c.metadata["symbols"] == ["Foo"] for c in split_code(line, language, 20))


def test_syntax_errors_are_found_as_a_query_finds_them() -> None:
    """The walk that finds ``ERROR`` nodes (a query took 2.9 s on one line of 64K unclosed
    brackets) finds what tree-sitter's query finds, nested errors too."""
    needs_grammar("python")
    from tree_sitter import Query, QueryCursor

    language = get_language("python")
    prose = sample("english.txt")[:20_000]
    for text in (prose, "def f(:\n  x = [1, (2\n" * 50, "x = " + "[" * 2000, "ok = 1\n"):
        tree = code_boundaries.parse(text, language)
        query = Query(tree.language, "(ERROR) @error")
        expected = QueryCursor(query).captures(tree.root_node).get("error", [])
        found = code_boundaries._errors(tree)
        assert sorted((n.start_byte, n.end_byte) for n in found) == sorted(
            (n.start_byte, n.end_byte) for n in expected
        )


def test_each_php_namespace_statement_scopes_what_follows_it() -> None:
    """Only the first ``namespace X;`` counted: class Two was named ``Alpha.Two``."""
    needs_grammar("php")
    text = (
        "<?php\nnamespace Alpha;\n\nclass One {\n    public function a() { return 1; }\n}\n\n"
        "namespace Beta;\n\nclass Two {\n    public function b() { return 2; }\n}\n"
    )
    paths = [c.metadata["symbols"] for c in split_code(text, "php", 12, length="cl100k_base")]
    assert ["Alpha", "One", "a"] in paths and ["Beta", "Two", "b"] in paths
    assert not any(path[:1] == ["Alpha"] and "Beta" in path for path in paths)


def test_qualified_namespace_names_are_paths_in_every_language() -> None:
    """C#'s ``namespace A.B``, TypeScript's ``namespace A.B`` and PHP's ``namespace A\\B``
    were one name each ("A.B") where C++'s ``namespace a::b`` is a path; PHP's global
    ``namespace {}`` was named "(anonymous)" and is no scope; a module named by a string
    keeps its dots. ``definitions()`` puts what follows ``namespace N;`` in N."""
    cases = [
        ("csharp", "namespace Acme.Tools {\n  class Calc {\n    int Add() { return 1; }\n  }\n}\n"),
        (
            "typescript",
            "namespace Acme.Tools {\n  export class Calc {\n    add() { return 1; }\n  }\n}\n",
        ),
        ("php", "<?php\nnamespace Acme\\Tools;\nclass Calc {\n  function add() { return 1; }\n}\n"),
    ]
    for language, text in cases:
        needs_grammar(language)
        paths = [c.metadata["symbols"] for c in split_code(text, language, 30)]
        assert ["Acme", "Tools", "Calc"] in paths, (language, paths)
        assert not any("Acme.Tools" in path or "Acme\\Tools" in path for path in paths)
    global_namespace = "<?php\nnamespace {\n  function helper($x) {\n    return $x * 2;\n  }\n}\n"
    paths = [c.metadata["symbols"] for c in split_code(global_namespace, "php", 30)]
    assert ["helper"] in paths and not any("(anonymous)" in path for path in paths), paths
    declared = 'declare module "lib.core" {\n  export function f(): void;\n}\n'
    assert split_code(declared, "typescript", 40)[0].metadata["symbols"] == ["lib.core"]
    text = "namespace Acme.Tools;\n\npublic class Calc {\n  int Add() { return 1; }\n}\n"
    found = [d.path for d in SyntaxLevel(text, get_language("csharp")).definitions(2)]
    assert found == [("Acme", "Tools"), ("Acme", "Tools", "Calc"), ("Acme", "Tools", "Calc", "Add")]


ANNOTATED_METHODS = [
    (
        "java",
        "class A {\n    @Override\n    public int size() {\n        return 1;\n    }\n}\n",
        50,
    ),
    (
        "java",
        "class A {\n    /** doc */\n    @Override\n    public int size() {\n"
        "        return 1;\n    }\n}\n",
        50,
    ),
    ("python", "import os\n\n\n@cache\ndef size(items):\n    return len(items)\n", 40),
    (
        "csharp",
        "class A {\n    [Obsolete]\n    public int Size() {\n        return 1;\n    }\n}\n",
        50,
    ),
    (
        "kotlin",
        "class A {\n    @JvmStatic\n    fun size(): Int {\n        return 1\n    }\n}\n",
        45,
    ),
    (
        "php",
        "<?php\nclass A {\n    #[Get('/')]\n    public function size() {\n"
        "        return 1;\n    }\n}\n",
        60,
    ),
    ("scala", "class A {\n  @deprecated\n  def size(): Int = {\n    1\n  }\n}\n", 40),
    (
        "swift",
        "class A {\n    @discardableResult\n    @MainActor\n    func size() -> Int {\n"
        "        return 1\n    }\n}\n",
        50,
    ),
    ("cpp", "class A {\n  [[nodiscard]]\n  int size() {\n    return 1;\n  }\n};\n", 40),
    # an annotation on the signature's line goes with it, those above apart
    (
        "java",
        "class A {\n    @Deprecated\n    @Override public int size() {\n        return 1;\n"
        "    }\n}\n",
        62,
    ),
    (
        "kotlin",
        "class A {\n    @Volatile\n    @JvmStatic fun size(): Int {\n        return 1\n    }\n}\n",
        60,
    ),
]


@pytest.mark.parametrize(("language", "text", "size"), ANNOTATED_METHODS)
def test_a_definition_that_fits_without_its_annotations_is_kept_whole(
    language: str, text: str, size: int
) -> None:
    """A method that fits the budget alone but not with its decorators or annotations was
    cut: the annotations went with its signature, its body to the next chunk. As with
    comments above it, the annotations now end the chunk before and the method is whole;
    where both fit, they stay together."""
    needs_grammar(language)
    chunks = split_code(text, language, size)
    start = next(i for i, line in enumerate(text.splitlines()) if "size" in line.lower())
    method = "".join(text.splitlines(keepends=True)[start:])
    method = method[: method.index("}" if language != "python" else "len(items)") + 1]
    holders = [c for c in chunks if method.strip() in c.text]
    assert holders, [c.text for c in chunks]
    assert holders[0].metadata["symbols"][-1].lower() == "size"
    # Where the annotations and the method fit together, they stay together.
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith(("@", "[", "#[")))
    last = next(
        i for i in range(first, len(lines)) if lines[i].strip() in ("}", "return len(items)")
    )
    whole = "".join(lines[first : last + 1])
    chunks = split_code(text, language, len(whole))
    assert any(whole in c.text for c in chunks), (whole, [c.text for c in chunks])


def test_a_statements_header_line_is_kinded_as_the_statement() -> None:
    """The line ``if sys.version_info >= (3, 11):`` alone in a chunk had the kinds
    ``["comparison_operator"]`` (its first named node) and C's ``for (int i = 0; ...) {``
    ``["declaration"]``: a header line is its statement's, as a signature is its
    definition's."""
    needs_grammar("python")
    text = "if sys.version_info >= (3, 11):\n    import tomllib\n    x = tomllib.loads(data)\n"
    assert split_code(text, "python", 35)[0].metadata["node_kinds"] == ["if_statement"]
    needs_grammar("c")
    text = "int f(int x) {\n    for (int i = 0; i < x; i++) {\n        g(i);\n    }\n}\n"
    kinds = [c.metadata["node_kinds"] for c in split_code(text, "c", 36)]
    assert ["for_statement"] in kinds, kinds


def test_interface_methods_and_overload_signatures_are_named() -> None:
    """TypeScript's overload signatures in a class and its interfaces' methods, and Go's
    interface methods, had only their class's or interface's path, where Java, C#, Kotlin,
    Swift, PHP and Rust name such members."""
    needs_grammar("typescript")
    text = (
        "class UserService {\n  find(id: string): User;\n  find(id: number): User;\n"
        "  find(id: any): User {\n    return this.repo.get(id);\n  }\n}\n"
        "interface Store {\n  get(key: string): string;\n  size: number;\n}\n"
    )
    chunks = split_code(text, "typescript", 30)
    named = [(c.metadata["symbols"], c.text.strip()) for c in chunks]
    assert (["UserService", "find"], "find(id: string): User;") in named
    assert (["Store", "get"], "get(key: string): string;") in named
    assert (["Store"], "size: number;\n}") in named  # (a property is data)
    needs_grammar("go")
    text = "package a\n\ntype Store interface {\n\tGet(key string) string\n\tio.Reader\n}\n"
    named = [(c.metadata["symbols"], c.text.strip()) for c in split_code(text, "go", 30)]
    assert (["Store", "Get"], "Get(key string) string") in named


@pytest.mark.parametrize("language", ["javascript", "tsx"])
def test_a_component_made_by_a_call_is_named_by_its_variable(language: str) -> None:
    """React's ``const Fancy = forwardRef((props, ref) => {...})`` and ``memo(function
    () {...})`` had no name, where ``const f = () => {...}`` has; a call that is given a
    function but gives data (``setTimeout``, ``useState``: a lower-case or destructured
    name) or a method of a value (``items.map(...)``) names nothing."""
    needs_grammar(language)
    text = (
        "export const Fancy = React.forwardRef((props, ref) => {\n"
        "  const value = compute(props);\n  return value;\n});\n"
        "const Plain = memo(function () {\n  return render(state);\n});\n"
        "const timer = setTimeout(() => {\n  tick(window.clock);\n}, 100);\n"
        "const [count, setCount] = useState(() => {\n  return load();\n});\n"
        "const doubled = items.map((x) => {\n  return x * 2;\n});\n"
    )
    chunks = split_code(text, language, 40)

    def symbols_at(needle: str) -> list[str]:
        return next(c.metadata["symbols"] for c in chunks if needle in c.text)

    assert symbols_at("compute(props)") == ["Fancy"]
    assert symbols_at("render(state)") == ["Plain"]
    assert symbols_at("tick(window.clock)") == symbols_at("load()") == symbols_at("x * 2") == []


def test_pieces_of_a_signature_line_below_annotations_are_kinded_as_without_them() -> None:
    """Where the annotations above a signature are units of their own, the pieces of the
    signature's line over budget were kinded ``modifiers`` (the line's bytes were counted
    from the annotation's row): they are kinded as those of the same line with no
    annotation above it (found by the diff review)."""
    needs_grammar("java")
    plain = "class User {\n    public int size() {\n        return 1;\n    }\n}\n"
    annotated = plain.replace("    public", "    @Override\n    public")

    def pieces(text: str) -> list[tuple[str, list[str]]]:
        chunks = split_code(text, "java", 20)
        return [(c.text, c.metadata["node_kinds"]) for c in chunks if "@" not in c.text]

    assert pieces(annotated) == pieces(plain)
    assert ("size() {\n", ["identifier", "formal_parameters"]) in pieces(plain)


def test_decorators_apart_from_a_function_too_big_stay_with_its_signature() -> None:
    """Where a decorated function does not fit even alone, its decorators go with its
    signature as before annotations became units of their own: those after a blank
    line with it, those before apart (all of them had become one run, cut from the
    signature; and the signature joined with its first statements was taken whole or
    not at all)."""
    needs_grammar("python")
    text = (
        "@first_decorator_of_a_long_name\n@second(1,\n    2)\n\n@third\n# note\n"
        "def f(self, a,\n        b):\n    x = a + 1\n    y = b + 2\n    return x\n"
    )
    for size in (50, 60):
        chunks = [c.text for c in split_code(text, "python", size)]
        assert chunks[0] == "@first_decorator_of_a_long_name\n@second(1,\n    2)\n", chunks
        assert chunks[1].startswith("@third\n# note\ndef f(self, a,\n        b):\n"), chunks


def test_a_comment_above_code_does_not_end_the_chunk_before_it() -> None:
    """A doc comment that cannot share a chunk with the definition it documents (the
    definition fits alone, not with it) ended the chunk before, named by that chunk's
    code; it is now a chunk of its own, named by the definition. So is a comment above a
    statement in a body that cannot go with it, and a section's comment goes with the code
    after it. Not where it would be a runt alone, or leave one behind."""
    for language in ("typescript", "go"):
        needs_grammar(language)
    doc = "/**\n" + "".join(f" * Line {i} of what the function below does.\n" for i in range(8))
    body = "".join(f"  const x{i} = compute(x{i - 1}, {i});\n" for i in range(1, 8))
    text = (
        "export function first(a: number): number {\n  return a + 1;\n}\n\n"
        f"{doc} */\nexport function second(x0: number): number {{\n{body}  return x7;\n}}\n"
    )
    chunks = split_code(text, "typescript", 150, length="cl100k_base")
    assert [(c.text.split("\n")[0], c.metadata["symbols"]) for c in chunks] == [
        ("export function first(a: number): number {", ["first"]),
        ("/**", ["second"]),
        ("export function second(x0: number): number {", ["second"]),
    ]
    steps = "".join(f'\t\tlog.Printf("step {i}: %v", err)\n' for i in range(6))
    go = (
        "package a\n\nfunc f(r io.Reader) error {\n\tbuf := make([]byte, 512)\n"
        "\t// Two blocks of zero bytes mark the end of the archive.\n"
        f"\tif _, err := io.ReadFull(r, buf); err != nil {{\n{steps}\t\treturn err\n\t}}\n"
        "\treturn nil\n}\n"
    )
    comment = "\t// Two blocks of zero bytes mark the end of the archive.\n"
    assert comment in [c.text for c in split_code(go, "go", 100, length="cl100k_base")]
    # A comment that would be a runt alone (4 tokens at 110) stays where it was.
    a = "def a(x):\n    y = x + 1\n    z = y * 2\n    return z\n\n"
    b = "def b(x):\n" + "".join(f"    x = x * {i} + {i}\n" for i in range(9)) + "    return x\n"
    note, longer = "# A note.\n", "# A longer note on what b does and why it does it that way.\n"
    short_chunks = split_code(a + note + b, "python", 110, length="cl100k_base")
    assert [c.text for c in short_chunks] == [a + note, b]
    long_chunks = split_code(a + longer + b, "python", 110, length="cl100k_base")
    assert [(c.text, c.metadata["symbols"]) for c in long_chunks] == [
        (a.rstrip("\n") + "\n", ["a"]),
        (longer, ["b"]),
        (b, ["b"]),
    ]
    # Nor where it would leave a runt behind it (``x = 1``, 3 tokens at 110).
    runt_before = split_code("x = 1\n\n" + longer + b, "python", 110, length="cl100k_base")
    assert [c.text for c in runt_before] == ["x = 1\n\n" + longer, b]
    # A section's comment (a blank line below it) above a comment of the definition's
    # own goes with the code after them too.
    section = "# ---- Section ----\n\n"
    chunks = split_code(a + section + "# note on b\n" + b, "python", 110, length="cl100k_base")
    assert [c.text for c in chunks] == [a.rstrip("\n") + "\n", section + "# note on b\n", b]


ANNOTATED_DATA = {  # language: a member that is data, annotated, after a long comment
    "java": "    @Stable\n    private static final int[] DIGITS = new int[] {\n",
    "kotlin": "    @JvmField\n    val digits = intArrayOf(\n",
}


@pytest.mark.parametrize("language", sorted(ANNOTATED_DATA))
def test_the_annotation_of_data_stays_with_it(language: str) -> None:
    """A declaration of a definition's node type that names nothing (a Java field, a
    Kotlin property without accessors) is a statement: its annotation line stays with
    it, not with the comment above it (``@JvmField`` ended the chunk before its property;
    so would ``@Stable`` once Java's fields could be definitions)."""
    needs_grammar(language)
    semicolon = ";" if language == "java" else ""
    rows = "".join(f"        {', '.join(map(str, range(k, k + 14)))},\n" for k in range(8))
    close = "    };\n" if language == "java" else "    )\n"
    comment = "".join(f"    // Why the table below looks as it does, line {n}.\n" for n in range(3))
    text = (
        f"class A {{\n    int a() {{\n        return 1{semicolon}\n    }}\n\n{comment}"
        f"{ANNOTATED_DATA[language]}{rows}{close}}}\n"
    ).replace("int a() {", "fun a(): Int {" if language == "kotlin" else "int a() {")
    annotation = ANNOTATED_DATA[language].splitlines()[0] + "\n"
    for size in (500, 600, 700):
        chunks = [c.text for c in split_code(text, language, size)]
        holder = next(c for c in chunks if annotation in c)
        assert not holder.endswith(annotation), (size, chunks)


def test_a_template_declaration_of_no_function_literal_keeps_its_kind() -> None:
    """C++ declarations are definitions where they bind a lambda (``auto f = [](…) {…}``);
    a template's prototype (``template <class T> T twice(T);``) is still a
    ``template_declaration``, not its inner ``declaration``."""
    needs_grammar("cpp")
    text = (
        "template <class T>\nT twice(T value);\n\n"
        "template <class T>\nauto f = [](T x) {\n  return x;\n};\n"
    )
    chunks = split_code(text, "cpp", 20)
    assert [(c.text, c.metadata["node_kinds"], c.metadata["symbols"]) for c in chunks[:2]] == [
        ("template <class T>\n", ["template_declaration"], []),
        ("T twice(T value);\n", ["template_declaration"], []),
    ]
    assert [c.metadata["symbols"] for c in chunks[2:]] == [["f"]] * 3, chunks


CLOSURES = {  # language: (text, the name bound to a function)
    "go": (
        "package a\n\nvar handler = func(w int) {\n\tuse(w)\n\tuse(w + 1)\n}\n\nvar x = 3\n",
        "handler",
    ),
    "kotlin": (
        "val greet = { name: String ->\n    println(name)\n    println(name)\n}\nval x = 3\n",
        "greet",
    ),
    "swift": (
        "let greet = { (name: String) in\n    print(name)\n    print(name)\n}\nlet x = 3\n",
        "greet",
    ),
    "scala": ("object A {\n  val f = (x: Int) => {\n    x + 1\n  }\n  val x = 3\n}\n", "f"),
    # a group of one, and a lambda in braces
    "go-group": ("package a\n\nvar (\n\th = func(w int) {\n\t\tuse(w)\n\t}\n)\n", "h"),
    "scala-braces": ("object A {\n  val k = { (x: Int) =>\n    x + 1\n  }\n}\n", "k"),
    # local closures: Go's short declaration, Rust's let, C++'s auto, Java's and C#'s lambdas
    "go-short": (
        "package a\n\nfunc A() {\n\th := func(w int) {\n\t\tuse(w)\n\t\tuse(w + 1)\n\t}\n"
        "\tx := 3\n\ta, b := func() {}, 4\n\th(x)\n}\n",
        "h",
    ),
    "rust": (
        "fn A() {\n    let add = |a: i32, b: i32| {\n        let c = a + b;\n"
        "        c * 2\n    };\n    let x = 3;\n    let (p, q) = (|| 1, 2);\n}\n",
        "add",
    ),
    "cpp": (
        "int A() {\n    auto add = [&](int a, int b) {\n        int c = a + b;\n        return c;\n"
        "    };\n    int x = 3, y = 4;\n    int f(int);\n    return add(x, y);\n}\n",
        "add",
    ),
    "java": (
        "class A {\n  static final Comparator<String> BY_LENGTH = (a, b) -> {\n"
        "    return a.length() - b.length();\n  };\n  static final int X = 3;\n}\n",
        "BY_LENGTH",
    ),
    "java-local": (
        "class A {\n  void run() {\n    Runnable r = () -> {\n      go(1);\n      go(2);\n    };\n"
        "    int x = 3;\n  }\n}\n",
        "r",
    ),
    "csharp": (
        "class A {\n  void Run() {\n    Func<int, int> twice = x => {\n      var y = x * 2;\n"
        "      return y;\n    };\n    var x = 3;\n  }\n}\n",
        "twice",
    ),
    # members: a C++ class's, a Java interface's constant, a C# event
    "cpp-member": (
        "struct A {\n  static inline auto cb = [](int a) {\n    int b = a + 1;\n    return b;\n"
        "  };\n  int x = 3;\n  void draw() const;\n};\n",
        "cb",
    ),
    "java-interface": (
        "interface A {\n  Runnable TASK = () -> {\n    go(1);\n    go(2);\n  };\n  int X = 3;\n}\n",
        "TASK",
    ),
    "csharp-event": (
        "class A {\n  event Action Changed = () => {\n    Go(1);\n    Go(2);\n  };\n"
        "  event Action Other;\n}\n",
        "Changed",
    ),
}


@pytest.mark.parametrize("language", sorted(CLOSURES))
def test_a_name_bound_to_a_function_literal_is_a_definition(language: str) -> None:
    """Go's ``var handler = func(...) {...}`` and ``h := func…``, Kotlin's and Swift's
    properties holding a lambda, Scala's ``val f = (x: Int) => ...``, Rust's closures,
    C++'s, Java's and C#'s lambdas bound to a name had no name, where JavaScript's
    ``const f = () => {...}`` has one; a name bound to data (``x = 3``), a pattern or
    several names is still none."""
    text, name = CLOSURES[language]
    language = language.split("-")[0]
    needs_grammar(language)
    found = [d.path[-1] for d in SyntaxLevel(text, get_language(language)).definitions(3)]
    assert [found_name for found_name in found if found_name not in ("A", "run", "Run")] == [name]
    named = {
        c.metadata["symbols"][-1] for c in split_code(text, language, 30) if c.metadata["symbols"]
    }
    assert name in named, named


def test_a_declaration_of_data_is_kinded_and_placed_as_a_statement() -> None:
    """Declarations became definitions where they bind a function literal; one that binds
    data is still a statement: a chunk that starts at ``if x := g(); x > 0 {`` or ``for
    (int i = 0; …) {`` is kinded by its statement, and a prototype before a function on
    one line (``int g(int);  int f(int a) {``) does not take the function's name."""
    for language in ("go", "cpp", "java"):
        needs_grammar(language)
    go = (
        "package a\n\nfunc f(v []int) int {\n\tt := 0\n\tif x := g(); x > 0 {\n"
        + "\t\tt += x * 1\n" * 6
        + "\t}\n\treturn t\n}\n"
    )
    # (at 60 characters no chunk starts at the if since a signature goes with what follows
    # it: "func f(...) {", "t := 0" and the if's header share a chunk, "package a" alone)
    header = next(c for c in split_code(go, "go", 50) if c.text.startswith("\tif x"))
    assert header.metadata["node_kinds"][0] == "if_statement"
    for language, loop in (
        ("cpp", "  for (int i = 0; i < n; ++i) {\n"),
        ("java", "  for (int i = 0; i < n; ++i) {\n"),
    ):
        body = "    t += i * 2;\n" * 6
        text = f"int f(int n) {{\n  int t = 0;\n{loop}{body}  }}\n  return t;\n}}\n"
        if language == "java":
            text = f"class A {{\n{text}}}\n"
        chunks = split_code(text, language, 40)
        start = next(c for c in chunks if loop in c.text)
        assert "for_statement" in start.metadata["node_kinds"], start
        assert "local_variable_declaration" not in start.metadata["node_kinds"]
        assert "declaration" not in start.metadata["node_kinds"]
    [one] = split_code("int g(int);  int f(int a) {\n  return a;\n}\n", "cpp", 200)
    assert one.metadata["symbols"] == ["f"]
    assert one.metadata["node_kinds"] == ["function_definition"]


SWIFT_SHAPES = """struct Circle {
    var radius: Double

    var area: Double {
        let r = radius
        return Double.pi * r * r
    }

    var diameter: Double {
        get { return radius * 2 }
        set { radius = newValue / 2 }
    }
}
"""

KOTLIN_SHAPES = """class Circle(val radius: Double) {
    val area: Double
        get() {
            val r = radius
            return Math.PI * r * r
        }

    var label: String = ""
        set(value) {
            field = value.trim()
        }

    val sides = 0
}
"""


@pytest.mark.parametrize(("language", "text"), [("swift", SWIFT_SHAPES), ("kotlin", KOTLIN_SHAPES)])
def test_properties_with_code_are_named_as_methods_are(language: str, text: str) -> None:
    """A Swift computed property and a Kotlin property with ``get()``/``set()`` hold code
    as a method does; their chunks had only the class's path. A stored property is data:
    it is no definition."""
    needs_grammar(language)
    chunks = split_code(text, language, 40)
    named = {tuple(c.metadata["symbols"]) for c in chunks}
    expected = {("Circle", "area"), ("Circle", "diameter" if language == "swift" else "label")}
    assert expected <= named, [(c.metadata["symbols"], c.text) for c in chunks]
    body = next(c for c in chunks if "let r =" in c.text or "val r =" in c.text)
    assert body.metadata["symbols"] == ["Circle", "area"]
    found = [d.path for d in SyntaxLevel(text, get_language(language)).definitions(2)]
    assert ("Circle", "area") in found
    assert ("Circle", "radius") not in found and ("Circle", "sides") not in found


def _generated_module(seed: int) -> str:
    """Python of many kinds of top-level piece, dense and sparse: one-letter statements,
    functions, a class, comments and decorators, a string whose lines start at the first
    column."""
    import random

    chooser = random.Random(seed)
    parts = []
    for index in range(chooser.randint(40, 160)):
        kind = chooser.choice("aaaaddcsbku")
        if kind == "a":
            parts.append(f"v{index} = {index}\n" * chooser.randint(1, 30))
        elif kind == "d":
            body = "".join(f"    x = x + {k}\n" for k in range(chooser.randint(1, 40)))
            parts.append(f"# about f{index}\ndef f{index}(x):\n{body}    return x\n")
        elif kind == "c":
            methods = "".join(
                f"    def m{k}(self):\n        return {k}\n\n" for k in range(chooser.randint(1, 9))
            )
            parts.append(f"class C{index}:\n{methods}")
        elif kind == "k":  # comments and decorators above a definition, each a line
            comments = "".join(f"# note {k} on g{index}\n" for k in range(chooser.randint(1, 12)))
            decorators = "@staticmethod\n" * chooser.randint(0, 3)
            parts.append(f"{comments}{decorators}def g{index}():\n    return {index}\n")
        elif kind == "u":  # a line that starts with U+FEFF (a byte order mark mid-text)
            parts.append(f"\ufeffu{index} = {index}\n")
        elif kind == "s":
            parts.append('TEXT = """\n' + "a line at the first column\n" * chooser.randint(1, 9))
            parts.append('"""\n')
        else:
            parts.append("\n" * chooser.randint(1, 3))
    return "".join(parts)


WINDOW_SETTINGS = [
    (0, None, False),
    (24, None, False),
    (0, "utf8", True),
    (0, "cl100k_base", True),
    (12, "cl100k_base", False),
]


def _split_in_windows(
    monkeypatch: pytest.MonkeyPatch, splitter: CodeSplitter, text: str, window: int
) -> tuple[list[Chunk], list[Chunk], list[int]]:
    """``text`` split whole, then a window of about ``window`` code points at a time, and
    the length of each text the parser was given for the second."""
    parsed: list[int] = []
    real_parse = code_boundaries.parse

    def parse(part: str, language: object, start: object = None) -> object:
        parsed.append(len(part))
        return real_parse(part, language, start)  # type: ignore[arg-type]

    # The same sample decides whether the text is code (a sample cut inside a string
    # whose lines start at the first column may read as prose).
    monkeypatch.setattr(code_boundaries, "SAMPLE_CHARS", 2 * window)
    monkeypatch.setattr(code_splitter, "WINDOW_CHARS", window)
    whole = splitter.split(text)
    monkeypatch.setattr(code_boundaries, "parse", parse)
    monkeypatch.setattr(code_splitter, "WINDOW_MIN_NODES", 0)
    windowed = splitter.split(text)
    monkeypatch.undo()
    return whole, windowed, parsed


def _described(chunks: list[Chunk]) -> list[tuple[int, int, int, object]]:
    return [(c.start, c.end, c.size, c.metadata) for c in chunks]


@pytest.mark.parametrize("overlap, length, strip", WINDOW_SETTINGS)
@pytest.mark.parametrize(
    "name, language",
    [
        ("code.py", "python"),
        ("code.go", "go"),
        ("code.java", "java"),
        ("code.rs", "rust"),
        ("code.ts", "typescript"),
        ("code.rb", "ruby"),
    ],
)
def test_code_packed_a_window_at_a_time_gives_the_chunks_of_one_parse(
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    language: str,
    overlap: int,
    length: str | None,
    strip: bool,
) -> None:
    # Windows resume only where the whole text's packing starts a chunk afresh at a
    # top-level piece: the chunks, their sizes, symbols and node kinds are the same.
    needs_grammar(language)
    text = sample(name) * 4
    budget = 80 if length == "cl100k_base" else 200
    splitter = CodeSplitter(language, budget, overlap, length=length, strip_whitespace=strip)
    for window in (1600, 4000):
        whole, windowed, parsed = _split_in_windows(monkeypatch, splitter, text, window)
        assert _described(windowed) == _described(whole)
        check_chunks(text, windowed, splitter)
        if language == "python" and not overlap:  # (with overlap: at a definition only)
            assert len(parsed) >= 2 and max(parsed) < len(text)  # windows, not the whole text


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("overlap, length, strip", WINDOW_SETTINGS)
def test_generated_python_packed_in_windows_gives_the_chunks_of_one_parse(
    monkeypatch: pytest.MonkeyPatch, seed: int, overlap: int, length: str | None, strip: bool
) -> None:
    needs_grammar("python")
    text = _generated_module(seed)
    if seed % 3 == 0:
        text = text.replace("\n", "\r\n")
    budget = 16 if length == "cl100k_base" else 40
    splitter = CodeSplitter("python", budget, overlap, length=length, strip_whitespace=strip)
    for window in (320, 700, 1600):
        whole, windowed, _ = _split_in_windows(monkeypatch, splitter, text, window)
        assert _described(windowed) == _described(whole)


@pytest.mark.parametrize("overlap, length, strip", WINDOW_SETTINGS)
@pytest.mark.parametrize(
    "text",
    [
        "# a\n## b\n" * 800,  # comments alone
        ("# c\n" * 100 + "def f():\n    return 1\n\n") * 12,  # long runs above definitions
        "# header\n" * 1500 + "def g():\n    pass\n",
    ],
    ids=["comments", "runs", "header"],
)
def test_a_run_of_comments_is_packed_a_window_at_a_time(
    monkeypatch: pytest.MonkeyPatch, text: str, overlap: int, length: str | None, strip: bool
) -> None:
    """Of a run of comments right above a unit only the last 64 go with it, so a window
    can resume inside a long run (no window could, and a file of comments alone was parsed
    and packed at once: 190 times the text): the chunks of one parse."""
    needs_grammar("python")
    budget = 30 if length == "cl100k_base" else 120
    splitter = CodeSplitter("python", budget, overlap, length=length, strip_whitespace=strip)
    whole, windowed, parsed = _split_in_windows(monkeypatch, splitter, text, 1600)
    assert _described(windowed) == _described(whole)
    assert len(parsed) >= 2 and max(parsed) < len(text)  # windows, not the whole text


def test_a_file_of_comments_takes_memory_bounded_by_a_window() -> None:
    needs_grammar("python")
    text = "# a\n## b\n" * 60_000
    splitter = CodeSplitter("python", 2000, 200)
    splitter.split(text[:100_000])
    assert peak_memory(lambda: splitter.split(text)) < 12 * len(text)


def test_dense_code_is_parsed_a_window_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # Tree-sitter's tree of one-letter statements takes about 190 bytes a code point: such
    # code is parsed a window at a time, with overlap and a tokenizer too; other code
    # whole, as its windows would cost time (a definition longer than a window is parsed
    # again twice as long).
    needs_grammar("python")
    text = "a\n\n" * 80_000
    parsed: list[int] = []
    real_parse = code_boundaries.parse

    def parse(part: str, language: object, start: object = None) -> object:
        parsed.append(len(part))
        return real_parse(part, language, start)  # type: ignore[arg-type]

    monkeypatch.setattr(code_boundaries, "parse", parse)
    for overlap, length in [(0, None), (200, None), (0, "cl100k_base"), (64, "cl100k_base")]:
        parsed.clear()
        budget = 512 if length else 2000
        splitter = CodeSplitter("python", budget, overlap, length=length)
        check_chunks(text, splitter.split(text), splitter)
        assert len(parsed) > 4 and max(parsed) < 33_000  # 8K-16K, the last with a short rest
    parsed.clear()
    real = sample("code.py") * 40
    CodeSplitter("python", 2000).split(real)
    assert parsed[-1] == len(real)  # parsed on from its sample, whole


def test_the_samples_tree_is_freed_before_the_next_window_is_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The sample's tree is the first window's: a window's tree is the most memory a
    # window takes (a few megabytes of one-letter statements), so no two are held at once.
    needs_grammar("python")
    first: list[object] = []
    references: list[int] = []  # to the first tree, as each later window is parsed
    real_parse = code_boundaries.parse

    def parse(part: str, language: object, start: object = None) -> object:
        if first:
            references.append(sys.getrefcount(first[0]))
        tree = real_parse(part, language, start)  # type: ignore[arg-type]
        if not first:
            first.append(tree)
        return tree

    monkeypatch.setattr(code_boundaries, "parse", parse)
    text = "a\n\n" * 40_000
    splitter = CodeSplitter("python", 2000, 200)
    check_chunks(text, splitter.split(text), splitter)
    assert len(references) >= 3
    # as after the split: held by ``first`` alone
    assert references == [sys.getrefcount(first[0])] * len(references)


def test_a_window_that_does_not_resume_as_the_whole_text_packs_is_packed_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Where a window resumes at a chunk with overlap, it must make that chunk and the
    # next as the window before did; where it does not (simulated here), the text is
    # parsed and packed whole.
    needs_grammar("python")
    text = "a\n\n" * 20_000
    splitter = CodeSplitter("python", 200, 40)
    monkeypatch.setattr(code_splitter, "WINDOW_CHARS", 4096)
    monkeypatch.setattr(code_splitter, "WINDOW_MIN_NODES", 0)
    monkeypatch.setattr(code_boundaries, "SAMPLE_CHARS", 8192)
    whole = splitter.split(text)
    real_packed = CodeSplitter._packed
    windows: list[int] = []

    def packed(
        self: CodeSplitter, part: str, structure: object, measurer: object, lead: object = None
    ) -> object:
        found = real_packed(self, part, structure, measurer, lead)  # type: ignore[arg-type]
        windows.append(len(part))
        if len(windows) == 3:  # the third window: its first chunk one character shorter
            found[0] = (found[0][0], found[0][1] - 1, found[0][2] - 1)
        return found

    monkeypatch.setattr(CodeSplitter, "_packed", packed)
    assert _described(splitter.split(text)) == _described(whole)
    assert windows[-1] == len(text) and max(windows[:-1]) < len(text)


WINDOW_CASES = {
    # An error recovered from by what is before it, which a window starting near it lacks.
    "error": ("python", "def f(x):\n    return x\n# c\nelse:\n    pass\nv = 1\n", 16, 4, 128),
    # Windows after the first have no "<?php" before them: tree-sitter reads them as HTML.
    "php": ("php", "<?php\n" + "".join(f"$v{i} = {i};\n" for i in range(60)), 40, 0, 320),
    # A heredoc's lines belong to no unit: a window must not start at its closing line.
    "heredoc": (
        "ruby",
        "".join(f"v{i} = {i}\n" for i in range(28)) + "x = <<EOS\n" + "line\n" * 10 + "EOS\n",
        20,
        0,
        160,
    ),
    # A file-scoped namespace scopes only what comes after its declaration.
    "namespace": (
        "c_sharp",
        "".join(f"using A{i};\n" for i in range(54)) + "namespace N;\n",
        40,
        0,
        320,
    ),
}


@pytest.mark.parametrize("case", list(WINDOW_CASES))
def test_code_that_a_window_would_read_otherwise_gives_the_chunks_of_one_parse(
    monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    # Found by a review (helper-59): each gave other chunks or metadata in windows.
    language, head, budget, overlap, window = WINDOW_CASES[case]
    needs_grammar(language)
    tail = {"php": "", "c_sharp": "".join(f"class C{i} {{}}\n" for i in range(60))}
    text = head + tail.get(language, "".join(f"w{i} = {i}\n" for i in range(60)))
    splitter = CodeSplitter(language, budget, overlap)
    whole, windowed, parsed = _split_in_windows(monkeypatch, splitter, text, window)
    assert _described(windowed) == _described(whole)
    assert len(parsed) >= 2  # a window was parsed before the text was taken whole, if it was


def test_no_chunk_starts_with_a_blank_line_inside_a_docstring() -> None:
    """A docstring over budget is cut at its lines; a chunk started with the blank line
    between its paragraphs (12 of 2,218 chunks of the standard library's Python at 128
    cl100k_base tokens), where the blank lines between chunks are left out."""
    needs_grammar("python")
    text = (
        '"""Module docstring line one is long enough to matter here.\n\n'
        'Second paragraph of the docstring goes on for a while too.\n"""\n\nimport os\n'
    )
    chunks = split_code(text, "python", 80)
    assert [(c.text, c.start_line) for c in chunks] == [
        ('"""Module docstring line one is long enough to matter here.\n', 1),
        ('Second paragraph of the docstring goes on for a while too.\n"""\n\nimport os\n', 3),
    ]
    assert all(c.size == len(c.text) for c in chunks)


def test_a_chunk_left_within_the_next_once_its_blank_lines_go_is_left_out() -> None:
    """With overlap, a chunk that starts with a blank line and the next chunk can start at
    the same line once the blank line is left out: the first, wholly within the second,
    is left out (found by the fuzz test; the text is not Python, so separators split it)."""
    text = "\n```python\ncode = 1\n```\n"
    chunks = split_code(text, "python", 23, 19, fallback="separators")
    assert [(c.start, c.end) for c in chunks] == [(1, 24)]


# --- found by a review: definitions read after something on their line, alone in a block,
# --- deep nesting with overlap, a chunk ending in the next line's indentation


def test_a_c_function_after_a_macro_on_its_line_stays_whole_and_named() -> None:
    # tree-sitter reads "static MACRO MACRO" as a declaration (its ';' missing) and the
    # function as starting mid-line: the function was opened into its parts, cut where
    # it fits and named by nothing.
    needs_grammar("c")
    text = (
        "static A B int first(int x)\n{\n    return x + 1;\n}\n\n"
        "static A B int second(int x)\n{\n    return x + 2;\n}\n"
    )
    for size in (60, 90):
        splitter = CodeSplitter("c", size)
        chunks = splitter.split(text)
        check_chunks(text, chunks, splitter)
        assert [(c.text, c.metadata["symbols"], c.metadata["node_kinds"]) for c in chunks] == [
            (text[:50], ["first"], ["function_definition"]),
            (text[51:], ["second"], ["function_definition"]),
        ]


@pytest.mark.parametrize(
    "head", ["try:\n    import fast\nexcept ImportError:\n", "if TYPE_CHECKING:\n", "else:\n"]
)
def test_a_definition_alone_in_a_block_names_its_chunk(head: str) -> None:
    needs_grammar("python")
    if head == "else:\n":
        head = "if FAST:\n    import fast\n" + head
    definition = "    def fallback(x):\n        return x * 2\n"
    text = head + definition
    splitter = CodeSplitter("python", len(definition))
    chunks = splitter.split(text)
    check_chunks(text, chunks, splitter)
    last = chunks[-1]
    assert last.text == "    def fallback(x):\n        return x * 2\n"
    assert last.metadata["symbols"] == ["fallback"]
    assert last.metadata["node_kinds"] == ["function_definition"]


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("python", "x = " + "[\n" * 1000 + "]\n" * 1000),
        ("javascript", "var x = " + "[\n" * 1500 + "]\n" * 1500),
        ("c", "int f() " + "{\n" * 1200 + "}\n" * 1200),
    ],
)
def test_deep_nesting_with_overlap_is_split(language: str, text: str) -> None:
    # The definitions that fence overlap were found by recursion, a level per level of
    # nesting: RecursionError with overlap, where the same text without it split.
    needs_grammar(language)
    splitter = CodeSplitter(language, 50, 10)
    chunks = splitter.split(text)
    check_chunks(text, chunks, splitter)
    assert len(chunks) > 10


def test_a_chunk_ending_in_the_next_lines_indentation_keeps_its_definition() -> None:
    # At a tiny budget a statement's line is cut by words: its indentation ends the chunk
    # before, which is still the method it holds text of. (A decorator's line did so
    # too; now, as a comment above code, it takes its indentation with it.)
    needs_grammar("python")
    text = "class K:\n    def a(self):\n        self._p = v\n\n    b_value_long = 3\n"
    found = [(c.text, c.metadata["symbols"]) for c in split_code(text, "python", 10)]
    assert ("v\n\n    ", ["K", "a"]) in found
    assert ("b_value", ["K"]) in found
    decorated = "class K:\n    def a(self):\n        self._p = v\n\n"
    decorated += "    @property\n    def b(self):\n        pass\n"
    found = [(c.text, c.metadata["symbols"]) for c in split_code(decorated, "python", 10)]
    assert ("v\n", ["K", "a"]) in found
    assert ("@property\n", ["K", "b"]) in found


def test_describing_deeply_nested_code_walks_each_unit_about_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each chunk of a block nested thousands deep asked where its block's content ends by
    # walking down all the levels below it: quadratic (3.8 s for 5,000 levels of C).
    needs_grammar("c")
    calls = 0
    children = SyntaxLevel.children

    def counted(self: SyntaxLevel, unit: object) -> object:
        nonlocal calls
        calls += 1
        return children(self, unit)  # type: ignore[arg-type]

    monkeypatch.setattr(SyntaxLevel, "children", counted)
    walked = []
    for levels in (1000, 2000):
        calls = 0
        text = "int f() " + "{\n" * levels + "}\n" * levels
        splitter = CodeSplitter("c", 50)
        check_chunks(text, splitter.split(text), splitter)
        walked.append(calls)
    assert walked[1] < 2.5 * walked[0], walked


def test_a_line_of_several_definitions_names_the_one_that_holds_each_piece() -> None:
    """Minified code: a line is named by its first definition, and every piece of it was
    put inside that one (f1's name after f0's, a piece of f1 and f2 in f0)."""
    needs_grammar("javascript")
    text = (
        "function f0(a,b){return a+b};function f1(a,b){return a*b};function f2(a,b){return a-b}\n"
    )
    chunks = CodeSplitter("javascript", 12).split(text)
    for chunk in chunks:
        holders = [
            name
            for name, (low, high) in (("f0", (0, 29)), ("f1", (29, 58)), ("f2", (58, 87)))
            if low <= chunk.start and chunk.end <= high + 1
        ]
        assert chunk.metadata["symbols"] == holders, (chunk.text, chunk.metadata["symbols"])
    assert {tuple(c.metadata["symbols"]) for c in chunks} == {("f0",), ("f1",), ("f2",), ()}
