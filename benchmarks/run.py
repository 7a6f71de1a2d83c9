"""spansplit against every peer: one command for the tables, the charts and the targets.

    python benchmarks/run.py            # full run (about 30-40 minutes on 2 cores)
    python benchmarks/run.py --quick    # 1 MB texts, 3 repetitions, no 64 MB point
    python benchmarks/run.py --only spansplit --only english   # filters (all must match)
    python benchmarks/run.py --list     # print the plan, run nothing
    python benchmarks/report.py RESULTS.json   # redraw tables and charts from a results.json

Every measurement runs in a fresh process (``worker.py``): set-up untimed, peak memory from
the kernel's RSS high-water mark, then the median of the repetitions, each followed by its
floor in the same process. A full run writes ``benchmarks/results/`` (``results.json``,
``results.md``, ``throughput.png``, ``scaling.png``); a ``--quick`` or filtered run writes
``build/bench/`` unless ``--out`` says otherwise. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import peers  # noqa: E402
import report  # noqa: E402
import texts  # noqa: E402
from peers import Budget, Contender  # noqa: E402
from texts import TextSpec  # noqa: E402

MAIN_BUDGETS = (
    Budget("tokens", 512, 0),
    Budget("tokens", 512, 64),
    Budget("chars", 2000, 0),
    Budget("chars", 2000, 200),
)
SCALING_BUDGETS = (Budget("tokens", 512, 0), Budget("chars", 2000, 0))
SEGMENTATION = Budget("none", 0, 0)
THREADS_VARIABLE = "SPANSPLIT_THREADS"
"""Caps spansplit's encoding threads in a process (``spansplit.sizing.tiktoken``)."""
SCALING_SUBJECTS = frozenset(
    {"spansplit-recursive", "spansplit-token-paragraphs", "spansplit-blocks"}
)
"""Splitters whose scaling is a target (issue 7): measured at every size, never skipped."""
DISTRIBUTIONS = (
    "spansplit",
    "langchain-text-splitters",
    "llama-index-core",
    "semchunk",
    "semantic-text-splitter",
    "chonkie",
    "chonkie-core",
    "tiktoken",
    "regex",
    "llama-index-node-parser-spansplit",
)


@dataclass
class Settings:
    """What one run measures: sizes, repetitions and the time limits of the scaling series.

    A scaling point gets at most ``scaling[size]`` repetitions, fewer where they would not
    fit in ``scaling_rep_seconds`` (at least one); a splitter other than the
    ``SCALING_SUBJECTS`` is skipped where one run is projected over ``scaling_cap`` seconds.
    """

    markdown_mb: float = 2.0
    reps: int = 5
    scaling: dict[float, int] = field(default_factory=lambda: {1: 5, 4: 5, 16: 5, 64: 5})
    scaling_rep_seconds: float = 15.0
    scaling_cap: float = 30.0
    adapter_mb: float = 8.0
    adapter_reps: int = 3
    stock_reps: int = 1

    @classmethod
    def quick(cls) -> Settings:
        return cls(
            markdown_mb=1.0,
            reps=3,
            scaling={1: 3, 4: 3, 16: 3},
            scaling_rep_seconds=5.0,
            scaling_cap=10.0,
            adapter_reps=1,
        )


@dataclass
class Job:
    """One measurement to run: a section, a text, a budget, a contender, repetitions."""

    section: str
    text: TextSpec
    budget: Budget
    contender: Contender
    reps: int
    threads: int | None = None
    """``SPANSPLIT_THREADS`` for spansplit's token encoding (None: the default, one per core)."""

    @property
    def label(self) -> str:
        threads = "default-threads" if self.threads is None else f"threads-{self.threads}"
        return (
            f"{self.section} {self.text.key} {self.text.label} {self.budget.key} "
            f"{self.budget.label} {self.contender.key} {self.contender.name} {threads}"
        ).lower()

    @property
    def name(self) -> str:
        """The contender's name, with the thread mode where it is not the default."""
        if self.threads is None:
            return self.contender.name
        return f"{self.contender.name} ({self.threads} thread{'s' * (self.threads > 1)})"

    def fields(self) -> dict[str, Any]:
        """What the results record of this job says about it."""
        return {
            "section": self.section,
            "text_key": self.text.key,
            "text_label": self.text.label,
            "megabytes": self.text.megabytes,
            "budget_key": self.budget.key,
            "budget_label": self.budget.label,
            "unit": self.budget.unit,
            "size": self.budget.size,
            "overlap": self.budget.overlap,
            "contender": self.contender.key,
            "name": self.name,
            "ours": self.contender.ours,
            "threads": self.threads,
            "offsets_api": self.contender.offsets,
            "reps": self.reps,
        }

    def spec(self) -> dict[str, Any]:
        return {
            "contender": self.contender.key,
            "text": asdict(self.text),
            "budget": asdict(self.budget),
            "reps": self.reps,
        }


def main_texts(settings: Settings) -> list[TextSpec]:
    return [
        TextSpec("english", "English prose, 1 MB", 1.0),
        TextSpec("chinese", "Chinese prose, 1 MB", 1.0),
        TextSpec("markdown", f"Markdown, {settings.markdown_mb:g} MB", settings.markdown_mb),
        TextSpec("python", "Python code, 1 MB", 1.0),
    ]


def with_one_thread(jobs: list[Job]) -> list[Job]:
    """``jobs``, each of spansplit's with a token budget followed by the same measurement
    with one encoding thread (``SPANSPLIT_THREADS=1``)."""
    out: list[Job] = []
    for job in jobs:
        out.append(job)
        if job.contender.ours and job.budget.unit == "tokens":
            out.append(replace(job, threads=1))
    return out


def plan(settings: Settings) -> list[Job]:
    """Every measurement of a run, in the order they run."""
    jobs: list[Job] = []
    for text in main_texts(settings):
        for budget in MAIN_BUDGETS:
            jobs += with_one_thread(
                [
                    Job("main", text, budget, c, settings.reps)
                    for c in peers.CONTENDERS
                    if c.supports(budget, text.key)
                ]
            )
        jobs += [
            Job("segmentation", text, SEGMENTATION, c, settings.reps)
            for c in peers.CONTENDERS
            if c.supports(SEGMENTATION, text.key)
        ]
    for budget in SCALING_BUDGETS:
        for size, reps in settings.scaling.items():
            text = TextSpec("mixed", f"corpus mix, {size:g} MB", size)
            jobs += [
                job
                for job in with_one_thread(
                    [
                        Job("scaling", text, budget, c, reps)
                        for c in peers.CONTENDERS
                        if c.supports(budget, text.key) and c.key != "sts-callback"
                    ]
                )
                if job.threads is None or job.contender.key in SCALING_SUBJECTS
            ]
    adapter_text = TextSpec("mixed", f"corpus mix, {settings.adapter_mb:g} MB", settings.adapter_mb)
    for contender in peers.ADAPTERS:
        reps = settings.adapter_reps if contender.ours else settings.stock_reps
        jobs += with_one_thread(
            [Job("llama-adapter", adapter_text, peers.ADAPTER_BUDGET, contender, reps)]
        )
    return jobs


def projected_seconds(job: Job, done: list[dict[str, Any]]) -> float | None:
    """For a scaling job: its run time projected from the smaller sizes measured, growing
    as fast as it grew between the last two of them (at least linearly)."""
    if job.section != "scaling":
        return None
    smaller = sorted(
        (
            m
            for m in done
            if m["section"] == "scaling"
            and m["contender"] == job.contender.key
            and m.get("threads") == job.threads
            and m["budget_key"] == job.budget.key
            and "median" in m
            and m["megabytes"] < job.text.megabytes
        ),
        key=lambda m: float(m["megabytes"]),
    )
    if not smaller:
        return None
    last = smaller[-1]
    size, seconds = float(last["megabytes"]), float(last["median"])
    exponent = 1.0
    if len(smaller) > 1:
        before = smaller[-2]
        growth = seconds / max(float(before["median"]), 1e-9)
        exponent = max(1.0, math.log(growth) / math.log(size / float(before["megabytes"])))
    return float(seconds * (job.text.megabytes / size) ** exponent)


def snapshot_source(folder: Path) -> tuple[dict[str, str], str]:
    """Copy ``src/spansplit`` into ``folder`` and return the environment that makes the
    workers import that copy, with a fingerprint of it: every measurement of a run then sees
    the same code, even while ``src/`` is being edited."""
    source = HERE.parent / "src" / "spansplit"
    shutil.copytree(source, folder / "spansplit", ignore=shutil.ignore_patterns("__pycache__"))
    digest = hashlib.sha256()
    for path in sorted((folder / "spansplit").rglob("*.py")):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(folder), environment.get("PYTHONPATH", "")) if p
    )
    return environment, digest.hexdigest()[:12]


def run_job(job: Job, environment: dict[str, str] | None = None) -> dict[str, Any]:
    """Run one measurement in a fresh process and return its record."""
    command = [sys.executable, str(HERE / "worker.py"), json.dumps(job.spec())]
    environment = dict(os.environ if environment is None else environment)
    environment.pop(THREADS_VARIABLE, None)
    if job.threads is not None:
        environment[THREADS_VARIABLE] = str(job.threads)
    completed = subprocess.run(
        command, capture_output=True, text=True, check=False, env=environment
    )
    record: dict[str, Any] = {}
    for line in completed.stdout.splitlines():
        if line.startswith("@@result@@ "):
            record = json.loads(line[len("@@result@@ ") :])
    if not record:
        tail = (completed.stderr or completed.stdout)[-1500:]
        record = {"error": f"worker exited {completed.returncode}", "traceback": tail}
    record.pop("spec", None)
    record.update(job.fields(), load_after=os.getloadavg()[0])
    return record


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory_total() -> str:
    try:
        with open("/proc/meminfo") as info:
            kilobytes = int(info.readline().split()[1])
        return f"{kilobytes / 1024**2:.1f} GiB"
    except (OSError, ValueError, IndexError):
        return "unknown"


def git_state() -> str:
    try:
        head = subprocess.run(
            ["git", "-C", str(HERE.parent), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(HERE.parent), "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head}{' + uncommitted changes in src/' if dirty else ''}"


def machine() -> dict[str, Any]:
    versions = {}
    for name in DISTRIBUTIONS:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "memory": memory_total(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "versions": versions,
        "spansplit_commit": git_state(),
        "corpus": str(texts.CORPUS),
    }


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="spansplit against every peer", formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="1 MB texts, 3 reps, no 64 MB")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="keep measurements whose label contains NAME (case-insensitive; repeat to\n"
        "narrow: every NAME must match). Labels hold the section (main, segmentation,\n"
        "scaling, llama-adapter), the text (english, chinese, markdown, mixed), the\n"
        "budget (tokens-512-64, chars-2000-0, ...) and the splitter (spansplit-recursive,\n"
        "langchain-recursive, semchunk, sts-tiktoken, chonkie-token, ...)",
    )
    parser.add_argument("--reps", type=int, help="repetitions of the main cases (at least 1)")
    parser.add_argument("--out", type=Path, help="output folder")
    parser.add_argument("--list", action="store_true", help="print the plan and stop")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    options = parse(argv)
    if not texts.CORPUS.is_dir():
        print(f"corpus not found at {texts.CORPUS} (set SPANSPLIT_CORPUS)", file=sys.stderr)
        return 2
    settings = Settings.quick() if options.quick else Settings()
    if options.reps:
        settings.reps = max(1, options.reps)
    jobs = [j for j in plan(settings) if all(o.lower() in j.label for o in options.only)]
    partial = options.quick or bool(options.only) or bool(options.reps)
    out = options.out or (HERE.parent / "build" / "bench" if partial else HERE / "results")
    if options.list or not jobs:
        for job in jobs:
            print(
                f"{job.section:13} {job.text.label:22} {job.budget.label:28} {job.name} x{job.reps}"
            )
        print(f"{len(jobs)} measurements", file=sys.stderr)
        return 0 if jobs else 1
    started = time.time()
    load_before = os.getloadavg()
    done: list[dict[str, Any]] = []
    snapshot = tempfile.TemporaryDirectory(prefix="spansplit-bench-")
    environment, fingerprint = snapshot_source(Path(snapshot.name))
    machine_info = {**machine(), "source_sha256": fingerprint}
    for number, job in enumerate(jobs, 1):
        projection = projected_seconds(job, done)
        prefix = f"[{number}/{len(jobs)}] {job.section} {job.text.label} {job.budget.label}"
        if projection is not None:
            capped = job.contender.key not in SCALING_SUBJECTS
            if capped and projection > settings.scaling_cap:
                reason = f"projected {projection:.0f} s per run (cap {settings.scaling_cap:g} s)"
                done.append({"skipped": reason, **job.fields()})
                print(f"{prefix} {job.name}: skipped ({reason})", file=sys.stderr)
                continue
            fit = int(settings.scaling_rep_seconds / max(projection, 1e-3))
            job.reps = max(1, min(job.reps, fit))
        record = run_job(job, environment)
        done.append(record)
        if "error" in record:
            summary = f"ERROR {record['error']}"
        else:
            summary = (
                f"{record['median']:.3f} s median of {record['timed_reps']} "
                f"({record['cpu_median']:.3f} s CPU), floor {record['floor_median']:.3f} s "
                f"({record['floor_cpu_median']:.3f} s CPU)"
            )
        print(f"{prefix} {job.name}: {summary}", file=sys.stderr, flush=True)
    snapshot.cleanup()
    results = {
        "machine": machine_info,
        "started": time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(started)),
        "seconds": time.time() - started,
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "command": " ".join(["python benchmarks/run.py", *(argv or sys.argv[1:])]).strip(),
        "partial": partial,
        "settings": asdict(settings),
        "texts": texts.TEXT_SOURCES,
        "configs": {c.key: c.config for c in (*peers.CONTENDERS, *peers.ADAPTERS)},
        "measurements": done,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    report.write(results, out)
    print(f"wrote {out}/results.md, results.json, throughput.png, scaling.png", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
