"""The ``spansplit`` command line: files, folders and globs in, chunk records out.

One subcommand per splitter (listed in ``COMMANDS``) plus ``auto``, which chooses the
splitter of each file from its type. Every subcommand takes any number of paths (files,
directories, glob patterns, ``-`` for standard input) and the same options for sizes,
input selection, workers and output; it writes one JSON object per chunk (JSON Lines, as
it goes) or a Parquet file. Bad files are reported with their path and the reason, and the
run goes on; the exit status says whether some failed. The seed contracts' own output
shapes live in a ``compat`` subcommand that the main help does not list.

Exit status: 0 all went well (or the reader stopped reading, as ``| head`` does); 1 some
input could not be split (bad file, bad text, a chunk no split can fit, a folder that cannot
be read, an input that gives no file); 2 bad usage (bad options and settings, Parquet output
without its extra, found before any file is read); 3 the output could not be written
(closed or full); 130 interrupted by Ctrl-C, 143 stopped by SIGTERM (``timeout``, ``docker
stop``): the output then holds the records written so far, each whole (a Parquet file is
closed, readable).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePath
from typing import Any, BinaryIO

from . import __version__
from .batch import (
    ChunkRecord,
    Document,
    DocumentError,
    Progress,
    json_line,
    render_documents,
    row_schema,
    split_documents,
)
from .corpus import shown_name
from .errors import (
    ExtraNotInstalledError,
    GrammarUnavailableError,
    InvalidParameterError,
    SpansplitError,
)
from .splitters.base import Splitter
from .validate import check_int

OK, FAILED_INPUT, USAGE, FAILED_OUTPUT, INTERRUPTED, TERMINATED = 0, 1, 2, 3, 130, 143

SplitterChoice = Splitter | Callable[[Document], Splitter]


@dataclass(frozen=True)
class Command:
    """One subcommand: the options it adds and the splitter (or per-document choice of
    splitter) its options describe. ``help=None``: not listed in the main help."""

    name: str
    help: str | None
    configure: Callable[[argparse.ArgumentParser], None]
    splitter: Callable[[argparse.Namespace], SplitterChoice]


# --- options ----------------------------------------------------------------------------------


def _add_budget_options(parser: argparse.ArgumentParser, *, overlap: bool = True) -> None:
    parser.add_argument(
        "--chunk-size",
        type=int,
        required=True,
        help="the budget per chunk, in --length units (for blocks, a target: a line longer "
        "than it is a block of its own, marked oversized)",
    )
    if overlap:
        parser.add_argument(
            "--chunk-overlap",
            type=int,
            default=0,
            help="most trailing context repeated from the previous chunk (default 0)",
        )
    parser.add_argument(
        "--length",
        "--tokenizer",
        dest="length",
        default=None,
        help="unit of sizes: chars (the default), utf8, utf16, a tiktoken encoding or model "
        "name (cl100k_base, gpt-4o), or the path of a Hugging Face tokenizer.json",
    )


def _add_corpus_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="UTF-8 files, directories or glob patterns (quote them); - for standard input",
    )
    group = parser.add_argument_group("input")
    group.add_argument(
        "-r", "--recursive", action="store_true", help="directories and ** at every depth"
    )
    group.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="GLOB",
        help="only files whose name or path matches (repeat for several)",
    )
    group.add_argument(
        "--exclude", action="append", default=[], metavar="GLOB", help="leave these files out"
    )
    group = parser.add_argument_group("output")
    group.add_argument(
        "-o",
        "--output",
        default="-",
        help="where the records go: - for standard output (JSON Lines, the default), a "
        ".jsonl file, or a .parquet file (needs the parquet extra); the suffix chooses the "
        "format",
    )
    group.add_argument(
        "--byte-offsets", action="store_true", help="add start_byte/end_byte (UTF-8)"
    )
    group.add_argument(
        "--pages",
        action="store_true",
        help="add page_start/page_end (a form feed ends a page, as in text from PDFs)",
    )
    group.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1)")
    progress = group.add_mutually_exclusive_group()
    progress.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="a progress bar on standard error (the default when it is a terminal)",
    )
    progress.add_argument("--no-progress", dest="progress", action="store_false")


def _length(options: argparse.Namespace) -> Any:
    """``--length``: a name, or a tokenizer.json file loaded with Hugging Face tokenizers
    (as ``length=`` reads them; an error names the option)."""
    from .sizing import resolve_length

    return None if options.length is None else resolve_length(options.length, "--length")


def _budget(options: argparse.Namespace) -> tuple[int, int, Any]:
    return options.chunk_size, getattr(options, "chunk_overlap", 0), _length(options)


# --- the splitters ----------------------------------------------------------------------------


def _configure_recursive(parser: argparse.ArgumentParser) -> None:
    _add_budget_options(parser)
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument(
        "--separators",
        type=_json_separators,
        default=None,
        help='separators coarsest first, as a JSON array, e.g. \'["\\n\\n", "\\n", " ", ""]\'',
    )
    choice.add_argument(
        "--preset",
        default=None,
        help="a separator preset: markdown, python, javascript, typescript, html, latex, "
        "cjk or plain",
    )
    parser.add_argument(
        "--regex",
        action="store_true",
        help="the --separators are regular expressions (Python re syntax)",
    )
    parser.add_argument(
        "--keep-separator",
        choices=("false", "true", "start", "end"),
        default=None,
        help="where separators go: dropped (false), with the piece before them (true or "
        "end) or with the piece after them (start); the default is false, or with --preset "
        "the preset's own (end for cjk, false for plain, start for the others)",
    )


def _json_separators(value: str) -> list[str]:
    """The --separators value: a JSON array of strings (JSON spells \\n, \\t, \\u3002 ...)."""
    try:
        separators = json.loads(value)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not a JSON array of strings: {error}") from error
    if not isinstance(separators, list) or not all(isinstance(s, str) for s in separators):
        raise argparse.ArgumentTypeError(f"not a JSON array of strings: {value}")
    return separators


def _recursive_splitter(options: argparse.Namespace) -> Splitter:
    from .splitters.recursive import RecursiveSplitter

    size, overlap, length = _budget(options)
    settings: dict[str, Any] = {"chunk_overlap": overlap, "length": length}
    if options.keep_separator is not None:
        keep = {"false": False, "true": True}.get(options.keep_separator, options.keep_separator)
        settings["keep_separator"] = keep
    if options.preset is not None:
        if options.regex:
            raise InvalidParameterError(
                "--regex", True, "applies to --separators, not to a --preset's own separators"
            )
        return RecursiveSplitter.from_preset(options.preset, size, **settings)
    if options.separators is not None:
        settings["separators"] = options.separators
    return RecursiveSplitter(size, separators_are_regex=options.regex, **settings)


def _configure_sentences(parser: argparse.ArgumentParser) -> None:
    _add_budget_options(parser)
    parser.add_argument(
        "--no-abbreviations",
        action="store_true",
        help="no abbreviations: a period after Mr., Dr., e.g. ... ends a sentence too "
        "(the other tailorings of UAX #29 stay)",
    )
    parser.add_argument(
        "--no-wrapped",
        action="store_true",
        help="every line ending ends a sentence (default: inside a paragraph it reads as "
        "a space, for hard-wrapped prose)",
    )


def _sentence_splitter(options: argparse.Namespace) -> Splitter:
    from .boundaries.sentences import DEFAULT_ABBREVIATIONS
    from .splitters.sentences import SentenceSplitter

    size, overlap, length = _budget(options)
    return SentenceSplitter(
        size,
        overlap,
        length=length,
        abbreviations=() if options.no_abbreviations else DEFAULT_ABBREVIATIONS,
        wrapped=not options.no_wrapped,
    )


def _paragraph_splitter(options: argparse.Namespace) -> Splitter:
    from .splitters.paragraphs import ParagraphSplitter

    size, overlap, length = _budget(options)
    return ParagraphSplitter(size, overlap, length=length)


def _configure_markdown(parser: argparse.ArgumentParser) -> None:
    _add_budget_options(parser)
    parser.add_argument(
        "--count-heading-path",
        action="store_true",
        help="the budget also covers the heading path put before each chunk for embedding",
    )
    parser.add_argument(
        "--no-merge-sections",
        dest="merge_sections",
        action="store_false",
        help="every heading starts a chunk: one section per chunk, none merged with the next",
    )


def _markdown_splitter(options: argparse.Namespace) -> Splitter:
    from .splitters.markdown import MarkdownSplitter

    size, overlap, length = _budget(options)
    return MarkdownSplitter(
        size,
        overlap,
        length=length,
        count_heading_path=options.count_heading_path,
        merge_sections=options.merge_sections,
    )


def _configure_blocks(parser: argparse.ArgumentParser) -> None:
    _add_budget_options(parser, overlap=False)


def _block_splitter(options: argparse.Namespace) -> Splitter:
    from .splitters.blocks import BlockSplitter

    return BlockSplitter(options.chunk_size, length=_length(options))


def _configure_code(parser: argparse.ArgumentParser) -> None:
    _add_budget_options(parser)
    parser.add_argument(
        "--language",
        default=None,
        help="the programming language (python, typescript, go, rust, java ...); by default "
        "from each file's extension",
    )
    parser.add_argument(
        "--separators-fallback",
        action="store_true",
        help="where the language's grammar is not installed, split with its separator table "
        "instead of failing",
    )


@dataclass(frozen=True)
class CodeByExtension:
    """The code splitter of a document's language, from its file name's extension (a
    picklable choice, so worker processes can make it)."""

    chunk_size: int
    chunk_overlap: int
    length: Any
    fallback: str

    def __post_init__(self) -> None:
        from .config import ChunkConfig

        ChunkConfig(self.chunk_size, self.chunk_overlap, self.length)  # checked before any file

    def __call__(self, document: Document) -> Splitter:
        from .boundaries.code_languages import language_for_path
        from .splitters.code import CodeSplitter

        source = str(document.metadata.get("source", ""))
        if source in ("", "-"):
            raise _language_needed()
        try:
            language = language_for_path(source, document.text)  # the text tells C++ headers
        except InvalidParameterError:
            suffix = PurePath(source).suffix
            raise _UnknownExtensionError(
                f"no language for the extension {suffix!r}"
                if suffix
                else "no extension to tell its language by",
            ) from None
        with _command_line_fix():
            return CodeSplitter(
                language,
                self.chunk_size,
                self.chunk_overlap,
                length=self.length,
                fallback=self.fallback,  # type: ignore[arg-type]
            )


class _MissingOptionError(InvalidParameterError):
    """An option that the other arguments need and that was not given."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(name, None, reason)
        self.args = (f"{name} is needed: {reason}",)


class _UnknownExtensionError(InvalidParameterError):
    """A file whose language its name does not tell (the message is the file's line)."""

    def __init__(self, reason: str) -> None:
        super().__init__("path", None, reason)
        self.args = (f"{reason} (spansplit code --language NAME reads every file as NAME)",)


def _language_needed() -> _MissingOptionError:
    return _MissingOptionError("--language", "code read from standard input has no file extension")


@contextlib.contextmanager
def _command_line_fix() -> Iterator[None]:
    """A missing grammar's error, with the option that splits by the separator table."""
    try:
        yield
    except GrammarUnavailableError as error:
        raise GrammarUnavailableError(
            error.language, f"{error} (on the command line: --separators-fallback)"
        ) from None


def _code_splitter(options: argparse.Namespace) -> SplitterChoice:
    from .splitters.code import CodeSplitter

    size, overlap, length = _budget(options)
    fallback = "separators" if options.separators_fallback else "error"
    if options.language is None and "-" in options.paths:  # bad usage, known before reading
        raise _language_needed()
    if options.language is not None:
        with _command_line_fix():
            return CodeSplitter(options.language, size, overlap, length=length, fallback=fallback)  # type: ignore[arg-type]
    return CodeByExtension(size, overlap, length, fallback)


def _auto_splitter(options: argparse.Namespace) -> SplitterChoice:
    from .corpus import SplitterByFileType

    size, overlap, length = _budget(options)
    return SplitterByFileType(size, overlap, length)


def _configure_compat(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "shape",
        choices=("paragraphs-json", "content-size"),
        help="paragraphs-json: the paragraph list as one JSON document (seed 002); "
        "content-size: recursive chunks as [{content, size}] (seed 004)",
    )
    parser.add_argument("file", metavar="FILE", help="UTF-8 text file, or - for standard input")
    content = "content-size only: "
    parser.add_argument(
        "--chunk-size", type=int, default=1000, help=content + "the budget (default: 1000)"
    )
    parser.add_argument(
        "--chunk-overlap", type=int, default=0, help=content + "the overlap (default: 0)"
    )
    parser.add_argument("--length", default=None, help=content + "the length (default: chars)")
    parser.add_argument(
        "--separators",
        type=_json_separators,
        default=None,
        help=content + "the separators as a JSON list",
    )
    parser.add_argument("--preset", default=None, help=content + "a separator preset")
    parser.add_argument(
        "--regex", action="store_true", help=content + "the separators are regular expressions"
    )
    parser.add_argument(
        "--keep-separator",
        choices=("false", "true", "start", "end"),
        default=None,
        help=content + "where a separator goes",
    )


COMMANDS: tuple[Command, ...] = (
    Command(
        "auto",
        "each file by its type: Markdown by sections, source code by its syntax, other "
        "text by separators",
        _add_budget_options,
        _auto_splitter,
    ),
    Command(
        "recursive",
        "split at separators, coarsest first, and merge the pieces up to --chunk-size",
        _configure_recursive,
        _recursive_splitter,
    ),
    Command(
        "sentences",
        "whole sentences packed up to --chunk-size, with overlap",
        _configure_sentences,
        _sentence_splitter,
    ),
    Command(
        "paragraphs",
        "paragraphs packed up to --chunk-size, then sentences, then words",
        _add_budget_options,
        _paragraph_splitter,
    ),
    Command(
        "markdown",
        "Markdown by sections, then blocks, with each chunk's heading path (needs the "
        "markdown extra)",
        _configure_markdown,
        _markdown_splitter,
    ),
    Command(
        "code",
        "source code split at its syntax (definitions, then statements, lines, words); "
        "each record has the chunk's symbol path and node kinds; a file that is not code "
        "in its language (mostly syntax errors) is split by its separator table",
        _configure_code,
        _code_splitter,
    ),
    Command(
        "blocks",
        "structure-aware paging blocks of about --chunk-size that tile the input",
        _configure_blocks,
        _block_splitter,
    ),
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subparser per entry of ``COMMANDS`` (and ``compat``)."""
    parser = argparse.ArgumentParser(
        prog="spansplit",
        description="Split files into chunks that are exact spans of their source, written "
        "as JSON Lines (document_id, source, chunk_index, start, end, start_line, end_line, "
        "size, kind, text, and the splitter's metadata) or Parquet.",
        epilog="exit status: 0 ok, 1 some input could not be split, 2 bad usage, 3 the "
        "output could not be written, 130 interrupted (Ctrl-C), 143 stopped (SIGTERM)",
    )
    parser.add_argument("--version", action="version", version=f"spansplit {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        sub = subparsers.add_parser(command.name, help=command.help, description=command.help)
        command.configure(sub)
        _add_corpus_options(sub)
        sub.set_defaults(handler=command, usage_error=sub.error)
    compat = subparsers.add_parser("compat")  # no help: not listed in the main help
    _configure_compat(compat)
    compat.set_defaults(handler=None, usage_error=compat.error)
    return parser


# --- output -----------------------------------------------------------------------------------


class OutputError(Exception):
    """The records could not be written (a closed or full output, an unwritable file)."""


class _JsonLines:
    """JSON Lines to a binary stream; each document's records flushed together."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def write(self, record: ChunkRecord) -> None:
        self.stream.write(json_line(record))

    def flush(self) -> None:
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()


class _Parquet:
    """Records to a Parquet file (columns :data:`~spansplit.batch.ROW_COLUMNS`) in row
    groups of about ``BATCH`` (bounded memory); once closed, the file is valid with the
    records of every document whose records were all written (a run stopped halfway
    through a document leaves that document out, as JSON Lines does)."""

    BATCH = 10_000

    def __init__(self, path: str) -> None:
        try:
            import pyarrow  # type: ignore[import-untyped]
            import pyarrow.parquet  # type: ignore[import-untyped]
        except ImportError as error:
            raise ExtraNotInstalledError("Parquet output", "parquet", "pyarrow") from error
        self.pyarrow = pyarrow
        self.schema = row_schema()
        try:
            self.writer = pyarrow.parquet.ParquetWriter(path, self.schema)
        except OSError as error:
            raise OutputError(f"{shown_name(path)}: {error.strerror or error}") from error
        self.rows: list[dict[str, Any]] = []  # of whole documents, not yet written
        self.document: list[dict[str, Any]] = []  # of the document being written

    def write(self, record: ChunkRecord) -> None:
        self.document.append(record.to_row())

    def flush(self) -> None:
        """The document's records are all written: they go out with the next row group."""
        self.rows += self.document
        self.document = []
        if len(self.rows) >= self.BATCH:
            self._write_rows()

    def _write_rows(self) -> None:
        if self.rows:
            with _signals_held():  # a row group is written once, whole, however the run stops
                self.writer.write_table(self.pyarrow.Table.from_pylist(self.rows, self.schema))
                self.rows = []

    def close(self) -> None:
        try:
            self._write_rows()
        finally:
            self.writer.close()  # valid with the row groups written, whatever happened


_STOPPING_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done: noted meanwhile, then raised again
    (handlers are set from the main thread only; elsewhere the block is not held)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def hold(signal_number: int, frame: object) -> None:
        pending.append(signal_number)

    previous = {number: signal.signal(number, hold) for number in _STOPPING_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if pending:
            signal.raise_signal(pending[0])  # as it was handled before the block


class _ReaderStopped(Exception):
    """The reader of the output stopped reading (``| head``): the run ends, not an error."""


@contextlib.contextmanager
def _writing(output: Any) -> Iterator[None]:
    """Close ``output`` at the end; a write refused because the reader stopped reading
    raises :class:`_ReaderStopped`, any other (a closed or full output) :class:`OutputError`."""
    try:
        try:
            yield
        finally:
            output.close()
    except BrokenPipeError as error:
        raise _ReaderStopped from error
    except OSError as error:
        raise OutputError(f"cannot write the output: {error.strerror or error}") from error


_JSON_LINES_SUFFIXES = ("", ".jsonl", ".ndjson")
"""Output paths written as JSON Lines: these suffixes, and none (a device, a pipe)."""


def _output_format(target: str) -> str:
    """``"parquet"`` or ``"jsonl"``, as the output path's suffix says; another suffix
    (``.csv``, ``.json``) would get a format it does not name, so it is refused."""
    if target == "-":
        return "jsonl"
    suffix = Path(target).suffix.lower()
    if suffix == ".parquet":
        return "parquet"
    if suffix in _JSON_LINES_SUFFIXES:
        return "jsonl"
    raise InvalidParameterError(
        "--output",
        target,
        f"{suffix} is not a format written here: name a .jsonl file (JSON Lines, one record "
        "a line), a .parquet file, or - for standard output",
    )


def _check_output(target: str, inputs: Sequence[str]) -> None:
    """Raise for an output that cannot be written whatever the input: a suffix that names
    no format written here, Parquet without its extra, or a file named as an input too
    (opened for writing, it would be emptied before it is read)."""
    if _output_format(target) == "parquet" and importlib.util.find_spec("pyarrow") is None:
        raise ExtraNotInstalledError("Parquet output", "parquet", "pyarrow")
    if target != "-" and os.path.exists(target):
        written = Path(target).resolve()
        if any(path != "-" and Path(path).resolve() == written for path in inputs):
            raise InvalidParameterError(
                "--output",
                target,
                "is also an input: writing it would empty it before it is read; "
                "name another output file",
            )


def _open_output(target: str) -> Any:
    if target == "-":
        try:
            stream = os.fdopen(os.dup(1), "wb")
        except OSError as error:
            raise OutputError(f"standard output is closed ({error.strerror})") from error
        return _JsonLines(stream)
    if _output_format(target) == "parquet":
        return _Parquet(target)
    try:
        return _JsonLines(open(target, "wb"))
    except OSError as error:
        raise OutputError(f"{shown_name(target)}: {error.strerror or error}") from error


# --- running ------------------------------------------------------------------------------------


class _Report:
    """What a run tells the user on standard error: failures as they come, a progress bar
    where standard error is a terminal, a summary at the end."""

    def __init__(self, files: int, progress: bool | None) -> None:
        self.files = files
        self.failures = 0  # files that could not be split
        self.empty_inputs = 0  # inputs that gave no file (missing, no match, not readable)
        self.started = time.perf_counter()
        self.muted = False  # standard error refused a write: no more are tried
        self.bar: Any = None
        show = sys.stderr is not None and sys.stderr.isatty() if progress is None else progress
        if show and files:
            from tqdm import tqdm

            tqdm.monitor_interval = 0  # no monitor thread: the bar is updated per document,
            # and a process with one thread can fork its workers (see _start_method)
            self.bar = tqdm(total=files, unit="file", file=sys.stderr, dynamic_ncols=True)

    @property
    def failed_any(self) -> bool:
        """Whether a file or an input failed (the run then exits with status 1)."""
        return bool(self.failures or self.empty_inputs)

    def failed(self, error: DocumentError) -> None:
        self.failures += 1
        self.say(f"spansplit: {shown_name(error.where)}: {error.reason}")

    def say(self, message: str) -> None:
        """Write ``message`` on standard error; where that cannot be written (closed, full),
        the run goes on without its messages: the exit status still tells of failures."""
        try:
            if self.bar is not None:
                self.bar.write(message, file=sys.stderr)
            elif sys.stderr is not None and not self.muted:
                print(message, file=sys.stderr, flush=True)
        except (OSError, ValueError):  # (ValueError: a closed stream)
            self._mute()

    def advance(self, progress: Progress) -> None:
        if self.bar is not None:
            seconds = max(time.perf_counter() - self.started, 1e-9)
            try:
                self.bar.set_postfix_str(f"{progress.characters / seconds / 1e6:.2f} M chars/s")
                self.bar.update(1)
            except (OSError, ValueError):
                self._mute()

    def _mute(self) -> None:
        """Stop writing to standard error, which refused a write."""
        if self.bar is not None:
            self.bar.disable = True
            self.bar = None
        self.muted = True

    def summary(self, progress: Progress, stopped: str | None = None) -> None:
        if self.bar is not None:
            self.bar.close()
        if self.files <= 1 and not self.failed_any and stopped is None:
            return  # one file: its records say it all
        seconds = time.perf_counter() - self.started
        rate = progress.characters / max(seconds, 1e-9) / 1e6
        split = progress.documents - self.failures
        line = (
            f"spansplit: {split} of {self.files} files split, {progress.chunks:,} chunks, "
            f"{progress.characters:,} characters in {seconds:.1f} s ({rate:.2f} M/s)"
        )
        if self.failures:
            line += f"; {self.failures} failed"
        if self.empty_inputs:
            line += f"; {_counted(self.empty_inputs, 'path')} gave no file"
        if stopped:
            line += f"; {stopped}"
        self.say(line)


def _run(options: argparse.Namespace, splitter: SplitterChoice) -> int:
    from .corpus import FoundFiles, documents_of, find_files

    found = find_files(
        options.paths, recursive=options.recursive, include=options.include, exclude=options.exclude
    )
    without_language = _not_its_kind(found.files, options, splitter, found.missing)
    own: list[str] = []  # never read back what this run writes (an earlier run's output)
    if options.output != "-":
        written = Path(options.output).resolve()
        own = [f for f in found.files if f != "-" and Path(f).resolve() == written]
        found.files[:] = [f for f in found.files if f not in own]
    report = _Report(len(found.files), options.progress)
    for path in own:
        report.say(f"spansplit: {shown_name(path)}: left out: it is this run's output")
    if without_language:
        report.say(f"spansplit {options.command}: note: {without_language}")
    for pattern in [] if options.recursive else _one_level_patterns(options.paths):
        report.say(
            f"spansplit: note: '**' in {pattern!r} matches one folder level without -r "
            "(--recursive: any number)"
        )
    if (own or without_language) and not found.files:
        report.empty_inputs += 1  # (the inputs gave no other file: not a run that did its job)
    for path, reason in found.missing:  # inputs that gave no file, folders not readable
        report.say(f"spansplit: {shown_name(path)}: {reason}")
        report.empty_inputs += 1
    output = _open_output(options.output)
    state = Progress()

    def advanced(progress: Progress) -> None:
        nonlocal state
        # A copy: the batch counts the next document's chunks as it hands them out, and an
        # interrupt then would have the summary count chunks that were never written.
        state = replace(progress)
        output.flush()  # a document's records are out before the next one starts
        report.advance(progress)

    run = {
        "workers": options.jobs,
        "pages": options.pages,
        "byte_offsets": options.byte_offsets,
        "on_error": "skip",
        "on_skip": report.failed,
        "progress": advanced,
        "start_method": _start_method(),
    }
    documents = documents_of(FoundFiles(found.files))  # (what is missing was reported)
    try:
        # Closed as the run ends, however it ends, so that its workers stop then, not when
        # the interpreter exits (where the pool raced the exit and printed a traceback).
        with _writing(output):
            if isinstance(output, _JsonLines):  # rendered where split: only bytes travel
                with contextlib.closing(render_documents(documents, splitter, **run)) as rendered:
                    for data in rendered:
                        output.stream.write(data)
            else:
                with contextlib.closing(split_documents(documents, splitter, **run)) as records:
                    for record in records:
                        output.write(record)
    except KeyboardInterrupt as stop:
        report.summary(state, "stopped" if isinstance(stop, _Terminated) else "interrupted")
        return TERMINATED if isinstance(stop, _Terminated) else INTERRUPTED
    report.summary(state)
    return FAILED_INPUT if report.failed_any else OK


def _one_level_patterns(paths: list[str]) -> list[str]:
    """The glob patterns among ``paths`` with a ``**`` part, which without ``-r`` matches
    one folder level (as in :func:`glob.glob`), where a shell with globstar goes deeper."""
    return [p for p in paths if "**" in PurePath(p).parts and not os.path.lexists(p)]


def _not_its_kind(
    files: list[str],
    options: argparse.Namespace,
    splitter: SplitterChoice,
    missing: list[tuple[str, str]],
) -> str:
    """Leave out of ``files`` those found in a folder or by a pattern whose name says they
    are not what the command splits, and say which in one line (empty where none is): for
    ``spansplit code`` by extension, names that tell no programming language (a LICENSE, a
    Makefile, ``py.typed``, a README.md); for ``spansplit markdown`` without
    ``--include``, names without a Markdown extension (a script, a ``.txt`` beside the
    docs). A file named itself is kept (and fails with its own line if its name tells no
    language). A broken link or a pipe in ``missing`` with such a name is left out quietly,
    as ``--include`` leaves them out."""
    if isinstance(splitter, CodeByExtension):
        from .boundaries.code_languages import MARKUP_LANGUAGES, language_for_path

        def wanted(path: str) -> bool:
            try:
                return language_for_path(path) not in MARKUP_LANGUAGES
            except InvalidParameterError:
                return False

        what = (
            "whose name tells no programming language (none, or a document format: Markdown, "
            "reStructuredText, LaTeX, HTML)"
        )
        hint = "--language NAME reads every file as NAME; spansplit auto splits each by its kind"
    elif options.command == "markdown" and not options.include:
        from .corpus import MARKDOWN_SUFFIXES

        def wanted(path: str) -> bool:
            return PurePath(path).suffix.lower() in MARKDOWN_SUFFIXES

        what = f"without a Markdown extension ({', '.join(sorted(MARKDOWN_SUFFIXES))})"
        hint = "--include GLOB splits them as Markdown; spansplit auto splits each by its kind"
    else:
        return ""
    given: set[str] = set()  # the real paths of the inputs, read when first needed

    def named(path: str) -> bool:
        """Whether ``path`` was named itself (as ./LICENSE or d//LICENSE: by its real path)."""
        if not given:
            given.update(os.path.realpath(name) for name in options.paths if name != "-")
        return os.path.realpath(path) in given

    from .corpus import BROKEN_LINK, NOT_A_FILE

    missing[:] = [
        (path, why)
        for path, why in missing
        if why not in (BROKEN_LINK, NOT_A_FILE) or wanted(path) or named(path)
    ]
    left_out: dict[str, int] = {}
    kept: list[str] = []
    for path in files:
        if path != "-" and not wanted(path) and not named(path):
            suffix = PurePath(path).suffix
            name = f"{suffix!r}" if suffix else "no extension"
            left_out[name] = left_out.get(name, 0) + 1
            continue
        kept.append(path)
    if not left_out:
        return ""
    files[:] = kept
    kinds = ", ".join(f"{name} ({count})" for name, count in sorted(left_out.items()))
    return (
        f"left out {_counted(sum(left_out.values()), 'file')} found in folders or by patterns "
        f"{what}: {kinds} ({hint})"
    )


def _counted(count: int, noun: str) -> str:
    """``"1 input"``, ``"2 inputs"``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _start_method() -> str:
    """How worker processes start: forked on Linux, from Python 3.11 on, while this process
    has one thread, native ones included (they begin with its imports and its loaded
    tokenizer, instead of each loading its own); spawned otherwise. (Before 3.11 the pool
    may fork a worker after starting its own threads.)"""
    if sys.platform != "linux" or sys.version_info < (3, 11):
        return "spawn"
    try:
        threads = len(os.listdir("/proc/self/task"))
    except OSError:
        return "spawn"
    return "fork" if threads == 1 else "spawn"


def _compat_splitter(options: argparse.Namespace) -> Splitter | None:
    """The recursive splitter of ``compat content-size`` (``None`` for the paragraph list)."""
    if options.shape == "paragraphs-json":
        return None
    options.paths = [options.file]
    return _recursive_splitter(options)


def _run_compat(options: argparse.Namespace, splitter: Splitter | None) -> int:
    from .compat import content_view, paragraphs_json
    from .corpus import read_file

    document = read_file(options.file)
    if splitter is None:
        result: Any = paragraphs_json(document.text)
    else:
        result = content_view(splitter.split(document.text))
    output = _open_output("-")
    with _writing(output):
        output.stream.write(json.dumps(result, ensure_ascii=False, indent=2).encode() + b"\n")
    return OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see the module docstring)."""
    parser = build_parser()
    options, unknown = parser.parse_known_args(argv)
    if unknown:  # the command's own usage, not the top level's ("COMMAND ...")
        options.usage_error(f"unrecognized arguments: {' '.join(unknown)}")
    name = options.command
    try:  # settings are checked before any file is read: a bad one is bad usage
        if options.handler is None:
            compat_splitter = _compat_splitter(options)
        else:
            check_int("--jobs", options.jobs, 1)
            splitter = options.handler.splitter(options)
            _check_output(options.output, options.paths)
    except SpansplitError as error:
        options.usage_error(str(error))
    try:
        with warnings.catch_warnings():  # restored on return (main also runs in-process)
            warnings.showwarning = _note_for(name)
            if options.handler is None:
                return _run_compat(options, compat_splitter)
            with _terminated_as_interrupted():
                return _run(options, splitter)
    except _ReaderStopped:
        return OK
    except DocumentError as error:
        _error(name, f"{shown_name(error.where)}: {error.reason}")
        return FAILED_INPUT
    except SpansplitError as error:
        _error(name, str(error))
        return FAILED_INPUT
    except OutputError as error:
        _error(name, str(error))
        return FAILED_OUTPUT
    except KeyboardInterrupt as stop:
        _error(name, "stopped" if isinstance(stop, _Terminated) else "interrupted")
        return TERMINATED if isinstance(stop, _Terminated) else INTERRUPTED


class _Terminated(KeyboardInterrupt):
    """SIGTERM arrived: the run stops as on Ctrl-C (see :func:`_terminated_as_interrupted`)."""


@contextlib.contextmanager
def _terminated_as_interrupted() -> Iterator[None]:
    """SIGTERM (``timeout``, ``docker stop``, Kubernetes) stops the run as Ctrl-C does: the
    records written so far stay whole and a Parquet file is closed readable (by default
    the process ended at once, leaving a Parquet file without its footer)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # (signal handlers are set from the main thread only)
        return

    def stop(signal_number: int, frame: object) -> None:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _error(command: str, message: str, kind: str = "error") -> None:
    if sys.stderr is not None:
        with contextlib.suppress(OSError):
            print(f"spansplit {command}: {kind}: {message}", file=sys.stderr)


def _note_for(command: str) -> Callable[..., None]:
    """A ``warnings.showwarning`` that prints a warning as one line, as errors are printed
    (an extra missing for one file type, say), without the source line Python shows."""

    def show(message: Warning | str, *_: object, **__: object) -> None:
        _error(command, str(message), "note")

    return show


if __name__ == "__main__":
    raise SystemExit(main())
