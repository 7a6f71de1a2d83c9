"""The promise on hostile input (issue 19): the families of the adversarial run, each as a
regression test of its own rather than only the one reproduction the run found.

* No separator at any level, no trimming and no overlap start cuts a grapheme cluster or a
  CRLF pair, whatever the splitter, separators (literal, regular expression, presets),
  ``keep_separator`` and ``strip_whitespace``; one cluster over the budget is a
  ``ChunkTooLargeError``.
* Closing punctuation never starts a chunk (。！？ included), at any budget that holds each
  word or ideograph with the punctuation after it.
* Structure nested deeper than Python's recursion limit is split.
"""

from __future__ import annotations

import base64
import hashlib
import re
import sys
from collections.abc import Callable
from typing import Any

import pytest
import regex
from support import check_chunks, peak_memory

import spansplit
from spansplit import ChunkTooLargeError, RecursiveSplitter
from spansplit.boundaries.blocks import block_layout, fenced_blocks
from spansplit.boundaries.graphemes import CLUSTER
from spansplit.boundaries.markdown import MarkdownLayout
from spansplit.boundaries.paragraphs import paragraph_spans
from spansplit.boundaries.words import word_spans
from spansplit.chunk import trim_span
from spansplit.compat import chunk_text


def cluster_bounds(text: str) -> set[int]:
    """Offsets where a cut keeps every grapheme cluster (and CRLF pair) whole."""
    return {0, *(match.end() for match in CLUSTER.finditer(text))}


def largest_cluster(text: str, measure: Callable[[str], int] = len) -> int:
    return max((measure(match.group()) for match in CLUSTER.finditer(text)), default=0)


# Each text puts a cluster that a separator could cut next to one: a CRLF pair (LF and CR
# separators), a space that a combining mark or an emoji modifier joins (space
# separators), a vowel sign after "!" (the cjk preset), a space after a Prepend character,
# full-width punctuation followed by a mark, a ZWJ sequence, flags.
HOSTILE = [
    "ab\r\ncd",
    "ab\r\n\r\ncd ef\r\ngh\r\n",
    "ok \u0301ab cd \u0301",
    "a \U0001f3fdb c \U0001f3fd",
    "x!\u093ay z!\u093a w? \u093a",
    "\u0600 x y\u0600 ",
    "他来了。\u0301她走了，\u0301好的！\u20dd是",
    "e\u0301 e\u0301\u0323 \U0001f469\u200d\U0001f469\u200d\U0001f467 \U0001f1ef\U0001f1f5"
    " \u1100\u1161",
    " \u0301lead\r\n\r\n\u3000\u0301 para\u00a0\u0301 two\r",
    " \u0600",  # a Prepend character last, after a space: no whitespace run ends the text
    "ab\n\u0600",
    "\u0301a b",  # a mark first: no whitespace run starts the text
    "l\n\no\u0600 \x85t",  # a chunk ending at a sentence end before the space it holds
]

SEPARATORS: list[tuple[list[str], bool]] = [
    (["\n\n", "\n", " ", ""], False),
    (["\r", "\n"], False),
    (["\n", " "], False),
    ([" ", ""], False),
    (["!", "?", "。", "，"], False),
    ([r"\n", r"\s"], True),
    ([r"(?= )", r"(?<=\n)"], True),
    ([r"\r?\n", r"[!?]"], True),
]


def splitters(size: int) -> list[tuple[Any, str]]:
    """Every splitter, with every separator set, keep_separator and strip_whitespace, and
    the pattern of what it may drop (its separators, where ``keep_separator=False``)."""
    found: list[tuple[Any, str]] = []
    for strip in (True, False):
        for separators, is_regex in SEPARATORS:
            patterns = [s if is_regex else re.escape(s) for s in separators if s]
            for keep in (False, True, "start", "end"):
                dropped = "|".join(f"(?:{p})" for p in patterns) if keep is False else ""
                found.append(
                    (
                        RecursiveSplitter(
                            size,
                            separators=separators,
                            separators_are_regex=is_regex,
                            keep_separator=keep,
                            strip_whitespace=strip,
                        ),
                        dropped,
                    )
                )
        for preset in sorted(spansplit.PRESETS):
            found.append((RecursiveSplitter.from_preset(preset, size, strip_whitespace=strip), ""))
        found += [
            (spansplit.SentenceSplitter(size, strip_whitespace=strip), ""),
            (spansplit.ParagraphSplitter(size, strip_whitespace=strip), ""),
            (
                spansplit.CodeSplitter(
                    "python", size, strip_whitespace=strip, fallback="separators"
                ),
                "",
            ),
        ]
    return found


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("text", HOSTILE)
def test_no_splitter_cuts_a_grapheme_cluster_or_a_crlf_pair(text: str, size: int) -> None:
    bounds = cluster_bounds(text)
    for splitter, dropped in splitters(size):
        try:
            chunks = splitter.split(text)
        except ChunkTooLargeError as error:
            assert largest_cluster(text) > size, (splitter, error)
            assert error.offset in bounds
            continue
        check_chunks(text, chunks, size, strip=splitter.strip_whitespace, dropped=dropped)
        for chunk in chunks:
            assert chunk.start in bounds and chunk.end in bounds, (splitter, chunk)


@pytest.mark.parametrize("size", [3, 5, 8])
@pytest.mark.parametrize("text", HOSTILE)
def test_overlap_never_starts_inside_a_cluster(text: str, size: int) -> None:
    bounds = cluster_bounds(text * 3)
    for overlap in range(1, size):
        for splitter in (
            RecursiveSplitter(size, overlap),
            RecursiveSplitter(size, overlap, separators=["\n", " "], keep_separator="start"),
            RecursiveSplitter.from_preset("cjk", size, chunk_overlap=overlap),
            spansplit.SentenceSplitter(size, overlap),
            spansplit.ParagraphSplitter(size, overlap),
        ):
            try:
                chunks = splitter.split(text * 3)
            except ChunkTooLargeError:
                assert largest_cluster(text) > size
                continue
            check_chunks(text * 3, chunks, size, overlap=overlap)
            assert all(c.start in bounds and c.end in bounds for c in chunks), splitter


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("a  \u0301'a'\n\nb c d e f g h i j k l m n", "cl100k_base"),
        ("b e\n\n \u0308brb 文a\ne.", "o200k_base"),
        (" \u0301x y \u0301z w, \u0308v. u \u0301t s" * 4, "cl100k_base"),
    ],
)
def test_an_overlap_from_a_space_a_mark_joins_is_measured_as_kept(text: str, encoding: str) -> None:
    """Trimming keeps a space that a combining mark joins (one cluster): an overlap that
    starts there was measured from the mark, a token short, and repeated more than
    ``chunk_overlap`` (5 tokens for 4; text extracted from PDFs has such detached marks)."""
    count = spansplit.resolve_length(encoding).count
    for size, overlap in ((8, 4), (8, 3), (12, 5), (6, 2)):
        for splitter in (
            RecursiveSplitter(size, overlap, separators=["\n\n", " "], length=encoding),
            RecursiveSplitter.from_preset("python", size, chunk_overlap=overlap, length=encoding),
            RecursiveSplitter.from_preset("markdown", size, chunk_overlap=overlap, length=encoding),
            spansplit.ParagraphSplitter(size, overlap, length=encoding),
            spansplit.SentenceSplitter(size, overlap, length=encoding),
        ):
            try:
                chunks = splitter.split(text)
            except ChunkTooLargeError:
                continue
            check_chunks(text, chunks, size, count, overlap=overlap)


def test_the_reproductions() -> None:
    def texts(text: str, size: int, **options: Any) -> list[str]:
        return [c.text for c in spansplit.split_recursive(text, size, **options)]

    assert texts("ab\r\ncd", 3, strip_whitespace=False) == ["ab", "cd"]  # was "ab\r"
    # Was "\u0301ab": the space separator cut the cluster " \u0301"; now that cluster
    # is one piece, and the budget of 3 cuts between clusters.
    assert texts("ok \u0301ab", 3) == ["ok", " \u0301", "ab"]
    assert texts("ok \u0301ab", 4) == ["ok \u0301", "ab"]
    assert texts("a \U0001f3fdb", 2) == ["a", " \U0001f3fd", "b"]  # was "\U0001f3fdb"
    cjk = RecursiveSplitter.from_preset("cjk", 2)
    assert [c.text for c in cjk.split("ab!\u093acd")] == ["ab", "!\u093a", "cd"]


def test_a_crlf_pair_over_the_budget_is_too_large() -> None:
    """The cluster is two code points: a budget of one cannot hold it, whatever the
    separators (the LF separator used to leave the CR alone in a chunk)."""
    for separators in (["\n"], ["\r"], ["\n\n", "\n", " ", ""], [""]):
        for keep in (False, True, "start", "end"):
            splitter = RecursiveSplitter(
                1, separators=separators, keep_separator=keep, strip_whitespace=False
            )
            with pytest.raises(ChunkTooLargeError) as raised:
                splitter.split("\r\n")
            assert (raised.value.offset, raised.value.size, raised.value.budget) == (0, 2, 1)


@pytest.mark.parametrize(
    ("text", "size", "length", "expected"),
    [
        ("ab\u3000cd", 2, "utf8", ["ab", "cd"]),  # an ideographic space: 3 bytes
        ("ab\r\ncd", 1, "chars", ["a", "b", "c", "d"]),  # CRLF: one cluster of 2
        ("ab \u3000 cd", 2, "utf8", ["ab", "cd"]),
    ],
)
def test_whitespace_over_the_budget_is_left_out_where_chunks_are_trimmed(
    text: str, size: int, length: str, expected: list[str]
) -> None:
    """Trimming leaves whitespace out of every chunk, so whitespace counts against no
    budget: a cluster of it over the budget raised ChunkTooLargeError where the text was
    cut between characters (without trimming it still does: it would be in a chunk)."""
    for separators in (["\n\n", "\n", " ", ""], [""]):
        splitter = RecursiveSplitter(size, separators=separators, length=length)
        assert [c.text for c in splitter.split(text)] == expected
    with pytest.raises(ChunkTooLargeError):
        RecursiveSplitter(size, separators=[""], length=length, strip_whitespace=False).split(
            text.replace(" ", "")
        )


def test_a_line_separator_ends_a_crlf_line_whole() -> None:
    """The LF separator in CRLF text takes the CR of the pair with it, and the CR
    separator the LF: lines are still split at their ends, dropping (or keeping) the
    whole line ending."""
    text = "one\r\ntwo\r\nthree"
    for separator in ("\n", "\r"):
        dropped = RecursiveSplitter(7, separators=[separator], strip_whitespace=False)
        assert [c.text for c in dropped.split(text)] == ["one", "two", "three"]
        kept = RecursiveSplitter(
            7, separators=[separator], keep_separator="end", strip_whitespace=False
        )
        assert [c.text for c in kept.split(text)] == ["one\r\n", "two\r\n", "three"]
        before = RecursiveSplitter(
            7, separators=[separator], keep_separator="start", strip_whitespace=False
        )
        assert [c.text for c in before.split(text)] == ["one", "\r\ntwo", "\r\nthree"]


def test_trimming_keeps_a_space_that_a_mark_joins() -> None:
    assert trim_span(" \u0301x ", 0, 4) == (0, 3)
    assert trim_span("  \u0301x", 0, 4) == (1, 4)
    assert trim_span("\t\u0301x", 0, 3) == (1, 3)  # a tab is a control: no mark joins it
    assert trim_span("x\u0600  ", 0, 4) == (0, 3)  # a Prepend character takes the next space
    assert trim_span("x" + " " * 1000, 0, 1001) == (0, 1)
    assert trim_span(" " * 1000, 0, 1000) == (1000, 1000)


@pytest.mark.parametrize("depth", [1500])
def test_deep_nesting_needs_no_recursion(depth: int) -> None:
    """A list nested 1,500 deep is split level by level (a RecursionError at about 500)."""
    pytest.importorskip("pyromark")
    text = "".join("  " * i + f"- item {i} of the list\n" for i in range(depth))
    for splitter in (
        spansplit.MarkdownSplitter(30),
        RecursiveSplitter.from_preset("markdown", 30),
        spansplit.ParagraphSplitter(30),
    ):
        check_chunks(text, splitter.split(text), 30)


CLOSING_TEXTS = [
    "字" * 10 + "。下一句。",  # the issue's reproduction (seed 001's sentence chunker)
    "他说：「好。」然后走了！真的？是的，对。" * 3,
    "第一段没有标点的很长的一句话" * 3 + "。\n\n（注释）第二段！",
    "Well… he said (quietly). Then: “no!” And 『书名』、另一本。",
    # no break opportunity before the closing marks after a space: cut by clusters, where a
    # cut at the space put 」 first once trimmed (found by a review)
    "ab 」”x",
    "「ab 」”cd ef gh",
    "I 」”x and so on 」”y",
]


def opens_with_closing(text: str) -> bool:
    """Whether ``text`` starts with punctuation UAX #14 forbids a line to start with."""
    closing = r"[\p{lb=CL}\p{lb=CP}\p{lb=EX}\p{lb=IS}\p{lb=NS}\p{lb=IN}]"
    return regex.match(rf"\s*{closing}", text) is not None


@pytest.mark.parametrize("text", CLOSING_TEXTS)
@pytest.mark.parametrize("length", [None, "cl100k_base"])
def test_closing_punctuation_never_starts_a_chunk(text: str, length: str | None) -> None:
    """At every budget that holds each word or ideograph with the punctuation after it,
    with and without overlap (seed 001 started a chunk with 。)."""
    for size in range(4, 24):
        for overlap in (0, size // 3):
            for splitter in (
                spansplit.SentenceSplitter(size, overlap, length=length),
                RecursiveSplitter(size, overlap, length=length),
                RecursiveSplitter.from_preset("cjk", size, chunk_overlap=overlap, length=length),
                spansplit.ParagraphSplitter(size, overlap, length=length),
            ):
                chunks = splitter.split(text)
                starts = [c.text for c in chunks if opens_with_closing(c.text)]
                assert starts == [], (splitter, starts)
    chunks = chunk_text(CLOSING_TEXTS[0], 10)
    assert [c.text for c in chunks] == ["字字字字字字", "字字字字。下一句。"]


def test_a_sentence_end_after_an_opening_bracket_ends_no_chunk() -> None:
    """UAX #29 reads 「 as closing and ends the sentence after "。「 "; a chunk that packing
    ended there for its overlap ended with the bracket (found by a review)."""
    text = "一二三\n\n四五六七八九十一二三。「 OpenAI"
    for splitter in (
        RecursiveSplitter(20, 6),
        spansplit.SentenceSplitter(20, 6),
        spansplit.ParagraphSplitter(20, 6),
        RecursiveSplitter.from_preset("cjk", 20, chunk_overlap=6),
    ):
        chunks = splitter.split(text)
        check_chunks(text, chunks, 20, overlap=6)
        assert not any(c.text.rstrip().endswith("「") for c in chunks), splitter


def test_the_last_chunk_starts_at_the_sentence_its_left_out_neighbour_started() -> None:
    """A chunk left out as its neighbours hold its text (a sentence and the last line after
    it): the last chunk, whose overlap had to start after that chunk's start, a character
    into its sentence, starts at the sentence (found by a review on trpl-zh-cn)."""
    text = (
        "是否可能为负数。换句话说，这个数字是需要带符号像我们在纸上写数字：当符号有意义时，数字前面"
        "会带上加号或减号；但如果可以安全地假定它是正数，通常就不会写加号。有符号数使用[二进制补码"
        "（two’s complement）][twos-complement]表示。\n每"
    )
    chunks = RecursiveSplitter(128, 78).split(text)
    check_chunks(text, chunks, 128, overlap=78)
    assert [c.start for c in chunks] == [0, text.index("有符号数")]


def base64_line(size: int) -> str:
    """One line without spaces (minified code, base64): Python parses it as one deeply
    nested expression."""
    seed, parts = b"spansplit", []
    while sum(map(len, parts)) < size:
        seed = hashlib.sha256(seed).digest()
        parts.append(base64.b64encode(seed * 64).decode())
    return "".join(parts)[:size] + "\n"


def counted(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """A counter of the calls of ``owner.name`` (patched for the test)."""
    calls = [0]
    original = getattr(owner, name)

    def counting(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)

    monkeypatch.setattr(owner, name, counting)
    return calls


def test_code_chunks_of_one_deep_line_take_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The work grows with the text, not with the text times its chunks (a quadratic
    walk down the syntax tree for each chunk's symbol path, 55 s at 4 MB; a look at every
    grapheme boundary of a chunk's window for its cut). Counted, not timed."""
    pytest.importorskip("tree_sitter_python")
    from spansplit.boundaries.code import SyntaxLevel
    from spansplit.packing import pieces

    walked = counted(monkeypatch, SyntaxLevel, "_covers")
    looked = counted(monkeypatch, pieces._TrimmedEdges, "forbid")
    work = []
    for size in (50_000, 200_000):
        walked[0] = looked[0] = 0
        # one expression nested as deep as it is long (a base64 line, which parses the same
        # way with errors, is not read as code at all; see test_code_splitter.py)
        text = "x = " + "+".join(["ab"] * (size // 3)) + "\n"
        splitter = spansplit.CodeSplitter("python", 2000)
        chunks = splitter.split(text)
        check_chunks(text, chunks, 2000, strip=splitter.strip_whitespace)
        work.append(walked[0])
        assert looked[0] < 5 * len(chunks)
    assert work[1] < 6 * work[0]  # 4x the text: about 2.2x the work (it was 16x)


def test_hard_cuts_of_a_whitespace_run_read_it_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """No-break spaces or tabs, which no separator splits, are hard-cut: each cut reads the
    whitespace ahead of it for the punctuation after the run, and a run read once is not
    read again for the next part (it was, once a part: 40 s for a million no-break spaces
    at 50 code points, found by a review). Counted, not timed."""
    from spansplit.packing import pieces

    scanned = [0]
    original = pieces.after_whitespace

    def counting(text: str, start: int, end: int) -> int:
        found = original(text, start, end)
        scanned[0] += found - start
        return found

    monkeypatch.setattr(pieces, "after_whitespace", counting)
    for run in ("\xa0", "\t", "\u3000"):
        text = "a" + run * 20_000 + "」 b"
        for strip in (True, False):
            scanned[0] = 0
            chunks = RecursiveSplitter(50, strip_whitespace=strip).split(text)
            check_chunks(text, chunks, 50, strip=strip)
            assert scanned[0] < 3 * len(text), (run, strip, scanned[0])


BLANK_FLOODS = ["\n" * 300_000, "\r\n" * 150_000, " \t\n" * 100_000, "x" + "\n" * 300_000 + "y"]


@pytest.mark.parametrize("text", BLANK_FLOODS, ids=["lf", "crlf", "spaces", "between"])
def test_blank_floods_take_little_memory(text: str) -> None:
    """Blank lines are no pieces: the paragraph patterns kept state for every blank line
    of a run (0.9 GB for five million), and the sentence level made a piece of each; the
    Markdown layout's line starts took 8 bytes a line, and a list of the lines 8 more,
    then an array of them 4 bytes a line (6 times the text): now none is made."""
    limit = 8 * sys.getsizeof(text)
    spansplit.MarkdownSplitter(100).split("a\n" * 5000)  # imports (numpy's too) made first
    assert peak_memory(lambda: MarkdownLayout(text)) < sys.getsizeof(text) // 2
    assert peak_memory(lambda: paragraph_spans(text)) < limit
    assert peak_memory(lambda: spansplit.split_paragraphs(text, 100)) < limit
    assert peak_memory(lambda: spansplit.MarkdownSplitter(100).split(text)) < limit
    if text.isspace():
        assert peak_memory(lambda: spansplit.SentenceSplitter(100).split(text)) < limit
        assert peak_memory(lambda: RecursiveSplitter(100, length="utf8").split(text)) < limit


def test_a_flood_of_fence_lines_takes_little_memory() -> None:
    """Every two lines of ```` ``` ```` are an empty fenced code block: their spans were a
    list of tuples (15 times the text; the paragraph splitter with overlap reads them), the
    block layout's fence ends a dict, a list and a set (23-26 times: the Markdown preset
    reads them); now arrays of offsets."""
    text = "```\n" * 50_000
    assert len(fenced_blocks(text)) == 25_000
    assert fenced_blocks(text)[-1] == (len(text) - 8, len(text) - 1)
    assert peak_memory(lambda: fenced_blocks(text)) < 2 * sys.getsizeof(text)
    assert peak_memory(lambda: block_layout(text)) < 8 * sys.getsizeof(text)


@pytest.mark.parametrize("marker", ["- ", "* ", "_ "])
def test_a_line_of_nested_list_markers_takes_little_memory(marker: str) -> None:
    """A line of markers could be a thematic break (``- - -``) until its last character:
    the pattern for one repeated a group per marker and kept every repetition to backtrack
    over (paging blocks and the Markdown preset, which reads the same layout, 60 times the
    text); a rule is now read with no group repeated."""
    text = marker * 100_000 + "x\n"
    limit = 8 * sys.getsizeof(text)
    assert [block.kind for block in spansplit.split_blocks(text, 10**6)] == ["text"]
    assert peak_memory(lambda: block_layout(text)) < limit
    assert peak_memory(lambda: spansplit.split_blocks(text, 2_000)) < limit
    rule = marker * 100_000 + "\n"
    assert [block.kind for block in spansplit.split_blocks(rule + "x\n", 10**7)] == ["rule"]


def test_a_long_run_of_spaces_takes_little_memory() -> None:
    """A word's spaces are matched a run at a time: repeating a group once per space made
    the regex module keep state per space (100 MB for a million)."""
    text = "a" + " " * 300_000 + "b\u0301 " + "\t" * 300_000 + "c"
    assert word_spans(text) == [(0, 300_001), (300_001, 600_004), (600_004, 600_005)]
    assert peak_memory(lambda: word_spans(text)) < 2 * sys.getsizeof(text)
    assert peak_memory(lambda: spansplit.SentenceSplitter(100).split(text)) < 8 * sys.getsizeof(
        text
    )


CJK_RUN = "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(4096))


@pytest.mark.parametrize(
    ("text", "splitter"),
    [
        (base64_line(300_000), RecursiveSplitter.from_preset("markdown", 2000, chunk_overlap=200)),
        (base64_line(300_000), RecursiveSplitter(2000, separators=[""], length="utf8")),
        (CJK_RUN * 40, RecursiveSplitter(2000, 200, length="utf8")),
        (CJK_RUN * 40, RecursiveSplitter(2000)),
        ("e\u0301\u0323" * 100_000, RecursiveSplitter.from_preset("markdown", 2000)),
    ],
    ids=["base64-markdown", "base64-clusters", "cjk-utf8", "cjk-chars", "marks-markdown"],
)
def test_a_line_without_boundaries_is_cut_without_a_piece_per_character(
    text: str, splitter: RecursiveSplitter
) -> None:
    """The finest levels (grapheme clusters, line-break opportunities) are cut where the
    budget is reached, not listed: a piece per character was 217x the text in memory."""
    chunks: list[Any] = []
    assert peak_memory(lambda: chunks.extend(splitter.split(text))) < 8 * sys.getsizeof(text)
    check_chunks(text, chunks, splitter.chunk_size, splitter.length)
    bounds = cluster_bounds(text)
    assert all(c.start in bounds and c.end in bounds for c in chunks)


def test_cluster_checks_inside_marks_take_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where every character is a mark or its base, a cut's cluster is found by walking
    back a few characters, not to the start of the text (62 s for 1 MB)."""
    from spansplit.boundaries.graphemes import _ClusterScan

    walked = counted(monkeypatch, _ClusterScan, "_sure_start")
    text = "e\u0301\u0323" * 20_000
    RecursiveSplitter.from_preset("markdown", 200, chunk_overlap=20).split(text)
    assert walked[0] < 10 * len(text)


@pytest.mark.parametrize(
    "splitter_class", [spansplit.ParagraphSplitter, spansplit.MarkdownSplitter]
)
def test_overlap_searches_per_chunk_are_bounded_on_tiny_pieces(
    monkeypatch: pytest.MonkeyPatch, splitter_class: type[Any]
) -> None:
    """On a flood of fence lines (every line a piece, every pair a closed block, no
    sentence to overlap from), a chunk tried every earlier piece end for a sentence start,
    each a search of the overlap room a block gap at a time: 340 searches a chunk, 45 s a
    MB. Now at most :data:`EARLIER_END_TRIES` and a few more. Counted, not timed."""
    from spansplit.boundaries import paragraphs
    from spansplit.packing.merge import EARLIER_END_TRIES, OverlapSearch

    searched = counted(monkeypatch, OverlapSearch, "_ranked")
    read = counted(monkeypatch, paragraphs, "paragraph_spans")
    text = "```\n" * 20_000
    chunks = splitter_class(2000, chunk_overlap=200).split(text)
    check_chunks(text, chunks, 2000)
    assert searched[0] <= (EARLIER_END_TRIES + 2) * len(chunks)  # it was 365 a chunk
    assert read[0] <= 60 * len(chunks)  # paragraphs read for code lines: it was 9,100 a chunk
