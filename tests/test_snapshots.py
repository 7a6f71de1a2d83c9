"""Chunk spans of every splitter on the texts of ``tests/data``, kept as snapshot files.

Each splitter runs with code points and with cl100k_base tokens, at a small and a larger
budget, without and with overlap; every chunk is recorded as ``[start, end, size]`` (and
its kind where the splitter gives one). A change of behaviour shows as a diff of
``tests/snapshots/<splitter>.json``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import sample

from spansplit import (
    BlockSplitter,
    Chunk,
    ParagraphSplitter,
    RecursiveSplitter,
    SentenceSplitter,
)
from spansplit.compat import PlainParagraphSplitter

INPUTS = {
    "english": sample("english.txt"),
    "english-crlf-bom": "\ufeff" + sample("english.txt").replace("\n", "\r\n"),
    "chinese": sample("chinese.txt"),
    "markdown": sample("markdown.md"),
    "code": sample("code.py"),
}
BUDGETS = {"chars": (100, 400), "cl100k_base": (32, 128)}


def records(chunks: list[Chunk], *, kinds: bool = False) -> list[list[object]]:
    out: list[list[object]] = []
    for chunk in chunks:
        record: list[object] = [chunk.start, chunk.end, chunk.size]
        if kinds:
            record.append(chunk.kind)
        if chunk.oversized:
            record.append("oversized")
        out.append(record)
    return out


Build = Callable[[int, int, str], Callable[[str], list[Chunk]]]

BUDGETED: dict[str, Build] = {
    "recursive": lambda size, overlap, length: (
        RecursiveSplitter(size, overlap, length=length).split
    ),
    "recursive-markdown": lambda size, overlap, length: (
        RecursiveSplitter.from_preset("markdown", size, chunk_overlap=overlap, length=length).split
    ),
    "recursive-cjk": lambda size, overlap, length: (
        RecursiveSplitter.from_preset("cjk", size, chunk_overlap=overlap, length=length).split
    ),
    "sentences": lambda size, overlap, length: SentenceSplitter(size, overlap, length=length).split,
    "paragraphs": lambda size, overlap, length: (
        ParagraphSplitter(size, overlap, length=length).split
    ),
}


@pytest.mark.parametrize("name", list(BUDGETED))
def test_budgeted_splitter_snapshot(name: str, snapshot) -> None:  # type: ignore[no-untyped-def]
    build = BUDGETED[name]
    cases: dict[str, list[list[object]]] = {}
    for input_name, text in INPUTS.items():
        for length, sizes in BUDGETS.items():
            for size in sizes:
                for overlap in (0, size // 5):
                    split = build(size, overlap, length)
                    cases[f"{input_name} {length} {size}+{overlap}"] = records(split(text))
    snapshot.check(name, cases)


def test_blocks_snapshot(snapshot) -> None:  # type: ignore[no-untyped-def]
    cases: dict[str, list[list[object]]] = {}
    for input_name, text in INPUTS.items():
        for length, sizes in {**BUDGETS, "utf16": (100,)}.items():
            for size in sizes:
                chunks = BlockSplitter(size, length=length).split(text)
                cases[f"{input_name} {length} {size}"] = records(chunks, kinds=True)
    snapshot.check("blocks", cases)


def test_seed_paragraphs_snapshot(snapshot) -> None:  # type: ignore[no-untyped-def]
    cases = {name: records(PlainParagraphSplitter().split(text)) for name, text in INPUTS.items()}
    snapshot.check("seed-paragraphs", cases)
