"""Speed of ``sentence_spans`` against one pass of a line-ending regex over the same text.

Issue 3's speed clause: sentence segmentation of 1 MB (the first 1,000,000 code points)
of English and of Chinese takes at most 3x the time of one
``sum(1 for _ in re.finditer(r"\\r\\n|\\r|\\n", text))`` over the same text, in the same
process. The yardstick and the segmenter are timed in interleaved rounds (so a busy
machine slows them alike) and the medians are reported with their ratio (the ratio of the
fastest rounds is shown too: on a busy machine it is the steadier figure). Other texts are
shown for information: CRLF prose, Markdown, and text with emoji (whose lines take the
exact ``regex`` path); so are plain UAX #29 and ``wrapped=True``.

Run: ``python benchmarks/bench_sentences.py [--rounds N]`` (corpus from
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

from spansplit.boundaries.sentences import sentence_spans

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("SPANSPLIT_CORPUS", ROOT.parent / "shared" / "corpus"))
SIZE = 1_000_000
LIMIT = 3.0
REQUIRED = {
    "English (Moby-Dick)": ["english_prose/pg2701_moby_dick.txt"],
    "Chinese (Journey to the West)": ["chinese/pg23962_xiyouji_journey_to_the_west.txt"],
}
INFORMATIVE = {
    "English, CRLF (Pride and Prejudice)": [
        "english_prose/pg1342_pride_and_prejudice.gitenberg.crlf.txt"
    ],
    "Markdown (Rust book)": ["markdown_docs/rust-lang-book/src"],
    "Emoji test file (exact path)": ["mixed/unicode-emoji-14.0/emoji-test.txt"],
}


def load(parts: list[str]) -> str:
    """The first 1,000,000 code points of the given files or folders, read byte-exact."""
    pieces = []
    for part in parts:
        path = CORPUS / part
        files = sorted(path.glob("*.md")) if path.is_dir() else [path]
        pieces += [f.read_bytes().decode("utf-8") for f in files]
    return "".join(pieces)[:SIZE]


def yardstick(text: str) -> int:
    """The reference pass, exactly as the issue states it."""
    return sum(1 for _ in re.finditer(r"\r\n|\r|\n", text))


def timed(function: Callable[[], object]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def measure(name: str, text: str, rounds: int) -> float:
    """Print one line of figures for ``text``; return the ratio for the default settings."""
    runs: dict[str, list[float]] = {
        "yardstick": [],
        "default": [],
        "plain UAX #29": [],
        "wrapped": [],
    }
    for _ in range(rounds):
        runs["yardstick"].append(timed(lambda: yardstick(text)))
        runs["default"].append(timed(lambda: sentence_spans(text)))
        runs["plain UAX #29"].append(
            timed(lambda: sentence_spans(text, abbreviations=(), openers=False))
        )
        runs["wrapped"].append(timed(lambda: sentence_spans(text, wrapped=True)))
    medians = {key: statistics.median(values) for key, values in runs.items()}
    base = medians["yardstick"]
    count = len(sentence_spans(text))
    figures = "  ".join(
        f"{key} {value * 1000:6.1f} ms ({value / base:4.2f}x)" for key, value in medians.items()
    )
    best = min(runs["default"]) / min(runs["yardstick"])
    print(f"{name}: {len(text):,} chars, {count:,} sentences (best-of ratio {best:.2f}x)")
    print(f"    {figures}")
    return medians["default"] / base


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9, help="timed rounds (median is shown)")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}; set SPANSPLIT_CORPUS", file=sys.stderr)
        return 2
    setup = timed(lambda: sentence_spans("Warm up. Builds and compiles the patterns once."))
    print(f"first call (classes from regex's Unicode data + compiling): {setup * 1000:.0f} ms")
    print(f"median of {args.rounds} interleaved rounds; target: default <= {LIMIT}x yardstick")
    worst = 0.0
    for name, parts in REQUIRED.items():
        worst = max(worst, measure(name, load(parts), args.rounds))
    for name, parts in INFORMATIVE.items():
        measure(name, load(parts), args.rounds)
    verdict = "PASS" if worst <= LIMIT else "FAIL"
    print(f"{verdict}: worst required ratio {worst:.2f}x (limit {LIMIT}x)")
    return 0 if worst <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
