"""A corpus job end to end: a folder of mixed Markdown, text and code to chunk records.

Builds folders of real text (the corpus's Markdown and books, and the Python standard
library's modules as code), copied round until they reach 64 MB and 256 MB, under
``build/bench/``. Then, each in a fresh process:

* ``spansplit auto FOLDER -r --chunk-size 512 --length cl100k_base -o OUT.jsonl`` with
  ``--jobs 1`` and ``--jobs 2``: wall time, CPU time of the whole process tree, throughput,
  and the peak resident memory of the tree (sampled from /proc every 50 ms);
* the same documents through the library in one process (``split_documents``, no output):
  the per-core throughput the command line is compared with;
* the 256 MB folder with ``--jobs 2``: memory must not grow with the corpus;
* a Ray Data pipeline (``spansplit.ray_data.chunk_files``) on a 4 MB folder against the
  command line's Parquet output of the same folder: the same rows.

    python benchmarks/bench_corpus.py [--sizes 64 256] [--skip-ray] [--out build/bench/corpus.md]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import texts  # noqa: E402

MB = 1_000_000
SOURCES = (
    ("markdown_docs", "*.md", ".md"),
    ("english_prose", "*.txt", ".txt"),
    ("chinese/trpl-zh-cn", "*.md", ".md"),
)


def source_files() -> list[Path]:
    """Real files to copy: the corpus's Markdown and books, the standard library's code."""
    found: list[Path] = []
    for folder, pattern, _ in SOURCES:
        found += sorted((texts.CORPUS / folder).rglob(pattern))
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    found += sorted(p for p in stdlib.glob("*.py"))[:400]
    return found


def build_folder(target: Path, megabytes: int) -> Path:
    """``target`` filled with copies of :func:`source_files` up to ``megabytes`` MB."""
    marker = target / ".complete"
    if marker.exists():
        return target
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    files, total, round_ = source_files(), 0, 0
    while total < megabytes * MB:
        for path in files:
            data = path.read_bytes()
            copy = target / f"r{round_:03d}" / f"{path.parent.name}-{path.name}"
            copy.parent.mkdir(exist_ok=True)
            copy.write_bytes(data)
            total += len(data)
            if total >= megabytes * MB:
                break
        round_ += 1
    marker.write_text(str(total))
    return target


def tree_rss(pid: int) -> int:
    """Resident memory (bytes) of a process and all its descendants."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += next(
                int(line.split()[1]) * 1024
                for line in status.splitlines()
                if line.startswith("VmRSS:")
            )
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pending += [int(c) for c in children]
        except (OSError, StopIteration):
            continue
    return total


def run_cli(folder: Path, jobs: int, output: Path) -> dict[str, Any]:
    argv = [
        sys.executable, "-m", "spansplit", "auto", str(folder), "-r", "--chunk-size", "512",
        "--length", "cl100k_base", "--jobs", str(jobs), "-o", str(output), "--no-progress",
    ]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss(process.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, err = process.communicate()
    done.set()
    sampler.join()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    size = int((folder / ".complete").read_text())
    return {
        "jobs": jobs,
        "megabytes": size / MB,
        "wall": wall,
        "cpu": cpu,
        "peak_rss_mb": peak / MB,
        "status": process.returncode,
        "summary": err.strip().splitlines()[-1] if err.strip() else "",
    }


def run_library(folder: Path) -> dict[str, Any]:
    """The library in this process, one worker: read, split, make records (no output)."""
    from spansplit.batch import split_documents
    from spansplit.corpus import SplitterByFileType, documents_of, find_files

    files = find_files([str(folder)], recursive=True).files
    started, cpu = time.perf_counter(), time.process_time()
    records = sum(
        1
        for _ in split_documents(
            documents_of(files), SplitterByFileType(512, 0, "cl100k_base"), on_error="skip"
        )
    )
    return {
        "wall": time.perf_counter() - started,
        "cpu": time.process_time() - cpu,
        "records": records,
        "megabytes": int((folder / ".complete").read_text()) / MB,
    }


def check_ray(folder: Path, work: Path) -> str:
    """Whether the Ray pipeline's rows equal the command line's Parquet rows."""
    for key, value in {
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_AUTH_MODE": "disabled",
        "HTTP_PROXY": "http://127.0.0.1:9",
        "NO_PROXY": "localhost,127.0.0.1",
    }.items():
        os.environ.setdefault(key, value)
    import pyarrow.parquet as parquet
    import ray

    from spansplit.corpus import SplitterByFileType
    from spansplit.ray_data import chunk_files

    cli = work / "cli.parquet"
    subprocess.run(
        [sys.executable, "-m", "spansplit", "auto", str(folder), "-r", "--chunk-size", "512",
         "--length", "cl100k_base", "-o", str(cli), "--no-progress"],
        check=False, capture_output=True,
    )  # fmt: skip
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        rows = chunk_files(
            str(folder), SplitterByFileType(512, 0, "cl100k_base"), on_error="skip"
        ).take_all()
    finally:
        ray.shutdown()

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        return (row["source"], row["chunk_index"])

    ours = sorted(rows, key=key)
    theirs = sorted(parquet.read_table(cli).to_pylist(), key=key)
    same = ours == theirs
    verdict = "the same" if same else "DIFFERENT"
    return f"{verdict} rows ({len(ours):,} from Ray, {len(theirs):,} from the command line)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "bench" / "corpus.md")
    options = parser.parse_args()
    work = ROOT / "build" / "bench" / "corpus"
    work.mkdir(parents=True, exist_ok=True)
    lines = [f"machine: {os.cpu_count()} CPUs; load before the run: {os.getloadavg()[0]:.2f}", ""]
    lines += [
        "| folder | jobs | wall s | CPU s (tree) | MB/s | MB/s per CPU s | peak RSS MB | exit |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    results = []
    first = options.sizes[0]
    folder = build_folder(work / f"mixed-{first}mb", first)
    for jobs in (1, 2):
        results.append(run_cli(folder, jobs, work / f"out-{first}-{jobs}.jsonl"))
    for size in options.sizes[1:]:
        big = build_folder(work / f"mixed-{size}mb", size)
        results.append(run_cli(big, 2, work / f"out-{size}-2.jsonl"))
    for r in results:
        lines.append(
            f"| {r['megabytes']:.0f} MB | {r['jobs']} | {r['wall']:.1f} | {r['cpu']:.1f} "
            f"| {r['megabytes'] / r['wall']:.2f} | {r['megabytes'] / r['cpu']:.2f} "
            f"| {r['peak_rss_mb']:.0f} | {r['status']} |"
        )
    library = run_library(folder)
    one, two = results[0], results[1]
    lines += [
        "",
        f"library in one process (split_documents, no output): {library['wall']:.1f} s wall, "
        f"{library['cpu']:.1f} s CPU, {library['megabytes'] / library['cpu']:.2f} MB per CPU s, "
        f"{library['records']:,} records",
        f"--jobs 2 throughput / --jobs 1: {one['wall'] / two['wall']:.2f}x (target at least 1.7x)",
        f"command line --jobs 1 per CPU second / library: "
        f"{(library['megabytes'] / library['cpu']) / (one['megabytes'] / one['cpu']):.2f}x slower "
        "(target within 1.25x)",
    ]
    if len(results) > 2:
        lines.append(
            f"peak memory {results[2]['megabytes']:.0f} MB / {two['megabytes']:.0f} MB folder: "
            f"{results[2]['peak_rss_mb'] / two['peak_rss_mb']:.2f}x (target within 1.2x)"
        )
    if not options.skip_ray:
        small = build_folder(work / "mixed-4mb", 4)
        lines.append(
            f"Ray Data pipeline against the command line on 4 MB: {check_ray(small, work)}"
        )
    report = "\n".join(lines) + "\n"
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(report, encoding="utf-8")
    print(report)
    print(json.dumps(results), file=sys.stderr)


if __name__ == "__main__":
    main()
