"""The code splitter through LangChain (``from_language`` for every ``Language`` member,
``get_separators_for_language``) and LlamaIndex (``SpanCodeNodeParser``)."""

from __future__ import annotations

import pickle

import pytest
from conftest import sample

from spansplit import CodeSplitter, RecursiveSplitter
from spansplit.boundaries.code import grammar_available
from spansplit.boundaries.code_languages import get_language

langchain_text_splitters = pytest.importorskip("langchain_text_splitters")
Language = langchain_text_splitters.Language


def test_from_language_accepts_every_langchain_language() -> None:
    from langchain_spansplit import SpanRecursiveTextSplitter

    text = sample("code.go")
    for member in Language:
        splitter = SpanRecursiveTextSplitter.from_language(
            member, chunk_size=160, chunk_overlap=0, add_start_index=True
        )
        info = get_language(member)
        expected = CodeSplitter if info.grammar and grammar_available(info) else RecursiveSplitter
        assert isinstance(splitter.splitter, expected), member
        documents = splitter.create_documents([text])
        for document in documents:
            start, end = document.metadata["start_index"], document.metadata["end_index"]
            assert text[start:end] == document.page_content
            assert splitter._length_function(document.page_content) <= 160


def test_from_language_go_has_symbols_in_metadata() -> None:
    from langchain_spansplit import SpanRecursiveTextSplitter

    if not grammar_available(get_language("go")):
        pytest.skip("the go grammar wheel is not installed")
    splitter = SpanRecursiveTextSplitter.from_language(Language.GO, chunk_size=16, chunk_overlap=0)
    from langchain_core.documents import Document

    documents = splitter.split_documents([Document(page_content=sample("code.go"))])
    assert ["Predictor", "Extremes"] in [d.metadata["symbols"] for d in documents]
    assert pickle.loads(pickle.dumps(splitter)).split_text("func f() {}\n") == ["func f() {}\n"]


def test_from_language_keeps_the_syntax_tree_with_the_spansplit_options() -> None:
    from langchain_spansplit import SpanRecursiveTextSplitter

    if not grammar_available(get_language("go")):
        pytest.skip("the go grammar wheel is not installed")
    splitter = SpanRecursiveTextSplitter.from_language(
        Language.GO,
        chunk_size=60,
        chunk_overlap=0,
        add_page_numbers=True,
        on_error="skip",
        strip_whitespace=True,
    )
    assert isinstance(splitter.splitter, CodeSplitter) and splitter._is_separator_regex
    documents = splitter.create_documents([sample("code.go"), "package x\x00"])
    assert documents and all(d.metadata["page_start"] == 1 for d in documents)
    assert all(d.page_content == d.page_content.strip() for d in documents)
    assert [error.where for error in splitter.skipped] == ["texts[1]"]


def test_from_language_with_separators_options_uses_the_table() -> None:
    from langchain_spansplit import SpanRecursiveTextSplitter, get_separators_for_language

    splitter = SpanRecursiveTextSplitter.from_language(
        Language.RUST, chunk_size=200, chunk_overlap=0, keep_separator="end"
    )
    assert isinstance(splitter.splitter, RecursiveSplitter)
    assert list(splitter.splitter.separators) == get_separators_for_language(Language.RUST)
    assert SpanRecursiveTextSplitter.get_separators_for_language("cobol")[-1] == ""


def test_llama_index_code_node_parser_takes_code_splitter_parameters() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.core.schema import MetadataMode
    from llama_index.node_parser.spansplit import SpanCodeNodeParser

    if not grammar_available(get_language("python")):
        pytest.skip("the python grammar wheel is not installed")
    text = sample("code.py") + "\n\n" + sample("code.py")  # repeated text: offsets stay exact
    for parser in (
        SpanCodeNodeParser(
            language="python", chunk_lines=40, chunk_lines_overlap=15, max_chars=400
        ),
        SpanCodeNodeParser(language="python", count_mode="token", max_tokens=96),
    ):
        nodes = parser.get_nodes_from_documents([Document(text=text)])
        assert len(nodes) > 4
        for node in nodes:
            assert text[node.start_char_idx : node.end_char_idx] == node.text
            assert parser._length().count(node.get_content(MetadataMode.EMBED)) <= parser.chunk_size
            assert node.metadata["language"] == "python"
            assert "symbols" not in node.get_content(MetadataMode.LLM)
        copy = SpanCodeNodeParser.from_dict(parser.to_dict())
        assert copy.to_dict() == parser.to_dict()
        assert pickle.loads(pickle.dumps(parser)).to_dict() == parser.to_dict()


def test_llama_index_code_nodes_have_no_metadata_when_told() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanCodeNodeParser

    if not grammar_available(get_language("python")):
        pytest.skip("the python grammar wheel is not installed")
    parser = SpanCodeNodeParser(language="python", max_chars=400, include_metadata=False)
    nodes = parser.get_nodes_from_documents([Document(text=sample("code.py"), metadata={"a": 1})])
    assert len(nodes) > 2 and all(node.metadata == {} for node in nodes)
