"""The command line over a corpus: folders and globs, auto mode, workers, Parquet, pages,
tokenizers, bad files, closed and full streams, interruption."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import sample

from spansplit.cli import main
from spansplit.corpus import find_files

SPANSPLIT = [sys.executable, "-m", "spansplit"]


def records(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """A small documentation folder: Markdown, Python, text, a nested folder, a hidden
    folder, and two bad files."""
    root = tmp_path / "docs"
    (root / "guide").mkdir(parents=True)
    (root / ".cache").mkdir()
    (root / "handbook.md").write_bytes(sample("markdown.md").encode())
    (root / "tides.py").write_bytes(sample("code.py").encode())
    (root / "story.txt").write_bytes(sample("english.txt").encode())
    (root / "guide" / "chinese.txt").write_bytes(sample("chinese.txt").encode())
    (root / ".cache" / "skip.txt").write_text("hidden")
    (root / "image.bin").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (root / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    return root


def run(capfd: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capfd.readouterr()
    return status, out, err


def test_auto_mode_over_a_folder(docs: Path, capfd: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyromark")
    status, out, err = run(capfd, "auto", str(docs), "-r", "--chunk-size", "300")
    assert status == 1  # two bad files
    found = records(out)
    kinds = {Path(r["source"]).name: r["kind"] for r in found}
    assert kinds == {
        "handbook.md": "markdown",
        "tides.py": "code",
        "story.txt": "text",
        "chinese.txt": "text",
    }
    for record in found:
        text = Path(record["source"]).read_bytes().decode()
        assert text[record["start"] : record["end"]] == record["text"]
        assert record["size"] <= 300
    assert any("headings" in r for r in found) and any("symbols" in r for r in found)
    assert "image.bin: binary data" in err and "latin1.txt: not valid UTF-8 at byte offset 3" in err
    assert "4 of 6 files split" in err and "2 failed" in err and "skip.txt" not in out + err
    # Records come file by file, each file's chunks numbered from 0.
    sources = [r["source"] for r in found]
    assert sources == sorted(sources, key=sources.index)
    for source in set(sources):
        numbers = [r["chunk_index"] for r in found if r["source"] == source]
        assert numbers == list(range(len(numbers)))


def test_include_exclude_and_globs(docs: Path, capfd: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capfd, "recursive", str(docs), "-r", "--include", "*.txt", "--exclude", "latin1.*",
        "--chunk-size", "500",
    )  # fmt: skip
    assert status == 0
    assert {Path(r["source"]).name for r in records(out)} == {"story.txt", "chinese.txt"}
    status, out, _ = run(capfd, "recursive", str(docs / "*.md"), "--chunk-size", "500")
    assert status == 0 and {Path(r["source"]).name for r in records(out)} == {"handbook.md"}


@pytest.mark.parametrize(
    ("pattern", "left_out"),
    [
        ("guide/*", {"chinese.txt"}),  # a path inside the folder given
        ("guide", {"chinese.txt"}),  # a folder's name, at any depth
        ("guide/", {"chinese.txt"}),
        ("*/guide/*", {"chinese.txt"}),  # the path as found, as before
        ("story.*", {"story.txt"}),  # a file's name, as before
        ("docs", set()),  # the folder given is not one it lies in
    ],
)
def test_patterns_on_the_paths_inside_the_folder_given(
    docs: Path, capfd: pytest.CaptureFixture[str], pattern: str, left_out: set[str]
) -> None:
    """``--exclude 'guide/*'`` and ``--exclude guide`` left out nothing: a pattern was
    matched against a file's name or its whole path, the folder given included."""
    argv = ["recursive", str(docs), "-r", "--include", "*.txt", "--chunk-size", "500"]
    status, out, _ = run(capfd, *argv, "--exclude", "latin1.*", "--exclude", pattern)
    assert status == 0
    assert {Path(r["source"]).name for r in records(out)} == {
        "story.txt",
        "chinese.txt",
    } - left_out


def test_jobs_give_the_same_records(docs: Path, capfd: pytest.CaptureFixture[str]) -> None:
    argv = ["sentences", str(docs), "-r", "--chunk-size", "64", "--length", "cl100k_base"]
    _, one, _ = run(capfd, *argv)
    _, two, _ = run(capfd, *argv, "--jobs", "2")
    assert one == two and len(records(one)) > 50


def test_jobs_in_a_fresh_process_give_the_same_records(docs: Path) -> None:
    # A fresh process has one thread, so on Linux its workers are forked (they start with
    # the loaded tokenizer); the records are the same as with no workers.
    argv = [*SPANSPLIT, "auto", str(docs), "-r", "--chunk-size", "64", "--length", "cl100k_base"]
    one = subprocess.run(argv, capture_output=True, timeout=300)
    two = subprocess.run([*argv, "--jobs", "2"], capture_output=True, timeout=300)
    assert one.returncode == two.returncode == 1  # the two bad files, reported by both
    assert one.stdout == two.stdout and len(records(one.stdout.decode())) > 50
    assert b"image.bin: binary data" in two.stderr


def test_parquet_output_holds_the_json_lines_records(
    docs: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    parquet = pytest.importorskip("pyarrow.parquet")
    pytest.importorskip("pyromark")
    target = tmp_path / "chunks.parquet"
    argv = ["auto", str(docs), "-r", "--chunk-size", "200", "--byte-offsets", "--pages"]
    _, out, _ = run(capfd, *argv)
    status, written, _ = run(capfd, *argv, "-o", str(target))
    assert status == 1 and written == ""
    rows = parquet.read_table(target).to_pylist()
    expected = records(out)
    assert len(rows) == len(expected)
    for row, record in zip(rows, expected):
        metadata = json.loads(row.pop("metadata") or "{}")
        assert {k: v for k, v in row.items() if v is not None} == {
            k: v for k, v in record.items() if k not in metadata
        }
        assert metadata == {k: v for k, v in record.items() if k not in row}


def test_byte_offsets_and_pages(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pdf.txt"
    path.write_bytes("Page one: café.\fPage two: 漢字.\fPage three.".encode())
    status, out, _ = run(
        capfd, "recursive", str(path), "--chunk-size", "20", "--byte-offsets", "--pages",
        "--separators", '["\\f", " ", ""]',
    )  # fmt: skip
    assert status == 0
    data = path.read_bytes()
    for record in records(out):
        assert data[record["start_byte"] : record["end_byte"]].decode() == record["text"]
    assert [(r["page_start"], r["page_end"]) for r in records(out)] == [(1, 1), (2, 2), (3, 3)]


def test_a_tokenizer_json_file(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    tokenizers = pytest.importorskip("tokenizers")
    model = tokenizers.models.WordLevel({"[UNK]": 0, "tide": 1, "gauge": 2}, unk_token="[UNK]")
    tokenizer = tokenizers.Tokenizer(model)
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    tokenizer_file = tmp_path / "tokenizer.json"
    tokenizer.save(str(tokenizer_file))
    path = tmp_path / "t.txt"
    path.write_text("one two three four five six seven eight nine ten")
    status, out, _ = run(
        capfd, "recursive", str(path), "--chunk-size", "4", "--tokenizer", str(tokenizer_file)
    )
    assert status == 0
    assert [r["text"] for r in records(out)] == [
        "one two three four",
        "five six seven eight",
        "nine ten",
    ]


def run_process(argv: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SPANSPLIT, *argv], capture_output=True, text=True, timeout=120, check=False, **options
    )


_COMMANDS = {
    "recursive": ["recursive", "{path}", "--chunk-size", "5"],
    "compat content-size": ["compat", "content-size", "{path}", "--chunk-size", "5"],
    "compat paragraphs-json": ["compat", "paragraphs-json", "{path}"],
}


@pytest.mark.parametrize("command", sorted(_COMMANDS))
def test_closed_and_full_streams_end_cleanly(tmp_path: Path, command: str) -> None:
    path = tmp_path / "a.txt"
    path.write_text("some words here")
    argv = [part.format(path=path) for part in _COMMANDS[command]]
    closed_stdin = run_process(["recursive", "-", "--chunk-size", "5"], stdin=subprocess.DEVNULL)
    assert closed_stdin.returncode == 0  # an empty input: nothing to split
    script = (
        "import os, sys; os.close(0); sys.stdin = None; from spansplit.cli import main; "
        "raise SystemExit(main(['recursive', '-', '--chunk-size', '5']))"
    )
    no_stdin = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert no_stdin.returncode == 1 and "standard input is closed" in no_stdin.stderr
    assert "Traceback" not in no_stdin.stderr
    script = (
        "import os, sys; os.close(1); from spansplit.cli import main; "
        f"raise SystemExit(main({argv!r}))"
    )
    no_stdout = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert no_stdout.returncode == 3 and "standard output is closed" in no_stdout.stderr
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            result = subprocess.run(
                [*SPANSPLIT, *argv],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=60,
                check=False,
            )
        assert result.returncode == 3 and "No space left" in result.stderr
        assert "Traceback" not in result.stderr
    # A reader that stops reading (| head) ends the run quietly: not an error.
    path.write_text(sample("english.txt") * 4)
    process = subprocess.Popen(
        [*SPANSPLIT, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.read(1)
    process.stdout.close()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0 and err == ""


def test_settings_found_bad_before_any_file_is_read_are_bad_usage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "a.txt"
    path.write_text("some words here")
    with pytest.raises(SystemExit) as stopped:
        main(["compat", "content-size", str(path), "--chunk-size", "0"])
    assert stopped.value.code == 2 and "chunk_size=0" in capfd.readouterr().err
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None)
    target = tmp_path / "out.parquet"
    with pytest.raises(SystemExit) as stopped:
        main(["recursive", str(path), "--chunk-size", "5", "-o", str(target)])
    assert stopped.value.code == 2 and "spansplit[parquet]" in capfd.readouterr().err
    assert not target.exists()


def _many_files(tmp_path: Path) -> Path:
    """A folder of 60 files of 20 copies of the English sample: a run long enough to stop."""
    folder = tmp_path / "many"
    folder.mkdir()
    text = sample("english.txt") * 20
    for index in range(60):
        (folder / f"{index:03d}.txt").write_text(text)
    return folder


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_interrupted_run_leaves_whole_records(tmp_path: Path, jobs: str) -> None:
    folder = _many_files(tmp_path)
    target = tmp_path / "out.jsonl"
    argv = ["sentences", str(folder), "--chunk-size", "40", "--jobs", jobs, "-o", str(target)]
    process = subprocess.Popen(
        [*SPANSPLIT, *argv], stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not target.exists() or target.stat().st_size < 10_000):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C does: the workers get it too
    _, err = process.communicate(timeout=60)
    if process.returncode == 0:
        pytest.skip("the run ended before it could be interrupted")
    assert process.returncode == 130 and "interrupted" in err and "Traceback" not in err
    lines = target.read_text().splitlines()
    assert lines and all(json.loads(line)["text"] for line in lines)


def test_an_interrupted_run_counts_the_chunks_it_wrote(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped inside a document, the summary counted that document's chunks, which the
    Parquet file leaves out ('91 of 240 files split' with 92 files' chunks)."""
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as parquet

    from spansplit import cli

    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("alpha beta gamma delta. " * 20)
    written = 0

    def write(self: Any, record: Any) -> None:
        nonlocal written
        if str(record.document_metadata.get("source")).endswith("b.txt"):
            raise KeyboardInterrupt
        written += 1
        self.document.append(record.to_row())

    monkeypatch.setattr(cli._Parquet, "write", write)
    target = tmp_path / "out.parquet"
    argv = ["recursive", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--chunk-size", "50"]
    status, _, err = run(capfd, *argv, "-o", str(target))
    assert status == 130 and written > 1
    assert parquet.read_table(target).num_rows == written
    assert f"1 of 2 files split, {written} chunks" in err


def test_the_output_file_is_not_read_back(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.txt").write_text("alpha beta gamma")
    target = tmp_path / "out.jsonl"
    target.write_text("")
    status, _, err = run(capfd, "recursive", str(tmp_path), "--chunk-size", "6", "-o", str(target))
    assert status == 0 and "out.jsonl: left out: it is this run's output" in err
    assert {json.loads(line)["source"] for line in target.read_text().splitlines()} == {
        str(tmp_path / "a.txt")
    }


def test_inputs_that_give_only_the_output_file_fail_as_inputs_that_give_none(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pattern that matched only this run's output exited 0 with no records, where a
    pattern that matches nothing exits 1."""
    monkeypatch.chdir(tmp_path)
    Path("out.jsonl").write_text("")
    status, _, err = run(capfd, "auto", "*.jsonl", "--chunk-size", "50", "-o", "out.jsonl")
    assert status == 1 and "out.jsonl: left out: it is this run's output" in err
    assert "1 path gave no file" in err and Path("out.jsonl").read_text() == ""
    argv = ["--chunk-size", "50", "-o", "out.jsonl"]
    status, _, err = run(capfd, "auto", "*.jsonl", "gone.md", *argv)
    assert status == 1 and "2 paths gave no file" in err
    Path("a.md").write_text("# A\n\nwords")
    status, _, err = run(capfd, "auto", "*.jsonl", "a.md", *argv)
    assert status == 0 and "gave no file" not in err and "a.md" in Path("out.jsonl").read_text()


@pytest.mark.parametrize("name", ["NOTES", "notes.jsonl"])
def test_an_output_named_as_an_input_too_is_bad_usage(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], name: str
) -> None:
    """Opened for writing, the file would be emptied before it is read: refused before
    anything is opened (it was left out of the inputs and emptied, with status 0)."""
    path = tmp_path / name
    path.write_text("precious data\n")
    with pytest.raises(SystemExit) as stopped:
        main(["recursive", str(path), "--chunk-size", "100", "-o", str(path)])
    assert stopped.value.code == 2 and "is also an input" in capfd.readouterr().err
    assert path.read_text() == "precious data\n"


def test_a_standard_error_that_cannot_be_written_does_not_stop_the_run(tmp_path: Path) -> None:
    """Messages about bad files go to standard error; where it is full or its reader is
    gone, the run goes on without them (it stopped, with status 0 or 3 and records
    missing), and the status still says that files failed."""
    folder = tmp_path / "mix"
    folder.mkdir()
    for index in range(30):
        (folder / f"{index:02d}.txt").write_text(f"good {index}\n")
        (folder / f"{index:02d}b.txt").write_bytes(b"bad\xff")
    target = tmp_path / "out.jsonl"
    argv = [*SPANSPLIT, "auto", str(folder), "--chunk-size", "100", "-o", str(target)]
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            result = subprocess.run(argv, stderr=full, timeout=120, check=False)
        assert result.returncode == 1 and len(target.read_text().splitlines()) == 30
    target.unlink(missing_ok=True)
    process = subprocess.Popen(argv, stderr=subprocess.PIPE)
    assert process.stderr is not None
    process.stderr.close()  # the reader of standard error is gone: writes fail (EPIPE)
    assert process.wait(timeout=120) == 1
    assert len(target.read_text().splitlines()) == 30


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_a_worker_that_is_killed_ends_the_run_with_one_line(tmp_path: Path) -> None:
    """A worker killed (by the kernel when memory runs out, say) ends the run with a
    message naming the documents it had, the records before them whole, no traceback."""
    folder = _many_files(tmp_path)
    target = tmp_path / "out.jsonl"
    argv = ["sentences", str(folder), "--chunk-size", "40", "--jobs", "2", "-o", str(target)]
    process = subprocess.Popen([*SPANSPLIT, *argv], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline and process.poll() is None and len(workers) < 2:
        workers = _children(process.pid)
        time.sleep(0.02)
    if process.poll() is not None or not workers:
        pytest.skip("the run ended before a worker could be killed")
    os.kill(workers[-1], signal.SIGKILL)
    _, err = process.communicate(timeout=60)
    if process.returncode == 0:
        pytest.skip("the run ended before the worker was killed")
    assert process.returncode == 1 and "Traceback" not in err
    assert "a worker process stopped" in err and str(folder) in err
    lines = target.read_text().splitlines()
    assert all(json.loads(line)["text"] for line in lines)


def test_sigterm_stops_the_run_as_ctrl_c_does(tmp_path: Path) -> None:
    """SIGTERM (``timeout``, ``docker stop``) to the command alone: status 143, the records
    written so far whole, and a Parquet file closed readable (it was left without its
    footer)."""
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    folder = _many_files(tmp_path)
    target = tmp_path / "out.parquet"
    argv = ["sentences", str(folder), "--chunk-size", "40", "-o", str(target)]
    process = subprocess.Popen([*SPANSPLIT, *argv], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not target.exists() or target.stat().st_size < 10_000):
        time.sleep(0.05)
    process.terminate()
    _, err = process.communicate(timeout=60)
    if process.returncode == 0:
        pytest.skip("the run ended before it could be stopped")
    assert process.returncode == 143 and "stopped" in err and "Traceback" not in err
    rows = pq.read_table(target, columns=["source", "chunk_index"]).to_pylist()
    assert rows
    # Each document whole, once (its records went out whole; a row group was not written
    # twice), and as many chunks as the summary says.
    by_source: dict[str, list[int]] = {}
    for row in rows:
        by_source.setdefault(row["source"], []).append(row["chunk_index"])
    whole = list(range(len(next(iter(by_source.values())))))
    assert all(indices == whole for indices in by_source.values())
    assert f" {len(rows):,} chunks" in err


def test_sigterm_stops_a_run_reading_a_stream_that_never_ends() -> None:
    """Standard input was read in one call, which returns only at the stream's end:
    ``yes | timeout 3 spansplit markdown -`` read on (gigabytes), SIGTERM noted but never
    acted on. The stream here keeps coming (about 50 MB a second) until the run stops."""
    process = subprocess.Popen(
        [*SPANSPLIT, "markdown", "-", "--chunk-size", "20"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None
    written = [0]

    def feed() -> None:
        block = b"y\n" * 32_768
        try:
            while process.poll() is None:
                process.stdin.write(block)  # type: ignore[union-attr]
                written[0] += len(block)
                time.sleep(0.001)
        except (BrokenPipeError, ValueError, OSError):
            pass  # (the run stopped)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        deadline = time.monotonic() + 60
        while written[0] < 8 << 20 and time.monotonic() < deadline:  # (so it is reading)
            time.sleep(0.01)
        process.terminate()
        status = process.wait(timeout=20)
    finally:
        process.kill()
    feeder.join(timeout=10)
    assert process.stderr is not None
    err = process.stderr.read().decode()
    assert status == 143 and "stopped" in err and "Traceback" not in err


def test_a_row_group_is_written_whole_with_ctrl_c_held_until_it_is() -> None:
    """Ctrl-C during a row group's write was raised between the write and clearing the
    rows: close wrote them again (10,000 rows twice)."""
    from spansplit.cli import _signals_held

    done = []
    # (a shell starts a background job with Ctrl-C ignored: Python then keeps it ignored)
    started = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt), _signals_held():
            signal.raise_signal(signal.SIGINT)
            done.append("the block went on")
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, started)
    assert done == ["the block went on"]


def test_a_parquet_file_holds_whole_documents_only(tmp_path: Path) -> None:
    """Records of a document the run stopped inside are left out of the file, as JSON
    Lines leaves them (each document's records are flushed together)."""
    pq = pytest.importorskip("pyarrow.parquet")
    from spansplit import RecursiveSplitter
    from spansplit.batch import split_documents
    from spansplit.cli import _open_output

    records = list(split_documents(["one two three", "four five six"], RecursiveSplitter(5)))
    target = tmp_path / "out.parquet"
    output = _open_output(str(target))
    for record in records[:3]:
        output.write(record)
    output.flush()  # the first document is done
    output.write(records[3])  # the run stops inside the second
    output.close()
    assert [row["text"] for row in pq.read_table(target).to_pylist()] == ["one", "two", "three"]


def test_environment_is_untouched() -> None:
    assert os.environ.get("SPANSPLIT_THREADS") is None  # only worker processes set it


@pytest.mark.parametrize("name", ["out.csv", "out.json", "out.txt"])
def test_an_output_suffix_that_names_another_format_is_bad_usage(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], name: str
) -> None:
    path = tmp_path / "a.txt"
    path.write_text("some words here")
    target = tmp_path / name
    with pytest.raises(SystemExit) as stopped:
        main(["recursive", str(path), "--chunk-size", "5", "-o", str(target)])
    err = capfd.readouterr().err
    assert stopped.value.code == 2 and "--output=" in err and ".jsonl" in err
    assert not target.exists()


@pytest.mark.parametrize("name", ["out.jsonl", "out.NDJSON", "out"])
def test_json_lines_outputs_are_named_by_their_suffix_or_none(tmp_path: Path, name: str) -> None:
    path = tmp_path / "a.txt"
    path.write_text("some words here")
    target = tmp_path / name
    assert main(["recursive", str(path), "--chunk-size", "5", "-o", str(target)]) == 0
    records = [json.loads(line) for line in target.read_text().splitlines()]
    assert [r["text"] for r in records] == ["some", "words", "here"]


def test_regex_with_a_preset_is_bad_usage(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """``--regex`` says how ``--separators`` read; with a preset it was accepted and ignored."""
    path = tmp_path / "a.txt"
    path.write_text("some words here")
    with pytest.raises(SystemExit) as stopped:
        main(["recursive", str(path), "--chunk-size", "10", "--preset", "markdown", "--regex"])
    assert stopped.value.code == 2 and "--regex" in capfd.readouterr().err


# --- finding files: symlinks, permissions, odd names, inputs that give nothing ---------------

needs_non_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="permissions do not stop root (the simulated tests below cover it)",
)


def tree(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def sources(out: str) -> list[str]:
    return [r["source"] for r in records(out) if r["chunk_index"] == 0]


def test_a_symlink_loop_gives_each_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    tree(tmp_path, {"d1/sub/a.md": "hello", "d1/b.txt": "bye"})
    (tmp_path / "d1" / "sub" / "loop").symlink_to(".")  # d1/sub/loop/loop/... is d1/sub
    argv = ["--chunk-size", "100"]
    status, by_glob, err = run(capfd, "recursive", "d1/**/*.md", "-r", *argv)
    assert (status, sources(by_glob)) == (0, ["d1/sub/a.md"]) and err == ""
    _, by_folder, _ = run(capfd, "recursive", "d1", "-r", "--include", "*.md", *argv)
    assert by_folder == by_glob  # the glob and the folder agree on a tree
    _, everything, _ = run(capfd, "recursive", "d1/**", "-r", *argv)
    assert sources(everything) == ["d1/b.txt", "d1/sub/a.md"]
    # The same file by two paths comes once, by the first path found.
    status, out, _ = run(capfd, "recursive", "d1/sub/*/a.md", "d1", "-r", *argv)
    assert (status, sources(out)) == (0, ["d1/sub/loop/a.md", "d1/b.txt"])


def test_find_files_names_a_file_by_its_own_path_not_a_link_to_it(tmp_path: Path) -> None:
    # Once, in the place it was first found; a citation names the file, not the link
    # that sorted first.
    tree(tmp_path, {"notes/a.txt": "a", "notes/b.txt": "b"})
    (tmp_path / "notes" / "0-alias.txt").symlink_to("b.txt")
    found = find_files([str(tmp_path / "notes"), str(tmp_path / "notes" / "b.txt")])
    assert [Path(f).name for f in found.files] == ["b.txt", "a.txt"]
    assert found.missing == []
    # Two links alone: the first path found.
    (tmp_path / "notes" / "b.txt").unlink()
    (tmp_path / "c.txt").write_text("c")
    (tmp_path / "notes" / "1-alias.txt").symlink_to("../c.txt")
    (tmp_path / "notes" / "0-alias.txt").unlink()
    (tmp_path / "notes" / "0-alias.txt").symlink_to("../c.txt")
    found = find_files([str(tmp_path / "notes")])
    assert [Path(f).name for f in found.files] == ["0-alias.txt", "a.txt"]


def test_a_file_named_itself_keeps_the_name_given_even_through_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    # A link that gives a script without an extension the name its language needs: named
    # with the script's folder, in either order, the file is split once under the name
    # the user wrote (it was split as bin/run, whose name tells no language, and failed).
    pytest.importorskip("tree_sitter_python")
    monkeypatch.chdir(tmp_path)
    tree(tmp_path, {"bin/run": "def main():\n    return 1\n", "bin/util.py": "x = 1\n"})
    (tmp_path / "run.py").symlink_to(os.path.join("bin", "run"))
    for inputs, expected in (
        (["run.py", "bin"], ["run.py", os.path.join("bin", "util.py")]),
        (["bin", "run.py"], ["run.py", os.path.join("bin", "util.py")]),  # (bin/run's place)
    ):
        status, out, err = run(capfd, "code", *inputs, "--chunk-size", "100")
        assert (status, sources(out)) == (0, expected), err
        assert {r["language"] for r in records(out)} == {"python"}
    found = find_files(["bin", "run.py"])
    assert found.files == ["run.py", os.path.join("bin", "util.py")]


def test_a_folder_that_cannot_be_read_is_reported_simulated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    # As a user without permission sees it, whoever runs the tests (root reads anything).
    monkeypatch.chdir(tmp_path)
    tree(tmp_path, {"d2/locked/f.txt": "hi", "d2/ok.txt": "ok"})
    locked = os.path.join("d2", "locked")
    real_scandir, real_stat = os.scandir, os.stat

    def denied(path: Any) -> None:
        name = os.fspath(path)
        if name == locked or name.startswith(locked + os.sep):
            raise PermissionError(13, "Permission denied", name)

    def scandir(path: Any = ".") -> Any:
        denied(path)
        return real_scandir(path)

    def stat(path: Any, *args: Any, **options: Any) -> Any:
        if os.fspath(path).startswith(locked + os.sep):
            denied(path)  # a path inside the folder cannot even be looked up
        return real_stat(path, *args, **options)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "stat", stat)
    for given, split in [("d2", 1), ("d2/**/*.txt", 1), ("d2/locked", 0), ("d2/locked/*.txt", 0)]:
        status, out, err = run(capfd, "recursive", given, "-r", "--chunk-size", "100")
        assert (status, sources(out)) == (1, ["d2/ok.txt"][:split]), given
        assert_one_line_errors(err, f"spansplit: {locked}: Permission denied")
    status, out, err = run(capfd, "recursive", "d2/locked/f.txt", "d2/ok.txt", "--chunk-size", "9")
    assert (status, sources(out)) == (1, ["d2/ok.txt"])
    assert_one_line_errors(err, "spansplit: d2/locked/f.txt: Permission denied")


@needs_non_root
def test_a_folder_that_cannot_be_read_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    tree(tmp_path, {"d2/locked/f.txt": "hi", "d2/ok.txt": "ok"})
    (tmp_path / "d2" / "locked").chmod(0)
    try:
        for inputs in (["d2"], ["d2/**/*.txt"], ["d2/locked"]):
            status, out, err = run(capfd, "recursive", *inputs, "-r", "--chunk-size", "100")
            assert status == 1, inputs
            assert_one_line_errors(err, "spansplit: d2/locked: Permission denied")
            assert sources(out) == ([] if inputs == ["d2/locked"] else ["d2/ok.txt"])
        status, out, err = run(capfd, "recursive", "d2/locked/f.txt", "--chunk-size", "100")
        assert (status, out) == (1, "")
        assert_one_line_errors(err, "spansplit: d2/locked/f.txt: Permission denied")
    finally:
        (tmp_path / "d2" / "locked").chmod(0o755)


def assert_one_line_errors(err: str, *lines: str) -> None:
    """Each of ``lines`` is a whole line of ``err``; every line is a spansplit message."""
    assert "Traceback" not in err
    got = err.splitlines()
    assert all(line.startswith("spansplit") for line in got), got
    for line in lines:
        assert line in got, got


def undecodable_name(folder: Path) -> Path:
    """A file named with a byte that is not UTF-8 (caf\\xe9.txt), where the file system
    takes such names."""
    path = folder / os.fsdecode(b"caf\xe9.txt")
    try:
        path.write_bytes(b"good text\n")
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    return path


def test_a_file_name_that_is_not_utf8_is_split_and_shown_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d4").mkdir()
    tree(tmp_path, {"d4/a.txt": "first file", "d4/z.txt": "last file"})
    undecodable_name(tmp_path / "d4")
    status, out, err = run(capfd, "recursive", "d4", "--chunk-size", "100")
    assert status == 0 and "failed" not in err
    assert sources(out) == ["d4/a.txt", "d4/caf\\xe9.txt", "d4/z.txt"]
    assert records(out)[1]["text"] == "good text"
    parquet = pytest.importorskip("pyarrow.parquet")
    target = tmp_path / "out.parquet"
    status, _, err = run(capfd, "recursive", "d4", "--chunk-size", "100", "-o", str(target))
    assert status == 0 and "Traceback" not in err
    rows = parquet.read_table(target).to_pylist()
    assert [row["source"] for row in rows] == sources(out)


def test_a_glob_that_matches_a_folder_gives_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    tree(tmp_path, {"d5/sub/a.txt": "a", "d5/sub/deep/c.txt": "c", "d5/top.txt": "b"})
    for recursive, expected in (
        (["-r"], ["d5/sub/a.txt", "d5/sub/deep/c.txt", "d5/top.txt"]),
        ([], ["d5/sub/a.txt", "d5/top.txt"]),
    ):
        status, quoted, _ = run(capfd, "recursive", "d5/*", *recursive, "--chunk-size", "9")
        assert (status, sources(quoted)) == (0, expected)
        shell = ["d5/sub", "d5/top.txt"]
        _, expanded, _ = run(capfd, "recursive", *shell, *recursive, "--chunk-size", "9")
        assert quoted == expanded  # as the shell's own expansion of d5/*


def test_a_file_name_with_a_newline_stays_on_one_line(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "d6"
    folder.mkdir()
    (folder / "a\nb.bin").write_bytes(b"x\x00")
    (folder / "c\x1b[31m.txt").write_bytes(b"\xff")
    status, out, err = run(capfd, "recursive", str(folder), "--chunk-size", "9")
    assert (status, out) == (1, "")
    assert_one_line_errors(
        err,
        f"spansplit: {folder}/a\\nb.bin: binary data (a NUL byte at byte offset 1), not text",
        f"spansplit: {folder}/c\\x1b[31m.txt: not valid UTF-8 at byte offset 0 (invalid "
        "start byte)",
    )
    assert len(err.splitlines()) == 3  # the two files and the summary
    status, _, err = run(capfd, "recursive", str(folder / "new\nline.txt"), "--chunk-size", "9")
    assert status == 1
    assert_one_line_errors(err, f"spansplit: {folder}/new\\nline.txt: no such file or directory")


@pytest.mark.parametrize(
    ("inputs", "options", "reason"),
    [
        (["empty"], [], "no files in this directory"),
        (["nested"], [], "no files in this directory (its folders are searched with -r)"),
        (["dotted"], ["-r"], "no files in this directory (hidden files and folders are left out)"),
        (["docs"], ["-r", "--include", "*.txt"], "no file matches --include/--exclude"),
        (["docs/*"], ["--exclude", "*.md"], "no file matches --include/--exclude"),
        (["docs/*.zzz"], [], "no file matches this pattern"),
        (["docs/a.md"], ["--include", "*.txt"], "left out by --include/--exclude"),
        (["nope.txt"], [], "no such file or directory"),
    ],
)
def test_an_input_that_gives_no_file_is_reported(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
    inputs: list[str],
    options: list[str],
    reason: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    tree(tmp_path, {"docs/a.md": "# A", "nested/inner/x.txt": "x", "dotted/.h/y.txt": "y"})
    (tmp_path / "empty").mkdir()
    status, out, err = run(capfd, "recursive", *inputs, *options, "--chunk-size", "100")
    assert (status, out) == (1, "")
    assert_one_line_errors(err, f"spansplit: {inputs[0]}: {reason}")
    # Beside an input that gives files, it still fails the run, and those are split; but
    # a file named itself that the patterns leave out is only filtered then (as in
    # `src/* --include '*.py'`, a list the shell made).
    (tmp_path / "keep.txt").write_text("kept")
    options = [*options, "--include", "keep.txt"] if "--include" in options else options
    status, out, err = run(capfd, "recursive", *inputs, "keep.txt", *options, "--chunk-size", "99")
    if reason.startswith("left out"):
        assert (status, sources(out), err) == (0, ["keep.txt"], "")
    else:
        assert (status, sources(out)) == (1, ["keep.txt"]) and f"{inputs[0]}: " in err


def test_find_files_says_why_an_input_gives_no_file(tmp_path: Path) -> None:
    tree(tmp_path, {"docs/a.md": "# A"})
    (tmp_path / "empty").mkdir()
    found = find_files([str(tmp_path / "empty"), str(tmp_path / "docs")], include=["*.txt"])
    assert found.files == []
    assert found.missing == [
        (str(tmp_path / "empty"), "no files in this directory"),
        (str(tmp_path / "docs"), "no file matches --include/--exclude"),
    ]


def test_code_from_standard_input_without_a_language_is_bad_usage(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    class Unread:
        def read(self, *size: int) -> bytes:
            raise AssertionError("standard input was read before the settings were checked")

    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=Unread()))
    with pytest.raises(SystemExit) as stopped:
        main(["code", "-", "--chunk-size", "100"])
    out, err = capfd.readouterr()
    assert stopped.value.code == 2 and out == ""
    assert err.splitlines()[-1] == (
        "spansplit code: error: --language is needed: code read from standard input has no "
        "file extension"
    )  # (it said "--language=None: ...")
    assert "Traceback" not in err


def test_code_leaves_out_files_found_in_a_folder_whose_language_their_name_does_not_tell(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # Every such file failed the run (exit status 1), one line each: a source tree holds a
    # README, a Makefile or a py.typed marker. A file named itself still fails alone. Files
    # of a document format (README.md, docs in reStructuredText) failed too: no grammar.
    tree(
        tmp_path,
        {
            "proj/a.py": "x = 1\n",
            "proj/Makefile": "all:\n",
            "proj/notes.txt": "hi\n",
            "proj/README.md": "# Proj\n",
            "proj/pkg/py.typed": "",
            "proj/pkg/b.txt": "b\n",
            "proj/lib/c.py": "y = 2\n",
            "proj/docs/guide.rst": "Guide\n=====\n",
        },
    )
    status, out, err = run(capfd, "code", str(tmp_path / "proj"), "-r", "--chunk-size", "50")
    assert status == 0 and [r["source"] for r in records(out)] == [
        f"{tmp_path}/proj/a.py",
        f"{tmp_path}/proj/lib/c.py",
    ]
    assert err.splitlines()[:-1] == [
        "spansplit code: note: left out 6 files found in folders or by patterns whose name "
        "tells no programming language (none, or a document format: Markdown, "
        "reStructuredText, LaTeX, HTML): '.md' (1), '.rst' (1), '.txt' (2), '.typed' (1), "
        "no extension (1) (--language NAME reads every file as NAME; spansplit auto splits "
        "each by its kind)"
    ]
    assert err.splitlines()[-1].startswith("spansplit: 2 of 2 files split, 2 chunks, 12 characters")
    status, out, err = run(capfd, "code", f"{tmp_path}/proj/*", "--chunk-size", "50")
    assert status == 0 and len(records(out)) == 2 and "note: left out 6 files" in err
    # "**" without -r matches one folder level, as in Python's glob: said in a note.
    status, out, err = run(capfd, "code", f"{tmp_path}/proj/**/*.py", "--chunk-size", "50")
    assert status == 0 and len(records(out)) == 1
    assert f"note: '**' in '{tmp_path}/proj/**/*.py' matches one folder level without -r" in err
    status, out, err = run(capfd, "code", f"{tmp_path}/proj/**/*.py", "-r", "--chunk-size", "50")
    assert status == 0 and len(records(out)) == 2 and "'**'" not in err
    status, out, err = run(
        capfd,
        "code",
        str(tmp_path / "proj/Makefile"),
        str(tmp_path / "proj/a.py"),
        "--chunk-size",
        "50",
    )
    lines = err.splitlines()
    assert status == 1 and len(records(out)) == 1
    assert (
        f"spansplit: {tmp_path}/proj/Makefile: no extension to tell its language by "
        "(spansplit code --language NAME reads every file as NAME)"
    ) in lines
    for spelling in ("proj/./Makefile", "proj//Makefile"):  # the same file, named itself
        status, out, err = run(capfd, "code", f"{tmp_path}/{spelling}", "--chunk-size", "50")
        assert status == 1 and "no extension to tell its language by" in err
        assert "left out" not in err and "gave no file" not in err
    status, out, err = run(capfd, "code", str(tmp_path / "proj/pkg"), "--chunk-size", "50")
    assert status == 1 and out == "" and "left out 2 files" in err  # nothing else to split


def test_markdown_leaves_out_files_found_in_a_folder_without_a_markdown_extension(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # A docs folder's script and notes were split as Markdown without a word; named
    # itself or chosen by --include, a file is still split as Markdown.
    tree(
        tmp_path,
        {
            "docs/a.md": "# A\n\nText.\n",
            "docs/b.MARKDOWN": "# B\n\nMore.\n",
            "docs/tool.py": "print(1)\n",
            "docs/notes.txt": "notes\n",
        },
    )
    docs = str(tmp_path / "docs")
    status, out, err = run(capfd, "markdown", docs, "--chunk-size", "50")
    assert status == 0
    assert [r["source"] for r in records(out)] == [f"{docs}/a.md", f"{docs}/b.MARKDOWN"]
    assert err.splitlines()[0] == (
        "spansplit markdown: note: left out 2 files found in folders or by patterns without a "
        "Markdown extension (.markdown, .md, .mdown, .mdx, .mkd): '.py' (1), '.txt' (1) "
        "(--include GLOB splits them as Markdown; spansplit auto splits each by its kind)"
    )
    status, out, err = run(capfd, "markdown", f"{docs}/notes.txt", docs, "--chunk-size", "50")
    assert status == 0 and len(records(out)) == 3 and "left out 1 file " in err
    status, out, err = run(capfd, "markdown", docs, "--include", "*.txt", "--chunk-size", "50")
    assert status == 0 and [r["source"] for r in records(out)] == [f"{docs}/notes.txt"]
    assert "left out" not in err


def test_a_pattern_ending_in_a_slash_matches_folders_only(tmp_path: Path) -> None:
    tree(tmp_path, {"d/a.txt": "a", "d/a-b.txt": "ab", "d/sub/b.txt": "b", "d/real/f.txt": "f"})
    found = find_files([f"{tmp_path}/d/*/"])
    assert found.files == [f"{tmp_path}/d/real/f.txt", f"{tmp_path}/d/sub/b.txt"]


def test_the_summary_counts_files_split_failed_and_inputs_that_gave_none(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # A missing input was counted with the failed files ("1 of 1 files; 1 failed") and a
    # failed file with those split ("2 of 2 files; 1 failed"), so the line never added up.
    (tmp_path / "good.txt").write_text("Some text.", encoding="utf-8")
    (tmp_path / "image.bin").write_bytes(b"\x00\x01\x02")
    good, missing = str(tmp_path / "good.txt"), str(tmp_path / "missing.txt")
    status, _, err = run(capfd, "recursive", good, missing, "--chunk-size", "100")
    assert status == 1 and "1 of 1 files split" in err and "; 1 path gave no file" in err
    assert "failed" not in err.splitlines()[-1]
    status, _, err = run(
        capfd, "recursive", good, str(tmp_path / "image.bin"), "--chunk-size", "100"
    )
    assert status == 1 and "1 of 2 files split" in err and "; 1 failed" in err
    assert "gave no file" not in err


def test_a_cpp_header_is_told_from_a_c_one_by_its_text(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("tree_sitter_cpp")
    pytest.importorskip("tree_sitter_c")
    # ".h" is C or C++: the file's text decides, in `auto` and `code` alike (a C++ header
    # read as C named a class by its base class).
    (tmp_path / "server.h").write_text(
        "namespace net {\nclass Server : public Base {\n public:\n  int port();\n};\n}\n",
        encoding="utf-8",
    )
    (tmp_path / "plain.h").write_text("int port(void);\n", encoding="utf-8")
    for command in ("auto", "code"):
        status, out, _ = run(capfd, command, str(tmp_path), "--chunk-size", "200")
        languages = {Path(r["source"]).name: r["language"] for r in records(out)}
        assert status == 0 and languages == {"server.h": "cpp", "plain.h": "c"}, command


def test_auto_says_once_which_files_are_split_without_their_structure(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # No grammar for Protocol Buffers works offline: `auto` splits .proto files by the
    # separator table, and says so in one line (no source line of Python's), once.
    for name in ("a.proto", "b.proto"):
        (tmp_path / name).write_text('syntax = "proto3";\n\nmessage A {}\n', encoding="utf-8")
    status, out, err = run(capfd, "auto", str(tmp_path), "--chunk-size", "200")
    assert status == 0 and len(records(out)) == 2
    assert [line for line in err.splitlines() if "note" in line] == [
        "spansplit auto: note: proto files are split by separators, without symbols: no "
        "tree-sitter grammar for proto works offline"  # (it gave advice to do what was done)
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_broken_links_and_pipes_in_a_folder_or_a_pattern_are_reported(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A dangling symlink (a document that is absent) and a named pipe (never read: it
    could block the run) are named with why; they were left out without a word."""
    (tmp_path / "a.txt").write_text("kept words")
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "missing.txt")
    os.mkfifo(tmp_path / "pipe.txt")
    (tmp_path / "folder").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path / "folder")  # not followed, as documented
    for given in (str(tmp_path), str(tmp_path / "*.txt")):
        status, out, err = run(capfd, "recursive", given, "--chunk-size", "20")
        assert status == 1 and [r["text"] for r in records(out)] == ["kept words"]
        assert "dangling.txt: a broken symbolic link" in err
        assert "pipe.txt: not a regular file" in err and "linked:" not in err
    # left out by --include or --exclude, they are left out quietly (status 0)
    for filters in (["--include", "a.*"], ["--exclude", "dangling.txt", "--exclude", "pipe*"]):
        status, out, err = run(capfd, "recursive", str(tmp_path), "--chunk-size", "20", *filters)
        assert status == 0 and [r["text"] for r in records(out)] == ["kept words"]
        assert "dangling.txt" not in err and "pipe.txt" not in err
    status, _, err = run(
        capfd, "recursive", str(tmp_path), "--chunk-size", "20", "--include", "*.zz"
    )
    assert status == 1 and "no file matches --include/--exclude" in err and "pipe.txt" not in err


def test_code_and_markdown_leave_out_broken_links_of_other_kinds_quietly(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """``spansplit code`` and ``markdown`` leave out names of other kinds found in a folder;
    a broken link with such a name was still reported, and the run ended with status 1. A
    broken link they would have split, or one named itself, still is."""
    pytest.importorskip("tree_sitter_python")
    pytest.importorskip("pyromark")
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    (tmp_path / "b.md").write_text("# Title\n\nText.\n")
    (tmp_path / "notes.txt").symlink_to(tmp_path / "missing.txt")
    for command in ("code", "markdown"):
        status, out, err = run(capfd, command, str(tmp_path), "--chunk-size", "100")
        assert status == 0 and len(records(out)) == 1, err
        assert "notes.txt" not in err
    (tmp_path / "gone.py").symlink_to(tmp_path / "missing.py")
    status, _, err = run(capfd, "code", str(tmp_path), "--chunk-size", "100")
    assert status == 1 and "gone.py: a broken symbolic link" in err and "notes.txt" not in err
    status, _, err = run(capfd, "code", str(tmp_path / "notes.txt"), "--chunk-size", "100")
    assert status == 1 and "notes.txt" in err


def test_a_pattern_is_filtered_as_the_folder_it_starts_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--include``/``--exclude`` read a pattern's files by their path below the pattern's
    fixed start, as a folder's below it: the folders above it (``/home/t/...`` and
    ``--exclude t``) were matched, and paths inside it (``guide/*``) were not."""
    for relative in ("docs/a.md", "docs/drafts/b.md", "docs/guide/c.md", "docs/guide/sub/d.md"):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text("text")
    monkeypatch.chdir(tmp_path)
    ancestor = tmp_path.name

    def names(item: str, **filters: Any) -> list[str]:
        found = find_files([item], recursive=True, **filters).files
        return sorted(
            Path(path).relative_to(Path(item.split("*")[0] or ".")).as_posix() for path in found
        )

    everything = ["a.md", "drafts/b.md", "guide/c.md", "guide/sub/d.md"]
    for folder, pattern in (
        ("docs", "docs/**"),
        (str(tmp_path / "docs"), str(tmp_path / "docs") + "/**/*.md"),
    ):
        for filters, expected in (
            ({"exclude": [ancestor]}, everything),
            ({"exclude": ["docs"]}, everything),
            ({"include": ["guide/*"]}, ["guide/c.md", "guide/sub/d.md"]),
            ({"exclude": ["drafts"]}, ["a.md", "guide/c.md", "guide/sub/d.md"]),
        ):
            assert names(folder, **filters) == expected
            assert names(pattern, **filters) == expected


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_note_about_a_file_type_is_shown_once_with_workers_too(tmp_path: Path, jobs: str) -> None:
    """Workers send their warnings back with their records: each was printed once per
    worker, and two could run together on one line."""
    for index in range(640):  # ten batches: each worker takes some
        (tmp_path / f"f{index}.pl").write_text("print 1;\n")
    result = run_process(["auto", str(tmp_path), "--chunk-size", "50", "--jobs", jobs])
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 640
    notes = [line for line in result.stderr.splitlines() if "note:" in line]
    assert len(notes) == 1 and notes[0].startswith("spansplit auto: note: perl files")
