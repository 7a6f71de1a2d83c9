"""The ``spansplit`` command line: one subcommand per splitter, listed in ``COMMANDS``.

Every subcommand reads a UTF-8 file (or ``-`` for standard input) and prints one JSON
object per chunk. The budgeted ones share ``--chunk-size``, ``--chunk-overlap`` and
``--length``; ``code`` takes the language from ``--language`` or the file's extension.
Adding a splitter is one entry in ``COMMANDS``: its name, help, the options it adds and
a function from (text, options) to chunks. The seed contracts' own output shapes live in
a ``compat`` subcommand that the main help does not list.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from . import __version__
from .chunk import Chunk
from .errors import SpansplitError


@dataclass(frozen=True)
class Command:
    """One subcommand: ``run`` returns chunks (printed as JSON Lines) or, for the compat
    shapes, a JSON value printed as one document."""

    name: str
    help: str | None  # None: not listed in the main help
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[str, argparse.Namespace], list[Chunk] | Any]


def _add_budget_options(
    parser: argparse.ArgumentParser, *, overlap: bool = True, default_size: int | None = None
) -> None:
    parser.add_argument(
        "--chunk-size",
        type=int,
        required=default_size is None,
        default=default_size,
        help="the budget per chunk, in --length units"
        + ("" if default_size is None else f" (default {default_size})"),
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
        default=None,
        help="unit of sizes: chars (the default), utf8, utf16, or a tiktoken encoding or "
        "model name such as cl100k_base or gpt-4o",
    )


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
        help="where separators go: dropped (false, the default), with the piece before them "
        "(true or end) or with the piece after them (start)",
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


def _recursive_splitter(options: argparse.Namespace) -> Any:
    from .splitters.recursive import RecursiveSplitter

    settings: dict[str, Any] = {
        "chunk_overlap": options.chunk_overlap,
        "length": options.length,
    }
    if options.keep_separator is not None:
        keep = {"false": False, "true": True}.get(options.keep_separator, options.keep_separator)
        settings["keep_separator"] = keep
    if options.preset is not None:
        return RecursiveSplitter.from_preset(options.preset, options.chunk_size, **settings)
    if options.separators is not None:
        settings["separators"] = options.separators
    return RecursiveSplitter(options.chunk_size, separators_are_regex=options.regex, **settings)


def _run_recursive(text: str, options: argparse.Namespace) -> list[Chunk]:
    chunks: list[Chunk] = _recursive_splitter(options).split(text)
    return chunks


def _configure_sentences(parser: argparse.ArgumentParser) -> None:
    _add_budget_options(parser)
    parser.add_argument(
        "--no-abbreviations",
        action="store_true",
        help="pure UAX #29: a period after Mr., Dr., e.g. ... ends a sentence too",
    )
    parser.add_argument(
        "--no-wrapped",
        action="store_true",
        help="every line ending ends a sentence (default: inside a paragraph it reads as "
        "a space, for hard-wrapped prose)",
    )


def _run_sentences(text: str, options: argparse.Namespace) -> list[Chunk]:
    from .boundaries.sentences import DEFAULT_ABBREVIATIONS
    from .splitters.sentences import SentenceSplitter

    splitter = SentenceSplitter(
        options.chunk_size,
        options.chunk_overlap,
        length=options.length,
        abbreviations=() if options.no_abbreviations else DEFAULT_ABBREVIATIONS,
        wrapped=not options.no_wrapped,
    )
    return splitter.split(text)


def _run_paragraphs(text: str, options: argparse.Namespace) -> list[Chunk]:
    from .splitters.paragraphs import ParagraphSplitter

    return ParagraphSplitter(
        options.chunk_size, options.chunk_overlap, length=options.length
    ).split(text)


def _configure_markdown(parser: argparse.ArgumentParser) -> None:
    _add_budget_options(parser)
    parser.add_argument(
        "--count-heading-path",
        action="store_true",
        help="the budget also covers the heading path put before each chunk for embedding",
    )


def _run_markdown(text: str, options: argparse.Namespace) -> list[Chunk]:
    from .splitters.markdown import MarkdownSplitter

    splitter = MarkdownSplitter(
        options.chunk_size,
        options.chunk_overlap,
        length=options.length,
        count_heading_path=options.count_heading_path,
    )
    return splitter.split(text)


def _configure_blocks(parser: argparse.ArgumentParser) -> None:
    _add_budget_options(parser, overlap=False)


def _run_blocks(text: str, options: argparse.Namespace) -> list[Chunk]:
    from .splitters.blocks import split_blocks

    return split_blocks(text, options.chunk_size, length=options.length)


def _configure_code(parser: argparse.ArgumentParser) -> None:
    _add_budget_options(parser)
    parser.add_argument(
        "--language",
        default=None,
        help="the programming language (python, typescript, go, rust, java ...); by default "
        "from the file's extension",
    )
    parser.add_argument(
        "--separators-fallback",
        action="store_true",
        help="where the language's grammar is not installed, split with its separator table "
        "instead of failing",
    )


def _run_code(text: str, options: argparse.Namespace) -> list[Chunk]:
    from .boundaries.code_languages import language_for_path
    from .errors import InvalidParameterError
    from .splitters.code import CodeSplitter

    language = options.language
    if language is None:
        if options.file == "-":
            raise InvalidParameterError(
                "--language", None, "standard input has no file extension: pass --language"
            )
        language = language_for_path(options.file)
    splitter = CodeSplitter(
        language,
        options.chunk_size,
        options.chunk_overlap,
        length=options.length,
        fallback="separators" if options.separators_fallback else "error",
    )
    return splitter.split(text)


def _configure_compat(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "shape",
        choices=("paragraphs-json", "content-size"),
        help="paragraphs-json: the paragraph list as one JSON document (seed 002); "
        "content-size: recursive chunks as [{content, size}] (seed 004)",
    )
    _add_budget_options(parser, default_size=1000)
    parser.add_argument("--separators", type=_json_separators, default=None)
    parser.add_argument("--preset", default=None)
    parser.add_argument("--regex", action="store_true")
    parser.add_argument("--keep-separator", choices=("false", "true", "start", "end"), default=None)


def _run_compat(text: str, options: argparse.Namespace) -> Any:
    from .compat import content_view, paragraphs_json

    if options.shape == "paragraphs-json":
        return paragraphs_json(text)
    return content_view(_recursive_splitter(options).split(text))


COMMANDS: tuple[Command, ...] = (
    Command(
        "recursive",
        "split at separators, coarsest first, and merge the pieces up to --chunk-size",
        _configure_recursive,
        _run_recursive,
    ),
    Command(
        "sentences",
        "whole sentences packed up to --chunk-size, with overlap",
        _configure_sentences,
        _run_sentences,
    ),
    Command(
        "paragraphs",
        "paragraphs packed up to --chunk-size, then sentences, then words",
        _add_budget_options,
        _run_paragraphs,
    ),
    Command(
        "markdown",
        "Markdown by sections, then blocks, with each chunk's heading path (needs the "
        "markdown extra)",
        _configure_markdown,
        _run_markdown,
    ),
    Command(
        "blocks",
        "structure-aware paging blocks of about --chunk-size that tile the input",
        _configure_blocks,
        _run_blocks,
    ),
    Command(
        "code",
        "source code split at its syntax (definitions, then statements, lines, words); "
        "each record has the chunk's symbol path and node kinds",
        _configure_code,
        _run_code,
    ),
    Command("compat", None, _configure_compat, _run_compat),
)


def chunk_record(chunk: Chunk) -> dict[str, Any]:
    """The JSON Lines record of one chunk (``oversized`` only where a block is)."""
    record: dict[str, Any] = {
        "index": chunk.index,
        "start": chunk.start,
        "end": chunk.end,
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "size": chunk.size,
        "kind": chunk.kind,
        "text": chunk.text,
    }
    if chunk.oversized:
        record["oversized"] = True
    record.update(chunk.metadata)
    return record


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subparser per entry of ``COMMANDS``."""
    parser = argparse.ArgumentParser(
        prog="spansplit",
        description="Split text into chunks that are exact spans of their source, printed "
        "as JSON Lines (index, start, end, start_line, end_line, size, kind, text).",
    )
    parser.add_argument("--version", action="version", version=f"spansplit {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        options: dict[str, Any] = {}
        if command.help is not None:
            options = {"help": command.help, "description": command.help}
        sub = subparsers.add_parser(command.name, **options)
        command.configure(sub)  # first: a subcommand's own positional comes before FILE
        sub.add_argument("file", metavar="FILE", help="UTF-8 text file, or - for standard input")
        sub.set_defaults(handler=command)
    return parser


class InputError(Exception):
    """The input file cannot be read as UTF-8 text."""


def read_text(path: str, stdin: BinaryIO | None = None) -> str:
    """The UTF-8 text of ``path`` (``-`` is standard input); a BOM is kept as text."""
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            data = (stdin or sys.stdin.buffer).read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as error:
        raise InputError(f"{name}: {error.strerror or error}") from error
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{name}: not valid UTF-8 at byte offset {error.start} ({error.reason})"
        ) from error


def _write(out: Any, result: list[Chunk] | Any) -> None:
    if isinstance(result, list) and all(isinstance(item, Chunk) for item in result):
        for chunk in result:
            out.write(json.dumps(chunk_record(chunk), ensure_ascii=False) + "\n")
        return
    out.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 bad input, 2 bad usage)."""
    parser = build_parser()
    options = parser.parse_args(argv)
    command: Command = options.handler
    try:
        text = read_text(options.file)
        result = command.run(text, options)
    except (InputError, SpansplitError) as error:
        print(f"spansplit {command.name}: error: {error}", file=sys.stderr)
        return 1
    out = open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    try:
        _write(out, result)
    except BrokenPipeError:
        return 0
    finally:
        with contextlib.suppress(BrokenPipeError):
            out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
