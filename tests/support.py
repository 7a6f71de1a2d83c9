"""What the splitter test modules share: generated texts, toy length functions and the
checks of every promise a chunk list makes (spans, budgets, lines, progress, coverage)."""

from __future__ import annotations

import json
import re
import tracemalloc
from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import pairwise

import pytest
import regex
from conftest import CORPUS, DATA
from hypothesis import strategies as st

from spansplit import Chunk

FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467"  # one cluster: 5 code points, 18 bytes
FLAG = "\U0001f1eb\U0001f1f7"

Length = Callable[[str], int]


def word_count(text: str) -> int:
    """A non-additive length: whitespace-separated words."""
    return len(text.split())


_TOKEN = re.compile(r"\w{1,4}|[^\w\s]")


def toy_tokens(text: str) -> int:
    """A non-additive toy tokenizer: words in tokens of up to 4 characters, each other
    non-space character one token (an emoji ZWJ sequence is 5)."""
    return len(_TOKEN.findall(text))


def clusters(text: str) -> int:
    """A non-additive length: extended grapheme clusters."""
    return len(regex.findall(r"\X", text))


def strip_clusters(text: str) -> str:
    """``text`` without the grapheme clusters made only of whitespace at either end: what
    ``str.strip`` gives, except that a space a mark joins (``" \u0301"``) stays."""
    found = regex.findall(r"\X", text)
    first, last = 0, len(found)
    while first < last and found[first].isspace():
        first += 1
    while last > first and found[last - 1].isspace():
        last -= 1
    return "".join(found[first:last])


def line_ending_ends(text: str) -> list[int]:
    """Ends of the CommonMark line endings (LF, CRLF, lone CR): an independent oracle."""
    return [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]


def oracle_line(ends: list[int], pos: int) -> int:
    return bisect_right(ends, pos) + 1


def naive_line(text: str, pos: int) -> int:
    """1 + line endings ending at or before ``pos``, counted character by character."""
    line = 1
    for i in range(min(pos, len(text))):
        if text[i] == "\n" or (text[i] == "\r" and text[i + 1 : i + 2] != "\n"):
            line += 1
    return line


def check_chunks(
    text: str,
    chunks: Sequence[Chunk],
    chunk_size: int,
    length: Length = len,
    *,
    overlap: int | None = None,
    strip: bool = True,
    naive_lines: bool = False,
    dropped: str = "",
) -> None:
    """Every promise of the splitter that can be checked from its output alone.

    ``dropped`` is a pattern for separators ``keep_separator=False`` may drop: text
    outside every chunk must be whitespace or such separators.
    """
    outside = re.compile(rf"(?:\s|{dropped})*" if dropped else r"\s*")
    ends = line_ending_ends(text)
    for index, chunk in enumerate(chunks):
        assert chunk.index == index
        assert chunk.text == text[chunk.start : chunk.end]
        assert chunk.text, chunk
        if strip:  # (a chunk that starts a line of code keeps its indentation)
            at_line_start = chunk.start == 0 or text[chunk.start - 1] in "\r\n"
            at_line_start |= chunk.start == 1 and text[0] == "\ufeff"  # (a trimmed mark)
            content = chunk.text.lstrip(" \t") if at_line_start else chunk.text
            assert content == strip_clusters(content) and content, chunk
        assert chunk.size == length(chunk.text) <= chunk_size, chunk
        line = (lambda p: naive_line(text, p)) if naive_lines else (lambda p: oracle_line(ends, p))
        assert chunk.start_line == line(chunk.start)
        assert chunk.end_line == line(chunk.end - 1)
    for before, after in pairwise(chunks):
        # Forward progress: each chunk starts and ends after the one before it.
        assert before.start < after.start and before.end < after.end, (before, after)
        if overlap is not None and after.start < before.end:
            assert length(text[after.start : before.end]) <= overlap, (before, after)
            # An overlap repeats a word or a symbol (an emoji): punctuation alone is none.
            repeated = text[after.start : before.end]
            assert regex.search(r"[\p{L}\p{N}\p{So}]", repeated), (before, after)
    # Nothing but whitespace (and dropped separators) lies outside every chunk; trimmed
    # chunks leave out a byte order mark that starts the text, as they leave whitespace
    # (Markdown's always do: the parser reads the text after it).
    covered = 0
    if text.startswith("\ufeff") and (not chunks or chunks[0].start > 0):
        covered = 1
    elif text.startswith("\ufeff"):
        assert not strip, chunks[0]
    for chunk in chunks:
        gap = text[covered : chunk.start]
        assert outside.fullmatch(gap), (covered, chunk.start, gap)
        covered = max(covered, chunk.end)
    assert outside.fullmatch(text[covered:])


ATOMS = [
    "a",
    "bc",
    "word",
    "Ünï",
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    "\r\n\r\n",
    "中文字",
    "。",
    "，",
    FAMILY,
    FLAG,
    "e\u0301",
    "\u3000",
    "\u00a0",
    ".",
]
atom_texts = st.lists(st.sampled_from(ATOMS), max_size=60).map("".join)
any_texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=60,
)
unicode_texts = st.one_of(atom_texts, any_texts)


def texts_of(pieces: st.SearchStrategy[str], *, noise: int, count: int) -> st.SearchStrategy[str]:
    """Texts of up to ``count`` parts, each one of ``pieces`` or up to ``noise`` arbitrary
    characters (no surrogates, no NUL: those are rejected input, tested apart)."""
    plain = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
    return st.lists(st.one_of(pieces, st.text(plain, max_size=noise)), max_size=count).map("".join)


LENGTHS: list[tuple[object, Length]] = [
    (None, len),
    ("utf8", lambda t: len(t.encode("utf-8"))),
    ("utf16", lambda t: len(t.encode("utf-16-le")) // 2),
    (word_count, word_count),
    (toy_tokens, toy_tokens),
]


# The seed's example request and response, copied from the seed document.
SEED_REQUEST = {"text": "aaa\nbbb\n\nccc\nddd\n"}
SEED_RESPONSE = json.loads(
    """
{
  "result": {
    "paragraph_count": 2,
    "line_count_total": 5,
    "paragraphs": [
      {
        "index": 0,
        "start": 0,
        "end": 7,
        "start_line": 1,
        "end_line": 2,
        "line_count": 2,
        "text": "aaa\\nbbb"
      },
      {
        "index": 1,
        "start": 9,
        "end": 16,
        "start_line": 4,
        "end_line": 5,
        "line_count": 2,
        "text": "ccc\\nddd"
      }
    ]
  }
}
"""
)


def break_test_cases(name: str) -> list[tuple[str, list[int], str]]:
    """(text, breaks, line) for every test line of a Unicode 17 ``*BreakTest.txt`` file in
    ``tests/data/unicode``: ``÷`` marks a break at that offset, ``×`` none."""
    cases = []
    path = DATA / "unicode" / name
    for line in path.read_text(encoding="utf-8").splitlines():
        data = line.partition("#")[0].strip()
        if not data:
            continue
        text, breaks = "", []
        for token in data.split():
            if token == "÷":
                breaks.append(len(text))
            elif token != "×":
                text += chr(int(token, 16))
        cases.append((text, breaks, line))
    return cases


def corpus_cases(cases: Sequence[object], stand_in: object = None) -> list[object]:
    """Parameters of a test marked ``corpus``: ``cases`` where the corpus is present; where
    it is absent, one stand-in (the first case, else ``stand_in``) with the id
    ``corpus-absent``, so that the test is skipped once, with conftest's reason, instead of
    once a case (an empty list would skip it with pytest's "empty parameter set")."""
    if CORPUS.is_dir():
        return list(cases)
    first = cases[0] if cases else stand_in
    values = first if isinstance(first, tuple) else (first,)
    return [pytest.param(*values, id="corpus-absent")]


def memory_beyond_result(function: Callable[[], object]) -> int:
    """The most memory ``function`` held at once beyond what its result holds when it
    returns: its working memory, whatever the size of what it returns."""
    tracemalloc.start()
    try:
        result = function()
        held, peak = tracemalloc.get_traced_memory()
        del result
        return peak - held
    finally:
        tracemalloc.stop()


def peak_memory(function: Callable[[], object]) -> int:
    """The most memory ``function`` held at once while it ran (Python's allocators and the
    regular expression engine's stacks, as tracemalloc sees them)."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
