"""Markdown split by sections: spansplit against the peers that split Markdown, in one run.

Two measurements, each contender in a fresh process:

* speed: 2 MB of Markdown documentation (the ``markdown`` benchmark text) at 512
  cl100k_base tokens, median of ``--reps`` runs, CPU time (``time.process_time``, all
  threads) and wall time, each also as a ratio to one ``encode_ordinary`` of the same text
  timed in the same process;
* quality: every Markdown file of the corpus documentation (rust-lang book and reference,
  trpl-zh-cn) split one by one at 512 tokens, judged by markdown-it-py (tests/markdown_judge.py,
  a parser none of the contenders uses): fences and tables that fit the budget but are cut,
  chunks that end on a heading whose body follows, chunks whose overlap reaches back across a
  heading before their new text, chunks over the budget (re-counted with tiktoken), chunks
  that are not text of the source.

Peers (pinned in benchmarks/requirements.txt): LangChain's MarkdownHeaderTextSplitter (all six
heading levels, headers kept) followed by RecursiveCharacterTextSplitter with a cl100k_base
length function; semantic-text-splitter's MarkdownSplitter with its bundled tiktoken-rs
"gpt-4" (cl100k_base) tokenizer. LangChain's chunks are located in the source by searching
from the previous chunk; one not found counts as not a span.

    python benchmarks/bench_markdown.py [--reps 5] [--rounds 1] [--out build/bench/markdown.md]

With ``--rounds N``, the speed of each contender is measured in N processes, the
contenders in turn, and the table gives the median ratio over them with its range: on a
shared VM the speed of the machine drifts between minutes more than the ratio measured
inside one process does.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

BUDGET = 512
QUALITY_FOLDERS = (
    "markdown_docs/rust-lang-book/src",
    "markdown_docs/rust-lang-reference/src",
    "chinese/trpl-zh-cn/src",
)

Spans = list[tuple[int, int]]
Split = Callable[[str], tuple[Spans, list[str]]]


def _encoding() -> Any:
    from spansplit.sizing.tiktoken_loader import load_encoding

    return load_encoding("cl100k_base")


def _spansplit_markdown(overlap: int) -> Split:
    from spansplit import MarkdownSplitter

    splitter = MarkdownSplitter(BUDGET, overlap, length="cl100k_base")

    def split(text: str) -> tuple[Spans, list[str]]:
        chunks = splitter.split(text)
        return [(c.start, c.end) for c in chunks], [c.text for c in chunks]

    return split


def _spansplit_preset() -> Split:
    from spansplit import RecursiveSplitter

    splitter = RecursiveSplitter.from_preset("markdown", BUDGET, length="cl100k_base")

    def split(text: str) -> tuple[Spans, list[str]]:
        chunks = splitter.split(text)
        return [(c.start, c.end) for c in chunks], [c.text for c in chunks]

    return split


def _located(text: str, pieces: list[str]) -> Spans:
    """Spans of chunk texts found in order (``(-1, -1)`` for one that is not in the text)."""
    spans, cursor = [], 0
    for piece in pieces:
        at = text.find(piece, cursor)
        if at < 0:
            at = text.find(piece)
        spans.append((at, at + len(piece)) if at >= 0 else (-1, -1))
        if at >= 0:
            cursor = at + 1
    return spans


def _langchain() -> Split:
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    encoding = _encoding()
    headers = [("#" * level, f"Header {level}") for level in range(1, 7)]
    sections = MarkdownHeaderTextSplitter(headers, strip_headers=False)
    pieces = RecursiveCharacterTextSplitter(
        chunk_size=BUDGET,
        chunk_overlap=0,
        length_function=lambda t: len(encoding.encode_ordinary(t)),
    )

    def split(text: str) -> tuple[Spans, list[str]]:
        texts = [c.page_content for c in pieces.split_documents(sections.split_text(text))]
        return _located(text, texts), texts

    return split


def _semantic_text_splitter() -> Split:
    from semantic_text_splitter import MarkdownSplitter

    splitter = MarkdownSplitter.from_tiktoken_model("gpt-4", BUDGET)

    def split(text: str) -> tuple[Spans, list[str]]:
        found = splitter.chunk_indices(text)
        return [(s, s + len(t)) for s, t in found], [t for _, t in found]

    return split


CONTENDERS: dict[str, tuple[str, Callable[[], Split]]] = {
    "spansplit-markdown": ("spansplit MarkdownSplitter", lambda: _spansplit_markdown(0)),
    "spansplit-markdown-1-thread": (
        "spansplit MarkdownSplitter, one encoding thread",
        lambda: _spansplit_markdown(0),
    ),
    "spansplit-markdown-overlap": (
        "spansplit MarkdownSplitter, overlap 64",
        lambda: _spansplit_markdown(64),
    ),
    "spansplit-preset": ("spansplit RecursiveSplitter markdown preset", _spansplit_preset),
    "langchain": (
        "LangChain MarkdownHeaderTextSplitter + RecursiveCharacterTextSplitter",
        _langchain,
    ),
    "semantic-text-splitter": ("semantic-text-splitter MarkdownSplitter", _semantic_text_splitter),
}


ONE_THREAD = {"spansplit-markdown-1-thread"}
"""Contenders run with ``SPANSPLIT_THREADS=1``: the token index encoded on this thread only,
as in the workers of a corpus job (two threads on two cores cost more CPU than one)."""


def measure(name: str, reps: int, quality: bool = True) -> dict[str, Any]:
    """One contender, in this process: speed on 2 MB, then (``quality``) file by file."""
    import texts
    from markdown_judge import Verdict, judge

    split = CONTENDERS[name][1]()
    encoding = _encoding()
    text = texts.load(texts.TextSpec("markdown", "Markdown", 2.0))
    split(text[:20_000])  # warm-up: imports, tokenizer tables
    cpu, wall, floor = [], [], []
    for _ in range(reps):
        c, w = time.process_time(), time.perf_counter()
        encoding.encode_ordinary(text)
        floor.append(time.process_time() - c)
        c, w = time.process_time(), time.perf_counter()
        split(text)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    count = lambda t: len(encoding.encode_ordinary(t))  # noqa: E731
    total = Verdict()
    for folder in QUALITY_FOLDERS if quality else ():
        for path in sorted((texts.CORPUS / folder).rglob("*.md")):
            document = path.read_bytes().decode("utf-8")
            spans, pieces = split(document)
            total.add(judge(document, spans, pieces, BUDGET, count))
    return {
        "name": name,
        "cpu": statistics.median(cpu),
        "wall": statistics.median(wall),
        "encode": statistics.median(floor),
        "chunks": total.chunks,
        "fitting_blocks": total.fitting_blocks,
        "cut_blocks": total.cut_blocks,
        "heading_ends": total.heading_ends,
        "crossing_overlaps": total.crossing_overlaps,
        "over_budget": total.over_budget,
        "inexact": total.inexact,
    }


def _median_ratio(rounds: list[dict[str, Any]], key: str) -> str:
    """The median over processes of ``key`` over the encode, with their range."""
    ratios = sorted(r[key] / r["encode"] for r in rounds)
    middle = f"{statistics.median(ratios):.2f}x"
    return middle if len(ratios) == 1 else f"{middle} ({ratios[0]:.2f}–{ratios[-1]:.2f})"


def report(results: list[list[dict[str, Any]]]) -> str:
    """The table: for each contender, its processes' speed (the first one's quality)."""
    processes = len(results[0]) if results else 1
    lines = [
        f"Markdown at {BUDGET} cl100k_base tokens. Speed: 2 MB of Markdown, median CPU and wall "
        "seconds, and as a ratio to one encode_ordinary in the same process"
        + (
            f" (the median of {processes} processes per contender, run in turn, with their range)"
            if processes > 1
            else ""
        )
        + ". Quality: the corpus documentation file by file, judged by markdown-it-py.",
        "",
        "| contender | CPU s | × encode | wall s | × encode | chunks | fitting fences/tables cut "
        "| chunks ending on a heading | overlaps from the section before | over budget "
        "| not a span |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for rounds in results:
        r = rounds[0]
        blocks, chunks = max(1, r["fitting_blocks"]), max(1, r["chunks"])
        cut = f"{r['cut_blocks']} of {r['fitting_blocks']} ({100 * r['cut_blocks'] / blocks:.1f}%)"
        ends = f"{r['heading_ends']} ({100 * r['heading_ends'] / chunks:.1f}%)"
        crossing = str(r["crossing_overlaps"])
        if r["inexact"] > chunks // 2:  # chunks that are not source text cannot be judged
            cut = ends = crossing = "n/a (not spans)"
        cpu = statistics.median(x["cpu"] for x in rounds)
        wall = statistics.median(x["wall"] for x in rounds)
        lines.append(
            f"| {CONTENDERS[r['name']][0]} | {cpu:.3f} | {_median_ratio(rounds, 'cpu')} "
            f"| {wall:.3f} | {_median_ratio(rounds, 'wall')} | {r['chunks']:,} | {cut} "
            f"| {ends} | {crossing} | {r['over_budget']} | {r['inexact']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="processes per contender, in turn (the VM's speed drifts from minute to minute)",
    )
    parser.add_argument("--one", choices=list(CONTENDERS), help=argparse.SUPPRESS)
    parser.add_argument("--speed-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only", action="append", default=[], help="contenders to run")
    parser.add_argument("--out", type=Path, default=Path("build/bench/markdown.md"))
    options = parser.parse_args()
    if options.one:
        print(json.dumps(measure(options.one, options.reps, quality=not options.speed_only)))
        return
    names = options.only or list(CONTENDERS)
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for round_ in range(options.rounds):
        for name in names:
            environment = dict(os.environ)
            environment.pop("SPANSPLIT_THREADS", None)
            if name in ONE_THREAD:
                environment["SPANSPLIT_THREADS"] = "1"
            command = [sys.executable, __file__, "--one", name, "--reps", str(options.reps)]
            done = subprocess.run(
                command + (["--speed-only"] if round_ else []),
                capture_output=True,
                text=True,
                check=True,
                env=environment,
            )
            results[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(f"{name} ({round_ + 1} of {options.rounds}): done", file=sys.stderr)
    table = report(list(results.values()))
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(table, encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
