"""Files to documents, the same way for the command line and the Ray Data pipeline.

:func:`find_files` expands paths, directories and glob patterns into files, in a stable
order, each once, and says why of an input that gives none; :func:`read_document` turns a
file's bytes into a :class:`~spansplit.batch.Document` whose id is a digest of those bytes
and whose metadata names the source, or raises a :class:`~spansplit.batch.DocumentError`
that says why not (not UTF-8, binary, unreadable).
:class:`SplitterByFileType` chooses the splitter of each document from its file name:
Markdown to the Markdown splitter, source code to the code splitter, the rest to the
recursive splitter.
"""

from __future__ import annotations

import codecs
import fnmatch
import glob
import hashlib
import os
import re
import stat
import sys
import unicodedata
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from .batch import Document, DocumentError, DocumentSource
from .errors import (
    GrammarUnavailableError,
    InputTypeError,
    InvalidInputError,
    ParameterTypeError,
    SpansplitError,
)
from .sizing import LengthSpec
from .splitters.base import Splitter
from .validate import check_text

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".mdown", ".mkd"})
"""File name suffixes read as Markdown by :class:`SplitterByFileType`."""

SOURCE = "source"
"""Metadata key of a document's file path (as found; see :func:`display_name`)."""


class UnreadableInputError(SpansplitError, ValueError):
    """A file could not be read as UTF-8 text; the message says why and where."""


@dataclass(frozen=True, slots=True)
class FoundFiles:
    """The files found for the inputs, and what gave no file or could not be searched,
    each with why (an input that matched nothing, a folder without permission to read)."""

    files: list[str]
    missing: list[tuple[str, str]] = field(default_factory=list)


def display_name(path: str) -> str:
    """``path`` as text that can be written anywhere (JSON, Parquet, a terminal): the bytes
    of a file name that are not UTF-8 (kept by Python as lone surrogates) shown as ``\\xNN``
    escapes, so that such a file is split and named instead of failing."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return os.fsencode(path).decode("utf-8", "backslashreplace")
        except UnicodeError:  # a lone surrogate that stands for no byte of a file name
            return path.encode("utf-8", "backslashreplace").decode("utf-8")
    return path


def shown_name(name: str) -> str:
    """A file name as it is shown on one line of a message: with the bytes that are not
    UTF-8 escaped (see :func:`display_name`), and control characters (a newline, an
    escape) as escapes such as ``\\n``, so a name cannot break the line."""
    name = display_name(name)
    if name.isprintable():
        return name
    return "".join(
        char.encode("unicode_escape").decode("ascii")
        if unicodedata.category(char) in ("Cc", "Zl", "Zp")
        else char
        for char in name
    )


def check_patterns(name: str, patterns: Iterable[str] | str | None) -> list[str]:
    """``include``/``exclude`` as a list (one string is one pattern, not one a character;
    ``None``, none)."""
    given = [] if patterns is None else [patterns] if isinstance(patterns, str) else patterns
    listed = (
        list(given)
        if isinstance(given, Iterable) and not isinstance(given, (bytes, bytearray))
        else [given]
    )
    if not all(isinstance(pattern, str) for pattern in listed):
        raise ParameterTypeError(f"{name} must be a sequence of patterns, got {patterns!r:.60}")
    return listed


def _path_text(item: object) -> object:
    """``item`` as the ``str`` of a path where it is one (a ``str``, an ``os.PathLike``);
    ``None`` for an ``os.PathLike`` that gives no path."""
    if not isinstance(item, os.PathLike):
        return item
    try:
        return os.fspath(item)
    except Exception:
        return None


def find_files(
    inputs: Sequence[str],
    *,
    recursive: bool = False,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
) -> FoundFiles:
    """The files of ``inputs`` in a stable order, each once (by real path, in the place
    it was first found, named by the path of an input that names it, else by the first
    path that is not a symbolic link, if any): a file as given, ``-`` for standard input,
    a directory's files (all levels with
    ``recursive``; hidden files and folders left out, symlinked folders not followed), and
    the matches of a glob pattern (``**`` with ``recursive``, not through symlinked
    folders), a matched directory giving its files as a directory input does.
    ``include``/``exclude`` are patterns matched against file names (``*.md``), paths as
    found or inside a folder given or the folder a pattern starts from (``docs/*``), or
    the names of the folders below that one (``drafts``); a file is
    kept if it matches some include pattern (any, when none is given) and no exclude
    pattern.

    ``missing`` lists, with why, each input that gives no file (no such path, an empty
    folder, a pattern or filters that match nothing) and each folder or file that could
    not be searched (no permission), so that nothing is left out without a word. A file
    named itself that the patterns leave out is only listed when no file is found at all
    (``src/* --include '*.py'`` filters a list the shell made)."""
    single = isinstance(inputs, (str, bytes, PurePath)) or not isinstance(inputs, Iterable)
    given = [] if single else [_path_text(item) for item in inputs]
    paths = [path for path in given if isinstance(path, str)]
    if single or len(paths) != len(given):
        raise InputTypeError(
            f"paths must be a sequence of paths (a list of str), got {type(inputs).__name__}: "
            f"{inputs!r:.60}"
        )
    include, exclude = check_patterns("include", include), check_patterns("exclude", exclude)
    found: dict[str, str] = {}  # real path -> the path as found first
    named: set[str] = set()  # the paths of files named themselves
    missing: list[tuple[str, str]] = []
    filtered: list[tuple[str, str]] = []  # files named themselves, left out by the patterns
    for item in paths:
        if item == "-":
            found.setdefault(item, item)
            continue
        errors: list[tuple[str, str]] = []
        candidates, why_none, why_filtered = _files_of_input(item, recursive, errors)
        kept = candidates
        if include or exclude:
            root = _root_of(item)
            kept = [pair for pair in kept if _wanted(pair[0], include, exclude, root)]
            # A broken link or a pipe is a file left out: the patterns leave it out quietly
            # (a folder that cannot be read is still said).
            errors = [
                (path, why)
                for path, why in errors
                if why not in (BROKEN_LINK, NOT_A_FILE) or _wanted(path, include, exclude, root)
            ]
        # In path order (folders are read in no set order), each once (a folder may be read
        # for two parts of a pattern).
        missing.extend(sorted(dict.fromkeys(errors), key=lambda error: _path_order(error[0])))
        if not kept and not errors:  # (a folder that could not be read says why itself)
            if candidates and not why_none:  # a file named itself
                filtered.append((item, why_filtered))
            else:
                missing.append((item, why_filtered if candidates else why_none))
        if kept and not why_none:  # (a file named itself)
            named.add(kept[0][0])
        for path, real in kept:
            first = found.setdefault(real, path)
            # The file's own path names it, not a link to it; a path the user wrote names
            # it before either (a link named run.py to a script without an extension).
            if (first != path and first not in named) and (
                path in named or (os.path.islink(first) and not os.path.islink(path))
            ):
                found[real] = path
    if not found and not missing:
        missing = filtered
    return FoundFiles(list(found.values()), missing)


_Found = list[tuple[str, str]]
"""Files found, each as a path (as found) and its real path."""

_Problems = list[tuple[str, str]]
"""Paths that could not be searched, each with why."""


def _files_of_input(item: str, recursive: bool, errors: _Problems) -> tuple[_Found, str, str]:
    """The files of one input before ``include``/``exclude``, why there are none when there
    are none, and why none is left when the patterns leave none; what cannot be searched
    goes to ``errors``."""
    filtered = "no file matches --include/--exclude"
    try:
        status = os.stat(item)
    except OSError as error:
        if glob.has_magic(item):
            files = _pattern_files(item, recursive, errors)
            return files, "no file matches this pattern", filtered
        if isinstance(error, FileNotFoundError):
            return [], "no such file or directory", filtered
        errors.append((item, _reason(error)))
        return [], "", filtered
    path = str(PurePath(item))
    if stat.S_ISDIR(status.st_mode):
        return (*_folder_files(path, recursive, errors), filtered)
    return [(path, os.path.realpath(path))], "", "left out by --include/--exclude"


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _scan(folder: str, errors: _Problems) -> list[os.DirEntry[str]]:
    """The entries of ``folder`` (``""``: the current one); none where it is gone or not a
    folder, none and an error where it cannot be read."""
    try:
        with os.scandir(folder or os.curdir) as entries:
            return list(entries)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as error:
        errors.append((folder or os.curdir, _reason(error)))
        return []


def _is_folder(entry: os.DirEntry[str], *, follow: bool) -> bool:
    try:
        return entry.is_dir(follow_symlinks=follow)
    except OSError:  # (a symlink into a folder that cannot be searched: not one here)
        return False


BROKEN_LINK = "a broken symbolic link: what it points to does not exist"
NOT_A_FILE = "not a regular file (a pipe, a socket or a device): left out"


def _not_a_file(path: str, linked: bool) -> str | None:
    """Why a folder's entry that is not a file is left out, to be reported: a broken
    symbolic link, or a pipe, socket or device; ``None`` for a (symlinked) folder."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return BROKEN_LINK if linked else None  # (gone since the folder was read)
    return None if stat.S_ISDIR(status.st_mode) else NOT_A_FILE


def _folder_files(
    top: str, recursive: bool, errors: _Problems, walked: set[str] | None = None
) -> tuple[_Found, str]:
    """The files of folder ``top``, sorted as paths, without hidden files and folders, not
    through symlinked folders; and why there are none when there are none. ``walked``: the
    real paths of folders already searched (for a pattern matching a folder and the
    folders in it), left out here."""
    walked = set() if walked is None else walked
    files: _Found = []
    shown = "" if top == os.curdir else top
    folders = [(shown, os.path.realpath(top))]
    has_folders = has_hidden = False
    while folders:
        folder, real = folders.pop()
        if real in walked:
            continue
        walked.add(real)
        for entry in _scan(folder, errors):
            if entry.name.startswith("."):
                has_hidden = True
                continue
            path = os.path.join(folder, entry.name)
            if _is_folder(entry, follow=False):
                has_folders = True
                if recursive:  # a real folder: its real path is in its real parent
                    folders.append((path, os.path.join(real, entry.name)))
                continue
            try:
                linked = entry.is_symlink()
                if not entry.is_file():
                    why = _not_a_file(path, linked)
                    if why:  # (a symlinked folder is left out, as documented)
                        errors.append((path, why))
                    continue
            except OSError as error:  # a symlink into a folder that cannot be searched
                errors.append((path, _reason(error)))
                continue
            files.append(
                (path, os.path.realpath(path) if linked else os.path.join(real, entry.name))
            )
    files.sort(key=_path_order)
    notes = []
    if has_folders and not recursive:
        notes.append("its folders are searched with -r")
    if has_hidden:
        notes.append("hidden files and folders are left out")
    return files, "no files in this directory" + (f" ({'; '.join(notes)})" if notes else "")


def _pattern_files(pattern: str, recursive: bool, errors: _Problems) -> _Found:
    """The files matched by a glob pattern (a matched folder giving its files), sorted as
    paths. As in :func:`glob.glob`, a wildcard matches a hidden name only where it starts
    with a dot itself; ``**`` (with ``recursive``: any number of folders) goes into no
    hidden folder, and into no symlinked one either, so a symlink loop is not walked. A
    pattern ending in a separator (``docs/*/``) matches folders only, as in the shell."""
    drive, rest = os.path.splitdrive(pattern)
    separators = os.sep + (os.altsep or "")
    folders_only = rest[-1:] in tuple(separators)
    root = drive + (rest[0] if rest[:1] and rest[0] in separators else "")
    parts = re.split(f"[{re.escape(separators)}]", rest)
    parts = [part for part in parts if part and part != os.curdir]  # a path as PurePath has it
    matches: set[str] = set()
    pending = [(root, 0)]
    visited = set(pending)
    while pending:
        folder, index = pending.pop()
        steps: list[tuple[str, int]] = []
        if index == len(parts):
            matches.add(folder)
        elif parts[index] == "**" and recursive:
            steps.append((folder, index + 1))  # no folder at all
            steps.extend(
                (os.path.join(folder, entry.name), index)
                for entry in _scan(folder, errors)
                if not entry.name.startswith(".") and _is_folder(entry, follow=False)
            )
        elif glob.has_magic(parts[index]):
            part, last = parts[index], index + 1 == len(parts)
            for entry in _scan(folder, errors):
                if entry.name.startswith(".") and not part.startswith("."):
                    continue
                if fnmatch.fnmatch(entry.name, part):
                    path = os.path.join(folder, entry.name)
                    if last:
                        matches.add(path)
                    elif _is_folder(entry, follow=True):
                        steps.append((path, index + 1))
        else:
            steps.append((os.path.join(folder, parts[index]), index + 1))
        for step in steps:
            if step not in visited:
                visited.add(step)
                pending.append(step)
    files: _Found = []
    walked: set[str] = set()
    real_folders: dict[str, str] = {}
    for match in sorted(matches, key=_path_order):  # a folder before the folders in it
        path = match or os.curdir
        try:
            status = os.lstat(path)
        except FileNotFoundError:
            continue  # a literal name that is not there
        except OSError as error:
            errors.append((path, _reason(error)))
            continue
        linked = stat.S_ISLNK(status.st_mode)
        if linked:
            try:
                status = os.stat(path)
            except FileNotFoundError:
                errors.append((path, BROKEN_LINK))
                continue
            except OSError as error:
                errors.append((path, _reason(error)))
                continue
        if stat.S_ISDIR(status.st_mode):
            files.extend(_folder_files(path, recursive, errors, walked)[0])
        elif not stat.S_ISREG(status.st_mode):
            if not folders_only:
                errors.append((path, NOT_A_FILE))
        elif not folders_only:
            folder, name = os.path.split(path)
            if folder not in real_folders:
                real_folders[folder] = os.path.realpath(folder or os.curdir)
            real = os.path.realpath(path) if linked else os.path.join(real_folders[folder], name)
            files.append((path, real))
    files.sort(key=_path_order)
    return files


def _root_of(item: str) -> str | None:
    """The folder whose files' paths inside it ``--include``/``--exclude`` read: a folder
    given, or the fixed start of a glob pattern (``docs`` of ``'docs/**/*.md'``, the current
    folder for ``'*.md'``), so that a pattern's files are filtered as those of the folder it
    starts from are (its ancestors' names, ``/home/t/...``, matched ``--exclude t``);
    ``None`` for a file."""
    if os.path.isdir(item):
        return item
    if not glob.has_magic(item) or os.path.lexists(item):
        return None
    drive, rest = os.path.splitdrive(item)
    separators = os.sep + (os.altsep or "")
    head = []
    for part in re.split(f"([{re.escape(separators)}])", rest):
        if glob.has_magic(part):
            break
        head.append(part)
    return drive + "".join(head) or os.curdir


def _path_order(path: str | tuple[str, str]) -> list[str]:
    """Paths (or found files) in the order of :class:`~pathlib.PurePath` objects: folder
    by folder (``a/b`` before ``a.txt``), as :func:`find_files` has always sorted them."""
    if isinstance(path, tuple):
        path = path[0]
    return os.path.normcase(path).split(os.sep)


def _wanted(found: str, include: Sequence[str], exclude: Sequence[str], root: str | None) -> bool:
    """Whether the file ``found`` (under the folder ``root`` that was given, if one was)
    passes the patterns: each is matched against the file's name and its path as found;
    with a ``/``, against its path inside ``root`` too (``guide/*``); without one, against
    the name of each folder it lies in below ``root`` (``--exclude drafts`` leaves out
    ``drafts/a.md`` and ``x/drafts/b.md``)."""
    path = PurePath(found)
    inside = PurePath(os.path.relpath(found, root)) if root is not None else path

    def matches(pattern: str) -> bool:
        pattern = pattern.rstrip("/")
        if fnmatch.fnmatch(path.name, pattern) or fnmatch.fnmatch(path.as_posix(), pattern):
            return True
        if "/" in pattern:
            return fnmatch.fnmatch(inside.as_posix(), pattern)
        return any(fnmatch.fnmatch(folder, pattern) for folder in inside.parts[:-1])

    if include and not any(matches(p) for p in include):
        return False
    return not any(matches(p) for p in exclude)


def document_id(data: bytes) -> str:
    """A document's id: the first 16 hex digits of the SHA-256 of its bytes (stable across
    runs and machines, the same for the same content)."""
    return hashlib.sha256(data).hexdigest()[:16]


_WIDE_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32LE"),
    (codecs.BOM_UTF32_BE, "UTF-32BE"),
    (codecs.BOM_UTF16_LE, "UTF-16LE"),
    (codecs.BOM_UTF16_BE, "UTF-16BE"),
)


def _wide_encoding(data: bytes) -> str | None:
    """The UTF-16 or UTF-32 encoding whose byte order mark starts ``data`` (as Windows
    tools write text), if one does and the rest decodes with it."""
    for mark, name in _WIDE_MARKS:  # (UTF-32LE's mark starts with UTF-16LE's)
        if data.startswith(mark):
            try:
                data[len(mark) :].decode(name)
            except UnicodeDecodeError:
                return None
            return name
    return None


def read_document(source: str, data: bytes) -> Document:
    """The document of a file's bytes; :class:`DocumentError` (naming ``source``) if they
    are not UTF-8 text (a BOM is kept as text). ``source`` is named as
    :func:`display_name` shows it (a file name that is not UTF-8, escaped)."""
    source = display_name(source)
    nul = data.find(b"\x00")
    if nul >= 0:
        wide = _wide_encoding(data)
        reason = UnreadableInputError(
            f"{wide} text, not UTF-8: convert it first (iconv -f {wide} -t UTF-8)"
            if wide
            else f"binary data (a NUL byte at byte offset {nul}), not text"
        )
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


READ_BLOCK = 1 << 20
"""Bytes read at once from a stream (standard input, a pipe, a device): a SIGTERM or Ctrl-C
handler runs between two reads, and the first block with a NUL byte ends the read (binary
data: ``/dev/zero`` is not read for ever)."""


def read_file(source: str, stdin: Any = None) -> Document:
    """The document of a file (``-``: standard input); :class:`DocumentError` if it cannot
    be read or is not text."""
    name = display_name(source)
    try:
        if source == "-":
            stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
            if stream is None:
                raise OSError("standard input is closed")
            data = _read_stream(stream)
        else:
            with open(source, "rb") as file:
                if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                    data = _read_stream(file)
                else:  # (a file of NULs is called binary from its first block alone)
                    data = file.read(READ_BLOCK)
                    if len(data) == READ_BLOCK and not _binary(data, data):
                        file.seek(0)
                        data = file.read()
    except OSError as error:
        raise DocumentError(name, UnreadableInputError(_reason(error)), name) from None
    except MemoryError:
        reason = UnreadableInputError("too large to read into memory (MemoryError)")
        raise DocumentError(name, reason, name) from None
    return read_document(source, data)


def _binary(block: bytes, first: bytes) -> bool:
    """Whether ``block`` of a file whose first block is ``first`` shows binary data: a NUL
    byte, where no wide encoding's byte order mark starts the file (UTF-16 text is read
    whole, to be named as such)."""
    return b"\x00" in block and not first.startswith(tuple(mark for mark, _ in _WIDE_MARKS))


def _read_stream(stream: Any) -> bytes:
    """All of ``stream``, :data:`READ_BLOCK` bytes at a time, up to binary data."""
    blocks: list[bytes] = []
    while block := stream.read(READ_BLOCK):
        blocks.append(block)
        if _binary(block, blocks[0]):
            break
    return b"".join(blocks)


@dataclass(slots=True)
class SplitterByFileType:
    """The splitter of a document chosen from its file name (``metadata["source"]``):
    Markdown to :class:`~spansplit.MarkdownSplitter` (the recursive splitter's ``markdown``
    preset where the markdown extra is not installed), source code to
    :class:`~spansplit.CodeSplitter` (its separator table where no grammar is installed),
    reStructuredText, LaTeX and HTML to :class:`~spansplit.RecursiveSplitter` with their
    separator tables, anything else to :class:`~spansplit.RecursiveSplitter`. Picklable:
    worker processes build their own splitters."""

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

    def kind_of(self, source: str, text: str | None = None) -> str:
        """``"markdown"``, ``"code:<language>"``, ``"markup:<language>"`` (reStructuredText,
        LaTeX, HTML: documents, split by their separator tables) or ``"text"`` for a file
        name (and its ``text``, which tells a C++ header from a C one)."""
        from .boundaries.code_languages import EXTENSIONS, MARKUP_LANGUAGES, language_for_path

        suffix = PurePath(source).suffix
        if suffix.lower() in MARKDOWN_SUFFIXES:
            return "markdown"
        name = EXTENSIONS.get(suffix) or EXTENSIONS.get(suffix.lower())
        if name is None or name == "markdown":
            return "text"
        if name in MARKUP_LANGUAGES:
            return f"markup:{name}"
        return f"code:{language_for_path(source, text)}"

    def __call__(self, document: Document) -> Splitter:
        source = str(document.metadata.get(SOURCE, ""))
        return self._make(self.kind_of(source, document.text))

    def _make(self, kind: str) -> Splitter:
        made = self._made.get(kind)
        if made is not None:
            return made
        from .boundaries.code import load_parser
        from .boundaries.code_languages import get_language
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
                _fell_back(
                    "Markdown files are split with the markdown separator preset, without "
                    "heading paths: the 'markdown' extra is not installed "
                    "(pip install 'spansplit[markdown]')"
                )
            else:
                splitter = MarkdownSplitter(size, overlap, length=length)
        elif kind.startswith("code:"):
            language = kind.split(":", 1)[1]
            splitter = CodeSplitter(language, size, overlap, length=length, fallback="separators")
            try:
                load_parser(get_language(language))
            except GrammarUnavailableError as error:
                offline = get_language(language).grammar is None  # (else: what to install)
                why = f"no tree-sitter grammar for {language} works offline" if offline else error
                _fell_back(f"{language} files are split by separators, without symbols: {why}")
        elif kind.startswith("markup:"):
            language = kind.split(":", 1)[1]
            splitter = RecursiveSplitter.from_language(
                language, size, chunk_overlap=overlap, length=length
            )
        else:
            splitter = RecursiveSplitter(size, overlap, length=length)
        self._made[kind] = splitter
        return splitter


def _fell_back(message: str) -> None:
    """Say, once per file type, that files of that type are split without their structure."""
    warnings.warn(message, UserWarning, stacklevel=4)


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
        return display_name(self.path)


def documents_of(
    paths: Sequence[str] | FoundFiles,
    *,
    recursive: bool = False,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
) -> Iterator[Document | FileSource | DocumentError]:
    """The documents of ``paths`` (files, folders, glob patterns and ``-``, found as
    :func:`find_files` finds them, with ``recursive``, ``include`` and ``exclude`` as
    there), each regular file read where it is split; standard input, pipes and a file
    that cannot even be looked up are read here and now, the latter becoming its
    :class:`DocumentError` in its place, and each input that gives no file (a missing
    path, an empty folder, a pattern that matches nothing) a :class:`DocumentError` first
    (for :func:`~spansplit.batch.split_documents` to raise or report). Files already
    found are given as a :class:`FoundFiles`, whose ``missing`` are reported so too."""
    if isinstance(paths, (str, bytes, PurePath)):
        raise InputTypeError(
            f"paths must be a sequence of paths (a list), got a single "
            f"{type(paths).__name__}: pass [{str(paths)!r}]"
        )
    found = (
        paths
        if isinstance(paths, FoundFiles)
        else find_files(paths, recursive=recursive, include=include, exclude=exclude)
    )
    for path, reason in found.missing:
        name = display_name(path)
        yield DocumentError(name, UnreadableInputError(reason), name)
    for source in found.files:
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
