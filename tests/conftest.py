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


def corpus_path(relative: str) -> Path:
    """Path of a corpus file or folder; skips the test where the corpus is absent."""
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS} (set SPANSPLIT_CORPUS); clone has no ../shared")
    return CORPUS / relative


def corpus_files(*, suffixes: tuple[str, ...] = (".txt", ".md", ".json")) -> list[Path]:
    """Every text file of the corpus (sorted), or an empty list where it is absent."""
    if not CORPUS.is_dir():
        return []
    return sorted(
        p
        for p in CORPUS.rglob("*")
        if p.is_file() and p.suffix in suffixes and "LICENSES" not in p.parts
    )
