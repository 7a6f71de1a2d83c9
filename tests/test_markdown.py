"""MarkdownSplitter: sections with heading paths, fences and tables kept whole, exact spans,
hard budgets — on texts written for the project, generated Markdown and the corpus."""

from __future__ import annotations

import builtins
import itertools
import pickle
import re
import tracemalloc
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, corpus_path, sample
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_judge import Verdict, judge
from support import (
    check_chunks,
    corpus_cases,
    line_ending_ends,
    memory_beyond_result,
    toy_tokens,
)

from spansplit import (
    Chunk,
    ChunkTooLargeError,
    ExtraNotInstalledError,
    InvalidParameterError,
    MarkdownSplitter,
    ParagraphSplitter,
    ParameterTypeError,
    RecursiveSplitter,
    Splitter,
    resolve_length,
    split_markdown,
    with_heading_path,
)
from spansplit.batch import Document
from spansplit.boundaries import markdown as markdown_boundaries
from spansplit.boundaries.markdown import Heading, HeadingTexts, MarkdownLayout
from spansplit.boundaries.words import word_spans
from spansplit.corpus import SplitterByFileType
from spansplit.lines import line_ending_ends as line_ending_ends_of_lines

pytest.importorskip("pyromark")

HANDBOOK = sample("markdown.md")
RIVER_LOG = (ROOT / "examples" / "sample.md").read_text(encoding="utf-8")
CL100K = resolve_length("cl100k_base")


def headings_of(chunk: object) -> list[str]:
    return [h["text"] for h in chunk.metadata["headings"]]  # type: ignore[attr-defined]


# --- the promise --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["handbook", "river-log", "handbook-crlf-bom"])
@pytest.mark.parametrize(
    ("length", "size", "overlap"),
    [(None, 120, 0), (None, 400, 60), ("cl100k_base", 48, 0), ("cl100k_base", 160, 24)],
)
def test_spans_budgets_lines_and_coverage(
    name: str, length: str | None, size: int, overlap: int
) -> None:
    text = {
        "handbook": HANDBOOK,
        "river-log": RIVER_LOG,
        "handbook-crlf-bom": "\ufeff" + HANDBOOK.replace("\n", "\r\n"),
    }[name]
    chunks = MarkdownSplitter(size, overlap, length=length).split(text)
    measure = len if length is None else CL100K.count
    # A byte order mark is not text: no chunk holds it.
    check_chunks(text, chunks, size, measure, overlap=overlap, dropped="\ufeff")


def test_every_line_ending_gives_the_same_chunks_and_sections_skip_the_bom() -> None:
    def spans(text: str) -> list[tuple[int, int, object]]:
        return [(c.start, c.end, c.metadata) for c in MarkdownSplitter(300).split(text)]

    # Lone CR and LF are both one code point, so the spans must match exactly.
    assert spans(HANDBOOK.replace("\n", "\r")) == spans(HANDBOOK)
    with_bom = MarkdownSplitter(300).split("\ufeff# Title\r\nText.\r\n")
    assert [(c.start, c.metadata["section"]) for c in with_bom] == [(1, [1, 17])]


def test_kept_whole_where_they_fit_and_no_chunk_ends_on_a_heading() -> None:
    fitting = 0
    for text in (HANDBOOK, RIVER_LOG):
        for size in (80, 150, 300, 700):
            chunks = MarkdownSplitter(size).split(text)
            found = judge(
                text, [(c.start, c.end) for c in chunks], [c.text for c in chunks], size, len
            )
            assert (found.cut_blocks, found.heading_ends) == (0, 0), (size, found)
            fitting += found.fitting_blocks
    assert fitting >= 10  # fences and tables that fit were there to be cut


def test_a_section_that_fits_is_one_chunk_and_small_siblings_merge() -> None:
    chunks = MarkdownSplitter(600).split(HANDBOOK)
    texts = [c.text for c in chunks]
    mounting = HANDBOOK.index("### Mounting the staff")
    parts = HANDBOOK.index("### Parts list")
    # "Installation" (its intro and the "Parts list" table) fits in one chunk; the next
    # sub-section is the next chunk.
    assert any(t.startswith("## Installation") and t.endswith("salt water |") for t in texts)
    assert any(c.start == mounting for c in chunks)
    assert not any(c.start == parts for c in chunks)


# --- where a chunk lies ----------------------------------------------------------------------


def test_heading_paths_and_section_spans() -> None:
    chunks = MarkdownSplitter(200).split(HANDBOOK)
    by_start = {HANDBOOK[c.start : c.start + 14]: c for c in chunks}
    table = by_start["### Parts list"]
    assert table.metadata["headings"] == [
        {"level": 1, "text": "Tide Gauge Handbook"},
        {"level": 2, "text": "Installation"},
        {"level": 3, "text": "Parts list"},
    ]
    start, end = table.metadata["section"]
    assert (
        HANDBOOK[start:end].startswith("### Parts list")
        and "### Mounting" not in HANDBOOK[start:end]
    )
    for chunk in chunks:
        start, end = chunk.metadata["section"]
        assert start <= chunk.start and chunk.end <= end
    # A setext heading opens a section; "Questions" (===) is a level-1 heading.
    assert headings_of(chunks[-1]) == ["Questions"]
    logger = next(c for c in chunks if c.text.startswith("Setting up the logger"))
    assert headings_of(logger) == ["Tide Gauge Handbook", "Setting up the logger"]


def test_front_matter_is_a_chunk_of_its_own() -> None:
    first, second = MarkdownSplitter(500).split(HANDBOOK)[:2]
    assert first.kind == "front_matter" and first.text.startswith("---\ntitle: Tide Gauge")
    assert first.text.endswith("---") and first.metadata["headings"] == []
    assert second.kind == "markdown" and second.text.startswith("# Tide Gauge Handbook")


@pytest.mark.parametrize(
    ("text", "front"),
    [
        ("---\ntitle: A\n---\n\n# H\n", "---\ntitle: A\n---"),
        ("---\n# a comment\nkey: [1, 2]\n...\nbody\n", "---\n# a comment\nkey: [1, 2]\n..."),
        ("---\n---\nbody\n", "---\n---"),  # empty (Jekyll processes such a page)
        # A thematic break, a paragraph and a heading: Markdown, up to a later break too.
        ("---\nIntro after a rule.\n\n# Heading\n\nText.\n\n---\n\nMore.\n", None),
        ("---\n\ntitle: A\n---\n", None),  # a blank line first
        # A rule and a heading (was read as a YAML comment, the front matter running to the
        # next rule): Markdown. Comments before a key are still YAML.
        ("---\n# Heading\n\nIntro.\n\n---\n\n## Next\n", None),
        ("---\n# Heading\n---\n", None),
        ("---\n# one\n  # two\ntitle: A\n---\nbody\n", "---\n# one\n  # two\ntitle: A\n---"),
        ("---\n# generated\n\ntitle: A\n---\n", "---\n# generated\n\ntitle: A\n---"),
    ],
)
def test_front_matter_is_yaml_between_two_lines_of_dashes(text: str, front: str | None) -> None:
    chunks = MarkdownSplitter(200, merge_sections=False).split(text)
    matter = [c.text for c in chunks if c.kind == "front_matter"]
    assert matter == ([] if front is None else [front])
    if "# Heading" in text:
        assert any(c.metadata["headings"] == [{"level": 1, "text": "Heading"}] for c in chunks)


def test_what_is_not_a_heading() -> None:
    layout = MarkdownLayout(HANDBOOK)
    texts = [h.text for h in layout.headings]
    # A "# comment" in a fence and a heading inside a block quote open no section.
    assert "set the sampling interval, in seconds" not in texts
    assert "A heading inside a quote" not in texts
    assert texts == [
        "Tide Gauge Handbook",
        "Installation",
        "Parts list",
        "Mounting the staff",
        "Setting up the logger",
        "Reading the gauge",
        "Publishing",
        "Checklist",
        "中文摘要",
        "Questions",
    ]


def _blocks(text: str) -> list[tuple[str, int, int, int, str]]:
    """Every block of ``text`` as the layout reads it, in document order."""
    found = []
    stack = [MarkdownLayout(text).root]
    while stack:
        block = stack.pop()
        found.append((block.kind, block.start, block.end, block.depth, block.text))
        stack.extend(reversed(block.children))
    return found


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("<中>\n", ["paragraph"]),  # no tag: a tag's name is ASCII
        ('<img alt="中 > 文">\n', ["html"]),
        ("<!中>\n", ["paragraph"]),  # no declaration
        ("| a |\n|---|\n    <!中 |\n", ["table", "row", "row"]),
        ("- [中] \n!\n", ["list", "item"]),  # no task list marker
        ("[a]: /u#中文\n", []),  # a link reference definition, no paragraph
        ("中\u3000\n\n\u00a0\n", ["paragraph", "paragraph"]),  # no blank line
        ("[" + "😀" * 250 + "]: /u\n", ["paragraph"]),  # a label too long in UTF-8 bytes
    ],
)
def test_blocks_of_text_outside_ascii(text: str, kinds: list[str]) -> None:
    # The parser's offsets are UTF-8 bytes: the blocks are found at the right code points.
    found = _blocks(text)[1:]
    assert [kind for kind, *_ in found] == kinds
    assert all(text[start - 1 : start] in ("", "\n") for _, start, *_ in found)


@pytest.mark.parametrize(
    ("text", "heading"),
    [
        ("## a*。b*\n", "a*。b*"),  # no emphasis: * before punctuation, after a letter
        ("## *中*文\n", "中文"),
        ("## \\中 \\*\n", "\\中 *"),  # a backslash before a letter is text
        ("## 使用 `Rc<T>` 共享\n", "使用 Rc<T> 共享"),
        ("## [中]\n\n[文]: /u\n", "[中]"),
        ("## [中]\n\n[中]: /u\n", "中"),
        ("# [k]\n[\u212a]:u\n", "k"),  # K (Kelvin sign) folds to k: a link
        ("## &#x4e2d;&eacute; “x” <中>\n", "中é “x” <中>"),
        ("> Caf\u00e9\n> bar\n> ===\n", "Café bar"),  # a line break in a heading is a space
        ("Cafe\\\nbar\n---\n", "Cafe bar"),
        ("[a]: /u\n*\nCaf\u00e9\n===\n", "* Café"),
        ("# 標題[^1]\n\n[^1]: 注\n", "標題"),
    ],
)
def test_heading_text_as_rendered(text: str, heading: str) -> None:
    assert [h for kind, *_, h in _blocks(text) if kind == "heading"] == [heading]


def test_a_bom_does_not_hide_the_first_heading() -> None:
    text = "\ufeff# Title\n\nBody text.\n"
    (chunk,) = split_markdown(text, 100)
    assert chunk.text == "# Title\n\nBody text." and headings_of(chunk) == ["Title"]
    assert chunk.start == 1


def test_a_heading_goes_with_the_start_of_a_long_block() -> None:
    text = "## Table\n\n| a | b |\n|---|---|\n" + "".join(f"| {i} | row {i} |\n" for i in range(40))
    chunks = split_markdown(text, 120)
    assert chunks[0].text.startswith("## Table\n\n| a | b |\n|---|---|\n| 0 |")
    # Rows are never cut: every chunk ends at a row's end.
    assert all(c.text.endswith("|") for c in chunks)
    fence = "# Code\n\n```python\n" + "".join(f"x_{i} = {i}\n" for i in range(60)) + "```\n"
    chunks = split_markdown(fence, 100)
    assert chunks[0].text.startswith("# Code\n\n```python\nx_0 = 0")
    assert chunks[-1].text.endswith("x_59 = 59\n```")
    assert all("\n" not in c.text or c.text.count("\n") >= 1 for c in chunks)


def test_text_no_block_holds_stays_apart_from_a_fence() -> None:
    # Link reference definitions are read by the parser but are not blocks.
    text = "Intro.\n\n```rust\nfn main() {\n}\n```\n\n[ref]: https://example.com\n[two]: /b\n"
    chunks = split_markdown(text, 30)
    assert "```rust\nfn main() {\n}\n```" in [c.text for c in chunks]


# --- text for embedding ----------------------------------------------------------------------


def test_with_heading_path_puts_the_path_before_the_text() -> None:
    chunks = MarkdownSplitter(150).split(HANDBOOK)
    body = next(c for c in chunks if c.text.startswith("| Stilling well"))
    assert with_heading_path(body).startswith(
        "Tide Gauge Handbook > Installation > Parts list\n\n| Stilling well"
    )
    heading_first = next(c for c in chunks if c.text.startswith("### Parts list"))
    # The innermost heading is not repeated when the chunk starts with it.
    assert with_heading_path(heading_first).startswith(
        "Tide Gauge Handbook > Installation\n\n### Parts list"
    )


def test_with_heading_path_refuses_what_is_not_a_chunk() -> None:
    class Document:  # (a LangChain Document's shape: the error names the adapter's helper)
        page_content, metadata = "text", {"Header 1": "A"}

    with pytest.raises(ParameterTypeError, match=r"langchain_spansplit\.with_heading_path"):
        with_heading_path(Document())  # type: ignore[arg-type]
    with pytest.raises(ParameterTypeError, match="got str"):
        with_heading_path("# A\n\ntext")  # type: ignore[arg-type]


def test_an_empty_heading_adds_nothing_to_the_heading_path_text() -> None:
    text = "# A\n\nIntro.\n\n##\n\nEmpty one.\n\n### C\n\nText C here.\n"
    chunks = MarkdownSplitter(20).split(text)
    # the metadata keeps the section (its level), the text for embedding no empty step
    assert [h["text"] for h in chunks[2].metadata["headings"]] == ["A", "", "C"]
    assert [with_heading_path(c) for c in chunks[1:]] == [
        "A\n\n##\n\nEmpty one.",
        "A\n\n### C\n\nText C here.",  # (was "A > \n\n### C ...")
    ]


def test_the_heading_is_left_out_only_where_the_chunk_starts_on_it() -> None:
    text = (
        "# Guide\n\n## Install\n\nSome words before it all.\n\nInstall the gauge first.\n\n"
        "  ## Setup\n\nSetup comes next.\n"
    )
    chunks = MarkdownSplitter(50).split(text)
    shown = {c.text: with_heading_path(c) for c in chunks}
    # A paragraph that merely begins with its heading's words still gets the whole path.
    assert shown["Install the gauge first."] == "Guide > Install\n\nInstall the gauge first."
    # An indented heading line starts its chunk (after the spaces that were trimmed).
    assert shown["## Setup\n\nSetup comes next."] == "Guide\n\n## Setup\n\nSetup comes next."


@pytest.mark.parametrize(("length", "size"), [(None, 160), ("cl100k_base", 60)])
def test_count_heading_path_keeps_the_contextual_text_within_budget(
    length: str | None, size: int
) -> None:
    measure = len if length is None else CL100K.count
    plain = MarkdownSplitter(size, length=length).split(HANDBOOK)
    assert max(measure(with_heading_path(c)) for c in plain) > size  # the case exists
    chunks = MarkdownSplitter(size, length=length, count_heading_path=True).split(HANDBOOK)
    assert max(measure(with_heading_path(c)) for c in chunks) <= size
    check_chunks(HANDBOOK, chunks, size, measure)


def test_a_cluster_over_the_room_the_heading_path_leaves_is_named_as_such() -> None:
    text = "👩\u200d👩\u200d👧 family\n\n# Installing the tools on Linux\n\nRun it."
    with pytest.raises(ChunkTooLargeError, match=r"chunk_size=16 less \d+ .* heading path"):
        split_markdown(text, 16, length="cl100k_base", count_heading_path=True)


def test_count_heading_path_with_no_room_left_is_refused() -> None:
    text = "# " + "Very long title " * 10 + "\n\n## " + "Another long one " * 10 + "\n\nx\n"
    with pytest.raises(InvalidParameterError, match="chunk_size=40: the longest heading path"):
        MarkdownSplitter(40, count_heading_path=True).split(text)


# --- generated Markdown -----------------------------------------------------------------------

BLOCKS = st.sampled_from(
    [
        "# Title\n",
        "## Section\n",
        "### Sub 3\n",
        "Setext\n------\n",
        "Plain words here. And more words.\n",
        "中文句子。第二句！\n",
        "```\ncode line\n# not a heading\n```\n",
        "~~~py\nx = 1\n~~~\n",
        "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n",
        "- item one\n- item two\n  - nested\n",
        "1. first\n2. second\n",
        "> quoted text\n> ## quoted heading\n",
        "- An item. Its second sentence.\n\n  ```\n  code in an item\n  ```\n  - nested\n",
        "> | q | t |\n> |---|---|\n> | 1 | 2 |\n",
        "> - quoted item\n> - another\n>\n> After the list.\n",
        "- item\n\n   a paragraph three spaces in\n",
        "<div>\nhtml\n</div>\n",
        "***\n",
        "    indented code\n",
        "👩‍👩‍👧 e\u0301 emoji line\n",
        "[ref]: /x\n",
        "\n",
    ]
)
MARKDOWN = st.lists(
    st.tuples(BLOCKS, st.sampled_from(["\n", "\r\n", "\r", "\n\n"])), max_size=25
).map(
    lambda parts: "".join(
        block.replace("\n", ending) if ending in ("\r\n", "\r") else block + ending
        for block, ending in parts
    )
)


def _blocks_both_ways(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """The blocks placed on their lines by numpy (every document, however few its blocks,
    in batches of three) are those placed one by one without it."""
    with monkeypatch.context() as patch:
        patch.setattr(markdown_boundaries, "VECTOR_MIN_BLOCKS", 0)
        patch.setattr(markdown_boundaries, "_VECTOR_BATCH", 3)
        vectorised = _blocks(text)
    with monkeypatch.context() as patch:
        patch.setattr(markdown_boundaries, "optional_numpy", lambda: None)
        one_by_one = _blocks(text)
    assert vectorised == one_by_one


def assert_blocks_nest(text: str) -> None:
    """Every block lies on whole lines within the block holding it, and the blocks one holds
    follow one another without overlapping."""
    layout = MarkdownLayout(text)
    tree, body_start = layout.tree, layout.body_start
    starts, ends = tree.starts, tree.ends
    boundaries = {0, body_start, len(text), *line_ending_ends(text)}
    for block in range(len(tree.kinds)):
        assert starts[block] in boundaries and ends[block] in boundaries, block
        assert body_start <= starts[block], block
        parent = tree.parents[block]
        assert starts[parent] <= starts[block] <= ends[block] <= ends[parent], block
        kids = list(tree.children(block))
        for before, after in itertools.pairwise(kids):
            assert ends[before] <= starts[after], (before, after, _blocks(text))


@given(MARKDOWN, st.sampled_from(["", "\ufeff", "---\na: 1\n---\n", "\ufeff---\na: 1\n...\n"]))
def test_blocks_are_placed_the_same_with_and_without_numpy(text: str, head: str) -> None:
    assert_blocks_nest(head + text)
    with pytest.MonkeyPatch.context() as monkeypatch:
        _blocks_both_ways(monkeypatch, head + text)
        ascii_only = "".join(c if c.isascii() else "x" for c in head + text)
        _blocks_both_ways(monkeypatch, ascii_only)


@pytest.mark.parametrize(
    "text",
    [
        HANDBOOK,
        RIVER_LOG,
        "\ufeff" + HANDBOOK.replace("\n", "\r\n"),
        "\ufeff中文句子。\n\n# 标题\n\n- 一\n- 二\n",  # a block at the body's first byte
    ],
)
def test_blocks_of_the_samples_are_placed_the_same_with_and_without_numpy(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    _blocks_both_ways(monkeypatch, text)


# --- a long document is parsed a stretch at a time ------------------------------------------

LINKING_BLOCKS = st.sampled_from(
    [
        "# See [ref] and [^n]\n",
        "### [Ref][] ![image][ref]\n",
        "Setext [ref]\n===\n",
        "[^n]: a note\n    more of the note\n",
        "[Ref]:\n  /multi-line\n  'title'\n",
        "- item\n\n  [ref]: /in-an-item\n",
        "```\n[ref]: /in-code\n```\n",
        "<!-- open\n",
        "-->\n",
        "<pre>\n",
        "</pre>\n",
        "2. second\n",
        "  continued lazily\n",
        "===\n",
        "---\n",
        "> ",
        "# [ ^n] [a\\ ] [^m]\n",
        "[ ^n]: /caret\n",
        "[a\\ ]: /backslash\n",
        "\t[^m]: /after-a-definition\n",
        "see [ref]\n",
        "-\n",
        "\t>\n",
    ]
)
LONG_MARKDOWN = st.lists(
    st.tuples(st.one_of(BLOCKS, LINKING_BLOCKS), st.sampled_from(["\n", "\r\n", "\r"])),
    max_size=40,
).map(lambda parts: "".join(block.replace("\n", ending) for block, ending in parts))


def _read_in_stretches(text: str, stretch: int) -> tuple[list[object], list[Heading]]:
    """The blocks and sections of ``text`` parsed about ``stretch`` code points at a time."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown_boundaries, "STRETCH_CHARS", stretch)
        return _blocks(text), list(MarkdownLayout(text).headings)


@given(LONG_MARKDOWN, st.integers(1, 120))
# A definition whose paragraph goes on: the list's range ends where the paragraph starts
@example("~~~py\n~~~\n2. second\n\n[Ref]:\n</pre>\nx = 1\n", 8)
@example("```\n```\n1) one\n\n[Ref]:\n  'title'\n</pre>\n", 8)
@example("# See [ref] and [^n]\n" + "words\n\n" * 20 + "[ref]: /x\n\n[^n]: note\n", 16)
# Labels that start with ^ or end with a backslash, and one after a definition
@example("# [ ^n]\n\nx\n\n[ ^n]: /y\n", 1)
@example("# [^m]\n\nx\n\n[r]: /u\n\t[^m]: /v\n", 1)
@example("# [a\\ ]\n\nx\n\n[a\\ ]: /y\n", 1)
# Setext headings whose first line would start a list or a quote by itself
@example("x\n\ny\n\n[r]: /u\n2.\nsee [r]\n===\n", 1)
@example("x\n\ny\n\n[r]: /u\n-\nsee [r]\n---\n", 1)
@example("x\n\ny\n\n[r]: /u\n\t>\nsee [r]\n===\n", 1)
# A label across the lines of a quote; a footnote's label ending in a backslash; labels
# pulldown-cmark's Unicode folds together but Python 3.11's does not
@example("> [a\n> b]\n> =\n\nx\n\n[a b]: u\n", 1)
@example("- > [a\n  > b]\n  > ===\n\nx\n\ny\n\n[a b]: /u\n", 3)
@example("# [^\\ ]\n\nx\n\n[^\\ ]: n\n", 1)
@example("# [\ua7cb]\n\nx\n\n[\u0264]: u\n", 1)
# Labels that Python's whitespace makes one but the parser's does not (a no-break space)
@example("# [a b]\n\nx\n\n[a\xa0b]: /n\n\n[a b]: /s\n", 1)
# A '>' on a continuation line that is the label's own, not a quote's marker
@example("[a\n    > b]\n===\n\nx\n\n[a > b]: /u\n", 1)
# A footnote and a link defined with one label, which the heading uses as a link's
@example("[^n]: a note\n# [ ^n]\n[ ^n]: /caret\n\n# Title\n", 1)
# A heading parsed by itself, and one in a quote parsed with its stretch
@example("> ### [ref]\n# See [ref] and [^n]\n\n[Ref]:\nSetext\n[^n]: a note\n", 8)
def test_a_document_parsed_a_stretch_at_a_time_has_the_blocks_of_one_parse(
    text: str, stretch: int
) -> None:
    assert _read_in_stretches(text, stretch) == _read_in_stretches(text, len(text) + 1)


@pytest.mark.parametrize("stretch", [1, 16, 64, 300])
@pytest.mark.parametrize("text", [HANDBOOK, RIVER_LOG, HANDBOOK.replace("\n", "\r\n")])
def test_the_samples_parsed_a_stretch_at_a_time_have_the_blocks_of_one_parse(
    text: str, stretch: int
) -> None:
    assert _read_in_stretches(text, stretch) == _read_in_stretches(text, len(text) + 1)


def test_a_heading_links_to_a_definition_in_another_stretch() -> None:
    text = "# The [gauge] and [^n]\n\n" + "Words.\n\n" * 40 + "[Gauge]: /g\n\n[^n]: A note.\n"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown_boundaries, "STRETCH_CHARS", 16)
        assert MarkdownLayout(text).headings[0].text == "The gauge and"
    assert MarkdownLayout(text.replace("[Gauge]: /g", "")).headings[0].text == "The [gauge] and"


@pytest.fixture
def given_lengths(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of each text given to the parser from now on, in order."""
    lengths: list[int] = []
    add_events = markdown_boundaries._add_events

    def recording(reading: object, markdown: str, byte_base: int, *going_on: object) -> object:
        lengths.append(len(markdown))
        return add_events(reading, markdown, byte_base, *going_on)  # type: ignore[arg-type]

    monkeypatch.setattr(markdown_boundaries, "_add_events", recording)
    return lengths


def test_a_long_document_reaches_the_parser_a_stretch_at_a_time(given_lengths: list[int]) -> None:
    """The parser holds every event of what it is given (32 bytes each): a megabyte of
    one-letter paragraphs given whole took 32 times the text."""
    text = "a\n\n" * 100_000
    layout = MarkdownLayout(text)
    assert len(layout.root.children) == 100_000
    assert max(given_lengths) < markdown_boundaries.STRETCH_CHARS + 8
    assert sum(given_lengths) < 1.01 * len(text)


@pytest.mark.parametrize(
    "unit",
    [
        "# a\n## b\n",
        "## Release 1.0\nFixed a leak.\n",
        "## Notes\n```\n# a comment\n```\n",
        "```\n",
        "~~~ py\nx = 1\n~~~\nText after it.\n",
        "```\n```\n> a quote\n",
        "- item\n```\n",
    ],
)
def test_headings_or_fences_with_no_blank_line_between_reach_the_parser_a_stretch_at_a_time(
    given_lengths: list[int], unit: str
) -> None:
    """A stretch ended only after a blank line: a run of headings with none between them
    (a generated outline, a changelog) was parsed whole, and the parser's events for a
    megabyte of ``# a`` lines took 31 times the text; then, ending before a heading too,
    fenced code blocks one after another (a megabyte of fence lines: 13-16 times the text
    at the peak, most of it the parser's)."""
    text = unit * (300_000 // len(unit))
    assert _read_in_stretches(text, markdown_boundaries.STRETCH_CHARS) == _read_in_stretches(
        text, len(text) + 1
    )
    given_lengths.clear()
    MarkdownLayout(text)
    assert max(given_lengths) < markdown_boundaries.STRETCH_CHARS + 64
    assert sum(given_lengths) < 1.01 * len(text)


@pytest.mark.parametrize(
    "unit",
    ["## Release\n- a fix\n- another\n\n", "Changes:\n- a fix\n\n", "[^n]: a note\n\n"],
)
def test_a_stretch_ends_after_a_list_whose_range_ends_in_a_blank_line(
    given_lengths: list[int], unit: str
) -> None:
    """A list's (or a footnote's) range goes on over the blank line after it: with no
    blank line between it and the next block, a changelog was parsed whole."""
    text = unit * (300_000 // len(unit))
    whole = _read_in_stretches(text, len(text) + 1)
    given_lengths.clear()
    assert _read_in_stretches(text, markdown_boundaries.STRETCH_CHARS) == whole
    assert max(given_lengths) < markdown_boundaries.STRETCH_CHARS + 64


LIST_LINES = st.sampled_from(
    [
        "- an item\n",
        "- [a link](https://example.org) and words\n",
        "- see [ref]\n",
        "  a line of the item\n",
        "a lazy line\n",
        "  - a nested item\n",
        "- ```\n",
        "  code\n",
        "  ```\n",
        "* another bullet\n",
        "1. ordered\n",
        "# A heading\n",
        "> a quote\n",
        "\n",
        "-\n",
        "- - -\n",
        "- a | b\n",
        "- | -\n",
        "a | b\n",
        "===\n",
        "    indented\n",
        "[ref]: /url\n",
        "- <div>\n",
        "- an item\r\n",
    ]
)
LONG_LISTS = st.lists(
    st.one_of(st.just("- an item\n"), st.just("- an item\n"), LIST_LINES), min_size=1, max_size=300
).map("".join)


def _container_cuts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Where a stretch ended inside a quote or list, from now on (see _container_cut)."""
    cuts: list[int] = []
    container_cut = markdown_boundaries._container_cut

    def recording(*args: object) -> object:
        found = container_cut(*args)  # type: ignore[arg-type]
        if found is not None:
            cuts.append(found.at)
        return found

    monkeypatch.setattr(markdown_boundaries, "_container_cut", recording)
    return cuts


@given(LONG_LISTS, st.sampled_from([4, 8, 16, 64]))
# A table's delimiter row, a thematic break, an empty item and a blank line in the list
@example("- an item\n" * 20 + "- | -\n" + "- an item\n" * 20, 4)
@example("a | b\n" + "- an item\n" * 30, 4)
@example("- an item\n" * 20 + "- - -\n" + "- an item\n" * 20, 4)
@example("- an item\n" * 30 + "\n-\n", 4)
@example("- an item\n" * 30 + "\n- an item\n", 4)
@example("- an item\n" * 30 + "\n  a line of the item\n", 4)
def test_a_long_list_parsed_a_stretch_at_a_time_has_the_blocks_of_one_parse(
    text: str, stretch: int
) -> None:
    assert _read_in_stretches(text, stretch) == _read_in_stretches(text, len(text) + 1)


@pytest.mark.parametrize(
    "text",
    [
        "- an item\n" * 40_000 + "\n- a loose item after it\n",
        "- an item\n" * 40_000 + "\n  the item goes on\n",
        "1. an item\n" * 40_000 + "\n2. a loose item after it\n",
        "> - an item\n" * 40_000 + ">\n> - a loose item after it\n",
        "> - an item\n" * 20_000 + ">\n" + "> - an item\n" * 20_000,
        "- a loose item\n\n" * 2 + "- an item\n" * 40_000,
    ],
)
def test_a_list_tight_in_one_part_and_loose_in_another_is_parsed_whole(
    text: str, given_lengths: list[int]
) -> None:
    """Its items hold their text bare where it is tight, in paragraphs where it is loose:
    parsed in stretches, the parts disagree, and the whole is parsed again at once."""
    whole = _read_in_stretches(text, len(text) + 1)
    given_lengths.clear()
    assert _read_in_stretches(text, markdown_boundaries.STRETCH_CHARS) == whole
    assert max(given_lengths) > len(text) - 64


@pytest.mark.parametrize(
    "text",
    [
        "# Links\n\n" + "- [an item](https://example.org) with words\n" * 25_000 + "\nThe end.\n",
        "1. an item\n" * 40_000,  # ordered
        "> - an item\n" * 40_000 + "\n> - a list after the quote\n",  # in a quote
        "  * an item\n" * 40_000,  # indented
        ("> " * 40 + "- " * 40 + "item text\n") * 2_400,  # deep
        "> a paragraph of a long quote\n>\n" * 20_000,
        "> # A heading\n> > a line\n> > > deeper\n" * 14_000,
        "- a loose item\n\n" * 30_000,
        "> 1. a loose item\n>\n" * 30_000,
    ],
)
def test_a_long_quote_or_list_is_cut_at_a_line_inside_it(
    text: str, monkeypatch: pytest.MonkeyPatch, given_lengths: list[int]
) -> None:
    """One top-level block was parsed whole: a megabyte of short list items took 6 times
    the text at its peak, deep nesting 34 times, a loose list 10 times."""
    whole = _read_in_stretches(text, len(text) + 1)
    given_lengths.clear()
    cuts = _container_cuts(monkeypatch)
    assert _read_in_stretches(text, markdown_boundaries.STRETCH_CHARS) == whole
    assert len(cuts) >= 2 * 2  # (two parses: the blocks, then the headings)
    assert max(given_lengths) < 4 * markdown_boundaries.STRETCH_CHARS + 64
    assert sum(given_lengths) < 2 * 1.1 * len(text)


NESTED_LINES = st.tuples(
    st.sampled_from(["> ", "> > ", ">", "> - ", "- ", "> 1. ", " > * "]),
    st.lists(
        st.tuples(
            st.booleans(),
            st.lists(
                st.sampled_from(["> ", ">", " > ", "- ", "* ", "1. ", "  ", "\t"]), max_size=4
            ),
            st.sampled_from(
                ["text", "# heading", "```", "---", "a | b", "| - |", "===", "", "[r]"]
            ),
            st.sampled_from(["\n", "\r\n", "\r"]),
        ),
        min_size=30,
        max_size=200,
    ),
).map(
    lambda drawn: "".join(
        (drawn[0] if shared else "") + "".join(marks) + rest + end
        for shared, marks, rest, end in drawn[1]
    )
)
"""Lines of quotes and lists, most of them inside the same few."""


@given(NESTED_LINES, st.sampled_from([1, 2, 4, 8, 16, 64]))
@example("> - a\n" * 30 + ">\n> - b\n", 4)
@example("> > a\n" * 30 + "> > ===\n", 4)
@example("> - a\n" * 30 + "- b\n", 4)
# A tab before '>' is a quote's marker after a paragraph only: alone, it indents code
@example(
    "> > > text\n > *  > > > > text\n> > text\n\t> > > text\n"
    + "text\n" * 12
    + "* text\ntext\n\ntext\ntext\n",
    1,
)
# Loose where items hold no text bare (quotes), which the part after cannot show
@example("text\n" * 23 + "- > text\n\n- > text\n- text\n\ntext\ntext\n", 1)
# A link definition's title over many lines of a quote: no block starts inside it
@example("> x\n>\n> [r]: /u\n> 'a\n" + "> b\n" * 9 + "> c'\n> z\n", 16)
# A list a stretch went on with ends at the next block, past the blank lines after it
@example("- item\n\n- item\n\n-\n\n [ref]:\n /u\n", 1)
def test_nested_quotes_and_lists_parsed_a_stretch_at_a_time_have_the_blocks_of_one_parse(
    text: str, stretch: int
) -> None:
    assert _read_in_stretches(text, stretch) == _read_in_stretches(text, len(text) + 1)


@pytest.mark.parametrize(
    ("used", "defined"),
    [
        ("Foo  Bar", "foo bar"),
        ("a\n> > b", "A B"),  # a label across the lines of nested quotes
        ("a\n    > b", "a > b"),  # a continuation line's '>' that is the label's own
        ("\ua7cb", "\u0264"),  # a case pair of Unicode 16
        ("\u1c89x", "\u1c8aX"),
    ],
)
def test_a_label_has_the_key_of_every_label_it_may_match(used: str, defined: str) -> None:
    assert markdown_boundaries._label_key(used) == markdown_boundaries._label_key(defined)


def test_every_case_pair_of_the_parser_has_one_key() -> None:
    """Where this Python's Unicode knows no case pair for a character (unassigned here, or
    a letter without one), the parser may have one: each such character is defined and
    used as a label, among the letters without a pair, and wherever the parser links a
    use to another character's definition, the two have one key."""
    import pyromark

    def unknown(character: str) -> bool:
        category = unicodedata.category(character)
        return category == "Cn" or (
            category in ("Ll", "Lu", "Lt") and character.upper() == character.lower()
        )

    every = [chr(c) for c in range(0x80, 0x30000) if not 0xD800 <= c < 0xE000]
    candidates = [character for character in every if unknown(character)]
    letters = [character for character in candidates if unicodedata.category(character) != "Cn"]
    parser = pyromark.Markdown()
    key = markdown_boundaries._label_key
    linked = 0
    for offset in (0, 128):  # windows of 256 and the same moved by half: no pair missed
        for first in range(-offset, len(candidates), 256):
            window = candidates[max(first, 0) : first + 256]
            pool = list(dict.fromkeys(["\u00c9", "\u00e9", *letters, *window]))  # É é: a check
            document = "".join(f"[{c}]: /{i}\n" for i, c in enumerate(pool))
            document += "\n" + "\n\n".join(f"[{c}]" for c in pool) + "\n"
            used = 0
            for event, _ in parser.events_with_range(document):
                if event == {"Start": "Paragraph"}:
                    used += 1
                elif "Start" in event and type(event["Start"]) is dict and "Link" in event["Start"]:
                    defined = pool[int(event["Start"]["Link"]["dest_url"][1:])]
                    if defined != pool[used - 1]:
                        linked += 1
                        assert key(defined) == key(pool[used - 1]), (defined, pool[used - 1])
    assert linked > 75  # É and é in every window, and the 75 pairs of pyromark 0.10.3


@pytest.mark.parametrize("unit", ["# a\n", "> # a\n", "a\n=\n", "# a\n## b\n### c\n"])
def test_a_run_of_headings_is_cut_between_them_once(
    unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Headings with no block after them to go with are cut between them all, and packed
    together up to the budget: a run of them was cut before its last heading only, then
    again in what was left, once per heading (time quadratic in the run: 37 s for 4,000
    three-level stacks), and most headings were a chunk alone."""
    text = unit * 2000
    calls = 0
    block_cuts = MarkdownLayout.block_cuts

    def counted(self: MarkdownLayout, *args: Any) -> list[int]:
        nonlocal calls
        calls += 1
        return block_cuts(self, *args)

    monkeypatch.setattr(MarkdownLayout, "block_cuts", counted)
    chunks = MarkdownSplitter(200, 20).split(text)
    check_chunks(text, chunks, 200, len, overlap=20)
    assert calls < 100
    assert len(chunks) < 2 * len(text) / 200


def test_a_label_spelt_many_ways_is_defined_once(given_lengths: list[int]) -> None:
    """Each heading used to be parsed again after every definition whose label differs
    from its own in spaces or case only (here 4,096: the parser reads those with other
    spaces as other labels, those in capitals as its own)."""
    label = "abcdefghijkl"

    def spelling(number: int) -> str:
        spaced = (c + " " * (number >> k & 1) for k, c in enumerate(label))
        return "".join(spaced).strip().upper() if number % 2 else "".join(spaced).strip()

    text = "".join(f"[{spelling(i)}]: /u\n\n> # h [{label}]\n\n" for i in range(4096))
    texts = [text for kind, *_, text in _blocks(text) if kind == "heading"]
    assert set(texts) == {f"h {label}"}
    assert sum(given_lengths) < 2.5 * len(text)


def test_headings_are_parsed_again_with_only_the_definitions_they_use(
    given_lengths: list[int],
) -> None:
    """Parsed again after every definition of the document, the headings of a stretch
    cost as many parses of the definitions as there are stretches."""
    text = "".join(f"[def{i}]: /u\n\n> # item [def{i}]\n\n" for i in range(30_000))
    texts = [text for kind, *_, text in _blocks(text) if kind == "heading"]
    assert texts[::9999] == [f"item def{i}" for i in range(0, 30_000, 9999)]
    assert sum(given_lengths) < 2.5 * len(text)


@given(MARKDOWN, st.integers(8, 200), st.data())
def test_generated_markdown_keeps_every_promise(text: str, size: int, data: st.DataObject) -> None:
    overlap = data.draw(st.integers(0, size // 3))
    measure = data.draw(st.sampled_from([None, toy_tokens]))
    splitter = MarkdownSplitter(size, overlap, length=measure)
    chunks = splitter.split(text)
    check_chunks(text, chunks, size, len if measure is None else measure, overlap=overlap)
    assert chunks == splitter.split(text)  # deterministic
    for chunk in chunks:
        start, end = chunk.metadata["section"]
        assert start <= chunk.start and chunk.end <= end
    assert_overlap_stays_in_its_section(text, chunks)
    measured = len if measure is None else measure
    assert_no_chunk_ends_on_a_heading(text, chunks, size, measured)
    assert_units_that_fit_are_whole_and_overlap_starts_outside_them(text, chunks, measured, size)


@given(MARKDOWN, st.integers(8, 200), st.data())
def test_unmerged_sections_start_a_chunk_at_every_heading(
    text: str, size: int, data: st.DataObject
) -> None:
    """With ``merge_sections=False`` every promise holds, no chunk holds text from both
    sides of a heading, the first chunk at or after each heading starts on its line, and
    a chunk's metadata names the innermost section holding its start."""
    overlap = data.draw(st.integers(0, size // 3))
    measure = data.draw(st.sampled_from([None, toy_tokens]))
    splitter = MarkdownSplitter(size, overlap, length=measure, merge_sections=False)
    chunks = splitter.split(text)
    check_chunks(text, chunks, size, len if measure is None else measure, overlap=overlap)
    assert_overlap_stays_in_its_section(text, chunks)
    layout = MarkdownLayout(text)
    starts = layout.heading_starts
    for chunk in chunks:
        assert not [h for h in starts if chunk.start < h < chunk.end], chunk
        if chunk.kind == "front_matter":
            continue
        index = bisect_right(starts, chunk.start) - 1
        while index >= 0 and layout.headings[index].end <= chunk.start:
            index = layout.headings[index].parent
        path = [h.text for h in layout.heading_path(index)] if index >= 0 else []
        assert [h["text"] for h in chunk.metadata["headings"]] == path, chunk
    for heading in layout.headings:
        first = next((c for c in chunks if c.start >= heading.start), None)
        assert first is not None and not text[heading.start : first.start].strip(), heading


def test_unmerged_sections_are_one_chunk_each_as_the_frameworks_give_them() -> None:
    """LangChain's MarkdownHeaderTextSplitter and LlamaIndex's MarkdownNodeParser return one
    chunk per section (a heading with nothing under it alone); merged, small sections
    share a chunk named by the section holding it whole (here the document: no name)."""
    text = "# A\n\nintro\n\n## B\n\nbee text\n\n### C\n\n## Bare\n\n# D\n\ndee\n"
    merged = MarkdownSplitter(1000).split(text)
    assert [(c.text, c.metadata["headings"]) for c in merged] == [(text.strip(), [])]
    separate = MarkdownSplitter(1000, 10, merge_sections=False).split(text)
    assert [c.text for c in separate] == [
        "# A\n\nintro",
        "## B\n\nbee text",
        "### C",
        "## Bare",
        "# D\n\ndee",
    ]
    assert [[h["text"] for h in c.metadata["headings"]] for c in separate] == [
        ["A"],
        ["A", "B"],
        ["A", "B", "C"],
        ["A", "Bare"],
        ["D"],
    ]
    shortcut = split_markdown(text, 1000, 10, merge_sections=False)
    assert [(c.start, c.end) for c in shortcut] == [(c.start, c.end) for c in separate]
    with pytest.raises(ParameterTypeError, match="merge_sections"):
        MarkdownSplitter(100, merge_sections="no")  # type: ignore[arg-type]


def assert_units_that_fit_are_whole_and_overlap_starts_outside_them(
    text: str, chunks: list[Chunk], measure: Callable[[str], int], size: int
) -> None:
    """A fence, table, HTML block or list item that fits is inside one chunk; no overlap
    starts inside a fence, a table or an HTML block (past its first line's indentation)."""
    blocks, stack = [], [MarkdownLayout(text).root]
    while stack:
        block = stack.pop()
        stack += block.children
        if block.kind in ("code", "table", "html", "item"):
            blocks.append(block)
    for block in blocks:
        if measure(text[block.start : block.end].strip()) <= size:
            assert any(c.start <= block.start + 3 and block.end - 1 <= c.end for c in chunks) or (
                not text[max(c.end for c in chunks) : block.end].strip()
            ), (block, chunks)
    for before, after in itertools.pairwise(chunks):
        if after.start < before.end:
            for block in blocks:
                if block.kind != "item" and block.start < after.start < block.end:
                    assert not text[block.start : after.start].strip(), (block, before, after)


DEFINITION = re.compile(r" {0,3}\[[^\]]+\]:")
"""The start of a line that starts a link reference definition (no block: kept whole)."""


def assert_no_chunk_ends_on_a_heading(
    text: str, chunks: list[Chunk], size: int, measure: Callable[[str], int]
) -> None:
    """No chunk but the last ends on a heading's lines, unless no text of its own can
    follow them (another heading comes next, or nothing, or the end of the block quote
    or list item it is the last block of), or those lines (and any headings right after
    them) and the word after them are over the budget together (then they must be cut
    somewhere), or the next chunk starts a section or a block other than a paragraph
    (kept whole where it fits) and the two chunks are over the budget together."""
    layout = MarkdownLayout(text)
    lines = layout.heading_lines
    bodiless = [
        (start, end)
        for (start, end), following in zip(lines, [*(s for s, _ in lines[1:]), len(text)])
        if not text[end:following].strip()
    ]
    unit_starts = {start for start, _ in lines}
    containers = [layout.root]
    while containers:
        block = containers.pop()
        kids = list(block.children)
        containers += kids
        unit_starts.update(kid.start for kid in kids if kid.kind != "paragraph")
        if block is not layout.root and kids and kids[-1].kind == "heading":
            bodiless.append((kids[-1].start, kids[-1].end))

    def on_heading(start: int, end: int) -> bool:
        return any(a < end and start < b for a, b in layout.heading_lines)

    words = word_spans(text, 0, len(text))
    for chunk, following in itertools.pairwise(chunks):
        if any(start <= chunk.end - 1 < end for start, end in bodiless):
            continue
        line_start = max(text.rfind("\n", 0, following.start), text.rfind("\r", 0, following.start))
        unit = line_start + 1 in unit_starts or DEFINITION.match(text, line_start + 1)
        if unit and (measure(text[chunk.start : following.end]) > size):
            continue
        if on_heading(chunk.end - 1, chunk.end):
            first = last = next(i for i, w in enumerate(words) if w[0] <= chunk.end - 1 < w[1])
            while first > 0 and on_heading(*words[first - 1]):
                first -= 1
            while last + 1 < len(words) and on_heading(*words[last]):
                last += 1
            # A quote's markers (">") go with the word after them.
            while last + 1 < len(words) and not text[slice(*words[last])].strip(" \t\r\n>"):
                last += 1
            glued = text[words[first][0] : words[last][1]].strip()
            assert measure(glued) > size, (chunk, glued)


def assert_overlap_stays_in_its_section(text: str, chunks: list[Chunk]) -> None:
    """No chunk's overlap reaches back across a section's heading: the new text of a chunk
    (from the previous chunk's end on) has no heading before it inside the chunk."""
    starts = [heading.start for heading in MarkdownLayout(text).headings]
    for before, after in itertools.pairwise(chunks):
        if after.start < before.end:
            crossed = [h for h in starts if after.start < h and not text[before.end : h].strip()]
            assert not crossed, (before, after, crossed)


SECTIONS = (
    "# Guide\n\n"
    "Install the tool first.\n\n"
    "## Linux\n\n"
    "Use the package manager. Check the version.\n\n"
    "## Windows\n\n"
    "Use the installer. Restart the shell.\n"
)


def test_a_link_reference_definition_after_a_heading_is_cut_at_its_line() -> None:
    # The parser reports no block for "[ref]: /x", so it is a part of its own; it must not
    # leave the heading at the end of a chunk with other text (found by the property test
    # below), and where it fits alone it is not cut between its label and destination.
    text = "# Title\n\n[ref]: /x\n\n"
    chunks = split_markdown(text, 15)
    assert [c.text for c in chunks] == ["# Title", "[ref]: /x"]
    assert_no_chunk_ends_on_a_heading(text, chunks, 15, len)
    chunks = split_markdown(text, 8)
    assert [c.text for c in chunks] == ["# Title", "[ref]:", "/x"]  # (it does not fit)
    assert_no_chunk_ends_on_a_heading(text, chunks, 8, len)


@pytest.mark.parametrize(
    ("text", "size", "expected"),
    [
        # a table of one row over budget: its header apart from its row
        (
            "Intro.\n\n| gamma | iota theta mu |\n|---|---|\n| lambda zeta iota | kappa gamma |\n",
            39,
            [
                "Intro.",
                "| gamma | iota theta mu |\n|---|---|",
                "| lambda zeta iota | kappa gamma |",
            ],
        ),
        # a header row that fits alone, not with the delimiter row: the delimiter row goes
        # with the first row
        (
            "| Name | Description of the column here |\n|---|---|\n| a | b |\n| c | d |\n",
            45,
            ["| Name | Description of the column here |", "|---|---|\n| a | b |", "| c | d |"],
        ),
        (
            "# A\n\n| a | b |\n|---|---|\n| c | d |\n",
            12,
            ["# A", "| a | b |", "|---|---|", "| c | d |"],
        ),
        # a fence with its first (last) line over budget: cut at the line, not the words
        (
            "```python\nx = compute(alpha, beta)\ny = 2\n```\n",
            33,
            ["```python", "x = compute(alpha, beta)", "y = 2\n```"],
        ),
        (
            "```\nshort();\nlet alpha = beta + gamma;\n```\n",
            28,
            ["```\nshort();", "let alpha = beta + gamma;", "```"],
        ),
        # a fence with one line between its fences that does not fit with them: apart
        ("```\nplain fenced text\n```\n", 17, ["```", "plain fenced text", "```"]),
        (
            "Intro.\n\n```\nplain fenced text\n```\n",
            20,
            ["Intro.", "```", "plain fenced text", "```"],
        ),
        # a definition over budget, its title on a line of its own: at that line
        (
            "[a b]: <http://e.x/a b>\n  'title here'\n",
            32,
            ["[a b]: <http://e.x/a b>", "'title here'"],
        ),
        # link reference definitions: at their lines
        (
            "[rust]: https://www.rust-lang.org/learn\n[cargo]: https://doc.rust-lang.org/cargo/\n",
            60,
            [
                "[rust]: https://www.rust-lang.org/learn",
                "[cargo]: https://doc.rust-lang.org/cargo/",
            ],
        ),
        (
            "Text.\n\n[rust]: https://www.rust-lang.org/learn\n[cargo]: https://doc.rust-lang.org/cargo/\n",
            60,
            [  # (a runt before the definitions that had to be split goes with the first)
                "Text.\n\n[rust]: https://www.rust-lang.org/learn",
                "[cargo]: https://doc.rust-lang.org/cargo/",
            ],
        ),
    ],
)
def test_rows_lines_and_definitions_that_fit_are_not_cut_at_their_words(
    text: str, size: int, expected: list[str]
) -> None:
    chunks = split_markdown(text, size)
    assert [c.text for c in chunks] == expected
    assert all(text[c.start : c.end] == c.text and c.size <= size for c in chunks)


def test_a_chapter_introduction_goes_with_its_first_section_when_that_is_split() -> None:
    # The chapter is over the budget and so is its first section: the introduction (a
    # runt under a tenth of the budget) goes with the section's first part, as a title
    # before a split paragraph does, instead of standing alone inside the chapter.
    install = "Install words here and there. " * 6 + "\n\n" + "More install text goes on. " * 6
    text = (
        "# Guide\n\nShort intro.\n\n## Install\n\n"
        + install
        + "\n\n## Use\n\nUse it like this and that.\n\n# Other\n\nOther text.\n"
    )
    chunks = split_markdown(text, 300)
    assert chunks[0].text.startswith("# Guide\n\nShort intro.\n\n## Install\n\nInstall")
    assert all(10 * c.size >= 300 for c in chunks[:-1])
    assert all(text[c.start : c.end] == c.text and c.size <= 300 for c in chunks)


@pytest.mark.parametrize("size", [400, 600])
def test_a_short_item_beside_a_long_one_is_no_chunk_alone(size: int) -> None:
    # Node.js's API pages list a function's parameters, one of them an object whose options
    # fill a chunk, then what it returns. The items around that long one were chunks of
    # their own (at 400, "* Returns" under a tenth of the budget; at 600, the first two
    # items too); each now goes with the chunk beside it where they fit together.
    options = "".join(
        f"  * `option{n}` {{string}} What option {n} sets for the child.\n" for n in range(10)
    )
    text = (
        "## fork(path)\n\nStarts a child process that runs the module at the given path, "
        "with the arguments and the options given, and a channel to talk to it over.\n\n"
        "* `path` {string}\n* `args` {string[]}\n* `options` {Object}\n"
        + options
        + "* Returns: {ChildProcess}\n\n"
        "The child has its own memory and its own copy of the runtime, so start few of them.\n"
    )
    chunks = split_markdown(text, size)
    assert all(text[c.start : c.end] == c.text and c.size <= size for c in chunks)
    assert all(10 * c.size >= size for c in chunks[:-1]), [c.text for c in chunks]
    assert "* Returns: {ChildProcess}" not in [c.text for c in chunks]


@pytest.mark.parametrize("after", [6, 7])
def test_a_plain_text_title_goes_with_the_paragraph_after_it(after: int) -> None:
    # A chapter title (one line of its own, no sentence punctuation at its end) is moved to
    # the chunk after it where it fits with what follows; where it does not (a paragraph of
    # 98 characters, the budget 100), it ends the chunk before rather than stand alone.
    before, title, paragraph = (
        "海尔一直这样相信。" * 9,
        "第五章\u3000离开",
        "五月，局里找到了一位守护人。" * after,
    )
    text = f"{before}\n\n{title}\n\n{paragraph}"
    chunks = [c.text for c in RecursiveSplitter(100, 0).split(text)]
    if after == 6:
        assert chunks == [before, f"{title}\n\n{paragraph}"]
    else:
        assert chunks == [f"{before}\n\n{title}", paragraph]


def test_a_heading_goes_with_the_first_word_after_it_when_words_must_be_cut() -> None:
    # "## Head" with "Hello world." is over 16, so the section is cut between words: the
    # heading keeps the first word with it rather than stand alone (and "x", a runt, goes
    # with the chunk before it).
    chunks = split_markdown("## Head\n\nHello world.\n\nx", 16)
    assert [c.text for c in chunks] == ["## Head\n\nHello", "world.\n\nx"]
    with_overlap = split_markdown("Intro.\n\n## Head\n\nHello world.\n\nx", 16, 8)
    assert "## Head\n\nHello" in [c.text for c in with_overlap]
    assert not any(c.text.startswith("Head") for c in with_overlap)  # never inside the line


def test_overlap_never_starts_inside_a_code_block_or_a_table() -> None:
    fence = (
        "# Setup\n\nInstall the tool with the command below and check the version it "
        "prints.\n\n```sh\npip install tool\n# this line is a shell comment, not a heading\n"
        "```\n\nAfter that, run the first example from the tutorial and compare the output "
        "with the one shown there.\n"
    )
    table = (
        "# Prices\n\n| item | price | note |\n|---|---|---|\n"
        "| apple | 1.20 | per kilogram, from the local market |\n"
        "| pear | 2.10 | per kilogram, imported in winter months |\n\n"
        "Prices change every week; ask at the counter before you order a large amount.\n"
    )
    for text, size in ((fence, 40), (table, 60)):
        layout = MarkdownLayout(text)
        for chunk in MarkdownSplitter(size, 16, length="cl100k_base").split(text):
            holder = layout.holder(chunk.start, chunk.start + 1)
            starts_its_block = (
                holder.start == chunk.start or text[holder.start : chunk.start].isspace()
            )
            assert holder.kind not in ("code", "table", "row") or starts_its_block, chunk


def test_a_chunk_that_starts_a_section_repeats_nothing_before_it() -> None:
    first, windows = MarkdownSplitter(100, 40).split(SECTIONS)
    assert first.text.endswith("Check the version.")
    # Not "Check the version.\n\n## Windows...": the overlap would be the Linux section's,
    # and the chunk's heading path only "Guide".
    assert windows.text == "## Windows\n\nUse the installer. Restart the shell."
    assert headings_of(windows) == ["Guide", "Windows"]
    # Inside a section, chunks still overlap.
    long_section = "## Notes\n\n" + " ".join(f"Note {n} is here." for n in range(40))
    inside = MarkdownSplitter(80, 30).split(long_section)
    assert len(inside) > 3
    assert all(b.start < a.end for a, b in itertools.pairwise(inside))


# --- objects and errors ------------------------------------------------------------------------


def test_pickles_and_splits_the_same() -> None:
    splitter = MarkdownSplitter(100, 10, length="cl100k_base", count_heading_path=True)
    copy = pickle.loads(pickle.dumps(splitter))
    assert copy.split(HANDBOOK) == splitter.split(HANDBOOK)


@pytest.fixture
def no_pyromark(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real_import = builtins.__import__

    def refuse(name: str, *args: object, **kwargs: object) -> object:
        if name == "pyromark":
            raise ImportError("No module named 'pyromark'")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", refuse)
    yield


def test_without_the_extra_the_error_names_it(no_pyromark: None) -> None:
    with pytest.raises(ExtraNotInstalledError, match=r"pip install 'spansplit\[markdown\]'"):
        MarkdownSplitter(100)  # when it is made, not at its first text


def test_files_by_type_say_when_markdown_falls_back(no_pyromark: None) -> None:
    # The corpus job's chooser (the CLI's `auto`) splits Markdown by the separator preset
    # without the extra, and says so once, naming the extra.
    chooser = SplitterByFileType(100)
    note = r"without heading paths: .*pip install 'spansplit\[markdown\]'"
    with pytest.warns(UserWarning, match=note) as seen:
        for name in ("a.md", "b.md"):
            splitter = chooser(Document(HANDBOOK, name, {"source": name}))
    assert len(seen) == 1
    assert splitter.split(HANDBOOK)[0].metadata == {}  # no headings: the preset


def test_snapshot(snapshot) -> None:  # type: ignore[no-untyped-def]
    cases = {}
    for name, text in {"handbook": HANDBOOK, "river-log": RIVER_LOG}.items():
        for length, sizes in {"chars": (100, 400), "cl100k_base": (32, 128)}.items():
            for size in sizes:
                for overlap in (0, size // 5):
                    splitter = MarkdownSplitter(size, overlap, length=length)
                    cases[f"{name} {length} {size}+{overlap}"] = [
                        [c.start, c.end, c.size, c.kind, *headings_of(c)]
                        for c in splitter.split(text)
                    ]
    snapshot.check("markdown", cases)


# --- the corpus ---------------------------------------------------------------------------------

CORPUS_FOLDERS = [
    "markdown_docs/rust-lang-book/src",
    "markdown_docs/rust-lang-reference/src",
    "chinese/trpl-zh-cn/src",
    "mixed/react-docs-parallel",
    "mixed/crlf",
]


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("folder", "length", "size", "overlap"),
    corpus_cases(
        [
            (folder, *setting)
            for folder in CORPUS_FOLDERS
            for setting in [("chars", 500, 0), ("cl100k_base", 512, 0), ("cl100k_base", 256, 32)]
        ]
    ),
)
def test_corpus_documentation(folder: str, length: str, size: int, overlap: int) -> None:
    files = sorted(Path(corpus_path(folder)).rglob("*.md"))
    measure = len if length == "chars" else CL100K.count
    splitter = MarkdownSplitter(size, overlap, length=length)
    total = Verdict()
    for path in files:
        text = path.read_bytes().decode("utf-8")
        chunks = splitter.split(text)
        check_chunks(text, chunks, size, measure, overlap=overlap)
        total.add(
            judge(text, [(c.start, c.end) for c in chunks], [c.text for c in chunks], size, measure)
        )
    assert total.cut_blocks == 0, total.cut_examples[:3]
    assert total.crossing_overlaps == 0
    assert total.heading_ends <= total.chunks // 100, total.heading_examples[:3]
    assert (total.over_budget, total.inexact) == (0, 0)


def test_a_parser_that_does_not_merge_text_gives_the_same_chunks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # pyromark 0.9, the last release for Python 3.10, has no merge_text: its events split
    # a text run in several, which must make the same layout and chunks.
    pyromark = markdown_boundaries.load_pyromark()

    class OldMarkdown:
        def __init__(self, **settings: object) -> None:
            self.parser = pyromark.Markdown(**settings)

        def events_with_range(self, text: str) -> object:
            return self.parser.events_with_range(text, merge_text=False)

    class OldModule:
        Options = pyromark.Options
        Markdown = OldMarkdown

    extra = "\n# A *heading* with `code`\nand a line\n===\n\ntext &amp; more\n"
    text = sample("markdown.md") + extra
    expected = MarkdownSplitter(60).split(text)
    headings = [h.text for h in MarkdownLayout(text).headings]
    monkeypatch.setattr(markdown_boundaries, "load_pyromark", lambda: OldModule)
    assert [h.text for h in MarkdownLayout(text).headings] == headings
    assert MarkdownSplitter(60).split(text) == expected


RUST_FENCE = (
    '```rust\nfn main() {\n    let f = File::open("hello.txt");\n    if f.is_err() {\n'
    '        panic!("no file");\n    }\n}\n```\n'
)


def test_a_fence_too_big_is_cut_at_its_line_ends_whatever_punctuation_they_end_with() -> None:
    # A line ending in "{" (or starting with "}") was glued to the next as prose would be,
    # over the budget, then cut between words, inside a string.
    # A chunk that starts a line of code keeps the line's indentation where it fits.
    chunks = split_markdown(RUST_FENCE, 48)
    assert [c.text for c in chunks] == [
        "```rust\nfn main() {",
        '    let f = File::open("hello.txt");',
        'if f.is_err() {\n        panic!("no file");\n    }',  # (52 with it: over 48)
        "}\n```",
    ]
    assert all(RUST_FENCE[c.end] == "\n" for c in chunks)


@pytest.mark.parametrize(
    ("text", "size", "expected"),
    [
        (  # a sub-section that fits is not cut to keep its parent's heading with it
            "## Installation guide\n\n### Linux\n\nRun the installer.\n",
            32,
            ["## Installation guide", "### Linux\n\nRun the installer."],
        ),
        (  # nor a table that fits
            "## Second heading here with many words ##\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
            50,
            ["## Second heading here with many words ##", "| a | b |\n|---|---|\n| 1 | 2 |"],
        ),
        (  # nor a block quote that fits
            "Setext H2\n---------\n\n> ## Quoted heading\n> text in quote\n\nmore text here.\n",
            40,
            ["Setext H2\n---------", "> ## Quoted heading\n> text in quote", "more text here."],
        ),
        (  # a paragraph still gives the heading its first sentence
            "# T\n\nFirst sentence here. Second sentence is here. Third one too.\n",
            50,
            ["# T\n\nFirst sentence here. Second sentence is here.", "Third one too."],
        ),
    ],
)
def test_what_fits_alone_but_not_with_its_heading_is_kept_whole(
    text: str, size: int, expected: list[str]
) -> None:
    assert [c.text for c in split_markdown(text, size)] == expected


@pytest.mark.parametrize(
    ("text", "size", "expected"),
    [
        (  # a list item that fits, with its nested list, is not cut for the heading
            "## Options\n\n- `--verbose` prints every step. Use it when a build fails.\n"
            "  - default: off\n  - env: APP_VERBOSE=1\n",
            100,
            [
                "## Options",
                "- `--verbose` prints every step. Use it when a build fails.\n"
                "  - default: off\n  - env: APP_VERBOSE=1",
            ],
        ),
        (  # nor a table that fits, inside a block quote
            "## Limits\n\n> | key | value |\n> |---|---|\n> | cpu | 4 cores |\n"
            "> | memory | 16 GB |\n> | disk | 100 GB |\n",
            92,
            [
                "## Limits",
                "> | key | value |\n> |---|---|\n> | cpu | 4 cores |\n"
                "> | memory | 16 GB |\n> | disk | 100 GB |",
            ],
        ),
        (  # nor a fence that fits, inside a list item of its own
            "## Build\n\n- ```\n  make all\n  make install\n  make check\n  ```\n",
            56,
            ["## Build", "- ```\n  make all\n  make install\n  make check\n  ```"],
        ),
        (  # a list of several items that fits gives the heading its first items
            "## Steps\n\n- Download the archive.\n- Unpack it.\n- Run the installer.\n",
            48,
            ["## Steps\n\n- Download the archive.\n- Unpack it.", "- Run the installer."],
        ),
        (  # and its first item apart where the heading and that item are over the budget
            "## Steps\n\n- Download the archive from the site.\n- Unpack it.\n",
            40,
            ["## Steps", "- Download the archive from the site.", "- Unpack it."],
        ),
        (  # nor a fence after a heading in a quote in a quote (cut between its lines)
            "> x\n>\n> > # Heading\n> > ```\n> > line one\n> > line two\n> > ```\n",
            45,
            # ("> x", a runt, goes with the first part of the quote that had to be split)
            ["> x\n>\n> > # Heading", "> > ```\n> > line one\n> > line two\n> > ```"],
        ),
        (  # nor a table there (cut inside a row)
            "> x\n>\n> > # A heading that is long\n> > | h |\n> > |---|\n> > | r |\n",
            40,
            ["> x\n>\n> > # A heading that is long", "> > | h |\n> > |---|\n> > | r |"],
        ),
        (  # nor its header row from its delimiter row
            ">\n> > # A heading that is long\n> > | h |\n> > |---|\n",
            40,
            [">\n> > # A heading that is long", "> > | h |\n> > |---|"],
        ),
        (  # the innermost of stacked headings that fit with the block go with it
            "# Top heading\n\n## Sub heading\n\n```\ncode line one\n```\n\nmore text here after.\n",
            50,
            ["# Top heading", "## Sub heading\n\n```\ncode line one\n```", "more text here after."],
        ),
        (
            "# Top\n\n## Sub heading\n\n### Third\n\n- an item that fits with two headings\n",
            70,
            ["# Top", "## Sub heading\n\n### Third\n\n- an item that fits with two headings"],
        ),
    ],
)
def test_a_list_item_table_or_fence_that_fits_is_never_cut_for_its_heading(
    text: str, size: int, expected: list[str]
) -> None:
    chunks = split_markdown(text, size)
    assert [c.text for c in chunks] == expected
    assert_no_chunk_ends_on_a_heading(text, chunks, size, len)


SUMMARY = """## Basic skills

- [Packages and modules](ch07-00.md)
  - [Packages and crates](ch07-01-packages-and-crates.md)
  - [Defining modules](ch07-02-defining-modules.md)
  - [Paths in the module tree](ch07-03-paths-for-referring.md)
  - [Bringing paths into scope](ch07-04-bringing-paths-into-scope.md)
- [Common collections](ch08-00-common-collections.md)
"""

SETUP = (
    "# Setup\n\n- Install the tool first. Then check the version it prints.\n\n"
    "  ```\n  tool install\n  tool --version\n  ```\n"
    "  - see the notes below for details on versions.\n\n"
    "- Configure it next. Edit the config file. Restart the service afterwards.\n"
)


def test_a_first_list_item_too_big_for_its_heading_is_cut_at_its_blocks_not_its_words() -> None:
    # The heading went with the item's first words: chunks ended on a bare "-" and a fence
    # that fits was cut between two of its words.
    chunks = split_markdown(SUMMARY, 48, length="cl100k_base")
    assert chunks[0].text == "## Basic skills\n\n- [Packages and modules](ch07-00.md)"
    lines = SUMMARY.splitlines(keepends=True)
    line_starts = list(itertools.accumulate(map(len, lines), initial=0))
    for chunk in chunks:  # every chunk is whole lines
        assert chunk.start in line_starts or SUMMARY[: chunk.start].endswith("  ")
        assert SUMMARY[chunk.end] == "\n"
    assert [c.text for c in split_markdown(SETUP, 120)] == [
        "# Setup\n\n- Install the tool first. Then check the version it prints.",
        "  ```\n  tool install\n  tool --version\n  ```\n"  # (a fence's indentation kept)
        "  - see the notes below for details on versions.",
        "- Configure it next. Edit the config file. Restart the service afterwards.",
    ]


class _ReadCountingText(str):
    """A text that counts the characters read from it by index or slice."""

    read = 0

    def __getitem__(self, key: Any) -> str:
        part = str.__getitem__(self, key)
        _ReadCountingText.read += len(part)
        return part


def test_a_quotes_blank_lines_are_found_by_reading_those_lines_only() -> None:
    # In lines ending in a lone CR (no LF), the line before was looked for by a search for
    # a LF back to the start of the text, for every block: 1 MB of list lines took 1.6 s
    # with MarkdownSplitter, 0.2 s now.
    lines = "- a list item ending in a lone CR\r" * 30_000 + "- the last item\n"
    for tail, found in (("", len(lines)), (">\n> \n", len(lines))):
        text = _ReadCountingText(lines + tail + "- the item after\r")
        _ReadCountingText.read = 0
        assert markdown_boundaries._before_quote_blank_lines(text, len(lines) + len(tail)) == found
        assert _ReadCountingText.read < 100


@pytest.mark.parametrize("overlap", [0, 10])
def test_a_quotes_blank_line_before_a_block_that_fits_only_alone_ends_the_chunk_before(
    overlap: int,
) -> None:
    # The blank line (">") goes with the block after it, but the fence fills the budget: the
    # blank line was a chunk of its own (">", or the overlap and ">"), as in the corpus's
    # Rust reference (types/closure.md) at 128+16 tokens.
    fence = "> ```\n" + "".join(f"> line {i} of code\n" for i in range(5)) + "> ```"
    text = f"> A first paragraph of the quote that is long enough.\n>\n{fence}\n"
    assert [c.text for c in split_markdown(text, len(fence), overlap)] == [
        "> A first paragraph of the quote that is long enough.\n>",
        fence,
    ]
    roomy = [c.text for c in split_markdown(text, len(fence) + 2, overlap)]
    assert roomy == ["> A first paragraph of the quote that is long enough.", f">\n{fence}"]


def test_a_quotes_blank_line_stays_with_the_block_after_where_the_block_before_has_no_room() -> (
    None
):
    # Found by a review of the rule above: without room before, the blank line went there
    # anyway and was a chunk of its own; and a list item was measured with its own blank
    # line at its end, so it seemed not to fit with the one before it.
    assert [c.text for c in split_markdown("> Some code:\n>\n> More text.\n", 12)] == [
        "> Some code:",
        ">\n> More",
        "text.",
    ]
    text = (
        "> - Alpha beta gamma delta epsilon zeta eta.\n>\n> - Pi tau iota pi phi mu\n>\n> - Nu!\n"
    )
    for size in (27, 28):
        assert ">\n> - Pi tau iota pi phi mu" in [c.text for c in split_markdown(text, size)]


@pytest.mark.parametrize("loose", [False, True])
@pytest.mark.parametrize("marker", ["1.", "10)", "-", "> 2.", "  3."])
def test_a_list_items_marker_stays_with_its_first_words(marker: str, loose: bool) -> None:
    # The sentence rules break "1. Immutable" after "1.": an item over the budget was cut
    # there, and "1." was a chunk of its own (6 of 12,583 chunks of the corpus documentation
    # at 100 characters); in a loose list, the item's paragraph was cut there.
    gap = ("\n>" if marker.startswith(">") else "\n") if loose else ""
    text = (
        f"{marker} Immutable borrow (`ImmBorrow`) --- The place expression is captured.\n{gap}"
        f"{marker} Unique immutable borrow --- This is similar, but must be unique.\n"
    )
    for size, overlap in ((40, 0), (60, 10)):
        chunks = split_markdown(text, size, overlap)
        number = marker.strip(" >")
        words = [c.text.replace(">", " ").split() for c in chunks]  # (a quote's markers aside)
        assert [w[:2] for w in words if number in w] == [[number, "Immutable"], [number, "Unique"]]
        assert all(w and w != [number] for w in words)


def test_a_bullet_goes_with_the_word_after_it_where_they_fit_together() -> None:
    # Where a region is cut at its words, a chunk could end on a list item's bullet or a
    # "+" (on the corpus documentation at 48-120 code points: 177 chunk ends, 96 now; the
    # rest come from coarser levels). Such a word joins the next, as a quote's markers do,
    # unless that word fits alone and not with it: a word is not cut for a bullet.
    text = "one two - three\n> - four * five\n"
    layout = MarkdownLayout(text)
    parts = markdown_boundaries.WordLevel(layout)(text, 0, len(text))
    assert [text[a:b] for a, b in parts] == ["one ", "two ", "- three\n", "> - four ", "* five\n"]
    small = markdown_boundaries.WordLevel(layout, lambda start, end: end - start <= 6)
    assert [text[a:b] for a, b in small(text, 0, 8)] == ["one ", "two "]
    assert [text[a:b] for a, b in small(text, 8, 16)] == ["- ", "three\n"]
    # A number is no bullet: "Chapter 13) says" may be cut after "13)".
    prose = "in Chapter 13) and 5. more\n"
    parts = markdown_boundaries.WordLevel(MarkdownLayout(prose))(prose, 0, len(prose))
    assert [prose[a:b] for a, b in parts] == ["in ", "Chapter ", "13) ", "and ", "5. ", "more\n"]


@pytest.mark.parametrize(
    "block",
    [
        "```\nfirst line of code\nsecond line of code\n```",
        "| a | b |\n|---|---|\n| row one | x |\n| row two | y |",
        "<div>\nfirst line of html\nsecond line of html\n</div>",
    ],
)
def test_overlap_never_starts_inside_a_block_that_follows_a_heading(block: str) -> None:
    # The heading and the block were one piece, which overlap cut at the block's lines.
    text = "### Title\n\n" + block + "\n\nA paragraph of text that follows here and more.\n"
    chunks = split_markdown(text, 80, 30)
    assert [c.text for c in chunks] == [
        "### Title\n\n" + block,
        "A paragraph of text that follows here and more.",
    ]


def test_overlap_never_starts_inside_a_block_that_had_to_be_cut() -> None:
    # Its last lines would be repeated out of context, a closing fence read as an opening.
    fence = "```\nline one of code\nline two of code\nline three of code\nline four of code\n```\n"
    chunks = split_markdown(fence + "\nThen read the output of the program.\n", 60, 20)
    assert [c.text for c in chunks] == [
        "```\nline one of code\nline two of code",
        "line three of code\nline four of code\n```",
        "Then read the output of the program.",
    ]
    table = "| key | value |\n|---|---|\n" + "".join(f"| row {n} | {n * 7} |\n" for n in range(8))
    chunks = split_markdown("# Rows\n\n" + table + "\nAfter the table.\n", 60, 20)
    assert len(chunks) > 3
    assert not any(b.start < a.end for a, b in itertools.pairwise(chunks))
    # A line of code too long for a chunk is cut between words, with no overlap either.
    long_line = "```\n" + " ".join(f"word{n}" for n in range(30)) + "\n```\n"
    chunks = split_markdown(long_line, 50, 15)
    assert len(chunks) > 3
    assert not any(b.start < a.end for a, b in itertools.pairwise(chunks))
    # A paragraph that was cut still overlaps.
    prose = "## Notes\n\n" + " ".join(f"Note {n} is here." for n in range(20)) + "\n\n" + fence
    chunks = split_markdown(prose, 80, 30)
    assert sum(b.start < a.end for a, b in itertools.pairwise(chunks)) >= 3


def test_overlap_fences_of_a_cut_block_are_every_offset_inside_it_past_its_first() -> None:
    text = "# T\n\n  ```\n  one two\n  ```\n\nafter\n"
    fences = MarkdownLayout(text).overlap_fences(lambda start, end: end - start < 10)
    fence_start, fence_end = text.index("```"), text.index("after") - 1
    expected = [0, *range(fence_start + 1, fence_end + 1)]
    assert list(fences) == expected and len(fences) == len(expected)
    assert fences[-1] == fence_end and fences[2:4] == expected[2:4]
    for at in range(len(text) + 1):
        assert bisect_right(fences, at) == bisect_right(expected, at)
    assert list(MarkdownLayout(text).overlap_fences()) == [0]  # without the budget: headings


class _CountedBytes(bytes):
    """Bytes that count how many bytes their slices hold."""

    read = 0

    def __getitem__(self, key: Any) -> Any:
        found = super().__getitem__(key)
        if isinstance(key, slice):
            _CountedBytes.read += len(found)
        return found


def test_a_line_of_nested_blocks_reaches_the_parser_once(given_lengths: list[int]) -> None:
    """A stretch far from a blank line is first parsed up to a line about twice its size
    on, to look for a line inside a quote or list to end it at; where that line is the
    stretch's last (one line of 100,000 nested list items), that parse is the stretch's
    own, and it was made twice. It is now kept, and only where the probe stops short of
    the stretch's end is the stretch parsed again."""
    line = "- " * 100_000 + "x\n"
    layout = MarkdownLayout(line)
    assert given_lengths == [len(line)]
    assert layout.tree.kinds.count(markdown_boundaries._ITEM) == 100_000
    given_lengths.clear()
    lines = line + "- y\n" * 3  # (items of the outermost list)
    assert len(list(MarkdownLayout(lines).root.children)) == 1
    assert given_lengths == [len(line), len(lines)]  # (the probe found no line to cut at)


def test_quote_markers_before_a_container_end_are_read_once_a_run() -> None:
    """A container's end moves back to its line's start where only quote markers come
    before it there. Each end read the line back to its start: a line of 100,000 nested
    quotes took 46 s for 200 KB. Now a run of markers is read once, and every end is
    placed as before."""
    for line, moved in ((b"> " * 20_000 + b"x\n", False), (b"\n" + b"> " * 20_000, True)):
        markers = markdown_boundaries._LineMarkers(_CountedBytes(line))
        _CountedBytes.read = 0
        for _ in range(20_000):  # every nested quote of the line ends where it ends
            assert markers.before(len(line) - 1) == (1 if moved else len(line) - 1)
        assert _CountedBytes.read < 2 * len(line)
    data = b"".join([b"> " * 300 + b"x\n", b"> > \t>\n", b">>  - a\n", b"\n", b"   >", b"> b"])

    def expected(end: int) -> int:
        start = data.rfind(b"\n", 0, end) + 1
        return start if start < end and not data[start:end].strip(b" \t>") else end

    markers = markdown_boundaries._LineMarkers(data)
    for end in [*range(len(data) + 1), *range(len(data), -1, -7), *range(0, len(data), 5)]:
        assert markers.before(end) == expected(end), end
    layout = MarkdownLayout("> " * 20_000 + "x")
    assert layout.tree.kinds.count(markdown_boundaries._QUOTE) == 20_000


def test_a_deep_path_is_walked_once_for_the_positions_asked_about_on_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Packing asks, position after position, whether each lies inside a block that is not
    cut where it fits, and which block holds a region: each question walked the path from
    the block at the position up to the document, 10,000 quotes deep here (2,774 walks: 28
    million steps, 2.4 s for 20 KB; a megabyte took minutes). A path is now walked once."""
    reads = [0]

    class CountedParents(list[int]):
        def __getitem__(self, index: Any) -> Any:
            reads[0] += 1
            return super().__getitem__(index)

    made = MarkdownLayout.__init__

    def counting(layout: MarkdownLayout, text: str) -> None:
        made(layout, text)
        layout.tree.parents = CountedParents(layout.tree.parents)  # type: ignore[assignment]

    monkeypatch.setattr(MarkdownLayout, "__init__", counting)
    text = "> " * 10_000 + "x"
    chunks = MarkdownSplitter(2000, 200).split(text)
    check_chunks(text, chunks, 2000)
    assert reads[0] < 3 * 10_000


@pytest.mark.parametrize("line", ["- " * 5_000 + "x\n", "- " + "Words of an item. " * 500 + "\n"])
def test_a_position_deep_in_a_long_item_is_placed_without_reading_back(line: str) -> None:
    """Whether a position lies inside an item past its first text read the text from the
    item's start to the position: in an item of one long line, or on one line of nested
    items, every position overlap asked about was read back to the line's start (quadratic:
    an item of 4 MB took 13.7 s with overlap, 3.5 s now). Now the item is read up to its
    first text."""
    read = [0]

    class CountedText(str):
        def __getitem__(self, index: Any) -> Any:
            found = super().__getitem__(index)
            read[0] += len(found)
            return found

    text = CountedText(line)
    layout = MarkdownLayout(text)
    read[0] = 0
    positions = range(1, len(text) - 1, 7)
    assert all(layout.inside_unit(position) for position in positions)
    assert read[0] < 4 * len(positions)


def test_a_position_on_a_shallow_path_is_placed_without_making_the_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Overlap asks of many positions whether each lies inside a fenced block; each of
    the blocks of a run of fence lines made a path of arrays for it (4.9 s for a megabyte
    at 512 tokens, 2.2 s now). A path of a few blocks is walked as it is."""
    made = [0]
    path_down = MarkdownLayout._path_down

    def counted(layout: MarkdownLayout, last: int) -> Any:
        made[0] += last not in layout._paths
        return path_down(layout, last)

    monkeypatch.setattr(MarkdownLayout, "_path_down", counted)
    text = "```\n" * 4_000
    chunks = MarkdownSplitter(40, 8).split(text)
    check_chunks(text, chunks, 40)
    assert made[0] < 2_000  # (2,000 fenced blocks; 2,732 paths were made for them)


def test_a_long_path_is_read_by_numpy_as_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The latest starts and earliest ends down a path of more than ``VECTOR_MIN_BLOCKS``
    blocks are accumulated by numpy (a million nested list items: 0.4 s in Python)."""
    text = "> - a\n>   > b\n" + "- " * 300 + "c\n  - d\n\n> " * 3 + "e\n"
    layout = MarkdownLayout(text)
    lasts = range(1, len(layout.tree.kinds))
    monkeypatch.setattr(markdown_boundaries, "VECTOR_MIN_BLOCKS", 0)
    vectorised = [layout._path_down(last) for last in lasts]
    layout._paths.clear()
    monkeypatch.setattr(markdown_boundaries, "optional_numpy", lambda: None)
    assert [layout._path_down(last) for last in lasts] == vectorised
    assert max(len(path.blocks) for path in vectorised) >= 600


def test_a_line_of_thousands_of_nested_quotes_is_not_one_word() -> None:
    """A quote's markers go with the word after them, so that no part ends on them; a line
    of 5,000 nested quotes was then one word of 10,000 code points, and at 500,000 its
    words were all read at once (60 times the text). Markers join the word after them
    up to about a thousand code points of them; the short quotes are as they were."""
    text = "> " * 5_000 + "x"
    layout = MarkdownLayout(text)
    words = markdown_boundaries.WordLevel(layout)(text, 0, len(text))
    assert max(end - start for start, end in words) <= 1_100
    assert words[-1][1] == len(text) and text[words[-1][0] : words[-1][0] + 2] == "> "
    assert all(text[start:end].strip("> ") == "" for start, end in words[:-1])
    short = "> > quoted words\n"
    assert markdown_boundaries.WordLevel(MarkdownLayout(short))(short, 0, len(short)) == [
        (0, 11),
        (11, 17),
    ]
    check_chunks(text, MarkdownSplitter(300, 50).split(text), 300)


def _layout_and_memory_held(text: str) -> tuple[MarkdownLayout, int]:
    """The layout of ``text`` and the memory it holds (traced), made a second time so that
    what is done once (imports, numpy's too) is not counted."""
    MarkdownLayout(text)
    tracemalloc.start()
    try:
        layout = MarkdownLayout(text)
        return layout, tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def test_a_long_line_of_many_blocks_is_read_once_to_place_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """numpy places the blocks a batch at a time; each batch read the lines from its first
    block's line start to its last block's line end, so a line holding many batches (3,000
    nested quotes, 300 batches) was read once a batch. Now each batch reads the stretch
    between its first and last starts, and the line around them is found once."""
    read = [0]

    def counted(text: str) -> Any:
        read[0] += len(text)
        return line_ending_ends_of_lines(text)

    text = "> " * 3_000 + "x\n" + "> b\n" * 100
    with monkeypatch.context() as patch:
        patch.setattr(markdown_boundaries, "VECTOR_MIN_BLOCKS", 0)
        patch.setattr(markdown_boundaries, "_VECTOR_BATCH", 10)
        patch.setattr(markdown_boundaries, "line_ending_ends", counted)
        vectorised = _blocks(text)
    assert read[0] < 2 * len(text)
    with monkeypatch.context() as patch:
        patch.setattr(markdown_boundaries, "optional_numpy", lambda: None)
        assert _blocks(text) == vectorised


def test_heading_texts_are_kept_in_one_string_once_the_document_is_read() -> None:
    """A heading's text was a string object of its own (about 65 bytes each: a changelog's
    layout held 3.3 times its text, 1.6 of it heading texts); once read, the texts are one
    string and an array of ends, and read back the same."""
    texts = HeadingTexts("I")
    for block, text in ((3, "Intro"), (9, ""), (5, "Install"), (12, "Übersicht 👩‍👧")):
        texts[block] = text
    texts.truncate(12)
    texts.pack()
    assert [texts.get(b, "none") for b in (3, 4, 5, 9, 12)] == [
        "Intro",
        "none",
        "Install",
        "",
        "none",
    ]
    texts.truncate(5)
    assert [texts.get(b, "none") for b in (3, 5)] == ["Intro", "none"]
    with pytest.raises(RuntimeError):
        texts[20] = "late"
    changelog = "".join(f"## Version 1.2.{i}\n\nFixed issue {i}.\n\n" for i in range(5000))
    layout, held = _layout_and_memory_held(changelog)
    assert layout.headings[4321].text == "Version 1.2.4321"
    assert held < 2.5 * len(changelog)


def test_a_run_of_headings_keeps_their_block_indices_once() -> None:
    """Where every heading opens a section, the sections' block indices are the heading
    texts' (4 bytes a heading, not 8): the layout of a run of one-letter headings held
    11.8 times the text, and now 10."""
    text = "# a\n## b\n" * 20_000
    layout, held = _layout_and_memory_held(text)
    assert [(h.level, h.text) for h in layout.headings[:3]] == [(1, "a"), (2, "b"), (1, "a")]
    assert layout.headings.blocks is layout.tree.texts.blocks
    assert held < 11 * len(text)
    nested = MarkdownLayout("# a\n\n> ## quoted\n\n## b\n")
    assert [h.text for h in nested.headings] == ["a", "b"]
    assert [h.start for h in nested.headings] == [0, 18]


def test_small_chunks_of_a_long_document_take_working_memory_bounded_by_the_text() -> None:
    """Chunks of 24 characters: each chunk's metadata is made as the chunk is (all made
    first, they were held twice), the spans are planned without a tuple per chunk around
    them, the paragraphs are packed a window at a time, and each span's tuple is let go once
    its chunk is made: the split's working memory beyond the chunks it returns was 20 times
    the text, then 3.2, and is now 1.3."""
    text = (sample("english.txt") + "\n\n") * 30
    splitter = MarkdownSplitter(24)
    splitter.split(text[:20_000])
    assert memory_beyond_result(lambda: splitter.split(text)) < 2 * len(text)


def _holder_by_walking_down(layout: MarkdownLayout, start: int, end: int) -> tuple[str, int, int]:
    """The innermost block holding ``[start, end)`` found as a reader would: from the
    document down, into the last child starting by ``start``, while it reaches ``end``."""
    block = layout.root
    while True:
        kids = [kid for kid in block.children if kid.start <= start]
        if not kids or kids[-1].end < end:
            return block.kind, block.start, block.end
        block = kids[-1]


NESTED_LINE = st.tuples(
    st.sampled_from(["", "  ", "   ", "    "]),
    st.lists(st.sampled_from(["- ", "> ", "1. ", ">"]), max_size=3),
    st.sampled_from(["", "a", "b c", "-", "# h", "```", "| x |", "|---|"]),
).map(lambda line: line[0] + "".join(line[1]) + line[2] + "\n")
"""A line of nested containers (lists, quotes), as often empty as not."""


@settings(max_examples=300)
@example(  # the item ends at 18, the quote inside it at 22
    lines=["- > - a\n", "  >\n", "  > -\n", "  >\n", "\n", "t\n"],
    picks=[(a, b) for a in range(10) for b in range(10)],
)
@given(
    lines=st.lists(NESTED_LINE, max_size=12),
    picks=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), max_size=20),
)
def test_the_holder_of_a_range_is_found_walking_down_from_the_document(
    lines: list[str], picks: list[tuple[int, int]]
) -> None:
    """Where the parser gives a block an end past its parent's (a quote in a list item,
    after an empty item of its own list), the holder is still the last block, walking
    down, that reaches the range's end: found by climbing from a block, it was one below."""
    text = "".join(lines)
    layout = MarkdownLayout(text)
    edges, stack = {0, len(text)}, [layout.root]
    while stack:  # ranges between the edges of blocks, where packing asks
        block = stack.pop()
        edges.update((block.start, block.end))
        stack += block.children
    ordered = sorted(edges)
    for a, b in picks:
        start, end = sorted((ordered[a % len(ordered)], ordered[b % len(ordered)]))
        holder = layout.holder(start, end)
        assert (holder.kind, holder.start, holder.end) == _holder_by_walking_down(
            layout, start, end
        )


def test_a_block_ending_past_its_parent_does_not_change_the_chunks() -> None:
    # pulldown-cmark gives the item 0-18 and the quote inside it 0-22
    text = "- > - a\n  >\n  > -\n  >\n\nt"
    assert [c.text for c in MarkdownSplitter(20, length="utf8").split(text)] == [
        "- > - a\n  >\n  > -",
        ">\n\nt",  # (two runts, one chunk)
    ]
    assert MarkdownLayout("- >1.\n  >\n  >1.\n  >\n\nt").block_cuts(0, 20) == [16]


def test_overlap_in_a_paragraph_without_spaces_starts_at_a_clause_or_between_ideographs() -> None:
    """A Chinese sentence longer than the budget has no word to start overlap at: Markdown
    had none there (3 to 7 % of pairs overlapped), where the prose splitters start it at a
    clause, else between ideographs. Now MarkdownSplitter does the same; never inside a
    heading's lines."""
    pytest.importorskip("pyromark")
    line = "天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨"
    text = f"{line}，{line}。{line}，{line}。"
    chunks = MarkdownSplitter(40, 10).split(text)
    check_chunks(text, chunks, 40, overlap=10)
    assert [(c.start, c.end) for c in chunks] == [
        (c.start, c.end) for c in ParagraphSplitter(40, 10).split(text)
    ]
    assert all(after.start < before.end for before, after in itertools.pairwise(chunks))
    headed = f"# 千字文 天地玄黄\n{text}\n\n# 第二 宇宙洪荒\n{text}"
    headings = [match.span() for match in re.finditer(r"# [^\n]*", headed)]
    for size in (30, 40, 60):
        chunks = MarkdownSplitter(size, size // 3).split(headed)
        check_chunks(headed, chunks, size, overlap=size // 3)
        assert not any(a < c.start < b for c in chunks for a, b in headings)
        assert all(
            after.start < before.end or after.start in (a for a, _ in headings)
            for before, after in itertools.pairwise(chunks)
        )


_AFTER_SENTENCE = re.compile(r"(?:[.!?][\"”’)]*|\n)\s*$")
"""What the text before a chunk ends with where the chunk starts a sentence or a line: a
terminator (with closing quotes) or a line ending, then whitespace."""


@pytest.mark.parametrize(
    ("size", "overlap", "least"), [(300, 60, 22 / 27), (400, 80, 16 / 19), (500, 100, 1.0)]
)
def test_overlap_starts_at_a_sentence_where_prose_allows(
    size: int, overlap: int, least: float
) -> None:
    """As in the prose splitters, a chunk ends where its overlap can start a sentence: of
    this story's chunks after the first, 16 of 25, 14 of 19 and 11 of 13 started at a
    sentence or a line before (now 22 of 27, 16 of 19 and 14 of 14)."""
    text = sample("english.txt")
    chunks = MarkdownSplitter(size, overlap).split(text)
    check_chunks(text, chunks, size, overlap=overlap)
    later = chunks[1:]
    at_sentence = [c for c in later if _AFTER_SENTENCE.search(text, 0, c.start)]
    assert len(at_sentence) >= least * len(later)
    overlapping = [b for a, b in zip(chunks, later) if b.start < a.end]
    assert len(overlapping) >= 0.9 * len(later)


LIST_WORDS = st.sampled_from(["the", "river", "rose.", "after", "rain,", "gauge", "high;", "then"])


@given(
    st.lists(st.lists(LIST_WORDS, min_size=2, max_size=30), min_size=2, max_size=8),
    st.sampled_from([60, 100, 200]),
)
@example([["rose.", "it", "fell", "after", "rain,", "high;", "after"] * 2] * 3, 60)
def test_an_item_that_fits_is_never_cut_for_overlap(items: list[list[str]], size: int) -> None:
    """Overlap that starts at a sentence or a word may end a chunk early or cut a piece that
    leaves it no room: never inside a list item that fits (61 of 1,462 generated items
    were, before its starts were kept out of items)."""
    lines = ["- " + " ".join(words) + "\n" for words in items]
    text = "# T\n\n" + "".join(lines) + "\nA closing paragraph. It ends here.\n"
    chunks = MarkdownSplitter(size, size // 5).split(text)
    check_chunks(text, chunks, size, overlap=size // 5)
    position = len("# T\n\n")
    for line in lines:
        start, end = position, position + len(line) - 1
        position += len(line)
        if end - start <= size:
            assert any(c.start <= start and end <= c.end for c in chunks), line


@pytest.mark.parametrize(
    ("text", "size", "expected"),
    [
        # The heading fits alone, not with the word after it: it stands alone, whole.
        (
            "Title line\nsecond line\n===\n\nFinal.\n",
            30,
            ["Title line\nsecond line\n===", "Final."],
        ),
        ("Setext with *em*\nand two lines\n===\n\nFinal.\n", 40, None),
        ("Title\n-----\n\nclosing words.\n", 12, ["Title\n-----", "closing", "words."]),
        # A fence too big after a setext heading: cut at its lines, the heading whole.
        ("Title\n=====\n\n```\ncode line one\n```\n", 12, None),
        # With room for the first words, the heading keeps them, as before.
        (
            "Title\n=====\n\nSome text here that is long.\n",
            30,
            ["Title\n=====\n\nSome text here", "that is long."],
        ),
    ],
)
def test_a_heading_that_fits_is_never_cut(text: str, size: int, expected: list[str] | None) -> None:
    """A setext heading was cut between its text and its underline (or inside its text)
    where it fit alone but not with the first word after it: the heading and that word
    were one piece, hard-cut at the budget."""
    pytest.importorskip("pyromark")
    chunks = MarkdownSplitter(size).split(text)
    check_chunks(text, chunks, size)
    ((first, last),) = MarkdownLayout(text).heading_lines
    last = len(text[:last].rstrip())  # (its lines hold their line endings)
    assert not any(first < edge < last for c in chunks for edge in (c.start, c.end))
    assert chunks[0].start == first
    if expected is not None:
        assert [c.text for c in chunks] == expected


QUOTE = (
    "> First paragraph of the quote is here.\n>\n> Second paragraph of the quote.\n>\n"
    "> ## A heading inside it\n>\n> Third paragraph, a longer one. It has two sentences.\n"
)


@pytest.mark.parametrize("size", [30, 50, 64, 90])
@pytest.mark.parametrize("overlap", [0, 10])
def test_a_chunk_in_a_quote_does_not_end_with_its_blank_line(size: int, overlap: int) -> None:
    """The blank line between two paragraphs of a quote is ``>``: it was a piece of its
    own, packed after the paragraph before it, so chunks ended with a bare ``>`` line (28
    of 3,654 chunks of the corpus Markdown at 256+32 tokens). It goes with the block
    after it now, and a heading inside the quote with the start of what follows it."""
    pytest.importorskip("pyromark")
    chunks = MarkdownSplitter(size, overlap).split(QUOTE)
    check_chunks(QUOTE, chunks, size, overlap=overlap)
    for chunk in chunks:
        assert chunk.text.splitlines()[-1].strip(" >"), chunk
        if size >= 50:  # (at 30 the heading fits alone, not with the word after it)
            assert not chunk.text.endswith("inside it"), chunk
    if (size, overlap) == (50, 0):
        assert [c.text for c in chunks][:2] == [
            "> First paragraph of the quote is here.",
            ">\n> Second paragraph of the quote.",
        ]


GUIDE = "# Guide\n\n## Install now\n\n### Linux\n\nx\n"


@pytest.mark.parametrize(
    ("text", "size", "expected"),
    [
        (
            GUIDE,
            18,
            ["# Guide", "## Install now", "### Linux\n\nx"],
        ),
        (GUIDE, 22, ["# Guide", "## Install now", "### Linux\n\nx"]),
        (GUIDE, 25, ["# Guide\n\n## Install now", "### Linux\n\nx"]),
        (GUIDE, 30, ["# Guide", "## Install now\n\n### Linux\n\nx"]),
        (
            "# Guide\n\n## Install\n\n### Linux\n\nRun make.\n",
            30,
            ["# Guide\n\n## Install", "### Linux\n\nRun make."],
        ),
        ("### C\n# D\n\nt\n", 5, ["### C", "# D", "t"]),
        # The stack does not fit with its paragraph's first sentence: the innermost heading
        # goes with it, not the stack with its first word ("…## Install\n\nRun", "the
        # installer."; found by a review).
        (
            "# Guide\n\n## Install\n\nRun the installer. Then reboot the machine.\n",
            30,
            ["# Guide", "## Install\n\nRun the installer.", "Then reboot the machine."],
        ),
        (
            "# Guide\n\n## Install\n\n### Linux\n\nRun the installer. Then reboot it.\n",
            30,
            ["# Guide\n\n## Install", "### Linux\n\nRun the installer.", "Then reboot it."],
        ),
    ],
)
def test_headings_right_above_a_sub_heading_are_never_cut(
    text: str, size: int, expected: list[str]
) -> None:
    """A heading right above a sub-heading: where the coarsest cut would leave the headings
    alone before a part that does not fit, the next finer headings are tried, and headings
    that do not fit with the first heading after them stand apart. Before, the headings were
    packed as words: "## Install now" cut between its words, "### Linux" apart from its
    text although the section fits (found by a review)."""
    pytest.importorskip("pyromark")
    chunks = split_markdown(text, size)
    check_chunks(text, chunks, size)
    assert [c.text for c in chunks] == expected


QUOTED_LIST = (
    "> Those macros are:\n>\n> - `assert!` checks a condition\n> - `cfg!` reads the config\n"
    "> - `panic!` stops the thread\n>\n> E.g., this works, and so does the rest.\n"
)


def test_a_list_in_a_quote_ends_before_the_line_after_it() -> None:
    """pulldown-cmark ends a list inside a quote past the ``> `` of the line after its
    blank line: widened to whole lines, the list held the paragraph after it, and its
    last chunk ended with a bare ``>`` line (3 of 7,284 chunks of the corpus Markdown at
    128+16 tokens)."""
    pytest.importorskip("pyromark")
    blocks = {kind: (start, end) for kind, start, end, *_ in _blocks(QUOTED_LIST)}
    paragraph_start = QUOTED_LIST.index("> E.g.")
    assert blocks["list"] == (QUOTED_LIST.index("> - `assert"), paragraph_start)
    for size in (12, 20, 30):
        chunks = MarkdownSplitter(size).split(QUOTED_LIST)
        check_chunks(QUOTED_LIST, chunks, size)
        for chunk in chunks:
            assert chunk.text.splitlines()[-1].strip(" >"), chunk
        assert any(c.text.startswith(">\n> E.g.") for c in chunks), [c.text for c in chunks]


WIDE_ROWS = "".join(f"| row number {i} | some value {i} |\n" for i in range(14))


@pytest.mark.parametrize("heading", ["", "## Table\n\n"])
@pytest.mark.parametrize("overlap", [0, 10])
def test_a_table_whose_first_row_does_not_fit_with_its_header_is_cut_after_the_header(
    heading: str, overlap: int
) -> None:
    """A table's header rows go with its first row; where the three do not fit together,
    the cut falls between the header rows and the first row. It fell inside the header row
    (``'| name of the thing | value of it'``, then ``'|\\n|---|---|...'``): the first
    part was cut at its words."""
    pytest.importorskip("pyromark")
    text = f"{heading}| name of the thing | value of it |\n|---|---|\n{WIDE_ROWS}"
    chunks = MarkdownSplitter(60, overlap).split(text)
    check_chunks(text, chunks, 60, overlap=overlap)
    assert [c.text for c in chunks][:2] == [
        f"{heading}| name of the thing | value of it |\n|---|---|",
        "| row number 0 | some value 0 |",
    ]
    assert all(c.text.startswith("|") or c.text.startswith("#") for c in chunks)


def test_a_chunk_ending_early_for_its_overlap_does_not_end_on_a_heading() -> None:
    """Packing ends a chunk early at a block or sentence start so that the next chunk's
    overlap can start there; since a chunk may keep as little as a quarter of its budget
    for that, it ended right after a heading (``'# Title\\n\\nSetext\\n------'``), the
    heading's table starting the next one. Found by Hypothesis."""
    pytest.importorskip("pyromark")
    text = (
        "# Title\n\nSetext\n------\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n"
        "Plain words here. And more words.\n\n### Sub 3\n\n# Title\n\n"
    )
    chunks = MarkdownSplitter(43, 8, length=toy_tokens).split(text)
    check_chunks(text, chunks, 43, toy_tokens, overlap=8)
    # The "Setext" section fits alone, not with "# Title": whole, the heading apart (since
    # the next finer headings are tried where the coarsest give no cut: it ended a chunk
    # with "### Sub 3" before).
    assert [c.text for c in chunks] == [
        "# Title",
        text[9 : text.index("\n\n### Sub 3")],
        "### Sub 3",
        "# Title",
    ]


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_the_fences_of_one_line_over_budget_go_with_its_parts_with_any_line_ending(
    ending: str,
) -> None:
    """A fence of one line over budget: the opening fence goes with the line's first part
    and the closing fence with its last, never a chunk alone (rust-lang-book ch01-01, also
    in CRLF, where the CR before the closing fence once read as a line of its own)."""
    lf = "```console\n$ curl --proto '=https' --tlsv1.2 https://sh.rustup.rs -sSf | sh\n```\n"
    text = lf.replace("\n", ending)
    splitter = MarkdownSplitter(
        60, length=lambda s: len(s.replace("\r", "\n" if ending == "\r" else ""))
    )
    assert [c.text.replace("\r\n", "\n").replace("\r", "\n") for c in splitter.split(text)] == [
        "```console\n$ curl --proto '=https' --tlsv1.2",
        "https://sh.rustup.rs -sSf | sh\n```",
    ]


_LONG_COMMAND = "echo this is a very very long command line used to test whether it is cut"


@pytest.mark.parametrize(
    "text",
    [
        f"Intro.\n\n```bash\n{_LONG_COMMAND}\n```\n\nAfter.\n",
        f"~~~\n{_LONG_COMMAND}\n~~~\n",
        f"```bash\n{_LONG_COMMAND}\nls\n```\n",
        f"> Note:\n>\n> ```bash\n> {_LONG_COMMAND}\n> ```\n",
        f"- item\n\n  ```bash\n  {_LONG_COMMAND}\n  ```\n- next\n",
        f"```py\n{_LONG_COMMAND}\n```\nText after it.\n",
        f"```bash\r\n{_LONG_COMMAND}\r\n```\r\n",
        f"```bash\r{_LONG_COMMAND}\r```\r",
    ],
)
@pytest.mark.parametrize(
    "splitter",
    [
        MarkdownSplitter(60),
        MarkdownSplitter(60, 10),
        ParagraphSplitter(60),
        RecursiveSplitter.from_preset("markdown", 60),
        RecursiveSplitter(60, 10),
    ],
    ids=["markdown", "markdown-overlap", "paragraphs", "recursive-markdown", "recursive"],
)
def test_no_fence_line_is_a_chunk_alone_when_the_line_after_it_is_cut(
    text: str, splitter: Splitter
) -> None:
    """A line over budget in a fenced block is cut at its words; the opening fence goes with
    its first part and the closing fence with its last part, in a quote, a list item or
    not (each stood alone: a chunk that says nothing)."""
    chunks = splitter.split(text)
    check_chunks(text, chunks, 60, len)
    fences = re.compile(r"[ >]*(```|~~~)\w*")
    assert not [c.text for c in chunks if fences.fullmatch(c.text.strip())]
    opening = next(c for c in chunks if "echo" in c.text)
    assert re.search(r"(```|~~~)\w*\r?[\r\n][ >]*echo", opening.text), opening.text
    closing = next(c for c in chunks if "cut" in c.text)
    if "\nls\n" not in text:
        assert re.search(r"cut\r?[\r\n][ >]*(```|~~~)", closing.text), closing.text


def test_a_fence_line_that_closes_nothing_stays_where_packing_puts_it() -> None:
    """A bare fence line after a long prose line that opens a code block below is not
    taken for a closing fence: it stays with the code after it."""
    text = f"{_LONG_COMMAND}\n```\nls\n```\n"
    chunks = [c.text for c in ParagraphSplitter(60).split(text)]
    assert chunks[-1] == "```\nls\n```"


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_a_quotes_blank_lines_go_with_the_block_after_them_with_any_line_ending(
    ending: str,
) -> None:
    """The blank lines of a quote (``>``) go with the block after them, whatever ends its
    lines (read back from a fence, a lone CR was no line end: the ``>`` line was found part
    of the paragraph's line before it, and stood alone; rust-lang-reference abi.md)."""
    lf = "> A note on the used attribute.\n>\n> ```console\n> $ nm -C lib.o\n> ```\n"
    text = lf.replace("\n", ending)
    splitter = MarkdownSplitter(
        16, length=lambda s: len(s.replace("\r", "\n" if ending == "\r" else ""))
    )
    assert [c.text.replace(ending, "\n") for c in splitter.split(text)] == [
        "> A note on the",
        "used attribute.",
        ">\n> ```console",
        "> $ nm -C lib.o",
        "> ```",
    ]


def test_a_chunk_started_after_shared_punctuation_never_repeats_the_next_ones_start() -> None:
    """A short chunk between two that shared punctuation alone went, and the next chunk was
    started after that punctuation, where the one after it started too: two chunks began
    at one offset, the first inside the second (found by a review's random test)."""
    text = "。d!`\n1. .Some text that goes on  a whil  #"
    chunks = MarkdownSplitter(32, 27).split(text)
    # ((5, 34), (35, 42) before "`" after "!" went with the sentence it closes)
    assert [(c.start, c.end) for c in chunks] == [(0, 4), (5, 23), (24, 42)]
    assert all(a.start < b.start and a.end < b.end for a, b in itertools.pairwise(chunks))
    check_chunks(text, chunks, 32)
