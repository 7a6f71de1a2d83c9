"""Snapshot files of chunk spans: any change of a splitter's behaviour shows as a diff.

A snapshot is a JSON object from case names to lists of chunk records (``[start, end,
size, ...]``), one record per line so that a review reads it chunk by chunk. The files
live in ``tests/snapshots/`` and are written only by ``pytest --update-snapshots``; a
test never writes its own expected output otherwise, and a missing file fails.
"""

from __future__ import annotations

import json
from pathlib import Path

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"

Record = list[object]
Cases = dict[str, list[Record]]


def render(cases: Cases) -> str:
    """The file text: cases in the given order, one chunk record per line."""
    blocks = []
    for name, records in cases.items():
        lines = ",\n".join(f"    {json.dumps(record, ensure_ascii=False)}" for record in records)
        body = f"[\n{lines}\n  ]" if records else "[]"
        blocks.append(f"  {json.dumps(name, ensure_ascii=False)}: {body}")
    return "{\n" + ",\n".join(blocks) + "\n}\n"


def first_difference(expected: Cases, actual: Cases) -> str:
    """A short description of where two snapshots first differ."""
    for name in [*expected, *(n for n in actual if n not in expected)]:
        if name not in actual:
            return f"case {name!r} is no longer produced"
        if name not in expected:
            return f"case {name!r} is new"
        old, new = expected[name], actual[name]
        for index, (a, b) in enumerate(zip(old, new)):
            if a != b:
                return f"case {name!r}, chunk {index}: snapshot {a}, now {b}"
        if len(old) != len(new):
            return f"case {name!r}: snapshot has {len(old)} chunks, now {len(new)}"
    return "no difference"


class Snapshot:
    """Compares chunk records with ``tests/snapshots/<name>.json`` (or writes the file when
    pytest runs with ``--update-snapshots``)."""

    def __init__(self, update: bool) -> None:
        self.update = update

    def check(self, name: str, cases: Cases) -> None:
        path = SNAPSHOTS / f"{name}.json"
        # Records as JSON reads them back (tuples become lists).
        actual: Cases = json.loads(json.dumps(cases))
        if self.update:
            SNAPSHOTS.mkdir(exist_ok=True)
            path.write_text(render(actual), encoding="utf-8")
            return
        assert path.is_file(), f"no snapshot {path}: run pytest --update-snapshots and review it"
        expected: Cases = json.loads(path.read_text(encoding="utf-8"))
        assert actual == expected, (
            f"{path.name} differs: {first_difference(expected, actual)}; if the change is "
            "intended, run pytest --update-snapshots and review the diff"
        )
