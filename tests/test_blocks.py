"""Paging blocks (BlockSplitter, seed 000's ``splitTextBlocks``): the seed's examples,
hand-written cases, properties, the texts of tests/data and the corpus.

Expected blocks are worked out by hand from the contract (issue 2, item 5), and the
properties are checked against references written here with plain loops.
"""

from __future__ import annotations

import json
import re
import tracemalloc
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import CORPUS, corpus_files, corpus_path, read_corpus, sample
from hypothesis import given
from hypothesis import strategies as st
from support import corpus_cases, peak_memory, texts_of

from spansplit import Chunk, page
from spansplit.boundaries.blocks import _cuts_of as markdown_cuts
from spansplit.boundaries.blocks import block_layout, fenced_blocks, fences_by_lines
from spansplit.chunk import Span
from spansplit.compat import split_text_blocks
from spansplit.errors import (
    InputTypeError,
    InvalidInputError,
    InvalidParameterError,
    ParameterTypeError,
)
from spansplit.packing import tiling
from spansplit.sizing import CallableLength, resolve_length
from spansplit.sizing.base import LengthFunction
from spansplit.splitters.blocks import BlockSplitter, split_blocks

KINDS = {"heading", "rule", "code", "text"}


# --- references written with plain loops ---------------------------------------------


def naive_lines(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each CommonMark line, its ending included, by a char loop."""
    lines, start, i = [], 0, 0
    while i < len(text):
        if text[i] == "\r" and text[i + 1 : i + 2] == "\n":
            i += 2
        elif text[i] in "\r\n":
            i += 1
        else:
            i += 1
            continue
        lines.append((start, i))
        start = i
    if start < len(text):
        lines.append((start, len(text)))
    return lines


def naive_line_number(ending_ends: list[int], pos: int) -> int:
    """1 + the number of line endings that end at or before ``pos``."""
    return 1 + bisect_right(ending_ends, pos)


def is_blank(line: str) -> bool:
    return line.strip(" \t\r\n") == ""


def blocks_of(text: str) -> list[str]:
    return [block.text for block in split_blocks(text, 10_000)]


def check_invariants(text: str, blocks: list[Chunk], target: int, unit: object = None) -> None:
    """Tiling, exact spans, numbering, line numbers, sizes, the target rule."""
    assert "".join(b.text for b in blocks) == text
    lines = naive_lines(text)
    line_ends = {end for _, end in lines}
    ending_ends = [end for start, end in lines if end > start and text[end - 1] in "\r\n"]
    measure = resolve_length(unit)
    position = 0
    for index, block in enumerate(blocks):
        assert block.index == index and block.number == index + 1
        assert block.start == position and block.end > block.start
        assert block.text == text[block.start : block.end]
        assert block.end in line_ends  # whole lines only
        assert block.start_line == naive_line_number(ending_ends, block.start)
        assert block.end_line == naive_line_number(ending_ends, block.end - 1)
        assert block.size == measure.count(block.text)
        assert block.oversized == (block.size > target)
        if block.oversized:
            assert block.line_count == 1
        assert block.kind in KINDS
        position = block.end
    assert position == len(text)


# --- the seed's examples ---------------------------------------------------------------


def seed_blocks(text: str, target_chars: int) -> list[Chunk]:
    """Blocks for the seed's call: through ``spansplit.compat.split_text_blocks`` (the
    seed's names) and the main API, which must agree."""
    blocks = split_text_blocks(text, target_chars)
    assert blocks == split_blocks(text, target_chars)
    return blocks


def test_seed_example_two_sections() -> None:
    text = "# 概览\n\n" + "说明内容\n" * 4 + "\n## 细节\n\n" + "更多内容\n" * 4
    blocks = seed_blocks(text, 40)
    # "# 概览\n\n" (6), four lines of 5 and the blank line ending them (21), "## 细节\n\n"
    # (7), four lines of 5 (20): headings start blocks, blank lines end them.
    assert [[b.number, b.start, b.end] for b in blocks] == [
        [1, 0, 6],
        [2, 6, 27],
        [3, 27, 34],
        [4, 34, 54],
    ]
    assert "".join(b.text for b in blocks) == text
    assert [b.kind for b in blocks] == ["heading", "text", "heading", "text"]
    assert [(b.start_line, b.end_line) for b in blocks] == [(1, 2), (3, 7), (8, 9), (10, 13)]


def test_seed_example_paging() -> None:
    text = "# 报告\n\n" + "记录内容\n" * 200
    blocks = seed_blocks(text, 4000)
    assert [(b.start, b.end, b.size) for b in blocks] == [(0, 6, 6), (6, 1006, 1000)]
    first = page(blocks, 0, 2)
    assert [b.number for b in first.items] == [1, 2]
    assert first.next_offset is None
    assert page(blocks, 0, 1).next_offset == 1


def test_paging_through_many_blocks_covers_the_text() -> None:
    text = "".join(f"## 第{n}节\n\n" + "记录内容\n" * 30 + "\n" for n in range(12))
    blocks = split_blocks(text, 100)
    covered, offset, numbers = [], 0, []
    while offset is not None:
        current = page(blocks, offset, 5)
        numbers += [b.number for b in current.items]
        covered += [(b.start, b.end) for b in current.items]
        offset = current.next_offset
    assert numbers == list(range(1, len(blocks) + 1))
    assert covered[0][0] == 0 and covered[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in pairwise(covered))


# --- hand-written cases --------------------------------------------------------------


def test_empty_text_has_no_blocks() -> None:
    assert split_blocks("", 10) == []


def test_only_blank_lines_make_one_block() -> None:
    blocks = split_blocks("\n \t\n\n", 10)
    assert [(b.text, b.kind, b.start_line, b.end_line) for b in blocks] == [
        ("\n \t\n\n", "text", 1, 3)
    ]


def test_only_blank_lines_over_the_target() -> None:
    assert blocks_of("\n" * 3) == ["\n\n\n"]
    assert [b.text for b in split_blocks("\n" * 5, 2)] == ["\n\n", "\n\n", "\n"]


def test_blank_lines_belong_to_the_block_they_end() -> None:
    assert blocks_of("one\ntwo\n\n\nthree\n") == ["one\ntwo\n\n\n", "three\n"]


def test_leading_blank_lines_join_the_first_block() -> None:
    assert blocks_of("\n\n# Title\nbody\n") == ["\n\n# Title\nbody\n"]
    assert split_blocks("\n\n# Title\n", 100)[0].kind == "heading"


def test_blank_lines_with_no_room_start_the_next_block() -> None:
    # "abcdefgh\n" + "\n" fills 10; the second blank line starts the next block.
    assert [b.text for b in split_blocks("abcdefgh\n\n\nxy\n", 10)] == [
        "abcdefgh\n\n",
        "\nxy\n",
    ]


def test_trailing_blank_lines_with_no_room_form_the_last_block() -> None:
    assert [b.text for b in split_blocks("abcdefgh\n\n\n\n", 10)] == ["abcdefgh\n\n", "\n\n"]


def test_blank_lines_that_fit_nowhere_form_their_own_block() -> None:
    # "abc\n\n" is full at 5; "\n\n" + "aaa\n" would be 6.
    assert [b.text for b in split_blocks("abc\n\n\n\naaa\n", 5)] == ["abc\n\n", "\n\n", "aaa\n"]


def test_lines_join_until_the_target_would_be_exceeded() -> None:
    text = "aaaa\n" * 5  # 25 code points
    assert [b.text for b in split_blocks(text, 10)] == ["aaaa\naaaa\n"] * 2 + ["aaaa\n"]
    assert [b.text for b in split_blocks(text, 14)] == ["aaaa\naaaa\n"] * 2 + ["aaaa\n"]
    assert [b.text for b in split_blocks(text, 15)] == ["aaaa\naaaa\naaaa\n", "aaaa\naaaa\n"]
    assert [b.text for b in split_blocks(text, 25)] == [text]


def test_a_line_longer_than_the_target_is_its_own_block() -> None:
    text = "short\n" + "x" * 30 + "\nafter\n"
    blocks = split_blocks(text, 10)
    assert [(b.text, b.oversized, b.size) for b in blocks] == [
        ("short\n", False, 6),
        ("x" * 30 + "\n", True, 31),
        ("after\n", False, 6),
    ]


def test_an_over_long_line_keeps_no_blank_lines() -> None:
    blocks = split_blocks("x" * 20 + "\n\n\nnext\n", 10)
    assert [(b.text, b.oversized) for b in blocks] == [
        ("x" * 20 + "\n", True),
        ("\n\nnext\n", False),
    ]


def test_headings_start_blocks() -> None:
    text = "intro\n# One\nbody\n## Two\nmore\n###### Six\n####### seven\n#hashtag\n"
    assert blocks_of(text) == [
        "intro\n",
        "# One\nbody\n",
        "## Two\nmore\n",
        "###### Six\n####### seven\n#hashtag\n",
    ]


def test_atx_heading_indent_and_empty_heading() -> None:
    assert blocks_of("a\n   # three spaces\nb\n    # four spaces\n") == [
        "a\n",
        "   # three spaces\nb\n    # four spaces\n",
    ]
    assert blocks_of("a\n#\nb\n#\tx\n") == ["a\n", "#\nb\n", "#\tx\n"]
    assert blocks_of("a\n\t# tab indent\n") == ["a\n\t# tab indent\n"]


def test_thematic_breaks_start_blocks() -> None:
    text = "a\n***\nb\n- - -\nc\n_ _ _ _\nd\n**\ne\n"
    assert [(b.text, b.kind) for b in split_blocks(text, 1000)] == [
        ("a\n", "text"),
        ("***\nb\n", "rule"),
        ("- - -\nc\n", "rule"),
        ("_ _ _ _\nd\n**\ne\n", "rule"),
    ]
    # Three of one character, spaces and tabs between and after, up to three spaces before.
    for rule in ["   * * *", "-\t-\t- \t", "___", "- - - -\r"]:  # (the last ends in CRLF)
        assert [b.kind for b in split_blocks(f"a\n\n{rule}\nb\n", 1000)] == ["text", "rule"]
    for other in ["    ***", "* - *", "- - - x", "**", "- -", "*** *x"]:
        assert [b.kind for b in split_blocks(f"a\n\n{other}\nb\n", 1000)] != ["text", "rule"]


def test_dashes_under_a_paragraph_line_are_a_setext_underline() -> None:
    text = "Title\n-----\nbody\n\n---\nafter rule\n"
    assert [(b.text, b.kind) for b in split_blocks(text, 1000)] == [
        ("Title\n-----\nbody\n\n", "heading"),
        ("---\nafter rule\n", "rule"),
    ]


def test_setext_heading_text_starts_the_block() -> None:
    text = "para\n\nHeading\n=======\ntext\n"
    assert [(b.text, b.kind) for b in split_blocks(text, 1000)] == [
        ("para\n\n", "text"),
        ("Heading\n=======\ntext\n", "heading"),
    ]
    # A heading whose text spans two lines starts at its first line.
    assert blocks_of("x\n\none\ntwo\n---\n") == ["x\n\n", "one\ntwo\n---\n"]


def test_setext_heading_right_after_an_atx_heading_or_rule() -> None:
    assert blocks_of("# A\nB\n===\n") == ["# A\n", "B\n===\n"]
    assert blocks_of("***\nB\n---\n") == ["***\n", "B\n---\n"]


def test_setext_underline_stays_with_its_heading_text() -> None:
    # "ab\nHeading" is the heading text; with the underline it would be 19 > 16, so the
    # break moves before "Heading" rather than leave the underline to start a block.
    blocks = split_blocks("ab\nHeading\n=======\nnext\n", 16)
    assert [(b.text, b.kind) for b in blocks] == [
        ("ab\n", "heading"),
        ("Heading\n=======\n", "heading"),
        ("next\n", "text"),
    ]
    # Where the last text line and the underline alone exceed the target, they part.
    assert [b.text for b in split_blocks("Heading\n=======\n", 10)] == [
        "Heading\n",
        "=======\n",
    ]


def test_setext_underline_after_a_list_item_or_quote_is_a_rule() -> None:
    assert [(b.text, b.kind) for b in split_blocks("- item\n---\n", 100)] == [
        ("- item\n", "text"),
        ("---\n", "rule"),
    ]
    assert blocks_of("> quote\nlazy\n---\n") == ["> quote\nlazy\n", "---\n"]
    assert blocks_of("> quote\nlazy\n===\n") == ["> quote\nlazy\n===\n"]
    assert blocks_of("- item\n\npara\n---\n") == ["- item\n\n", "para\n---\n"]


def test_list_items_that_cannot_interrupt_a_paragraph_are_text() -> None:
    # "2." and an empty item continue the paragraph, so the dashes underline it.
    assert [b.kind for b in split_blocks("para\n2. item\n---\n", 100)] == ["heading"]
    assert [b.kind for b in split_blocks("foo\n*\n---\n", 100)] == ["heading"]
    # "1. item" and a block quote interrupt it: the dashes are a rule.
    assert blocks_of("para\n1. item\n---\n") == ["para\n1. item\n", "---\n"]
    assert blocks_of("para\n> quote\n---\n") == ["para\n> quote\n", "---\n"]
    assert blocks_of("x\n\n2. item\n---\n") == ["x\n\n", "2. item\n", "---\n"]


def test_underline_under_indented_code_is_a_rule() -> None:
    assert blocks_of("x\n\n    code\n---\n") == ["x\n\n", "    code\n", "---\n"]
    assert blocks_of("    code\nfoo\n---\n") == ["    code\n", "foo\n---\n"]
    assert blocks_of("para\n    continued\n---\n") == ["para\n    continued\n---\n"]


def test_equals_with_no_paragraph_is_text() -> None:
    assert blocks_of("a\n\n===\nb\n") == ["a\n\n", "===\nb\n"]
    # An underline cannot follow another: the second "===" is paragraph text.
    assert [b.kind for b in split_blocks("A\n===\n===\n", 100)] == ["heading"]


def test_comment_inside_code_fence_is_not_a_heading() -> None:
    text = "Intro\n\n```python\n# comment\nx = 1\n\n---\n```\nafter\n"
    blocks = split_blocks(text, 1000)
    assert [(b.text, b.kind) for b in blocks] == [
        ("Intro\n\n", "text"),
        ("```python\n# comment\nx = 1\n\n---\n```\n", "code"),
        ("after\n", "text"),
    ]


def test_fence_closing_rules() -> None:
    # A tilde fence closes only with at least as many tildes; backticks do not close it.
    text = "~~~~\n```\n# no\n~~~\n~~~~~\n# yes\n"
    assert blocks_of(text) == ["~~~~\n```\n# no\n~~~\n~~~~~\n", "# yes\n"]
    # A backtick fence whose info string holds a backtick is not a fence.
    assert blocks_of("``` a`b\n# heading\n") == ["``` a`b\n", "# heading\n"]
    # A closing fence may be indented up to 3 spaces and carry trailing spaces.
    assert blocks_of("```\n# no\n   ```  \n# yes\n") == ["```\n# no\n   ```  \n", "# yes\n"]
    # Text after a closing fence starts a new block; blank lines stay with the code.
    assert blocks_of("```\nx\n```\n\n\ntext\n") == ["```\nx\n```\n\n\n", "text\n"]


def test_unclosed_fence_runs_to_the_end() -> None:
    text = "a\n\n```\ncode\n# not a heading\n\n\n---\nmore"
    assert [(b.text, b.kind) for b in split_blocks(text, 1000)] == [
        ("a\n\n", "text"),
        ("```\ncode\n# not a heading\n\n\n---\nmore", "code"),
    ]


def test_long_fence_is_cut_between_lines_into_code_blocks() -> None:
    text = "```\n" + "line\n" * 10 + "```\n" + "after\n"
    blocks = split_blocks(text, 20)
    assert "".join(b.text for b in blocks) == text
    assert all(b.size <= 20 for b in blocks)
    assert [b.kind for b in blocks] == ["code"] * (len(blocks) - 1) + ["text"]
    assert blocks[-1].text == "after\n"


def test_cr_only_line_endings() -> None:
    text = "# A\rone\rtwo\r\rthree\r"
    blocks = split_blocks(text, 100)
    assert [(b.text, b.start_line, b.end_line) for b in blocks] == [
        ("# A\rone\rtwo\r\r", 1, 4),
        ("three\r", 5, 5),
    ]


def test_crlf_line_endings() -> None:
    text = "# A\r\none\r\n\r\n---\r\ntwo\r\n"
    blocks = split_blocks(text, 100)
    assert [(b.text, b.kind, b.start_line, b.end_line) for b in blocks] == [
        ("# A\r\none\r\n\r\n", "heading", 1, 3),
        ("---\r\ntwo\r\n", "rule", 4, 5),
    ]
    # A block boundary never falls between CR and LF.
    small = split_blocks("ab\r\ncd\r\nef\r\n", 4)
    assert [b.text for b in small] == ["ab\r\n", "cd\r\n", "ef\r\n"]


def test_mixed_line_endings() -> None:
    text = "a\nb\r\nc\rd\n\re\r\n\r\n# f\n"
    blocks = split_blocks(text, 100)
    assert [(b.text, b.start_line, b.end_line) for b in blocks] == [
        ("a\nb\r\nc\rd\n\r", 1, 5),
        ("e\r\n\r\n", 6, 7),
        ("# f\n", 8, 8),
    ]


def test_tab_only_lines_are_blank() -> None:
    assert blocks_of("a\n\t\t\nb\n \t \n") == ["a\n\t\t\n", "b\n \t \n"]


def test_empty_space_and_crlf_blank_lines_make_one_run() -> None:
    assert blocks_of("a\n\n \t\n\nb\n") == ["a\n\n \t\n\n", "b\n"]
    assert blocks_of("a\r\n\r\n  \r\n\r\nb\r\n") == ["a\r\n\r\n  \r\n\r\n", "b\r\n"]
    # "abc\n\n" is full at 6 with "  \n"; "  \n\n" + "xy\n" would be 7: the blank lines
    # left over fit with neither neighbour and form their own block.
    assert [b.text for b in split_blocks("abc\n\n  \n\nxy\n", 6)] == [
        "abc\n\n",
        "  \n\n",
        "xy\n",
    ]


def test_blank_and_indented_lines_inside_a_fence_are_code() -> None:
    text = "```\r\ncode\r\n\r\n  \r\n  # not\r\n  ```\r\n\r\nafter\r\n"
    assert [(b.text, b.kind) for b in split_blocks(text, 1000)] == [
        ("```\r\ncode\r\n\r\n  \r\n  # not\r\n  ```\r\n\r\n", "code"),
        ("after\r\n", "text"),
    ]


def test_indented_structure_on_the_first_line_after_a_bom() -> None:
    blocks = split_blocks("\ufeff  # T\nx\n   ***\ny\n", 1000)
    assert [(b.text, b.kind) for b in blocks] == [
        ("\ufeff  # T\nx\n", "heading"),
        ("   ***\ny\n", "rule"),
    ]


def test_nbsp_and_ideographic_space_lines_are_not_blank() -> None:
    assert blocks_of("a\n\u00a0\nb\n") == ["a\n\u00a0\nb\n"]
    assert blocks_of("a\n\u3000\u3000\nb\n") == ["a\n\u3000\u3000\nb\n"]


def test_no_final_newline() -> None:
    blocks = split_blocks("# T\n\nlast line", 100)
    assert [(b.text, b.start_line, b.end_line) for b in blocks] == [
        ("# T\n\n", 1, 2),
        ("last line", 3, 3),
    ]


def test_bom_stays_in_the_first_block_and_does_not_hide_a_heading() -> None:
    text = "\ufeff# Title\n\nbody\n"
    blocks = split_blocks(text, 100)
    assert [(b.text, b.kind) for b in blocks] == [
        ("\ufeff# Title\n\n", "heading"),
        ("body\n", "text"),
    ]


def test_form_feed_and_line_separator_do_not_end_lines() -> None:
    text = "a\x0cb\u2028c\n\nd\x85e\n"
    blocks = split_blocks(text, 100)
    assert [(b.text, b.start_line, b.end_line) for b in blocks] == [
        ("a\x0cb\u2028c\n\n", 1, 2),
        ("d\x85e\n", 3, 3),
    ]


def test_utf16_units_give_different_blocks_for_emoji() -> None:
    text = "😀😀😀\n" * 3  # each line: 4 code points, 7 UTF-16 units
    by_code_points = split_blocks(text, 10)
    by_utf16 = split_blocks(text, 10, length="utf16")
    assert [(b.text, b.size) for b in by_code_points] == [("😀😀😀\n" * 2, 8), ("😀😀😀\n", 4)]
    assert [(b.text, b.size) for b in by_utf16] == [("😀😀😀\n", 7)] * 3


def test_utf8_bytes() -> None:
    blocks = split_blocks("中文\n中文\n", 7, length="utf8")  # 7 bytes a line
    assert [(b.text, b.size) for b in blocks] == [("中文\n", 7), ("中文\n", 7)]


def test_non_additive_length_measures_each_block_for_real() -> None:
    # Joining lines costs more than the sum of the lines: 10 more per inner line break.
    calls: list[str] = []

    def cost(text: str) -> int:
        calls.append(text)
        return len(text) + 10 * text.rstrip("\n").count("\n")

    length = CallableLength(cost)
    blocks = split_blocks("aaaa\n" * 4, 20, length=length)
    # Line sums say four lines fit (20); for real two lines cost 20, three cost 35.
    assert [(b.text, b.size) for b in blocks] == [("aaaa\naaaa\n", 20)] * 2
    assert all(b.size == cost(b.text) for b in blocks)


def test_tiktoken_blocks_stay_within_the_token_target() -> None:
    length = resolve_length("cl100k_base")
    text = "# Notes\n\n" + "".join(f"Line {n} says something about tokens.\n" for n in range(40))
    blocks = split_blocks(text, 30, length=length)
    check_invariants(text, blocks, 30, length)
    assert len(blocks) > 3 and blocks[0].kind == "heading"


def test_bad_input_raises_typed_errors() -> None:
    with pytest.raises(InvalidInputError, match="offset 2") as lone:
        split_blocks("ab\ud800cd", 10)
    assert lone.value.offset == 2
    with pytest.raises(InvalidInputError, match="NUL") as nul:
        split_blocks("abc\x00", 10)
    assert nul.value.offset == 3
    with pytest.raises(InputTypeError, match="decode"):
        split_blocks(b"bytes", 10)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        split_blocks(None, 10)  # type: ignore[arg-type]


@pytest.mark.parametrize("target", [0, -5])
def test_target_must_be_at_least_one(target: int) -> None:
    with pytest.raises(InvalidParameterError, match=f"chunk_size={target}"):
        split_blocks("text", target)


@pytest.mark.parametrize("target", [1.5, "10", True, None])
def test_target_must_be_an_int(target: object) -> None:
    with pytest.raises(ParameterTypeError, match="chunk_size"):
        split_blocks("text", target)  # type: ignore[arg-type]


def test_target_of_one_makes_one_block_per_line() -> None:
    text = "ab\ncd\n\n"
    assert [(b.text, b.oversized) for b in split_blocks(text, 1)] == [
        ("ab\n", True),
        ("cd\n", True),
        ("\n", False),
    ]


def test_splitter_object_and_split_texts() -> None:
    splitter = BlockSplitter(12)
    texts = ["# A\nbody\n\nmore\n", "", "x\n"]
    chunks = splitter.split_texts(texts)
    assert [(c.source, c.index, c.text) for c in chunks] == [
        (0, 0, "# A\nbody\n\n"),
        (0, 1, "more\n"),
        (2, 2, "x\n"),
    ]
    assert splitter.split_text(texts[0]) == ["# A\nbody\n\n", "more\n"]
    assert splitter.spans(texts[0]) == [(0, 10, 10), (10, 15, 5)]
    with pytest.raises(InvalidInputError, match=r"texts\[1\]"):
        splitter.split_texts(["ok", "bad\x00"])


# --- properties on generated text ----------------------------------------------------

PIECES = st.sampled_from(
    [
        "a",
        "word ",
        "长文本",
        "😀",
        "👨\u200d👩\u200d👧",
        "e\u0301",
        "🇫🇷",
        " ",
        "\t",
        "\u00a0",
        "\u3000",
        "\n",
        "\r",
        "\r\n",
        "\n\n",
        "\x0c",
        "\u2028",
        "\ufeff",
        "# ",
        "#",
        "## ",
        "---",
        "***",
        "===",
        "- ",
        "> ",
        "1. ",
        "    ",
        "```",
        "~~~",
    ]
)
TEXTS = texts_of(PIECES, noise=6, count=60)
TARGETS = st.integers(min_value=1, max_value=80)


@given(TEXTS, TARGETS)
def test_blocks_tile_and_keep_their_promises(text: str, target: int) -> None:
    blocks = split_blocks(text, target)
    check_invariants(text, blocks, target)
    assert split_blocks(text, target) == blocks  # deterministic


@given(TEXTS, TARGETS)
def test_blocks_in_utf16_units(text: str, target: int) -> None:
    check_invariants(text, split_blocks(text, target, length="utf16"), target, "utf16")


@given(TEXTS, TARGETS)
def test_a_block_starts_with_a_blank_line_only_when_the_previous_one_is_full(
    text: str, target: int
) -> None:
    blocks = split_blocks(text, target)
    for previous, block in pairwise(blocks):
        first_line = block.text[: naive_lines(block.text)[0][1]]
        if is_blank(first_line) and "\ufeff" not in first_line:
            assert previous.size + len(first_line) > target
    for block, following in pairwise(blocks):
        lines = naive_lines(block.text)
        if all(is_blank(block.text[s:e]) for s, e in lines):
            # Blank lines alone: they fit with neither neighbour.
            next_line = following.text[: naive_lines(following.text)[0][1]]
            assert block.size + len(next_line) > target


# Markdown-like documents from a small set of lines, with an independent reference.
DOC_LINES = st.sampled_from(
    ["# Title", "## Sub", "***", "text", "more words here", "", "  ", "```", "code # x", "é 中"]
)
DOCS = st.tuples(st.lists(DOC_LINES, max_size=30), st.sampled_from(["\n", "\r\n", "\r"])).map(
    lambda parts: parts[1].join(parts[0])
)


def reference_roles(lines: list[str]) -> list[str]:
    """Role of each line of a document made of DOC_LINES, read with a plain loop."""
    roles, fenced = [], False
    for line in lines:
        content = line.rstrip("\r\n")
        if content == "```":
            roles.append("fence-close" if fenced else "fence-open")
            fenced = not fenced
        elif fenced:
            roles.append("code")
        elif content.startswith("#"):
            roles.append("heading")
        elif content == "***":
            roles.append("rule")
        elif content.strip() == "":
            roles.append("blank")
        else:
            roles.append("text")
    return roles


@pytest.mark.parametrize("unit", ["chars", "utf8"])
@given(text=DOCS, target=TARGETS)
def test_blocks_start_exactly_where_the_contract_says(unit: str, text: str, target: int) -> None:
    blocks = split_blocks(text, target, length=unit)
    check_invariants(text, blocks, target, unit)
    size = resolve_length(unit).count
    spans = naive_lines(text)
    lines = [text[s:e] for s, e in spans]
    roles = reference_roles(lines)
    block_of_line = [next(b for b in blocks if b.start <= s < b.end) for s, _ in spans]
    for i in range(1, len(lines)):
        block, previous = block_of_line[i], roles[i - 1]
        must_start = roles[i] in ("heading", "rule", "fence-open") or (
            roles[i] != "blank" and previous in ("blank", "fence-close")
        )
        if must_start:
            # The block starts here, or only blank lines (carried over) come before.
            first = next(k for k in range(i + 1) if block_of_line[k] is block)
            assert all(roles[k] == "blank" for k in range(first, i)), (i, lines[i])
        elif block.start == spans[i][0]:
            # Any other break: the line did not fit in the block before it.
            before = block_of_line[i - 1]
            assert before.size + size(lines[i]) > target, (i, lines[i])
    kind_of_role = {"heading": "heading", "rule": "rule", "fence-open": "code", "code": "code"}
    kind_of_role["fence-close"] = "code"
    for block in blocks:
        inside = [k for k, (s, _) in enumerate(spans) if block.start <= s < block.end]
        content = [k for k in inside if roles[k] != "blank"]
        expected = kind_of_role.get(roles[content[0]], "text") if content else "text"
        assert block.kind == expected, (block, [roles[k] for k in inside])


# --- the texts of tests/data (also on a clone without the corpus) ----------------------------


def read_exact(path: Path) -> str:
    """The file's text with its line endings and BOM untouched."""
    return path.read_bytes().decode("utf-8")


SAMPLES = {
    "english": sample("english.txt"),
    "english-crlf-bom": "\ufeff" + sample("english.txt").replace("\n", "\r\n"),
    "english-cr": sample("english.txt").replace("\n", "\r"),
    "chinese": sample("chinese.txt"),
    "markdown": sample("markdown.md"),
    "markdown-crlf": sample("markdown.md").replace("\n", "\r\n"),
    "code": sample("code.py"),
}


def check_tiles_at_200_1000_4000(text: str) -> None:
    lines = naive_lines(text) if len(text) < 300_000 else None
    for target in (200, 1000, 4000):
        blocks = split_blocks(text, target)
        assert "".join(b.text for b in blocks) == text
        assert all(b.size <= target or (b.oversized and b.line_count == 1) for b in blocks)
        assert all(b.size == b.end - b.start for b in blocks)
        assert all(a.end == b.start for a, b in pairwise(blocks))
        if lines is not None:
            line_ends = {end for _, end in lines}
            assert all(b.end in line_ends for b in blocks)
            starts = [s for s, _ in lines]
            assert all(starts[b.start_line - 1] == b.start for b in blocks)
            assert all(starts[b.end_line - 1] < b.end for b in blocks)


def check_bom_and_crlf_kept(text: str, target: int) -> None:
    blocks = split_blocks(text, target)
    assert len(blocks) > 1
    assert blocks[0].text.startswith("\ufeff")
    assert not any(b.text.startswith("\n") and text[b.start - 1] == "\r" for b in blocks[1:])


def check_fenced_comment_lines(text: str, *, at_least: int) -> None:
    """Lines "# ..." inside a backtick fence start no block; outside one they start a
    heading block; a fence starts a code block."""
    blocks = split_blocks(text, 4000)
    starts = {b.start: b for b in blocks}
    fenced, hidden = False, 0
    for start, end in naive_lines(text):
        line = text[start:end]
        if line.lstrip(" ").startswith("```"):
            if not fenced:
                assert starts[start].kind == "code"
            fenced = not fenced
        elif fenced and line.startswith("# "):
            hidden += 1
            assert start not in starts, line
        elif not fenced and line.startswith("#"):
            assert starts[start].kind == "heading", line
    assert hidden >= at_least


@pytest.mark.parametrize("name", SAMPLES)
def test_samples_tile_at_200_1000_4000(name: str) -> None:
    check_tiles_at_200_1000_4000(SAMPLES[name])


@pytest.mark.parametrize("target", [200, 1000])
def test_sample_crlf_text_keeps_bom_and_crlf(target: int) -> None:
    check_bom_and_crlf_kept(SAMPLES["english-crlf-bom"], target)


@pytest.mark.parametrize("name", ["markdown", "markdown-crlf"])
def test_sample_comment_lines_inside_fences_do_not_start_blocks(name: str) -> None:
    check_fenced_comment_lines(SAMPLES[name], at_least=2)


# --- the corpus ------------------------------------------------------------------------


@pytest.mark.corpus
def test_corpus_is_present() -> None:
    assert corpus_path("MANIFEST.md").is_file()
    assert len(corpus_files()) > 300


@pytest.mark.corpus
@pytest.mark.parametrize(
    "path",
    corpus_cases(corpus_files(), stand_in=CORPUS),
    ids=lambda p: str(p.relative_to(CORPUS)),
)
def test_corpus_blocks_tile_at_200_1000_4000(path: Path) -> None:
    check_tiles_at_200_1000_4000(read_corpus(path))


@pytest.mark.corpus
def test_corpus_crlf_book_keeps_bom_and_crlf() -> None:
    text = read_exact(corpus_path("english_prose/pg1342_pride_and_prejudice.gitenberg.crlf.txt"))
    check_bom_and_crlf_kept(text, 1000)


# Spec examples read differently on purpose: 134 is indented code (not a fence, so its
# block is text), 218 is a link reference definition (read as paragraph text, so the
# "===" under it makes a setext heading).
COMMONMARK_DEVIATIONS = {134, 218}


@pytest.mark.corpus
def test_commonmark_spec_examples_agree_on_headings_rules_and_fences() -> None:
    # The spec's own HTML says how many headings, rules and code blocks a reader sees.
    # Examples with lists, block quotes or HTML are left out: blocks read those as text.
    examples = json.loads(corpus_path("commonmark/spec.json").read_text(encoding="utf-8"))
    checked, differing = 0, set()
    for example in examples:
        markdown, html = example["markdown"], example["html"]
        if re.search(r"<(?:ul|ol|li|blockquote)\b", html) or "<" in markdown:
            continue
        checked += 1
        blocks = split_blocks(markdown, 10**6)
        check_invariants(markdown, blocks, 10**6)
        kinds = Counter(b.kind for b in blocks)
        expected = Counter(heading=len(re.findall(r"<h[1-6]>", html)), rule=html.count("<hr />"))
        got = Counter(heading=kinds["heading"], rule=kinds["rule"])
        if "```" in markdown or "~~~" in markdown:
            expected["code"] = html.count("<pre><code")
            got["code"] = kinds["code"]
        if got != expected:
            differing.add(example["example"])
    assert checked > 400
    assert differing == COMMONMARK_DEVIATIONS


@pytest.mark.corpus
def test_corpus_comment_lines_inside_fences_do_not_start_blocks() -> None:
    # The Rust Reference hides setup lines in code as "# fn main() {" (over 100 in this file).
    text = read_exact(corpus_path("markdown_docs/rust-lang-reference/src/destructors.md"))
    check_fenced_comment_lines(text, at_least=51)


LINE_ATOMS = [
    "word ",
    "a line\n",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    "# Head\n",
    "```\n",
    "- item\n",
    "Title\n---\n",
    "中文。",
]


@pytest.mark.parametrize("length", [None, "utf8", "cl100k_base"])
@given(text=texts_of(st.sampled_from(LINE_ATOMS), noise=3, count=80))
def test_lines_read_a_window_at_a_time_make_the_same_blocks(length: str | None, text: str) -> None:
    """A segment's lines are read a window at a time when it is cut into blocks: a window
    of a few characters gives the blocks of one that holds the whole segment."""
    splitter = BlockSplitter(12, length=length)
    whole = [(c.start, c.end, c.size) for c in splitter.split(text)]
    saved, tiling.LINE_WINDOW_CHARS = tiling.LINE_WINDOW_CHARS, 4
    try:
        assert [(c.start, c.end, c.size) for c in splitter.split(text)] == whole
    finally:
        tiling.LINE_WINDOW_CHARS = saved


@pytest.mark.parametrize("length", [None, "utf8", "cl100k_base"])
@given(text=texts_of(st.sampled_from(LINE_ATOMS), noise=3, count=80), batch=st.integers(1, 5))
def test_blocks_made_a_batch_at_a_time_are_those_of_one_batch(
    length: str | None, text: str, batch: int
) -> None:
    """Blocks are placed and made into chunks a batch at a time: batches of a few blocks
    give the chunks (numbers, lines, kinds, sizes) of one batch that holds them all."""
    splitter = BlockSplitter(12, length=length)
    saved, tiling.BATCH_BLOCKS = tiling.BATCH_BLOCKS, 1 << 30
    try:
        whole = splitter.split(text)
        tiling.BATCH_BLOCKS = batch
        assert splitter.split(text) == whole
        assert splitter.spans(text) == [(c.start, c.end, c.size) for c in whole]
    finally:
        tiling.BATCH_BLOCKS = saved


def test_many_blocks_take_little_memory_beside_themselves() -> None:
    # 100,000 one-letter paragraphs are as many blocks: the lists of every block's start,
    # stop, size, kind, text and lines, held at once beside the blocks, took 26 times the
    # text; a batch at a time, 5.
    text = "a\n\n" * 100_000
    splitter = BlockSplitter(100)
    tracemalloc.start()
    try:
        blocks = splitter.split(text)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(blocks) == 100_000
    assert peak - held < 10 * len(text)


@pytest.mark.parametrize("length", ["utf8", "cl100k_base"])
def test_a_flood_of_blank_lines_is_tiled_in_little_memory(length: str) -> None:
    text = "\n" * 300_000
    splitter = BlockSplitter(2000, length=length)
    splitter.split(text[:1000])  # the tokenizer loaded before measuring
    assert peak_memory(lambda: splitter.split(text)) < 16 * len(text)


class _NoLongCounts(LengthFunction):
    """One unit a code point; refuses to count a long text whole (as a tokenizer's merge of
    a megabyte-long pretoken takes tens of bytes a byte), but tells a long span over a cap
    from its start, as the tokenizers do."""

    additive = False

    def count(self, text: str) -> int:
        assert len(text) <= 10_000, f"counted {len(text)} code points whole"
        return len(text)

    def count_spans_capped(self, text: str, spans: Sequence[Span], cap: int) -> list[int]:
        return [min(end - start, cap + 1) for start, end in spans]


def test_lines_that_fit_together_join_a_block_whatever_they_measure_alone() -> None:
    """A stretch over the target was cut where its lines' sizes, each measured alone,
    summed to the target: a tokenizer (tokens join across lines) or a length with a cost
    per call gave blocks that broke before the target was reached, against the seed's
    "break only when the target would be exceeded"."""
    count = resolve_length("cl100k_base").count
    fence = "```\n" + "f();\n\n" * 8 + "```\n"
    blocks = split_blocks(fence, 10, length="cl100k_base")
    assert [block.text for block in blocks] == [
        "```\n" + "f();\n\n" * 4,
        "f();\n\n" * 4 + "```\n",
    ]
    assert [block.size for block in blocks] == [count(block.text) for block in blocks] == [10, 10]
    per_call = split_blocks("0123456789\n" * 20, 110, length=lambda text: 50 + len(text))
    assert [block.size for block in per_call] == [105] * 4  # 5 lines: 50 + 55 (was 20 of 1)


def test_a_segment_over_the_target_is_not_counted_whole() -> None:
    # A flood of blank lines (one pretoken for cl100k_base) is found over the target from
    # its start; only its lines and blocks are counted.
    text = "Title\n" + "\n" * 200_000 + "Last line\n"
    blocks = BlockSplitter(2000, length=_NoLongCounts()).split(text)
    assert "".join(block.text for block in blocks) == text
    assert all(block.size == len(block.text) <= 2000 for block in blocks)


def test_the_layout_of_many_short_paragraphs_takes_little_memory() -> None:
    # A megabyte of one-letter paragraphs has 333,000 runs of blank lines: kept in arrays
    # (8 bytes an offset), not lists, dicts and sets of Python ints (60 times the text).
    text = "a\n\n" * 100_000
    assert peak_memory(lambda: block_layout(text)) < 16 * len(text)


@given(TEXTS, TARGETS)
def test_lengths_that_count_code_points_page_as_code_points(text: str, target: int) -> None:
    # UTF-8 bytes of ASCII text and UTF-16 units within the BMP are code points: the same
    # blocks, whichever way they are packed
    ascii_text = text.encode("ascii", "ignore").decode("ascii")
    bmp_text = "".join(char for char in text if char < "\U00010000")
    for length, same in (("utf8", ascii_text), ("utf16", bmp_text)):
        expected = [(b.start, b.end, b.size, b.kind) for b in split_blocks(same, target)]
        paged = split_blocks(same, target, length=length)
        assert [(b.start, b.end, b.size, b.kind) for b in paged] == expected


def test_the_layout_of_a_run_of_headings_is_read_in_arrays() -> None:
    """The lines that start a heading, a fence or a rule were a dict, and the cuts before
    headings lists and sets of ints: reading the layout of heading lines took 28 times the
    text at its peak (the Markdown preset 33 times in all; now 5)."""
    text = "# a\n## b\n" * 30_000
    block_layout(text[:1000])  # (what a first reading sets up once is not the text's)
    assert peak_memory(lambda: block_layout(text)) < 4 * len(text)
    assert peak_memory(lambda: markdown_cuts(text)) < 5 * len(text)
    assert len(markdown_cuts(text)["heading"]) == 60_000


FENCE_LINES = ["```", "~~~", "````", "```py", "``` `x`", "  ```", "    ```", "\t```", "text", ""]
FENCE_LINES += ["> ```", "- ```", "\ufeff```", "~~~~ ", "```  ", "# A", "---"]


@given(
    st.lists(st.sampled_from(FENCE_LINES), min_size=1, max_size=14),
    st.sampled_from(["\n", "\r\n"]),
)
def test_fenced_blocks_are_the_fences_the_block_layout_finds(lines: list[str], ending: str) -> None:
    """The fence lines alone give the fenced blocks that the whole line-by-line pass does
    (what ParagraphSplitter's overlap reads; a lone CR takes the line-by-line pass)."""
    text = ending.join(lines)
    assert fenced_blocks(text) == fences_by_lines(text)
