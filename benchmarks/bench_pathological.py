"""Pathological texts: time per MB and peak memory per MB of every splitter and length.

Each family is a text no tuned benchmark has: one line without spaces (minified code,
base64), URL paths, floods of blank lines, CR-only lines, combining marks, emoji ZWJ
sequences, CJK without punctuation, deep Markdown nesting (40 quotes and 40 lists a line,
quotes or lists nested on one line, a list item of one long line), a long whitespace run, words
longer than the budget, log lines (one paragraph with no sentence end), a block of a
megabyte after a heading and a paragraph (a quotation), and prose with a tiny budget or an
overlap near the budget. Each
is built at 256 KB, 1 MB and 4 MB (of UTF-8) and split by every splitter under code points,
UTF-8 bytes and cl100k_base, each measurement in a fresh process:

* CPU and wall seconds per MB, and the growth of time per MB from 1 MB to 4 MB (linear
  time: about 1.0; the target is at most 1.3);
* the peak resident memory the split adds (the process's high-water mark, reset just
  before it), as a multiple of the text's size in memory (the target is at most 8x); each
  process first splits 64 KB of the same family, so what happens once per process (the
  tokenizer and grammar loaded, numpy imported, the counting threads started: about 30 MB
  with cl100k_base) is not counted as memory of the text;
* the outcome: chunks, or the error raised (a grapheme cluster over the budget is an
  expected ``ChunkTooLargeError``), and whether the chunks keep the promise (exact spans,
  within budget, in order, no text lost).

A run over ``--timeout`` seconds is stopped, reported as such, and the larger sizes of that
row are skipped.

    python benchmarks/bench_pathological.py                     # everything (about an hour)
    python benchmarks/bench_pathological.py --sizes 0.25 1 --only recursive --only cl100k
    python benchmarks/bench_pathological.py --list              # the rows, nothing run
"""

from __future__ import annotations

import argparse
import base64
import gc
import hashlib
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MB = 1_000_000
PROSE = (ROOT / "tests" / "data" / "english.txt").read_text(encoding="utf-8")


def _repeat(unit: str, megabytes: float) -> str:
    """``unit`` repeated to ``megabytes`` MB of UTF-8 (cut at a code point)."""
    size = int(megabytes * MB)
    data = (unit * (size // len(unit.encode()) + 1)).encode()[:size]
    return data.decode("utf-8", "ignore")


def _whole_lines(text: str) -> str:
    """``text`` up to the end of its last line ending (a file of lines ends with one)."""
    return text[: text.rfind("\n") + 1]


def _no_space_line(megabytes: float) -> str:
    seed = b"spansplit"
    parts, size = [], 0
    while size < megabytes * MB:
        seed = hashlib.sha256(seed).digest()
        parts.append(base64.b64encode(seed * 64).decode())
        size += len(parts[-1])
    return "".join(parts)[: int(megabytes * MB)] + "\n"


CJK = "".join(chr(0x4E00 + (i * 7919) % 20000) for i in range(4096))

FAMILIES: dict[str, Callable[[float], str]] = {
    "no-space line": _no_space_line,
    "url paths": lambda mb: _repeat("/api/v2/resources/item-0042/children?page=7&sort=asc", mb),
    "blank lines": lambda mb: _repeat("\n", mb),
    "tiny paragraphs": lambda mb: _repeat("a\n\n", mb),
    "cr-only lines": lambda mb: _repeat("- a list item ending in a lone CR\r", mb),
    "lf with one cr": lambda mb: (lambda t: t[: len(t) // 2] + "\r" + t[len(t) // 2 :])(
        _repeat("- a list item ending in LF\n", mb)
    ),
    "combining marks": lambda mb: _repeat("e\u0301\u0323", mb),
    "emoji zwj": lambda mb: _repeat("👩\u200d👩\u200d👧\u200d👦", mb),
    "cjk unpunctuated": lambda mb: _repeat(CJK, mb),
    "deep markdown": lambda mb: _repeat("> " * 40 + "- " * 40 + "item text\n", mb),
    "whitespace run": lambda mb: "a" + " " * max(int(mb * MB) - 2, 0) + "b",
    "long words": lambda mb: _repeat("x" * 3000 + " ", mb),
    "log lines": lambda mb: _whole_lines(
        _repeat("2024-01-01 12:00:01 INFO worker-3 request served in 9 ms\n", mb)
    ),
    "block after a heading": lambda mb: (
        "# A heading\n\nAn introduction.\n\n"
        + _repeat("> a quoted line with some words in it\n", mb)
    ),
    "heading run": lambda mb: _repeat("# a\n## b\n", mb),
    "fence lines": lambda mb: _repeat("```\n", mb),
    "nested quotes on one line": lambda mb: _repeat("> ", mb)[:-2] + "x\n",
    "nested lists on one line": lambda mb: _repeat("- ", mb)[:-2] + "x\n",
    "one long list item": lambda mb: "- " + _repeat(" ".join(PROSE.split()) + " ", mb) + "\n",
    "prose": lambda mb: _repeat(PROSE + "\n\n", mb),
}

WARM_UP_MEGABYTES = 1 / 16
"""Each measurement first splits 64 KB of its own family (see :func:`worker`)."""

# name -> (budget in code points or UTF-8 bytes, budget in tokens, overlap share)
SETTINGS: dict[str, tuple[int, int, float]] = {
    "usual": (2000, 512, 0.1),
    "tiny budget": (24, 6, 0.0),
    "overlap near budget": (2000, 512, 0.95),
}
SETTINGS_OF_FAMILY = {"prose": tuple(SETTINGS)}

SPLITTERS = (
    "recursive",
    "recursive-markdown",
    "sentences",
    "paragraphs",
    "blocks",
    "markdown",
    "code-python",
)
LENGTHS = ("chars", "utf8", "cl100k_base")


def rows() -> list[tuple[str, str, str, str]]:
    """Every (family, setting, splitter, length) measured."""
    return [
        (family, setting, splitter, length)
        for family in FAMILIES
        for setting in SETTINGS_OF_FAMILY.get(family, ("usual",))
        for splitter in SPLITTERS
        for length in LENGTHS
    ]


def make_splitter(name: str, setting: str, length: str) -> Any:
    import spansplit

    chars, tokens, share = SETTINGS[setting]
    size = tokens if length == "cl100k_base" else chars
    overlap = min(int(size * share), size - 1)
    if name == "recursive":
        return spansplit.RecursiveSplitter(size, overlap, length=length)
    if name == "recursive-markdown":
        return spansplit.RecursiveSplitter.from_preset(
            "markdown", size, chunk_overlap=overlap, length=length
        )
    if name == "sentences":
        return spansplit.SentenceSplitter(size, overlap, length=length)
    if name == "paragraphs":
        return spansplit.ParagraphSplitter(size, overlap, length=length)
    if name == "blocks":
        return spansplit.BlockSplitter(size, length=length)
    if name == "markdown":
        return spansplit.MarkdownSplitter(size, overlap, length=length)
    if name == "code-python":
        return spansplit.CodeSplitter("python", size, overlap, length=length)
    raise ValueError(name)


def _rss(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field):
            return int(line.split()[1]) * 1024
    return 0


def kept_promise(text: str, chunks: list[Any], budget: int) -> str:
    """ "ok", or the first broken promise (spans, budget, order, lost text)."""
    covered, previous = 0, -1
    lost = 0
    for chunk in chunks:
        if text[chunk.start : chunk.end] != chunk.text:
            return f"chunk {chunk.index} is not its span"
        if chunk.size > budget and not chunk.oversized:
            return f"chunk {chunk.index} has size {chunk.size} > {budget}"
        if chunk.start <= previous:
            return f"chunk {chunk.index} is out of order"
        if chunk.start > covered:
            lost += len(text[covered : chunk.start].strip())
        covered, previous = max(covered, chunk.end), chunk.start
    lost += len(text[covered:].strip())
    return "ok" if not lost else f"{lost} non-blank characters in no chunk"


def chunks_size(chunks: list[Any]) -> int:
    """Bytes the returned chunks hold (the list, each chunk, its text, its ints beyond the
    small ones Python shares, each counted once where chunks share one, its metadata one
    level deep): memory any splitter that returns these chunks needs, whatever its own
    working memory."""
    total = sys.getsizeof(chunks)
    counted: set[int] = set()  # the ids of the ints counted (all alive with the chunks)
    for chunk in chunks:
        total += sys.getsizeof(chunk) + sys.getsizeof(chunk.text)
        numbers = (chunk.start, chunk.end, chunk.index, chunk.start_line, chunk.end_line)
        for number in (*numbers, chunk.size):
            if number > 256 and id(number) not in counted:
                counted.add(id(number))
                total += sys.getsizeof(number)
        if chunk.metadata:
            values = dict(chunk.metadata)
            total += sys.getsizeof(values) + sum(sys.getsizeof(v) for v in values.values())
    return total


def _warm_counting_threads(length: object) -> None:
    """Have every thread of the counting pool make its copy of a tiktoken encoding (a
    barrier keeps each task on a thread of its own)."""
    import threading

    from spansplit.sizing.tiktoken import TiktokenLength

    if not isinstance(length, TiktokenLength):
        return
    workers = length.workers()
    if workers < 2:
        return
    barrier = threading.Barrier(workers)

    def copy() -> None:
        length._thread_encoding()  # (the first call on a thread makes its copy)
        barrier.wait(timeout=10)

    for future in [length.in_background(copy) for _ in range(workers)]:
        future.result()


def worker(family: str, setting: str, splitter_name: str, length: str, megabytes: float) -> None:
    """One measurement in this (fresh) process; prints one JSON line."""
    text = FAMILIES[family](megabytes)
    result: dict[str, Any] = {"bytes": len(text.encode()), "in_memory": sys.getsizeof(text)}
    try:
        splitter = make_splitter(splitter_name, setting, length)
        # What a process does once, before its first long text, is not memory of the text:
        # loading the tokenizer and the grammar, importing numpy, starting the counting
        # threads and their copies of the tokenizer (about 13 MB each for cl100k_base,
        # made by each thread the first time it counts). A short text of the same family
        # does most of it; the counting threads are warmed here (a short split may count
        # on the calling thread alone); numpy, which only a long enough text needs (about
        # 11 MB once), is imported here.
        splitter.split(FAMILIES[family](WARM_UP_MEGABYTES))
        _warm_counting_threads(splitter.length)
        from spansplit.lines import optional_numpy

        optional_numpy()
    except Exception as error:  # a splitter this machine cannot make (a missing extra)
        result["error"] = f"{type(error).__name__}: {error}"[:160]
        print(json.dumps(result))
        return
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5")  # the high-water mark starts again here
    before = _rss("VmRSS:")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    try:
        chunks = splitter.split(text)
    except Exception as error:
        chunks = None
        result["error"] = f"{type(error).__name__}: {error}"[:160]
    result["wall"] = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF)
    result["cpu"] = after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime
    result["peak"] = max(_rss("VmHWM:") - before, 0)
    if chunks is not None:
        result["chunks"] = len(chunks)
        result["kept"] = chunks_size(chunks)
        result["promise"] = kept_promise(text, chunks, splitter.chunk_size)
    print(json.dumps(result))


def measure(row: tuple[str, str, str, str], megabytes: float, timeout: float) -> dict[str, Any]:
    argv = [sys.executable, __file__, "--worker", *row, str(megabytes)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    if done.returncode != 0 or not done.stdout.strip():
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"crash": f"exit {done.returncode}: {last[:160]}"}
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def cell(result: dict[str, Any]) -> str:
    if "timeout" in result:
        return f"> {result['timeout']:.0f} s"
    if "crash" in result:
        return "crash"
    if "wall" not in result:
        return "n/a"
    per_mb = result["cpu"] / (result["bytes"] / MB)
    memory = result["peak"] / result["in_memory"]
    kept = result.get("kept", 0) / result["in_memory"]
    mark = "" if result.get("promise", "ok") == "ok" else " ✗"
    return f"{per_mb:.2f} s/MB, {memory:.1f}x ({kept:.1f}x kept){mark}"


def summary(results: dict[str, dict[str, dict[str, Any]]], sizes: list[float]) -> list[str]:
    """The targets over every measurement: linear time, at most 3 s at 1 MB, at most 8x."""
    measured = [
        (key, size, result)
        for key, by_size in results.items()
        for size, result in by_size.items()
        if "wall" in result
    ]
    peaks = sorted(r["peak"] / r["in_memory"] for _, _, r in measured)
    working = [(r["peak"] - r.get("kept", 0)) / r["in_memory"] for _, _, r in measured]
    slow = [
        f"{key} ({r['cpu']:.1f} s)" for key, size, r in measured if size == "1" and r["cpu"] > 3
    ]
    growths = [g for by_size in results.values() if (g := growth(by_size, sizes)) is not None]
    lines = ["## Summary", ""]
    if growths:
        within = sum(g <= 1.3 for g in growths)
        lines.append(f"- CPU time per MB grows at most 1.3x in {within} of {len(growths)} rows.")
    if peaks:
        lines += [
            f"- Peak memory at most 8x the text in {sum(p <= 8 for p in peaks)} of "
            f"{len(peaks)} measurements (median {peaks[len(peaks) // 2]:.1f}x); the peak less "
            f"what the chunks returned keep, in {sum(w <= 8 for w in working)}.",
            f"- More than 3 s at 1 MB: {', '.join(slow) if slow else 'none'}.",
        ]
    return [*lines, ""]


def report(results: dict[str, dict[str, dict[str, Any]]], sizes: list[float]) -> str:
    """One Markdown table per family."""
    lines = [
        "# Pathological texts",
        "",
        "CPU seconds per MB of UTF-8 and the peak memory the split adds (a multiple of the "
        "text's size in memory) at each size; growth is CPU time per MB at the largest size "
        "over the same at 1 MB (linear: 1.0); kept: the memory the chunks returned hold (a "
        "part of the peak, needed by any splitter that returns them). ✗: a broken promise "
        "(listed below the table).",
        "",
        *summary(results, sizes),
    ]
    notes: list[str] = []
    families = dict.fromkeys(key.split(" | ")[0] for key in results)
    for family in families:
        lines += [f"## {family}", ""]
        header = ["setting", "splitter", "length", *[f"{s:g} MB" for s in sizes], "growth"]
        lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for key, by_size in results.items():
            if not key.startswith(family + " | "):
                continue
            _, setting, splitter, length = key.split(" | ")
            cells = [cell(by_size.get(f"{s:g}", {})) for s in sizes]
            ratio = growth(by_size, sizes)
            shown = "" if ratio is None else f"{ratio:.2f}"
            lines.append("| " + " | ".join([setting, splitter, length, *cells, shown]) + " |")
            for size_key, result in by_size.items():
                problem = result.get("crash") or (
                    result.get("promise") if result.get("promise") not in (None, "ok") else None
                )
                if result.get("error") and not result["error"].startswith("ChunkTooLargeError"):
                    problem = problem or result["error"]
                if problem:
                    notes.append(f"- {key} at {size_key} MB: {problem}")
        lines.append("")
    if notes:
        lines += ["## Problems", "", *notes, ""]
    return "\n".join(lines)


def growth(by_size: dict[str, dict[str, Any]], sizes: list[float]) -> float | None:
    """CPU time per MB at the largest size over the same at 1 MB (None: not measured)."""
    base, top = by_size.get("1", {}), by_size.get(f"{max(sizes):g}", {})
    if "cpu" in base and "cpu" in top and max(sizes) > 1:
        return float((top["cpu"] / top["bytes"]) / max(base["cpu"] / base["bytes"], 1e-12))
    return None


def again(out: Path, sizes: list[float], timeout: float) -> None:
    """The second pass (``--again``): this VM's CPU speed changes from minute to minute, so
    a row over the growth target is measured once more before it counts as one."""
    json_path = out.with_suffix(".json")
    results = json.loads(json_path.read_text())
    flagged = [
        key
        for key, by_size in results.items()
        if (growth(by_size, sizes) or 0) > 1.3 or any("timeout" in r for r in by_size.values())
    ]
    lines = [
        "## Second pass",
        "",
        f"The {len(flagged)} rows over 1.3x growth or timed out in the first pass, measured "
        "again at every size (fresh processes, same settings):",
        "",
        "| row | first pass growth | second pass | growth |",
        "|---|---|---|---|",
    ]
    within = 0
    passes: dict[str, dict[str, dict[str, Any]]] = {}
    for number, key in enumerate(flagged, 1):
        row = tuple(key.split(" | "))
        second: dict[str, dict[str, Any]] = {}
        for megabytes in sizes:
            result = measure(row, megabytes, timeout)  # type: ignore[arg-type]
            second[f"{megabytes:g}"] = result
            print(f"[{number}/{len(flagged)}] {key} {megabytes:g} MB: {cell(result)}", flush=True)
            if "timeout" in result or "crash" in result:
                break
        first, now = growth(results[key], sizes), growth(second, sizes)
        within += now is not None and now <= 1.3
        cells = " / ".join(cell(second.get(f"{s:g}", {})) for s in sizes)
        shown = (
            "timeout" if first is None else f"{first:.2f}",
            "–" if now is None else f"{now:.2f}",
        )
        passes[key] = second
        lines.append(f"| {key.replace(' | ', ', ')} | {shown[0]} | {cells} | {shown[1]} |")
    lines += ["", f"{within} of {len(flagged)} are within 1.3x in the second pass.", ""]
    with out.open("a", encoding="utf-8") as report_file:
        report_file.write("\n" + "\n".join(lines))
    again_path = out.with_name(out.stem + "-again.json")
    again_path.write_text(json.dumps(passes, indent=1))
    print(f"appended the second pass to {out}; its measurements are in {again_path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[0.25, 1, 4])
    parser.add_argument("--only", action="append", default=[], help="keep rows naming this")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "bench" / "pathological.md")
    parser.add_argument(
        "--again",
        action="store_true",
        help="measure again, at every size, the rows of --out's JSON whose growth was over "
        "1.3x or that timed out, and add them to the report as a second pass",
    )
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        family, setting, splitter, length, megabytes = options.worker
        worker(family, setting, splitter, length, float(megabytes))
        return
    if options.again:
        again(options.out, sorted(options.sizes), options.timeout)
        return
    chosen = [r for r in rows() if all(word in " | ".join(r) for word in options.only)]
    if options.list:
        print("\n".join(" | ".join(r) for r in chosen), f"\n{len(chosen)} rows", sep="")
        return
    results: dict[str, dict[str, dict[str, Any]]] = {}
    json_path = options.out.with_suffix(".json")
    for number, row in enumerate(chosen, 1):
        key = " | ".join(row)
        results[key] = {}
        for megabytes in sorted(options.sizes):
            result = measure(row, megabytes, options.timeout)
            results[key][f"{megabytes:g}"] = result
            print(f"[{number}/{len(chosen)}] {key} {megabytes:g} MB: {cell(result)}", flush=True)
            if "timeout" in result or "crash" in result:
                break
        options.out.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(results, indent=1))
    options.out.write_text(report(results, sorted(options.sizes)))
    print(f"wrote {options.out} and {json_path}")


if __name__ == "__main__":
    main()
