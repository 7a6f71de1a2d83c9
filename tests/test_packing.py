"""The packing engine on its own: its public entry ``pack`` (a ``Structure`` and a
``ChunkConfig`` in, sized spans out, never over budget), the general path's two steps
``fit`` (every piece fits) and ``merge`` (greedy packing, overlap, trimming, real
measurement), and ``hard_cut`` (grapheme-cluster cuts).

Expected spans are worked out by hand from the rules in the docstrings of
``spansplit.packing`` and its modules; the property tests check the same rules on
generated text.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from spansplit import (
    ChunkConfig,
    MarkdownSplitter,
    ParagraphSplitter,
    RecursiveSplitter,
    SentenceSplitter,
    Splitter,
    compat,
    split_paragraphs,
)
from spansplit.boundaries.linebreaks import break_opportunities
from spansplit.boundaries.paragraphs import (
    looks_like_heading,
    looks_like_lead_in,
    looks_like_title,
)
from spansplit.chunk import after_whitespace, before_whitespace, trim_span
from spansplit.errors import ChunkTooLargeError, InconsistentLengthError
from spansplit.packing import (
    Structure,
    _restarted,
    hard_cut,
    pack,
    with_runts_joined,
    without_repeated,
)
from spansplit.packing.merge import Plan, _Packer, merge
from spansplit.packing.pieces import Pieces, _longest_fitting_prefix, _trim_spans, fit
from spansplit.sizing import CODE_POINTS, UTF8_BYTES, UTF16_UNITS, CallableLength
from tests.support import check_chunks

FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467"  # 5 code points, 1 cluster, 18 UTF-8 bytes


def words(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A boundary level for the tests: runs of non-spaces."""
    return [m.span() for m in re.compile(r"\S+").finditer(text, start, end)]


def lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A boundary level for the tests: lines without their line ending."""
    return [m.span() for m in re.compile(r"[^\n]+").finditer(text, start, end)]


def squared(text: str) -> int:
    """A length whose sums underestimate: ``count(a + b) > count(a) + count(b)``."""
    return len(text) ** 2


SQUARED = CallableLength(squared, "squared")


def cluster_bounds(text: str) -> set[int]:
    return {0} | {m.end() for m in regex.finditer(r"\X", text)}


# --- trimming the pieces --------------------------------------------------------------

EDGE_TEXT = st.text(
    st.sampled_from(["a", "b", " ", "\n", "\r", "\t", "\u0301", "\u0600", "\u3000", "字"]),
    max_size=40,
)


@given(EDGE_TEXT, st.data())
def test_pieces_are_trimmed_as_one_by_one(text: str, data: st.DataObject) -> None:
    # The bulk trimming (C-speed scans for the pieces with whitespace at an edge) gives
    # what trim_span gives piece by piece: blank pieces dropped, and a wanted break on a
    # dropped piece moved to the next kept one.
    inner = st.sets(st.integers(1, len(text) - 1)) if len(text) > 1 else st.just(set())
    cuts = sorted(data.draw(inner))
    spans = [(a, b) for a, b in pairwise([0, *cuts, len(text)]) if a < b]
    wanted = data.draw(st.sets(st.integers(0, max(0, len(spans) - 1))))
    trimmed = [trim_span(text, a, b) for a, b in spans]
    origins = [k for k, (a, b) in enumerate(trimmed) if a < b]
    expected = [trimmed[k] for k in origins]
    moved = {sum(1 for k in origins if k < index) for index in wanted} - {len(origins)}
    assert _trim_spans(text, spans, set(wanted)) == (expected, moved if spans else set(wanted))


@pytest.mark.parametrize(
    "text",
    [
        "long piece\u0600 \nnext",  # a prepend mark joins the space after it: kept
        "long piece\u0600\n\nnext",  # a line ending is a cluster of its own: trimmed
        "long piece" + " " * 12 + "next",  # more whitespace than the window
        "long piece \u0301 \nnext",  # a combining mark holds the space before it
    ],
)
def test_a_long_piece_is_trimmed_as_trim_span_trims_it(text: str) -> None:
    # Pieces longer than the window read their trailing whitespace off it.
    cut = text.index("next")
    spans = [(0, cut), (cut, len(text))]
    expected = [trim_span(text, a, b) for a, b in spans]
    assert _trim_spans(text, spans, set())[0] == expected


# --- fit -------------------------------------------------------------------------------


def test_fit_keeps_pieces_that_fit() -> None:
    pieces = fit("aaa bbb", [(0, 3), (4, 7)], 5, CODE_POINTS)
    assert pieces.spans == [(0, 3), (4, 7)]
    assert pieces.sizes == [3, 3]
    assert pieces.breaks == set()


def test_fit_splits_a_piece_over_budget_with_the_next_level() -> None:
    pieces = fit("aaa bbb ccc", [(0, 11)], 5, CODE_POINTS, [words])
    assert pieces.spans == [(0, 3), (4, 7), (8, 11)]
    assert pieces.sizes == [3, 3, 3]


def test_fit_skips_a_level_that_finds_no_boundary() -> None:
    # No line break in the text: the lines level returns the piece itself and is skipped.
    pieces = fit("aaa bbb", [(0, 7)], 4, CODE_POINTS, [lines, words])
    assert pieces.spans == [(0, 3), (4, 7)]


def test_fit_hard_cuts_after_the_last_level() -> None:
    pieces = fit("abcdefgh xy", [(0, 11)], 3, CODE_POINTS, [words])
    assert pieces.spans == [(0, 3), (3, 6), (6, 8), (9, 11)]
    assert pieces.sizes == [3, 3, 2, 2]


def test_fit_moves_breaks_past_refined_pieces() -> None:
    text = "aaa bbb ccc ddd eee"
    spans = [(0, 3), (4, 15), (16, 19)]
    pieces = fit(text, spans, 5, CODE_POINTS, [words], breaks=[2])
    assert pieces.spans == [(0, 3), (4, 7), (8, 11), (12, 15), (16, 19)]
    assert pieces.breaks == {4}
    # A break on the refined piece lands on its first part.
    assert fit(text, spans, 5, CODE_POINTS, [words], breaks=[1]).breaks == {1}


def test_fit_isolate_keeps_the_parts_of_a_split_piece_apart() -> None:
    text = "aaa bbb ccc ddd eee"
    pieces = fit(text, [(0, 3), (4, 15), (16, 19)], 5, CODE_POINTS, [words], isolate=True)
    assert pieces.breaks == {1, 4}
    chunks = merge(text, pieces, 20, CODE_POINTS)
    # Everything fits in 20, but the parts of the split piece stay in their own chunk.
    assert [text[s:e] for s, e, _ in chunks] == ["aaa", "bbb ccc ddd", "eee"]


def test_fit_measures_the_joined_text_for_non_additive_lengths() -> None:
    text = "aaa bbb ccc"
    pieces = fit(text, [(0, 3), (4, 7), (8, 11)], 10, CallableLength(len))
    assert pieces.joined == [3, 4, 4]  # the gap before each piece is included
    assert pieces.sizes[0] == 3


# --- merge ----------------------------------------------------------------------------


def test_merge_packs_greedily_up_to_the_budget() -> None:
    text = "aaa bbb ccc"
    chunks = merge(text, fit(text, words(text, 0, 11), 7, CODE_POINTS), 7, CODE_POINTS)
    assert chunks == [(0, 7, 7), (8, 11, 3)]


def test_merge_budget_is_inclusive() -> None:
    text = "aa bb cc"
    assert merge(text, fit(text, words(text, 0, 8), 5, CODE_POINTS), 5, CODE_POINTS) == [
        (0, 5, 5),
        (6, 8, 2),
    ]


def test_merge_starts_a_chunk_at_each_break() -> None:
    text = "aaa bbb ccc"
    pieces = fit(text, words(text, 0, 11), 20, CODE_POINTS, breaks=[1])
    assert merge(text, pieces, 20, CODE_POINTS) == [(0, 3, 3), (4, 11, 7)]


def test_merge_overlap_is_made_of_whole_trailing_pieces() -> None:
    text = "aa bb cc dd ee"
    pieces = fit(text, words(text, 0, len(text)), 8, CODE_POINTS)
    chunks = merge(text, pieces, 8, CODE_POINTS, overlap=3)
    # "cc" (2) fits the overlap of 3, "bb cc" (5) does not.
    assert chunks == [(0, 8, 8), (6, 14, 8)]


def test_merge_overlap_level_offers_finer_starts() -> None:
    text = "one two. three four. five six."
    sentences = [(0, 8), (9, 20), (21, 30)]
    pieces = fit(text, sentences, 20, CODE_POINTS)
    # No whole sentence fits an overlap of 6: without a finer level there is none ...
    assert merge(text, pieces, 20, CODE_POINTS, overlap=6) == [(0, 20, 20), (21, 30, 9)]
    # ... with words as the finer level, "four." (5) is repeated.
    pieces = fit(text, sentences, 20, CODE_POINTS)
    chunks = merge(text, pieces, 20, CODE_POINTS, overlap=6, overlap_level=words)
    assert chunks == [(0, 20, 20), (15, 30, 15)]


def test_merge_finer_overlap_skips_trailing_whitespace() -> None:
    # The last piece ends with a blank line; a finer start inside it would be trimmed
    # away, so the overlap is the last word (measured with the blank line: 5).
    text = "aaa bbb\n\nccccc"
    pieces = fit(text, [(0, 9), (9, 14)], 14, CODE_POINTS)
    chunks = merge(text, pieces, 10, CODE_POINTS, overlap=5, overlap_level=lines_then_words)
    assert [text[s:e] for s, e, _ in chunks] == ["aaa bbb", "bbb\n\nccccc"]


def lines_then_words(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Lines with their endings if there are several, else words (a two-step level)."""
    parts = [m.span() for m in re.compile(r"[^\n]*\n|[^\n]+").finditer(text, start, end)]
    return parts if len(parts) > 1 else words(text, start, end)


def test_merge_never_repeats_a_whole_chunk() -> None:
    # A break after "a": the overlap may not be the whole previous chunk, which would
    # make that chunk a part of the next one.
    text = "a a"
    pieces = fit(text, [(0, 1), (2, 3)], 3, CODE_POINTS, breaks=[1])
    assert merge(text, pieces, 3, CODE_POINTS, overlap=1) == [(0, 1, 1), (2, 3, 1)]


def test_merge_drops_blank_pieces_instead_of_making_overlap_only_chunks() -> None:
    # The last piece is a space: trimmed, a chunk of it plus overlap would repeat "b".
    text = "ab "
    pieces = fit(text, [(0, 1), (1, 2), (2, 3)], 2, CODE_POINTS)
    assert merge(text, pieces, 2, CODE_POINTS, overlap=1) == [(0, 2, 2)]
    # Without trimming the space is content and gets its own chunk.
    pieces = fit(text, [(0, 1), (1, 2), (2, 3)], 2, CODE_POINTS)
    assert merge(text, pieces, 2, CODE_POINTS, overlap=1, trim=False) == [(0, 2, 2), (1, 3, 2)]


def test_merge_trims_whitespace_and_follows_it_with_the_span() -> None:
    text = "  ab  \n  cd  "
    pieces = fit(text, [(0, 6), (7, 13)], 6, CODE_POINTS)
    assert merge(text, pieces, 6, CODE_POINTS) == [(2, 4, 2), (9, 11, 2)]
    pieces = fit(text, [(0, 6), (7, 13)], 6, CODE_POINTS)
    assert merge(text, pieces, 6, CODE_POINTS, trim=False) == [(0, 6, 6), (7, 13, 6)]


def test_merge_shrinks_chunks_a_non_additive_length_finds_over_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []
    shrink = _Packer._shrink

    def spy(self: _Packer, plan: Plan) -> Plan:
        calls.append(plan)
        return shrink(self, plan)

    monkeypatch.setattr(_Packer, "_shrink", spy)
    text = "abcdef"
    pieces = fit(text, [(i, i + 1) for i in range(6)], 9, SQUARED)
    # Summed, the six pieces measure 6 <= 9; for real "abcdef" measures 36.
    assert merge(text, pieces, 9, SQUARED) == [(0, 3, 9), (3, 6, 9)]
    assert calls, "the shrink path did not run"


def test_merge_measures_overlap_for_real_with_a_non_additive_length() -> None:
    text = "aaaa"
    pieces = fit(text, [(i, i + 1) for i in range(4)], 9, SQUARED)
    # Summed, "aa" would measure 2 <= 2; for real it measures 4, so only "a" repeats.
    assert merge(text, pieces, 9, SQUARED, overlap=2) == [(0, 3, 9), (2, 4, 4)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ww ww wwww www", ["ww ww", "wwww www"]),
        ("www w\nwwww w\nw", ["www w", "wwww w\nw"]),
    ],
)
def test_a_chunk_is_planned_from_its_first_piece_alone_with_a_non_additive_length(
    text: str, expected: list[str]
) -> None:
    # A non-additive length measures each piece with the space before it; a chunk that
    # starts with the piece leaves that space out, so its first piece is measured alone.
    # Before, "wwww" counted as " wwww" (5) and "wwww www" (8) did not fit 8.
    for length in (None, lambda piece: len(piece)):
        assert [c.text for c in RecursiveSplitter(8, 0, length=length).split(text)] == expected


def test_merge_recuts_a_piece_that_trimming_makes_larger() -> None:
    # A (contrived) length that charges double for text not starting with whitespace:
    # " abc" fits 5 alone, but the chunk is the trimmed "abc", which measures 6.
    def odd(text: str) -> int:
        return len(text) if text[:1].isspace() else 2 * len(text)

    length = CallableLength(odd, "odd")
    text = " abc"
    pieces = fit(text, [(0, 4)], 5, length)
    assert merge(text, pieces, 5, length) == [(1, 3, 4), (3, 4, 2)]


def test_merge_of_nothing_is_nothing() -> None:
    assert merge("", Pieces(), 5, CODE_POINTS) == []


# --- pack: the engine's promises through its public entry -------------------------------


def characters(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A boundary level for the tests: every code point alone."""
    return [(i, i + 1) for i in range(start, end)]


def sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A boundary level for the tests: runs up to and including a full stop."""
    return [m.span() for m in re.compile(r"\S[^.]*\.").finditer(text, start, end)]


def test_pack_packs_greedily_up_to_the_budget() -> None:
    words_only = Structure((words,))
    assert pack("aaa bbb ccc", words_only, ChunkConfig(7)) == [(0, 7, 7), (8, 11, 3)]
    # The budget is inclusive.
    assert pack("aa bb cc", words_only, ChunkConfig(5)) == [(0, 5, 5), (6, 8, 2)]


def test_pack_of_nothing_is_nothing() -> None:
    assert pack("", Structure((words,)), ChunkConfig(5)) == []


def test_pack_splits_with_the_coarsest_level_that_finds_a_boundary() -> None:
    text = "aaa bbb\nccc ddd"
    # Both lines fit: cuts fall at the line break only, not between words.
    assert pack(text, Structure((lines, words)), ChunkConfig(8)) == [(0, 7, 7), (8, 15, 7)]
    # No line break: the lines level is skipped and words are packed.
    assert pack("aaa bbb ccc", Structure((lines, words)), ChunkConfig(7)) == [
        (0, 7, 7),
        (8, 11, 3),
    ]
    # After the last level, a piece over budget is hard-cut.
    assert pack("abcdefgh xy", Structure((words,)), ChunkConfig(3)) == [
        (0, 3, 3),
        (3, 6, 3),
        (6, 8, 2),
        (9, 11, 2),
    ]


def test_pack_isolate_keeps_the_parts_of_a_split_piece_apart() -> None:
    text = "aaa\nbbb ccc ddd\neee"
    # The middle line (11) is over budget and split into words.
    shared = pack(text, Structure((lines, words)), ChunkConfig(10))
    assert [text[s:e] for s, e, _ in shared] == ["aaa\nbbb", "ccc ddd", "eee"]
    # Isolated, its words never share a chunk with the lines around it.
    isolated = pack(text, Structure((lines, words), isolate=True), ChunkConfig(10))
    assert [text[s:e] for s, e, _ in isolated] == ["aaa", "bbb ccc", "ddd", "eee"]


def test_pack_overlap_is_made_of_whole_trailing_pieces() -> None:
    text = "aa bb cc dd ee"
    # "cc" (2) fits the overlap of 3, "bb cc" (5) does not.
    assert pack(text, Structure((words,)), ChunkConfig(8, 3)) == [(0, 8, 8), (6, 14, 8)]


def test_pack_overlap_level_offers_finer_starts() -> None:
    text = "one two. three four. five six."
    # No whole sentence fits an overlap of 6, and the sentences level finds no boundary
    # inside one: there is none ...
    plain = Structure((sentences,))
    assert pack(text, plain, ChunkConfig(20, 6)) == [(0, 20, 20), (21, 30, 9)]
    # ... with words as the overlap level, "four." (5) is repeated.
    finer = Structure((sentences,), overlap_level=words)
    assert pack(text, finer, ChunkConfig(20, 6)) == [(0, 20, 20), (15, 30, 15)]
    # By default the overlap level is the first of the levels that splits the last piece.
    assert pack(text, Structure((sentences, words)), ChunkConfig(20, 6)) == [
        (0, 20, 20),
        (15, 30, 15),
    ]


CHAPTERS = (
    "甲乙丙丁戊己庚辛。壬癸子丑寅卯辰巳。午未申酉戌亥天地。且聽下回分解。\n\n第二回\n\n"
    "玄黃宇宙洪荒日月。盈昃辰宿列張寒來。暑往秋收冬藏閏餘。成歲律呂調陽。"
)


@given(
    st.text(st.sampled_from(["a", " ", "\n", "\u3000", "\u0301", "字"]), max_size=40),
    st.integers(0, 200),
    st.data(),
)
def test_whitespace_edges_are_where_str_strip_puts_them(
    text: str, run: int, data: st.DataObject
) -> None:
    text = " " * run + text + "\t" * run  # runs longer than the 64-character steps
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    part = text[start:end]
    assert after_whitespace(text, start, end) == start + len(part) - len(part.lstrip())
    assert before_whitespace(text, start, end) == start + len(part.rstrip())


def test_a_runt_the_next_chunk_repeats_is_left_out() -> None:
    # A chapter title alone between two paragraphs that must be split: its chunk would be
    # the last sentence before it (the overlap) and the title, which the next chunk
    # repeats as its own overlap. With an overlap of 12 that chunk (12) is left out ...
    chunks = ParagraphSplitter(24, 12).split(CHAPTERS)
    assert [chunk.text for chunk in chunks] == [
        "甲乙丙丁戊己庚辛。壬癸子丑寅卯辰巳。",
        "壬癸子丑寅卯辰巳。午未申酉戌亥天地。",
        "午未申酉戌亥天地。且聽下回分解。",
        "第二回\n\n玄黃宇宙洪荒日月。盈昃辰宿列張寒來。",
        "盈昃辰宿列張寒來。暑往秋收冬藏閏餘。",
        "暑往秋收冬藏閏餘。成歲律呂調陽。",
    ]
    # ... and no text with it: the chunks either side of it meet.
    assert chunks[2].end == CHAPTERS.index("\n\n第二回") and chunks[3].start == chunks[2].end + 2
    # Larger than the overlap (8), it goes too: what it adds after the chunk before it
    # (the title) is within the overlap, and the next chunk repeats it (a review found such
    # chunks kept: 8% of the chunks of Journey to the West at 2,000 + 200 characters).
    texts = [chunk.text for chunk in ParagraphSplitter(24, 8).split(CHAPTERS)]
    assert not any(text.endswith("第二回") for text in texts)
    assert "第二回\n\n玄黃宇宙洪荒日月。盈昃辰宿列張寒來。" in texts


@pytest.mark.parametrize(
    ("split", "text", "size", "overlap"),
    [
        (
            lambda t, s, o: compat.chunk_text(t, s, o),
            "k ab k cde, fghij fghij ab ab, ab, cde fghij. fghij,",
            32,
            12,
        ),
        (
            lambda t, s, o: split_paragraphs(t, s, o),
            "One two three, four five six seven, eight nine ten eleven, twelve. Last words,",
            40,
            12,
        ),
    ],
)
def test_a_runt_left_out_inside_a_sentence_leaves_its_neighbours_overlapping(
    split: Any, text: str, size: int, overlap: int
) -> None:
    """Left out, a runt left its neighbours meeting inside a sentence with nothing shared,
    though an overlap fit (seed 001 overlaps every pair; a review found such pairs): the
    next chunk now takes an overlap from the one kept before it, where one fits."""
    chunks = split(text, size, overlap)
    check_chunks(text, chunks, size, overlap=overlap)
    for before, after in pairwise(chunks):
        assert after.start < before.end, (before, after)


def test_a_runt_left_out_before_a_sentence_or_a_paragraph_leaves_its_neighbours_meeting() -> None:
    """Where the next chunk starts a sentence, it takes a whole sentence as overlap or none
    (it reads well as it is); where it starts a paragraph (a chapter's title), none."""
    chunks = ParagraphSplitter(24, 12).split(CHAPTERS)
    assert chunks[3].text.startswith("第二回") and chunks[3].start > chunks[2].end
    text = (
        "Intro.\n\nAlpha beta gamma delta epsilon.\nZeta eta theta.\nNextxxx\n\n"
        "Iota kappa lambda mu nu xi omicron pi."
    )
    chunks = RecursiveSplitter(60, 20).split(text)
    assert [c.text[:7] for c in chunks] == ["Intro.\n", "Nextxxx"]  # (a sentence: 15 > 13)


def test_a_runt_left_out_before_a_crlf_leaves_its_neighbours_overlapping_as_before_an_lf() -> None:
    """A CRLF pair between a runt's neighbours is one line ending, not a blank line: the
    next chunk, inside a paragraph, takes an overlap as in LF text (a CR and an LF read as
    two line endings had left 10 of 5,702 chunks of Moby-Dick without one in CRLF only)."""
    lf = (
        "andirons. The chimney jambs and all the bricks inside were very sooty,\n"
        "so that I thought this fire-place made a very appropriate little shrine\n"
        "or chapel for his Congo idol.\n\n"
        "I now screwed my eyes hard towards the half hidden image, feeling but"
    )
    crlf = lf.replace("\n", "\r\n")
    splitter = RecursiveSplitter(120, 30, length=lambda s: len(s.replace("\r", "")))
    spans = [(c.start, c.end) for c in splitter.split(lf)]
    assert spans[-1][0] < spans[-2][1]  # (the runt "very ... shrine\nor chapel ..." left out)
    moved = [
        (c.start - crlf.count("\r", 0, c.start), c.end - crlf.count("\r", 0, c.end))
        for c in splitter.split(crlf)
    ]
    assert moved == spans


def test_without_repeated_keeps_what_only_the_chunk_holds() -> None:
    text = "aaaa bb cc dddd"
    # (5, 10) "bb cc" lies within its neighbours' text, which meet at 7: left out.
    assert without_repeated(text, [(0, 7, 7), (5, 10, 5), (7, 15, 8)], 5, 10) == [
        (0, 7, 7),
        (7, 15, 8),
    ]
    # Its neighbours leave "b" between them: kept; and so is one whose new text (after the
    # chunk before) is larger than the overlap, or one larger than half the budget (an
    # overlap near the budget leaves every chunk alone).
    assert len(without_repeated(text, [(0, 6, 6), (5, 10, 5), (7, 15, 8)], 5, 10)) == 3
    assert len(without_repeated(text, [(0, 7, 7), (5, 13, 8), (7, 15, 8)], 4, 16)) == 3
    assert len(without_repeated(text, [(0, 7, 7), (5, 10, 5), (7, 15, 8)], 5, 9)) == 3
    # Larger than the overlap but adding only "cc" (2) after the chunk before: left out.
    assert len(without_repeated(text, [(0, 7, 7), (5, 10, 5), (7, 15, 8)], 4, 10)) == 2
    # Never the first or the last chunk, nor anything without overlap.
    assert len(without_repeated(text, [(0, 3, 3), (2, 7, 5)], 9, 20)) == 2
    assert len(without_repeated(text, [(0, 7, 7), (5, 10, 5), (7, 15, 8)], 0, 10)) == 3
    # Where its neighbours would then share punctuation alone ("| 1 |" and "|\na bb"
    # overlap by "|", no overlap a reader needs: found by the fuzz test), it goes and the
    # next chunk starts after that (it stayed, and its neighbours held all its text).
    text = "| 1 |\na bb"
    chunks = [(0, 5, 5), (2, 7, 5), (4, 10, 6)]
    assert without_repeated(text, chunks, 3, 10) == [(0, 5, 5), (6, 10, 4)]
    assert without_repeated(text, chunks, 3, 10, strip_whitespace=False) == [
        (0, 5, 5),
        (5, 10, 5),
    ]
    # ... unless nothing is left of it, or a length counts more than the budget in it.
    assert _restarted("| 1 |\n", 5, (4, 5, 1), CODE_POINTS, 10) == (4, 5, 1)
    assert _restarted("| 1 |\na bb", 6, (4, 10, 6), CallableLength(lambda t: 99), 10) == (4, 10, 6)
    # Started after that, it may lie inside the chunk after it (which started there
    # too): it goes as well, and starts never repeat (found by a review's random test).
    four = [(0, 5, 5), (2, 7, 5), (4, 10, 6), (6, 13, 7)]
    assert without_repeated("| 1 |\na bb cc", four, 3, 12) == [(0, 5, 5), (6, 13, 7)]
    # With a word in what they share, it goes.
    text = "| 1 a\nb bb"
    assert without_repeated(text, chunks, 3, 10) == [(0, 5, 5), (4, 10, 6)]
    # Of two in a row, only the first: the chunks either side of a gap are its neighbours.
    text = "aa bb cc dd ee"
    chunks = [(0, 5, 5), (3, 8, 5), (6, 11, 5), (9, 14, 5)]
    assert without_repeated(text, chunks, 5, 10) == [(0, 5, 5), (6, 11, 5), (9, 14, 5)]


def test_pack_trims_whitespace_and_follows_it_with_the_span() -> None:
    text = "  ab  \n  cd  "
    assert pack(text, Structure((lines,)), ChunkConfig(6)) == [(2, 4, 2), (9, 11, 2)]
    untrimmed = ChunkConfig(6, strip_whitespace=False)
    assert pack(text, Structure((lines,)), untrimmed) == [(0, 6, 6), (7, 13, 6)]


def test_pack_measures_chunks_for_real_with_a_non_additive_length() -> None:
    # Summed, the six characters measure 6 <= 9; for real "abcdef" measures 36.
    config = ChunkConfig(9, length=SQUARED)
    assert pack("abcdef", Structure((characters,)), config) == [(0, 3, 9), (3, 6, 9)]
    # Summed, "aa" would measure 2 <= 2; for real it measures 4, so only "a" repeats.
    overlapping = ChunkConfig(9, 2, length=SQUARED)
    assert pack("aaaa", Structure((characters,)), overlapping) == [(0, 3, 9), (2, 4, 4)]


def test_pack_raises_when_a_length_contradicts_itself() -> None:
    # A text with whitespace at an edge measures its length, any other five times it: the
    # cut "ab " measures 3, but the chunk is the trimmed "ab", which measures 10 > 8.
    def edgy(text: str) -> int:
        return len(text) if text[:1].isspace() or text[-1:].isspace() else 5 * len(text)

    def two_pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
        return [(0, 1), (2, 7)] if (start, end) == (0, 7) else [(start, end)]

    length = CallableLength(edgy, "edgy")
    with pytest.raises(InconsistentLengthError) as caught:
        pack("x ab cd", Structure((two_pieces,)), ChunkConfig(8, length=length))
    error = caught.value
    assert (error.start, error.end, error.size, error.budget) == (2, 4, 10, 8)
    assert "edgy" in str(error) and "chunk_size=8" in str(error)
    assert isinstance(error, ValueError)


def test_a_length_that_is_not_monotonic_never_nests_a_chunk_in_the_one_before() -> None:
    """A length that counts a text starting with some punctuation as 3 more gave a chunk
    inside the one before it ((87, 89) after (84, 92)): the overlap measured smaller than
    a shorter span. Such a chunk holds nothing the other lacks, and goes (a review's
    random test)."""

    def bumpy(text: str) -> int:
        return len(text) + (3 if text[:1] in "-|)\u3002" else 0)

    text = (
        ",.```\u2014\u2014\u3002\u2014)## S\n\n.| a | b |\n|---|---|\n```py\nx=1\n```\n- x\n"
        "a b# H\n```py\nx=1\n```\n***\u2014\u2014## S\n\n|)  a b"
    )
    chunks = SentenceSplitter(9, 8, length=bumpy).split(text)
    assert all(a.start < b.start and a.end < b.end for a, b in pairwise(chunks))
    assert (84, 92) in [(c.start, c.end) for c in chunks]
    covered = {i for c in chunks for i in range(c.start, c.end)}
    assert all(i in covered for i, ch in enumerate(text) if not ch.isspace())
    assert without_repeated("abcdefgh", [(0, 4, 4), (2, 6, 4), (3, 5, 2), (5, 8, 3)], 2, 4) == [
        (0, 4, 4),
        (2, 6, 4),
        (5, 8, 3),
    ]


def test_pack_raises_for_a_cluster_over_budget() -> None:
    text = "a " + FAMILY
    with pytest.raises(ChunkTooLargeError) as caught:
        pack(text, Structure((words,)), ChunkConfig(4))
    assert (caught.value.offset, caught.value.size, caught.value.budget) == (2, 5, 4)


# --- hard_cut -------------------------------------------------------------------------


def test_hard_cut_balances_its_parts() -> None:
    # Three parts are needed: even ones, not 3 + 3 + a runt of 1.
    assert hard_cut("abcdefg", 0, 7, 3, CODE_POINTS) == [(0, 2, 2), (2, 5, 3), (5, 7, 2)]
    assert hard_cut("abcdefghi", 0, 9, 8, CODE_POINTS) == [(0, 5, 5), (5, 9, 4)]


def test_hard_cut_prefers_line_break_opportunities() -> None:
    # Between ideographs, never before closing punctuation, never after opening.
    text = "他說：「好。」我們走"
    cuts = [end for _, end, _ in hard_cut(text, 0, len(text), 4, CODE_POINTS)]
    assert all(text[end] not in "：」。" and text[end - 1] != "「" for end in cuts[:-1])
    # A spaced script is cut between words where one fits.
    assert hard_cut("aa bbbb cc", 0, 10, 7, CODE_POINTS) == [(0, 3, 3), (3, 10, 7)]


def test_a_word_over_budget_is_cut_after_a_hyphen_dash_or_slash_in_it() -> None:
    # Not between letters ("state-of" | "-the-art" started a chunk with a hyphen, which
    # UAX #14 forbids), where such a place lies in the later half of the part that fits.
    def cut(text: str, budget: int) -> list[str]:
        return [text[a:b] for a, b, _ in hard_cut(text, 0, len(text), budget, CODE_POINTS)]

    assert cut("state-of-the-art", 10) == ["state-of-", "the-art"]
    assert cut("landing-stages.’”", 16) == ["landing-", "stages.’”"]
    assert cut("https://example.com/docs/page.html", 24) == [
        "https://example.com/",
        "docs/page.html",
    ]
    assert cut("a-bcdefghijklmnop", 10) == ["a-bcdefgh", "ijklmnop"]  # (too early: a runt)
    assert cut("abcdefghijklmnop", 10) == ["abcdefgh", "ijklmnop"]
    # Never a part more: here the hyphen would leave 31 for two parts of 30 at most.
    word = "abcdefghijklmnopqrstuvwxyz-"
    assert cut(f"{word}{word}abcd", 30) == [f"{word}ab", f"{word[2:]}{word}abcd"[:29]]
    assert cut("r[attributes.meta.literal-expr]", 30) == ["r[attributes.met", "a.literal-expr]"]


def test_hard_cut_covers_only_the_range() -> None:
    assert hard_cut("xxabcdexx", 2, 7, 2, CODE_POINTS) == [(2, 4, 2), (4, 6, 2), (6, 7, 1)]


def test_hard_cut_never_splits_an_emoji_sequence() -> None:
    text = FAMILY + FAMILY + "x"
    assert hard_cut(text, 0, len(text), 6, CODE_POINTS) == [(0, 5, 5), (5, 11, 6)]
    assert hard_cut(text, 0, len(text), 9, CODE_POINTS) == [(0, 5, 5), (5, 11, 6)]


def test_hard_cut_never_splits_crlf() -> None:
    assert hard_cut("a\r\nb", 0, 4, 2, CODE_POINTS) == [(0, 1, 1), (1, 3, 2), (3, 4, 1)]


def test_hard_cut_reads_a_crlf_pair_as_one_line_ending() -> None:
    """The even share, the later half of what fits and a cut's distance to the share count
    a CRLF pair as one, as an LF: with a length that ignores CR, CRLF text is cut where its
    LF version is (a CR counted in code points moved the cuts of a heading's lines, of a
    CJK line and its ending)."""
    without_cr = CallableLength(lambda s: len(s.replace("\r", "")))
    for lf, budget in (
        ('bcaptain whale."\nAhab (no\n-', 16),  # (the later half: not the line end)
        ("在把地文亲所之两里作』们以世子爱两子斯就很大使们出么！\n", 16),  # (the share)
        ("### (note)\n\n\n其现个成们如天感；起想最开会）（句有最", 20),
        # (a share ending in the pair's LF: Journey to the West, a line before "﹔")
        (
            "玉戶，彩鳳舞朱門。復道迴廊，處處玲瓏剔透\n﹔三簷四簇，層層龍鳳翱翔。"
            "上面有個紫巍巍，明幌幌，圓丟丟，亮灼灼，大",
            16,
        ),
        # (the distance to the share: a cut after the line end is as near as one before)
        ("祖師聞言暗喜，道：等說\n，卻是個天地生成的你", 16),
    ):
        crlf = lf.replace("\n", "\r\n")
        cuts = [b for _, b, _ in hard_cut(lf, 0, len(lf), budget, without_cr)]
        moved = [
            b - crlf.count("\r", 0, b)
            for _, b, _ in hard_cut(crlf, 0, len(crlf), budget, without_cr)
        ]
        assert moved == cuts
    # Without opportunities (the empty separator): the even share of the places after a
    # hyphen, a dash or a slash (a review found this case).
    lf = "「」中-a\n/中abc「\n\n-,"
    crlf = lf.replace("\n", "\r\n")
    cuts = [b for _, b, _ in hard_cut(lf, 0, len(lf), 12, without_cr, opportunities=False)]
    assert cuts == [4, 16]
    moved = [
        b - crlf.count("\r", 0, b)
        for _, b, _ in hard_cut(crlf, 0, len(crlf), 12, without_cr, opportunities=False)
    ]
    assert moved == cuts


def test_hard_cut_in_bytes() -> None:
    assert hard_cut("ééé", 0, 3, 3, UTF8_BYTES) == [(0, 1, 2), (1, 2, 2), (2, 3, 2)]
    assert hard_cut("é" * 5, 0, 5, 4, UTF8_BYTES) == [(0, 2, 4), (2, 4, 4), (4, 5, 2)]


def test_hard_cut_without_a_hint_gallops() -> None:
    # CallableLength gives no prefix hint: the window grows from 256 code points.
    text = "ab" * 1000
    assert hard_cut(text, 0, 2000, 700, CallableLength(len)) == [
        (0, 667, 667),
        (667, 1334, 667),
        (1334, 2000, 666),
    ]


def test_single_cluster_over_budget_raises_with_offset_and_sizes() -> None:
    text = "ab" + FAMILY + "cd"
    with pytest.raises(ChunkTooLargeError) as caught:
        hard_cut(text, 0, len(text), 10, UTF8_BYTES)
    error = caught.value
    assert (error.offset, error.size, error.budget) == (2, 18, 10)
    assert "offset 2" in str(error)
    assert "18 UTF-8 bytes" in str(error)
    assert "10 UTF-8 bytes" in str(error)
    assert isinstance(error, ValueError)


def test_fit_raises_for_a_cluster_over_budget() -> None:
    text = "a " + FAMILY
    with pytest.raises(ChunkTooLargeError) as caught:
        fit(text, [(0, len(text))], 4, CODE_POINTS, [words])
    assert (caught.value.offset, caught.value.size, caught.value.budget) == (2, 5, 4)


ATOMS = ["a", "bc", " ", "\r\n", "\r", "\n", "中", FAMILY, "e\u0301", "\U0001f1eb\U0001f1f7"]


@given(
    st.lists(st.sampled_from(ATOMS), min_size=1, max_size=40).map("".join),
    st.integers(5, 30),
    st.sampled_from([CODE_POINTS, UTF16_UNITS, CallableLength(len), CallableLength(squared)]),
)
def test_hard_cut_properties(text: str, budget: int, length: CallableLength) -> None:
    if length.name == "squared":
        budget *= 3
    try:
        pieces = hard_cut(text, 0, len(text), budget, length)
    except ChunkTooLargeError as error:
        cluster = regex.match(r"\X", text[error.offset :])
        assert cluster is not None
        assert error.size == length.count(cluster.group()) > budget
        return
    bounds = cluster_bounds(text)
    assert "".join(text[s:e] for s, e, _ in pieces) == text
    for start, end, size in pieces:
        assert start in bounds and end in bounds
        assert size == length.count(text[start:end]) <= budget
    # Balanced: where no line-break opportunity changes the cuts, no more parts than
    # filling each to the budget makes, and even parts where every cluster weighs 1.
    if break_opportunities(text, 0, len(text)):  # spaces, ideographs, emoji, flags
        return
    greedy = []
    start = 0
    while start < len(text):
        end = max(b for b in bounds if b > start and length.count(text[start:b]) <= budget)
        greedy.append(length.count(text[start:end]))
        start = end
    assert len(pieces) <= len(greedy)
    if text.isalpha() and text.isascii() and length.name == "chars":
        sizes = [size for _, _, size in pieces]
        assert max(sizes) - min(sizes) <= 1  # even parts where every cluster weighs 1


class HintedLength(CallableLength):
    """Code points with a prefix hint off by ``error`` (a tokenizer's hint is close)."""

    def __init__(self, error: int) -> None:
        super().__init__(len, "hinted")
        self.error = error

    def prefix_hint(self, text: str, start: int, end: int, budget: int) -> int | None:
        return max(0, min(end - start, budget + self.error))


@given(
    st.lists(st.sampled_from(ATOMS), min_size=1, max_size=60).map("".join),
    st.integers(1, 30),
    st.integers(-40, 40),
)
def test_longest_fitting_prefix_from_any_hint(text: str, budget: int, error: int) -> None:
    # Probing the hint and galloping away from it finds what measuring every cluster
    # boundary finds, however far off the hint is.
    length = HintedLength(error)
    fitting = [b for b in cluster_bounds(text) if b > 0 and length.count(text[:b]) <= budget]
    expected = (max(fitting), length.count(text[: max(fitting)])) if fitting else (0, 0)
    assert _longest_fitting_prefix(text, 0, len(text), budget, length) == expected


def crlf_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A boundary level for the tests: lines without any line ending (CR, LF or CRLF)."""
    return [m.span() for m in re.compile(r"[^\r\n]+").finditer(text, start, end)]


@given(
    st.lists(st.sampled_from([*ATOMS, "word", "\n\n", "  "]), max_size=60).map("".join),
    st.integers(1, 30),
    st.data(),
    st.sampled_from([CODE_POINTS, UTF8_BYTES, CallableLength(len), CallableLength(squared)]),
    st.booleans(),
    st.booleans(),
)
def test_pack_properties(
    text: str,
    budget: int,
    data: st.DataObject,
    length: CallableLength,
    isolate: bool,
    strip: bool,
) -> None:
    overlap = data.draw(st.integers(0, budget - 1))
    config = ChunkConfig(budget, overlap, length, strip)
    structure = Structure((crlf_lines, words), isolate=isolate)
    try:
        chunks = pack(text, structure, config)
    except ChunkTooLargeError as error:
        cluster = regex.match(r"\X", text[error.offset :])
        assert cluster is not None
        assert error.size == length.count(cluster.group()) > budget
        return
    bounds = cluster_bounds(text)
    for start, end, size in chunks:
        assert 0 <= start < end <= len(text)
        assert size == length.count(text[start:end]) <= budget
        assert start in bounds and end in bounds
        if strip:  # (but a first line of code's indentation, at its line's start)
            at_line_start = start == 0 or text[start - 1] in "\r\n"
            kept = text[start:end].lstrip(" \t") if at_line_start else text[start:end]
            assert kept == kept.strip()
    for (start, end, _), (after_start, after_end, _) in pairwise(chunks):
        # Forward progress, and overlap within chunk_overlap.
        assert start < after_start and end < after_end
        if after_start < end:
            assert length.count(text[after_start:end]) <= overlap
    # The levels drop only whitespace: nothing else lies outside every chunk.
    covered = 0
    for start, end, _ in chunks:
        assert not text[covered:start].strip()
        covered = max(covered, end)
    assert not text[covered:].strip()


@pytest.mark.parametrize(
    "splitter",
    [
        RecursiveSplitter.from_preset("markdown", 30, chunk_overlap=10),
        RecursiveSplitter(30, 10, separators=["\n\n", "\n", " "]),  # scanned
        RecursiveSplitter(30, 10, separators=["\n\n", "\n", " "], length="utf8"),
        RecursiveSplitter(30, 10, separators=["\n\n", "\n", " "], length=lambda t: len(t)),
    ],
)
def test_overlap_never_starts_at_closing_punctuation(splitter: RecursiveSplitter) -> None:
    # Separators of the user's own cut before ")" where they say; overlap, the context
    # repeated, still never starts there (a review found ") and the caller ..." after
    # "a tuple ( first, second ) and").
    text = "The call returns a tuple ( first, second ) and the caller unpacks it before the loop."
    chunks = splitter.split(text)
    assert len(chunks) > 2 and all(a.end > b.start for a, b in pairwise(chunks))
    assert not any(chunk.text.startswith(")") for chunk in chunks)


_SECTIONS = (
    "Strings are stored as UTF-8 bytes. Indexing a byte would often return half a letter, "
    "so Rust rejects it.\n\nThis keeps surprising bugs out of programs.\n\n"
    "## Bytes and scalar values\n\nThere are three ways to look at a string in Rust: as "
    "bytes, as scalar values, and as grapheme clusters."
)


@pytest.mark.parametrize(
    "splitter",
    [
        RecursiveSplitter(120, 30),
        ParagraphSplitter(120, 60),
        SentenceSplitter(120, 60),
        ParagraphSplitter(110, 40, length="cl100k_base"),
    ],
    ids=["recursive", "paragraphs", "sentences", "paragraphs-tokens"],
)
@pytest.mark.parametrize("heading", ["## Bytes and scalar values", "Bytes and scalar values\n---"])
def test_with_overlap_no_chunk_ends_with_a_heading_and_none_starts_inside_one(
    splitter: Splitter, heading: str
) -> None:
    """With overlap, a heading that could not go with its paragraph was a chunk with the
    previous chunk's tail before it (a heading ending a chunk of other text), and the next
    chunk's overlap started inside the heading ('scalar values\\n\\nThere are ...')."""
    text = _SECTIONS.replace("## Bytes and scalar values", heading)
    chunks = splitter.split(text)
    check_chunks(text, chunks, splitter.chunk_size, splitter.length.count)
    assert not [c.text for c in chunks if c.text.endswith(heading) and c.text != heading]
    inside = range(text.index(heading) + 1, text.index(heading) + len(heading))
    assert not [c.text for c in chunks if c.start in inside]


_INSTALL = (
    "### RHEL, Fedora and Rocky\n\n```bash\nsudo dnf config-manager --add-repo "
    "https://packages.acme.example/rpm/acme.repo\nsudo dnf install -y acme-gateway\n"
    "# Enable the service at boot\nsudo systemctl enable --now acme-gateway\n```\n\n"
    "Check that the service is running:\n\n```console\n$ systemctl status acme-gateway\n"
    "● acme-gateway.service - Acme API Gateway\n     Loaded: loaded "
    "(/lib/systemd/system/acme-gateway.service; enabled; vendor preset: enabled)\n"
    "     Active: active (running) since Tue 2024-03-12 09:14:02 UTC; 3s ago\n```\n"
)


@pytest.mark.parametrize(
    "splitter",
    [
        RecursiveSplitter(300),
        RecursiveSplitter(340, 30),
        RecursiveSplitter(90, length="cl100k_base"),
        ParagraphSplitter(300),
        SentenceSplitter(300),
        MarkdownSplitter(300),
    ],
    ids=["recursive", "recursive-overlap", "recursive-tokens", "paragraphs", "sentences", "md"],
)
def test_a_lead_in_goes_with_the_block_it_introduces(splitter: Splitter) -> None:
    """'Check that the service is running:' ended the chunk of the command before it,
    though it fits beside the command it introduces (a user's install guide)."""
    chunks = splitter.split(_INSTALL)
    check_chunks(_INSTALL, chunks, splitter.chunk_size, splitter.length.count)
    assert not [c.text[-40:] for c in chunks if c.text.endswith("running:")]
    assert any("Check that the service is running:\n\n```console" in c.text for c in chunks)


@pytest.mark.parametrize("size", [90, 100, 110])
@pytest.mark.parametrize("splitter", [RecursiveSplitter, ParagraphSplitter, SentenceSplitter])
def test_a_heading_before_a_lead_in_goes_with_it(splitter: type[Splitter], size: int) -> None:
    """Stepping back over the lead-in left the heading before it ending the chunk (found by
    a review)."""
    text = (
        "Some prose that is long enough to take room in the chunk.\n\n## Setup\n\n"
        "Run this:\n\n```\npip install thing and more words\n```\n\nAfter text.\n"
    )
    chunks = splitter(size).split(text)  # type: ignore[call-arg]
    check_chunks(text, chunks, size, len)
    assert any(c.text.startswith("## Setup\n\nRun this:\n\n```") for c in chunks)


def test_the_last_words_of_a_sentence_cut_short_are_no_lead_in() -> None:
    text = "The keeper wrote at length about why the work of the light mattered: it kept ships."
    colon = text.index(":") + 1
    assert looks_like_lead_in(text, 0, colon)
    assert not looks_like_lead_in(text, text.index("mattered"), colon)  # (a sentence's words)
    assert looks_like_lead_in("Done.\n\nRun this:", 7, 16)
    assert not looks_like_lead_in("Run this: now", 0, 13)
    assert not looks_like_lead_in("a\n\n\nb", 1, 3)  # (a blank piece: it had read as one)


def test_a_title_is_a_line_of_its_own_with_no_punctuation_at_its_end() -> None:
    def title(text: str, line: str) -> bool:
        start = text.index(line)
        return looks_like_title(text, start, start + len(line))

    assert title("End.\n\nChapter III. Weather\n\nThe storm came.", "Chapter III. Weather")
    assert title("結束。\n\n第五章\u3000离开\n\n五月。", "第五章\u3000离开")
    assert title("Chapter One\n\nIt began.", "Chapter One")  # (at the text's start)
    assert title("It ended.\r\n\r\nEpilogue\r\n\r\nAt last.", "Epilogue")  # (CRLF)
    assert not title("It ended.\n\nThe End\n", "The End")  # (no text after it to lead)
    # A paragraph's last line: one CRLF before it is no blank line (not a CR, then an LF).
    assert not title("Prose goes on.\r\nlast line of it\r\n\r\nNext.", "last line of it")
    assert title("Prose goes on.\r\rlast line of it\r\rNext.", "last line of it")  # (lone CRs)
    assert not title(
        "End.\n\n" + "A line that runs on " * 6 + "\n\nNext.", "A line that runs on " * 6
    )
    assert not title("End.\n\nThe storm came.\n\nMore.", "The storm came.")  # a sentence
    assert not title("End.\n\nAs follows:\n\nMore.", "As follows:")  # a lead-in's colon
    assert not title("a\nChapter One\n\nb", "Chapter One")  # inside a paragraph
    assert not title("End.\n\nChapter One\nIt began.", "Chapter One")  # a paragraph's line
    assert not title("End.\n\n[union]: ../items.html\n\nMore.", "[union]: ../items.html")
    assert not title("End.\n\nr[expr.operand-order]\n\nMore.", "r[expr.operand-order]")
    assert not title("End.\n\n- an item\n\nMore.", "- an item")  # a list's item
    assert not title('x = 1\n\n"""\n\ny = 2', '"""')  # no letter or digit
    # Blank space before it on its line: a title after a blank line, or from the text's start.
    assert title("End.\n\n   Chapter One\n\nIt began.", "Chapter One")
    assert title(" " * 16 + "Chapter One\n\nIt began.", "Chapter One")
    assert not title("x" + " " * 16 + "Chapter One\n\nIt began.", "Chapter One")
    assert not title("End.\n\nSo Chapter One\n\nIt began.", "Chapter One")  # a line's words


def test_a_heading_line_starts_its_line_indented_at_most_three_spaces() -> None:
    def heading(text: str, line: str) -> bool:
        start = text.index(line)
        return looks_like_heading(text, start, start + len(line))

    assert heading("# Install\n\nRun it.", "# Install")
    assert heading("Text.\n\n   ## Install\n\nRun it.", "## Install")
    assert heading("Text.\r\n\r\n## Install\r\n\r\nRun it.", "## Install")
    assert heading("Text.\n\nInstall\n=======\n\nRun it.", "Install")  # (setext)
    assert heading("Text.\n\nInstall\n=======\n\nRun it.", "=======")
    assert not heading("Text.\n\n    ## Install\n\nRun it.", "## Install")  # (code)
    assert not heading("Text.\n\n\t## Install\n\nRun it.", "## Install")
    assert not heading("Run it with # Install\n\nmore.", "# Install")  # inside a line
    assert not heading("Run it, Install\n=======\n\nmore.", "Install")  # a line's word


def _runts_joined(
    text: str, chunks: list[tuple[int, int]], size: int, **structure: Any
) -> list[str]:
    sized = [(start, end, end - start) for start, end in chunks]
    config = ChunkConfig(size)
    joined = with_runts_joined(text, sized, Structure((), **structure), config)
    return [text[start:end] for start, end, _ in joined]


def test_a_runt_goes_with_the_chunk_before_it_else_the_one_after() -> None:
    text = "a" * 80 + "\n\nb.\n\n" + "c" * 98 + "\n\nd"
    spans = [(0, 80), (82, 84), (86, 184), (186, 187)]
    # "b." fits with the chunk before it; "d", the text's last, fits with neither.
    assert _runts_joined(text, spans, 100) == [text[:84], "c" * 98, "d"]
    text = "a" * 97 + "\n\nb.\n\n" + "c" * 80
    spans = [(0, 97), (99, 101), (103, 183)]
    assert _runts_joined(text, spans, 100) == ["a" * 97, "b.\n\n" + "c" * 80]  # (the one after)


def test_a_runt_is_not_joined_across_a_section_or_before_what_leads() -> None:
    text = "a" * 60 + "\n\nEnd.\n\n# Heading\n\n" + "b" * 40
    spans = [(0, 60), (62, 66), (68, len(text))]
    # "End." stays apart from the next section (it starts with a heading) and, as the chunk
    # before and it make 66 of 65, from the chunk before.
    assert _runts_joined(text, spans, 65) == ["a" * 60, "End.", text[68:]]
    text = "a" * 60 + "\n\nEnd.\n\n" + "b" * 40
    spans = [(0, 60), (62, 66), (68, len(text))]
    assert _runts_joined(text, spans, 65) == ["a" * 60, text[62:]]
    # Where the structure asks for a chunk to start (a Markdown section's), no join.
    assert _runts_joined(text, spans, 65, chunk_starts=[68]) == ["a" * 60, "End.", "b" * 40]
    text = "a" * 60 + "\n\nChapter Two\n\n" + "b" * 110
    spans = [(0, 60), (62, 73), (75, 185)]
    # A title would end the chunk before it: it stays, a runt (its paragraph is too long).
    assert _runts_joined(text, spans, 120) == ["a" * 60, "Chapter Two", "b" * 110]
    # Where it is no title (in code, not prose), it goes with the chunk before it.
    assert _runts_joined(text, spans, 120, punctuation=False) == [text[:73], "b" * 110]
    # With a shorter paragraph, the title goes with it.
    text = text[:75] + "b" * 90
    assert _runts_joined(text, [*spans[:2], (75, 165)], 120) == ["a" * 60, text[62:]]


CODE_IN_FENCE = (
    "Run it:\n\n```python\nclass Tide:\n"
    + "".join(f"    def level_{i}(self, hour):\n        return {i} * hour\n" for i in range(6))
    + "```\n"
)
INDENTED_PROSE = (
    "Dear Mr. Holmes,\n\n"
    "    I write to you in haste, for the carriage leaves at\n"
    "    noon and I must be on it, whatever the weather.\n\n"
    "- a list item that runs on a while\n"
    "    - a nested item that runs on a while too\n\n"
    "今日芳名顯，時來大運通。\n"
    "        有緣居此地，王遣入仙宮。\n"
    "\u3000\u3000\u3000\u3000海風吹不斷，江月照還依。\n"
)


@pytest.mark.parametrize(
    "make",
    [
        lambda: MarkdownSplitter(60),
        lambda: ParagraphSplitter(60),
        lambda: RecursiveSplitter.from_preset("markdown", 60),
        lambda: ParagraphSplitter(60, chunk_overlap=30),
    ],
    ids=["markdown", "paragraphs", "recursive-markdown", "paragraphs-overlap"],
)
def test_a_chunk_that_starts_a_line_of_code_keeps_its_indentation(make: Any) -> None:
    """Trimmed chunks start after whitespace, but a line of code's indentation is part of it
    (a method cut from its class): a chunk that starts on one starts at the line's start,
    where that fits. Indented prose (a letter, a nested list item, a poem) stays trimmed."""
    splitter = make()
    chunks = splitter.split(CODE_IN_FENCE)
    check_chunks(CODE_IN_FENCE, chunks, 60, overlap=splitter.chunk_overlap)
    inside = [c for c in chunks if c.start > CODE_IN_FENCE.index("class")]
    assert all(CODE_IN_FENCE[c.start - 1] == "\n" for c in inside), chunks
    assert sum(c.text.startswith("    ") for c in chunks) >= 3, [c.text for c in chunks]
    chunks = splitter.split(INDENTED_PROSE)
    check_chunks(INDENTED_PROSE, chunks, 60, overlap=splitter.chunk_overlap)
    assert all(not c.text[0].isspace() for c in chunks), [c.text for c in chunks]


def test_code_keeps_the_first_lines_indentation_after_a_byte_order_mark() -> None:
    # The code splitters keep any line's indentation; a byte order mark (trimmed as
    # whitespace) is no text before the first line's, nor is a region's start.
    splitter = RecursiveSplitter.from_language("python", 10)
    for ending in ("\n", "\r\n", "\r"):
        text = f"\ufeff    x = 1{ending}    y = 2{ending}"
        chunks = splitter.split(text)
        check_chunks(text, chunks, 10)
        assert [c.text for c in chunks] == ["    x = 1", "    y = 2"], ending
    assert [c.text for c in splitter.split("a = 0;  y = 2\n")] == ["a = 0;", "y = 2"]
