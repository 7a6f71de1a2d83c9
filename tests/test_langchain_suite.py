"""LangChain's own unit tests, run with spansplit's classes in place of LangChain's.

The published sdist of the installed langchain-text-splitters (pinned in the ``test``
extra) is downloaded when ``make`` sets up the environment (``tests/fetch_sdists.py``),
never stored in the repository, and kept in ``build/sdists/`` (ignored by git). Its
``tests/unit_tests/test_text_splitters.py`` runs unchanged in a subprocess, with
``tests/langchain_swap.py`` as a plugin that puts ``SpanRecursiveTextSplitter`` and
``SpanCharacterTextSplitter`` where the module imports ``RecursiveCharacterTextSplitter``
and ``CharacterTextSplitter``. Every test that fails must be listed, with its reason, in
the table of differences in ``adapters/langchain/README.md``, and every test listed there
must fail. Where the sdist could not be downloaded, the test skips and says why.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest
from conftest import ROOT
from fetch_sdists import DISTRIBUTION, sdist_path

SUITE = "tests/unit_tests/test_text_splitters.py"
README = ROOT / "adapters" / "langchain" / "README.md"
TABLE_HEADING = "### LangChain's own tests"

SUITE_INI = """\
[pytest]
markers =
    requires: mark tests as requiring a specific library
    compile: mark placeholder test used to compile integration tests without running them
"""
"""The suite's own pytest settings, less ``asyncio_mode`` (for pytest-asyncio, which none of
its unit tests needs) and ``--strict-config`` (which would reject that setting)."""


def cached_sdist(release: str) -> Path:
    """The sdist of ``release``, downloaded at set-up time (``tests/fetch_sdists.py``);
    skips where it is not there."""
    target = sdist_path(release)
    if not target.is_file():
        pytest.skip(
            f"the {DISTRIBUTION} {release} sdist is not in {target.parent}: set-up downloads "
            "it (python tests/fetch_sdists.py); tests never use the network"
        )
    return target


def extract_tests(sdist: Path, destination: Path) -> Path:
    """The sdist's ``tests/`` files written under ``destination``; returns the sdist's root."""
    with tarfile.open(sdist) as archive:
        root = archive.getnames()[0].split("/")[0]
        for member in archive.getmembers():
            parts = Path(member.name).parts
            if member.isfile() and parts[:2] == (root, "tests") and ".." not in parts:
                content = archive.extractfile(member)
                assert content is not None
                target = destination.joinpath(*parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content.read())
    return destination / root


@dataclass(frozen=True)
class SuiteRun:
    """Outcome of one run of the suite: test ids (with parameters) by result."""

    passed: list[str]
    failed: list[str]
    skipped: list[str]
    output: str


def run_suite(sdist_root: Path, work: Path) -> SuiteRun:
    """Run the suite with the swap plugin in a fresh interpreter and read its JUnit report."""
    ini = work / "suite.ini"
    ini.write_text(SUITE_INI, encoding="utf-8")
    report = work / "report.xml"
    search_path = [str(ROOT / "tests"), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(search_path)}
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", str(sdist_root / SUITE), "-q"),
            *("-p", "langchain_swap", "-p", "no:cacheprovider", "-c", str(ini)),
            *("--rootdir", str(sdist_root), f"--junitxml={report}"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=work,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode in (0, 1) and report.is_file(), f"the suite did not run:\n{output}"
    results: dict[str, list[str]] = {"passed": [], "failed": [], "skipped": []}
    for case in ElementTree.parse(report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            results["failed"].append(case.get("name", ""))
        elif case.find("skipped") is not None:
            results["skipped"].append(case.get("name", ""))
        else:
            results["passed"].append(case.get("name", ""))
    return SuiteRun(**results, output=output)


@dataclass(frozen=True)
class Difference:
    """One row of the README's table: what differs, why, and the tests that show it."""

    difference: str
    reason: str
    tests: tuple[str, ...]


def readme_section() -> str:
    """The README's section under :data:`TABLE_HEADING`, up to the next heading."""
    return README.read_text(encoding="utf-8").split(TABLE_HEADING, 1)[1].split("\n#", 1)[0]


def documented_differences(section: str) -> list[Difference]:
    """The rows of the table in ``section`` (columns: difference, reason, tests)."""
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]
    differences = []
    for row in rows:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        assert len(cells) == 3, f"a row needs difference | reason | tests: {row}"
        tests = tuple(re.findall(r"`(test_[^`]+)`", cells[2]))
        differences.append(Difference(cells[0], cells[1], tests))
    return differences


def listed(test: str, entry: str) -> bool:
    """Whether ``entry`` names ``test``: the same id, or its function (every parameter)."""
    return test == entry or ("[" not in entry and test.startswith(f"{entry}["))


def test_readme_lists_each_difference_with_its_reason() -> None:
    section = readme_section()
    release = version(DISTRIBUTION)
    assert f"{DISTRIBUTION} {release}" in section, (
        f"the table documents another release than the installed {release}: run the suite "
        "and update the table and its text"
    )
    differences = documented_differences(section)
    assert differences
    for row in differences:
        assert row.difference and row.reason and row.tests, row
        assert len(row.tests) == len(set(row.tests)), f"a test is listed twice: {row}"


@pytest.mark.sdist
def test_langchain_unit_tests_fail_only_where_documented(tmp_path: Path) -> None:
    release = version(DISTRIBUTION)
    sdist_root = extract_tests(cached_sdist(release), tmp_path)
    run = run_suite(sdist_root, tmp_path)
    assert len(run.passed) > 50, run.output  # the swapped classes really ran
    entries = [test for row in documented_differences(readme_section()) for test in row.tests]
    undocumented = [t for t in run.failed if not any(listed(t, e) for e in entries)]
    stale = [e for e in entries if not any(listed(t, e) for t in run.failed)]
    assert not undocumented, (
        f"{len(undocumented)} of LangChain's tests fail with no documented difference: add "
        f"them to the table under {TABLE_HEADING!r} in {README.relative_to(ROOT)} with the "
        f"reason, or fix the adapter: {undocumented}\n{run.output}"
    )
    assert not stale, (
        f"listed in {README.relative_to(ROOT)} but passing now: remove them from the table "
        f"(and update its text): {stale}"
    )
    counts = f"{len(run.failed)} of the module's {len(run.failed) + len(run.passed)} tests"
    assert counts in " ".join(readme_section().split()), (
        f"update the counts in the text above the table: {counts!r} that run fail"
    )
