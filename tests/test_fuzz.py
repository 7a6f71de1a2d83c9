"""Fuzzing every splitter with every kind of length function and option on generated text.

Texts mix structure (Markdown blocks, code lines, sentences in English and Chinese) with
hostile pieces (CRLF and lone CR, combining marks, emoji ZWJ sequences and modifiers,
regional indicator pairs, ideographic space, arbitrary code points). Each example builds
one splitter and checks the whole promise: exact spans in order, sizes within the budget
under the real length function, line numbers, no lost text, overlap within bounds, no cut
inside a grapheme cluster or a CRLF pair, the same chunks twice; or, where one grapheme
cluster is over the budget, a ``ChunkTooLargeError``, and nothing else.

CI runs a bounded number of examples per test; ``make fuzz`` (``SPANSPLIT_FUZZ_EXAMPLES``)
runs many more.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import ATOMS, check_chunks, texts_of, toy_tokens, word_count

import spansplit
from spansplit import ChunkTooLargeError

EXAMPLES = int(os.environ.get("SPANSPLIT_FUZZ_EXAMPLES", "120"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

STRUCTURE = [
    "# Heading\n",
    "## Sub heading\n\n",
    "```python\ncode = 1\n```\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "- item one\n- item two\n",
    "> quoted line\n",
    "def f(x):\n    return x\n",
    "class C:\n    pass\n",
    "Dr. Smith arrived. He sat down! Did he? Yes.",
    "他来了。她走了！真的吗？是的。",
    "「引用」，然后……",
    "\u0301",  # a combining mark after whatever came before
    "\U0001f44d\U0001f3fd",  # thumbs up, skin tone
    "\u200d",
    "\U0001f1ef\U0001f1f5\U0001f1eb\U0001f1f7",
    "\f",
    "\ufeff",  # a byte order mark: trimmed chunks leave it out where it starts the text
    "a" * 40,
]
TEXTS = texts_of(st.sampled_from(ATOMS + STRUCTURE), noise=6, count=40)

_CL100K: Any = None


def cl100k(text: str) -> int:
    global _CL100K
    if _CL100K is None:
        _CL100K = spansplit.resolve_length("cl100k_base")
    return int(_CL100K.count(text))


# name -> (what the splitter takes, the function that checks its sizes)
LENGTHS: dict[str, tuple[Any, Callable[[str], int]]] = {
    "chars": (None, len),
    "utf8": ("utf8", lambda t: len(t.encode("utf-8"))),
    "utf16": ("utf16", lambda t: len(t.encode("utf-16-le")) // 2),
    "cl100k": ("cl100k_base", cl100k),
    "toy tokens": (toy_tokens, toy_tokens),
    "words": (word_count, word_count),
}


def build(kind: str, size: int, overlap: int, length: Any, data: st.DataObject) -> Any:
    """One splitter of ``kind``, its other options drawn."""
    strip = data.draw(st.booleans(), "strip_whitespace")
    if kind == "recursive":
        keep = data.draw(st.sampled_from([False, True, "start", "end"]), "keep_separator")
        return spansplit.RecursiveSplitter(
            size, overlap, length=length, strip_whitespace=strip, keep_separator=keep
        )
    if kind == "preset":
        preset = data.draw(st.sampled_from(sorted(spansplit.PRESETS)), "preset")
        return spansplit.RecursiveSplitter.from_preset(
            preset, size, chunk_overlap=overlap, length=length, strip_whitespace=strip
        )
    if kind == "sentences":
        return spansplit.SentenceSplitter(size, overlap, length=length, strip_whitespace=strip)
    if kind == "paragraphs":
        return spansplit.ParagraphSplitter(size, overlap, length=length, strip_whitespace=strip)
    if kind == "markdown":
        pytest.importorskip("pyromark")
        return spansplit.MarkdownSplitter(size, overlap, length=length, strip_whitespace=strip)
    if kind == "code":
        splitter = spansplit.CodeSplitter(
            "python", size, overlap, length=length, strip_whitespace=strip, fallback="separators"
        )
        return splitter
    raise AssertionError(kind)


def grapheme_bounds(text: str) -> set[int]:
    """Offsets where a cut keeps every extended grapheme cluster (and CRLF) whole."""
    return {0, *(match.end() for match in regex.finditer(r"\X", text))}


def largest_cluster(text: str, measure: Callable[[str], int]) -> int:
    return max((measure(m.group()) for m in regex.finditer(r"\X", text)), default=0)


@FUZZ
@given(
    text=TEXTS,
    kind=st.sampled_from(["recursive", "preset", "sentences", "paragraphs", "markdown", "code"]),
    length_name=st.sampled_from(sorted(LENGTHS)),
    size=st.integers(1, 80),
    data=st.data(),
)
def test_every_budgeted_splitter_keeps_the_promise(
    text: str, kind: str, length_name: str, size: int, data: st.DataObject
) -> None:
    length, measure = LENGTHS[length_name]
    overlap = data.draw(st.integers(0, size - 1) | st.just(0), "overlap")
    splitter = build(kind, size, overlap, length, data)
    try:
        chunks = splitter.split(text)
    except ChunkTooLargeError:
        # Only where one grapheme cluster (or a word, for a word-counting length) is over.
        assert largest_cluster(text, measure) > size
        return
    strip = splitter.strip_whitespace
    check_chunks(text, chunks, size, measure, overlap=overlap, strip=strip)
    bounds = grapheme_bounds(text)
    for chunk in chunks:
        assert chunk.start in bounds and chunk.end in bounds, (chunk, "cuts a grapheme cluster")
    assert splitter.split(text) == chunks


@FUZZ
@given(text=TEXTS, length_name=st.sampled_from(sorted(LENGTHS)), size=st.integers(1, 80))
def test_paging_blocks_tile_the_text(text: str, length_name: str, size: int) -> None:
    length, measure = LENGTHS[length_name]
    try:
        blocks = spansplit.BlockSplitter(size, length=length).split(text)
    except ChunkTooLargeError:
        assert largest_cluster(text, measure) > size
        return
    assert "".join(block.text for block in blocks) == text
    bounds = grapheme_bounds(text)
    for block in blocks:
        assert block.size == measure(block.text)
        assert block.size <= size or block.oversized, block
        assert block.start in bounds and block.end in bounds, (block, "cuts a grapheme cluster")


LINES = [
    *(atom for atom in STRUCTURE if "\r" not in atom and atom not in ("\f", "\ufeff")),
    "a",
    "word ",
    "Ab. ",
    "中文字",
    "。」",
    "「",
    " ",
    "\n",
    "\n\n",
    " \n",
    "1. ",
    "- ",
    "class A:",
    "def f():",
    "    def g():",
    "function f() {",
    "let a = 1;",
    "func A() {",
    "}",
    "\\section{B}",
]
"""Pieces of LF text (with no other line ending) for :func:`test_crlf_text_splits_as_lf_text`."""


def as_lf(text: str) -> str:
    """``text`` with each CRLF pair and lone CR made LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def lf_chars(text: str) -> int:
    """Code points of ``text`` read with LF line endings: CRLF or CR text measures as its LF
    version."""
    return len(as_lf(text))


def lf_tokens(text: str) -> int:
    """:func:`cl100k` of ``text`` read with LF line endings."""
    return cl100k(as_lf(text))


CR_FREE_SPLITTERS: dict[str, Callable[[int, int, Any], Any]] = {
    "recursive": lambda n, o, f: spansplit.RecursiveSplitter(n, o, length=f),
    "recursive keep start": lambda n, o, f: spansplit.RecursiveSplitter(
        n, o, length=f, keep_separator="start"
    ),
    "recursive untrimmed": lambda n, o, f: spansplit.RecursiveSplitter(
        n, o, length=f, strip_whitespace=False
    ),
    "cjk preset": lambda n, o, f: spansplit.RecursiveSplitter.from_preset(
        "cjk", n, chunk_overlap=o, length=f
    ),
    "markdown preset": lambda n, o, f: spansplit.RecursiveSplitter.from_preset(
        "markdown", n, chunk_overlap=o, length=f
    ),
    "paragraphs": lambda n, o, f: spansplit.ParagraphSplitter(n, o, length=f),
    "sentences": lambda n, o, f: spansplit.SentenceSplitter(n, o, length=f),
    "markdown": lambda n, o, f: spansplit.MarkdownSplitter(n, o, length=f),
    "blocks": lambda n, o, f: spansplit.BlockSplitter(n, length=f),
    **{
        f"{preset} preset": lambda n, o, f, preset=preset: spansplit.RecursiveSplitter.from_preset(
            preset, n, chunk_overlap=o, length=f
        )
        for preset in ("python", "javascript", "latex")
    },
    **{
        f"{language} table": lambda n, o, f, language=language: (
            spansplit.RecursiveSplitter.from_language(language, n, chunk_overlap=o, length=f)
        )
        for language in ("python", "go", "rust", "java")
    },
}


@FUZZ
@given(
    text=st.lists(st.sampled_from(LINES), max_size=80).map("".join),
    kind=st.sampled_from(sorted(CR_FREE_SPLITTERS)),
    tokens=st.booleans(),
    size=st.integers(6, 60),
    overlap=st.sampled_from([0, 3]),
    ending=st.sampled_from(["\r\n", "\r"]),
)
def test_crlf_text_splits_as_lf_text(
    text: str, kind: str, tokens: bool, size: int, overlap: int, ending: str
) -> None:
    """The same lines with CRLF or lone CR endings make the same chunks (offsets moved by
    the CRs of the pairs) under a length that reads them as LF: a CRLF pair or a lone CR
    is one line ending everywhere (the regular expressions of the presets and language
    tables too)."""
    length = lf_tokens if tokens else lf_chars
    splitter = CR_FREE_SPLITTERS[kind](size, 0 if kind == "blocks" else overlap, length)
    try:
        expected = [(chunk.start, chunk.end) for chunk in splitter.split(text)]
    except ChunkTooLargeError:
        return
    other = text.replace("\n", ending)

    def lf_offset(offset: int) -> int:
        return offset - other.count("\r", 0, offset) if ending == "\r\n" else offset

    chunks = splitter.split(other)
    assert [(lf_offset(chunk.start), lf_offset(chunk.end)) for chunk in chunks] == expected
