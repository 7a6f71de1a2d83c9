"""The recursive splitter's scanning fast path makes exactly the general path's chunks.

``RecursiveSplitter.spans`` scans the text when sizes are code points, chunks are trimmed
and the separators start with whitespace literals; ``_packed_spans`` is the general path
(every piece measured, then packed). Both must agree on every text, every option.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache, partial

import pytest
from conftest import corpus_path
from hypothesis import event, given, settings
from hypothesis import strategies as st
from support import ATOMS, check_chunks, texts_of, unicode_texts

from spansplit import RecursiveSplitter
from spansplit.boundaries.separators import first_present
from spansplit.packing import OverlapSearch
from spansplit.sizing.base import CODE_POINTS, UTF8_BYTES
from spansplit.splitters.recursive_scan import RecursiveScan, whitespace_prefix

SEPARATOR_SETS = [
    ("\n\n", "\n", " ", ""),  # the defaults
    ("\n\n", "\n", " "),  # no grapheme level: a long word is hard-cut by the general path
    ("\n", " ", ""),
    ("\n\n", " \n", "\t", " ", ""),  # multi-character and rarer whitespace separators
    ("\n\n", "\n", ".", " ", ""),  # a non-whitespace level below the scanned ones
    ("\r\n", "\u3000", ""),
]

# Runs of whitespace in every arrangement: separators inside longer runs, at run edges,
# repeated (``"\n\n\n"`` holds ``"\n\n"`` twice, overlapping), and words long enough to
# need the grapheme level at small budgets.
SCAN_ATOMS = [*ATOMS, "\n \n", " \n\n ", "\n\n\n", "\t\n", "x" * 9, "yy" * 7]
# Prose: words between runs of spaces and newlines, where overlap falls inside runs.
prose_texts = st.lists(
    st.tuples(
        st.sampled_from(["ab", "cde", "f", "ghij", "中文", "e\u0301"]),
        st.sampled_from([" ", "  ", "   ", "\n", " \n", "\n\n", "\t"]),
    ).map("".join),
    max_size=30,
).map("".join)
scan_texts = st.one_of(
    texts_of(st.sampled_from(SCAN_ATOMS), noise=3, count=50),
    st.lists(st.sampled_from(SCAN_ATOMS), max_size=80).map("".join),
    prose_texts,
    unicode_texts,
)


def outcome(split: Callable[[str], object], text: str) -> object:
    """What ``split`` returns for ``text``, or the type of the error it raised."""
    try:
        return split(text)
    except ValueError as error:
        return type(error)


def general(splitter: RecursiveSplitter, text: str) -> object:
    """The spans of the general path, or the type of the error it raised."""
    first = first_present(text, 0, len(text), splitter._patterns)
    return outcome(lambda t: splitter._packed_spans(t, first), text)


def scan(text: str, splitter: RecursiveSplitter) -> list[tuple[int, int, int]] | None:
    """What the scan alone makes of ``text``, started as ``spans`` starts it (``None``: it
    handed the text back, or the text has no whitespace separator to start from)."""
    separators = whitespace_prefix(splitter.separators)
    first = first_present(text, 0, len(text), splitter._patterns)
    if first >= len(separators):
        return None
    search = OverlapSearch(text, CODE_POINTS.measurer(text), splitter._finest_split)
    return RecursiveScan(
        text,
        separators[first:],
        splitter.chunk_size,
        splitter.chunk_overlap,
        search,
        lambda start, end: splitter._packed_piece(text, start, end),
        splitter._finer_levels,
    ).spans()


@settings(max_examples=1000)
@given(
    scan_texts,
    st.integers(1, 60),
    st.data(),
    st.sampled_from([False, True, "start", "end"]),
    st.sampled_from(SEPARATOR_SETS),
)
def test_scanning_makes_the_general_paths_chunks(
    text: str,
    chunk_size: int,
    data: st.DataObject,
    keep: bool | str,
    separators: tuple[str, ...],
) -> None:
    overlap = data.draw(st.integers(0, chunk_size - 1))
    splitter = RecursiveSplitter(
        chunk_size,
        overlap,
        separators,
        keep_separator=keep,  # type: ignore[arg-type]
    )
    if not text.strip():
        assert splitter.spans(text) == []
        return
    scanned = outcome(partial(scan, splitter=splitter), text)
    # The scan's own chunks, not spans(), which would compare the general path with itself
    # wherever the scan hands the text back (pytest --hypothesis-show-statistics counts).
    event("scanned" if scanned is not None else "handed back")
    if scanned is not None:
        assert scanned == general(splitter, text)
    assert outcome(splitter.spans, text) == general(splitter, text)


@pytest.mark.parametrize(
    ("text", "chunk_size", "overlap"),
    [
        # Overlap inside a run of spaces: it starts after the whole run, not inside it.
        ("ab   cde\nghij  ghij ab  cde ab   cde   ab \nghij   cde", 15, 11),
        ("f \nab \nghij\ncde \nghij\nab  ab\nf f   ghij \nab", 6, 4),
    ],
)
def test_overlap_after_a_run_of_separators(text: str, chunk_size: int, overlap: int) -> None:
    splitter = RecursiveSplitter(chunk_size, overlap)
    assert scan(text, splitter) == general(splitter, text)


def test_the_generated_texts_mostly_scan() -> None:
    # The property above is only as strong as the share of examples the scan handles.
    rng = random.Random(4)
    handled = 0
    for _ in range(500):
        text = "".join(rng.choice(SCAN_ATOMS) for _ in range(rng.randint(1, 50)))
        size = rng.randint(1, 40)
        splitter = RecursiveSplitter(size, rng.randint(0, size - 1))
        handled += outcome(partial(scan, splitter=splitter), text) is not None
    assert handled > 250


def test_a_word_over_the_budget_is_cut_by_the_general_path() -> None:
    text = "short words here " + "x" * 30 + " and more"
    # Without overlap, the general path cuts the long word alone and the scan goes on.
    splitter = RecursiveSplitter(10)
    assert scan(text, splitter) == general(splitter, text)
    chunks = splitter.split(text)
    assert [c.text for c in chunks] == [
        "short",
        "words here",
        "x" * 10,
        "x" * 10,
        "x" * 10,
        "and more",
    ]
    check_chunks(text, chunks, 10)
    # With overlap, the chunks around the word overlap into it: the general path splits all.
    overlapping = RecursiveSplitter(10, 4)
    assert scan(text, overlapping) is None
    assert overlapping.spans(text) == general(overlapping, text)
    check_chunks(text, overlapping.split(text), 10, overlap=4)


def test_only_code_points_and_trimmed_chunks_scan() -> None:
    assert RecursiveSplitter(10)._scan_separators == ("\n\n", "\n", " ")
    assert RecursiveSplitter(10, length=UTF8_BYTES)._scan_separators == ()
    assert RecursiveSplitter(10, strip_whitespace=False)._scan_separators == ()
    assert RecursiveSplitter.from_preset("markdown", 10)._scan_separators == ()  # patterns
    assert RecursiveSplitter.from_preset("cjk", 10)._scan_separators == ("\n\n", "\n")


def test_whitespace_prefix_stops_at_the_first_other_separator() -> None:
    assert whitespace_prefix(["\n\n", "\t", "", " "]) == ("\n\n", "\t")
    assert whitespace_prefix(["。", "\n"]) == ()
    assert whitespace_prefix([]) == ()


@cache
def corpus_text(relative: str) -> str:
    return corpus_path(relative).read_bytes().decode("utf-8")


CORPUS_FILES = [
    "english_prose/pg84_frankenstein.gitenberg.crlf.txt",
    "english_prose/pg1661_adventures_of_sherlock_holmes.txt",
    "chinese/pg23962_xiyouji_journey_to_the_west.txt",
    "mixed/ru-prose/gogol_shinel.txt",
    "mixed/unicode-emoji-14.0/emoji-test.txt",
    "commonmark/spec.txt",
]


@pytest.mark.parametrize("relative", CORPUS_FILES)
@pytest.mark.parametrize(
    ("chunk_size", "overlap", "keep"),
    [(200, 40, False), (500, 0, True), (2000, 0, False), (2000, 200, "start"), (4000, 400, "end")],
)
def test_corpus_scanned_chunks_equal_the_general_paths(
    relative: str, chunk_size: int, overlap: int, keep: bool | str
) -> None:
    text = corpus_text(relative)[:200_000]
    splitter = RecursiveSplitter(chunk_size, overlap, keep_separator=keep)  # type: ignore[arg-type]
    scanned = outcome(partial(scan, splitter=splitter), text)
    assert scanned is not None  # real prose has no word over 200 characters
    assert scanned == splitter.spans(text) == general(splitter, text)
