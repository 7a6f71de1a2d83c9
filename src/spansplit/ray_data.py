"""Ray Data: chunk a dataset's documents on as many machines as the Ray cluster has.

The ``ray`` extra (``pip install "spansplit[ray]"``). Three pieces, all picklable:

* :class:`ChunkRows`, for ``Dataset.flat_map``: a row with a text column in, one row per
  chunk out (:data:`~spansplit.batch.ROW_COLUMNS`, so every splitter gives one schema);
* :class:`ChunkFiles`, for the rows of ``ray.data.read_binary_files(..., include_paths=True)``:
  the file's bytes read exactly as the command line reads them (same document id, same
  errors), so a Ray pipeline gives the command line's chunks;
* :func:`chunk_files`: that pipeline, from paths to a dataset of chunk rows (and to a
  Parquet folder with ``output``).

A document that cannot be split raises (``on_error="raise"``, the default) or is left out
with a warning in the worker's log (``"skip"``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .batch import ROW_COLUMNS, Document, DocumentError, OnError, _Task
from .corpus import read_document
from .errors import ExtraNotInstalledError, InvalidParameterError, ParameterTypeError
from .splitters.base import Splitter

LOG = logging.getLogger("spansplit.ray_data")

SplitterChoice = Splitter | Callable[[Document], Splitter]


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

    def rows(self, document: Document | DocumentError) -> list[dict[str, Any]]:
        """The chunk rows of one document, as :func:`~spansplit.batch.split_documents`
        makes them (the same task, the same errors)."""
        outcome = _Task(self.splitter, self.pages, self.byte_offsets)(document)[1]
        if isinstance(outcome, DocumentError):
            if self.on_error == "raise":
                raise outcome
            LOG.warning("spansplit: skipped %s: %s", outcome.where, outcome.error)
            return []
        assert isinstance(outcome, list)  # records, not rendered: the task renders nothing
        return [record.to_row() for record in outcome]


@dataclass(frozen=True)
class ChunkRows(_Chunking):
    """``Dataset.flat_map(ChunkRows(splitter))``: each row's ``text_column`` split into
    chunk rows. The document id is ``id_column``'s value (else the row's position is not
    known: pass an id column); ``keep_columns`` go into each chunk row's metadata."""

    text_column: str = "text"
    id_column: str = "id"
    keep_columns: Sequence[str] = field(default=())

    def __call__(self, row: dict[str, Any]) -> list[dict[str, Any]]:
        if self.text_column not in row or self.id_column not in row:
            raise ParameterTypeError(
                f"rows must have the columns {self.text_column!r} and {self.id_column!r}, "
                f"got {sorted(row)}"
            )
        identity, text = str(row[self.id_column]), row[self.text_column]
        metadata = {name: row[name] for name in self.keep_columns}
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
    paths: str | Sequence[str],
    splitter: SplitterChoice,
    *,
    output: str | None = None,
    pages: bool = False,
    byte_offsets: bool = False,
    on_error: OnError = "raise",
    override_num_blocks: int | None = None,
) -> Any:
    """The chunk rows of the files under ``paths`` as a Ray dataset, in input order
    (written as Parquet files to the folder ``output`` when given, replacing what was
    there). Ray must be running (``ray.init()``) or it is started."""
    ray = _ray()
    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True
    files = ray.data.read_binary_files(
        paths, include_paths=True, override_num_blocks=override_num_blocks
    )
    rows = files.flat_map(ChunkFiles(splitter, pages, byte_offsets, on_error))
    if output is not None:
        rows.write_parquet(output, mode="overwrite")
    return rows


def row_schema() -> Any:
    """The Arrow schema of the chunk rows (:data:`~spansplit.batch.ROW_COLUMNS`)."""
    import pyarrow  # type: ignore[import-untyped]

    return pyarrow.schema([(name, getattr(pyarrow, kind)()) for name, kind in ROW_COLUMNS])
