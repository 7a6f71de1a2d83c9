"""Tables, targets and charts from one ``results.json`` of ``run.py``.

``python benchmarks/report.py benchmarks/results/results.json`` redraws ``results.md``,
``throughput.png`` and ``scaling.png`` beside the JSON without measuring anything again.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Record = dict[str, Any]
MAIN_BUDGET_ORDER = ("tokens-512-0", "tokens-512-64", "chars-2000-0", "chars-2000-200")
PROSE = ("english", "chinese", "markdown")
"""The texts every general splitter's targets are checked on."""
OURS_HEADLINE = {
    "spansplit-recursive": "RecursiveSplitter",
    "spansplit-token-paragraphs": "ParagraphSplitter",
}


def measured(record: Record) -> bool:
    return "median" in record


def mb(record: Record) -> float:
    return float(record["utf8_bytes"]) / 1e6


def throughput(record: Record) -> float:
    return mb(record) / float(record["median"])


def floor_ratio(record: Record) -> float:
    return float(record["median"]) / float(record["floor_median"])


def cpu_ratio(record: Record) -> float | None:
    """CPU time over the floor's CPU time in the same process (None in older results)."""
    floor = record.get("floor_cpu_median")
    return float(record["cpu_median"]) / float(floor) if floor else None


def optional_times(value: float | None) -> str:
    return "–" if value is None else times(value)


def times(value: float) -> str:
    return f"{value:.2f}x"


def seconds(value: float) -> str:
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


# grouping ----------------------------------------------------------------------------------


def select(records: Iterable[Record], **match: Any) -> list[Record]:
    return [r for r in records if all(r.get(k) == v for k, v in match.items())]


def ordered(values: Iterable[Any]) -> list[Any]:
    """Distinct values in order of first appearance."""
    seen: list[Any] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


def fastest_peer(case: list[Record]) -> Record | None:
    peers = [r for r in case if measured(r) and not r["ours"]]
    return min(peers, key=lambda r: r["median"]) if peers else None


def find(case: list[Record], contender: str, threads: int | None = None) -> Record | None:
    """The measured record of ``contender`` in ``case`` with ``threads`` encoding threads
    (None: spansplit's default)."""
    for record in case:
        if (
            record["contender"] == contender
            and record.get("threads") == threads
            and measured(record)
        ):
            return record
    return None


def series(record: Record) -> tuple[str, int | None]:
    """What identifies one splitter's line across sizes: its key and its thread mode."""
    return record["contender"], record.get("threads")


def main_cases(records: list[Record]) -> list[tuple[str, str, list[Record]]]:
    """``(text label, budget label, records)`` for each main case, in run order."""
    main = select(records, section="main")
    cases = []
    for text in ordered(r["text_key"] for r in main):
        of_text = select(main, text_key=text)
        budgets = ordered(r["budget_key"] for r in of_text)
        budgets.sort(key=lambda b: MAIN_BUDGET_ORDER.index(b) if b in MAIN_BUDGET_ORDER else 99)
        for budget in budgets:
            case = select(of_text, budget_key=budget)
            cases.append((case[0]["text_label"], case[0]["budget_label"], case))
    return cases


# tables ------------------------------------------------------------------------------------


def quality_cells(record: Record) -> list[str]:
    quality = record["quality"]
    over = quality["over_budget"]
    over_cell = "–" if over is None else (f"**{over}**" if over else "0")
    exact = quality["exact"]
    exact_cell = "n/a" if exact is None else f"{exact:,}/{quality['with_offsets']:,}"
    if exact is not None and exact < quality["with_offsets"]:
        exact_cell = f"**{exact_cell}**"
    peak = record["peak_bytes"]
    return [
        f"{quality['chunks']:,}",
        f"{quality['largest']:,}" if record["size"] else "–",
        over_cell,
        exact_cell,
        f"{peak / 1e6:.1f} ({peak / record['str_bytes']:.1f}x)",
    ]


def case_table(case: list[Record], floor_name: str) -> list[str]:
    best_peer = fastest_peer(case)
    header = (
        f"| Splitter | Median s | CPU s | MB/s | × fastest peer | × {floor_name} | CPU × "
        f"{floor_name} CPU | Chunks | Largest | Over budget | Exact offsets | Peak MB (× input) |"
    )
    lines = [header, "|" + "---|" * 12]
    ok = sorted((r for r in case if measured(r)), key=lambda r: r["median"])
    for record in ok:
        name = f"**{record['name']}**" if record["ours"] else record["name"]
        versus = times(record["median"] / best_peer["median"]) if best_peer else "–"
        cells = [
            name,
            seconds(record["median"]),
            seconds(record["cpu_median"]),
            f"{throughput(record):.2f}",
            versus,
            times(floor_ratio(record)),
            optional_times(cpu_ratio(record)),
            *quality_cells(record),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    for record in case:
        if "error" in record:
            lines.append(f"| {record['name']} | error: {record['error'][:120]} |" + " |" * 10)
        elif "skipped" in record:
            lines.append(f"| {record['name']} | skipped: {record['skipped']} |" + " |" * 10)
    return lines


def floor_line(case: list[Record]) -> str:
    ok = [r for r in case if measured(r)]
    if not ok:
        return ""
    floor = statistics.median(r["floor_median"] for r in ok)
    first = ok[0]
    cpus = [r["floor_cpu_median"] for r in ok if r.get("floor_cpu_median")]
    cpu = f", {seconds(statistics.median(cpus))} s CPU" if cpus else ""
    return (
        f"{first['code_points']:,} code points, {mb(first):.2f} MB of UTF-8, "
        f"{first['str_bytes'] / 1e6:.1f} MB as a Python str. Floor `{first['floor']}`: "
        f"{seconds(floor)} s wall{cpu} ({mb(first) / floor:.1f} MB/s; median over the "
        f"{len(ok)} processes, each row's ratios use its own process's floor). spansplit's "
        "rows marked (1 thread) encode on one thread (`SPANSPLIT_THREADS=1`); the others "
        "on one thread per core."
    )


def headline(records: list[Record]) -> list[str]:
    lines = [
        "| Case | spansplit | wall s | × floor | CPU × floor CPU | 1 thread: CPU × floor CPU "
        "| Fastest peer | s | CPU × floor CPU | spansplit ÷ peer (wall) |",
        "|---|---|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for text_label, budget_label, case in main_cases(records):
        peer = fastest_peer(case)
        for key, short in OURS_HEADLINE.items():
            ours = find(case, key)
            if ours is None or (key == "spansplit-token-paragraphs" and ours["unit"] != "tokens"):
                continue
            single = find(case, key, 1)
            peer_cells = (
                [peer["name"], seconds(peer["median"]), optional_times(cpu_ratio(peer))]
                if peer
                else ["–", "–", "–"]
            )
            ratio = times(ours["median"] / peer["median"]) if peer else "–"
            lines.append(
                f"| {text_label}, {budget_label} | {short} | {seconds(ours['median'])} "
                f"| {times(floor_ratio(ours))} ({ours['floor']}) "
                f"| {optional_times(cpu_ratio(ours))} "
                f"| {optional_times(cpu_ratio(single)) if single else '–'} "
                f"| {' | '.join(peer_cells)} | {ratio} |"
            )
    adapter = select(records, section="llama-adapter")
    stock = find(adapter, "llama-adapter-stock")
    for record in adapter:
        if record["ours"] and record.get("threads") is None and measured(record) and stock:
            single = find(adapter, record["contender"], 1)
            lines.append(
                f"| LlamaIndex, {record['text_label']}, 256 tokens + 32 | "
                f"{record['name'].removeprefix('spansplit ')} | {seconds(record['median'])} | – "
                f"| CPU {seconds(record['cpu_median'])} s "
                f"| CPU {seconds(single['cpu_median']) + ' s' if single else '–'} "
                f"| stock SentenceSplitter | {seconds(stock['median'])} | – "
                f"| {times(record['median'] / stock['median'])} |"
            )
    return lines


def scaling_tables(records: list[Record]) -> list[str]:
    scaling = select(records, section="scaling")
    lines: list[str] = []
    for budget in ordered(r["budget_key"] for r in scaling):
        of_budget = select(scaling, budget_key=budget)
        sizes = sorted(ordered(r["megabytes"] for r in of_budget))
        lines += [
            "",
            f"#### {of_budget[0]['budget_label']}: median s (s per MB) ×repetitions",
            "",
            "| Splitter | "
            + " | ".join(f"{s:g} MB" for s in sizes)
            + " | s/MB at largest ÷ at 1 MB | peak × input (largest) |",
            "|---|" + "---:|" * (len(sizes) + 2),
        ]
        for key in ordered(series(r) for r in of_budget):
            rows = {r["megabytes"]: r for r in of_budget if series(r) == key}
            cells = []
            for size in sizes:
                record = rows.get(size)
                if record is None:
                    cells.append("–")
                elif measured(record):
                    per = record["median"] / mb(record)
                    reps = record["timed_reps"]
                    cells.append(f"{seconds(record['median'])} ({per:.3f}) ×{reps}")
                else:
                    cells.append("skipped" if "skipped" in record else "error")
            done = [rows[s] for s in sizes if s in rows and measured(rows[s])]
            flat = "–"
            if len(done) > 1:
                first, last = done[0], done[-1]
                flat = times((last["median"] / mb(last)) / (first["median"] / mb(first)))
            memory = f"{done[-1]['peak_bytes'] / done[-1]['str_bytes']:.2f}x" if done else "–"
            name = next(iter(rows.values()))["name"]
            name = f"**{name}**" if next(iter(rows.values()))["ours"] else name
            lines.append(f"| {name} | " + " | ".join(cells) + f" | {flat} | {memory} |")
    return lines


# targets -----------------------------------------------------------------------------------


@dataclass
class Target:
    """One clause of an issue checked against the measurements."""

    issue: str
    clause: str
    measured: str
    met: bool | None


def verdict(met: bool | None) -> str:
    return {True: "met", False: "**not met**", None: "not measured"}[met]


def ratio_targets(
    records: list[Record],
    issue: str,
    clause: str,
    contenders: Iterable[str],
    limit: float,
    texts: Iterable[str],
    budgets: Iterable[str],
    against: Against,
    threads: Iterable[int | None] = (None,),
) -> list[Target]:
    """One target per contender, text, budget and thread mode: ``against`` gives the
    ratio, which meets the clause when it is at most ``limit``."""
    out = []
    for key in contenders:
        for text in texts:
            for budget in budgets:
                case = select(records, section=_section(budget), text_key=text, budget_key=budget)
                for mode in threads:
                    ours = find(case, key, mode)
                    found = against(ours, case) if ours else None
                    named = "" if mode is None else f" ({mode} thread)"
                    where = f"{clause} — {_name(key)}{named}, {text}, {_budget(budget)}"
                    if found is None:
                        out.append(Target(issue, where, "–", None))
                    else:
                        value, versus = found
                        out.append(Target(issue, where, f"{times(value)} {versus}", value <= limit))
    return out


def _section(budget: str) -> str:
    return "segmentation" if budget.startswith("none") else "main"


def _name(key: str) -> str:
    return {
        "spansplit-recursive": "RecursiveSplitter",
        "spansplit-token-paragraphs": "ParagraphSplitter",
        "spansplit-blocks": "split_blocks",
        "spansplit-paragraphs": "PlainParagraphSplitter",
        "spansplit-sentence-spans": "sentence_spans",
        "spansplit-markdown": "MarkdownSplitter",
        "spansplit-code": "CodeSplitter",
    }.get(key, key)


def _budget(key: str) -> str:
    unit, size, overlap = key.split("-")
    if unit == "none":
        return "no budget"
    text = f"{size} {'tokens' if unit == 'tokens' else 'chars'}"
    return text + (f" + {overlap} overlap" if overlap != "0" else "")


Against = Callable[[Record, list[Record]], "tuple[float, str] | None"]


def vs_floor(ours: Record, case: list[Record]) -> tuple[float, str]:
    best = ours["best"] / min(ours["floor_wall"])
    return floor_ratio(ours), f"one {ours['floor']} (fastest runs: {times(best)})"


def _versus(ours: Record, peer: Record, who: str) -> tuple[float, str]:
    best = ours["best"] / peer["best"]
    return ours["median"] / peer["median"], f"{who} ({peer['name']}; fastest runs: {times(best)})"


def cpu_vs_floor(ours: Record, case: list[Record]) -> tuple[float, str] | None:
    ratio = cpu_ratio(ours)
    if ratio is None:
        return None
    best = min(ours["cpu"]) / min(ours["floor_cpu"])
    return ratio, f"one {ours['floor']} in CPU time (fastest runs: {times(best)})"


def cpu_vs_peer(key: str) -> Against:
    def against(ours: Record, case: list[Record]) -> tuple[float, str] | None:
        peer = find(case, key)
        if peer is None:
            return None
        best = min(ours["cpu"]) / min(peer["cpu"])
        return (
            ours["cpu_median"] / peer["cpu_median"],
            f"{peer['name']}'s CPU time (fastest runs: {times(best)})",
        )

    return against


def wall_with_threads(ours: Record, case: list[Record]) -> tuple[float, str]:
    value, versus = vs_floor(ours, case)
    return value, f"{versus}; {ours.get('encoding_threads', '?')} encoding threads"


def vs_fastest_peer(ours: Record, case: list[Record]) -> tuple[float, str] | None:
    peer = fastest_peer(case)
    return None if peer is None else _versus(ours, peer, "the fastest peer")


def vs_peers(keys: tuple[str, ...]) -> Against:
    def against(ours: Record, case: list[Record]) -> tuple[float, str] | None:
        chosen = [r for r in case if r["contender"] in keys and measured(r)]
        if not chosen:
            return None
        return _versus(ours, min(chosen, key=lambda r: r["median"]), "the fastest of them")

    return against


def targets(records: list[Record]) -> list[Target]:
    main = ordered(r["text_key"] for r in select(records, section="main"))
    texts = [text for text in main if text in PROSE]
    token_budgets = ["tokens-512-0", "tokens-512-64"]
    char_budgets = ["chars-2000-0", "chars-2000-200"]
    token_splitters = ["spansplit-recursive", "spansplit-token-paragraphs"]
    out: list[Target] = []
    out += ratio_targets(
        records, "7", "512 tokens within 1.3x one encode_ordinary", token_splitters, 1.3,
        texts, token_budgets, vs_floor,
    )  # fmt: skip
    out += ratio_targets(
        records, "7", "512 tokens faster than every peer", token_splitters, 0.9999,
        texts, token_budgets, vs_fastest_peer,
    )  # fmt: skip
    out += ratio_targets(
        records, "7", "2,000 chars no slower than the fastest peer", ["spansplit-recursive"],
        1.0, texts, char_budgets, vs_fastest_peer,
    )  # fmt: skip
    both = (None, 1)
    out += ratio_targets(
        records, "18", "CPU time within 1.3x one encode_ordinary", token_splitters, 1.3,
        texts, token_budgets, cpu_vs_floor, both,
    )  # fmt: skip
    out += ratio_targets(
        records, "18", "CPU time below chonkie TokenChunker's", token_splitters, 0.9999,
        texts, token_budgets, cpu_vs_peer("chonkie-token"), both,
    )  # fmt: skip
    out += ratio_targets(
        records, "18", "wall time within 0.8x one encode_ordinary with two encoding threads",
        token_splitters, 0.8, texts, token_budgets, wall_with_threads,
    )  # fmt: skip
    out += ratio_targets(
        records, "13", "MarkdownSplitter at 512 tokens within 2x one encode_ordinary (CPU)",
        ["spansplit-markdown"], 2.0, ["markdown"], ["tokens-512-0"], cpu_vs_floor, both,
    )  # fmt: skip
    out += ratio_targets(
        records, "14", "CodeSplitter at 512 tokens within 2.5x one encode_ordinary (CPU)",
        ["spansplit-code"], 2.5, ["python"], ["tokens-512-0"], cpu_vs_floor, both,
    )  # fmt: skip
    out += scaling_targets(records)
    out += adapter_targets(records)
    out += ratio_targets(
        records, "2", "within 3x one finditer pass", ["spansplit-paragraphs"], 3.0,
        ["english"], ["none-0-0"], vs_floor,
    )  # fmt: skip
    out += ratio_targets(
        records, "2", "within 3x one finditer pass", ["spansplit-blocks"], 3.0,
        ["english"], ["chars-2000-0"], vs_floor,
    )  # fmt: skip
    out += ratio_targets(
        records, "3", "token paragraphs at 512 within 1.5x one encode_ordinary",
        ["spansplit-token-paragraphs"], 1.5, ["english", "chinese"], ["tokens-512-0"], vs_floor,
    )  # fmt: skip
    out += ratio_targets(
        records, "3", "sentence segmentation within 3x one finditer pass",
        ["spansplit-sentence-spans"], 3.0, ["english", "chinese"], ["none-0-0"], vs_floor,
    )  # fmt: skip
    out += ratio_targets(
        records, "4", "2,000 chars no slower than LangChain", ["spansplit-recursive"], 1.0,
        ["english"], ["chars-2000-0"], vs_peers(("langchain-recursive",)),
    )  # fmt: skip
    out += ratio_targets(
        records, "4", "512 tokens within 1.5x one encode_ordinary", ["spansplit-recursive"],
        1.5, ["english"], ["tokens-512-0"], vs_floor,
    )  # fmt: skip
    out += ratio_targets(
        records, "4", "512 tokens faster than semchunk, chonkie RecursiveChunker and "
        "semantic-text-splitter", ["spansplit-recursive"], 0.9999, ["english"],
        ["tokens-512-0"],
        vs_peers(("semchunk", "chonkie-recursive", "sts-tiktoken", "sts-callback")),
    )  # fmt: skip
    return out


FLAT_LIMIT = 1.25
MEMORY_LIMIT = 4.0


SCALING_SUBJECTS = ("spansplit-recursive", "spansplit-token-paragraphs", "spansplit-blocks")


def scaling_targets(records: list[Record]) -> list[Target]:
    """Issue 7's scaling clauses for the splitters measured at every size.

    Flatness is judged, for token budgets, on time per MB divided by the floor's
    (``encode_ordinary``) time per MB in the same process: a 64 MB run takes tens of seconds
    and the load of a shared machine changes meanwhile, while the floor, timed right after,
    sees the same load. For character budgets the floor is a pass of a few milliseconds,
    mostly noise, so the raw median seconds per MB (several repetitions) are judged. Both
    series are shown.
    """
    out = []
    scaling = select(records, section="scaling")
    for budget in ordered(r["budget_key"] for r in scaling):
        for key, threads in ((key, mode) for key in SCALING_SUBJECTS for mode in (None, 1)):
            rows = sorted(
                (
                    r
                    for r in select(scaling, budget_key=budget, contender=key)
                    if measured(r) and r.get("threads") == threads
                ),
                key=lambda r: r["megabytes"],
            )
            if not rows:
                continue
            named = "" if threads is None else f" ({threads} thread)"
            where = f"{_name(key)}{named}, {_budget(budget)}"
            sizes = "→".join(f"{r['megabytes']:g}" for r in rows)
            raw = [r["median"] / mb(r) / (rows[0]["median"] / mb(rows[0])) for r in rows]
            relative = [floor_ratio(r) / floor_ratio(rows[0]) for r in rows]
            tokens = rows[0]["unit"] == "tokens"
            judged = relative if tokens else raw
            shown = [
                ("× floor relative to 1 MB", relative),
                ("raw s/MB relative to 1 MB", raw),
            ]
            if not tokens:
                shown.reverse()
            measured_text = f"over {sizes} MB, " + "; ".join(
                f"{label}: " + ", ".join(times(v) for v in values) for label, values in shown
            )
            basis = "× floor" if tokens else "s/MB"
            out.append(
                Target(
                    "7, 18" if tokens else "7",
                    f"time per MB flat from 1 to 64 MB ({basis} at every size ≤ "
                    f"{FLAT_LIMIT}x its 1 MB value) — {where}",
                    measured_text,
                    len(rows) > 1 and max(judged) <= FLAT_LIMIT,
                )
            )
            worst = max(rows, key=lambda r: r["peak_bytes"] / r["str_bytes"])
            share = worst["peak_bytes"] / worst["str_bytes"]
            out.append(
                Target(
                    "7",
                    f"peak memory under {MEMORY_LIMIT:g}x the input's size in memory — {where}",
                    f"worst {times(share)} at {worst['megabytes']:g} MB "
                    f"({worst['peak_bytes'] / 1e6:.0f} MB over a "
                    f"{worst['str_bytes'] / 1e6:.0f} MB str); at 64 MB: "
                    + (
                        f"{times(rows[-1]['peak_bytes'] / rows[-1]['str_bytes'])}"
                        if rows[-1]["megabytes"] >= 64
                        else "–"
                    ),
                    share < MEMORY_LIMIT,
                )
            )
    return out


def adapter_targets(records: list[Record]) -> list[Target]:
    out = []
    for record in select(records, section="llama-adapter", ours=True):
        clause = f"LlamaIndex adapter on an 8 MB document under 3 s — {record['name']}"
        if not measured(record):
            out.append(Target("7, 18", clause, "–", None))
            continue
        size = f"{mb(record):.1f} MB"
        found = f"{seconds(record['median'])} s, CPU {seconds(record['cpu_median'])} s ({size})"
        out.append(Target("7, 18", clause, found, record["median"] < 3.0))
    return out


# the document ------------------------------------------------------------------------------


def machine_lines(results: dict[str, Any]) -> list[str]:
    m = results["machine"]
    versions = ", ".join(f"{k} {v}" for k, v in m["versions"].items())
    loads = [r["load_after"] for r in results["measurements"] if "load_after" in r]
    load_range = f"{min(loads):.2f}–{max(loads):.2f}" if loads else "–"
    before = ", ".join(f"{x:.2f}" for x in results["load_before"])
    after = ", ".join(f"{x:.2f}" for x in results["load_after"])
    return [
        f"- Command: `{results['command']}` ({results['seconds'] / 60:.1f} min, "
        f"started {results['started']})",
        f"- CPU: {m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable), {m['memory']} RAM; "
        f"{m['platform']}",
        f"- Python {m['python']} ({m['implementation']}); spansplit at {m['spansplit_commit']} "
        f"(`src/spansplit` copied at the start of the run, sha256 of its files "
        f"{m.get('source_sha256', '?')}: every measurement ran that copy)",
        f"- Versions: {versions}",
        f"- Load average (1, 5, 15 min) before: {before}; after: {after}; 1-min load after "
        f"each measurement: {load_range} (the machine was shared: other processes ran too)",
        f"- Corpus: `{m['corpus']}`",
    ]


def text_lines(results: dict[str, Any]) -> list[str]:
    return [f"- **{key}**: {what}" for key, what in results["texts"].items()]


def document(results: dict[str, Any]) -> str:
    records = results["measurements"]
    lines = ["# spansplit benchmarks", ""]
    if results.get("partial"):
        lines += ["> Partial run (`--quick` or filtered): not the published figures.", ""]
    lines += [
        "Made by `make bench` (`python benchmarks/run.py`); how each library is configured and "
        "what each column means: [benchmarks/README.md](../README.md).",
        "",
        "## Headline",
        "",
        "spansplit against the fastest peer of each case (median wall time; a ratio under 1.00x "
        "means spansplit is faster). MB are megabytes of UTF-8.",
        "",
        *headline(records),
        "",
        "## Machine",
        "",
        *machine_lines(results),
        "",
        "## Targets",
        "",
        "Verdicts are on medians, as the issues state them. On a shared machine the median "
        "carries the load of other processes, so the ratio of the fastest runs (each side's "
        "quickest repetition) is shown beside it as a steadier reading.",
        "",
        "| Issue | Clause | Measured (median ratio) | Verdict |",
        "|---|---|---|---|",
    ]
    for target in targets(records):
        lines.append(
            f"| {target.issue} | {target.clause} | {target.measured} | {verdict(target.met)} |"
        )
    lines += ["", "## Texts", "", *text_lines(results), "", "## Cases", ""]
    for text_label, budget_label, case in main_cases(records):
        floor = next((r["floor"] for r in case if measured(r)), "floor")
        lines += [f"### {text_label} — {budget_label}", "", floor_line(case), ""]
        lines += [*case_table(case, floor), ""]
    segmentation = select(records, section="segmentation")
    if segmentation:
        lines += ["## Segmentation (no budget)", ""]
        for text in ordered(r["text_key"] for r in segmentation):
            case = select(segmentation, text_key=text)
            lines += [f"### {case[0]['text_label']}", "", floor_line(case), ""]
            lines += [*case_table(case, "finditer"), ""]
    if select(records, section="scaling"):
        lines += [
            "## Scaling (corpus mix, no overlap)",
            "",
            "Each size gets up to "
            f"{max(results['settings']['scaling'].values())} timed repetitions, as many as "
            f"fit in {results['settings'].get('scaling_rep_seconds', 0):g} s by the time projected "
            "from the smaller sizes (at least one; ×N in each cell). A splitter whose "
            "projected time exceeds the cap is skipped at the larger sizes (cap: "
            f"{results['settings']['scaling_cap']:g} s per run; spansplit's RecursiveSplitter, "
            "ParagraphSplitter and split_blocks are never skipped).",
            *scaling_tables(records),
            "",
        ]
    adapter = select(records, section="llama-adapter")
    if adapter:
        lines += [f"## LlamaIndex adapter ({adapter[0]['text_label']}, 256 tokens + 32)", ""]
        lines += [floor_line(adapter), "", *case_table(adapter, "encode_ordinary"), ""]
    lines += ["## Charts", "", "![throughput](throughput.png)", "", "![scaling](scaling.png)", ""]
    return "\n".join(lines)


# charts ------------------------------------------------------------------------------------

OURS_COLOUR = "#1f6feb"
PEER_COLOUR = "#9a9a9a"


def plain_ticks(axis: Any) -> None:
    """Log-scale ticks written as plain numbers, without the crowded minor labels."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    axis.set_minor_formatter(NullFormatter())


def throughput_chart(records: list[Record], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cases = main_cases(records)
    if not cases:
        return
    texts = ordered(label for label, _, _ in cases)
    budgets = ordered(label for _, label, _ in cases)
    figure, axes = plt.subplots(
        len(texts), len(budgets), figsize=(6 * len(budgets), 4.2 * len(texts)), squeeze=False
    )
    for axis in axes.flat:
        axis.set_visible(False)
    for text_label, budget_label, case in cases:
        axis = axes[texts.index(text_label)][budgets.index(budget_label)]
        axis.set_visible(True)
        ok = sorted((r for r in case if measured(r)), key=throughput)
        names = [r["name"].replace("semantic-text-splitter", "sts") for r in ok]
        colours = [OURS_COLOUR if r["ours"] else PEER_COLOUR for r in ok]
        axis.barh(names, [throughput(r) for r in ok], color=colours)
        floor = statistics.median(mb(r) / r["floor_median"] for r in ok) if ok else None
        if floor:
            axis.axvline(floor, color="#d1242f", linestyle="--", linewidth=1)
            axis.text(floor, len(ok) - 0.4, f" {ok[0]['floor']}", color="#d1242f", fontsize=7)
        axis.set_xscale("log")
        plain_ticks(axis.xaxis)
        axis.set_title(f"{text_label} — {budget_label}", fontsize=10)
        axis.set_xlabel("MB/s (UTF-8), log scale", fontsize=8)
        axis.tick_params(labelsize=7)
    figure.suptitle("Throughput per library (higher is better; spansplit in blue)")
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)


def scaling_chart(records: list[Record], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scaling = select(records, section="scaling")
    budgets = ordered(r["budget_key"] for r in scaling)
    if not budgets:
        return
    figure, axes = plt.subplots(2, len(budgets), figsize=(7 * len(budgets), 9), squeeze=False)
    for column, budget in enumerate(budgets):
        of_budget = select(scaling, budget_key=budget)
        for key in ordered(series(r) for r in of_budget):
            rows = sorted(
                (r for r in of_budget if series(r) == key and measured(r)),
                key=lambda r: r["megabytes"],
            )
            if not rows:
                continue
            sizes = [mb(r) for r in rows]
            style = {"linewidth": 2.2} if rows[0]["ours"] else {"linewidth": 1, "alpha": 0.8}
            marker = "o" if rows[0]["ours"] else "."
            label = rows[0]["name"]
            axes[0][column].plot(sizes, [r["median"] for r in rows], marker=marker, label=label,
                                 **style)  # fmt: skip
            axes[1][column].plot(sizes, [r["median"] / mb(r) for r in rows], marker=marker,
                                 label=label, **style)  # fmt: skip
        label = of_budget[0]["budget_label"]
        axes[0][column].set(xscale="log", yscale="log", title=f"Time against size — {label}")
        axes[0][column].set(xlabel="MB of UTF-8", ylabel="median seconds")
        axes[1][column].set(xscale="log", yscale="log", title=f"Seconds per MB — {label}")
        axes[1][column].set(xlabel="MB of UTF-8", ylabel="seconds per MB (flat = linear)")
        axes[0][column].legend(fontsize=7)
        for axis in axes[:, column]:
            axis.grid(True, which="both", alpha=0.3)
            plain_ticks(axis.xaxis)
            plain_ticks(axis.yaxis)
    figure.suptitle("Scaling on the corpus mix (thick lines: spansplit)")
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)


def write(results: dict[str, Any], out: Path) -> None:
    """``results.md``, ``throughput.png`` and ``scaling.png`` in ``out``."""
    (out / "results.md").write_text(document(results))
    throughput_chart(results["measurements"], out / "throughput.png")
    scaling_chart(results["measurements"], out / "scaling.png")


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: python benchmarks/report.py RESULTS.json", file=sys.stderr)
        return 2
    path = Path(sys.argv[1])
    write(json.loads(path.read_text()), path.parent)
    print(f"wrote {path.parent}/results.md, throughput.png, scaling.png", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
