"""Shared test fixtures: where the real-text corpus lives, and Hypothesis settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from snapshot import Snapshot

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("SPANSPLIT_CORPUS", ROOT.parent / "shared" / "corpus"))
SEEDS = Path(os.environ.get("SPANSPLIT_SEEDS", ROOT.parent / "shared" / "seeds"))

settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-snapshots",
        action="store_true",
        help="write tests/snapshots/*.json from the current code instead of comparing",
    )


@pytest.fixture
def snapshot(request: pytest.FixtureRequest) -> Snapshot:
    """Compares chunk records with a snapshot file (see tests/snapshot.py)."""
    return Snapshot(bool(request.config.getoption("--update-snapshots")))


DATA = ROOT / "tests" / "data"


def sample(name: str) -> str:
    """A text of ``tests/data`` (written for the project), read as bytes so CRLF stays."""
    return (DATA / name).read_bytes().decode("utf-8")


CORPUS_MISSING = f"corpus not found at {CORPUS} (set SPANSPLIT_CORPUS); a clone has no ../shared"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``corpus`` skip, with one reason, where the corpus is absent (CI sets
    ``SPANSPLIT_REQUIRE_CORPUS=1`` where it must be present: there, absence fails)."""
    if CORPUS.is_dir():
        return
    if os.environ.get("SPANSPLIT_REQUIRE_CORPUS") == "1":
        raise pytest.UsageError(f"SPANSPLIT_REQUIRE_CORPUS=1 but {CORPUS_MISSING}")
    skip = pytest.mark.skip(reason=CORPUS_MISSING)
    for item in items:
        if "corpus" in item.keywords:
            item.add_marker(skip)


def corpus_path(relative: str) -> Path:
    """Path of a corpus file or folder; skips the test where the corpus is absent."""
    if not CORPUS.is_dir():
        pytest.skip(CORPUS_MISSING)
    return CORPUS / relative


HELD_OUT: dict[str, int] = {
    "english_prose/pg2701_moby_dick.txt": 600_000,
    "chinese/pg23962_xiyouji_journey_to_the_west.txt": 380_000,
}
"""Corpus files whose text from this code point offset on is held out: the quality
benchmark (benchmarks/quality.py) measures the chunk-boundary rules of issue 16 there, and
no test reads it (tests read corpus text with :func:`read_corpus`, or a prefix shorter
than the offset)."""


def read_corpus(path: Path) -> str:
    """A corpus file's text, read as bytes so CRLF and BOM stay, without its held-out part
    (:data:`HELD_OUT`)."""
    text = path.read_bytes().decode("utf-8")
    held_out = HELD_OUT.get(path.relative_to(CORPUS).as_posix())
    return text if held_out is None else text[:held_out]


def corpus_files(*, suffixes: tuple[str, ...] = (".txt", ".md", ".json")) -> list[Path]:
    """Every text file of the corpus (sorted), or an empty list where it is absent."""
    if not CORPUS.is_dir():
        return []
    return sorted(
        p
        for p in CORPUS.rglob("*")
        if p.is_file() and p.suffix in suffixes and "LICENSES" not in p.parts
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With ``SPANSPLIT_MAX_SKIPPED=0.10``, fail the run if more than that share of the
    tests skipped (a user's clone must run nearly all of the suite)."""
    limit = os.environ.get("SPANSPLIT_MAX_SKIPPED")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if not limit or reporter is None or exitstatus != 0:
        return
    skipped = len(reporter.stats.get("skipped", []))
    ran = len(reporter.stats.get("passed", [])) + len(reporter.stats.get("failed", []))
    share = skipped / max(1, skipped + ran)
    if share > float(limit):
        reporter.write_line(
            f"{skipped} of {skipped + ran} tests skipped ({share:.1%}), more than "
            f"SPANSPLIT_MAX_SKIPPED={limit}",
            red=True,
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
