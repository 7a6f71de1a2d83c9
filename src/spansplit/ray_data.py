"""Ray Data: chunk a dataset's documents on as many machines as the Ray cluster has.

The ``ray`` extra (``pip install "spansplit[ray]"``). Three pieces, all picklable:

* :class:`ChunkRows`, for ``Dataset.flat_map``: a row with a text column in, one row per
  chunk out (:data:`~spansplit.batch.ROW_COLUMNS`, so every splitter gives one schema);
* :class:`ChunkFiles`, for the rows of ``ray.data.read_binary_files(..., include_paths=True)``:
  the file's bytes read exactly as the command line reads them (same document id, same
  errors), so a Ray pipeline gives the command line's chunks;
* :func:`chunk_files`: that pipeline, from paths to a dataset of chunk rows (and to a
  Parquet folder with ``output``); local paths select the command line's files. Its rows
  have the command line's Parquet schema (:func:`row_schema`), which
  ``Dataset.map_batches(conform_rows, batch_format="pyarrow")`` gives after ``flat_map``
  with the two callables as well (Ray would infer a column of ``None`` as the null type).

A document that cannot be split raises (``on_error="raise"``, the default) or is left out
with a warning in the worker's log (``"skip"``).
"""

from __future__ import annotations

import datetime
import json
import logging
import math
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .batch import Document, DocumentError, OnError, _source, _Task, row_schema
from .corpus import check_patterns, display_name, find_files, read_document, shown_name
from .errors import ExtraNotInstalledError, InvalidParameterError, ParameterTypeError
from .splitters.base import Splitter

LOG = logging.getLogger("spansplit.ray_data")

SplitterChoice = Splitter | Callable[[Document], Splitter]

PathInput = str | os.PathLike[str]

_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")
"""A path with a scheme (``s3://``, ``gs://``, ``file://`` ...): Ray lists and reads it."""


def _ray() -> Any:
    try:
        import ray
        import ray.data
    except ImportError as error:
        raise ExtraNotInstalledError("the Ray Data integration", "ray", "ray[data]") from error
    return ray


@dataclass(frozen=True)
class _Chunking:
    """What both callables share: the splitter (or per-document choice), the options."""

    splitter: SplitterChoice
    pages: bool = False
    byte_offsets: bool = False
    on_error: OnError = "raise"

    def __post_init__(self) -> None:
        if self.on_error not in ("raise", "skip"):
            raise InvalidParameterError("on_error", self.on_error, "must be 'raise' or 'skip'")
        _Task(self.splitter, self.pages, self.byte_offsets).check()

    def rows(self, document: Document | DocumentError) -> list[dict[str, Any]]:
        """The chunk rows of one document, as :func:`~spansplit.batch.split_documents`
        makes them (the same task, the same errors). A row that cannot be made (metadata
        JSON cannot write) fails its document as ``on_error`` says, not the dataset."""
        outcome = _Task(self.splitter, self.pages, self.byte_offsets)(document)[1]
        if isinstance(outcome, list):  # records, not rendered: the task renders nothing
            try:
                return [record.to_row() for record in outcome]
            except Exception as error:
                assert isinstance(document, Document)  # records come from a document
                outcome = DocumentError(document.id, error, _source(document))
        assert isinstance(outcome, DocumentError)
        if self.on_error == "raise":
            raise outcome
        LOG.warning("spansplit: skipped %s: %s", shown_name(outcome.where), outcome.reason)
        return []


@dataclass(frozen=True)
class ChunkRows(_Chunking):
    """``Dataset.flat_map(ChunkRows(splitter))``: each row's ``text_column`` split into
    chunk rows. The document id is ``id_column``'s value (else the row's position is not
    known: pass an id column); ``keep_columns`` go into each chunk row's metadata (JSON
    text), converted where JSON has no such type: numpy scalars and arrays to Python
    values, dates, times and datetimes (pandas ``Timestamp`` too) to ISO 8601 text,
    durations to seconds, missing values (NaN, NaT, pandas ``NA``) and infinities to null,
    tuples to lists. A value JSON still cannot write (bytes, a set, an object) fails its
    document, as ``on_error`` says, naming the column."""

    text_column: str = "text"
    id_column: str = "id"
    keep_columns: Sequence[str] = field(default=())

    def __call__(self, row: dict[str, Any]) -> list[dict[str, Any]]:
        wanted = [self.text_column, self.id_column, *self.keep_columns]
        if any(name not in row for name in wanted):
            raise ParameterTypeError(
                f"rows must have the columns {', '.join(map(repr, wanted))} (text_column, "
                f"id_column, keep_columns), got {sorted(row)}"
            )
        identity, text = str(row[self.id_column]), row[self.text_column]
        try:
            metadata = {name: _metadata_value(name, row[name]) for name in self.keep_columns}
        except ParameterTypeError as error:
            return self.rows(DocumentError(identity, error))
        if isinstance(text, (bytes, bytearray, memoryview)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as error:
                reason = ParameterTypeError(f"not valid UTF-8 at byte offset {error.start}")
                return self.rows(DocumentError(identity, reason))
        if not isinstance(text, str):
            reason = ParameterTypeError(
                f"{self.text_column} must be text, got {type(text).__name__}: {text!r:.40}"
            )
            return self.rows(DocumentError(identity, reason))
        return self.rows(Document(text, identity, metadata))


def _metadata_value(column: str, value: Any) -> Any:
    """A kept column's value as :class:`ChunkRows` says; :class:`ParameterTypeError`
    naming the column where JSON cannot write it (checked here, where the column is
    known, rather than when the rows are made)."""
    try:
        converted = _json_value(value)
        json.dumps(converted, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise ParameterTypeError(
            f"column {column!r} cannot be written as JSON metadata: {error}"
        ) from None
    return converted


def _json_value(value: Any) -> Any:
    """``value`` converted as :class:`ChunkRows` says; other values as they are."""
    pandas = sys.modules.get("pandas")  # only a row pandas made holds its NA or NaT
    if value is None or (pandas is not None and (value is pandas.NA or value is pandas.NaT)):
        return None
    if isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    numpy = sys.modules.get("numpy")  # likewise
    if numpy is not None and isinstance(value, (numpy.datetime64, numpy.timedelta64)):
        if numpy.isnat(value):
            return None
        if isinstance(value, numpy.timedelta64):
            return float(value / numpy.timedelta64(1, "s"))
        return str(numpy.datetime_as_string(value))  # .tolist() of ns gives an int
    if numpy is not None and isinstance(value, (numpy.generic, numpy.ndarray)):
        return _json_value(value.tolist())
    if isinstance(value, (datetime.date, datetime.time)):  # a datetime is a date
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    if isinstance(value, Mapping):
        return {_json_value(key): _json_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(item) for item in value]
    return value


@dataclass(frozen=True)
class ChunkFiles(_Chunking):
    """``Dataset.flat_map(ChunkFiles(splitter))`` over the rows of
    ``ray.data.read_binary_files(paths, include_paths=True)`` (``bytes`` and ``path``): each
    file read as the command line reads it, then split."""

    def __call__(self, row: dict[str, Any]) -> list[dict[str, Any]]:
        path = str(row["path"])
        try:
            document: Document | DocumentError = read_document(path, bytes(row["bytes"]))
        except DocumentError as error:
            document = error
        return self.rows(document)


def chunk_files(
    paths: PathInput | Sequence[PathInput],
    splitter: SplitterChoice,
    *,
    output: str | None = None,
    recursive: bool = True,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    pages: bool = False,
    byte_offsets: bool = False,
    on_error: OnError = "raise",
    override_num_blocks: int | None = None,
) -> Any:
    """The chunk rows of the files under ``paths`` as a Ray dataset, in input order
    (written as Parquet files to the folder ``output`` when given, replacing the Parquet
    files there, and the dataset returned then reads them: using it does not split the
    files again). A folder that holds anything else (a folder, another file) is no
    output: :class:`~spansplit.errors.InvalidParameterError`, nothing deleted. Ray must be
    running (``ray.init()``) or it is started.

    Local paths select the command line's files, in its order: those of ``spansplit auto
    -r paths`` (``recursive``, ``include`` and ``exclude`` are ``-r``, ``--include`` and
    ``--exclude``; see :func:`~spansplit.corpus.find_files`), except those under a local
    ``output``. URIs (``s3://``, ``gs://``, ``file://`` ...) cannot be listed that way, so
    Ray lists them: a file as given, a folder's files at every depth in path order,
    leaving out those whose path below the folder starts with ``.`` or ``_`` (an entry
    directly in the folder, not one deeper down); no glob patterns, and
    ``recursive=False``, ``include`` and ``exclude`` raise with URIs, as do local paths
    and URIs in one call (:class:`~spansplit.errors.InvalidParameterError`).

    An input that gives no file, or a folder that cannot be searched (what ``find_files``
    lists in ``missing``, with why), raises :class:`~spansplit.errors.InvalidParameterError`
    (``on_error="raise"``) or is logged and left out (``"skip"``); no file at all raises.
    The order is this dataset's own setting (``preserve_order`` on its ``context``): the
    process-wide ``DataContext`` is left as it was."""
    ray = _ray()
    chunking = ChunkFiles(splitter, pages, byte_offsets, on_error)
    if output is not None:
        _check_output(output)
    files = _select_files(_path_list(paths), recursive, include, exclude, on_error, output)
    read = ray.data.read_binary_files(
        files, include_paths=True, override_num_blocks=override_num_blocks
    )
    # A dataset runs with its own copy of the DataContext, taken when it is created and
    # shared by the datasets made from it: ordered here, not in the caller's pipelines.
    read.context.execution_options.preserve_order = True
    # Rows as Ray infers their types would give a column that is None throughout a block
    # (start_byte without byte_offsets) the null type: the command line's schema instead.
    rows = read.flat_map(chunking).map_batches(conform_rows, batch_format="pyarrow")
    if output is None:
        return rows
    rows.write_parquet(output, mode="overwrite")
    return _written(ray, output)


def _output_folder(output: str) -> tuple[Any, str]:
    """The file system and the folder of ``output`` (a URI or a local path)."""
    import pyarrow.fs  # type: ignore[import-untyped]

    found: tuple[Any, str] = pyarrow.fs.FileSystem.from_uri(
        output if _URI.match(output) else os.path.abspath(output)
    )
    return found


BROWSER_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
"""Files a desktop's file browser leaves in a folder it showed: an output folder may hold
them (writing replaces them as it does an earlier run's Parquet files)."""


def _check_output(output: str) -> None:
    """Refuse an ``output`` folder that holds more than Parquet files (an earlier run's
    rows) and :data:`BROWSER_FILES`: writing replaces what is in it."""
    import pyarrow.fs

    if not isinstance(output, str):
        raise ParameterTypeError(f"output must be a folder path or URI (str), got {output!r}")
    filesystem, folder = _output_folder(output)
    if filesystem.get_file_info(folder).type == pyarrow.fs.FileType.File:
        raise InvalidParameterError("output", output, "is a file: give a folder")
    listed = filesystem.get_file_info(pyarrow.fs.FileSelector(folder, allow_not_found=True))
    others = sorted(
        info.base_name
        for info in listed
        if info.type != pyarrow.fs.FileType.File
        or not (info.base_name.endswith(".parquet") or info.base_name in BROWSER_FILES)
    )
    if others:
        raise InvalidParameterError(
            "output",
            output,
            f"holds more than Parquet files ({', '.join(map(repr, others[:3]))}"
            f"{', ...' if len(others) > 3 else ''}), which writing there would delete: "
            "give a new or empty folder, or one an earlier run wrote",
        )


def _written(ray: Any, output: str) -> Any:
    """The rows :func:`chunk_files` wrote to ``output``, read back in order (Ray names its
    files by task and lists them sorted): the rows written, where the dataset that wrote
    them would split every file again when used. Where no file gave a row, Ray writes no
    file: an empty one with the schema is written, as the command line writes one."""
    import pyarrow.fs
    import pyarrow.parquet  # type: ignore[import-untyped]

    filesystem, folder = _output_folder(output)
    listed = filesystem.get_file_info(pyarrow.fs.FileSelector(folder, allow_not_found=True))
    if not any(info.path.endswith(".parquet") for info in listed):
        filesystem.create_dir(folder, recursive=True)
        empty = row_schema().empty_table()
        pyarrow.parquet.write_table(empty, f"{folder}/empty.parquet", filesystem=filesystem)
    written = ray.data.read_parquet(output)
    written.context.execution_options.preserve_order = True
    return written


def _select_files(
    items: list[str],
    recursive: bool,
    include: Sequence[str],
    exclude: Sequence[str],
    on_error: OnError,
    output: str | None,
) -> list[str]:
    """The paths :func:`chunk_files` gives ``ray.data.read_binary_files``: local files as
    the command line selects them (Ray's own listing of a local folder would read hidden
    files below its first level and leave out names starting with ``_``), URIs as given."""
    include, exclude = check_patterns("include", include), check_patterns("exclude", exclude)
    uris = [item for item in items if _URI.match(item)]
    if uris:
        if len(uris) < len(items):
            raise InvalidParameterError(
                "paths", items, "local paths and URIs cannot be read in one call: make two"
            )
        if not recursive or include or exclude:
            raise InvalidParameterError(
                "paths",
                uris,
                "recursive=False, include and exclude apply to local paths only "
                "(Ray lists URIs: every depth, names starting with '.' or '_' left out)",
            )
        return uris
    if "-" in items:
        raise InvalidParameterError("paths", "-", "Ray cannot read standard input: pass files")
    found = find_files(items, recursive=recursive, include=include, exclude=exclude)
    for path, reason in found.missing:
        if on_error == "raise":
            raise InvalidParameterError("paths", path, reason)
        LOG.warning("spansplit: skipped %s: %s", shown_name(path), reason)
    files = []
    for path in found.files:
        if _RAY_CANNOT_NAME.search(path) or display_name(path) != path:  # (not UTF-8)
            reason = (
                "Ray reads files by paths parsed as URLs, which drop tabs and line breaks "
                "and cannot hold bytes that are not UTF-8: rename it, or split it with the "
                "command line"
            )
            if on_error == "raise":
                raise InvalidParameterError("paths", display_name(path), reason)
            LOG.warning("spansplit: skipped %s: %s", shown_name(path), reason)
        else:
            files.append(path)
    if output is not None and not _URI.match(output):  # never read what this run writes
        written = Path(output).resolve()
        files = [f for f in files if not Path(f).resolve().is_relative_to(written)]
    if not files:
        raise InvalidParameterError(
            "paths", items, "no files to read (hidden files and folders are left out)"
        )
    return files


_RAY_CANNOT_NAME = re.compile(r"[\t\n\r]")
"""Characters that Ray's path handling (URL parsing) drops from a file name."""


def _path_list(paths: PathInput | Sequence[PathInput]) -> list[str]:
    """``paths`` as a list of strings; :class:`ParameterTypeError` for anything else."""
    items = [paths] if isinstance(paths, (str, os.PathLike)) else paths
    if not isinstance(items, Sequence) or not all(
        isinstance(item, (str, os.PathLike)) for item in items
    ):
        raise ParameterTypeError(
            f"paths must be a path or a sequence of paths, got {type(paths).__name__}"
        )
    return [os.fspath(item) for item in items]


def conform_rows(batch: Any) -> Any:
    """A ``pyarrow.Table`` of chunk rows with :func:`row_schema`: its columns in order, each
    cast to its type (a column of nulls too), a missing column as nulls; for
    ``Dataset.map_batches(conform_rows, batch_format="pyarrow")`` after :class:`ChunkRows`
    or :class:`ChunkFiles`, which :func:`chunk_files` applies itself."""
    import pyarrow

    schema = row_schema()
    if batch.num_rows == 0:
        return schema.empty_table()
    columns = [
        batch.column(column.name).cast(column.type)
        if column.name in batch.column_names
        else pyarrow.nulls(batch.num_rows, column.type)
        for column in schema
    ]
    return pyarrow.Table.from_arrays(columns, schema=schema)
