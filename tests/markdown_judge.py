"""An independent judge of Markdown chunks: markdown-it-py (not the parser spansplit uses)
finds the fences, tables and headings, and the chunk edges are checked against them.

Used by tests/test_markdown.py and by benchmarks/bench_markdown.py, for spansplit and for
the peers alike (a chunk is judged by its span in the source).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from markdown_it import MarkdownIt

_PARSER = MarkdownIt("commonmark").enable("table")
_LINE = re.compile(r"\r\n|\r|\n")

Span = tuple[int, int]


@dataclass
class Structure:
    """Fences and tables (trimmed spans) and heading lines of one text, by markdown-it-py."""

    blocks: list[Span] = field(default_factory=list)
    heading_lines: set[int] = field(default_factory=set)  # line indices (0-based)
    line_starts: list[int] = field(default_factory=list)


_FRONT_MATTER = re.compile(
    r"\ufeff?---[ \t]*\r?\n.*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)", re.DOTALL
)


def structure(text: str) -> Structure:
    found = Structure(line_starts=[0, *(m.end() for m in _LINE.finditer(text))])
    starts = found.line_starts
    matter = _FRONT_MATTER.match(text)
    if matter:  # YAML front matter is not Markdown: blank it, keeping every line ending
        text = re.sub(r"[^\r\n]", " ", matter.group()) + text[matter.end() :]

    def offset(line: int) -> int:
        return starts[line] if line < len(starts) else len(text)

    for token in _PARSER.parse(text):
        if token.map is None or token.level != 0:
            continue
        first, last = token.map
        if token.type in ("fence", "code_block", "table_open"):
            a, b = offset(first), offset(last)
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            found.blocks.append((a, b))
        elif token.type == "heading_open":
            found.heading_lines.update(range(first, last))
    return found


@dataclass
class Verdict:
    """Counts over the chunks of one text or of many."""

    chunks: int = 0
    cut_blocks: int = 0  # fences and tables that fit the budget, with a chunk edge inside
    fitting_blocks: int = 0
    cut_examples: list[str] = field(default_factory=list)
    heading_examples: list[str] = field(default_factory=list)
    heading_ends: int = 0  # chunks whose last line is a heading with its body after them
    crossing_overlaps: int = 0  # chunks whose overlap reaches back across a heading
    over_budget: int = 0
    inexact: int = 0

    def add(self, other: Verdict) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def judge(
    text: str,
    spans: Sequence[Span],
    chunk_texts: Sequence[str],
    budget: int,
    length: Callable[[str], int],
) -> Verdict:
    """Judge chunks given as spans of ``text`` and their texts as the splitter returned them."""
    found = structure(text)
    verdict = Verdict(chunks=len(spans))
    for (start, end), chunk in zip(spans, chunk_texts):
        if text[start:end] != chunk:
            verdict.inexact += 1
        if length(chunk) > budget:
            verdict.over_budget += 1
    ordered = sorted(spans)
    starts_sorted = [start for start, _ in ordered]
    for a, b in found.blocks:
        if length(text[a:b]) > budget:
            continue
        verdict.fitting_blocks += 1
        # Kept whole: some chunk holds all of it (overlap may repeat a part elsewhere).
        holders = ordered[: bisect_left(starts_sorted, a + 1)]
        if not any(end >= b for _, end in holders[-64:]):
            verdict.cut_blocks += 1
            verdict.cut_examples.append(text[a:b][:60])
    starts = found.line_starts
    for start, end in spans:
        last_line = bisect_left(starts, end) - 1  # the line holding end - 1
        while last_line > 0 and not text[starts[last_line] : end].strip():
            last_line -= 1
        if last_line not in found.heading_lines:
            continue
        after = text[end:].lstrip()
        next_line = bisect_left(starts, len(text) - len(after) + 1) - 1 if after else -1
        if after and next_line not in found.heading_lines:
            verdict.heading_ends += 1
            verdict.heading_examples.append(text[max(start, end - 60) : end + 40])
    verdict.crossing_overlaps = _crossing_overlaps(text, spans, found)
    return verdict


def _crossing_overlaps(text: str, spans: Sequence[Span], found: Structure) -> int:
    """Chunks (in order) that repeat text from before a heading of the document that comes
    before their new text (from the previous chunk's end on): an overlap that reaches back
    into another section."""
    heading_starts = sorted(found.line_starts[line] for line in found.heading_lines)
    crossing = 0
    for (_, before_end), (start, _) in pairwise(spans):
        if start >= before_end:
            continue
        new_text = len(text) - len(text[before_end:].lstrip())
        first = bisect_left(heading_starts, start + 1)
        if first < len(heading_starts) and heading_starts[first] <= new_text:
            crossing += 1
    return crossing
