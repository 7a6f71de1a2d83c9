"""A folder to citable chunk records with two worker processes, and documents from a store.

    python examples/corpus_records.py [FOLDER] [--chunk-size 256] [--workers 2]

FOLDER defaults to this examples folder (Python and Markdown). Each file gets the splitter
of its type (Markdown by sections, code by syntax where the extras are installed, text
otherwise); budgets are cl100k_base tokens (offline). Each worker reads its own files.
Then three notes come from an in-memory "store" through a ``DocumentSource`` of our own:
one of them cannot be read, and is reported and skipped, not lost.

Prints one JSON line per record (source, id, index, span, lines, size, headings or
symbols), then a summary on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from spansplit.batch import Document, DocumentError, DocumentSource, Progress, split_documents
from spansplit.corpus import SplitterByFileType, documents_of

STORE = {
    "note-1": "Tide tables list the times of high and low water. Ports publish them yearly.",
    "note-2": None,  # a record the store has lost
    "note-3": "Spring tides come with the new and full moon; neap tides between them.",
}


@dataclass(frozen=True)
class StoredNote(DocumentSource):
    """A note read from the store where it is split (a worker, with workers)."""

    key: str

    def read(self) -> Document:
        text = STORE[self.key]
        if text is None:
            raise LookupError(f"the store has no text for {self.key}")
        return Document(text, self.key, {"source": f"store://{self.key}"})

    @property
    def name(self) -> str:
        return f"store://{self.key}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument("--chunk-size", type=int, default=256)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()

    found = documents_of([str(options.folder)], recursive=True, include=["*.py", "*.md"])
    documents = [*found, *(StoredNote(key) for key in STORE)]
    skipped: list[DocumentError] = []
    last = Progress()

    def progress(state: Progress) -> None:
        nonlocal last
        last = state

    records = split_documents(
        documents,
        SplitterByFileType(options.chunk_size, 0, "cl100k_base"),
        workers=options.workers,
        on_error="skip",
        on_skip=skipped.append,
        progress=progress,
    )
    for record in records:
        row = record.to_dict()
        where = row.get("headings") or row.get("symbols")
        row = {key: row[key] for key in ("source", "document_id", "chunk_index", "start", "end")}
        row["lines"] = [record.chunk.start_line, record.chunk.end_line]
        row["size"] = record.chunk.size
        row["kind"] = record.chunk.kind
        if where:
            row["where"] = where
        print(json.dumps(row, ensure_ascii=False))
    for error in skipped:
        print(f"skipped {error.where}: {error.error}", file=sys.stderr)
    print(
        f"{last.documents} documents ({last.failed} skipped), {last.chunks} chunks, "
        f"{last.characters:,} characters",
        file=sys.stderr,
    )


if __name__ == "__main__":  # the guard worker processes need (they import this module)
    main()
