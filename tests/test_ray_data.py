"""Ray Data for real, on a local Ray instance (two CPUs): rows to chunk rows, and the file
pipeline giving exactly the command line's chunks. Marked ``ray``: ``-m "not ray"``
deselects it. Ray is kept on loopback (no usage report, no cloud-metadata probe)."""

from __future__ import annotations

import datetime
import json
import os
import re
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
from spansplit.batch import Document, DocumentError, row_schema, split_documents  # noqa: E402
from spansplit.cli import main  # noqa: E402
from spansplit.corpus import SplitterByFileType, find_files  # noqa: E402
from spansplit.errors import InvalidParameterError, ParameterTypeError  # noqa: E402
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
    context.enable_progress_bars = False  # preserve_order stays Ray's default (False)
    yield
    ray.shutdown()


def sort_key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["source"] or "", row["document_id"], row["chunk_index"])


def test_rows_to_chunk_rows(local_ray: None) -> None:
    texts = [sample("english.txt")[:3000], sample("chinese.txt")[:1500], "short text"]
    rows = [{"id": f"doc{i}", "text": t, "lang": "x"} for i, t in enumerate(texts)]
    splitter = RecursiveSplitter(200, 20, length="cl100k_base")
    dataset = ray.data.from_items(rows, override_num_blocks=2)
    dataset.context.execution_options.preserve_order = True
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


def test_a_skipped_documents_name_stays_on_one_line_of_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """As the command line shows names: a newline in an id or a file name is escaped."""
    with caplog.at_level("WARNING", logger="spansplit"):
        ChunkRows(RecursiveSplitter(20), on_error="skip")({"id": "new\nline", "text": None})
    assert "skipped new\\nline:" in caplog.text and "new\nline" not in caplog.text


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
    # The command line's column types too: start_byte, end_byte, page_start and page_end
    # (None throughout without byte_offsets/pages) were written with the null type.
    cli_schema = parquet.read_schema(cli_output).remove_metadata()
    assert parquet.read_table(ray_output).schema.remove_metadata() == cli_schema
    assert dataset.schema().base_schema.remove_metadata() == cli_schema
    assert str(cli_schema.field("start_byte").type) == "int64"


def test_conform_rows_gives_the_row_schema_to_any_batch() -> None:
    import pyarrow

    from spansplit.ray_data import conform_rows, row_schema

    schema = row_schema()
    empty = conform_rows(pyarrow.table({}))
    assert empty.schema == schema and empty.num_rows == 0
    inferred = pyarrow.Table.from_pylist([{"text": "a", "start_byte": None, "chunk_index": 0}])
    assert str(inferred.schema.field("start_byte").type) == "null"
    conformed = conform_rows(inferred)
    assert conformed.schema == schema
    assert conformed.to_pylist()[0]["text"] == "a" and conformed.to_pylist()[0]["end"] is None


def test_a_bad_file_raises_by_default(local_ray: None, tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    dataset = chunk_files(str(tmp_path), RecursiveSplitter(50))
    with pytest.raises(Exception, match="not valid UTF-8"):
        dataset.take_all()


def hidden_and_underscored_tree(root: Path) -> None:
    """Hidden files and folders, and names starting with ``_``, at two depths."""
    for name, text in {
        "top.txt": "t",
        "sub/.env": "e",
        "sub/.git/config": "g",
        "_build/out.txt": "b",
        "sub/_private.txt": "p",
        ".hidden/inside.txt": "h",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text + "\n", encoding="utf-8")


def test_the_file_pipeline_selects_the_command_lines_files(
    local_ray: None, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "r"
    hidden_and_underscored_tree(root)
    expected = [str(root / "_build/out.txt"), str(root / "sub/_private.txt"), str(root / "top.txt")]
    assert find_files([str(root)], recursive=True).files == expected
    cli_output = tmp_path / "cli.parquet"
    assert main(["auto", "-r", str(root), "--chunk-size", "512", "-o", str(cli_output)]) == 0
    capfd.readouterr()
    # Ray's own listing of the folder reads sub/.env and sub/.git/config, and leaves out
    # _build/out.txt: the pipeline must not.
    rows = chunk_files(str(root), SplitterByFileType(512)).take_all()
    assert [row["source"] for row in rows] == expected
    assert rows == parquet.read_table(cli_output).to_pylist()

    # The command line's other selections: one level, patterns.
    def sources(**options: Any) -> list[str]:
        found = chunk_files(str(root), SplitterByFileType(512), **options).take_all()
        return [row["source"] for row in found]

    assert sources(recursive=False) == [str(root / "top.txt")]
    assert sources(exclude=["_*"]) == [str(root / "top.txt")]  # _build/ is a folder's name
    assert sources(exclude=["_*.txt"]) == [str(root / "_build/out.txt"), str(root / "top.txt")]
    assert sources(include=["*.txt"], exclude=["*/sub/*"]) == expected[::2]

    # An input that gives no file raises, naming it, or is left out with "skip" (the
    # reasons are find_files' own); no file at all raises.
    missing, empty = str(tmp_path / "missing"), tmp_path / "empty"
    empty.mkdir()
    for nothing in (missing, str(empty)):
        with pytest.raises(InvalidParameterError, match=re.escape(repr(nothing))):
            chunk_files([str(root), nothing], SplitterByFileType(512))
        found = chunk_files([nothing, str(root)], SplitterByFileType(512), on_error="skip")
        assert [row["source"] for row in found.take_all()] == expected
        with pytest.raises(InvalidParameterError, match="no files to read"):
            chunk_files(nothing, SplitterByFileType(512), on_error="skip")
    with pytest.raises(InvalidParameterError, match="standard input"):
        chunk_files("-", SplitterByFileType(512))

    # URIs are listed by Ray, by the rule the docstring and README state.
    uri = root.as_uri()
    by_ray = [row["source"] for row in chunk_files(uri, SplitterByFileType(512)).take_all()]
    assert by_ray == [
        str(root / n) for n in ("sub/.env", "sub/.git/config", "sub/_private.txt")
    ] + [str(root / "top.txt")]
    with pytest.raises(InvalidParameterError, match="local paths only"):
        chunk_files(uri, SplitterByFileType(512), include=["*.txt"])
    with pytest.raises(InvalidParameterError, match="cannot be read in one call"):
        chunk_files([uri, str(root)], SplitterByFileType(512))

    # An output folder among the inputs is not read back on the next run.
    output = root / "chunks"
    chunk_files(str(root), SplitterByFileType(512), output=str(output))
    assert list(output.glob("*.parquet"))
    again = chunk_files(str(root), SplitterByFileType(512), output=str(output)).take_all()
    assert [row["source"] for row in again] == expected

    # A file browser's own file there is no reason to refuse the folder.
    (output / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    again = chunk_files(str(root), SplitterByFileType(512), output=str(output)).take_all()
    assert [row["source"] for row in again] == expected

    # Writing replaces the folder's files: one that holds more than an earlier run's
    # Parquet files is refused, with nothing deleted.
    (output / "notes.txt").write_text("keep me")
    (output / "sub").mkdir()
    kept = sorted(p.name for p in output.iterdir())
    with pytest.raises(InvalidParameterError, match=r"output.*'notes.txt', 'sub'"):
        chunk_files(str(root), SplitterByFileType(512), output=str(output))
    with pytest.raises(InvalidParameterError, match="is a file"):
        chunk_files(str(root), SplitterByFileType(512), output=str(output / "notes.txt"))
    assert sorted(p.name for p in output.iterdir()) == kept


def test_kept_columns_json_cannot_write_are_converted_or_fail_their_document(
    local_ray: None,
) -> None:
    np = pytest.importorskip("numpy")
    pandas = pytest.importorskip("pandas")
    converted = [
        (np.int64(2020), 2020),
        (np.float32(1.5), 1.5),
        (np.array([1, 2]), [1, 2]),
        (datetime.date(2020, 1, 2), "2020-01-02"),
        (datetime.datetime(2020, 1, 2, 3, 4), "2020-01-02T03:04:00"),
        (pandas.Timestamp("2020-01-02 03:04"), "2020-01-02T03:04:00"),
        (datetime.timedelta(seconds=90), 90.0),
        (float("nan"), None),
        (pandas.NaT, None),
        (pandas.NA, None),
        ((1, np.int8(2)), [1, 2]),
    ]
    for on_error in ("raise", "skip"):
        chunk_rows = ChunkRows(SplitterByFileType(512), on_error=on_error, keep_columns=["v"])
        for value, expected in converted:
            (row,) = chunk_rows({"id": "a", "text": "hello", "v": value})
            assert row["metadata"] == json.dumps({"v": expected}), value
        for value in (b"bytes", {1, 2}, object()):
            row = {"id": "a", "text": "hello", "v": value}
            if on_error == "skip":
                assert chunk_rows(row) == []
                continue
            with pytest.raises(DocumentError, match="document 'a': column 'v' cannot") as caught:
                chunk_rows(row)
            assert isinstance(caught.value.error, ParameterTypeError)
        # Whatever else cannot make a row fails its document, not the dataset.
        document = Document("hello", "d", {"v": b"bytes"})
        if on_error == "skip":
            assert chunk_rows.rows(document) == []
        else:
            with pytest.raises(DocumentError, match=r"document 'd'.*bytes"):
                chunk_rows.rows(document)
    with pytest.raises(ParameterTypeError, match="'v'"):
        ChunkRows(RecursiveSplitter(20), keep_columns=["v"])({"id": "a", "text": "hello"})

    # On Ray: numpy and pandas values from a pandas frame, and a value JSON cannot write
    # in one row, which is skipped while the others are chunked.
    frame = pandas.DataFrame(
        {
            "id": ["a", "b", "c"],
            "text": ["first", "second", "third"],
            "year": np.array([2020, 2021, 2022], dtype=np.int64),
            "when": pandas.to_datetime(["2020-01-01", "2021-02-03", "2022-03-04"]),
            "blob": [None, {1}, None],
        }
    )
    dataset = ray.data.from_pandas(frame)
    dataset.context.execution_options.preserve_order = True
    chunk_rows = ChunkRows(
        SplitterByFileType(512), on_error="skip", keep_columns=["year", "when", "blob"]
    )
    rows = dataset.flat_map(chunk_rows).take_all()
    assert [(row["document_id"], json.loads(row["metadata"])) for row in rows] == [
        ("a", {"year": 2020, "when": "2020-01-01T00:00:00", "blob": None}),
        ("c", {"year": 2022, "when": "2022-03-04T00:00:00", "blob": None}),
    ]


def test_the_file_pipeline_keeps_input_order_without_changing_the_global_context(
    local_ray: None, tmp_path: Path
) -> None:
    context = ray.data.DataContext.get_current()
    assert context.execution_options.preserve_order is False  # Ray's default
    # The first file takes far longer than the others: unordered, its rows come later.
    long_text = " ".join(f"word{i}" for i in range(100_000))
    for i in range(12):
        (tmp_path / f"f{i:02d}.txt").write_text(long_text if i == 0 else f"file {i}")
    rows = chunk_files(str(tmp_path), RecursiveSplitter(40), override_num_blocks=12)
    assert context.execution_options.preserve_order is False
    assert ray.data.DataContext.get_current().execution_options.preserve_order is False
    assert rows.context.execution_options.preserve_order is True
    assert ray.data.range(3).context.execution_options.preserve_order is False
    found = rows.take_all()
    assert list(dict.fromkeys(row["source"] for row in found)) == find_files([str(tmp_path)]).files
    assert [row["chunk_index"] for row in found if row["source"].endswith("f00.txt")] == list(
        range(sum(row["source"].endswith("f00.txt") for row in found))
    )


def test_a_name_ray_cannot_read_fails_its_file_not_the_dataset(
    local_ray: None, tmp_path: Path
) -> None:
    # Ray parses the paths it reads as URLs, which drops a line break from a name: such a
    # file is named as one it cannot read (raise), or left out with "skip".
    root = tmp_path / "names"
    root.mkdir()
    (root / "a\nb.txt").write_text("line one")
    (root / "ok.txt").write_text("fine")
    with pytest.raises(InvalidParameterError, match="URLs"):
        chunk_files(str(root), SplitterByFileType(50))
    rows = chunk_files(str(root), SplitterByFileType(50), on_error="skip").take_all()
    assert [row["source"] for row in rows] == [str(root / "ok.txt")]


def test_the_dataset_of_a_written_output_reads_what_was_written(
    local_ray: None, tmp_path: Path
) -> None:
    """With ``output``, the dataset returned reads the Parquet files written (it split every
    file again when used: twice the work, and rows that could differ from those written),
    in order; where no file gives a row, a file with the schema and no rows is written (Ray
    wrote none, and emptied the folder)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for index in range(3):
        (folder / f"{index}.txt").write_text(sample("english.txt")[: 2000 * (index + 1)])
    written_to = tmp_path / "out"
    dataset = chunk_files(str(folder), RecursiveSplitter(200), output=str(written_to))
    expected = parquet.read_table(written_to).to_pylist()
    for path in folder.iterdir():
        path.unlink()  # nothing left to split again
    assert dataset.take_all() == expected and len(expected) > 30
    first = [r["chunk_index"] for r in expected if r["source"].endswith("0.txt")]
    assert first == list(range(len(first))) and expected[0]["source"].endswith("0.txt")
    (folder / "empty.txt").write_text("")
    dataset = chunk_files(str(folder), RecursiveSplitter(200), output=str(written_to))
    table = parquet.read_table(written_to)
    assert table.num_rows == 0 and table.schema.names == row_schema().names
    assert dataset.count() == 0
