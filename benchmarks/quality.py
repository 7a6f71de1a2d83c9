"""Where chunks start and end (issue 16), side by side with the peers, on held-out text.

``quality``: every splitter of ``peers.py`` that takes a budget (plus spansplit's ``cjk``
preset) on texts no test reads:

* English: Moby-Dick from code point 600,000 on (hard-wrapped prose);
* Chinese: Journey to the West from code point 380,000 on (traditional Chinese,
  hard-wrapped mid-sentence at 34-35 characters);
* code: about 1 MB of the Python standard library on disk (``benchmarks/code_split.py``'s
  selection: sorted files, doctests included), file by file;
* Markdown: about 1 MB of Markdown files on disk, file by file, sorted (``--markdown DIR``;
  by default the Node.js API documentation that Debian's ``nodejs`` package installs in
  ``/usr/share/doc/nodejs/api``; the case is left out where the folder is missing). No
  sentence judge: its figures are the runts, overlap and edges.

The held-out offsets are ``HELD_OUT`` in ``tests/conftest.py``: tests read those two books
only up to them (:func:`conftest.read_corpus`, or shorter prefixes), and read no Python
standard-library file.

Figures per splitter and budget (a chunk's edges are taken after stripping whitespace;
"other chunks" leaves out each text's first chunk for starts and its last for ends):

* ``sentence starts`` / ``sentence ends``: the share of other chunks that start (end) where
  a sentence starts (ends) according to independent judges, neither of them spansplit's
  UAX #29: for English pysbd (rule-based; given the text with each line ending inside a
  paragraph replaced by a space, so a hard-wrapped line is not a sentence), then a plain
  rule (a terminator and its closing marks before a space and a capital, or a paragraph
  end); for Chinese the plain rule (``。！？`` and the closing marks after them, or a
  paragraph end), as pysbd's Chinese rules miss most sentence ends after a closing quote;
* ``starts in a quotation``: other chunks that start a sentence by the rule, inside a
  quotation (more “ than ” before the start in pysbd's sentence) that pysbd keeps as one
  sentence whatever sentences end inside it: the share of the rule's starts that pysbd
  rejects for that convention alone;
* ``closing start``: chunks other than a text's first that start with closing punctuation
  (UAX #14 classes CL, CP, EX, IS, NS, CJ, IN and closing quotes: ``。，、」』）!?…``), and
  ``opening end``: chunks that end with opening punctuation (``「『（“``); a quotation mark
  closes or opens by its context, as UAX #14 reads it (LB15a, LB15b, LB19: the German
  ``»Ja.«`` opens with ``»``, and the elision ``’Tis`` after a space closes nothing);
* ``pairs overlapping``: consecutive chunks that share text (overlap budgets);
* ``line ends``: chunks that end at a line end (code);
* ``runts``: chunks below 10% of the budget other than a text's last;
* ``over budget`` (measured with cl100k_base, or in code points) and ``inexact`` (a chunk
  that is not ``text[start:end]``: peers without offsets are located with ``str.find``
  from the previous chunk's start, and a chunk not found there counts as inexact and is
  left out of the boundary figures).

``speed``: CPU time (``process_time``) of spansplit's splitters at this commit against a
baseline source tree (``--baseline DIR``, e.g. ``git archive main src | tar -x -C DIR``),
each measurement in a fresh process, baseline and current alternating, the median of
``--reps``; the load average is printed before and after.

Run::

    .venv/bin/python benchmarks/quality.py quality --out benchmarks/results/quality.md
    .venv/bin/python benchmarks/quality.py quality --only markdown --markdown DIR
    .venv/bin/python benchmarks/quality.py speed --baseline /tmp/base/src --reps 5
    .venv/bin/python benchmarks/quality.py reach --out benchmarks/results/quality_reach.md
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import regex

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

import peers  # noqa: E402
import texts  # noqa: E402
from code_split import stdlib_python  # noqa: E402
from conftest import HELD_OUT  # noqa: E402
from texts import gather  # noqa: E402

# (written out here from UAX #14, not imported: the judge does not read spansplit's rules)
# (East Asian wide text on the other side counts as UAX #14 LB19a reads it: a ” that starts
# a line of hard-wrapped Chinese closes)
_CLOSES_BEFORE = (
    r"\s\p{lb=GL}\p{lb=WJ}\p{lb=CL}\p{lb=QU}\p{lb=CP}\p{lb=EX}\p{lb=IS}\p{lb=SY}\p{lb=ZW}"
    r"\p{ea=W}\p{ea=F}"
)
_OPENS_AFTER = r"\s\p{lb=OP}\p{lb=QU}\p{lb=GL}\p{lb=ZW}\p{ea=W}\p{ea=F}"
CLOSING = regex.compile(
    r"[\p{lb=CL}\p{lb=CP}\p{lb=EX}\p{lb=IS}\p{lb=NS}\p{lb=CJ}\p{lb=IN}]"
    rf"|(?<!\s)[\p{{lb=QU}}&&\p{{Pf}}]|[\p{{lb=QU}}&&\p{{Pf}}](?![^{_CLOSES_BEFORE}])",
    regex.V1,
)
OPENING = regex.compile(
    rf"\p{{lb=OP}}|[\p{{lb=QU}}&&\p{{Pi}}](?!\s)|(?<![^{_OPENS_AFTER}])[\p{{lb=QU}}&&\p{{Pi}}]",
    regex.V1,
)
WRAPPED_LINE_END = regex.compile(r"(?<=[^\n])\n(?=[^\n])")

ENGLISH = "english_prose/pg2701_moby_dick.txt"
CHINESE = "chinese/pg23962_xiyouji_journey_to_the_west.txt"


def held_out(relative: str) -> str:
    """The held-out part of a corpus file (read byte-exact)."""
    return texts.read(relative)[HELD_OUT[relative] :]


@dataclass
class Judge:
    """Sentence starts and ends of one text by an independent judge (offsets of the text;
    edges taken after stripping whitespace)."""

    starts: set[int] = field(default_factory=set)
    ends: set[int] = field(default_factory=set)
    keeps_quotations: bool = False  # a quotation is one sentence, whatever ends inside it
    _ordered: list[int] = field(default_factory=list)

    def add(self, text: str, start: int, end: int) -> None:
        body = text[start:end]
        if body.strip():
            self.starts.add(start + len(body) - len(body.lstrip()))
            self.ends.add(start + len(body.rstrip()))

    def in_quotation(self, text: str, position: int) -> bool:
        """Whether ``position`` lies inside a quotation that this judge keeps as one
        sentence: its sentence has opened more quotations (“) than it closed (”) before."""
        if not self.keeps_quotations:
            return False
        if len(self._ordered) != len(self.starts):
            self._ordered = sorted(self.starts)
        index = bisect_right(self._ordered, position) - 1
        before = text[self._ordered[index] : position] if index >= 0 else ""
        return before.count("\u201c") > before.count("\u201d")

    @classmethod
    def pysbd(cls, text: str, language: str) -> Judge:
        """pysbd's sentences (rule-based, not UAX #29), given the text with each line
        ending inside a paragraph replaced by a space (same length), so that a hard-wrapped
        line is not taken for a sentence."""
        import pysbd

        segmenter = pysbd.Segmenter(language=language, clean=False, char_span=True)
        judge = cls(keeps_quotations=True)
        for span in segmenter.segment(WRAPPED_LINE_END.sub(" ", text)):
            judge.add(text, span.start, span.end)
        return judge

    @classmethod
    def rule(cls, text: str, language: str) -> Judge:
        """A plain rule: a sentence ends after a terminator and the closing marks after it
        (in English only before spaces and a capital, a digit or an opening quote), and at
        every paragraph end (a blank line or the end of the text)."""
        pattern = RULE_ENDS[language]
        bounds = {0, len(text)}
        bounds.update(m.end() for m in pattern.finditer(text))
        bounds.update(m.start() for m in PARAGRAPH_BREAK.finditer(text))
        judge = cls()
        ordered = sorted(bounds)
        for start, end in pairwise(ordered):
            judge.add(text, start, end)
        return judge


CLOSERS = "\"'”’)\\]」』）》〉】"
RULE_ENDS = {
    "en": regex.compile(rf"[.!?…][{CLOSERS}]*(?=\s+[\p{{Lu}}\d“\"‘'(])"),
    "zh": regex.compile(rf"[。！？!?][{CLOSERS}]*"),
}
PARAGRAPH_BREAK = regex.compile(r"\n[ \t\u3000]*\n")
JUDGES: dict[str, tuple[str, ...]] = {"en": ("pysbd", "rule"), "zh": ("rule",)}
"""The judges of each language: pysbd's Chinese rules miss most sentence ends after a
closing quote (「...。」 then the narration), so Chinese is judged by the rule alone."""


def located(text: str, pieces: list[peers.Piece]) -> list[tuple[int, int] | None]:
    """Each chunk's span (stripped of whitespace): its own offsets where it gives them and
    they are exact, else found with ``str.find`` from the previous chunk's start; ``None``
    where the chunk is not text of the source."""
    spans: list[tuple[int, int] | None] = []
    previous = 0
    for body, start, end in pieces:
        if start is None or end is None or text[start:end] != body:
            found = text.find(body, previous)
            if found < 0:
                spans.append(None)
                continue
            start, end = found, found + len(body)
        stripped = body.strip()
        if not stripped:
            spans.append(None)
            continue
        start += len(body) - len(body.lstrip())
        spans.append((start, start + len(stripped)))
        previous = start
    return spans


@dataclass
class Figures:
    chunks: int = 0
    inexact: int = 0
    over_budget: int = 0
    runts: int = 0
    starts_judged: int = 0
    sentence_starts: dict[str, int] = field(default_factory=dict)
    quoted_starts: int = 0  # starts other judges accept, inside a quotation one keeps whole
    quotation_judged: bool = False
    ends_judged: int = 0
    sentence_ends: dict[str, int] = field(default_factory=dict)
    closing_starts: int = 0
    opening_ends: int = 0
    pairs: int = 0
    overlapping: int = 0
    line_ends: int = 0

    def add(
        self,
        text: str,
        pieces: list[peers.Piece],
        budget: peers.Budget,
        size_of: Callable[[list[str]], list[int]],
        judges: dict[str, Judge],
    ) -> None:
        spans = located(text, pieces)
        sizes = size_of([body for body, _, _ in pieces])
        self.chunks += len(pieces)
        for (body, start, end), span in zip(pieces, spans):
            if start is not None and end is not None:
                self.inexact += text[start:end] != body
            else:
                self.inexact += span is None and bool(body.strip())
        self.over_budget += sum(size > budget.size for size in sizes)
        self.runts += sum(size < budget.size / 10 for size in sizes[:-1])
        known = [span for span in spans if span is not None]
        for index, (start, end) in enumerate(known):
            if index:
                self.closing_starts += CLOSING.match(text, start) is not None
                self.starts_judged += bool(judges)
                found = {name: start in judge.starts for name, judge in judges.items()}
                for name, judge in judges.items():
                    self.sentence_starts[name] = self.sentence_starts.get(name, 0) + found[name]
                    if judge.keeps_quotations:
                        self.quotation_judged = True
                        others = any(found[other] for other in judges if other != name)
                        self.quoted_starts += (
                            not found[name] and others and judge.in_quotation(text, start)
                        )
            if index + 1 < len(known):
                self.opening_ends += OPENING.match(text, end - 1) is not None
                self.ends_judged += bool(judges)
                for name, judge in judges.items():
                    found = end in judge.ends
                    self.sentence_ends[name] = self.sentence_ends.get(name, 0) + found
            after = text[end : end + 200]
            self.line_ends += not after.strip(" \t") or after.lstrip(" \t")[:1] in ("\n", "\r")
        for (_, before_end), (after_start, _) in pairwise(known):
            self.pairs += 1
            self.overlapping += after_start < before_end

    def row(self) -> dict[str, Any]:
        def share(part: int, whole: int) -> str:
            return f"{100 * part / whole:.1f} %" if whole else "–"

        others = max(0, self.chunks - 1)
        return {
            "chunks": self.chunks,
            "sentence starts": " / ".join(
                share(n, self.starts_judged) for n in self.sentence_starts.values()
            )
            or "–",
            "starts in a quotation": share(self.quoted_starts, self.starts_judged)
            if self.quotation_judged
            else "–",
            "sentence ends": " / ".join(
                share(n, self.ends_judged) for n in self.sentence_ends.values()
            )
            or "–",
            "closing start": share(self.closing_starts, others),
            "opening end": share(self.opening_ends, others),
            "pairs overlapping": share(self.overlapping, self.pairs),
            "line ends": share(self.line_ends, self.chunks),
            "runts": share(self.runts, self.chunks),
            "over budget": self.over_budget,
            "inexact": self.inexact,
        }


def _spansplit_cjk(budget: peers.Budget, encoding: Any) -> peers.Built:
    from spansplit import RecursiveSplitter

    length = encoding if budget.unit == "tokens" else None
    splitter = RecursiveSplitter.from_preset(
        "cjk", budget.size, chunk_overlap=budget.overlap, length=length
    )
    return splitter.split, lambda source, result: [(c.text, c.start, c.end) for c in result]


CJK = peers.Contender(
    "spansplit-cjk",
    "spansplit RecursiveSplitter cjk preset",
    "spansplit",
    peers.BUDGETED,
    _spansplit_cjk,
    "`RecursiveSplitter.from_preset('cjk', size, chunk_overlap=overlap, length=encoding)`",
)
SPLITTERS = [
    *(c for c in peers.CONTENDERS if c.key.startswith("spansplit-") and c.units == peers.BUDGETED),
    *(c for c in peers.CONTENDERS if not c.ours and c.key not in ("sts-callback", "chonkie-token")),
]
"""spansplit's budgeted splitters and the peers (semantic-text-splitter once, in its
tiktoken-rs form; chonkie's RecursiveChunker and SentenceChunker, not its TokenChunker,
which cuts at token positions by design)."""

CASES: list[tuple[str, list[peers.Budget]]] = [
    (
        "english",
        [
            peers.Budget("tokens", 512, 64),
            peers.Budget("tokens", 256, 32),
            peers.Budget("chars", 2000, 200),
        ],
    ),
    (
        "chinese",
        [
            peers.Budget("tokens", 256, 32),
            peers.Budget("tokens", 64, 8),
            peers.Budget("chars", 500, 50),
        ],
    ),
    (
        "code",
        [
            peers.Budget("tokens", 256, 0),
            peers.Budget("tokens", 512, 0),
            peers.Budget("tokens", 256, 32),
        ],
    ),
    (
        "markdown",
        [
            peers.Budget("tokens", 256, 0),
            peers.Budget("tokens", 512, 0),
            peers.Budget("tokens", 256, 64),
        ],
    ),
]
MARKDOWN = Path("/usr/share/doc/nodejs/api")
"""Held-out Markdown (no test reads it): the Node.js API documentation, where installed."""


def corpus_texts(name: str, markdown: Path = MARKDOWN) -> tuple[list[str], str | None]:
    """The held-out texts of one case and the judge's language (``None``: no judge)."""
    if name == "english":
        return [held_out(ENGLISH)], "en"
    if name == "chinese":
        return [held_out(CHINESE)], "zh"
    if name == "markdown":
        return [text for _, text in gather(markdown, (".md",))], None
    return [text for _, text in stdlib_python()], None


def quality(
    out: Path | None, markdown: Path = MARKDOWN, only: tuple[str, ...] = ()
) -> dict[str, Any]:
    from spansplit.sizing.tiktoken_loader import load_encoding

    encoding = load_encoding("cl100k_base")
    results: dict[str, Any] = {}
    for name, budgets in CASES:
        if only and name not in only:
            continue
        sources, language = corpus_texts(name, markdown)
        if not sources:
            print(f"{name}: no held-out files (in {markdown}): left out", flush=True)
            continue
        judges = [
            {name: getattr(Judge, name)(t, language) for name in JUDGES[language]}
            if language
            else {}
            for t in sources
        ]
        splitters = [*SPLITTERS, CJK] if name == "chinese" else SPLITTERS
        for budget in budgets:

            def size_of(bodies: list[str], unit: str = budget.unit) -> list[int]:
                if unit == "tokens":
                    return [len(t) for t in encoding.encode_ordinary_batch(bodies)]
                return [len(body) for body in bodies]

            for contender in splitters:
                if not (contender.supports(budget, name) or contender.supports(budget)):
                    continue
                call, pieces = contender.build(budget, encoding)
                figures = Figures()
                for text, judged in zip(sources, judges):
                    figures.add(text, pieces(text, call(text)), budget, size_of, judged)
                key = f"{name} | {budget.label} | {contender.name}"
                results[key] = figures.row()
                print(key, results[key], flush=True)
    if out is not None:
        out.with_suffix(".json").write_text(json.dumps(results, indent=1), encoding="utf-8")
        out.write_text(render(results), encoding="utf-8")
    return results


def render(results: dict[str, Any]) -> str:
    """The results as Markdown tables, one per text and budget."""
    lines = ["# Chunk boundaries on held-out text (benchmarks/quality.py)", ""]
    groups: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for key, row in results.items():
        text, budget, name = key.split(" | ")
        groups.setdefault(f"{text}, {budget}", []).append((name, row))
    for title, rows in groups.items():
        columns = list(rows[0][1])
        lines += [f"## {title}", "", "| splitter | " + " | ".join(columns) + " |"]
        lines.append("|---|" + "---:|" * len(columns))
        for name, row in rows:
            lines.append(f"| {name} | " + " | ".join(str(row[c]) for c in columns) + " |")
        lines.append("")
    return "\n".join(lines)


# --- speed -----------------------------------------------------------------------------------

SPEED_SPLITTERS = {
    "recursive": "RecursiveSplitter({size}, {overlap}, length={length})",
    "paragraphs": "ParagraphSplitter({size}, {overlap}, length={length})",
    "sentences": "SentenceSplitter({size}, {overlap}, length={length})",
}
SPEED_BUDGETS = [("chars", 2000, 0), ("chars", 2000, 200), ("tokens", 512, 0), ("tokens", 512, 64)]
SPEED_TEXTS = [("english", 1.0), ("chinese", 1.0), ("markdown", 2.0)]

_WORKER = """
import sys, time
sys.path.insert(0, {bench!r})
import texts
from spansplit import *
text = texts.load(texts.TextSpec({key!r}, {key!r}, {mb}))
splitter = {build}
splitter.split(text[:20000])
start = time.process_time()
splitter.split(text)
print(time.process_time() - start)
"""


def speed_once(src: str, key: str, mb: float, splitter: str, budget: tuple[str, int, int]) -> float:
    unit, size, overlap = budget
    length = '"cl100k_base"' if unit == "tokens" else "None"
    build = SPEED_SPLITTERS[splitter].format(size=size, overlap=overlap, length=length)
    code = _WORKER.format(bench=str(HERE), key=key, mb=mb, build=build)
    environment = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def speed(baseline: str, reps: int, only: Iterable[str]) -> None:
    current = str(HERE.parent / "src")
    wanted = list(only)
    print(f"load average before: {os.getloadavg()}")
    print("| text | splitter | budget | baseline CPU s | this commit CPU s | ratio |")
    print("|---|---|---|---:|---:|---:|")
    for key, mb in SPEED_TEXTS:
        for splitter in SPEED_SPLITTERS:
            for budget in SPEED_BUDGETS:
                label = f"{key} {splitter} {budget[0]}-{budget[1]}-{budget[2]}"
                if wanted and not all(w in label for w in wanted):
                    continue
                old: list[float] = []
                new: list[float] = []
                for _ in range(reps):
                    old.append(speed_once(baseline, key, mb, splitter, budget))
                    new.append(speed_once(current, key, mb, splitter, budget))
                a, b = statistics.median(old), statistics.median(new)
                unit, size, overlap = budget
                print(
                    f"| {key} {mb:g} MB | {splitter} | {size} {unit} + {overlap} | "
                    f"{a:.3f} | {b:.3f} | {b / a:.2f}x |",
                    flush=True,
                )
    print(f"load average after: {os.getloadavg()}")


def reach(out: Path | None) -> None:
    """How often a sentence start can begin the overlap at all: for each pair of
    consecutive chunks of spansplit's splitters on English with overlap, whether a judged
    sentence start lies inside the first chunk with at most ``overlap`` of it after it
    (the room the overlap has), beside how often the second chunk does start a sentence.
    The first share bounds the second for any splitter with these chunk ends that
    overlaps every pair."""
    import bisect

    from spansplit.sizing.tiktoken_loader import load_encoding

    encoding = load_encoding("cl100k_base")
    (text,), language = corpus_texts("english")
    assert language is not None
    judges = {name: getattr(Judge, name)(text, language) for name in JUDGES[language]}
    ordered = {name: sorted(judge.starts) for name, judge in judges.items()}
    rows = [
        "| splitter | budget | judge | pairs | second chunk starts a sentence "
        "| a sentence start within the overlap room |",
        "|---|---|---|---:|---:|---:|",
    ]
    for budget in dict(CASES)["english"]:

        def size(start: int, end: int, unit: str = budget.unit) -> int:
            body = text[start:end]
            return len(encoding.encode_ordinary(body)) if unit == "tokens" else len(body)

        for contender in SPLITTERS:
            if not contender.ours or not contender.supports(budget):
                continue
            call, pieces = contender.build(budget, encoding)
            spans = [span for span in located(text, pieces(text, call(text))) if span]
            for name, starts in ordered.items():
                starting = within = 0
                for (first_start, first_end), (second_start, _) in pairwise(spans):
                    starting += second_start in judges[name].starts
                    index = bisect.bisect_left(starts, first_end) - 1
                    latest = starts[index] if index >= 0 else -1
                    within += latest > first_start and size(latest, first_end) <= budget.overlap
                pairs = max(len(spans) - 1, 1)
                rows.append(
                    f"| {contender.name} | {budget.label} | {name} | {pairs} "
                    f"| {starting / pairs:.1%} | {within / pairs:.1%} |"
                )
                print(rows[-1], flush=True)
    table = "\n".join(["# English overlap: where a sentence start can begin it", "", *rows, ""])
    if out is not None:
        out.write_text(table, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("quality", help="boundary figures on held-out text")
    run.add_argument("--out", type=Path, help="write Markdown here (and .json beside it)")
    run.add_argument("--markdown", type=Path, default=MARKDOWN, help="held-out Markdown files")
    run.add_argument("--only", action="append", default=[], help="this case alone (english, ...)")
    timing = commands.add_parser("speed", help="CPU time against a baseline source tree")
    timing.add_argument("--baseline", required=True, help="a src/ folder to compare with")
    timing.add_argument("--reps", type=int, default=5)
    timing.add_argument("--only", action="append", default=[], help="labels containing this")
    bound = commands.add_parser("reach", help="English overlap: sentence starts in reach")
    bound.add_argument("--out", type=Path, help="write Markdown here")
    args = parser.parse_args()
    if args.command == "quality":
        quality(args.out, args.markdown, tuple(args.only))
    elif args.command == "reach":
        reach(args.out)
    else:
        speed(args.baseline, args.reps, args.only)


if __name__ == "__main__":
    main()
