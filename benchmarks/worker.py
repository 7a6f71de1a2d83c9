"""One measurement in a process of its own: one splitter, one text, one budget.

``run.py`` starts this script once per measurement and reads the JSON line it prints. In
order, untimed parts marked so:

1. load the text and (always) cl100k_base through spansplit's offline loader (untimed);
2. build the splitter and run it on the first 40,000 code points, so lazy set-up (imports,
   compiled patterns) is done (untimed; 40,000 because spansplit's token index, and the
   numpy import it may make, start at 32,768 code points);
3. **memory**: freed heap memory is handed back to the OS (``malloc_trim``), the peak
   resident set size (RSS) of the process is reset (``/proc/self/clear_refs``), the splitter
   runs once on the whole text, and the peak RSS over the RSS just before the run is its
   memory (Rust extensions included, which tracemalloc would not see); that run's chunks
   are then checked (count, largest, over budget, exact offsets; untimed);
4. **time**: ``reps`` repetitions, each building a fresh splitter (untimed; peers with a
   memo cache get it emptied) then timing one call, each followed by one timed pass of the
   floor (``encode_ordinary`` of the text for token budgets, a line-ending ``finditer`` pass
   for character budgets), so a busy machine slows both alike; wall time
   (``perf_counter``) and CPU time (``process_time``, every thread of the process) of both.
   The memory run is never timed: it is the first run at full size, whose fresh pages the
   later runs reuse.

Run by hand: ``python benchmarks/worker.py '{"contender": "spansplit-recursive", "text":
{"key": "english", "label": "English", "megabytes": 1}, "budget": {"unit": "tokens",
"size": 512, "overlap": 0}, "reps": 5}'``.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import os
import re
import resource
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers
import texts

LINE_ENDING = re.compile(r"\r\n|\r|\n")
WARM_UP_CODE_POINTS = 40_000
MARKER = "@@result@@ "
PAGE = os.sysconf("SC_PAGE_SIZE")


def resident() -> int:
    """Bytes of the process now in RAM (0 where ``/proc`` is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * PAGE
    except OSError:
        return 0


def release_free_memory() -> None:
    """Hand freed heap memory back to the OS (glibc ``malloc_trim``), so that the run's
    allocations show in the RSS instead of reusing pages that set-up touched and freed."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def reset_peak() -> bool:
    """Restart the kernel's peak-RSS mark (VmHWM); False where that is not allowed."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
    except OSError:
        return False
    return True


def peak() -> int:
    """Bytes of the largest RSS since the last reset (or since the process started)."""
    try:
        with open("/proc/self/status") as status:
            match = re.search(r"VmHWM:\s+(\d+) kB", status.read())
    except OSError:
        match = None
    if match is None:  # not Linux: the peak since the process started (kB on Linux, B on macOS)
        maximum = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return maximum if sys.platform == "darwin" else maximum * 1024
    return int(match.group(1)) * 1024


def line_ending_pass(text: str) -> int:
    """The character-budget floor, exactly as issue 3 states it."""
    return sum(1 for _ in LINE_ENDING.finditer(text))


def floor_for(unit: str, encoding: Any) -> tuple[str, Callable[[str], object]]:
    if unit == "tokens":
        return "encode_ordinary", encoding.encode_ordinary
    return "finditer", line_ending_pass


def timed(function: Callable[[], object]) -> tuple[float, float, object]:
    """Wall and CPU seconds of one call, and its result."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = function()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def check(
    text: str, pieces: list[peers.Piece], budget: peers.Budget, encoding: Any
) -> dict[str, Any]:
    """Count, largest (in the budget's unit), over budget, exact offsets of the chunks."""
    bodies = [body for body, _, _ in pieces]
    if budget.unit == "tokens":
        sizes = [len(tokens) for tokens in encoding.encode_ordinary_batch(bodies)]
    else:
        sizes = [len(body) for body in bodies]
    with_offsets = [(b, s, e) for b, s, e in pieces if s is not None and e is not None]
    exact = sum(text[s:e] == b for b, s, e in with_offsets)
    return {
        "chunks": len(pieces),
        "largest": max(sizes, default=0),
        "over_budget": sum(size > budget.size for size in sizes) if budget.size else None,
        "exact": exact if with_offsets else None,
        "with_offsets": len(with_offsets),
        "empty": sum(not body.strip() for body in bodies),
    }


def measure(spec: dict[str, Any]) -> dict[str, Any]:
    contender = peers.BY_KEY[spec["contender"]]
    text_spec = texts.TextSpec(**spec["text"])
    budget = peers.Budget(**spec["budget"])
    reps = int(spec.get("reps", 5))

    from spansplit.sizing.tiktoken_loader import load_encoding

    encoding = load_encoding("cl100k_base")
    text = texts.load(text_spec)
    floor_name, floor = floor_for(budget.unit, encoding)
    import spansplit

    out: dict[str, Any] = {
        "spec": spec,
        "spansplit_from": str(Path(spansplit.__file__).parent),
        "utf8_bytes": len(text.encode("utf-8")),
        "code_points": len(text),
        "str_bytes": sys.getsizeof(text),
        "floor": floor_name,
    }

    def build() -> peers.Built:
        if contender.fresh is not None:
            contender.fresh()
        return contender.build(budget, encoding)

    started = time.perf_counter()
    call, pieces = build()
    call(text[:WARM_UP_CODE_POINTS])
    floor(text[:WARM_UP_CODE_POINTS])
    out["warm_up_seconds"] = time.perf_counter() - started

    call, pieces = build()
    gc.collect()
    release_free_memory()
    before = resident()
    out["peak_method"] = "VmHWM reset" if reset_peak() else "ru_maxrss (not reset)"
    wall, cpu, result = timed(lambda: call(text))
    out["rss_before"], out["rss_peak"] = before, peak()
    out["peak_bytes"] = max(0, out["rss_peak"] - before)
    out["quality"] = check(text, pieces(text, result), budget, encoding)
    del result

    walls, cpus, floor_walls, floor_cpus = [], [], [], []
    for _ in range(max(1, reps)):
        call, pieces = build()
        gc.collect()
        wall, cpu, result = timed(partial(call, text))
        del result
        walls.append(wall)
        cpus.append(cpu)
        floor_wall, floor_cpu, _ = timed(lambda: floor(text))
        floor_walls.append(floor_wall)
        floor_cpus.append(floor_cpu)
    out.update(
        wall=walls,
        cpu=cpus,
        floor_wall=floor_walls,
        floor_cpu=floor_cpus,
        median=statistics.median(walls),
        best=min(walls),
        cpu_median=statistics.median(cpus),
        cpu_best=min(cpus),
        floor_median=statistics.median(floor_walls),
        floor_cpu_median=statistics.median(floor_cpus),
        timed_reps=len(walls),
        encoding_threads=encoding_threads(),
    )
    return out


def encoding_threads() -> int:
    """Threads spansplit encodes a text with in this process (``SPANSPLIT_THREADS`` caps it)."""
    from spansplit.sizing.tiktoken import _workers

    return _workers()


def main() -> int:
    spec = json.loads(sys.argv[1])
    try:
        result = measure(spec)
    except Exception as error:  # reported in the results, not a crash of the whole run
        result = {
            "spec": spec,
            "error": f"{type(error).__name__}: {error}"[:500],
            "traceback": traceback.format_exc()[-2000:],
        }
    print(MARKER + json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
