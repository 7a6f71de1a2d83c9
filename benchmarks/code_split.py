"""CodeSplitter on held-out real code: the quality targets of issue 14, and speed side by
side with chonkie's CodeChunker and LlamaIndex's CodeSplitter.

Quality (``quality``): for each language, files from a real source tree (not the test
samples) are split at 512 cl100k_base tokens and at 1,500 code points; reported per
language: the definitions (top-level ones and the members of classes, impls, traits)
that fit the budget (their lines, indentation and line ending included: chunks are
whole lines), the share of those a chunk edge falls inside, chunks that start mid-line
although their line fits, chunks that hold code and end with a comment (its last line
lies in a comment of the syntax tree; a comment above code belongs with it), chunks that
hold other text and end on a definition's signature (at most its first two lines with text,
apart from its body), chunks over budget and inexact spans. The same figures for the
language's separator table (``RecursiveSplitter.from_language``) are the baseline.

Speed (``speed``): about 1 MB of Python from the standard library on disk, file by file,
at 512 cl100k_base tokens; CPU time (``process_time``) and wall time, median of
``--reps``, as ratios to one ``encode_ordinary`` of the same files. Every peer gets the
grammar of the same ``tree-sitter-python`` wheel, offline:

* LlamaIndex's ``CodeSplitter`` takes a ``tree_sitter.Parser`` (``parser=``), built here
  from the wheel, and ``tokenizer=`` the same offline cl100k_base encoding.
* chonkie 1.7's ``CodeChunker`` chunks with tree-sitter-language-pack 1.x, which loads
  grammars as ``libtree_sitter_<name>.so`` from its cache and downloads them otherwise
  (its constructor calls ``download_all()``). Here the cache is a temporary folder holding
  a 4-line C shim per grammar that returns the wheel's own ``TSLanguage`` pointer (handed
  over in an environment variable), and ``download_all`` is replaced by a no-op: the same
  grammar, no network. Building the shim needs a C compiler (``cc``).

Run (held-out sources are not in the repository; see ``--help`` for where they come from):

    .venv/bin/python benchmarks/code_split.py quality --go DIR --java DIR --rust DIR --ts DIR
    .venv/bin/python benchmarks/code_split.py speed --reps 5
"""

from __future__ import annotations

import argparse
import bisect
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from texts import gather, stdlib_python

from spansplit import Chunk, CodeSplitter, RecursiveSplitter, resolve_length
from spansplit.boundaries.code import SyntaxLevel
from spansplit.boundaries.code_languages import get_language, language_for_path

MB = 1_000_000


def quality(
    files: list[tuple[str, str]],
    split: Callable[[str, str], list[Any]],
    size: int,
    count: Callable[[str], int],
) -> dict[str, float]:
    """The issue's figures for one splitter over ``files``."""
    fitting = cut = midline = over = inexact = chunks_total = comment_ends = signature_ends = 0
    for path, text in files:
        language = get_language(language_for_path(path))
        chunks = split(language.name, text)
        chunks_total += len(chunks)
        syntax = SyntaxLevel(text, language)
        comment_ends += sum(_ends_in_comment(syntax, chunk) for chunk in chunks[:-1])
        signature_ends += _signature_ends(text, syntax, chunks[:-1])
        edges = sorted({c.start for c in chunks} | {c.end for c in chunks})
        for chunk in chunks:
            inexact += text[chunk.start : chunk.end] != chunk.text
            over += count(chunk.text) > size
            line_start = text.rfind("\n", 0, chunk.start) + 1
            if text[line_start : chunk.start].strip():
                line_end = text.find("\n", chunk.start)
                line = text[line_start : len(text) if line_end < 0 else line_end + 1]
                midline += count(line) <= size
        for definition in syntax.definitions(2):
            own = text[definition.own_start : definition.end]
            start = definition.own_start + len(own) - len(own.lstrip())
            end = definition.own_start + len(own.rstrip())
            # It fits where its lines do (indentation and line ending included): chunks
            # are whole lines.
            if count(text[definition.own_start : definition.end]) > size:
                continue
            fitting += 1
            following = bisect.bisect_right(edges, start)
            cut += following < len(edges) and edges[following] < end
    return {
        "files": len(files),
        "bytes": sum(len(t.encode()) for _, t in files),
        "chunks": chunks_total,
        "chunks_followed": chunks_total - len(files),  # (a file's last is not counted)
        "definitions_fitting": fitting,
        "definitions_cut": cut,
        "cut_share": cut / max(1, fitting),
        "midline_starts": midline,
        "comment_ends": comment_ends,
        "signature_ends": signature_ends,
        "over_budget": over,
        "inexact": inexact,
    }


SIGNATURE_LINES = 2
"""The most lines of a definition a chunk may end with and count as ending on its signature."""


def _signature_ends(text: str, syntax: SyntaxLevel, chunks: list[Chunk]) -> int:
    """How many of ``chunks`` hold other text and end on the first lines of a definition
    (at most :data:`SIGNATURE_LINES` with text: its signature, apart from its body)."""
    owns = sorted(
        (
            d.own_start + len(text[d.own_start : d.end]) - len(text[d.own_start : d.end].lstrip()),
            d.end,
        )
        for d in syntax.definitions(2)
    )
    starts = [start for start, _ in owns]
    found = 0
    for chunk in chunks:
        # the definitions whose own code starts in the chunk, the last first
        index = bisect.bisect_left(starts, chunk.end) - 1
        while index >= 0 and starts[index] >= chunk.start:
            start, end = owns[index]
            if chunk.end < end and text[chunk.start : start].strip():
                held = text[start : chunk.end]
                found += sum(1 for line in held.splitlines() if line.strip()) <= SIGNATURE_LINES
                break
            index -= 1
    return found


def _ends_in_comment(syntax: SyntaxLevel, chunk: Chunk) -> bool:
    """Whether ``chunk`` holds code and ends with a whole comment (one longer than a chunk,
    cut, aside): the last line with text lies in a comment that ends in the chunk."""
    text = syntax.text
    ascii_only = text.isascii()
    lines: list[int] = []  # where each line with text starts, after its indentation
    position = chunk.start
    for line in chunk.text.splitlines(keepends=True):
        content = line.lstrip()
        if content.strip():
            lines.append(position + len(line) - len(content))
        position += len(line)
    if len(lines) < 2:
        return False

    def byte(at: int) -> int:  # (read for a few lines of each chunk only)
        return at if ascii_only else len(text[:at].encode())

    def comment_end(at: int) -> int | None:
        node = syntax.root_node.named_descendant_for_byte_range(byte(at), byte(at))
        if node is None or node.type not in syntax.language.comments:
            return None
        return node.end_byte

    last = comment_end(lines[-1])
    if last is None or last > byte(chunk.end):
        return False
    return any(comment_end(at) is None for at in lines[:-1])


def run_quality(sources: dict[str, list[tuple[str, str]]]) -> None:
    print(
        "| language | files | MB | budget | splitter | defs fitting | cut | mid-line starts "
        "| comment ends | signature ends | over budget | inexact |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for language, files in sources.items():
        if not files:
            continue
        for length, size in (("cl100k_base", 512), ("chars", 1500)):
            count = resolve_length(length).count
            splitters = {
                "CodeSplitter": lambda name, size=size, length=length: CodeSplitter(
                    name, size, length=length
                ),
                "separators": lambda name, size=size, length=length: (
                    RecursiveSplitter.from_language(name, size, length=length)
                ),
            }
            for label, make in splitters.items():
                r = quality(
                    files, lambda name, text, make=make: make(name).split(text), size, count
                )
                comment_share = r["comment_ends"] / max(1, r["chunks_followed"])
                signature_share = r["signature_ends"] / max(1, r["chunks_followed"])
                print(
                    f"| {language} | {r['files']} | {r['bytes'] / MB:.2f} | {size} {length} | "
                    f"{label} | {r['definitions_fitting']} | {r['definitions_cut']} "
                    f"({r['cut_share']:.2%}) | {r['midline_starts']} | "
                    f"{r['comment_ends']} ({comment_share:.1%}) | "
                    f"{r['signature_ends']} ({signature_share:.1%}) | "
                    f"{r['over_budget']} | {r['inexact']} |",
                    flush=True,
                )


# -- speed ------------------------------------------------------------------------------


def capsule_address(capsule: object) -> int:
    """The ``TSLanguage *`` inside a grammar wheel's ``language()`` capsule."""
    name = ctypes.pythonapi.PyCapsule_GetName
    name.restype, name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    pointer = ctypes.pythonapi.PyCapsule_GetPointer
    pointer.restype, pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return int(pointer(capsule, name(capsule)))


SHIM = """#include <stdlib.h>
const void *tree_sitter_%(name)s(void) {
    const char *address = getenv("SPANSPLIT_GRAMMAR_%(name)s");
    return address ? (const void *)strtoull(address, NULL, 16) : NULL;
}
"""


def offline_language_pack(folder: Path, name: str, capsule: object) -> None:
    """Point tree-sitter-language-pack at a cache in ``folder`` whose ``name`` grammar is
    a shim returning the wheel's grammar; downloads become no-ops."""
    import tree_sitter_language_pack as pack

    version = pack.cache_dir().split("/v")[-1].split("/")[0]
    libs = folder / "tree-sitter-language-pack" / f"v{version}" / "libs"
    libs.mkdir(parents=True, exist_ok=True)
    source = folder / f"{name}.c"
    source.write_text(SHIM % {"name": name})
    subprocess.run(
        [
            "cc",
            "-O2",
            "-shared",
            "-fPIC",
            str(source),
            "-o",
            str(libs / f"libtree_sitter_{name}.so"),
        ],
        check=True,
    )
    os.environ[f"SPANSPLIT_GRAMMAR_{name}"] = f"{capsule_address(capsule):x}"
    pack.configure(pack.PackConfig(cache_dir=str(folder)))
    pack.download_all = lambda: 0  # chonkie's constructor calls it; the grammar is here
    pack.download = lambda names: 0


def timed(function: Callable[[], object], reps: int) -> tuple[float, float]:
    """Median CPU and wall seconds of ``function`` over ``reps`` runs (after one warm-up)."""
    function()
    cpu, wall = [], []
    for _ in range(reps):
        c0, w0 = time.process_time(), time.perf_counter()
        function()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall)


def run_speed(reps: int, size: int = 512) -> None:
    import tree_sitter
    import tree_sitter_python

    files = [text for _, text in stdlib_python()]
    length = resolve_length("cl100k_base")
    encoding = length.encoding  # type: ignore[attr-defined]
    count = length.count
    total = sum(len(t.encode()) for t in files)
    print(
        f"{len(files)} standard-library files, {total / MB:.2f} MB, budget {size} cl100k_base, "
        f"median of {reps}"
    )

    ours = CodeSplitter("python", size, length="cl100k_base")
    peers: dict[str, Callable[[str], list[str]]] = {
        "spansplit CodeSplitter": lambda text: [c.text for c in ours.split(text)],
    }
    try:
        from llama_index.core.node_parser import CodeSplitter as LlamaCodeSplitter

        parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))
        llama = LlamaCodeSplitter(
            language="python",
            parser=parser,
            count_mode="token",
            max_tokens=size,
            tokenizer=encoding.encode,
        )
        peers["LlamaIndex CodeSplitter"] = llama.split_text
    except ImportError as error:
        print(f"LlamaIndex skipped: {error}")
    folder = Path(tempfile.mkdtemp(prefix="tslp-cache-"))
    try:
        offline_language_pack(folder, "python", tree_sitter_python.language())
        from chonkie import CodeChunker

        chonkie = CodeChunker(tokenizer=encoding, chunk_size=size, language="python")
        peers["chonkie CodeChunker"] = lambda text: [c.text for c in chonkie.chunk(text)]
    except (ImportError, subprocess.CalledProcessError) as error:
        print(f"chonkie skipped: {error}")

    def each(function: Callable[[str], object]) -> Callable[[], None]:
        return lambda: [function(text) for text in files] and None

    floor_cpu, floor_wall = timed(each(encoding.encode_ordinary), reps)
    print(f"one encode_ordinary: {floor_cpu * 1000:.0f} ms CPU, {floor_wall * 1000:.0f} ms wall")
    # What any splitter that parses with tree-sitter and counts every token must spend:
    # the parse of each file (as UTF-8, what the grammar reads) and one encode of it.
    grammar = tree_sitter.Parser(tree_sitter.Language(tree_sitter_python.language()))
    sources = [text.encode("utf-8") for text in files]
    parse_cpu, _ = timed(lambda: [grammar.parse(source) for source in sources] and None, reps)
    print(
        f"tree-sitter parse alone: {parse_cpu * 1000:.0f} ms CPU, "
        f"{parse_cpu / floor_cpu:.2f}x; parse and one encode (the floor of a syntax-tree "
        f"splitter): {(parse_cpu + floor_cpu) / floor_cpu:.2f}x\n"
    )
    print(
        "| splitter | CPU ms | CPU / encode | wall ms | wall / encode | chunks | over budget "
        "| not verbatim |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, split in peers.items():
        cpu, wall = timed(each(split), reps)
        chunks = [chunk for text in files for chunk in split(text)]
        over = sum(count(chunk) > size for chunk in chunks)
        verbatim = sum(chunk not in text for text, chunk in _pairs(files, split))
        print(
            f"| {name} | {cpu * 1000:.0f} | {cpu / floor_cpu:.2f}x | {wall * 1000:.0f} | "
            f"{wall / floor_wall:.2f}x | {len(chunks)} | {over} | {verbatim} |",
            flush=True,
        )


def _pairs(files: list[str], split: Callable[[str], list[str]]) -> Iterable[tuple[str, str]]:
    for text in files:
        for chunk in split(text):
            yield text, chunk


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    q = sub.add_parser("quality", help="issue 14's quality figures on held-out code")
    q.add_argument(
        "--go", type=Path, help="Go sources, e.g. Debian golang-1.19-src's /usr/share/go-1.19/src"
    )
    q.add_argument(
        "--java", type=Path, help="Java sources, e.g. openjdk-17-source's src.zip, unpacked"
    )
    q.add_argument(
        "--rust",
        type=Path,
        help="Rust sources, e.g. Debian librust-*-dev crates under /usr/share/cargo/registry",
    )
    q.add_argument(
        "--ts",
        type=Path,
        help="TypeScript sources, e.g. the npm packages zod and rxjs (their src/ folders)",
    )
    q.add_argument("--mb", type=float, default=1.0, help="MB per language (default 1)")
    s = sub.add_parser("speed", help="1 MB of Python at 512 tokens, with chonkie and LlamaIndex")
    s.add_argument("--reps", type=int, default=5)
    options = parser.parse_args(argv)
    if options.command == "speed":
        run_speed(options.reps)
        return 0
    limit = int(options.mb * MB)
    sources = {"python": stdlib_python(limit)}
    for language, suffixes in (
        ("go", (".go",)),
        ("java", (".java",)),
        ("rust", (".rs",)),
        ("typescript", (".ts",)),
    ):
        folder = getattr(options, "ts" if language == "typescript" else language)
        if folder is not None:
            sources[language] = gather(folder, suffixes, limit)
    run_quality(sources)
    return 0


if __name__ == "__main__":
    sys.exit(main())
