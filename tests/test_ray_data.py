"""Ray Data for real, on a local Ray instance (two CPUs): rows to chunk rows, and the file
pipeline giving exactly the command line's chunks. Marked ``ray``: ``-m "not ray"``
deselects it. Ray is kept on loopback (no usage report, no cloud-metadata probe)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import sample

# Before the first import of ray: its processes inherit these.
for key, value in {
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_AUTH_MODE": "disabled",
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "HTTP_PROXY": "http://127.0.0.1:9",
    "NO_PROXY": "localhost,127.0.0.1",
}.items():
    os.environ.setdefault(key, value)

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")
parquet = pytest.importorskip("pyarrow.parquet")

from spansplit import RecursiveSplitter  # noqa: E402
from spansplit.batch import Document, DocumentError, split_documents  # noqa: E402
from spansplit.cli import main  # noqa: E402
from spansplit.corpus import SplitterByFileType  # noqa: E402
from spansplit.ray_data import ChunkRows, chunk_files  # noqa: E402

pytestmark = pytest.mark.ray


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths are long
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=128 * 1024 * 1024,
        log_to_driver=False,
        _temp_dir=temp,
    )
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.execution_options.preserve_order = True
    yield
    ray.shutdown()


def sort_key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["source"] or "", row["document_id"], row["chunk_index"])


def test_rows_to_chunk_rows(local_ray: None) -> None:
    texts = [sample("english.txt")[:3000], sample("chinese.txt")[:1500], "short text"]
    rows = [{"id": f"doc{i}", "text": t, "lang": "x"} for i, t in enumerate(texts)]
    splitter = RecursiveSplitter(200, 20, length="cl100k_base")
    dataset = ray.data.from_items(rows, override_num_blocks=2)
    found = dataset.flat_map(ChunkRows(splitter, keep_columns=["lang"])).take_all()
    expected = [
        r.to_row()
        for r in split_documents(
            [Document(t, f"doc{i}", {"lang": "x"}) for i, t in enumerate(texts)], splitter
        )
    ]
    assert found == expected


def test_rows_that_are_not_text_are_named_or_skipped() -> None:
    rows = [{"id": "n", "text": None}, {"id": "b", "text": b"\xff\xfe"}]
    for row, reason in zip(rows, ["text must be text, got NoneType", "not valid UTF-8"]):
        with pytest.raises(DocumentError, match=reason):
            ChunkRows(RecursiveSplitter(20))(row)
        assert ChunkRows(RecursiveSplitter(20), on_error="skip")(row) == []
    assert ChunkRows(RecursiveSplitter(20))({"id": "u", "text": b"ok"})[0]["text"] == "ok"


def test_the_file_pipeline_gives_the_command_lines_chunks(
    local_ray: None, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyromark")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "handbook.md").write_text(sample("markdown.md"), encoding="utf-8")
    (folder / "tides.py").write_text(sample("code.py"), encoding="utf-8")
    (folder / "story.txt").write_text(sample("english.txt"), encoding="utf-8")
    (folder / "broken.txt").write_bytes(b"a\x00b")
    cli_output = tmp_path / "cli.parquet"
    status = main(["auto", str(folder), "--chunk-size", "128", "-o", str(cli_output)])
    capfd.readouterr()
    assert status == 1  # broken.txt
    ray_output = tmp_path / "ray-out"
    dataset = chunk_files(
        str(folder), SplitterByFileType(128), output=str(ray_output), on_error="skip"
    )
    from_ray = sorted(dataset.take_all(), key=sort_key)
    from_cli = sorted(parquet.read_table(cli_output).to_pylist(), key=sort_key)
    assert from_ray == from_cli and len(from_cli) > 20
    written = sorted(parquet.read_table(ray_output).to_pylist(), key=sort_key)
    assert written == from_cli


def test_a_bad_file_raises_by_default(local_ray: None, tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    dataset = chunk_files(str(tmp_path), RecursiveSplitter(50))
    with pytest.raises(Exception, match="not valid UTF-8"):
        dataset.take_all()
