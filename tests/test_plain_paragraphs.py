"""Plain paragraphs (seed 002, ``spansplit.compat.PlainParagraphSplitter`` and
``paragraphs_json``, on ``spansplit.boundaries.paragraphs``): the seed's example,
hand-written cases, properties, the texts of tests/data and the corpus.

The reference here finds paragraphs with a plain loop over lines found character by
character; the splitter finds them with regex passes over the whole text. (The budgeted
``ParagraphSplitter`` is tested in test_paragraph_splitter.py.)
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from conftest import CORPUS, corpus_files, read_corpus, sample
from hypothesis import given
from hypothesis import strategies as st
from support import SEED_REQUEST, SEED_RESPONSE, corpus_cases, texts_of

from spansplit import Chunk
from spansplit.boundaries.paragraphs import (
    leading_blanks_end,
    paragraph_spans,
)
from spansplit.compat import PlainParagraphSplitter, paragraphs_json
from spansplit.errors import InputTypeError, InvalidInputError


def split_paragraphs(text: str) -> list[Chunk]:
    """Seed 002's paragraphs as chunks: one a paragraph, no budget."""
    return PlainParagraphSplitter().split(text)


def naive_lines(text: str) -> list[tuple[int, int, int]]:
    """``(start, content_end, end)`` of each CommonMark line, by a loop over characters."""
    lines, start, i = [], 0, 0
    while i < len(text):
        if text[i] in "\r\n":
            ending = 2 if text[i : i + 2] == "\r\n" else 1
            lines.append((start, i, i + ending))
            i += ending
            start = i
        else:
            i += 1
    if start < len(text):
        lines.append((start, len(text), len(text)))
    return lines


def naive_blank_runs(text: str, start: int = 0) -> list[tuple[int, int]]:
    """Maximal runs of blank lines (whole lines, endings included) from the line at ``start``."""
    runs: list[tuple[int, int]] = []
    for line_start, content_end, end in naive_lines(text):
        if line_start < start or text[line_start:content_end].strip(" \t"):
            continue
        if runs and runs[-1][1] == line_start:
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((line_start, end))
    return runs


def naive_paragraphs(text: str) -> tuple[list[dict[str, object]], int]:
    """Seed 002's paragraphs and line total, by a loop over characters then lines."""
    lines = naive_lines(text)
    paragraphs: list[dict[str, object]] = []
    run: list[int] = []
    for number, (line_start, content_end, _) in enumerate([*lines, (0, 0, 0)], start=1):
        content = text[line_start:content_end]
        blank = number > len(lines) or all(c in " \t" for c in content)
        if not blank:
            run.append(number)
            continue
        if run:
            first, last = lines[run[0] - 1], lines[run[-1] - 1]
            paragraphs.append(
                {
                    "index": len(paragraphs),
                    "start": first[0],
                    "end": last[1],
                    "start_line": run[0],
                    "end_line": run[-1],
                    "line_count": len(run),
                    "text": text[first[0] : last[1]],
                }
            )
            run = []
    return paragraphs, len(lines)


def check_against_reference(text: str) -> None:
    expected, total = naive_paragraphs(text)
    assert paragraphs_json(text) == {
        "paragraph_count": len(expected),
        "line_count_total": total,
        "paragraphs": expected,
    }
    chunks = split_paragraphs(text)
    assert [(c.start, c.end) for c in chunks] == [(p["start"], p["end"]) for p in expected]
    for chunk in chunks:
        assert chunk.text == text[chunk.start : chunk.end]
        assert chunk.size == chunk.end - chunk.start
        assert chunk.kind == "paragraph"


# --- the seed's example ----------------------------------------------------------------


def test_seed_example_gives_exactly_the_seed_response() -> None:
    assert paragraphs_json(SEED_REQUEST["text"]) == SEED_RESPONSE["result"]


def test_seed_example_as_serialized_json() -> None:
    # Same field order and values as the seed shows them.
    produced = json.dumps({"result": paragraphs_json(SEED_REQUEST["text"])}, indent=2)
    assert json.loads(produced) == SEED_RESPONSE
    assert list(json.loads(produced)["result"]) == [
        "paragraph_count",
        "line_count_total",
        "paragraphs",
    ]
    assert list(json.loads(produced)["result"]["paragraphs"][0]) == [
        "index",
        "start",
        "end",
        "start_line",
        "end_line",
        "line_count",
        "text",
    ]


def test_split_paragraphs_chunks_for_the_seed_example() -> None:
    chunks = split_paragraphs(SEED_REQUEST["text"])
    assert [(c.index, c.number, c.start_line, c.end_line, c.line_count) for c in chunks] == [
        (0, 1, 1, 2, 2),
        (1, 2, 4, 5, 2),
    ]


# --- hand-written cases --------------------------------------------------------------


def spans(text: str) -> list[tuple[str, int, int]]:
    return [(c.text, c.start_line, c.end_line) for c in split_paragraphs(text)]


def test_empty_text() -> None:
    assert paragraphs_json("") == {"paragraph_count": 0, "line_count_total": 0, "paragraphs": []}


def test_only_blank_lines() -> None:
    assert paragraphs_json("\n \t\n\t\n") == {
        "paragraph_count": 0,
        "line_count_total": 3,
        "paragraphs": [],
    }
    assert paragraphs_json("   ")["line_count_total"] == 1
    assert split_paragraphs("  \n  ") == []


def test_cr_only_line_endings() -> None:
    assert spans("a\rb\r\rc\r") == [("a\rb", 1, 2), ("c", 4, 4)]
    assert paragraphs_json("a\rb\r\rc\r")["line_count_total"] == 4


def test_crlf_line_endings() -> None:
    text = "a\r\nb\r\n\r\nc\r\n"
    assert spans(text) == [("a\r\nb", 1, 2), ("c", 4, 4)]
    assert [(c.start, c.end) for c in split_paragraphs(text)] == [(0, 4), (8, 9)]


def test_mixed_line_endings() -> None:
    text = "a\nb\r\nc\rd\n\r\n\re\r"
    assert spans(text) == [("a\nb\r\nc\rd", 1, 4), ("e", 7, 7)]
    assert paragraphs_json(text)["line_count_total"] == 7


def test_lf_after_crlf_in_a_crlf_text() -> None:
    # CR count equals CRLF count, but a lone LF is still a line ending.
    assert spans("a\r\n\nb\r\n") == [("a", 1, 1), ("b", 3, 3)]


def test_tab_and_space_lines_are_blank() -> None:
    assert spans("a\n\t\nb\n  \t \nc") == [("a", 1, 1), ("b", 3, 3), ("c", 5, 5)]


def test_nbsp_and_ideographic_space_lines_are_not_blank() -> None:
    assert spans("a\n\u00a0\nb") == [("a\n\u00a0\nb", 1, 3)]
    assert spans("a\n\u3000\nb\n\n\u3000") == [("a\n\u3000\nb", 1, 3), ("\u3000", 5, 5)]


def test_no_final_newline_and_trailing_spaces() -> None:
    assert spans("a  \nb  ") == [("a  \nb  ", 1, 2)]
    assert spans("a\n\nlast") == [("a", 1, 1), ("last", 3, 3)]


def test_indentation_and_markdown_are_ordinary_text() -> None:
    text = "  # not a heading\n---\n    indented\n\n* list\n"
    assert spans(text) == [("  # not a heading\n---\n    indented", 1, 3), ("* list", 5, 5)]


def test_leading_and_trailing_blank_lines_are_excluded() -> None:
    assert spans("\n\n  \nbody\n\n\n") == [("body", 4, 4)]
    assert paragraphs_json("\n\n  \nbody\n\n\n")["line_count_total"] == 6


def test_other_unicode_breaks_are_not_line_endings() -> None:
    text = "a\x0cb\n\u2028\n\x85\n\nc\x1cd"
    assert spans(text) == [("a\x0cb\n\u2028\n\x85", 1, 3), ("c\x1cd", 5, 5)]


def test_bom_is_text() -> None:
    assert spans("\ufeffa\n\nb") == [("\ufeffa", 1, 1), ("b", 3, 3)]
    assert spans("\ufeff\n\nb") == [("\ufeff", 1, 1), ("b", 3, 3)]


def test_bad_input() -> None:
    with pytest.raises(InvalidInputError, match="offset 4") as error:
        split_paragraphs("abc\n\udc00")
    assert error.value.offset == 4
    with pytest.raises(InvalidInputError, match="NUL"):
        paragraphs_json("a\x00b")
    with pytest.raises(InputTypeError, match="decode"):
        split_paragraphs(b"aaa\n")  # type: ignore[arg-type]
    with pytest.raises(ValueError):  # InvalidInputError is a ValueError
        split_paragraphs("\ud800")


def test_paragraph_spans_of_a_range_match_the_slice() -> None:
    text = "x\n\nab\ncd\n\n\nef\r\ngh\r\n\r\ntail"
    start = text.index("ab")
    for end in range(start, len(text) + 1):
        expected = [(s + start, e + start) for s, e in paragraph_spans(text[start:end])]
        assert paragraph_spans(text, start, end) == expected


def test_leading_blank_lines_by_hand() -> None:
    # Empty, space/tab-only and CRLF blank lines; a final blank line may have no line
    # ending; a line of U+00A0 is not blank.
    assert leading_blanks_end("a\n\n \t\n") == 0
    assert leading_blanks_end("\n \r\n\tx\n") == 4
    assert leading_blanks_end(" \t") == 2
    assert leading_blanks_end("\u00a0\n") == 0


# --- properties on generated text ----------------------------------------------------

PIECES = st.sampled_from(
    [
        "a",
        "word",
        "漢字",
        "😀",
        "👨\u200d👩\u200d👧",
        "e\u0301",
        " ",
        "  ",
        "\t",
        "\u00a0",
        "\u3000",
        "\n",
        "\r",
        "\r\n",
        "\n\n",
        " \n",
        "\t\r\n",
        "\x0c",
        "\u2028",
        "\x85",
        "\ufeff",
        "# ",
        "---",
    ]
)
TEXTS = texts_of(PIECES, noise=5, count=50)


@given(TEXTS)
def test_paragraphs_match_the_reference(text: str) -> None:
    check_against_reference(text)


@given(TEXTS)
def test_paragraphs_are_ordered_disjoint_and_deterministic(text: str) -> None:
    chunks = split_paragraphs(text)
    assert chunks == split_paragraphs(text)
    for previous, chunk in itertools.pairwise(chunks):
        assert previous.end < chunk.start
        assert previous.end_line < chunk.start_line - 1  # a blank line between
        gap = text[previous.end : chunk.start]
        assert gap.strip(" \t\r\n") == ""


@given(TEXTS, st.data())
def test_paragraph_spans_of_any_line_range(text: str, data: st.DataObject) -> None:
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    start = data.draw(st.sampled_from(starts))
    end = data.draw(st.integers(min_value=start, max_value=len(text)))
    expected = [(s + start, e + start) for s, e in paragraph_spans(text[start:end])]
    assert paragraph_spans(text, start, end) == expected


@given(TEXTS, st.data())
def test_leading_blank_lines_match_the_reference(text: str, data: st.DataObject) -> None:
    start = data.draw(st.sampled_from([line[0] for line in naive_lines(text)] or [0]))
    runs = naive_blank_runs(text, start)
    expected_end = runs[0][1] if runs and runs[0][0] == start else start
    assert leading_blanks_end(text, start) == expected_end


# --- the texts of tests/data (also on a clone without the corpus) ----------------------------

SAMPLES = {
    "english": sample("english.txt"),
    "english-crlf-bom": "\ufeff" + sample("english.txt").replace("\n", "\r\n"),
    "english-cr": sample("english.txt").replace("\n", "\r"),
    "chinese": sample("chinese.txt"),
    "markdown": sample("markdown.md"),
    "code": sample("code.py"),
}


@pytest.mark.parametrize("name", SAMPLES)
def test_samples_match_the_reference(name: str) -> None:
    text = SAMPLES[name]
    assert len(split_paragraphs(text)) > 5
    check_against_reference(text)


# --- the corpus ------------------------------------------------------------------------


@pytest.mark.corpus
@pytest.mark.parametrize(
    "path",
    corpus_cases(corpus_files(), stand_in=CORPUS),
    ids=lambda p: str(p.relative_to(CORPUS)),
)
def test_corpus_paragraphs(path: Path) -> None:
    text = read_corpus(path)
    if len(text) <= 300_000:
        check_against_reference(text)
        return
    chunks = split_paragraphs(text)
    assert chunks
    for previous, chunk in itertools.pairwise(chunks):
        assert text[previous.end : chunk.start].strip(" \t\r\n") == ""
        assert text[previous.end] in "\r\n" and text[chunk.start - 1] in "\r\n"
    for chunk in chunks:
        assert chunk.text == text[chunk.start : chunk.end]
        assert chunk.text.strip(" \t\r\n") != "" and chunk.text[-1] not in "\r\n"
