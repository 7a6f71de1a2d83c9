"""Many documents at once: records in order, worker processes, per-document errors, pages,
byte offsets, progress, streaming (spansplit.batch and spansplit.corpus)."""

from __future__ import annotations

import dataclasses
import gc
import itertools
import json
import multiprocessing
import os
import re
import threading
import time
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from conftest import sample

from spansplit import (
    InputTypeError,
    InvalidInputError,
    InvalidParameterError,
    ParameterTypeError,
    RecursiveSplitter,
    SentenceSplitter,
    batch,
    convert_offsets,
)
from spansplit.batch import (
    WORKER_WARNINGS,
    ChunkRecord,
    Document,
    DocumentError,
    Progress,
    json_line,
    render_documents,
    split_documents,
)
from spansplit.corpus import (
    FileSource,
    SplitterByFileType,
    document_id,
    documents_of,
    find_files,
    read_document,
    read_file,
)

ENGLISH = sample("english.txt")
CHINESE = sample("chinese.txt")
DOCUMENTS = [
    Document(ENGLISH, "english", {"source": "english.txt", "lang": "en"}),
    Document(CHINESE, "chinese", {"source": "chinese.txt"}),
    Document("Short one.\fSecond page.\fThird page here.", "pages", {}),
]


def summary(records: list[ChunkRecord]) -> list[tuple[object, ...]]:
    return [(r.document_id, r.chunk.start, r.chunk.end, r.chunk.text) for r in records]


def test_records_follow_the_documents_and_their_chunks() -> None:
    splitter = SentenceSplitter(200, 40)
    records = list(split_documents(DOCUMENTS, splitter))
    expected = [(d.id, c.start, c.end, c.text) for d in DOCUMENTS for c in splitter.split(d.text)]
    assert summary(records) == expected
    first = records[0].to_dict()
    assert list(first)[:5] == ["document_id", "source", "lang", "chunk_index", "start"]
    assert first["document_id"] == "english" and first["lang"] == "en"
    assert all(r.to_dict()["text"] == r.chunk.text for r in records)


def test_document_metadata_never_overwrites_a_chunk_field() -> None:
    document = Document("one two", "d", {"kind": "manual", "text": "x", "document_id": "y"})
    record = next(iter(split_documents([document], RecursiveSplitter(5)))).to_dict()
    assert record["kind"] == "text" and record["text"] == "one"
    assert record["document_kind"] == "manual" and record["document_text"] == "x"
    assert record["document_id"] == "d" and record["document_document_id"] == "y"


def test_document_metadata_never_lands_in_a_typed_column() -> None:
    """A key named as a column of the row (``start_byte``, ``page_start``, ``metadata``)
    that this run leaves empty went into that int64 column ('s' as ``start_byte``), and a
    Parquet file with that schema could not be written; ``source`` is the document's."""
    metadata = {"start_byte": "s", "page_start": "p", "metadata": "m", "source": "f.txt"}
    document = Document("one two", "d", metadata)
    record = next(iter(split_documents([document], RecursiveSplitter(5))))
    row = record.to_row()
    assert row["start_byte"] is None and row["page_start"] is None and row["source"] == "f.txt"
    assert json.loads(row["metadata"]) == {
        "document_start_byte": "s",
        "document_page_start": "p",
        "document_metadata": "m",
    }


def test_document_metadata_named_as_a_splitters_keeps_its_place_and_its_value() -> None:
    # "oversized" (or "symbols", "headings" ...) from a document was left as it was where
    # this chunk had no such field, and read as the splitter's; "text" renamed onto the
    # document's own "document_text" lost one of the two (found by a review).
    metadata = {"text": "META", "document_text": "orig", "oversized": "no", "symbols": "s"}
    document = Document("alpha beta gamma.", "d", metadata)
    record = next(iter(split_documents([document], RecursiveSplitter(20)))).to_dict()
    assert "oversized" not in record and "symbols" not in record
    assert record["document_oversized"] == "no" and record["document_symbols"] == "s"
    assert record["document_text"] == "orig" and record["document_document_text"] == "META"
    assert record["text"] == "alpha beta gamma."


def test_every_key_a_splitter_puts_in_chunk_metadata_is_a_record_key() -> None:
    # So that document metadata of that name is always renamed (see above).
    from spansplit import BlockSplitter, CodeSplitter, MarkdownSplitter

    said: set[str] = set()
    for splitter, text in (
        (BlockSplitter(20), "# A\n\n" + "x" * 40 + "\n"),
        (MarkdownSplitter(50), "# A\n\nText.\n"),
        (CodeSplitter("python", 50, fallback="separators"), "def f():\n    return 1\n"),
    ):
        for chunk in splitter.split(text):
            said |= set(chunk.metadata)
    assert said and said <= batch._RECORD_KEYS


def test_inputs_may_be_strings_and_mappings() -> None:
    records = list(
        split_documents(["one two three", {"text": "four five", "id": "x"}], RecursiveSplitter(5))
    )
    assert [(r.document_id, r.chunk.text) for r in records] == [
        ("0", "one"),
        ("0", "two"),
        ("0", "three"),
        ("x", "four"),
        ("x", "five"),
    ]
    # A dataset's row: only its metadata is carried (its other columns may be large, or
    # not JSON, and would be copied into every record).
    row = {"text": "six", "id": "y", "html": "<p>six</p>", "metadata": {"source": "b"}}
    (record,) = split_documents([row], RecursiveSplitter(5))
    assert record.document_metadata == {"source": "b"}
    with pytest.raises(ParameterTypeError, match=r"documents\[0\] must be a Document"):
        list(split_documents([42], RecursiveSplitter(5)))  # type: ignore[list-item]


def test_byte_offsets_and_pages() -> None:
    records = list(split_documents(DOCUMENTS, RecursiveSplitter(20), pages=True, byte_offsets=True))
    for document in DOCUMENTS:
        own = [r for r in records if r.document_id == document.id]
        chunks = [r.chunk for r in own]
        assert [r.byte_offsets for r in own] == convert_offsets(document.text, chunks, "utf8")
        for chunk in chunks:
            assert chunk.metadata["page_start"] == 1 + document.text.count("\f", 0, chunk.start)
            assert chunk.metadata["page_end"] == 1 + document.text.count("\f", 0, chunk.end - 1)
    paged = [r.to_dict() for r in records if r.document_id == "pages"]
    # "Short one.\fSecond", "page.\fThird page", "here."
    assert [(r["page_start"], r["page_end"]) for r in paged] == [(1, 2), (2, 3), (3, 3)]
    assert all("start_byte" in r for r in paged)


def test_a_document_whose_text_is_no_str_fails_alone() -> None:
    """A row whose text is None (an empty cell of a table) ended the run with a bare
    TypeError, even with on_error="skip"."""
    rows = [{"text": None, "id": "empty"}, {"text": b"bytes", "id": "raw"}, DOCUMENTS[0]]
    with pytest.raises(DocumentError, match="'empty': text must be str, got NoneType"):
        list(split_documents(rows, RecursiveSplitter(100)))
    for workers in (1, 2):
        skipped: list[DocumentError] = []
        records = split_documents(
            rows, RecursiveSplitter(100), workers=workers, on_error="skip", on_skip=skipped.append
        )
        assert {r.document_id for r in records} == {"english"}
        assert [e.document_id for e in skipped] == ["empty", "raw"]
        assert "decode it first" in skipped[1].reason


class _SourceOfNothing(batch.DocumentSource):
    """A source whose document has no text (a store's empty row)."""

    name = "empty-row"

    def read(self) -> Document:
        return Document(None, "empty-row")  # type: ignore[arg-type]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_source_whose_document_has_no_str_text_fails_alone(workers: int) -> None:
    skipped: list[DocumentError] = []
    records = split_documents(
        [_SourceOfNothing(), DOCUMENTS[0]],
        RecursiveSplitter(100),
        workers=workers,
        on_error="skip",
        on_skip=skipped.append,
    )
    assert {r.document_id for r in records} == {"english"}
    assert [e.reason for e in skipped] == ["text must be str, got NoneType"]


class _LockedOnRead(batch.DocumentSource):
    """A source that pickles, whose document's metadata does not (it holds a lock)."""

    name = "locked-on-read"

    def read(self) -> Document:
        return Document("text read from a store", "locked-on-read", {"h": threading.Lock()})


def test_chunks_that_cannot_travel_back_from_a_worker_fail_their_document_alone() -> None:
    """The pool pickled a batch's results whole: one document whose records held a lock
    ended the run with a bare TypeError, the batch's other documents lost with it."""
    documents = [DOCUMENTS[0], _LockedOnRead(), DOCUMENTS[1]]
    skipped: list[DocumentError] = []
    records = split_documents(
        documents, RecursiveSplitter(100), workers=2, on_error="skip", on_skip=skipped.append
    )
    assert {r.document_id for r in records} == {"english", "chinese"}
    assert [e.where for e in skipped] == ["locked-on-read"]
    assert "could not be sent back from a worker process" in skipped[0].reason


class _TwoArguments(Exception):
    """An exception that pickles and does not unpickle (its __init__ needs two)."""

    def __init__(self, first: str, second: str) -> None:
        super().__init__(f"{first} {second}")


class _DefaultArgument(Exception):
    """An exception that unpickles with another message (its default argument added)."""

    def __init__(self, first: str, second: str = "extra") -> None:
        super().__init__(f"{first} {second}")


class _FailingSource(batch.DocumentSource):
    """A source whose read() raises ``kind`` of error."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    @property
    def name(self) -> str:
        return f"failing-{self.kind}"

    def read(self) -> Document:
        if self.kind == "lock":
            raise OSError("disk gone", threading.Lock())
        if self.kind == "default":
            raise _DefaultArgument("x", "y")
        if self.kind == "locked-metadata":
            return Document("text of a store", "its-id", {"h": threading.Lock()})
        raise _TwoArguments("store", "gone")


def _splitter_for(document: Document) -> RecursiveSplitter:
    """A splitter by document that finds none for ``.xyz`` (its error holds a lock)."""
    if str(document.metadata.get("source", "")).endswith(".xyz"):
        error = ValueError("no splitter for .xyz")
        error.held = threading.Lock()  # type: ignore[attr-defined]
        raise error
    return RecursiveSplitter(100)


def test_errors_that_cannot_travel_back_keep_their_document_and_reason() -> None:
    """An error holding a lock was reported as "its chunks could not be sent back" under
    the wrong id, and one that does not unpickle ended the run."""
    documents = [
        DOCUMENTS[0],
        _FailingSource("lock"),
        _FailingSource("two"),
        _FailingSource("default"),
        Document("three", "bad", {"source": "/data/f.xyz"}),
        DOCUMENTS[1],
    ]
    runs = []
    for workers in (1, 2):
        skipped: list[DocumentError] = []
        records = split_documents(
            documents, _splitter_for, workers=workers, on_error="skip", on_skip=skipped.append
        )
        ids = sorted({r.document_id for r in records})
        reasons = [re.sub(" at 0x[0-9a-f]+", "", e.reason) for e in skipped]  # (an address)
        runs.append((ids, [(e.document_id, e.where, r) for e, r in zip(skipped, reasons)]))
    assert runs[0] == runs[1]
    assert runs[0][0] == ["chinese", "english"]
    assert runs[0][1][0][2] == "[Errno disk gone] <unlocked _thread.lock object>"
    assert runs[0][1][1:] == [
        ("failing-two", "failing-two", "store gone"),
        ("failing-default", "failing-default", "x y"),  # (not "x y extra")
        ("bad", "/data/f.xyz", "no splitter for .xyz"),
    ]
    # Chunks that cannot travel back fail under their document's own id, not the source's.
    skipped = []
    records = split_documents(
        [_FailingSource("locked-metadata")],
        _splitter_for,
        workers=2,
        on_error="skip",
        on_skip=skipped.append,
    )
    assert list(records) == [] and [e.document_id for e in skipped] == ["its-id"]


def _warning_splitter(document: Document) -> RecursiveSplitter:
    """A splitter by document that warns with a warning class made on the fly."""
    warnings.warn("made on the fly", type("LocalWarning", (UserWarning,), {}), stacklevel=1)
    return RecursiveSplitter(100)


def test_a_worker_warning_of_a_class_made_on_the_fly_is_shown_not_fatal() -> None:
    """Its class did not pickle: the run ended with a PicklingError, even with skip."""
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        records = list(split_documents(DOCUMENTS, _warning_splitter, workers=2))
    assert {r.document_id for r in records} == {document.id for document in DOCUMENTS}
    assert any(str(w.message) == "made on the fly" for w in shown)
    # Shown as a worker's, not as a line of spansplit's code (it showed batch.py's source).
    assert {w.filename for w in shown if str(w.message) == "made on the fly"} == {WORKER_WARNINGS}


def test_a_document_that_cannot_travel_to_a_worker_is_split_here() -> None:
    """Metadata that does not pickle (a lock) worked with one worker and ended a run with
    two in a bare TypeError, even with on_error="skip"."""
    documents = [
        DOCUMENTS[0],
        Document("a locked note, short", "locked", {"lock": threading.Lock()}),
        Document("an id that is a lock", threading.Lock()),  # type: ignore[arg-type]
        Document("no metadata at all", "bare", None),  # type: ignore[arg-type]
        DOCUMENTS[1],
    ]
    splitter = RecursiveSplitter(80)
    runs = []
    for workers in (1, 2):
        skipped: list[DocumentError] = []
        records = split_documents(
            documents, splitter, workers=workers, on_error="skip", on_skip=skipped.append
        )
        runs.append(([(r.document_id, r.chunk.text) for r in records], [e.where for e in skipped]))
    assert runs[0] == runs[1]
    assert "locked" in {document_id for document_id, _ in runs[0][0]}
    assert runs[0][1] == ["bare"]  # (metadata that is no mapping fails its document alone)


@pytest.mark.parametrize(
    ("settings", "error", "message"),
    [
        ({"pages": "no"}, ParameterTypeError, "pages must be bool, got str: 'no'"),
        ({"byte_offsets": 1}, ParameterTypeError, "byte_offsets must be bool, got int: 1"),
        (
            {"start_method": "bogus", "workers": 2},
            InvalidParameterError,
            "start_method='bogus': must be one",
        ),
    ],
)
def test_bad_batch_settings_are_typed_errors(
    settings: dict[str, object], error: type[Exception], message: str
) -> None:
    """``pages="no"`` added pages (a truthy string), a bad start method raised a bare
    ValueError from multiprocessing."""
    for run in (split_documents, render_documents):
        with pytest.raises(error, match=message):
            list(run(["text"], RecursiveSplitter(100), **settings))  # type: ignore[operator]


def test_a_splitter_that_is_no_splitter_is_a_typed_error_not_every_document_skipped() -> None:
    """A tokenizer name given as the splitter failed every document (with on_error="skip",
    silently: no records and no word of why)."""
    with pytest.raises(ParameterTypeError, match=r"splitter must be a splitter .* str: 'cl100k"):
        list(split_documents(["text"], "cl100k_base", on_error="skip"))  # type: ignore[arg-type]


def test_paths_that_are_no_sequence_of_paths_are_typed_errors(tmp_path: Path) -> None:
    for paths in (None, [1], 5):
        with pytest.raises(InputTypeError, match="paths must be a sequence of paths"):
            list(documents_of(paths))  # type: ignore[arg-type]
    with pytest.raises(ParameterTypeError, match="include must be a sequence of patterns"):
        find_files(["."], include=[1])  # type: ignore[list-item]

    class BytesPath:
        def __fspath__(self) -> bytes:
            return b"."

    with pytest.raises(InputTypeError, match="paths must be a sequence of paths"):
        find_files([BytesPath()])  # type: ignore[list-item]
    # Any iterable of paths and of patterns, and None for no patterns, as before
    (tmp_path / "a.md").write_text("A")
    (tmp_path / "b.txt").write_text("B")
    wanted = find_files([str(tmp_path)]).files
    assert find_files(str(tmp_path) for _ in range(1)).files == wanted  # type: ignore[arg-type]
    assert find_files({str(tmp_path): 1}.keys(), include=None).files == wanted  # type: ignore[arg-type]
    assert find_files([tmp_path], include={"*.md"}).files == [str(tmp_path / "a.md")]  # type: ignore[list-item,arg-type]


def test_a_bad_document_raises_naming_it_or_is_skipped_and_reported() -> None:
    bad = Document("fine text\x00binary", "broken", {"source": "dump.txt"})
    documents = [DOCUMENTS[0], bad, DOCUMENTS[1]]
    with pytest.raises(DocumentError, match=r"'dump.txt'.*NUL") as raised:
        list(split_documents(documents, RecursiveSplitter(100)))
    assert raised.value.document_id == "broken" and isinstance(
        raised.value.error, InvalidInputError
    )
    skipped: list[DocumentError] = []
    seen: list[Progress] = []
    records = list(
        split_documents(
            documents,
            RecursiveSplitter(100),
            on_error="skip",
            on_skip=skipped.append,
            progress=lambda p: seen.append(Progress(p.documents, p.characters, p.chunks, p.failed)),
        )
    )
    assert [e.where for e in skipped] == ["dump.txt"]
    assert {r.document_id for r in records} == {"english", "chinese"}
    assert [p.documents for p in seen] == [1, 2, 3] and seen[-1].failed == 1
    assert seen[-1].chunks == len(records)
    # The rate the command line shows counts the text split, not the document that failed.
    assert seen[-1].characters == len(DOCUMENTS[0].text) + len(DOCUMENTS[1].text)


@pytest.mark.parametrize("start_method", ["spawn", "fork"])
def test_worker_processes_give_the_same_records_in_order(start_method: str) -> None:
    documents = DOCUMENTS * 3 + [Document("bad\x00", "bad", {"source": "b.bin"})]
    chooser = SplitterByFileType(120, 20, "cl100k_base")
    serial = list(split_documents(documents, chooser, on_error="skip"))
    skipped: list[DocumentError] = []
    parallel = list(
        split_documents(
            documents,
            chooser,
            workers=2,
            on_error="skip",
            on_skip=skipped.append,
            start_method=start_method,
        )
    )
    assert summary(parallel) == summary(serial)
    assert [e.where for e in skipped] == ["b.bin"]


@pytest.mark.parametrize("workers", [1, 2])
def test_rendered_where_split_the_same_lines_as_the_records(workers: int) -> None:
    documents = [*DOCUMENTS, Document("bad\x00", "bad", {"source": "b.bin"}), *DOCUMENTS]
    chooser = SplitterByFileType(120, 20, "cl100k_base")
    records = list(split_documents(documents, chooser, on_error="skip", byte_offsets=True))
    skipped: list[DocumentError] = []
    seen: list[Progress] = []
    rendered = list(
        render_documents(
            documents,
            chooser,
            workers=workers,
            on_error="skip",
            on_skip=skipped.append,
            progress=lambda p: seen.append(dataclasses.replace(p)),
            byte_offsets=True,
        )
    )
    assert len(rendered) == 6  # one piece of bytes per document split
    assert b"".join(rendered) == b"".join(json_line(record) for record in records)
    assert [e.where for e in skipped] == ["b.bin"]
    assert seen[-1].chunks == len(records) and seen[-1].documents == 7


def test_a_record_that_cannot_be_rendered_fails_its_document_only() -> None:
    def render(record: ChunkRecord) -> bytes:
        if record.document_id == "chinese":
            raise ValueError("cannot render this one")
        return json_line(record)

    skipped: list[DocumentError] = []
    rendered = list(
        render_documents(
            DOCUMENTS, RecursiveSplitter(200), render, on_error="skip", on_skip=skipped.append
        )
    )
    assert len(rendered) == 2 and [e.where for e in skipped] == ["chinese.txt"]
    with pytest.raises(DocumentError, match=r"chinese\.txt.*cannot render"):
        list(render_documents(DOCUMENTS, RecursiveSplitter(200), render))


def endless() -> Iterator[Document]:
    for index in itertools.count():
        yield Document(f"document {index} has some words in it", str(index))


def test_the_input_is_read_as_it_is_needed() -> None:
    # An endless input: the first records come, so documents are not all read first.
    splitter = RecursiveSplitter(16)
    records = split_documents(endless(), splitter, workers=2)
    first = list(itertools.islice(records, 6))
    records.close()  # the workers stop
    expected = [
        (str(i), c.text)
        for i in range(3)
        for c in splitter.split(f"document {i} has some words in it")
    ]
    assert [(r.document_id, r.chunk.text) for r in first] == expected[:6]


def test_documents_go_to_workers_in_batches_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "BATCH_CHARACTERS", 100)
    monkeypatch.setattr(batch, "BATCH_DOCUMENTS", 3)
    error = DocumentError("gone", OSError("no such file"), "gone.txt")
    items = [Document("x" * n, str(k)) for k, n in enumerate([60, 30, 20, 5, 5, 5, 5, 150])]
    items.insert(2, error)  # type: ignore[arg-type]
    items.insert(6, Document("locked", "lock", {"lock": threading.Lock()}))
    batches = list(batch._batches(iter(items)))
    ids = [[getattr(item, "id", "error") for item in group] for _, group, _ in batches]
    # 60 + 30 fit, then the error alone, then 20 + 5 + 5 (three at most), the document that
    # cannot be pickled alone, 5 + 5, and the document longer than a batch alone: order
    # kept, no document left out, the error and the unpicklable one split here.
    assert ids == [["0", "1"], ["error"], ["2", "3", "4"], ["lock"], ["5", "6"], ["7"]]
    assert [size for size, _, _ in batches] == [90, 0, 30, 0, 10, 150]
    assert [here for _, _, here in batches] == [False, True, False, True, False, False]


@pytest.mark.parametrize("workers", [1, 2])
def test_files_are_read_where_they_are_split(tmp_path: Path, workers: int) -> None:
    (tmp_path / "english.txt").write_text(ENGLISH, encoding="utf-8")
    (tmp_path / "chinese.md").write_text(CHINESE, encoding="utf-8")
    (tmp_path / "data.bin").write_bytes(b"PK\x03\x04\x00\x00")
    (tmp_path / "vanishes.txt").write_text("read after listing? no: removed first")
    paths = [str(tmp_path / name) for name in ("english.txt", "vanishes.txt", "data.bin")]
    paths += [str(tmp_path / "chinese.md"), str(tmp_path / "never-there.txt")]
    items = documents_of(paths)
    missing = next(items)  # an input that gives no file is reported first
    assert isinstance(missing, DocumentError) and missing.where == paths[-1]
    first = next(items)
    assert first == FileSource(paths[0], len(ENGLISH.encode("utf-8")))
    (tmp_path / "vanishes.txt").unlink()  # listed and looked up, gone before it is read
    chooser = SplitterByFileType(120, 20, "cl100k_base")
    skipped: list[DocumentError] = []
    seen: list[Progress] = []
    records = list(
        split_documents(
            [missing, first, *items],
            chooser,
            workers=workers,
            on_error="skip",
            on_skip=skipped.append,
            progress=lambda p: seen.append(dataclasses.replace(p)),
        )
    )
    read = [read_file(paths[0]), read_file(paths[3])]
    assert summary(records) == summary(list(split_documents(read, chooser)))
    assert records[0].document_metadata == {"source": paths[0]}
    reasons = {Path(e.where).name: str(e.error) for e in skipped}
    assert list(reasons) == ["never-there.txt", "vanishes.txt", "data.bin"]
    assert "No such file" in reasons["vanishes.txt"] and "NUL" in reasons["data.bin"]
    assert reasons["never-there.txt"] == "no such file or directory"
    assert seen[-1].documents == 5 and seen[-1].failed == 3
    assert seen[-1].characters == len(ENGLISH) + len(CHINESE)  # as read, not as sized


def test_documents_of_folders_patterns_and_filters(tmp_path: Path) -> None:
    # As the command line finds files: a folder gives its files (all levels with
    # recursive, hidden ones left out), patterns and filters as there; an input that
    # gives no file is a DocumentError, not left out silently.
    (tmp_path / "docs" / "deep").mkdir(parents=True)
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\nText.\n")
    (tmp_path / "docs" / "notes.txt").write_text("Notes.")
    (tmp_path / "docs" / ".hidden.md").write_text("Hidden.")
    (tmp_path / "docs" / "deep" / "more.md").write_text("More.")
    (tmp_path / "empty").mkdir()
    docs = str(tmp_path / "docs")

    def names(items: Iterable[object]) -> list[str]:
        return [
            f"error:{Path(item.where).name}"
            if isinstance(item, DocumentError)
            else Path(getattr(item, "name", "")).name
            for item in items
        ]

    assert names(documents_of([docs])) == ["guide.md", "notes.txt"]
    assert names(documents_of([docs], recursive=True)) == ["more.md", "guide.md", "notes.txt"]
    assert names(documents_of([docs], recursive=True, include=["*.md"])) == [
        "more.md",
        "guide.md",
    ]
    assert names(documents_of([docs], recursive=True, exclude=["deep"])) == [
        "guide.md",
        "notes.txt",
    ]
    # One string is one pattern (it was read as one a character: "*", ".", "m", "d"), as
    # spansplit.ray_data.chunk_files reads it; a path may be a pathlib.Path.
    assert names(documents_of([Path(docs)], recursive=True, include="*.md")) == [
        "more.md",
        "guide.md",
    ]
    assert names(documents_of([docs], exclude="*.md")) == ["notes.txt"]
    assert names(documents_of([str(tmp_path / "docs" / "*.txt"), str(tmp_path / "empty")])) == [
        "error:empty",
        "notes.txt",
    ]
    records = list(split_documents(documents_of([docs]), RecursiveSplitter(100)))
    assert [Path(r.document_metadata["source"]).name for r in records] == [
        "guide.md",
        "notes.txt",
    ]
    with pytest.raises(InputTypeError, match=r"paths must be a sequence .* pass \["):
        next(documents_of(docs))  # type: ignore[arg-type]


def test_a_pipe_is_read_here_not_in_a_worker(tmp_path: Path) -> None:
    # A named pipe (or a shell's <(...), a /dev/fd path) cannot be opened again by path in
    # another process: it is read where it is listed, as a document.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text("from a pipe"), daemon=True)
    writer.start()
    (item,) = documents_of([str(fifo)])
    if not isinstance(item, Document):
        fifo.read_text()  # (the writer waits for a reader)
    writer.join()
    assert isinstance(item, Document) and item.text == "from a pipe"


@dataclasses.dataclass(frozen=True)
class FailingSource(batch.DocumentSource):
    label: str

    def read(self) -> Document:
        if self.label == "broken":
            raise RuntimeError("the store is down")
        return Document(f"text of {self.label}", self.label)

    @property
    def name(self) -> str:
        return self.label


@pytest.mark.parametrize("workers", [1, 2])
def test_a_source_that_fails_to_read_fails_its_document_only(workers: int) -> None:
    sources = [FailingSource("a"), FailingSource("broken"), FailingSource("c")]
    skipped: list[DocumentError] = []
    records = split_documents(
        sources, RecursiveSplitter(50), workers=workers, on_error="skip", on_skip=skipped.append
    )
    assert [r.chunk.text for r in records] == ["text of a", "text of c"]
    assert [(e.where, str(e.error)) for e in skipped] == [("broken", "the store is down")]


def test_raising_stops_the_workers_at_once() -> None:
    # The error's traceback holds the batch's frame in a reference cycle: the workers must
    # stop without waiting for the garbage collector (kept off here) to find it.
    documents = ["fine text"] * 20 + ["bad\x00"] + ["more fine text " * 500] * 2000
    gc.disable()
    try:
        with pytest.raises(DocumentError, match=r"document '20'"):
            list(split_documents(documents, RecursiveSplitter(100), workers=2))
        deadline = time.monotonic() + 10
        while multiprocessing.active_children() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not multiprocessing.active_children()
    finally:
        gc.enable()


def test_a_run_closed_early_ends_its_pool_before_returning() -> None:
    # A caller that stops reading (the command line on a full disk) closes the records:
    # what is queued is dropped and the pool's manager thread has ended when close()
    # returns, so it cannot race the interpreter's exit (which printed an EBADF traceback
    # after the command line's one-line message).
    documents = ["fine text"] * 4 + ["long text of many words " * 500] * 100
    records = split_documents(documents, RecursiveSplitter(10), workers=2)
    next(records)
    records.close()
    assert not [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


def test_worker_count_is_checked() -> None:
    with pytest.raises(Exception, match="workers=0"):
        list(split_documents(["x"], RecursiveSplitter(5), workers=0))
    with pytest.raises(Exception, match="on_error='ignore'"):
        list(split_documents(["x"], RecursiveSplitter(5), on_error="ignore"))  # type: ignore[arg-type]


# --- files ---------------------------------------------------------------------------------


def test_files_of_folders_and_globs(tmp_path: Path) -> None:
    for relative in ["a.md", "b.txt", "sub/c.py", "sub/deep/d.md", ".hidden/e.md", "sub/.f.txt"]:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    names = lambda found: [Path(f).relative_to(tmp_path).as_posix() for f in found.files]  # noqa: E731
    assert names(find_files([str(tmp_path)])) == ["a.md", "b.txt"]
    assert names(find_files([str(tmp_path)], recursive=True)) == [
        "a.md",
        "b.txt",
        "sub/c.py",
        "sub/deep/d.md",
    ]
    found = find_files([str(tmp_path)], recursive=True, include=["*.md"], exclude=["*/deep/*"])
    assert names(found) == ["a.md"]
    assert names(find_files([str(tmp_path / "**" / "*.md")], recursive=True)) == [
        "a.md",
        "sub/deep/d.md",
    ]
    missing = find_files([str(tmp_path / "nope.txt"), str(tmp_path / "*.rst")])
    assert missing.files == [] and [why for _, why in missing.missing] == [
        "no such file or directory",
        "no file matches this pattern",
    ]


def test_reading_a_file_names_what_is_wrong() -> None:
    document = read_document("notes.md", b"# Hi\n")
    assert document.id == document_id(b"# Hi\n") and document.metadata == {"source": "notes.md"}
    with pytest.raises(DocumentError, match=r"'latin.txt'.*byte offset 1"):
        read_document("latin.txt", b"h\xe9llo")
    binary = r"'data.bin'.*binary data \(a NUL byte at byte offset 4\)"
    with pytest.raises(DocumentError, match=binary):
        read_document("data.bin", b"PK\x03\x04\x00\x00")


def test_splitter_by_file_type() -> None:
    pytest.importorskip("pyromark")
    chooser = SplitterByFileType(100)
    with pytest.warns(UserWarning, match="perl files are split by separators") as caught:
        kinds = {
            name: type(chooser(Document("x", "id", {"source": name}))).__name__
            for name in ["a.md", "b.MARKDOWN", "c.py", "d.go", "e.txt", "f", "g.rst", "h.pl"]
        }
    assert [str(w.message).split(":")[0] for w in caught] == [
        "perl files are split by separators, without symbols"  # (no advice to do so)
    ]
    assert str(caught[0].message).endswith("no tree-sitter grammar for perl works offline")
    assert kinds == {
        "a.md": "MarkdownSplitter",
        "b.MARKDOWN": "MarkdownSplitter",
        "c.py": "CodeSplitter",
        "d.go": "CodeSplitter",
        "e.txt": "RecursiveSplitter",
        "f": "RecursiveSplitter",
        "g.rst": "RecursiveSplitter",  # reStructuredText: a document, by its separator table
        "h.pl": "CodeSplitter",  # no grammar: its separator table
    }
    rst = chooser(Document("x", "id", {"source": "g.rst"}))
    assert rst.separators == RecursiveSplitter.from_language("rst", 100).separators
