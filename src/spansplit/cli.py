"""The ``spansplit`` command line: one subcommand per splitter, listed in ``COMMANDS``.

Adding a splitter to the CLI is one entry in ``COMMANDS``: its name, help, the options it
adds and a function from (text, options) to chunks or to one JSON document.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from .chunk import Chunk
from .errors import SpansplitError


class JsonList(list[Any]):
    """A list printed as one JSON document (a seed's output shape), not as JSON Lines."""


Result = list[Chunk] | dict[str, Any] | JsonList


@dataclass(frozen=True)
class Command:
    """One subcommand: ``run`` returns chunks (printed as JSON Lines) or one JSON document."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[str, argparse.Namespace], Result]


def _no_options(parser: argparse.ArgumentParser) -> None:
    """A subcommand with no options beyond the input file."""


def _run_paragraphs(text: str, options: argparse.Namespace) -> Result:
    from .splitters.paragraphs import paragraphs_json

    return paragraphs_json(text)


def _configure_blocks(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", type=int, required=True, help="target block size")
    _add_length_option(parser)


def _run_blocks(text: str, options: argparse.Namespace) -> Result:
    from .splitters.blocks import split_blocks

    return split_blocks(text, options.target, length=options.length)


def _configure_recursive(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, required=True, help="chunk_size: the budget per chunk")
    parser.add_argument("--overlap", type=int, default=0, help="chunk_overlap (default 0)")
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
        "--regex", action="store_true", help="the --separators are regular expressions"
    )
    parser.add_argument(
        "--keep-separator",
        choices=("false", "true", "start", "end"),
        default=None,
        help="where separators go: dropped (false, the default), with the piece before them "
        "(true or end) or with the piece after them (start)",
    )
    parser.add_argument(
        "--seed004",
        action="store_true",
        help='print seed 004\'s JSON, [{"content": ..., "size": ...}], instead of JSON Lines',
    )
    _add_length_option(parser)


def _json_separators(value: str) -> list[str]:
    """The --separators value: a JSON array of strings (JSON spells \\n, \\t, \\u3002 ...)."""
    try:
        separators = json.loads(value)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not a JSON array of strings: {error}") from error
    if not isinstance(separators, list) or not all(isinstance(s, str) for s in separators):
        raise argparse.ArgumentTypeError(f"not a JSON array of strings: {value}")
    return separators


def _run_recursive(text: str, options: argparse.Namespace) -> Result:
    from .splitters.recursive import RecursiveSplitter, content_view

    settings: dict[str, Any] = {"chunk_overlap": options.overlap, "length": options.length}
    if options.keep_separator is not None:
        keep = {"false": False, "true": True}.get(options.keep_separator, options.keep_separator)
        settings["keep_separator"] = keep
    if options.preset is not None:
        splitter = RecursiveSplitter.from_preset(options.preset, options.size, **settings)
    else:
        if options.separators is not None:
            settings["separators"] = options.separators
        splitter = RecursiveSplitter(options.size, separators_are_regex=options.regex, **settings)
    chunks = splitter.split(text)
    return JsonList(content_view(chunks)) if options.seed004 else chunks


def _configure_sentences(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-chars", type=int, required=True, help="the budget per chunk, in --length units"
    )
    _add_overlap_option(parser)
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
    _add_length_option(parser)


def _run_sentences(text: str, options: argparse.Namespace) -> Result:
    from .boundaries.sentences import DEFAULT_ABBREVIATIONS
    from .splitters.sentences import SentenceChunker

    abbreviations = () if options.no_abbreviations else DEFAULT_ABBREVIATIONS
    chunker = SentenceChunker(
        options.max_chars,
        options.overlap,
        options.length,
        abbreviations=abbreviations,
        wrapped=not options.no_wrapped,
    )
    return chunker.split(text)


def _configure_token_paragraphs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-tokens", type=int, required=True, help="the budget per chunk, in --length units"
    )
    _add_overlap_option(parser)
    _add_length_option(parser, default="cl100k_base")


def _run_token_paragraphs(text: str, options: argparse.Namespace) -> Result:
    from .splitters.token_paragraphs import split_token_paragraphs

    return split_token_paragraphs(text, options.max_tokens, options.length, options.overlap)


def _add_overlap_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--overlap",
        type=int,
        default=0,
        help="most trailing context repeated from the previous chunk (default 0)",
    )


def _add_length_option(parser: argparse.ArgumentParser, default: str | None = None) -> None:
    parser.add_argument(
        "--length",
        default=default,
        help=f"unit of sizes: chars, utf8, utf16, or a tiktoken encoding or model name such "
        f"as cl100k_base or gpt-4o (default {default or 'chars'})",
    )


COMMANDS: tuple[Command, ...] = (
    Command(
        "paragraphs",
        "paragraphs with spans and line numbers, as seed 002's JSON",
        _no_options,
        _run_paragraphs,
    ),
    Command(
        "blocks",
        "structure-aware paging blocks that tile the input (seed 000), as JSON Lines",
        _configure_blocks,
        _run_blocks,
    ),
    Command(
        "recursive",
        "recursive separator splitting (seed 004), as JSON Lines or seed 004's JSON",
        _configure_recursive,
        _run_recursive,
    ),
    Command(
        "sentences",
        "whole sentences packed up to --max-chars, with overlap (seed 001), as JSON Lines",
        _configure_sentences,
        _run_sentences,
    ),
    Command(
        "token-paragraphs",
        "paragraphs packed up to --max-tokens of a real tokenizer (seed 003), as JSON Lines",
        _configure_token_paragraphs,
        _run_token_paragraphs,
    ),
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
    return record


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subparser per entry of ``COMMANDS``."""
    parser = argparse.ArgumentParser(
        prog="spansplit",
        description="Split text into chunks that are exact spans of their source.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        sub = subparsers.add_parser(command.name, help=command.help, description=command.help)
        sub.add_argument("file", metavar="FILE", help="UTF-8 text file, or - for standard input")
        command.configure(sub)
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


def _write(out: Any, result: Result) -> None:
    if isinstance(result, (dict, JsonList)):
        out.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
        return
    for chunk in result:
        out.write(json.dumps(chunk_record(chunk), ensure_ascii=False) + "\n")


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
