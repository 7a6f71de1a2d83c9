"""Sentence and word boundaries: Unicode's conformance file, examples, properties, the
texts of tests/data, the corpus.

Three references, none of them the code under test: Unicode 17's SentenceBreakTest.txt;
:func:`reference_breaks`, the UAX #29 rules applied one position at a time in plain
Python (written from the rules' text); and the two engines of the module checked against
each other (the fast ``re`` pattern with its shortcuts and the exact ``regex`` pattern
without them).
"""

from __future__ import annotations

from typing import Any

import pytest
import regex
from conftest import CORPUS, DATA, corpus_files, corpus_path, read_corpus, sample
from hypothesis import assume, example, given
from hypothesis import strategies as st
from support import break_test_cases, corpus_cases, peak_memory

from spansplit import RecursiveSplitter, split_paragraphs, split_sentences
from spansplit.boundaries import sentences, words
from spansplit.boundaries.graphemes import cluster_ends
from spansplit.boundaries.sentences import (
    DEFAULT_ABBREVIATIONS,
    SentenceLevel,
    check_abbreviations,
    sentence_spans,
)
from spansplit.boundaries.words import word_spans
from spansplit.errors import InputTypeError, InvalidParameterError, ParameterTypeError

PURE = {"abbreviations": (), "openers": False, "lowercase_continues": False, "list_items": False}
MODES = [
    {},
    PURE,
    {"abbreviations": ()},
    {"openers": False},
    {"lowercase_continues": False},
    {"abbreviations": {"Mr.", "e.g."}},
]

# Generated text: every Sentence_Break class, line endings, marks, emoji, astral letters.
PIECES = [
    "a", "b", "z", "A", "Z", "é", "ß", "Σ", "я", "Я", "字", "好", "か", "한", "3", "٣", "_",
    " ", "  ", "\t", "\xa0", "\u3000", "\r", "\n", "\r\n", "\x85", "\u2028", "\u2029", "\x0c",
    ".", "!", "?", "。", "！", "？", "．", "｡", "‼", "\u2024", "…",
    ")", "]", '"', "'", "”", "’", "」", "』", "）", "》",
    "(", "[", "“", "‘", "「", "『", "（", "„", "«",
    ",", ";", ":", "、", "，", "-",
    "\u0301", "\u0308", "\u200d", "\ufe0f", "\u2060", "\xad", "\u0600", "\u0e33",
    "👍", "🏻", "👨‍👩‍👧", "🇺🇸", "😀", "𝐀", "𝐚", "𠀀", "क", "्", "त",
    "Mr", "Mrs", "e.g", "St", "etc", "U.S", "3.14",
]  # fmt: skip
generated = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
bmp_generated = generated.filter(lambda t: not regex.search("[\U00010000-\U0010ffff]", t))
anything = st.text(max_size=40)


# --- the reference: UAX #29 sentence rules, one position at a time -----------------------

_SB_NAMES = [
    "CR", "LF", "Sep", "Extend", "Format", "Sp", "Lower", "Upper", "OLetter", "Numeric",
    "ATerm", "STerm", "SContinue", "Close",
]  # fmt: skip
_SB = [(name, regex.compile(rf"\p{{Sentence_Break={name}}}")) for name in _SB_NAMES]
_PARASEP = {"Sep", "CR", "LF"}
_SATERM = {"ATerm", "STerm"}
_PREPEND = regex.compile(r"\p{Grapheme_Cluster_Break=Prepend}")
_JOINS_BACK = regex.compile(r"[\p{GCB=Extend}\p{GCB=ZWJ}\p{GCB=SpacingMark}]")
_PICTOGRAPHIC = regex.compile(r"\p{Extended_Pictographic}")


def sb_class(char: str) -> str:
    return next((name for name, pattern in _SB if pattern.match(char)), "Other")


def reference_breaks(text: str) -> list[int]:
    """Sentence ends by UAX #29 (SB1-SB11, SB998), plus the module's cluster-safe rule.

    The one addition: a break that SB11 makes is dropped where it would fall inside a
    grapheme cluster (after a Prepend character, before a mark that joins the character
    before it, between a ZWJ and a pictograph).
    """
    n = len(text)
    cls = [sb_class(ch) for ch in text]
    # SB5: an Extend or Format character after anything but a separator joins it.
    absorbed = [c in ("Extend", "Format") and i > 0 and cls[i - 1] not in _PARASEP
                for i, c in enumerate(cls)]  # fmt: skip
    effective = [i for i in range(n) if not absorbed[i]]  # positions, SB5 applied
    breaks = []
    e = 0  # index in ``effective`` of the first effective position >= i
    for i in range(1, n):
        while e < len(effective) and effective[e] < i:
            e += 1
        before = cls[i - 1]
        if before == "CR" and cls[i] == "LF":  # SB3
            continue
        if before in _PARASEP:  # SB4
            breaks.append(i)
            continue
        if absorbed[i]:  # SB5
            continue
        nxt = cls[i]
        # What precedes, read backwards: Sp*, then Close*, then the terminator (if any).
        k = e - 1
        while k >= 0 and cls[effective[k]] == "Sp":
            k -= 1
        has_sp = k < e - 1
        while k >= 0 and cls[effective[k]] == "Close":
            k -= 1
        bare = k == e - 1  # nothing between the terminator and this position
        term = cls[effective[k]] if k >= 0 else None
        if term not in _SATERM:
            continue  # SB998
        if term == "ATerm" and bare and nxt == "Numeric":  # SB6
            continue
        if (term == "ATerm" and bare and k >= 1 and cls[effective[k - 1]] in ("Upper", "Lower")
                and nxt == "Upper"):  # fmt: skip
            continue  # SB7
        if term == "ATerm":  # SB8
            stops = {"OLetter", "Upper", "Lower"} | _PARASEP | _SATERM
            first_stop = next((cls[j] for j in effective[e:] if cls[j] in stops), None)
            if first_stop == "Lower":
                continue
        if nxt in {"SContinue"} | _SATERM:  # SB8a
            continue
        if not has_sp and nxt in {"Close", "Sp"} | _PARASEP:  # SB9
            continue
        if nxt in {"Sp"} | _PARASEP:  # SB10
            continue
        # SB11, unless the break would split a grapheme cluster.
        if (
            _PREPEND.match(text[i - 1])
            or _JOINS_BACK.match(text[i])
            or (text[i - 1] == "\u200d" and _PICTOGRAPHIC.match(text[i]))
        ):
            continue
        breaks.append(i)
    return [*breaks, n] if n else []


def ends(spans: list[tuple[int, int]]) -> list[int]:
    return [end for _, end in spans]


def pieces(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[start:end] for start, end in spans]


def assert_tiles(text: str, spans: list[tuple[int, int]], start: int = 0, end: int | None = None):
    stop = len(text) if end is None else end
    if start == stop:
        assert spans == []
        return
    assert spans[0][0] == start and spans[-1][1] == stop
    assert all(a < b for a, b in spans), "empty span"
    assert all(spans[i][1] == spans[i + 1][0] for i in range(len(spans) - 1)), "gap or overlap"


def assert_cluster_safe(
    text: str, spans: list[tuple[int, int]], boundaries: set[int] | None = None
) -> None:
    if boundaries is None:
        boundaries = set(cluster_ends(text, 0, len(text)))
    for _, end in spans:
        assert end in boundaries, (
            f"boundary {end} inside a grapheme cluster: {text[end - 2 : end + 2]!r}"
        )


# --- the conformance file ------------------------------------------------------------------


def test_conformance_file_every_case() -> None:
    cases = break_test_cases("SentenceBreakTest.txt")
    assert len(cases) == 512  # the file says "# Lines: 512"
    failures = []
    for text, breaks, line in cases:
        expected = breaks[1:]  # the file marks the start of the text too
        for mode in ({"abbreviations": (), "lowercase_continues": False}, PURE):
            got = ends(sentence_spans(text, **mode))
            if got != expected:
                failures.append((mode, line, got))
    assert failures == []


def test_lowercase_continues_differs_from_the_file_only_before_lower_case() -> None:
    # The tailoring (on by default) keeps "!" or "?" before a lower-case letter inside the
    # sentence, as SB8 keeps a full stop: the file's only such cases are "!a" and "!\u0308a".
    differing = []
    for text, breaks, _ in break_test_cases("SentenceBreakTest.txt"):
        if ends(sentence_spans(text, abbreviations=())) != breaks[1:]:
            differing.append(text)
    assert differing == ["!a", "!\u0308a"]
    assert ends(sentence_spans("!a", abbreviations=())) == [2]


@pytest.mark.parametrize(
    ("text", "tailored", "plain"),
    [
        (
            "\u201cWhere?\u201d he asked. Then he left.",
            ["\u201cWhere?\u201d he asked. ", "Then he left."],
            ["\u201cWhere?\u201d ", "he asked. ", "Then he left."],
        ),
        (
            "Alas! never more. Yes! The end.",
            ["Alas! never more. ", "Yes! ", "The end."],
            ["Alas! ", "never more. ", "Yes! ", "The end."],
        ),
        (
            "\u00bfQu\u00e9? dijo \u00e9l.",
            ["\u00bfQu\u00e9? dijo \u00e9l."],
            ["\u00bfQu\u00e9? ", "dijo \u00e9l."],
        ),
        ("Why?\nhe asked", ["Why?\n", "he asked"], ["Why?\n", "he asked"]),  # SB4 still
        (
            "\u4f60\u597d\uff01\u4ed6\u8bf4\u3002",
            ["\u4f60\u597d\uff01", "\u4ed6\u8bf4\u3002"],
            ["\u4f60\u597d\uff01", "\u4ed6\u8bf4\u3002"],
        ),
    ],
)
def test_exclamation_or_question_before_lower_case_goes_on(
    text: str, tailored: list[str], plain: list[str]
) -> None:
    assert pieces(text, sentence_spans(text)) == tailored
    assert pieces(text, sentence_spans(text, lowercase_continues=False)) == plain


def test_conformance_file_both_engines() -> None:
    """Each engine alone passes too (the fast one on the cases it is used for)."""
    fast = sentences.fast_pattern(frozenset(), False, False)
    exact = sentences.exact_pattern(frozenset(), False, False)
    astral = regex.compile("[\U00010000-\U0010ffff]")
    checked = 0
    for text, breaks, line in break_test_cases("SentenceBreakTest.txt"):
        engines = [exact] if astral.search(text) else [exact, fast]
        for engine in engines:
            found: list[int] = []
            sentences._add_ends(engine, text, 0, len(text), found)
            assert found == breaks[1:], (line, engine)
            checked += 1
    assert checked >= 512


def test_reference_passes_the_conformance_file() -> None:
    """The plain-Python reference used below is itself checked against Unicode's file."""
    for text, breaks, line in break_test_cases("SentenceBreakTest.txt"):
        assert reference_breaks(text) == breaks[1:], line


# --- hand-written cases --------------------------------------------------------------------

EXAMPLES = [
    # (text, default sentences, plain UAX #29 sentences)
    (
        "Mr. Smith went to Washington. He arrived.",
        ["Mr. Smith went to Washington. ", "He arrived."],
        ["Mr. ", "Smith went to Washington. ", "He arrived."],
    ),
    ("3.14 is pi.", ["3.14 is pi."], ["3.14 is pi."]),
    ("e.g. this", ["e.g. this"], ["e.g. this"]),
    ("See e.g. Python. It works.", ["See e.g. Python. ", "It works."],
     ["See e.g. ", "Python. ", "It works."]),
    ("他说：「你好。」她笑了。", ["他说：「你好。」", "她笑了。"],
     ["他说：「你好。」", "她笑了。"]),
    ("你好。「她说」好。", ["你好。", "「她说」好。"], ["你好。「", "她说」好。"]),
    ("他走了。“你好，”她说。", ["他走了。", "“你好，”她说。"], ["他走了。“", "你好，”她说。"]),
    ("日本語の文。次の文！最後？", ["日本語の文。", "次の文！", "最後？"],
     ["日本語の文。", "次の文！", "最後？"]),
    ("Ｈｅｌｌｏ．Ｗｏｒｌｄ．", ["Ｈｅｌｌｏ．Ｗｏｒｌｄ．"], ["Ｈｅｌｌｏ．Ｗｏｒｌｄ．"]),
    ("Hello!World", ["Hello!", "World"], ["Hello!", "World"]),  # SB11: a letter after "!"
    ("Hello.World", ["Hello.World"], ["Hello.World"]),  # SB7: letter, full stop, capital
    ("Wait... What? Yes.", ["Wait... ", "What? ", "Yes."], ["Wait... ", "What? ", "Yes."]),
    ("Wait… what", ["Wait… what"], ["Wait… what"]),  # U+2026 is not a terminator
    ("Really?! Yes.", ["Really?! ", "Yes."], ["Really?! ", "Yes."]),
    ("One.\r\nTwo.\rThree.\nFour", ["One.\r\n", "Two.\r", "Three.\n", "Four"],
     ["One.\r\n", "Two.\r", "Three.\n", "Four"]),
    ("no stop\r\nat all\n\nend", ["no stop\r\n", "at all\n", "\n", "end"],
     ["no stop\r\n", "at all\n", "\n", "end"]),
    ("A.\u2029B.\u2028C.\x85D", ["A.\u2029", "B.\u2028", "C.\x85", "D"],
     ["A.\u2029", "B.\u2028", "C.\x85", "D"]),
    ("„Hallo.“ Dann ging er.", ["„Hallo.“ ", "Dann ging er."], ["„Hallo.“ ", "Dann ging er."]),
    ("(Go.) (He did.)", ["(Go.) ", "(He did.)"], ["(Go.) ", "(He did.)"]),
    ("etc.) the end", ["etc.) the end"], ["etc.) the end"]),  # SB8
    ("The U.S. is big.", ["The U.S. is big."], ["The U.S. is big."]),
    ("etc. Mrs. Bennet was", ["etc. ", "Mrs. Bennet was"], ["etc. ", "Mrs. ", "Bennet was"]),
    ("Is it? yes it is.", ["Is it? yes it is."], ["Is it? ", "yes it is."]),  # tailored SB8
    ("Это тест. Второй тест.", ["Это тест. ", "Второй тест."], ["Это тест. ", "Второй тест."]),
    ("هذا اختبار. هذا آخر؟ نعم", ["هذا اختبار. ", "هذا آخر؟ ", "نعم"],
     ["هذا اختبار. ", "هذا آخر؟ ", "نعم"]),
    ("Tabs.\tNext. \t Again", ["Tabs.\t", "Next. \t ", "Again"], ["Tabs.\t", "Next. \t ", "Again"]),
    ("Fine 👍. Next 👨‍👩‍👧. End", ["Fine 👍. ", "Next 👨‍👩‍👧. ", "End"],
     ["Fine 👍. ", "Next 👨‍👩‍👧. ", "End"]),
    ("Cafe\u0301. Ole\u0301!", ["Cafe\u0301. ", "Ole\u0301!"], ["Cafe\u0301. ", "Ole\u0301!"]),
    ("", [], []),
]  # fmt: skip


@pytest.mark.parametrize(("text", "default", "plain"), EXAMPLES, ids=[e[0][:20] for e in EXAMPLES])
def test_examples(text: str, default: list[str], plain: list[str]) -> None:
    assert pieces(text, sentence_spans(text)) == default
    assert pieces(text, sentence_spans(text, **PURE)) == plain
    assert ends(sentence_spans(text, **PURE)) == reference_breaks(text)


def test_seed_001_failures_are_fixed() -> None:
    """Seed 001 breaks after any '.', so "3.14" and "e.g." end sentences there."""
    text = "Pi is 3.14 today, e.g. in class. Next one."
    assert pieces(text, sentence_spans(text)) == ["Pi is 3.14 today, e.g. in class. ", "Next one."]


def test_chinese_terminator_never_starts_a_sentence() -> None:
    """LangChain#18770: 。 must end its piece, not begin the next one."""
    text = "第一句。第二句！第三句？「第四句。」第五句"
    spans = sentence_spans(text)
    assert pieces(text, spans) == ["第一句。", "第二句！", "第三句？", "「第四句。」", "第五句"]


# --- hard-wrapped text ----------------------------------------------------------------------

WRAPPED_EXAMPLES = [
    (
        "He went to\nWashington. Then he\r\nleft.\n\nNew para.\n",
        ["He went to\nWashington. ", "Then he\r\nleft.\n", "\n", "New para.\n"],
    ),
    ("Mr.\nSmith went.", ["Mr.\nSmith went."]),
    ("one\n  \ntwo", ["one\n", "  \n", "two"]),  # a line of spaces is blank
    ("one\n\xa0\ntwo", ["one\n\xa0\ntwo"]),  # a line of U+00A0 is not
    ("a.\u2028b", ["a.\u2028", "b"]),
    ("第一行\n第二行。第三\n行。", ["第一行\n第二行。", "第三\n行。"]),
]


@pytest.mark.parametrize(("text", "expected"), WRAPPED_EXAMPLES)
def test_wrapped_examples(text: str, expected: list[str]) -> None:
    assert pieces(text, sentence_spans(text, wrapped=True)) == expected


def test_wrapped_region() -> None:
    text = "Skip.\nKeep\none. Keep\ntwo.\nSkip"
    spans = sentence_spans(text, 6, 26, wrapped=True)
    assert pieces(text, spans) == ["Keep\none. ", "Keep\ntwo.\n"]


def assert_wrapped_ends_are_line_ends(text: str, wrapped: list[int], plain: list[int]) -> None:
    """A wrapped sentence ends where the line-by-line one does, or after the indentation
    of the next line (spaces after a sentence belong to it, and SB5 joins marks to them)."""
    plain_ends = set(plain)
    for end in wrapped:
        if end not in plain_ends:
            line_end = end
            while sb_class(text[line_end - 1]) in ("Sp", "Extend", "Format"):  # indentation
                line_end -= 1
            assert line_end in plain_ends and text[line_end - 1] in "\r\n", end


@given(generated)
def test_wrapped_breaks_are_sentence_or_line_breaks(text: str) -> None:
    for mode in ({}, PURE):
        spans = sentence_spans(text, wrapped=True, **mode)
        assert_tiles(text, spans)
        assert_wrapped_ends_are_line_ends(text, ends(spans), ends(sentence_spans(text, **mode)))


def check_wrapped_sentences_cross_lines(text: str, ratio: float) -> None:
    plain, wrapped = sentence_spans(text), sentence_spans(text, wrapped=True)
    assert_tiles(text, wrapped)
    assert len(wrapped) < len(plain) * ratio  # far fewer: a sentence no longer ends per line
    assert_wrapped_ends_are_line_ends(text, ends(wrapped), ends(plain))


@pytest.mark.parametrize("crlf", [False, True])
def test_wrapped_sample_sentences_cross_lines(crlf: bool) -> None:
    text = sample("english.txt")  # a hard-wrapped story, shorter sentences than a novel's
    check_wrapped_sentences_cross_lines(text.replace("\n", "\r\n") if crlf else text, 0.8)


@pytest.mark.corpus
def test_wrapped_corpus_sentences_cross_lines() -> None:
    text = read_exact("english_prose/pg1661_adventures_of_sherlock_holmes.txt")
    check_wrapped_sentences_cross_lines(text, 0.6)


# --- list items ----------------------------------------------------------------------------

STEPS = "Steps:\n1. Download the installer.\n2. Run the setup program.\n3. Restart it.\n"


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r", "\u2028"])
@pytest.mark.parametrize("wrapped", [False, True])
def test_a_numbered_items_marker_stays_with_its_item(ending: str, wrapped: bool) -> None:
    """UAX #29 ends a sentence after "2." before a capital: the number went with the item
    before it ("Download the installer.\n2."). Plain UAX #29 still does."""
    text = STEPS.replace("\n", ending)
    found = pieces(text, sentence_spans(text, wrapped=wrapped))
    assert [piece.rstrip() for piece in found] == [
        "Steps:",
        "1. Download the installer.",
        "2. Run the setup program.",
        "3. Restart it.",
    ]
    if not wrapped:  # (wrapped, plain UAX #29 runs "Steps:" on into "1.")
        plain = pieces(text, sentence_spans(text, **PURE))
        assert [piece.rstrip() for piece in plain][:3] == [
            "Steps:",
            "1.",
            "Download the installer.",
        ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # items without full stops, indented, lettered: each line its own sentence
        (
            "Do this:\n  a. Open the box\n  b. Take it out",
            ["Do this:\n", "  a. Open the box\n", "  b. Take it out"],
        ),
        # a number or an initial starting a hard-wrapped line: the sentence goes on
        (
            "The total came to exactly\n500. Then they signed.",
            ["The total came to exactly\n500. ", "Then they signed."],
        ),
        (
            "It was written by\nA. Smith and others.",
            ["It was written by\nA. ", "Smith and others."],
        ),
        # bullets in a wrapped paragraph start sentences; a continuation line does not
        (
            "Pack:\n- a tent for\nthe night\n- Food. Water\n* a map",
            ["Pack:\n", "- a tent for\nthe night\n", "- Food. ", "Water\n", "* a map"],
        ),
        # not at a line start, or a year: UAX #29 as before
        ("In step 2. Then stop.", ["In step 2. ", "Then stop."]),
        ("It ended in\n1999. Then peace.", ["It ended in\n1999. ", "Then peace."]),
        ("1. ", ["1. "]),
    ],
)
def test_list_item_lines_in_wrapped_text(text: str, expected: list[str]) -> None:
    assert pieces(text, sentence_spans(text, wrapped=True)) == expected


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_a_line_before_a_number_is_read_from_its_own_start(ending: str) -> None:
    """Whether the line before ``1. `` opens an item is read from that line's start, not
    from 200 characters back, where "r. " of "Dr." read as a list marker (found in CRLF
    text: one character more moved that window into the word)."""
    for pad in range(-2, 3):  # ("1. " 201 characters in: the window starts at "r. ")
        line = "Dr. Ahab saw the whale. " + "a" * (165 - len(ending) + pad) + " the captain"
        text = line + ending + "1. ..."
        starts = [start for start, _ in sentence_spans(text, wrapped=True)]
        assert text.index("1. ") not in starts, pad


@pytest.mark.parametrize("ending", ["\u2028", "\x85"])
def test_the_line_before_an_item_ends_at_any_line_separator(ending: str) -> None:
    """The line before ``2. `` starts after its own line separator, not at the last LF
    ("1. Intro" then made a wrapped line read as an item, and reading back to the text's
    start for each line took time quadratic in a text of such lines)."""
    from spansplit.boundaries.sentences import _item_lines  # (each line ends a sentence)

    text = "1. Intro" + ending + "the whale swam " * 20 + "past" + ending + "2. next"
    assert _item_lines(text, 0, len(text)) == [0]


def test_numbered_items_start_chunks_in_every_prose_splitter() -> None:
    expected = [
        "Steps:",
        "1. Download the installer.",
        "2. Run the setup program.",
        "3. Restart it.",
    ]
    for split in (
        lambda text: split_sentences(text, 30),
        lambda text: split_sentences(text, 30, wrapped=False),
        lambda text: split_paragraphs(text, 30),
        lambda text: RecursiveSplitter.from_preset("cjk", 30).split(text),
    ):
        assert [chunk.text for chunk in split(STEPS)] == expected


# --- abbreviations -------------------------------------------------------------------------


def test_default_abbreviations() -> None:
    assert {
        "Mr.",
        "Mrs.",
        "Ms.",
        "Dr.",
        "St.",
        "Prof.",
        "vs.",
        "e.g.",
        "i.e.",
    } <= DEFAULT_ABBREVIATIONS
    assert not {"etc.", "Jr.", "No."} & DEFAULT_ABBREVIATIONS  # they usually end a sentence
    assert check_abbreviations(set(DEFAULT_ABBREVIATIONS)) == DEFAULT_ABBREVIATIONS


@pytest.mark.parametrize("entry", sorted(DEFAULT_ABBREVIATIONS))
def test_each_default_abbreviation_keeps_the_sentence(entry: str) -> None:
    text = f"Ask {entry} Brown now. Then go."
    assert pieces(text, sentence_spans(text)) == [f"Ask {entry} Brown now. ", "Then go."]
    assert len(sentence_spans(text, abbreviations=())) == 3


def test_a_months_abbreviation_before_a_number_ends_no_sentence() -> None:
    """ "born on Dec. 25. Then" was three sentences, "Dec." | "25." a runt of its own
    (found by a review); before a capital the month still may end one."""
    text = "She was born on Dec. 25. Then she left. Sept. 3 came."
    assert pieces(text, sentence_spans(text)) == [
        "She was born on Dec. 25. ",
        "Then she left. ",
        "Sept. 3 came.",
    ]
    text = "It ended in Dec. The next year began."
    assert pieces(text, sentence_spans(text)) == ["It ended in Dec. ", "The next year began."]
    assert len(sentence_spans("She was born on Dec. 25. Then.", abbreviations=())) == 3


def test_abbreviations_match_whole_words_only() -> None:
    text = "Ask Dr. Brown. Mix Mr. Brown. AMr. Brown. X.Mr. Brown."
    got = pieces(text, sentence_spans(text, abbreviations={"Mr.", "Dr."}))
    assert got == ["Ask Dr. Brown. ", "Mix Mr. Brown. ", "AMr. ", "Brown. ", "X.Mr. ", "Brown."]


def test_a_number_sign_before_a_number_keeps_the_sentence() -> None:
    # (lower case "no." before a number may end one: "The answer was no. 42 Senators voted.")
    text = "He lives at No. 4 Privet Drive. See Nos. 3 and 4. The answer was No. Then he left."
    assert pieces(text, sentence_spans(text)) == [
        "He lives at No. 4 Privet Drive. ",
        "See Nos. 3 and 4. ",
        "The answer was No. ",  # (before a word it ends one)
        "Then he left.",
    ]
    assert pieces("Casino. 4 Tables.", sentence_spans("Casino. 4 Tables.")) == [
        "Casino. ",
        "4 Tables.",
    ]
    assert len(sentence_spans(text, abbreviations=())) == 5  # plain UAX #29 ends them


def test_abbreviations_are_case_sensitive_and_need_text_after() -> None:
    assert len(sentence_spans("Ask MR. Brown.")) == 2
    assert pieces("Call Mr.", sentence_spans("Call Mr.")) == ["Call Mr."]
    assert pieces("Mr. \nBrown", sentence_spans("Mr. \nBrown")) == ["Mr. \n", "Brown"]
    assert pieces("Mr.) Brown", sentence_spans("Mr.) Brown")) == ["Mr.) ", "Brown"]


def test_custom_abbreviations() -> None:
    text = "It was 5 p.m. Then etc. Next."
    assert len(sentence_spans(text, abbreviations=())) == 3
    got = sentence_spans(text, abbreviations={"p.m.", "etc."})
    assert pieces(text, got) == [text]
    assert pieces(text, sentence_spans(text, abbreviations=["etc."])) == [
        "It was 5 p.m. ",
        "Then etc. Next.",
    ]


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ("Mr.", ParameterTypeError),
        (5, ParameterTypeError),
        ({"Mr.", 5}, ParameterTypeError),
        ({"Mr"}, InvalidParameterError),
        ({"."}, InvalidParameterError),
        ({"e. g."}, InvalidParameterError),
        ({".."}, InvalidParameterError),
        (b"Mr.", ParameterTypeError),  # (not read byte by byte: "got int: 77")
    ],
)
def test_bad_abbreviations_raise(value: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="abbreviations"):
        sentence_spans("Mr. Smith.", abbreviations=value)  # type: ignore[arg-type]


# --- regions and bad input -----------------------------------------------------------------


def test_regions() -> None:
    text = "Skip this. Keep one. Keep two. Skip"
    spans = sentence_spans(text, 11, 30)
    assert pieces(text, spans) == ["Keep one. ", "Keep two."]
    assert spans == [(11, 21), (21, 30)]
    assert sentence_spans(text, 5, 5) == []
    assert SentenceLevel()(text, 11, 30) == spans  # the level packing uses: same tailorings
    assert sentence_spans(text, 11) == sentence_spans(text, 11, len(text))


def test_region_end_is_the_end_of_text() -> None:
    """A region's end cuts a CRLF or a lookahead as the end of the text would."""
    assert sentence_spans("a.\r\nb", 0, 3) == [(0, 3)]
    assert sentence_spans("Mr. Smith", 0, 4) == [(0, 4)]


@pytest.mark.parametrize("flag", ["openers", "lowercase_continues", "wrapped", "list_items"])
def test_flags_must_be_bools(flag: str) -> None:
    """A string such as "no" turned a tailoring on."""
    with pytest.raises(ParameterTypeError, match=flag):
        sentence_spans("abc\nDef", **{flag: "no"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((b"bytes",), InputTypeError),
        (("text", -1), InvalidParameterError),
        (("text", 5), InvalidParameterError),
        (("text", 3, 2), InvalidParameterError),
        (("text", 0, 9), InvalidParameterError),
        (("text", 1.0), ParameterTypeError),
        (("text", 0, "4"), ParameterTypeError),
        (("text", True), ParameterTypeError),
    ],
)
def test_bad_regions_raise(args: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        sentence_spans(*args)  # type: ignore[arg-type]
    with pytest.raises(error):
        word_spans(*args)  # type: ignore[arg-type]


# --- properties on generated text ----------------------------------------------------------


@given(st.one_of(generated, anything))
def test_spans_tile_are_deterministic_and_cluster_safe(text: str) -> None:
    for mode in MODES:
        spans = sentence_spans(text, **mode)
        assert_tiles(text, spans)
        assert sentence_spans(text, **mode) == spans
        assert_cluster_safe(text, spans)


@given(generated)
def test_plain_mode_matches_the_reference(text: str) -> None:
    assert ends(sentence_spans(text, **PURE)) == reference_breaks(text)


def engine_ends(pattern: Any, text: str) -> list[int]:
    """The sentence ends one compiled pattern finds in all of ``text``."""
    found: list[int] = []
    if text:
        sentences._add_ends(pattern, text, 0, len(text), found)
    return found


@given(bmp_generated)
def test_fast_and_exact_engines_agree(text: str) -> None:
    for abbreviations in (frozenset(), DEFAULT_ABBREVIATIONS):
        for openers, lowercase in ((False, False), (True, False), (True, True)):
            fast = sentences.fast_pattern(abbreviations, openers, lowercase)
            exact = sentences.exact_pattern(abbreviations, openers, lowercase)
            assert engine_ends(fast, text) == engine_ends(exact, text)


@given(st.one_of(generated, anything))
def test_the_pattern_for_all_planes_agrees_with_the_exact_engine(text: str) -> None:
    # Lines with a character beyond the BMP go to the re pattern whose classes span every
    # plane; the regex module's \p{SB=...} classes define what it must find.
    for settings in ((frozenset(), False, False), (DEFAULT_ABBREVIATIONS, True, True)):
        astral = sentences.fast_pattern(*settings, astral=True)
        exact = sentences.exact_pattern(*settings)
        assert engine_ends(astral, text) == engine_ends(exact, text)


@pytest.mark.skipif(not sentences.POSSESSIVE_LOOP, reason="possessive groups need Python 3.11")
def test_a_long_sentence_of_marks_holds_no_state_per_mark() -> None:
    # The lazy loop of the pattern kept about 60 bytes for each run of marks: 39 times the
    # text for a megabyte of "e" with two combining marks.
    text = "e\u0301\u0323" * 100_000 + ". Next"
    assert ends(sentence_spans(text)) == [len(text) - 4, len(text)]
    assert peak_memory(lambda: sentence_spans(text)) < len(text)
    # A long line beyond the BMP goes to the re pattern for all planes (the regex module's
    # pattern kept 12 times the text for emoji ZWJ sequences).
    emoji = "👩\u200d👩\u200d👧\u200d👦" * 5_000 + "! Next"
    assert len(emoji) >= sentences.LONG_ASTRAL_LINE
    assert ends(sentence_spans(emoji)) == [len(emoji) - 4, len(emoji)]
    assert peak_memory(lambda: sentence_spans(emoji)) < len(emoji)


@example("._.")
@example(".\t”\u3000")
@given(generated)
def test_tailorings_only_remove_breaks_or_move_them_before_an_opener(text: str) -> None:
    plain = set(ends(sentence_spans(text, **PURE)))
    for mode in ({}, {"openers": False}, {"abbreviations": ()}):
        for end in ends(sentence_spans(text, **mode)):
            # (or past a closing quotation mark set after a space, or Markdown's closing
            # emphasis after a terminator, and the spaces after them; or before
            # bidirectional controls after a sentence's spaces, or a dialogue dash)
            closed = regex.search(
                r"[^\S\r\n\x85\u2028\u2029][»”’›][.!?…)\]»”’›]*[^\S\r\n\x85\u2028\u2029]*"
                r"(?:\r\n|[\r\n\x85\u2028\u2029])?\Z",
                text[:end],
            )
            emphasis = regex.search(
                r"(?:[.!?…。！？‼⁇⁈⁉」』”’）〉》»][_*~]{1,3}|[.!?…。！？‼⁇⁈⁉」』”’）〉》»)\]}]`+)"
                r"[)\]»”’›\"']*(?:(?<=`[^\S\r\n]*)[.!?…]+[)\]»”’›\"']*)?"
                r"[^\S\r\n\x85\u2028\u2029]*(?:\r\n|[\r\n\x85\u2028\u2029])?\Z",
                text[:end],
            )
            opens = regex.match(
                r"[\p{Ps}\p{Pi}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2014\u2013\u2015]",
                text[end : end + 1],
            )
            assert end in plain or opens or closed or emphasis


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Japanese: a quotation, then a quotative particle, goes on
        ("「本当ですか？」と美咲は聞き返した。", ["「本当ですか？」と美咲は聞き返した。"]),
        ("「行く。」って言ったよ。", ["「行く。」って言ったよ。"]),
        ("「はい。」そう言って笑った。", ["「はい。」", "そう言って笑った。"]),
        ("「はい。」とても嬉しそうだった。", ["「はい。」", "とても嬉しそうだった。"]),
        # French: a closing guillemet after a space ends the sentence it closes
        (
            "« Tu viens ? » Il hocha la tête. « Oui ! » Elle rit.",
            ["« Tu viens ? » ", "Il hocha la tête. ", "« Oui ! » ", "Elle rit."],
        ),
        ("« Bonjour ! » dit-il.", ["« Bonjour ! » dit-il."]),
        # (any space after it: a thin space, as French typesetting has it, started the next)
        ("« Tu viens ? »\u2009Il part.", ["« Tu viens ? »\u2009", "Il part."]),
        ("« Tu viens ?\u2009»\u2009Il part.", ["« Tu viens ?\u2009»\u2009", "Il part."]),
        # with the terminators after it; a clause after it goes on (the review found ". "
        # and ", dit-il." starting sentences)
        ("« Tu viens ?\u2009». Il part.", ["« Tu viens ?\u2009». ", "Il part."]),
        ("a? ”.", ["a? ”."]),
        ("« Oui ? », dit-il. Puis.", ["« Oui ? », dit-il. ", "Puis."]),
        # German: » opens, so it starts the next sentence
        (
            "Er sagte: »Ja.« »Nein.« Dann ging er.",
            ["Er sagte: »Ja.« ", "»Nein.« ", "Dann ging er."],
        ),
        ("He said “Yes.” Then he left.", ["He said “Yes.” ", "Then he left."]),
        # Markdown: closing emphasis after the terminator ends the sentence it closes
        ("See _Hackluyt._ And more.", ["See _Hackluyt._ ", "And more."]),
        ("It is **very important.** Next.", ["It is **very important.** ", "Next."]),
        ("Why?~~ No.", ["Why?~~ ", "No."]),
        ("(_Enter Ahab: all._) Next.", ["(_Enter Ahab: all._) ", "Next."]),  # closers too
        ("See _it._\u2003And so.", ["See _it._\u2003", "And so."]),  # any space after
        ("._\x0c", ["._\x0c"]),
        ("._.", [".", "_."]),  # (no sentence starts with the full stop after it)
        ("Done. _Next_ one.", ["Done. ", "_Next_ one."]),  # (emphasis that opens)
        # Markdown: the backticks that close inline code after a terminator or a bracket go
        # with the sentence they close ("`. " was a sentence of its own: a chunk opened
        # with it, rust-lang-book ch08-02)
        ("turns `&s2` into `&s2[..]`. We go.", ["turns `&s2` into `&s2[..]`. ", "We go."]),
        ("Call `f(x.)` Then go.", ["Call `f(x.)` ", "Then go."]),
        ("It ends [..]`. we go. Next.", ["It ends [..]`. we go. ", "Next."]),
        ("Done. `Code` starts here.", ["Done. ", "`Code` starts here."]),  # (code that opens)
    ],
)
def test_quotations_in_japanese_and_french(text: str, expected: list[str]) -> None:
    assert [text[a:b] for a, b in sentence_spans(text)] == expected
    # plain UAX #29 cuts the quotation from what goes with it
    assert len(sentence_spans(text, **PURE)) >= len(expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("שלום לכולם. \u200fמה שלומך?", ["שלום לכולם. ", "\u200fמה שלומך?"]),
        ("Hello there. \u2067שלום\u2069 said he.", ["Hello there. ", "\u2067שלום\u2069 said he."]),
    ],
)
def test_a_bidirectional_control_after_the_spaces_starts_the_next_sentence(
    text: str, expected: list[str]
) -> None:
    """UAX #29 (SB5) keeps a right-to-left mark or an isolate's start with the spaces
    before it: the sentence before kept it, and an isolate was split from its end."""
    assert [text[a:b] for a, b in sentence_spans(text)] == expected
    assert len(sentence_spans(text, openers=False)[0]) == 2  # plain UAX #29: with the first
    assert sentence_spans(text, openers=False)[0][1] == len(expected[0]) + 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "—¿Vas a ir? —preguntó su madre.\n—Claro que sí. ¿Por qué no?",
            ["—¿Vas a ir? —preguntó su madre.\n", "—Claro que sí. ", "¿Por qué no?"],
        ),
        ("Il attendit.\n— En retard ? Moi ?", ["Il attendit.\n", "— En retard ? ", "Moi ?"]),
        ("Он ушёл.\n— Привет, — сказал он.", ["Он ушёл.\n", "— Привет, — сказал он."]),
        # a dash that goes on a hard-wrapped sentence starts none (a line of dialogue opens
        # with a capital, ¿, ¡ or a quote)
        ("the whale was white\n—and then it left.", ["the whale was white\n—and then it left."]),
        (
            "We met at 5 p.m.\n—the usual time—and talked.",
            ["We met at 5 p.m.\n—the usual time—and talked."],
        ),
        ("She had one goal:\n—to win.", ["She had one goal:\n—to win."]),
    ],
)
def test_a_line_of_dialogue_starts_a_sentence_where_lines_are_wrapped(
    text: str, expected: list[str]
) -> None:
    assert [text[a:b] for a, b in sentence_spans(text, wrapped=True)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "—¿Vienes? —preguntó ella. —No —dijo él.",
            ["—¿Vienes? —preguntó ella. ", "—No —dijo él."],
        ),
        ("— Tu viens ? — demanda-t-il. — Non.", ["— Tu viens ? — demanda-t-il. ", "— Non."]),
        ("Пошли. — Куда? — спросил он.", ["Пошли. ", "— Куда? — спросил он."]),
        ("Il rit. – « Non ! »", ["Il rit. ", "– « Non ! »"]),
        # a dash that goes on the sentence: lower case after it, or no space before it
        ("It was 5 p.m. — the usual time.", ["It was 5 p.m. — the usual time."]),
        ("Done.—The end.", ["Done.—The end."]),
        # an attribution after a quotation, a signature: no sentence of their own
        (
            "“Be yourself; everyone else is already taken.” — Oscar Wilde",
            ["“Be yourself; everyone else is already taken.” — Oscar Wilde"],
        ),
        ("This is the end. – The Editors", ["This is the end. – The Editors"]),
    ],
)
def test_a_dialogue_dash_after_a_sentence_starts_the_next(text: str, expected: list[str]) -> None:
    # UAX #29 (SB8a) reads the dash as going on the sentence; dialogue opens one there.
    assert [text[a:b] for a, b in sentence_spans(text)] == expected
    assert len(sentence_spans(text, openers=False)) == 1


@given(generated, st.data())
def test_regions_are_segmented_as_texts_of_their_own(text: str, data: st.DataObject) -> None:
    """A region that starts after a line end gives the sentences of its own text."""
    starts = [0] + [m.end() for m in regex.finditer(r"\r\n|[\r\n\x85\u2028\u2029]", text)]
    start = data.draw(st.sampled_from(starts))
    end = data.draw(st.integers(start, len(text)))
    assume(not (0 < end < len(text) and text[end - 1 : end + 1] == "\r\n"))
    local = [(a + start, b + start) for a, b in sentence_spans(text[start:end])]
    assert sentence_spans(text, start, end) == local


@given(generated)
def test_a_sentence_starts_with_no_terminator_except_after_a_line_end(text: str) -> None:
    for start, _ in sentence_spans(text)[1:]:
        if text[start - 1] not in "\r\n\x85\u2028\u2029":
            assert sb_class(text[start]) not in _SATERM


def test_lines_with_characters_beyond_the_bmp() -> None:
    text = "First. Second 😀 here. Third.\nFourth. Fifth.\n𝐀bc. Def. \U00011047 G"
    spans = sentence_spans(text)
    assert pieces(text, spans) == [
        "First. ", "Second 😀 here. ", "Third.\n", "Fourth. ", "Fifth.\n", "𝐀bc. ",
        "Def. \U00011047 ", "G",  # SB8a: a terminator after ". " (Brahmi danda) continues
    ]  # fmt: skip
    assert ends(sentence_spans(text, **PURE)) == reference_breaks(text)


# --- the texts of tests/data and the real corpus ------------------------------------------

SAMPLES = {
    "english": sample("english.txt"),
    "english-crlf-bom": "\ufeff" + sample("english.txt").replace("\n", "\r\n"),
    "english-cr": sample("english.txt").replace("\n", "\r"),
    "chinese": sample("chinese.txt"),
    "markdown": sample("markdown.md"),
    "code": sample("code.py"),
}

CORPUS_SAMPLES = [
    "english_prose/pg1342_pride_and_prejudice.gitenberg.crlf.txt",
    "english_prose/pg1661_adventures_of_sherlock_holmes.txt",
    "chinese/pg23962_xiyouji_journey_to_the_west.txt",
    "mixed/ru-prose/gogol_shinel.txt",
    "mixed/react-docs-parallel/ar/src/content/learn/thinking-in-react.md",
    "mixed/react-docs-parallel/ja/src/content/learn/thinking-in-react.md",
    "mixed/react-docs-parallel/zh-hans/src/content/learn/index.md",
    "mixed/unicode-emoji-14.0/emoji-test.txt",
    "mixed/crlf/semchunk_CHANGELOG.crlf.md",
    "chinese/trpl-zh-cn/src/ch01-01-installation.md",
]


def read_exact(relative: str) -> str:
    return read_corpus(corpus_path(relative))


def check_properties(text: str) -> None:
    clusters = set(cluster_ends(text, 0, len(text)))
    for mode in (MODES[0], PURE):
        spans = sentence_spans(text, **mode)
        assert_tiles(text, spans)
        assert_cluster_safe(text, spans, clusters)
        assert sentence_spans(text, **mode) == spans
    # The plain-Python reference on a window that starts at a line start.
    start = text.find("\n", len(text) // 3) + 1
    window = text[start : start + 3000]
    assert ends(sentence_spans(window, **PURE)) == reference_breaks(window)


def check_engines_agree(text: str) -> None:
    for settings in ((DEFAULT_ABBREVIATIONS, True, True), (frozenset(), False, False)):
        exact = engine_ends(sentences.exact_pattern(*settings), text)
        for astral in (False, True):
            pattern = sentences.fast_pattern(*settings, astral=astral)
            assert engine_ends(pattern, text) == exact, astral


def check_chinese_sentences(text: str, at_least_inner: int) -> None:
    spans = sentence_spans(text)
    after_line_end = set("\r\n")
    for start, end in spans[1:]:
        if text[start - 1] not in after_line_end:
            assert text[start] not in "。！？", text[start - 10 : end]
    inner = sum(1 for start, _ in spans if start and text[start - 1] in "。！？」』")
    assert inner >= at_least_inner  # sentences inside lines, not just line ends


def check_english_abbreviations(text: str, at_least_plain: int) -> None:
    default = pieces(text, sentence_spans(text))
    plain = pieces(text, sentence_spans(text, **PURE))
    assert not any(p.rstrip().endswith(("Mr.", "Mrs.")) and "\n" not in p for p in default)
    assert sum(p.endswith(("Mr. ", "Mrs. ")) for p in plain) >= at_least_plain


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_properties(name: str) -> None:
    check_properties(SAMPLES[name])


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_engines_agree(name: str) -> None:
    check_engines_agree(SAMPLES[name])


def test_every_data_file_tiles() -> None:
    files = sorted(p for p in DATA.rglob("*") if p.is_file())
    assert len(files) >= 8, f"tests/data at {DATA} looks incomplete"
    for path in files:
        text = path.read_bytes().decode("utf-8")
        assert_tiles(text, sentence_spans(text))


def test_sample_chinese_sentences_end_at_full_width_terminators() -> None:
    check_chinese_sentences(SAMPLES["chinese"], at_least_inner=40)


@pytest.mark.parametrize("name", ["english", "english-crlf-bom"])
def test_sample_english_abbreviations(name: str) -> None:
    check_english_abbreviations(SAMPLES[name], at_least_plain=3)  # "Mr." twice, "Mrs." once


@pytest.mark.corpus
@pytest.mark.parametrize("relative", corpus_cases(CORPUS_SAMPLES))
def test_corpus_properties(relative: str) -> None:
    check_properties(read_exact(relative))


@pytest.mark.corpus
@pytest.mark.parametrize("relative", corpus_cases(CORPUS_SAMPLES[:4]))
def test_corpus_engines_agree(relative: str) -> None:
    check_engines_agree(read_exact(relative))


@pytest.mark.corpus
def test_corpus_every_file_tiles() -> None:
    files = corpus_files()
    assert len(files) > 300, f"corpus at {CORPUS} looks incomplete"
    for path in files:
        text = read_corpus(path)
        assert_tiles(text, sentence_spans(text))


@pytest.mark.corpus
def test_corpus_chinese_sentences_end_at_full_width_terminators() -> None:
    text = read_exact("chinese/pg23962_xiyouji_journey_to_the_west.txt")
    check_chinese_sentences(text, at_least_inner=10_001)


@pytest.mark.corpus
def test_corpus_english_abbreviations() -> None:
    text = read_exact("english_prose/pg1342_pride_and_prejudice.gitenberg.crlf.txt")
    check_english_abbreviations(text, at_least_plain=101)


# --- words ---------------------------------------------------------------------------------

WORD_EXAMPLES = [
    ("  Hello world  foo ", ["  Hello ", "world  ", "foo "]),
    ("a \u0301b c", ["a \u0301b ", "c"]),  # the space and its mark are one cluster
    ("你好世界。再见", ["你好世界。再见"]),
    ("10\xa0kg of rice", ["10\xa0kg ", "of ", "rice"]),
    ("line\r\nnext\rlast", ["line\r\n", "next\r", "last"]),
    ("\u3000\u3000第一回 靈根", ["\u3000\u3000第一回 ", "靈根"]),
    ("👨‍👩‍👧 family", ["👨‍👩‍👧 ", "family"]),
    ("   ", ["   "]),
    ("x", ["x"]),
    ("", []),
]


@pytest.mark.parametrize(("text", "expected"), WORD_EXAMPLES)
def test_word_examples(text: str, expected: list[str]) -> None:
    assert pieces(text, word_spans(text)) == expected
    assert word_spans(text, 0, len(text)) == word_spans(text)


def test_word_regions() -> None:
    text = "ab cd ef"
    assert word_spans(text, 3, 8) == [(3, 6), (6, 8)]
    assert word_spans(text, 2, 8) == [(2, 6), (6, 8)]  # leading space joins the first word
    assert word_spans(text, 4, 4) == []


_WHITE_SPACE = regex.compile(r"\p{White_Space}")
_NO_BREAK = "\xa0\u2007\u202f"
_CONTROL = regex.compile(r"[\p{GCB=Control}\p{GCB=CR}\p{GCB=LF}]")


def reference_word_ends(text: str, start: int, end: int) -> list[int]:
    """Cut after a space that is a control character or else neither a no-break space nor
    a cluster's base, before a character that is not such a space; the region's end
    closes the last piece."""

    def breakable(i: int) -> bool:
        if not _WHITE_SPACE.match(text[i]):
            return False
        if _CONTROL.match(text[i]):
            return True
        joined = i + 1 < end and _JOINS_BACK.match(text[i + 1])
        return text[i] not in _NO_BREAK and not joined

    cuts = [i for i in range(start + 1, end) if breakable(i - 1) and not breakable(i)]
    first_word = next((i for i in range(start, end) if not breakable(i)), end)
    return [c for c in cuts if c > first_word] + ([end] if end > start else [])


spaces_and_marks = st.lists(
    st.sampled_from([" ", "  ", "\t", "\n", "\r", "\xa0", "\u3000", "\u0301", "\u200d", "a"]),
    max_size=40,
).map("".join)


@given(spaces_and_marks)
def test_words_match_the_reference_on_runs_of_spaces_and_marks(text: str) -> None:
    assert ends(word_spans(text)) == reference_word_ends(text, 0, len(text))


@given(st.one_of(generated, anything), st.data())
def test_words_match_the_reference_and_keep_clusters(text: str, data: st.DataObject) -> None:
    starts = cluster_ends(text, 0, len(text))
    start = data.draw(st.sampled_from([0, *starts[:-1]])) if text else 0
    spans = word_spans(text, start, len(text))
    assert_tiles(text, spans, start)
    assert_cluster_safe(text, spans)
    assert ends(spans) == reference_word_ends(text, start, len(text))


every_space = st.lists(
    st.sampled_from(
        [chr(c) for c in range(0x3100) if _WHITE_SPACE.match(chr(c))]
        + ["\u0301", "\u200d", "\u0903", "\U0001f3fd", "\U0001d165", "a", "字", "\x1c"]
    ),
    max_size=30,
).map("".join)


@given(st.one_of(every_space, generated, anything), st.data())
def test_the_plain_word_pattern_is_chosen_only_where_it_agrees(
    text: str, data: st.DataObject
) -> None:
    # any region, its end too: a mark just after it must not change the words inside
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    rules = words._needs_word_rules().search(text, start, end)
    full = [m.span() for m in words._WORD.finditer(text, start, end)]
    plain = [m.span() for m in words._PLAIN_WORD.finditer(text, start, end)]
    assert rules is not None or plain == full
    assert ends(word_spans(text)) == reference_word_ends(text, 0, len(text))


def test_no_ascii_text_needs_the_word_rules() -> None:
    ascii_pairs = "".join(chr(a) + chr(b) for a in range(128) for b in range(128))
    assert words._needs_word_rules().search(ascii_pairs) is None


@pytest.mark.parametrize(
    "text", ["ok \u0301ab", "a \U0001f3fdb", "a\u2003b", "a\u3000b", "a\u2028b", "x\x85y"]
)
def test_spaces_the_plain_word_pattern_gets_wrong_take_the_word_rules(text: str) -> None:
    assert words._needs_word_rules().search(text)
    assert [m.span() for m in words._PLAIN_WORD.finditer(text)] != [
        m.span() for m in words._WORD.finditer(text)
    ]


def check_words(text: str) -> None:
    spans = word_spans(text)
    assert_tiles(text, spans)
    assert_cluster_safe(text, spans)


@pytest.mark.parametrize("name", SAMPLES)
def test_words_on_the_samples(name: str) -> None:
    check_words(SAMPLES[name])


@pytest.mark.corpus
@pytest.mark.parametrize("relative", corpus_cases(CORPUS_SAMPLES[:6]))
def test_words_on_the_corpus(relative: str) -> None:
    check_words(read_exact(relative))
