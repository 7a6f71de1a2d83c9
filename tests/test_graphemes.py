"""Grapheme clusters: Unicode 17's GraphemeBreakTest.txt in full, and why ``\\X`` is not used
everywhere.

The ``regex`` module's ``\\X`` fails 4 cases of the file, all of rule GB9c: it joins a
linker (a virama) to the next consonant even when no consonant precedes the linker.
``graphemes.CLUSTER`` passes all 766; ``cluster_ends`` uses it whenever a linker is
present and ``\\X`` otherwise.
"""

from __future__ import annotations

import pytest
import regex
from conftest import corpus_path, sample
from hypothesis import given
from hypothesis import strategies as st
from support import break_test_cases, corpus_cases

from spansplit.boundaries import graphemes
from spansplit.boundaries.graphemes import CLUSTER, cluster_ends, first_cluster_end

LINKER = regex.compile(r"\p{InCB=Linker}")


def test_every_case_of_the_conformance_file() -> None:
    cases = break_test_cases("GraphemeBreakTest.txt")
    assert len(cases) == 766
    failures = []
    for text, breaks, line in cases:
        if [0, *cluster_ends(text, 0, len(text))] != breaks:
            failures.append(line)
        if [0, *(m.end() for m in CLUSTER.finditer(text))] != breaks:
            failures.append(line)
        if first_cluster_end(text, 0, len(text)) != breaks[1]:
            failures.append(line)
    assert failures == []


def test_regex_X_fails_only_where_gb9c_can_apply() -> None:
    """Every case ``\\X`` gets wrong holds a linker; those are the cases CLUSTER handles."""
    wrong = []
    for text, breaks, _line in break_test_cases("GraphemeBreakTest.txt"):
        if [0, *(m.end() for m in regex.finditer(r"\X", text))] != breaks:
            wrong.append(text)
    assert all(LINKER.search(text) for text in wrong)
    assert len(wrong) <= 4  # 4 with regex 2026.11; fewer if a later release fixes GB9c


def test_the_gb9c_cases() -> None:
    """A virama after a consonant joins the next consonant; a lone virama does not."""
    ka, ta, virama = "\u0915", "\u0924", "\u094d"
    assert cluster_ends(ka + virama + ta, 0, 3) == [3]  # क्त: one conjunct
    assert cluster_ends(virama + ka, 0, 2) == [1, 2]
    assert cluster_ends("a" + virama + ta, 0, 3) == [2, 3]
    assert cluster_ends("?" + virama + ta, 0, 3) == [2, 3]


def test_ascii_fast_path_and_crlf() -> None:
    assert cluster_ends("ab\r\nc", 0, 5) == [1, 2, 4, 5]
    assert cluster_ends("abc", 1, 3) == [2, 3]
    assert cluster_ends("e\u0301\U0001f468\u200d\U0001f469 \U0001f1fa\U0001f1f8", 0, 9) == [
        2,
        5,
        6,
        8,
    ]


PIECES = [
    "a", "A", " ", "\r", "\n", "\r\n", "\t", "\u0301", "\u200d", "\ufe0f", "\U0001f468",
    "\U0001f469", "\U0001f3fb", "\U0001f1fa", "\U0001f1f8", "\u0915", "\u094d", "\u0924",
    "\u093f", "\u0600", "\u1100", "\u1161", "\u11a8", "\uac00", "\u0e33", "字", "。",
]  # fmt: skip


@given(st.one_of(st.lists(st.sampled_from(PIECES), max_size=25).map("".join), st.text()))
def test_clusters_tile_and_agree_with_the_exact_pattern(text: str) -> None:
    found = cluster_ends(text, 0, len(text))
    exact = [m.end() for m in CLUSTER.finditer(text)]
    assert found == exact
    assert found == sorted(set(found))
    assert (found[-1] if found else 0) == len(text)
    if not LINKER.search(text):
        assert found == [m.end() for m in regex.finditer(r"\X", text)]


SAMPLES = ("english.txt", "chinese.txt", "markdown.md", "code.py")


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("crlf", [False, True])
def test_samples_agree_with_the_exact_pattern(name: str, crlf: bool) -> None:
    # The sample, and every piece above but the linker (so that \\X is used: the fast path).
    pieces = [piece for piece in PIECES if not LINKER.search(piece)]
    text = sample(name).replace("\n", "\r\n" if crlf else "\n")
    text = "".join(pieces) + text + "".join(reversed(pieces))
    assert graphemes._pattern(text, 0, len(text)) is not CLUSTER
    assert cluster_ends(text, 0, len(text)) == [m.end() for m in CLUSTER.finditer(text)]


@pytest.mark.corpus
@pytest.mark.parametrize(
    "relative",
    corpus_cases(
        [
            "english_prose/pg84_frankenstein.gitenberg.crlf.txt",
            "chinese/pg23962_xiyouji_journey_to_the_west.txt",
            "mixed/unicode-emoji-14.0/emoji-test.txt",
            "mixed/ru-prose/chekhov_dama_s_sobachkoy.txt",
            "mixed/react-docs-parallel/ar/src/content/learn/index.md",
            "mixed/react-docs-parallel/ko/src/content/learn/index.md",
        ]
    ),
)
def test_corpus_agrees_with_the_exact_pattern(relative: str) -> None:
    text = corpus_path(relative).read_bytes().decode("utf-8")[:200_000]
    assert cluster_ends(text, 0, len(text)) == [m.end() for m in CLUSTER.finditer(text)]


def test_the_fast_pattern_is_chosen_only_without_linkers() -> None:
    assert graphemes._pattern("abc \u0915", 0, 5) is not CLUSTER
    assert graphemes._pattern("\u0915\u094d\u0924", 0, 3) is CLUSTER


@given(st.one_of(st.lists(st.sampled_from(PIECES), max_size=90).map("".join), st.text()), st.data())
def test_cuts_inside_clusters_are_the_positions_no_cluster_ends_at(
    text: str, data: st.DataObject
) -> None:
    """Every way of asking (a few positions, many, the characters around them given)
    agrees with the exact pattern, in any order."""
    bounds = {0, *(m.end() for m in CLUSTER.finditer(text))}
    everywhere = list(range(len(text) + 1))
    inside = [p for p in everywhere if p not in bounds]
    assert graphemes.cuts_inside_clusters(text, everywhere) == inside
    some = data.draw(st.lists(st.sampled_from(everywhere), max_size=70))
    assert graphemes.cuts_inside_clusters(text, some) == sorted(set(some) - bounds)
    around = (
        "".join(text[p - 1] if p else "\n" for p in some),
        "".join(text[p] if p < len(text) else "\n" for p in some),
    )
    assert graphemes.cuts_inside_clusters(text, some, around) == sorted(set(some) - bounds)
    for position in range(len(text)):
        start, end = graphemes.cluster_around(text, position)
        assert start in bounds and end in bounds and start <= position < end
        assert not any(start < b < end for b in bounds)
