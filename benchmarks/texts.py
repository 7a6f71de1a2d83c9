"""The benchmark texts, cut from the shared corpus the same way in every process.

Sizes are megabytes of UTF-8 (1 MB = 1,000,000 bytes), cut at a character boundary, so MB/s
means the same thing for English and Chinese. Files are read byte-exact (CRLF and BOM kept).
The corpus is ``$SPANSPLIT_CORPUS``, else ``../shared/corpus`` beside the repository.
"""

from __future__ import annotations

import os
import sysconfig
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("SPANSPLIT_CORPUS", ROOT.parent / "shared" / "corpus"))
MB = 1_000_000

ENGLISH_BOOKS = (
    "english_prose/pg2701_moby_dick.txt",
    "english_prose/pg1342_pride_and_prejudice.gitenberg.crlf.txt",
    "english_prose/pg84_frankenstein.gitenberg.crlf.txt",
    "english_prose/pg1661_adventures_of_sherlock_holmes.txt",
)
MARKDOWN_DOCS = ("markdown_docs/rust-lang-book/src", "markdown_docs/rust-lang-reference/src")
CHINESE = ("chinese/pg23962_xiyouji_journey_to_the_west.txt", "chinese/trpl-zh-cn/src")


@dataclass(frozen=True)
class TextSpec:
    """One benchmark text: a key, what it is made of, and its size in MB of UTF-8."""

    key: str
    label: str
    megabytes: float

    def describe(self) -> str:
        return TEXT_SOURCES[self.key]


TEXT_SOURCES = {
    "english": "Moby-Dick (english_prose/pg2701_moby_dick.txt, LF), first bytes",
    "chinese": (
        "Journey to the West (chinese/pg23962_xiyouji_journey_to_the_west.txt, traditional "
        "Chinese, 758k code points / 2.2 MB in all), first bytes"
    ),
    "markdown": (
        "rust-lang-book/src/*.md then rust-lang-reference/src/**/*.md (sorted paths), "
        "concatenated, first bytes"
    ),
    "mixed": (
        "corpus mix: the four English books, the Markdown docs and the Chinese texts (book + "
        "trpl-zh-cn) cut into ~32 KB blocks at line ends and taken in turn (8.7 MB in all); a "
        "smaller text takes evenly spaced blocks, a larger one repeats the whole mix and "
        "samples the rest evenly (starting at the first block with a character outside the "
        "BMP, so Python stores every size in 4 bytes per code point), so every size has the "
        "same make-up (16 and 64 MB repeat corpus text)"
    ),
    "python": (
        "the Python standard library on this machine: *.py files in sorted path order "
        "(test data skipped) until the size is reached, split file by file (not from the "
        "corpus; the same files as benchmarks/code_split.py)"
    ),
}


def read(relative: str) -> str:
    """A corpus file, or every Markdown file under a folder (sorted), read byte-exact."""
    path = CORPUS / relative
    files = sorted(path.rglob("*.md")) if path.is_dir() else [path]
    return "".join(f.read_bytes().decode("utf-8") for f in files)


def first_megabytes(text: str, megabytes: float) -> str:
    """The longest prefix of ``text`` of at most ``megabytes`` MB of UTF-8."""
    encoded = text.encode("utf-8")[: int(megabytes * MB)]
    return encoded.decode("utf-8", "ignore")


@cache
def _stream(parts: tuple[str, ...]) -> bytes:
    return "".join(read(p) for p in parts).encode("utf-8")


BLOCK_BYTES = 32_768


@cache
def _blocks() -> tuple[bytes, ...]:
    """The corpus mix cut into blocks of about 32 KB ending at a line end: English books,
    Markdown docs and Chinese taken in turn, one block of each, until all are used up."""
    per_source = []
    for parts in (ENGLISH_BOOKS, MARKDOWN_DOCS, CHINESE):
        stream, blocks, position = _stream(parts), [], 0
        while position < len(stream):
            newline = stream.find(b"\n", position + BLOCK_BYTES)
            stop = len(stream) if newline == -1 else newline + 1
            blocks.append(stream[position:stop])
            position = stop
        per_source.append(blocks)
    mixed = []
    for index in range(max(len(b) for b in per_source)):
        mixed += [blocks[index] for blocks in per_source if index < len(blocks)]
    return tuple(mixed)


def mixed(megabytes: float) -> str:
    """``megabytes`` MB of the corpus mix, the whole corpus sampled evenly at every size: a
    text smaller than the corpus takes evenly spaced blocks, a larger one repeats all the
    blocks as many times as fit and samples the rest evenly, so that per-MB figures compare
    like with like from 1 to 64 MB. The sampling starts at the first block that holds a
    character outside the BMP, so every size is stored alike by Python (4 bytes per code
    point) rather than 1 MB in 2 bytes and the larger sizes in 4."""
    blocks = _blocks()
    first = next(
        (i for i, b in enumerate(blocks) if any(ord(c) > 0xFFFF for c in b.decode("utf-8"))), 0
    )
    wanted = round(megabytes * MB / (sum(map(len, blocks)) / len(blocks))) + 1
    rounds, rest = divmod(wanted, len(blocks))
    chosen = list(range(len(blocks))) * rounds
    chosen += [(first + index * len(blocks) // rest) % len(blocks) for index in range(rest)]
    return first_megabytes(b"".join(blocks[i] for i in chosen).decode("utf-8"), megabytes)


def gather(folder: Path, suffixes: tuple[str, ...], limit: int = MB) -> list[tuple[str, str]]:
    """(path, text) of the files under ``folder`` with one of ``suffixes``, sorted, until
    ``limit`` bytes of UTF-8; test data and generated declaration files are skipped."""
    files: list[tuple[str, str]] = []
    total = 0
    for path in sorted(folder.rglob("*")):
        if path.suffix not in suffixes or path.name.endswith(".d.ts") or "testdata" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if "\0" in text or not text.strip():
            continue
        files.append((str(path), text))
        total += len(text.encode("utf-8"))
        if total >= limit:
            break
    return files


def stdlib_python(limit: int = MB) -> list[tuple[str, str]]:
    return gather(Path(sysconfig.get_paths()["stdlib"]), (".py",), limit)


FILE_SEPARATOR = "\x1e"
"""Between the files of the ``python`` text (ASCII record separator: no source file holds
it); the code splitter splits the files one by one."""


def load(spec: TextSpec) -> str:
    """The text of ``spec``."""
    if spec.key == "english":
        return first_megabytes(read(ENGLISH_BOOKS[0]), spec.megabytes)
    if spec.key == "chinese":
        return first_megabytes(read(CHINESE[0]), spec.megabytes)
    if spec.key == "markdown":
        return first_megabytes("".join(read(p) for p in MARKDOWN_DOCS), spec.megabytes)
    if spec.key == "mixed":
        return mixed(spec.megabytes)
    if spec.key == "python":
        files = stdlib_python(int(spec.megabytes * MB))
        return FILE_SEPARATOR.join(text for _, text in files)
    raise ValueError(f"unknown text {spec.key!r}")
