"""Many documents at once: documents in, chunk records out, in order, streamed.

:func:`split_documents` takes any iterable of documents (a :class:`Document`, a mapping
with ``text``/``id``/``metadata``, a plain string, or a :class:`DocumentSource` read where
it is split) and yields one :class:`ChunkRecord` per chunk, document after document, in
input order. With ``workers=N`` the documents are split in N processes (started with
``spawn`` by default, so it is safe wherever Python runs), sent in batches, at most a few
batches per worker in flight, so memory stays bounded however long the input is. A
document that is not plain text (a NUL, a lone surrogate) either stops the run with an
error that names it, or is skipped and reported.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import signal
import warnings
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Literal

from .chunk import Chunk, convert_offsets, with_page_numbers
from .errors import InvalidParameterError, ParameterTypeError, SpansplitError, WorkerStoppedError
from .sizing.tiktoken import THREADS_VARIABLE
from .splitters.base import Splitter
from .validate import check_bool, check_int, check_text

OnError = Literal["raise", "skip"]


@dataclass(frozen=True, slots=True)
class Document:
    """One text to split, with the id its chunks will carry and metadata copied to them."""

    text: str
    id: str
    metadata: Mapping[str, Any] = field(default_factory=dict, hash=False)


class DocumentSource(ABC):
    """A document read where it is split: with workers, only this small picklable object
    goes to the worker process, not the text (a file's path, for example)."""

    size_hint: int = 0
    """About how many characters the document holds (a file's size in bytes will do; 0
    when not known): it bounds the work in flight before the document is read."""

    @abstractmethod
    def read(self) -> Document:
        """The document; :class:`DocumentError` (naming it) when it cannot be read."""

    @property
    def name(self) -> str:
        """What an error calls the document when it cannot be read (a file's path)."""
        return repr(self)


ROW_COLUMNS: tuple[tuple[str, str], ...] = (
    ("document_id", "string"),
    ("source", "string"),
    ("chunk_index", "int64"),
    ("start", "int64"),
    ("end", "int64"),
    ("start_byte", "int64"),
    ("end_byte", "int64"),
    ("start_line", "int64"),
    ("end_line", "int64"),
    ("size", "int64"),
    ("kind", "string"),
    ("text", "string"),
    ("page_start", "int64"),
    ("page_end", "int64"),
    ("metadata", "string"),
)
"""The columns of a record as a table row (:meth:`ChunkRecord.to_row`), with their Arrow
types: the same for every splitter, so Parquet files and Ray datasets have one schema."""

_RECORD_KEYS = frozenset(name for name, _ in ROW_COLUMNS) - {"source"} | {
    "oversized",  # a paging block over its target
    "headings",  # Markdown
    "section",
    "symbols",  # code
    "node_kinds",
    "language",
}
"""Keys a document's metadata does not take in a record, whether or not this record has
them: the columns (but ``source``, which a document's own fills) and what splitters say of
a chunk, so that one key means one thing in every record of a run."""


def row_schema() -> Any:
    """The Arrow schema of :data:`ROW_COLUMNS` (needs ``pyarrow``): the command line's
    Parquet files and Ray's rows alike."""
    import pyarrow  # type: ignore[import-untyped]

    return pyarrow.schema([(name, getattr(pyarrow, kind)()) for name, kind in ROW_COLUMNS])


@dataclass(frozen=True, slots=True)
class ChunkRecord:
    """One chunk of one document: what a corpus job writes out (:meth:`to_dict`)."""

    document_id: str
    chunk: Chunk
    document_metadata: Mapping[str, Any]
    byte_offsets: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready values: the document id and metadata, the chunk's index,
        offsets (code points; UTF-8 bytes as ``start_byte``/``end_byte`` where asked for),
        lines, size, kind, text and its splitter's metadata (headings, symbols, pages).

        The chunk's own fields win: a document metadata key that names one of them, a
        column of :data:`ROW_COLUMNS` but ``source`` (``start_byte``, ``page_start`` ...) or
        what a splitter may say of a chunk (``kind``, ``language``, ``oversized`` ...) is
        kept as ``document_<key>`` (``document_document_<key>`` where the document has
        that key too)."""
        chunk = self.chunk
        fields: dict[str, Any] = {
            "chunk_index": chunk.index,
            "start": chunk.start,
            "end": chunk.end,
        }
        if self.byte_offsets is not None:
            fields["start_byte"], fields["end_byte"] = self.byte_offsets
        fields.update(
            start_line=chunk.start_line,
            end_line=chunk.end_line,
            size=chunk.size,
            kind=chunk.kind,
            text=chunk.text,
        )
        if chunk.oversized:
            fields["oversized"] = True
        fields.update(chunk.metadata)
        record: dict[str, Any] = {"document_id": self.document_id}
        own = self.document_metadata
        for key, value in own.items():
            name = key
            while name in fields or name in _RECORD_KEYS or (name != key and name in own):
                name = f"document_{name}"  # (never over another key of the document's)
            record[name] = value
        record.update(fields)
        return record

    def to_row(self) -> dict[str, Any]:
        """The record as a row of :data:`ROW_COLUMNS`: the fixed fields (``None`` where this
        run has none) and everything else (heading paths, symbols, the document's other
        metadata) as JSON text in ``metadata``."""
        record = self.to_dict()
        row = {name: record.pop(name, None) for name, _ in ROW_COLUMNS[:-1]}
        row["metadata"] = json.dumps(record, ensure_ascii=False) if record else None
        return row


def json_line(record: ChunkRecord) -> bytes:
    """One record as a line of JSON Lines (UTF-8, non-ASCII kept as it is)."""
    return json.dumps(record.to_dict(), ensure_ascii=False).encode("utf-8") + b"\n"


@dataclass(frozen=True, slots=True)
class Rendered:
    """The records of one document rendered to bytes (see :func:`render_documents`)."""

    chunks: int
    data: bytes


def describe_error(error: BaseException) -> str:
    """``error``'s message, or its type's name where it has none (``MemoryError()``)."""
    return str(error) or type(error).__name__


class DocumentError(SpansplitError, ValueError):
    """A document could not be split; ``document_id`` and ``source`` (its file, where it
    has one) name it, ``error`` says why."""

    def __init__(self, document_id: str, error: Exception, source: str | None = None) -> None:
        name = source if source is not None else document_id
        super().__init__(f"document {name!r}: {describe_error(error)}")
        self.document_id = document_id
        self.source = source
        self.error = error

    @property
    def reason(self) -> str:
        """Why the document failed, in words (see :func:`describe_error`)."""
        return describe_error(self.error)

    @property
    def where(self) -> str:
        """The source of the document where it has one, else its id."""
        return self.source if self.source is not None else self.document_id


@dataclass(slots=True)
class Progress:
    """How far a batch has got: reported after each document. ``documents`` counts those
    that failed too; ``characters`` and ``chunks`` are of the documents split."""

    documents: int = 0
    characters: int = 0
    chunks: int = 0
    failed: int = 0


DocumentInput = Document | DocumentSource | Mapping[str, Any] | str | DocumentError
"""What a batch accepts as one document (see :func:`as_document`)."""

Item = Document | DocumentSource | DocumentError
"""A document as batches pass it on: read, to be read where it is split, or unreadable."""


def as_document(item: object, position: int) -> Item:
    """A :class:`Document` from what a caller passed: a Document, a mapping with ``text``
    (and ``id``, ``metadata``; no other key is read: a row's other columns, which may be
    large or not JSON, are not copied into every chunk's record unless put in its
    ``metadata``), or a string (its id is its position); a :class:`DocumentSource` and a
    :class:`DocumentError` (a document that could not even be read) stay as they are."""
    if isinstance(item, (DocumentSource, DocumentError)):
        return item
    if isinstance(item, Document):
        return _with_text(item)
    if isinstance(item, str):
        return Document(item, str(position))
    if isinstance(item, Mapping) and "text" in item:
        metadata = item.get("metadata") or {}
        return _with_text(Document(item["text"], str(item.get("id", position)), metadata))
    raise ParameterTypeError(
        f"documents[{position}] must be a Document, a DocumentSource, a mapping with "
        "'text', or a str, "
        f"got {type(item).__name__}: {item!r:.80}"
    )


def _with_text(document: Document) -> Document | DocumentError:
    """``document``, or its :class:`DocumentError` where its text is no ``str`` (``None``
    from an empty cell of a table, bytes): that document fails, not the run."""
    if isinstance(document.text, str):
        return document
    try:
        check_text(document.text)
    except SpansplitError as error:
        return DocumentError(document.id, error, _source(document))
    raise AssertionError("check_text passed a text that is no str")  # pragma: no cover


def _source(document: Document) -> str | None:
    """The file a document came from, where its metadata says (``source``)."""
    metadata = document.metadata
    source = metadata.get("source") if isinstance(metadata, Mapping) else None
    return None if source is None else str(source)


def split_document(
    splitter: Splitter, document: Document, *, pages: bool = False, byte_offsets: bool = False
) -> list[ChunkRecord]:
    """The records of one document (its errors say which document)."""
    try:
        chunks = splitter.split(document.text)
    except SpansplitError as error:
        raise DocumentError(document.id, error, _source(document)) from error
    if pages:
        chunks = with_page_numbers(document.text, chunks)
    offsets: list[tuple[int, int] | None] = [None] * len(chunks)
    if byte_offsets:
        offsets = list(convert_offsets(document.text, chunks, "utf8"))
    metadata = dict(document.metadata)  # one copy shared by the document's records
    return [
        ChunkRecord(document.id, chunk, metadata, where) for chunk, where in zip(chunks, offsets)
    ]


def split_documents(
    documents: Iterable[DocumentInput],
    splitter: Splitter | Callable[[Document], Splitter],
    *,
    workers: int = 1,
    pages: bool = False,
    byte_offsets: bool = False,
    on_error: OnError = "raise",
    on_skip: Callable[[DocumentError], None] | None = None,
    progress: Callable[[Progress], None] | None = None,
    start_method: str = "spawn",
) -> Generator[ChunkRecord, None, None]:
    """The chunk records of ``documents``, in order (see the module docstring). Closing
    the generator (``contextlib.closing``) stops its workers at once, as the end of the run
    does.

    ``splitter`` is a splitter, or a picklable function from a document to the splitter
    for it (e.g. by file type). ``pages`` adds ``page_start``/``page_end`` (form feeds end
    pages); ``byte_offsets`` adds UTF-8 byte offsets. With ``on_error="skip"`` a document
    that cannot be split is passed to ``on_skip`` and the run goes on; ``progress`` is
    called after each document.
    """
    task = _Task(splitter, pages, byte_offsets)
    for records in _documents(task, documents, workers, on_error, on_skip, progress, start_method):
        assert isinstance(records, list)
        yield from records


def render_documents(
    documents: Iterable[DocumentInput],
    splitter: Splitter | Callable[[Document], Splitter],
    render: Callable[[ChunkRecord], bytes] = json_line,
    *,
    workers: int = 1,
    pages: bool = False,
    byte_offsets: bool = False,
    on_error: OnError = "raise",
    on_skip: Callable[[DocumentError], None] | None = None,
    progress: Callable[[Progress], None] | None = None,
    start_method: str = "spawn",
) -> Generator[bytes, None, None]:
    """:func:`split_documents`, each document's records rendered to bytes by ``render``
    (a picklable function; JSON Lines by default) where they are split: with workers, the
    records never travel between processes, only their bytes."""
    task = _Task(splitter, pages, byte_offsets, render)
    for rendered in _documents(task, documents, workers, on_error, on_skip, progress, start_method):
        assert isinstance(rendered, Rendered)
        yield rendered.data


def _documents(
    task: _Task,
    documents: Iterable[DocumentInput],
    workers: int,
    on_error: OnError,
    on_skip: Callable[[DocumentError], None] | None,
    progress: Callable[[Progress], None] | None,
    start_method: str,
) -> Iterator[list[ChunkRecord] | Rendered]:
    """What ``task`` makes of each document that could be split, in order; errors raised
    or skipped as ``on_error`` says, ``progress`` after each document."""
    workers = check_int("workers", workers, 1)
    if on_error not in ("raise", "skip"):
        raise InvalidParameterError("on_error", on_error, "must be 'raise' or 'skip'")
    task.check()
    methods = multiprocessing.get_all_start_methods()
    if workers > 1 and start_method is not None and start_method not in methods:
        raise InvalidParameterError("start_method", start_method, f"must be one of {methods}")
    state = Progress()
    items = (as_document(item, i) for i, item in enumerate(documents))
    parallel = None if workers == 1 else _parallel(task, items, workers, start_method)
    results = map(task, items) if parallel is None else parallel
    try:
        for characters, outcome in results:
            if isinstance(outcome, DocumentError):
                state.failed += 1
                if on_error == "raise":
                    raise outcome
                if on_skip is not None:
                    on_skip(outcome)
            else:
                state.chunks += outcome.chunks if isinstance(outcome, Rendered) else len(outcome)
                state.characters += characters
                yield outcome
            state.documents += 1
            if progress is not None:
                progress(state)
    finally:
        # The raised error's traceback holds this frame (a cycle through ``outcome``):
        # stop the workers now, not when the garbage collector finds the cycle.
        if parallel is not None:
            parallel.close()


Outcome = tuple[int, "list[ChunkRecord] | Rendered | DocumentError"]
"""What became of one document: its length in characters, and its records, their bytes, or
why it could not be read or split."""


@dataclass(frozen=True, slots=True)
class _Task:
    """What each document goes through: picklable, so worker processes receive it once."""

    splitter: Splitter | Callable[[Document], Splitter]
    pages: bool
    byte_offsets: bool
    render: Callable[[ChunkRecord], bytes] | None = None

    def check(self) -> None:
        """Typed errors for settings that would fail every document (or, with
        ``on_error="skip"``, skip them all without a word about why)."""
        if not (isinstance(self.splitter, Splitter) or callable(self.splitter)):
            raise ParameterTypeError(
                "splitter must be a splitter or a function from a document to one, got "
                f"{type(self.splitter).__name__}: {self.splitter!r:.60}"
            )
        check_bool("pages", self.pages)
        check_bool("byte_offsets", self.byte_offsets)

    def __call__(self, item: Item) -> Outcome:
        if isinstance(item, DocumentError):
            return 0, item
        if isinstance(item, DocumentSource):
            try:
                read = _with_text(item.read())
            except DocumentError as error:
                return 0, error
            except Exception as error:  # a source's own failure fails that document only
                return 0, DocumentError(item.name, error, item.name)
            if isinstance(read, DocumentError):
                return 0, read
            document = read
        else:
            document = item
        return len(document.text), self._split(document)

    def _split(self, document: Document) -> list[ChunkRecord] | Rendered | DocumentError:
        splitter = self.splitter
        try:
            if not isinstance(splitter, Splitter):
                splitter = splitter(document)  # e.g. by file type: may find none
            records = split_document(
                splitter, document, pages=self.pages, byte_offsets=self.byte_offsets
            )
            if self.render is None:
                return records
            return Rendered(len(records), b"".join(map(self.render, records)))
        except DocumentError as error:
            return error
        except Exception as error:
            # (a SpansplitError, or a document deeper than Python's recursion limit ...)
            return DocumentError(document.id, error, _source(document))


def _characters(item: Item) -> int:
    """How many characters ``item`` holds, or is expected to hold once read."""
    if isinstance(item, Document):
        return len(item.text)
    return item.size_hint if isinstance(item, DocumentSource) else 0


BATCH_CHARACTERS = 1_000_000
BATCH_DOCUMENTS = 64
"""Documents go to a worker in batches of up to about :data:`BATCH_CHARACTERS` characters
and at most this many documents: one message each way per batch, since a message costs
the parent more than a small document's bytes (see benchmarks/README.md)."""

AHEAD_PER_WORKER = 4
"""Batches submitted ahead per worker, at most (see :func:`_parallel`)."""

AHEAD_CHARACTERS = 8_000_000
"""Characters of the batches submitted ahead per worker, at most (beyond one each)."""

_WORKER_TASK: _Task | None = None


def _start_worker(task: _Task) -> None:
    """Keep the task for this worker's documents; one encoding thread per worker. Ctrl-C
    (SIGINT, sent to the whole process group) is the parent's to handle: a worker that took
    it while waiting for work printed a KeyboardInterrupt traceback from the pool's loop; it
    now finishes its batch and leaves when the parent shuts the pool down."""
    global _WORKER_TASK
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (not a handler the parent set)
    os.environ[THREADS_VARIABLE] = "1"
    warnings.showwarning = _keep_note
    _WORKER_TASK = task


_WORKER_NOTES: list[tuple[str, type[Warning]]] = []
"""Warnings of this worker's current batch, sent back with its outcomes (see
:func:`_keep_note`)."""


def _keep_note(message: Warning | str, category: type[Warning], *_: object, **__: object) -> None:
    """A worker's ``warnings.showwarning``: each warning goes back to the parent, which
    shows it as its own (once: not once per worker, nor on lines run together)."""
    _WORKER_NOTES.append((str(message), category))


def _run_in_worker(batch: list[Item]) -> _Returned:
    """The outcomes of ``batch`` and the warnings given, each pickled here: an outcome or
    a warning that cannot travel back (an error or metadata holding a lock, a warning
    class made on the fly) fails its document alone or is shown as a ``UserWarning``,
    where the pool's own pickling would fail the whole batch and the run."""
    assert _WORKER_TASK is not None, "worker started without its task"
    try:
        outcomes: list[Outcome | bytes] = [_pickled(_WORKER_TASK(item), item) for item in batch]
        notes: list[tuple[str, type[Warning] | bytes]] = [
            (message, pickle.dumps(category if _pickles(category) else UserWarning))
            for message, category in _WORKER_NOTES
        ]
    finally:
        _WORKER_NOTES.clear()
    return outcomes, notes


def _pickles(value: object) -> bool:
    try:
        pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except Exception:
        return False
    return True


def _pickled(outcome: Outcome, item: Item) -> bytes:
    """``outcome`` pickled to travel back. A :class:`DocumentError` whose error does not
    come back as it went (it does not pickle, or unpickles as something else: a required
    argument, a default one) goes with that error as text, its document and reason kept;
    chunks that do not pickle go as their document's error."""
    size, result = outcome
    if isinstance(result, DocumentError):
        try:
            data = pickle.dumps(outcome, pickle.HIGHEST_PROTOCOL)
            back = pickle.loads(data)[1]
            if describe_error(back.error) == result.reason:
                return data
        except Exception:
            pass
        plain = SpansplitError(result.reason)
        return pickle.dumps((size, DocumentError(result.document_id, plain, result.source)))
    try:
        return pickle.dumps(outcome, pickle.HIGHEST_PROTOCOL)
    except Exception as error:
        why = SpansplitError(
            f"its chunks could not be sent back from a worker process ({describe_error(error)})"
        )
        if isinstance(result, list) and result:  # (named by its records: a source's document)
            first = result[0]
            source = first.document_metadata.get("source")
            failed = DocumentError(first.document_id, why, None if source is None else str(source))
        else:
            failed = _error_of(item, why)
        return pickle.dumps((0, failed), pickle.HIGHEST_PROTOCOL)


def _error_of(item: Item, error: Exception) -> DocumentError:
    """The :class:`DocumentError` of ``item`` for ``error``, named as the document is."""
    if isinstance(item, Document):
        return DocumentError(item.id, error, _source(item))
    name = _name_of(item)
    return DocumentError(name, error, name)


def _batches(items: Iterator[Item]) -> Iterator[tuple[int, list[Item], bool]]:
    """``items`` in order, in batches (see :data:`BATCH_DOCUMENTS`), each with its
    characters and whether it stays here: an unreadable document, or one that cannot
    travel, is a batch of its own, which does (see :func:`_stays_here`)."""
    batch: list[Item] = []
    size = 0
    for item in items:
        if _stays_here(item):
            if batch:
                yield size, batch, False
                batch, size = [], 0
            yield 0, [item], True
            continue
        characters = _characters(item)
        if batch and (size + characters > BATCH_CHARACTERS or len(batch) == BATCH_DOCUMENTS):
            yield size, batch, False
            batch, size = [], 0
        batch.append(item)
        size += characters
    if batch:
        yield size, batch, False


def _stays_here(item: Item) -> bool:
    """Whether ``item`` is split in this process, not a worker's: a document that could
    not be read, or one that cannot be pickled to travel there (a document's metadata or
    a source may hold a lock or an open file), which is split here as with one worker."""
    if isinstance(item, DocumentError):
        return True
    try:  # (a document's text always travels: its id and metadata are tried)
        pickle.dumps((item.id, item.metadata) if isinstance(item, Document) else item)
    except Exception:
        return True
    return False


_Returned = tuple[list["Outcome | bytes"], list["tuple[str, type[Warning] | bytes]"]]
"""What a batch gives: its outcomes (each pickled, from a worker) and the warnings given."""


def _outcomes(future: Future[_Returned], batch: list[Item]) -> list[Outcome]:
    """The outcomes of a batch sent to a worker, its warnings given here (shown once, as
    this process's own); :class:`WorkerStoppedError` naming its documents where a worker
    process stopped (the pool is then broken: nothing after it is split)."""
    try:
        returned = future.result()
    except BrokenProcessPool as error:
        names = [_name_of(item) for item in batch]
        which = names[0] if len(names) == 1 else f"{len(names)} documents from {names[0]} on"
        raise WorkerStoppedError(
            f"a worker process stopped (killed by a signal, out of memory, or a script "
            f"started without `if __name__ == '__main__':` that a spawned worker ran again?) "
            f"before it returned the chunks of {which}; nothing from there on was split"
        ) from error
    found, notes = returned
    outcomes = [_unpickled(data, item) for data, item in zip(found, batch)]
    for message, category in notes:  # (one place, so each is shown once)
        warnings.warn_explicit(
            message, _category(category), WORKER_WARNINGS, 0, registry=_WORKER_REGISTRY
        )
    return outcomes


WORKER_WARNINGS = "spansplit (a worker process)"
"""Where a worker's warning is shown to come from (not a line of spansplit's code)."""

_WORKER_REGISTRY: dict[Any, Any] = {}


def _category(category: type[Warning] | bytes) -> type[Warning]:
    """A worker's warning class (pickled), or ``UserWarning`` where it does not unpickle
    here (a class made on the fly in the worker)."""
    if not isinstance(category, bytes):
        return category
    try:
        found = pickle.loads(category)
    except Exception:
        return UserWarning
    return found if isinstance(found, type) and issubclass(found, Warning) else UserWarning


def _unpickled(data: Outcome | bytes, item: Item) -> Outcome:
    """An outcome a worker pickled (one split here as it is), or its document's error
    where it does not unpickle."""
    if not isinstance(data, bytes):
        return data
    try:
        outcome: Outcome = pickle.loads(data)
    except Exception as error:
        why = SpansplitError(f"its result could not be read from a worker process ({error})")
        return 0, _error_of(item, why)
    return outcome


def _name_of(item: Item) -> str:
    """What a document is called in messages: its source, else its id."""
    if isinstance(item, DocumentSource):
        return item.name
    if isinstance(item, DocumentError):
        return item.where
    return _source(item) or item.id


STOP_WAIT_SECONDS = 5.0
"""How long a run stopped early waits for its pool's manager thread to end, once its
workers are stopped (see :func:`_stop_pool`)."""


def _parallel(
    task: _Task, items: Iterator[Item], workers: int, start_method: str
) -> Generator[Outcome, None, None]:
    """Documents split in ``workers`` processes, outcomes in input order, with a window of
    batches submitted ahead: wide enough that a long document does not leave the other
    workers idle, bounded in count and in characters (bounded memory)."""
    context = multiprocessing.get_context(start_method)
    ahead, room = AHEAD_PER_WORKER * workers, AHEAD_CHARACTERS * workers
    queued = 0  # characters of the batches in the window
    pending: deque[tuple[int, Future[_Returned], list[Item]]] = deque()
    pool = ProcessPoolExecutor(workers, context, _start_worker, (task,))
    finished = False
    try:
        for size, batch, here in _batches(items):
            if here:
                done: Future[_Returned] = Future()
                done.set_result(([task(batch[0])], []))
                pending.append((0, done, batch))
            else:
                pending.append((size, pool.submit(_run_in_worker, batch), batch))
            queued += size
            while len(pending) >= ahead or (queued > room and len(pending) > workers):
                size, future, batch = pending.popleft()
                queued -= size
                yield from _outcomes(future, batch)
        while pending:
            _, future, batch = pending.popleft()
            yield from _outcomes(future, batch)
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop_pool(pool)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool whose run stopped early (an error, an interrupt, a caller that stopped
    reading): its queued batches dropped, its workers stopped at once (their results are
    not wanted), and its manager thread ended before this returns.

    Waiting for the batches under way took up to 10 s after Ctrl-C, and the pool's own
    shutdown could hang for good: with both workers waiting on its call queue for the
    sentinels that end them, the manager waited for them to exit (seen 2 times in 25).
    A worker stopped while it sends a result leaves the manager reading half a message:
    the parent's end of the result pipe is closed too, so that read ends. The manager is
    joined (bounded): left running, it raced the interpreter's exit, which wrote to its
    wake-up pipe as it closed it (EBADF: a traceback after the command line's message)."""
    # (looked up first: shutdown lets go of them; private, so each one may be missing)
    manager = getattr(pool, "_executor_manager_thread", None)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    results = getattr(pool, "_result_queue", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=STOP_WAIT_SECONDS)
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()
    if manager is not None:
        manager.join(timeout=STOP_WAIT_SECONDS)
