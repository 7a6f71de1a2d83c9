"""The ``spansplit`` command line: paragraphs (seed 002 JSON) and blocks (JSON Lines).

Most tests call ``spansplit.cli.main`` in-process (it writes to file descriptor 1, so
they read it with ``capfd``); one runs the installed console script in a subprocess.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from spansplit.cli import main

SEED_TEXT = "aaa\nbbb\n\nccc\nddd\n"
SEED_RESULT = {
    "paragraph_count": 2,
    "line_count_total": 5,
    "paragraphs": [
        {
            "index": 0,
            "start": 0,
            "end": 7,
            "start_line": 1,
            "end_line": 2,
            "line_count": 2,
            "text": "aaa\nbbb",
        },
        {
            "index": 1,
            "start": 9,
            "end": 16,
            "start_line": 4,
            "end_line": 5,
            "line_count": 2,
            "text": "ccc\nddd",
        },
    ],
}
DOCUMENT = "\ufeff# Title\r\n\r\nFirst paragraph\r\nsecond line\r\n\r\n## Part\r\nbody 😀\r\n"
RECORD_FIELDS = ["index", "start", "end", "start_line", "end_line", "size", "kind", "text"]


def write(tmp_path: Path, data: bytes, name: str = "input.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def run(capfd: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capfd.readouterr()
    return status, out, err


def records(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


# --- paragraphs --------------------------------------------------------------------------


def test_paragraphs_prints_the_seed_json(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SEED_TEXT.encode())
    status, out, err = run(capfd, "paragraphs", str(path))
    assert (status, err) == (0, "")
    assert json.loads(out) == SEED_RESULT


def test_paragraphs_reads_standard_input(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = SimpleNamespace(buffer=io.BytesIO(SEED_TEXT.encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    status, out, _ = run(capfd, "paragraphs", "-")
    assert status == 0
    assert json.loads(out) == SEED_RESULT


def test_paragraphs_keeps_crlf_and_unicode(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "漢字\r\n😀\r\n\r\nend".encode())
    status, out, _ = run(capfd, "paragraphs", str(path))
    assert status == 0
    result = json.loads(out)
    assert [p["text"] for p in result["paragraphs"]] == ["漢字\r\n😀", "end"]
    assert [(p["start"], p["end"]) for p in result["paragraphs"]] == [(0, 5), (9, 12)]
    assert result["line_count_total"] == 4


# --- blocks ------------------------------------------------------------------------------


def test_blocks_prints_json_lines_that_tile_the_input(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, DOCUMENT.encode())
    status, out, err = run(capfd, "blocks", str(path), "--target", "40")
    assert (status, err) == (0, "")
    blocks = records(out)
    assert all(list(b) == RECORD_FIELDS for b in blocks)
    assert "".join(b["text"] for b in blocks) == DOCUMENT
    assert blocks[0]["text"].startswith("\ufeff# Title")  # the BOM stays in the first block
    assert [(b["index"], b["start"], b["end"], b["kind"]) for b in blocks] == [
        (0, 0, 12, "heading"),
        (1, 12, 44, "text"),
        (2, 44, 61, "heading"),
    ]
    assert [(b["start_line"], b["end_line"]) for b in blocks] == [(1, 2), (3, 5), (6, 7)]


def test_blocks_in_utf16_units(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, ("😀😀😀\n" * 3).encode())
    _, by_code_points, _ = run(capfd, "blocks", str(path), "--target", "10")
    _, by_utf16, _ = run(capfd, "blocks", str(path), "--target", "10", "--length", "utf16")
    assert [b["size"] for b in records(by_code_points)] == [8, 4]
    assert [b["size"] for b in records(by_utf16)] == [7, 7, 7]


def test_blocks_of_an_empty_file_print_nothing(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert run(capfd, "blocks", str(write(tmp_path, b"")), "--target", "5") == (0, "", "")


# --- errors ------------------------------------------------------------------------------


def assert_clean_error(err: str, *needles: str) -> None:
    assert "Traceback" not in err
    assert err.startswith("spansplit ")
    for needle in needles:
        assert needle in err


def test_missing_file(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.txt"
    status, out, err = run(capfd, "blocks", str(missing), "--target", "10")
    assert (status, out) == (1, "")
    assert_clean_error(err, str(missing), "No such file")


def test_invalid_utf8_names_the_file_and_byte_offset(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "héllo ".encode() + b"\xff\xfe rest", "latin.txt")
    for argv in (["paragraphs", str(path)], ["blocks", str(path), "--target", "10"]):
        status, out, err = run(capfd, *argv)
        assert (status, out) == (1, "")
        assert_clean_error(err, "latin.txt", "not valid UTF-8", "byte offset 7")


def test_nul_byte_is_refused(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, b"abc\x00def")
    status, out, err = run(capfd, "paragraphs", str(path))
    assert (status, out) == (1, "")
    assert_clean_error(err, "NUL", "offset 3", "plain text only")


def test_bad_target_is_refused(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, b"text\n")
    status, out, err = run(capfd, "blocks", str(path), "--target", "0")
    assert (status, out) == (1, "")
    assert_clean_error(err, "target_chars=0")


def test_usage_errors_exit_with_2(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, b"text\n")
    for argv in (["blocks", str(path)], ["blocks", str(path), "--target", "x"], ["nosuch"]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
        _, err = capfd.readouterr()
        assert "usage: spansplit" in err and "Traceback" not in err


# --- the installed console script ----------------------------------------------------


def test_console_script_in_a_subprocess(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "spansplit"
    if not script.exists():
        pytest.skip(f"console script not installed at {script}")
    path = write(tmp_path, DOCUMENT.encode())
    done = subprocess.run(
        [str(script), "blocks", str(path), "--target", "40"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    blocks = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert "".join(b["text"] for b in blocks) == DOCUMENT
    bad = write(tmp_path, b"ok\n\xc3", "bad.txt")
    failed = subprocess.run(
        [str(script), "paragraphs", str(bad)], capture_output=True, timeout=60, check=False
    )
    assert failed.returncode == 1 and failed.stdout == b""
    err = failed.stderr.decode("utf-8")
    assert "bad.txt" in err and "byte offset 3" in err and "Traceback" not in err
