"""The span model and the text layer: Chunk, convert_offsets, page, check_text, lines.

References here are plain loops (line endings found character by character, offsets
converted by encoding each prefix), independent of the code under test.
"""

from __future__ import annotations

import dataclasses
import pickle
from bisect import bisect_right
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import corpus_path, sample
from hypothesis import given
from hypothesis import strategies as st
from support import memory_beyond_result

from spansplit import (
    BlockSplitter,
    Chunk,
    InputTypeError,
    InvalidInputError,
    InvalidParameterError,
    LineIndex,
    Page,
    ParameterTypeError,
    RecursiveSplitter,
    check_text,
    convert_offsets,
    count_lines,
    page,
    split_paragraphs,
    split_recursive,
    split_sentences,
)
from spansplit import lines as lines_module
from spansplit.compat import PlainParagraphSplitter
from spansplit.lines import LineWalker, has_lone_cr, line_ending_ends, split_lines
from spansplit.splitters.blocks import split_blocks

PIECES = st.sampled_from(
    [
        "a",
        "漢字",
        "😀",
        "👨\u200d👩\u200d👧",
        "e\u0301",
        "🇫🇷",
        " ",
        "\t",
        "\u00a0",
        "\n",
        "\r",
        "\r\n",
        "\r\r\n",
        "\n\r",
        "\x0b",
        "\x0c",
        "\x1c",
        "\x85",
        "\u2028",
        "\u2029",
        "\ufeff",
    ]
)
TEXTS = st.lists(
    st.one_of(PIECES, st.text(st.characters(blacklist_categories=("Cs",)), max_size=4)),
    max_size=60,
).map("".join)


def naive_ending_ends(text: str) -> list[int]:
    """Offsets just past each LF, CRLF or lone CR, found character by character."""
    ends, i = [], 0
    while i < len(text):
        if text[i] == "\r" and text[i + 1 : i + 2] == "\n":
            ends.append(i + 2)
            i += 2
        elif text[i] in "\r\n":
            ends.append(i + 1)
            i += 1
        else:
            i += 1
    return ends


def naive_line(text: str, pos: int) -> int:
    """1 + the number of line endings that end at or before ``pos`` (a plain count)."""
    return 1 + sum(1 for end in naive_ending_ends(text) if end <= pos)


def naive_count_lines(text: str) -> int:
    ends = naive_ending_ends(text)
    return len(ends) + (1 if text and (not ends or ends[-1] < len(text)) else 0)


def make_chunk(**changes: object) -> Chunk:
    fields: dict[str, object] = dict(
        text="bc", start=1, end=3, index=4, start_line=2, end_line=3, size=2
    )
    fields.update(changes)
    return Chunk(**fields)  # type: ignore[arg-type]


# --- Chunk -----------------------------------------------------------------------------


def test_chunk_is_frozen_and_slotted() -> None:
    chunk = make_chunk()
    with pytest.raises(dataclasses.FrozenInstanceError):
        chunk.start = 0  # type: ignore[misc]
    assert not hasattr(chunk, "__dict__")
    assert chunk == make_chunk() and hash(chunk) == hash(make_chunk())
    assert chunk != make_chunk(kind="heading")


def test_chunk_number_line_count_and_defaults() -> None:
    chunk = make_chunk()
    assert chunk.number == 5
    assert chunk.line_count == 2
    assert (chunk.kind, chunk.source, chunk.oversized) == ("text", 0, False)


def test_chunk_to_dict() -> None:
    chunk = make_chunk(kind="code", oversized=True)
    assert chunk.to_dict() == {
        "text": "bc",
        "start": 1,
        "end": 3,
        "index": 4,
        "start_line": 2,
        "end_line": 3,
        "size": 2,
        "kind": "code",
        "source": 0,
        "oversized": True,
        "metadata": {},
    }
    assert list(chunk.to_dict()) == [f.name for f in dataclasses.fields(Chunk)]


def test_chunk_metadata_is_read_only_and_pickles() -> None:
    chunk = Chunk("ab", 0, 2, 0, 1, 1, 2, metadata={"headings": [[1, "Title"]]})
    with pytest.raises(TypeError):
        chunk.metadata["headings"] = []  # type: ignore[index]
    assert pickle.loads(pickle.dumps(chunk)) == chunk
    assert chunk.to_dict()["metadata"] == {"headings": [[1, "Title"]]}
    assert make_chunk().metadata == {} and hash(chunk) == hash(pickle.loads(pickle.dumps(chunk)))


# --- convert_offsets ---------------------------------------------------------------------


def naive_offsets(
    text: str, chunks: list[Chunk], encoding: str, width: int
) -> list[tuple[int, int]]:
    return [
        (
            len(text[: c.start].encode(encoding)) // width,
            len(text[: c.end].encode(encoding)) // width,
        )
        for c in chunks
    ]


def test_convert_offsets_by_hand() -> None:
    text = "a😀中\nb"
    chunks = [*split_blocks(text, 100), make_chunk(text="😀中", start=1, end=3)]
    assert convert_offsets(text, chunks) == [(0, 10), (1, 8)]
    assert convert_offsets(text, chunks, "utf16") == [(0, 6), (1, 4)]


def test_convert_offsets_of_no_chunks() -> None:
    assert convert_offsets("abc", []) == []


@pytest.mark.parametrize("other", ["short", "a longer text HERE", ""])
def test_convert_offsets_rejects_chunks_of_another_text(other: str) -> None:
    """Given chunks of another text, it returned offsets past the end of this one."""
    chunks = split_recursive("a longer text here", 5)
    with pytest.raises(InvalidParameterError, match=r"chunks\[\d+\].*chunks of another text"):
        convert_offsets(other, chunks)


def test_convert_offsets_rejects_an_unknown_unit() -> None:
    with pytest.raises(ValueError, match="utf32"):
        convert_offsets("abc", [], "utf32")  # type: ignore[arg-type]


@given(TEXTS, st.integers(min_value=1, max_value=30), st.data())
def test_convert_offsets_matches_encoding_each_prefix(
    text: str, target: int, data: st.DataObject
) -> None:
    text = text.replace("\x00", "")
    chunks = split_blocks(text, target)
    # Overlapping, repeated and unordered chunks convert as well.
    extra = data.draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text)))))
    spans = [(min(a, b), max(a, b)) for a, b in extra]
    chunks += [make_chunk(text=text[a:b], start=a, end=b) for a, b in spans]
    assert convert_offsets(text, chunks) == naive_offsets(text, chunks, "utf-8", 1)
    assert convert_offsets(text, chunks, "utf16") == naive_offsets(text, chunks, "utf-16-le", 2)


def check_utf16_offsets_of_blocks(text: str) -> None:
    chunks = split_blocks(text, 2000)
    converted = convert_offsets(text, chunks, "utf16")
    data = text.encode("utf-16-le")
    for chunk, (start, end) in zip(chunks, converted):
        assert data[2 * start : 2 * end].decode("utf-16-le") == chunk.text
    assert converted[-1][1] == len(data) // 2


def test_convert_offsets_on_the_samples_with_emoji() -> None:
    # Astral characters (two UTF-16 units each) all through the texts of tests/data.
    emoji = "👨\u200d👩\u200d👧 🇫🇷 😀 𝐀 e\u0301\n"
    names = ("english.txt", "chinese.txt", "markdown.md", "code.py")
    text = emoji.join(sample(name).replace("\n", emoji, 20) for name in names)
    assert len(text.encode("utf-16-le")) // 2 > len(text) + 500
    check_utf16_offsets_of_blocks(text)


@pytest.mark.corpus
def test_convert_offsets_on_a_corpus_book() -> None:
    path: Path = corpus_path("mixed/unicode-emoji-14.0/emoji-test.txt")
    check_utf16_offsets_of_blocks(path.read_bytes().decode("utf-8"))


# --- page ----------------------------------------------------------------------------------


def test_page_as_in_seed_000() -> None:
    items = list(range(5))
    assert page(items, 0, 2) == Page([0, 1], 2)
    assert page(items, 2, 2) == Page([2, 3], 4)
    assert page(items, 4, 2) == Page([4], None)
    assert page(items, 3, 2) == Page([3, 4], None)
    assert page(items, 9, 2) == Page([], None)
    assert page([], 0, 1) == Page([], None)


def test_page_walks_every_item_once() -> None:
    items = list("abcdefghij")
    seen, offset = [], 0
    while offset is not None:
        current = page(items, offset, 3)
        seen += current.items
        offset = current.next_offset
    assert seen == items


@pytest.mark.parametrize(
    ("offset", "limit", "error"),
    [
        (-1, 2, InvalidParameterError),
        (0, 0, InvalidParameterError),
        (0, -3, InvalidParameterError),
        (0.0, 2, ParameterTypeError),
        (0, "2", ParameterTypeError),
        (True, 2, ParameterTypeError),
    ],
)
def test_page_rejects_bad_parameters(offset: object, limit: object, error: type) -> None:
    with pytest.raises(error, match=r"offset|limit"):
        page([1, 2], offset, limit)  # type: ignore[arg-type]


@pytest.mark.parametrize("items", [None, (n for n in range(3)), {1: 2}, "abc"])
def test_page_names_items_that_are_not_a_sequence(items: object) -> None:
    # (a bare TypeError: "'NoneType' object is not subscriptable", "unhashable type")
    with pytest.raises(ParameterTypeError, match="items must be a sequence"):
        page(items, 0, 2)  # type: ignore[arg-type]


def test_numpy_integers_are_integers() -> None:
    numpy = pytest.importorskip("numpy")
    assert page(list(range(5)), numpy.int64(1), numpy.int32(2)) == Page([1, 2], 3)
    assert [b.text for b in split_blocks("ab\ncd\n", numpy.int64(3))] == ["ab\n", "cd\n"]
    with pytest.raises(ParameterTypeError, match="chunk_size"):
        split_blocks("ab", numpy.bool_(True))  # type: ignore[arg-type]


# --- check_text ------------------------------------------------------------------------------


def test_check_text_returns_plain_text() -> None:
    for text in ["", "abc", "漢字😀", "\ufeffa\r\n", "\x01\x7f"]:
        assert check_text(text) is text


@pytest.mark.parametrize("value", [b"abc", bytearray(b"abc"), memoryview(b"abc")])
def test_check_text_says_to_decode_bytes(value: object) -> None:
    with pytest.raises(InputTypeError, match=r"decode it first") as error:
        check_text(value)
    assert isinstance(error.value, TypeError)


@pytest.mark.parametrize("value", [None, 3, ["a"]])
def test_check_text_rejects_other_types(value: object) -> None:
    with pytest.raises(InputTypeError, match="text must be str") as error:
        check_text(value)
    # Several texts where one is expected: the call that takes them is named.
    assert ("split_texts()" in str(error.value)) == isinstance(value, list)


@pytest.mark.parametrize(
    ("text", "offset"), [("\ud800", 0), ("ab\udfff", 2), ("漢字\udc00x", 2), ("a\x00", 1)]
)
def test_check_text_names_the_offset(text: str, offset: int) -> None:
    with pytest.raises(InvalidInputError, match=f"offset {offset}") as error:
        check_text(text, "doc")
    assert error.value.offset == offset
    assert "doc" in str(error.value)
    assert isinstance(error.value, ValueError)


def test_check_text_nul_says_plain_text_only() -> None:
    with pytest.raises(InvalidInputError, match="plain text only"):
        check_text("binary\x00data")


@given(st.text(st.characters(blacklist_characters="\x00")), st.integers(0, 50))
def test_check_text_finds_the_first_lone_surrogate(text: str, where: int) -> None:
    where = min(where, len(text))
    if any("\ud800" <= c <= "\udfff" for c in text):
        return
    bad = text[:where] + "\udabc" + text[where:] + "\udc00"
    with pytest.raises(InvalidInputError) as error:
        check_text(bad)
    assert error.value.offset == where


# --- lines -----------------------------------------------------------------------------------


def test_count_lines_by_hand() -> None:
    assert [count_lines(t) for t in ["", "a", "a\n", "a\nb", "\n", "\n\n", "\r\n", "a\r\rb"]] == [
        0,
        1,
        1,
        2,
        1,
        2,
        1,
        3,
    ]


def test_line_numbers_by_hand() -> None:
    text = "ab\r\ncd\re\n\nf"
    index = LineIndex(text)
    assert [index.line(p) for p in range(len(text) + 1)] == [
        1, 1, 1, 1,  # "ab\r\n": the CRLF belongs to line 1
        2, 2, 2,  # "cd\r"
        3, 3,  # "e\n"
        4,  # "\n"
        5, 5,  # "f", then the end of the text
    ]  # fmt: skip
    assert index.span_lines(0, 4) == (1, 1)
    assert index.span_lines(4, 10) == (2, 4)
    assert index.line_count == 5


def test_line_numbers_in_a_crlf_text() -> None:
    text = "ab\r\n\r\ncd\r\n"
    index = LineIndex(text)
    # The LF of a CRLF (offset 3) still belongs to the line the CRLF ends.
    assert [index.line(p) for p in range(len(text) + 1)] == [1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 4]
    assert index.span_lines(4, 10) == (2, 3)
    assert index.line_count == 3


def test_split_lines_by_hand() -> None:
    assert split_lines("a\r\nb\rc\n\nd\x0ce\u2028f") == [
        "a\r\n",
        "b\r",
        "c\n",
        "\n",
        "d\x0ce\u2028f",
    ]
    assert split_lines("") == []
    assert split_lines("\r\r\n") == ["\r", "\r\n"]


@given(TEXTS)
def test_split_lines_and_line_ends_match_the_reference(text: str) -> None:
    lines = split_lines(text)
    assert "".join(lines) == text
    assert all(lines)
    ends, position = [], 0
    for line in lines:
        position += len(line)
        if line[-1] in "\r\n":
            ends.append(position)
    assert ends == naive_ending_ends(text)
    assert list(line_ending_ends(text)) == naive_ending_ends(text)
    assert count_lines(text) == naive_count_lines(text) == len(lines)


@pytest.mark.parametrize(
    "text",
    [
        "ab\ncd\n\nef\r\ngh",
        "\n" * 40,
        "字\n😀\n" * 9 + "e\u0301\r\n" * 7 + "end",
        "x" * 15 + "\n" + "y" * 16 + "\n" + "z" * 17,  # an LF at each side of a slice's end
        "a\rb\nc",  # a lone CR: the regular expression path
    ],
)
def test_line_ends_by_numpy_slice_by_slice_match_the_reference(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numpy")
    monkeypatch.setattr(lines_module, "_VECTOR_SLICE", 16)  # every text over one slice
    found = line_ending_ends(text)
    assert list(found) == naive_ending_ends(text)
    assert found.typecode == "I"


@given(TEXTS, st.lists(st.integers(min_value=0, max_value=200), max_size=30))
def test_line_index_matches_the_reference_in_any_query_order(text: str, queries: list[int]) -> None:
    index = LineIndex(text)
    ends = naive_ending_ends(text)
    for pos in queries:
        pos = min(pos, len(text))
        assert index.line(pos) == 1 + bisect_right(ends, pos)
    assert index.line_count == naive_count_lines(text)


@given(TEXTS, st.lists(st.tuples(st.integers(0, 200), st.integers(1, 60)), max_size=30))
def test_line_index_spans_lines_match_the_reference_as_they_are_asked_for(
    text: str, spans: list[tuple[int, int]]
) -> None:
    """Spans in text order (overlapping too), each pair given as it is asked for, and the
    index left where the last span ended for the queries after them."""
    ends = naive_ending_ends(text)
    ordered = sorted((min(a, len(text)), min(a + b, len(text))) for a, b in spans)
    index = LineIndex(text)
    found = index.spans_lines(iter(ordered))
    for start, end in ordered:
        first = 1 + bisect_right(ends, start)
        assert next(found) == (first, 1 + bisect_right(ends, end - 1) if end - 1 > start else first)
    assert next(found, None) is None
    assert index.line(len(text)) == 1 + bisect_right(ends, len(text))


def test_chunks_of_a_small_budget_take_working_memory_bounded_by_the_text() -> None:
    """53,000 chunks a MB: their line numbers are taken as each chunk is made, not listed
    beside them all (with the list of spans they are found from, 6 times the text beyond
    the chunks returned; then 3.3), and each span's tuple is let go once its chunk is made
    (1.3)."""
    text = (sample("english.txt") + "\n\n") * 30
    splitter = RecursiveSplitter(24)
    splitter.split(text[:20_000])
    assert memory_beyond_result(lambda: splitter.split(text)) < 2 * len(text)


def test_a_chunk_shares_one_int_where_its_numbers_are_equal() -> None:
    """A chunk on one line holds its line number once, and a chunk that starts where the
    previous one ends holds that offset once (a number past 256 is an object of 28 bytes:
    32 bytes of 350 a chunk at 24 characters)."""
    text = "word " * 40_000 + "\n" * 300 + "word " * 40_000
    one_line = [c for c in RecursiveSplitter(24).split(text) if c.start_line > 256]
    assert one_line and all(c.start_line is c.end_line for c in one_line)
    blocks = BlockSplitter(24).split("line\n" * 2000)
    assert all(b.start is a.end for a, b in pairwise(blocks))


@given(TEXTS.filter(bool), st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_line_index_after_long_backward_jumps(unit: str, fractions: list[float]) -> None:
    text = unit * (10_000 // len(unit) + 1)  # long enough for jumps of over 4096
    index = LineIndex(text)
    ends = naive_ending_ends(text)
    for pos in [len(text), 0, *(int(f * len(text)) for f in fractions)]:
        assert index.line(pos) == 1 + bisect_right(ends, pos)


@given(TEXTS)
def test_line_walker_steps_between_line_boundaries(text: str) -> None:
    walker = LineWalker(text)
    ends = naive_ending_ends(text)
    assert (
        walker.lone_cr
        == has_lone_cr(text)
        == any(c == "\r" and text[i + 1 : i + 2] != "\n" for i, c in enumerate(text))
    )
    boundaries = [0, *ends] if not ends or ends[-1] < len(text) else [0, *ends[:-1]]
    stops = [*ends, len(text)] if not ends or ends[-1] < len(text) else ends
    for start, stop in zip(boundaries, stops):
        if start == stop:  # empty text
            continue
        assert walker.end(start) == stop
        assert walker.start(stop) == start
        assert walker.endings(0, stop) == sum(1 for e in ends if e <= stop)


class _SearchCountingText(str):
    """A text that counts the characters its ``rfind`` calls search."""

    searched = 0

    def rfind(self, sub: str, start: int = 0, end: int | None = None) -> int:  # type: ignore[override]
        stop = len(self) if end is None else end
        _SearchCountingText.searched += max(0, stop - start)
        return str.rfind(self, sub, start, end)


@pytest.mark.parametrize("line", ["a line", "x" * 5_000])
def test_line_walker_reads_back_only_as_far_as_the_line_start(line: str) -> None:
    # Lines ending in a lone CR have no LF: a search for one read back to the start of the
    # text for every line (quadratic time for the paging blocks of such a text).
    step = len(line) + 1
    count = 2_000_000 // step
    text = _SearchCountingText(f"{line}\r" * count + f"{line}\n{line}\r")
    walker = LineWalker(text)
    for end, start in ((len(text), count * step + step), (count * step + step, count * step)):
        _SearchCountingText.searched = 0
        assert walker.start(end) == start
        assert _SearchCountingText.searched < 16 * len(line) + 2_048  # not the whole text
    assert walker.start(step) == 0


def check_line_numbers_of_chunks(text: str) -> None:
    ends = naive_ending_ends(text)
    chunks = (
        PlainParagraphSplitter().split(text)
        + split_blocks(text, 500)
        + split_paragraphs(text, 500, 100)
        + split_sentences(text, 300, 60)
    )
    for chunk in chunks:
        assert chunk.start_line == 1 + bisect_right(ends, chunk.start)
        assert chunk.end_line == 1 + bisect_right(ends, chunk.end - 1)


@pytest.mark.parametrize("ending", ["\r\n", "\r", "\n"])
def test_line_numbers_of_chunks_agree_with_the_reference_on_the_samples(ending: str) -> None:
    for name in ("english.txt", "chinese.txt", "markdown.md", "code.py"):
        check_line_numbers_of_chunks("\ufeff" + sample(name).replace("\n", ending))


@pytest.mark.corpus
def test_line_numbers_of_chunks_agree_with_the_reference_on_a_crlf_book() -> None:
    path = corpus_path("english_prose/pg84_frankenstein.gitenberg.crlf.txt")
    check_line_numbers_of_chunks(path.read_bytes().decode("utf-8"))
