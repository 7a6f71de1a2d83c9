"""Speed of ``split_paragraphs`` and ``split_blocks`` against one pass of a line-ending regex.

Issue 2's speed clause: on 1 MB of real text each splitter runs within 3x the time of one
``re.finditer(r"\\r\\n|\\r|\\n", text)`` pass over the same text, in the same process. The
yardstick and the splitters are timed in interleaved rounds, in CPU time of this process
(``time.process_time``: other processes on a busy machine do not count), and the median
and the best of the rounds are reported, with the ratios of the medians.

Run: ``python benchmarks/bench_foundation.py [--rounds N]`` (corpus from
``$SPANSPLIT_CORPUS``, else ``../shared/corpus`` beside the repository).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from spansplit import split_paragraphs
from spansplit.splitters.blocks import split_blocks

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("SPANSPLIT_CORPUS", ROOT.parent / "shared" / "corpus"))
TEXTS = {
    "English, LF (Moby-Dick)": ["english_prose/pg2701_moby_dick.txt"],
    "English, CRLF + BOM (Pride and Prejudice)": [
        "english_prose/pg1342_pride_and_prejudice.gitenberg.crlf.txt",
        "english_prose/pg84_frankenstein.gitenberg.crlf.txt",
    ],
    "Chinese (Journey to the West)": ["chinese/pg23962_xiyouji_journey_to_the_west.txt"],
    "Markdown (Rust book)": ["markdown_docs/rust-lang-book/src"],
}
SIZE = 1_000_000
TARGETS = (200, 1000, 4000)
LINE_ENDING = re.compile(r"\r\n|\r|\n")


def load(parts: list[str]) -> str:
    """1 MB (code points) of the given files or folders, read byte-exact (CRLF kept)."""
    pieces = []
    for part in parts:
        path = CORPUS / part
        files = sorted(path.glob("*.md")) if path.is_dir() else [path]
        pieces += [f.read_bytes().decode("utf-8") for f in files]
    text = "".join(pieces)
    return text[:SIZE]


def yardstick(text: str) -> int:
    """One pass of the line-ending regex, consuming every match."""
    count = 0
    for _ in LINE_ENDING.finditer(text):
        count += 1
    return count


def cpu_times(functions: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    """CPU seconds of each function in each of ``rounds`` interleaved rounds."""
    times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(rounds):
        for name, function in functions.items():
            start = time.process_time()
            function()
            times[name].append(time.process_time() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="rounds (median is reported)")
    options = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS} (set SPANSPLIT_CORPUS)", file=sys.stderr)
        return 1
    worst = {"main": 0.0, "small": 0.0}
    for label, parts in TEXTS.items():
        text = load(parts)
        functions: dict[str, Callable[[], object]] = {
            "finditer": lambda text=text: yardstick(text),
            "split_paragraphs": lambda text=text: split_paragraphs(text),
        }
        for target in TARGETS:
            functions[f"split_blocks {target}"] = lambda t=text, n=target: split_blocks(t, n)
        times = cpu_times(functions, max(options.rounds, 5))
        base = statistics.median(times["finditer"])
        print(f"{label}: {len(text):,} code points, {yardstick(text):,} line endings")
        print(f"  {'':<18} {'median':>9} {'best':>9}  median ratio")
        print(f"  {'finditer':<18} {base * 1e3:6.2f} ms {min(times['finditer']) * 1e3:6.2f} ms")
        for name, values in times.items():
            if name == "finditer":
                continue
            median = statistics.median(values)
            ratio = median / base
            if "Markdown" not in label:
                key = "small" if name.endswith(f" {TARGETS[0]}") else "main"
                worst[key] = max(worst[key], ratio)
            count = len(functions[name]())  # type: ignore[arg-type]
            print(
                f"  {name:<18} {median * 1e3:6.2f} ms {min(values) * 1e3:6.2f} ms  "
                f"{ratio:5.2f}x  ({count:,} chunks)"
            )
    verdict = "within" if worst["main"] <= 3 else "OVER"
    print(
        f"books, worst median ratio: {worst['main']:.2f}x for split_paragraphs and "
        f"split_blocks at targets {TARGETS[1]} and {TARGETS[2]} ({verdict} the 3x target); "
        f"{worst['small']:.2f}x at target {TARGETS[0]}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
