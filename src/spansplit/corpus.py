"""Files to documents, the same way for the command line and the Ray Data pipeline.

:func:`find_files` expands paths, directories and glob patterns into files, in a stable
order; :func:`read_document` turns a file's bytes into a :class:`~spansplit.batch.Document`
whose id is a digest of those bytes and whose metadata names the source, or raises a
:class:`~spansplit.batch.DocumentError` that says why not (not UTF-8, binary, unreadable).
:class:`SplitterByFileType` chooses the splitter of each document from its file name:
Markdown to the Markdown splitter, source code to the code splitter, the rest to the
recursive splitter.
"""

from __future__ import annotations

import fnmatch
import glob
import hashlib
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from .batch import Document, DocumentError, DocumentSource
from .errors import InvalidInputError, SpansplitError
from .sizing import LengthSpec
from .splitters.base import Splitter
from .validate import check_text

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".mdown", ".mkd"})
"""File name suffixes read as Markdown by :class:`SplitterByFileType`."""

SOURCE = "source"
"""Metadata key of a document's file path (as found)."""


class UnreadableInputError(SpansplitError, ValueError):
    """A file could not be read as UTF-8 text; the message says why and where."""


@dataclass(frozen=True, slots=True)
class FoundFiles:
    """The files found for the inputs, and the inputs that matched nothing (with why)."""

    files: list[str]
    missing: list[tuple[str, str]] = field(default_factory=list)


def _hidden(path: PurePath, root: PurePath) -> bool:
    parts = path.relative_to(root).parts if path != root else ()
    return any(part.startswith(".") for part in parts)


def find_files(
    inputs: Sequence[str],
    *,
    recursive: bool = False,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
) -> FoundFiles:
    """The files of ``inputs`` in a stable order (each once): a file as given, ``-`` for
    standard input, a directory's files (all levels with ``recursive``; hidden files and
    folders left out), and the matches of a glob pattern (``**`` with ``recursive``).
    ``include``/``exclude`` are patterns matched against file names (``*.md``) or paths
    (``docs/*``); a file is kept if it matches some include pattern (any, when none is
    given) and no exclude pattern."""
    found: list[str] = []
    missing: list[tuple[str, str]] = []
    for item in inputs:
        if item == "-":
            found.append(item)
            continue
        path = Path(item)
        if path.is_dir():
            pattern = "**/*" if recursive else "*"
            matches = [
                p for p in sorted(path.glob(pattern)) if p.is_file() and not _hidden(p, path)
            ]
        elif path.exists():
            matches = [path]
        elif glob.has_magic(item):
            matches = [Path(p) for p in sorted(glob.glob(item, recursive=recursive))]
            matches = [p for p in matches if p.is_file()]
            if not matches:
                missing.append((item, "no file matches this pattern"))
        else:
            missing.append((item, "no such file or directory"))
            continue
        found.extend(str(p) for p in matches if _wanted(p, include, exclude))
    return FoundFiles(list(dict.fromkeys(found)), missing)


def _wanted(path: PurePath, include: Sequence[str], exclude: Sequence[str]) -> bool:
    def matches(pattern: str) -> bool:
        return fnmatch.fnmatch(path.name, pattern) or fnmatch.fnmatch(path.as_posix(), pattern)

    if include and not any(matches(p) for p in include):
        return False
    return not any(matches(p) for p in exclude)


def document_id(data: bytes) -> str:
    """A document's id: the first 16 hex digits of the SHA-256 of its bytes (stable across
    runs and machines, the same for the same content)."""
    return hashlib.sha256(data).hexdigest()[:16]


def read_document(source: str, data: bytes) -> Document:
    """The document of a file's bytes; :class:`DocumentError` (naming ``source``) if they
    are not UTF-8 text (a BOM is kept as text)."""
    nul = data.find(b"\x00")
    if nul >= 0:
        reason = UnreadableInputError(f"binary data (a NUL byte at byte offset {nul}), not text")
        raise DocumentError(source, reason, source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        reason = UnreadableInputError(
            f"not valid UTF-8 at byte offset {error.start} ({error.reason})"
        )
        raise DocumentError(source, reason, source) from None
    try:
        check_text(text, "text")  # a lone surrogate cannot come from UTF-8: a safeguard
    except InvalidInputError as error:
        raise DocumentError(source, error, source) from None
    return Document(text, document_id(data), {SOURCE: source})


def read_file(source: str, stdin: Any = None) -> Document:
    """The document of a file (``-``: standard input); :class:`DocumentError` if it cannot
    be read or is not text."""
    try:
        if source == "-":
            stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
            if stream is None:
                raise OSError("standard input is closed")
            data = stream.read()
        else:
            data = Path(source).read_bytes()
    except OSError as error:
        reason = UnreadableInputError(error.strerror or str(error))
        raise DocumentError(source, reason, source) from None
    return read_document(source, data)


@dataclass(slots=True)
class SplitterByFileType:
    """The splitter of a document chosen from its file name (``metadata["source"]``):
    Markdown to :class:`~spansplit.MarkdownSplitter` (the recursive splitter's ``markdown``
    preset where the markdown extra is not installed), source code to
    :class:`~spansplit.CodeSplitter` (its separator table where no grammar is installed),
    anything else to :class:`~spansplit.RecursiveSplitter`. Picklable: worker processes
    build their own splitters."""

    chunk_size: int
    chunk_overlap: int = 0
    length: LengthSpec = None
    _made: dict[str, Splitter] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._make("text")  # checks the settings now, with the parameter's name

    def __getstate__(self) -> tuple[int, int, LengthSpec]:
        return (self.chunk_size, self.chunk_overlap, self.length)

    def __setstate__(self, state: tuple[int, int, LengthSpec]) -> None:
        self.chunk_size, self.chunk_overlap, self.length = state
        self._made = {}

    def kind_of(self, source: str) -> str:
        """``"markdown"``, ``"code:<language>"`` or ``"text"`` for a file name."""
        from .boundaries.code_languages import EXTENSIONS

        suffix = PurePath(source).suffix
        if suffix.lower() in MARKDOWN_SUFFIXES:
            return "markdown"
        language = EXTENSIONS.get(suffix) or EXTENSIONS.get(suffix.lower())
        if language is not None and language not in ("markdown",):
            return f"code:{language}"
        return "text"

    def __call__(self, document: Document) -> Splitter:
        return self._make(self.kind_of(str(document.metadata.get(SOURCE, ""))))

    def _make(self, kind: str) -> Splitter:
        made = self._made.get(kind)
        if made is not None:
            return made
        from .splitters.code import CodeSplitter
        from .splitters.markdown import MarkdownSplitter
        from .splitters.recursive import RecursiveSplitter

        size, overlap, length = self.chunk_size, self.chunk_overlap, self.length
        splitter: Splitter
        if kind == "markdown":
            try:
                import pyromark  # noqa: F401
            except ImportError:
                splitter = RecursiveSplitter.from_preset(
                    "markdown", size, chunk_overlap=overlap, length=length
                )
            else:
                splitter = MarkdownSplitter(size, overlap, length=length)
        elif kind.startswith("code:"):
            language = kind.split(":", 1)[1]
            splitter = CodeSplitter(language, size, overlap, length=length, fallback="separators")
        else:
            splitter = RecursiveSplitter(size, overlap, length=length)
        self._made[kind] = splitter
        return splitter


@dataclass(frozen=True, slots=True)
class FileSource(DocumentSource):
    """A file read where it is split: with workers, each worker process reads its own files
    (only the path goes to it, and only the records' bytes come back)."""

    path: str
    size_hint: int

    def read(self) -> Document:
        return read_file(self.path)

    @property
    def name(self) -> str:
        return self.path


def documents_of(files: Sequence[str]) -> Iterator[Document | FileSource | DocumentError]:
    """The documents of ``files``, each regular file read where it is split; standard input
    (``-``), pipes and a file that cannot even be looked up are read here and now, the
    latter becoming its :class:`DocumentError`, in its place (for
    :func:`~spansplit.batch.split_documents` to raise or report)."""
    for source in files:
        size = _file_size(source)
        if size is not None:
            yield FileSource(source, size)
            continue
        try:
            yield read_file(source)
        except DocumentError as error:
            yield error


def _file_size(source: str) -> int | None:
    """The size of ``source`` in bytes when it is a regular file; else (standard input, a
    pipe, a path that cannot be looked up) None."""
    if source == "-":
        return None
    try:
        status = os.stat(source)
    except OSError:
        return None
    # Only a regular file can be opened again by path in another process: a pipe such as
    # /dev/fd/63 (a shell's <(...)) is not there in a spawned worker, and is read once.
    return status.st_size if stat.S_ISREG(status.st_mode) else None
