"""Download, at set-up time, the sdist whose own unit tests ``tests/test_langchain_suite.py``
runs: the published sdist of the installed langchain-text-splitters, into ``build/sdists/``
(ignored by git). ``make`` runs this right after installing the packages, from the same
package index, so the tests themselves never touch the network; where the download fails, it
says so and that one test skips.

    python tests/fetch_sdists.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

DISTRIBUTION = "langchain-text-splitters"
SDIST_CACHE = Path(__file__).resolve().parent.parent / "build" / "sdists"
DOWNLOAD_SECONDS = 120
"""pip's whole download (index, sdist, metadata build); each connection gives up after 10 s."""


def sdist_name(release: str) -> str:
    """The file name of the distribution's sdist for ``release`` (PEP 625)."""
    return f"{DISTRIBUTION.replace('-', '_')}-{release}.tar.gz"


def sdist_path(release: str) -> Path:
    """Where the sdist of ``release`` is kept once downloaded."""
    return SDIST_CACHE / sdist_name(release)


def fetch(release: str) -> str | None:
    """Download the sdist of ``release`` unless it is there; the reason it failed, or None."""
    target = sdist_path(release)
    if target.is_file():
        return None
    SDIST_CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=SDIST_CACHE) as download:
        command = [
            *(sys.executable, "-m", "pip", "download", f"{DISTRIBUTION}=={release}"),
            *("--no-deps", "--no-binary", DISTRIBUTION, "--dest", download),
            *("--timeout", "10", "--retries", "1", "--no-input", "--disable-pip-version-check"),
        ]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=DOWNLOAD_SECONDS, check=False
            )
        except subprocess.TimeoutExpired:
            return f"pip did not finish within {DOWNLOAD_SECONDS} s"
        fetched = Path(download) / sdist_name(release)
        if done.returncode != 0 or not fetched.is_file():
            errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
            return errors[0] if errors else f"pip exited with {done.returncode}"
        os.replace(fetched, target)
    return None


def main() -> None:
    try:
        release = version(DISTRIBUTION)
    except PackageNotFoundError:
        print(f"{DISTRIBUTION} is not installed: LangChain's own tests will skip")
        return
    failure = fetch(release)
    if failure is not None:
        print(
            f"could not download the {DISTRIBUTION} {release} sdist ({failure}): "
            "LangChain's own tests will skip"
        )


if __name__ == "__main__":
    main()
