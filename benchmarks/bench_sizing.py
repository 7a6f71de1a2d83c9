"""Speed of the tiktoken length function on 1 MB of English and 1 MB of Chinese.

For each text: one ``encode_ordinary`` of the whole text (the yardstick), then the sizes of
its paragraphs (split at blank lines) counted in a plain loop, by ``count_spans`` (the
shared thread pool), and by tiktoken's own ``encode_ordinary_batch``; then a walk over the
text with ``prefix_hint`` at 512 tokens, as the hard cut uses it. Best of several runs.

Run: ``python benchmarks/bench_sizing.py`` (corpus from ``$SPANSPLIT_CORPUS``, else
``../shared/corpus`` beside the repository).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import regex

from spansplit.sizing import tiktoken as tk
from spansplit.sizing.tiktoken_loader import encoding_source

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("SPANSPLIT_CORPUS", ROOT.parent / "shared" / "corpus"))
TEXTS = {
    "English": "english_prose/pg2701_moby_dick.txt",
    "Chinese": "chinese/pg23962_xiyouji_journey_to_the_west.txt",
}
SIZE = 1_000_000
RUNS = 7


def best_of(variants: dict[str, Callable[[], object]], runs: int = RUNS) -> dict[str, float]:
    """The fastest of ``runs`` timings of each variant, in seconds, run in interleaved
    rounds so that other load on the machine weighs on every variant alike."""
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(runs):
        for name, function in variants.items():
            start = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - start)
    return {name: min(values) for name, values in times.items()}


def paragraphs(text: str) -> list[tuple[int, int]]:
    """Spans of the text between blank lines."""
    spans, start = [], 0
    for gap in regex.finditer(r"\n[ \t]*(?:\r?\n|\r)\s*|\r\n[ \t]*\r\n\s*", text):
        if gap.start() > start:
            spans.append((start, gap.start()))
        start = gap.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def hint_walk(length: tk.TiktokenLength, text: str, budget: int) -> int:
    """Cut the whole text into prefix hints of ``budget`` tokens; returns the cut count."""
    position, cuts = 0, 0
    while position < len(text):
        step = length.prefix_hint(text, position, len(text), budget) or 1
        position += step
        cuts += 1
    return cuts


def measure(label: str, text: str, length: tk.TiktokenLength) -> None:
    """Time and print every variant on one text."""
    encoding = length.encoding
    spans = paragraphs(text)
    pieces = [text[s:e] for s, e in spans]
    workers = tk._workers()
    cuts = hint_walk(length, text, 512)
    assert length.count_spans(text, spans) == length._count_run(text, spans)
    timed = best_of(
        {
            "one encode_ordinary(text)": lambda: encoding.encode_ordinary(text),
            "count_spans, plain loop": lambda: length._count_run(text, spans),
            "count_spans, thread pool": lambda: length.count_spans(text, spans),
            "encode_ordinary_batch (8 threads)": lambda: encoding.encode_ordinary_batch(pieces),
            f"encode_ordinary_batch ({workers} threads)": lambda: encoding.encode_ordinary_batch(
                pieces, num_threads=workers
            ),
            f"prefix_hint walk at 512 tokens ({cuts} cuts)": lambda: hint_walk(length, text, 512),
        }
    )
    tokens = len(encoding.encode_ordinary(text))
    print(f"{label}: {len(text):,} code points, {tokens:,} tokens, {len(spans):,} paragraphs")
    whole = timed["one encode_ordinary(text)"]
    for name, seconds in timed.items():
        print(f"  {name:<48} {seconds * 1000:8.1f} ms  {seconds / whole:5.2f}x one encode")
    loop, pooled = timed["count_spans, plain loop"], timed["count_spans, thread pool"]
    print(f"  pool vs loop: {loop / pooled:.2f}x faster\n")


def main() -> int:
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}; set SPANSPLIT_CORPUS", file=sys.stderr)
        return 1
    started = time.perf_counter()
    length = tk.tiktoken_length("cl100k_base")
    print(
        f"load cl100k_base: {time.perf_counter() - started:.2f} s "
        f"from {encoding_source('cl100k_base')}"
    )
    print(f"threads: {tk._workers()}; pool used from {tk.PARALLEL_MIN_CHARS} code points\n")
    for label, relative in TEXTS.items():
        measure(label, (CORPUS / relative).read_text(encoding="utf-8")[:SIZE], length)
    return 0


if __name__ == "__main__":
    sys.exit(main())
