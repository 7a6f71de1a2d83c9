"""The LlamaIndex adapter (``llama-index-node-parser-spansplit``).

Where the stock parsers of llama-index-core fail (offsets on repeated text, a token chunk
over its budget, chained parsers, cache keys, ``from_dict``), a test shows the failure on
the stock parser and ours right on the same input. No test touches the network or a
model: token counts come from tiktoken's ``cl100k_base`` as llama-index-core bundles it.
"""

from __future__ import annotations

import asyncio
import bisect
import hashlib
import itertools
import json
import math
import multiprocessing
import os
import pickle
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("llama_index.core", reason="llama-index-core is not installed")
pytest.importorskip(
    "llama_index.node_parser.spansplit",
    reason="the adapter is not installed: pip install -e adapters/llama_index",
)

import regex
from conftest import corpus_path
from hypothesis import given, settings
from hypothesis import strategies as st
from llama_index.core import (
    Document,
    Settings,
    StorageContext,
    VectorStoreIndex,
    load_index_from_storage,
)
from llama_index.core.callbacks import (
    CallbackManager,
    CBEventType,
    EventPayload,
    LlamaDebugHandler,
)
from llama_index.core.embeddings import BaseEmbedding
from llama_index.core.ingestion import IngestionCache, IngestionPipeline
from llama_index.core.ingestion.pipeline import get_transformation_hash
from llama_index.core.node_parser import (
    LangchainNodeParser,
    SentenceSplitter,
    TokenTextSplitter,
)
from llama_index.core.schema import BaseNode, MetadataMode, NodeRelationship, TextNode
from llama_index.core.utils import get_tokenizer
from llama_index.node_parser import spansplit as adapter
from llama_index.node_parser.spansplit import (
    END_LINE,
    START_LINE,
    SpanBlockNodeParser,
    SpanMarkdownNodeParser,
    SpanNodeParser,
    SpanParagraphNodeParser,
    SpanRecursiveNodeParser,
    SpanSentenceNodeParser,
)
from pydantic import ValidationError

from spansplit import ParagraphSplitter, resolve_length
from spansplit.batch import DocumentError
from spansplit.errors import (
    InvalidInputError,
    InvalidParameterError,
    ParameterTypeError,
    SpansplitError,
)
from spansplit.sizing import CallableLength

TOKENS = get_tokenizer()  # cl100k_base, from the copy llama-index-core bundles

BUDGETED = [SpanRecursiveNodeParser, SpanSentenceNodeParser, SpanParagraphNodeParser]
ALL_PARSERS: list[type[SpanNodeParser]] = [*BUDGETED, SpanBlockNodeParser, SpanMarkdownNodeParser]


def make(cls: type[SpanNodeParser], size: int = 64, **fields: Any) -> SpanNodeParser:
    """A parser of any class; ``size`` goes to ``chunk_size`` where the class has one."""
    if "chunk_size" in cls.model_fields:
        fields.setdefault("chunk_size", size)
    if "chunk_overlap" in cls.model_fields:
        fields.setdefault("chunk_overlap", 0)
    return cls(**fields)


def ntokens(text: str) -> int:
    return len(TOKENS(text))


_LINE_ENDING = regex.compile(r"\r\n|\r|\n")


def line_of(text: str) -> Callable[[int], int]:
    """CommonMark line of a position: 1 + line endings that end at or before it."""
    ends = [m.end() for m in _LINE_ENDING.finditer(text)]
    return lambda pos: 1 + bisect.bisect_right(ends, pos)


def assert_exact(text: str, nodes: Sequence[BaseNode], *, lines: bool = True) -> None:
    """Every node is the span of ``text`` its offsets say, on the lines its metadata says."""
    line = line_of(text)
    for node in nodes:
        assert isinstance(node, TextNode)
        assert node.start_char_idx is not None and node.end_char_idx is not None
        assert text[node.start_char_idx : node.end_char_idx] == node.text
        if lines:
            assert node.metadata[START_LINE] == line(node.start_char_idx)
            assert node.metadata[END_LINE] == line(node.end_char_idx - 1)


def spans(nodes: Sequence[BaseNode]) -> list[tuple[int | None, int | None]]:
    return [(n.start_char_idx, n.end_char_idx) for n in nodes if isinstance(n, TextNode)]


def summary(nodes: Sequence[BaseNode]) -> list[tuple[Any, ...]]:
    """What two runs must agree on (node ids are random)."""
    return [(n.get_content(), *spans([n]), sorted(n.metadata.items()), n.ref_doc_id) for n in nodes]


# -- offsets: repeated text, postprocessing, chained parsers ---------------------------

REPEATED = ("I like tea. " * 6).rstrip()


def test_stock_sentence_splitter_misplaces_repeated_sentences() -> None:
    nodes = SentenceSplitter(chunk_size=10, chunk_overlap=0).get_nodes_from_documents(
        [Document(text=REPEATED)]
    )
    assert [n.get_content() for n in nodes] == ["I like tea. I like tea."] * 3
    assert spans(nodes) == [(0, 23), (12, 35), (24, 47)]  # the true starts are 0, 24, 48


def test_sentence_parser_places_repeated_sentences() -> None:
    document = Document(text=REPEATED)
    nodes = SpanSentenceNodeParser(chunk_size=10, chunk_overlap=0)([document])
    assert [n.get_content() for n in nodes] == ["I like tea. I like tea."] * 3
    assert spans(nodes) == [(0, 23), (24, 47), (48, 71)]
    assert_exact(REPEATED, nodes)


@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_repeated_text_exact_through_postprocessing(cls: type[SpanNodeParser]) -> None:
    text = "Same words again.\n\n" * 5 + "Same words again. Same words again.\r\n" * 4
    nodes = make(cls, 6).get_nodes_from_documents([Document(text=text)])
    assert len(nodes) > 5
    assert_exact(text, nodes)
    starts = [n.start_char_idx for n in nodes if isinstance(n, TextNode)]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)


def test_sentence_parser_abbreviations_setting_reaches_the_splitter() -> None:
    """'Dr.' ends no sentence by default; with pure UAX #29 it does, so a node that cannot
    hold the whole sentence ends there."""
    document = Document(text="We met Dr. Watson there. He smiled at us.")
    default = SpanSentenceNodeParser(chunk_size=6, chunk_overlap=0)([document])
    uax29 = SpanSentenceNodeParser(chunk_size=6, chunk_overlap=0, abbreviations=[])([document])
    assert not any(n.get_content().endswith("Dr.") for n in default)
    assert uax29[0].get_content() == "We met Dr."
    assert_exact(document.text, uax29)


def test_stock_chained_parsers_lose_offsets() -> None:
    text = " ".join(f"Sentence number {i} talks about topic {i % 7}." for i in range(60))
    pipeline = IngestionPipeline(
        transformations=[
            SentenceSplitter(chunk_size=128, chunk_overlap=16),
            TokenTextSplitter(chunk_size=40, chunk_overlap=5),
        ]
    )
    nodes = pipeline.run(documents=[Document(text=text)])
    placed = [n for n in nodes if n.start_char_idx is not None]
    assert len(placed) < len(nodes)  # some offsets are None
    wrong = [n for n in placed if text[n.start_char_idx : n.end_char_idx] != n.get_content()]
    assert wrong  # and some point at the wrong text (relative to the first parser's node)
    assert not any(n.next_node for n in nodes)  # and no node links to the next


@pytest.mark.parametrize("first", [SpanParagraphNodeParser, SpanBlockNodeParser])
@pytest.mark.parametrize("second", BUDGETED)
def test_chained_parsers_offsets_relative_to_document(
    first: type[SpanNodeParser], second: type[SpanNodeParser]
) -> None:
    text = "".join(
        f"Paragraph {p} opens here.\r\nIt says the same thing. It says the same thing.\n\n"
        for p in range(12)
    )
    document = Document(text=text, metadata={"title": "Chains"})
    pipeline = IngestionPipeline(transformations=[make(first, 40), make(second, 8)])
    nodes = pipeline.run(documents=[document])
    assert len(nodes) > 24
    assert_exact(text, nodes)
    assert {n.ref_doc_id for n in nodes} == {document.doc_id}
    assert all(n.metadata["title"] == "Chains" for n in nodes)
    for before, after in itertools.pairwise(nodes):
        assert after.prev_node is not None and after.prev_node.node_id == before.node_id
        assert before.next_node is not None and before.next_node.node_id == after.node_id
    assert nodes[0].prev_node is None and nodes[-1].next_node is None


def test_stock_parser_nodes_without_offsets_give_no_offsets() -> None:
    """A parsed node without offsets cannot be placed in its document: None, not a guess."""
    document = Document(text="One sentence here. Another one there.")
    parent = TextNode(text=document.text)
    parent.relationships[NodeRelationship.SOURCE] = document.as_related_node_info()
    nodes = SpanRecursiveNodeParser(chunk_size=4, chunk_overlap=0)([parent])
    assert nodes and all(n.start_char_idx is None and n.end_char_idx is None for n in nodes)
    assert all(START_LINE not in n.metadata for n in nodes)


def test_relationships_and_metadata_across_documents() -> None:
    docs = [
        Document(text=f"Document {d}. " * 20, metadata={"doc": d}, doc_id=f"doc-{d}")
        for d in range(3)
    ]
    nodes = SpanRecursiveNodeParser(chunk_size=8, chunk_overlap=2)(docs)
    by_doc: dict[str | None, list[BaseNode]] = {}
    for node in nodes:
        by_doc.setdefault(node.ref_doc_id, []).append(node)
    assert sorted(by_doc) == ["doc-0", "doc-1", "doc-2"]
    for d, group in enumerate(by_doc.values()):
        assert_exact(docs[d].text, group)
        assert all(n.metadata["doc"] == d for n in group)
        assert group[0].prev_node is None and group[-1].next_node is None
        for before, after in itertools.pairwise(group):
            assert after.prev_node is not None and after.prev_node.node_id == before.node_id
            assert before.next_node is not None and before.next_node.node_id == after.node_id


def test_empty_document_gives_no_nodes() -> None:
    assert SpanRecursiveNodeParser(chunk_size=8, chunk_overlap=0)([Document(text="")]) == []
    # The stock splitter makes one empty node (README: differences).
    stock = SentenceSplitter(chunk_size=60, chunk_overlap=0)([Document(text="")])
    assert [n.get_content() for n in stock] == [""]


@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_every_entry_point_gives_the_same_exact_nodes(cls: type[SpanNodeParser]) -> None:
    documents = _documents()[:3]
    parser = make(cls, 20)
    nodes = parser.get_nodes_from_documents(documents)
    for other in (
        parser(documents),
        asyncio.run(parser.acall(documents)),
        asyncio.run(parser.aget_nodes_from_documents(documents)),
    ):
        assert summary(other) == summary(nodes)
    for document in documents:
        assert_exact(document.text, [n for n in nodes if n.ref_doc_id == document.doc_id])
    texts = [d.text for d in documents]
    assert parser.split_texts(texts) == [c for t in texts for c in parser.split_text(t)]


# -- line numbers ---------------------------------------------------------------------


def test_line_numbers_hidden_from_embedding_and_llm_by_default() -> None:
    text = "alpha\nbeta\r\ngamma\rdelta\n\nepsilon " * 6
    document = Document(text=text, metadata={"source": "notes.txt"})
    nodes = SpanRecursiveNodeParser(chunk_size=12, chunk_overlap=0)([document])
    assert_exact(text, nodes)
    for node in nodes:
        for mode in (MetadataMode.EMBED, MetadataMode.LLM):
            shown = node.get_content(mode)
            assert "source: notes.txt" in shown and "line" not in shown
        assert "start_line" in node.get_content(MetadataMode.ALL)
    shown_nodes = SpanRecursiveNodeParser(
        chunk_size=24, chunk_overlap=0, line_numbers_in_content=True
    )([document])
    assert all(
        f"start_line: {n.metadata[START_LINE]}" in n.get_content(MetadataMode.EMBED)
        for n in shown_nodes
    )
    bare = SpanRecursiveNodeParser(chunk_size=12, chunk_overlap=0, include_line_numbers=False)(
        [document]
    )
    assert all(START_LINE not in n.metadata and END_LINE not in n.metadata for n in bare)
    assert_exact(text, bare, lines=False)


def test_a_documents_own_line_numbers_are_counted_on_or_kept() -> None:
    """A document that starts at line 120 of its file got lines 1 and 2, and with
    ``include_line_numbers=False`` lost its own ``start_line``/``end_line``."""
    metadata = {"file_name": "x.py", START_LINE: 120, END_LINE: 123}
    document = Document(
        text="a = 1\nb = 2\n\nc = 3\n",
        metadata=metadata,
        excluded_embed_metadata_keys=list(metadata),  # (the budget is the text's alone)
        excluded_llm_metadata_keys=list(metadata),
    )
    nodes = SpanRecursiveNodeParser(chunk_size=6, chunk_overlap=0)([document])
    assert [(n.metadata[START_LINE], n.metadata[END_LINE]) for n in nodes] == [
        (120, 120),
        (121, 121),
        (123, 123),
    ]
    kept = SpanRecursiveNodeParser(chunk_size=6, chunk_overlap=0, include_line_numbers=False)(
        [document]
    )
    assert all(n.metadata == document.metadata for n in kept)


@pytest.mark.parametrize("parser", [SpanSentenceNodeParser, SpanRecursiveNodeParser])
def test_an_image_document_without_text_keeps_its_image(parser: Any) -> None:
    """It gave no node, so a multimodal pipeline lost its images; the stock splitters give
    one ImageNode."""
    from llama_index.core.schema import ImageDocument, ImageNode

    image = ImageDocument(image="aGVsbG8=", metadata={"file_name": "cat.png"})
    (node,) = parser().get_nodes_from_documents([image])
    assert isinstance(node, ImageNode) and node.image == "aGVsbG8=" and node.text == ""
    assert node.metadata == {"file_name": "cat.png"}
    assert (node.start_char_idx, node.end_char_idx) == (0, 0)
    assert node.ref_doc_id == image.doc_id


def test_a_callback_manager_that_is_not_one_is_refused_at_once() -> None:
    """``from_defaults(" ")`` (the stock SentenceSplitter's first argument is ``separator``)
    made " " the callback manager: an AttributeError at the first split."""
    with pytest.raises(ParameterTypeError, match="callback_manager must be"):
        SpanSentenceNodeParser.from_defaults(" ")  # type: ignore[arg-type]
    with pytest.raises(ParameterTypeError, match="callback_manager must be"):
        SpanRecursiveNodeParser(callback_manager=5)
    assert isinstance(
        SpanSentenceNodeParser(callback_manager=None).callback_manager, CallbackManager
    )


def test_metadata_that_takes_most_of_the_budget_is_warned_about() -> None:
    """Nodes of 1 or 2 tokens came without a word (LlamaIndex's splitter warns)."""
    document = Document(text="你好世界。" * 20, metadata={"title": "word " * 40})
    parser = SpanSentenceNodeParser(chunk_size=50, chunk_overlap=0)
    with pytest.warns(
        UserWarning, match=r"metadata shown with each node takes \d+ of chunk_size=50"
    ):
        nodes = parser([document])
    assert nodes and all(
        resolve_length("cl100k_base").count(n.get_content(MetadataMode.EMBED)) <= 50 for n in nodes
    )


def test_chained_parsers_count_lines_from_a_documents_own_start_line() -> None:
    """The first node of a document starting at line 101, split again, started at 1."""
    text = "\n".join(f"line number {i} has some words." for i in range(12))
    document = Document(
        text=text,
        metadata={START_LINE: 101},
        excluded_embed_metadata_keys=[START_LINE],
        excluded_llm_metadata_keys=[START_LINE],
    )
    coarse = SpanRecursiveNodeParser(chunk_size=40, chunk_overlap=0)([document])
    fine = SpanSentenceNodeParser(chunk_size=20, chunk_overlap=0)(coarse)
    assert fine[0].metadata[START_LINE] == 101
    assert [n.metadata[START_LINE] for n in fine] == sorted(n.metadata[START_LINE] for n in fine)
    assert all(101 <= n.metadata[START_LINE] <= 112 for n in fine)


def test_relationship_hashes_are_the_final_nodes_hashes() -> None:
    """Postprocessing took the line numbers out and put them back, reordering the keys
    that a node's hash reads: every PARENT/CHILD hash was stale."""
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    text = "# A\n\nIntro text here.\n\n## B\n\nMore text.\n\n## C\n\nEven more text.\n"
    nodes = SpanMarkdownNodeParser(chunk_size=24, include_sections=True)(
        [Document(text=text, metadata={START_LINE: 3})]
    )
    by_id = {n.node_id: n for n in nodes}
    links = [
        info
        for n in nodes
        for found in n.relationships.values()
        for info in (found if isinstance(found, list) else [found])
        if info.node_id in by_id
    ]
    assert links and all(info.hash == by_id[info.node_id].hash for info in links)


# -- budgets ----------------------------------------------------------------------------

PROSE = "The quick brown fox jumps over the lazy dog while the farmer sleeps. " * 8


def test_stock_token_splitter_goes_one_token_over() -> None:
    """llama_index#22858: splits are budgeted with their leading space, emitted stripped."""
    chunks = TokenTextSplitter(chunk_size=10, chunk_overlap=0).split_text(PROSE)
    assert max(ntokens(c) for c in chunks) == 11


@pytest.mark.parametrize("cls", BUDGETED)
@pytest.mark.parametrize("size", [5, 10, 11, 32])
def test_token_budget_holds_on_the_same_text(cls: type[SpanNodeParser], size: int) -> None:
    nodes = make(cls, size)([Document(text=PROSE)])
    assert_exact(PROSE, nodes)
    assert max(ntokens(n.get_content()) for n in nodes) <= size


METADATA = {
    "file_path": "/srv/library/handbooks/chapter-07/section-3.md",
    "title": "Jumps, foxes & lazy dogs — a field guide",
    "page": 17,
}


@pytest.mark.parametrize("cls", BUDGETED)
def test_embed_and_llm_content_fit_chunk_size(cls: type[SpanNodeParser]) -> None:
    document = Document(
        text=PROSE + "\n\n" + PROSE,
        metadata=METADATA,
        excluded_embed_metadata_keys=["file_path"],
        excluded_llm_metadata_keys=["page"],
    )
    for size in (40, 64):
        nodes = make(cls, size)([document])
        assert_exact(document.text, nodes)
        for node in nodes:
            for mode in (MetadataMode.EMBED, MetadataMode.LLM):
                assert ntokens(node.get_content(mode)) <= size
        # the budget is used, not wasted: some node fills it to within a few tokens
        assert max(ntokens(n.get_content(MetadataMode.LLM)) for n in nodes) >= size - 8


@pytest.mark.parametrize("cls", BUDGETED)
def test_budget_is_measured_on_the_rendered_node(cls: type[SpanNodeParser]) -> None:
    """With no separator in the template, the metadata's last word and the text's first
    word tokenize together into more tokens than apart: only measuring the node as
    ``get_content`` renders it finds the right budget."""
    assert ntokens("browncat") > ntokens("brown") + ntokens("cat")
    text = "cat and dog? " * 60  # "?" then lowercase is a sentence boundary; "." is not
    template = "{metadata_str}{content}"
    document = Document(text=text, metadata={"k": "brown"}, text_template=template)
    nodes = make(cls, 16)([document])
    assert_exact(text, nodes)
    assert all(n.get_content(MetadataMode.EMBED).startswith("k: browncat") for n in nodes)
    assert max(ntokens(n.get_content(MetadataMode.EMBED)) for n in nodes) <= 16


def test_stock_sentence_splitter_measures_metadata_by_characters() -> None:
    """Stock picks the longer metadata string by characters, ours by the tokenizer: a
    short string of many tokens next to a long string of few."""
    many_tokens = "ꙮ" * 12  # 12 characters, dozens of tokens
    document = Document(
        text=PROSE,
        metadata={"a": many_tokens, "b": "a long but cheap value " * 2},
        excluded_embed_metadata_keys=["b"],
        excluded_llm_metadata_keys=["a"],
    )
    size = 64
    stock = SentenceSplitter(chunk_size=size, chunk_overlap=0)([document])
    assert max(ntokens(n.get_content(MetadataMode.EMBED)) for n in stock) > size
    ours = SpanSentenceNodeParser(chunk_size=size, chunk_overlap=0)([document])
    assert max(ntokens(n.get_content(MetadataMode.EMBED)) for n in ours) <= size


def test_line_numbers_in_content_still_fit() -> None:
    text = "\n".join(f"line {i} of the log" for i in range(400))
    document = Document(text=text, metadata={"log": "app.log"})
    parser = SpanRecursiveNodeParser(chunk_size=20, chunk_overlap=0, line_numbers_in_content=True)
    nodes = parser([document])
    assert_exact(text, nodes)
    assert max(ntokens(n.get_content(MetadataMode.EMBED)) for n in nodes) <= 20


def test_metadata_larger_than_chunk_size_is_a_typed_error() -> None:
    document = Document(text=PROSE, metadata={"summary": PROSE})
    with pytest.raises(InvalidParameterError, match="chunk_size=32") as info:
        SpanRecursiveNodeParser(chunk_size=32, chunk_overlap=0)([document])
    assert info.value.name == "chunk_size"


def test_split_text_metadata_aware_fits_default_template() -> None:
    parser = SpanRecursiveNodeParser(chunk_size=24, chunk_overlap=4)
    metadata_str = "title: A field guide\nauthor: Someone"
    chunks = parser.split_text_metadata_aware(PROSE, metadata_str)
    assert len(chunks) > 3
    for chunk in chunks:
        assert chunk in PROSE
        assert ntokens(f"{metadata_str}\n\n{chunk}") <= 24


# -- settings, serialization, pickling --------------------------------------------------


def test_bad_settings_are_typed_errors() -> None:
    with pytest.raises(InvalidParameterError, match="chunk_overlap=64"):
        SpanRecursiveNodeParser(chunk_size=64, chunk_overlap=64)
    with pytest.raises(InvalidParameterError, match="chunk_size=0"):
        SpanSentenceNodeParser(chunk_size=0)
    with pytest.raises(SpansplitError, match="no-such-encoding"):
        SpanParagraphNodeParser(chunk_size=64, length="no-such-encoding")
    with pytest.raises(ValidationError, match="chunk_size"):
        SpanRecursiveNodeParser(chunk_size="512")
    with pytest.raises(ValidationError, match="chunk_size"):
        SpanRecursiveNodeParser(chunk_size=True)


def test_stock_sentence_splitter_does_not_round_trip_to_dict() -> None:
    splitter = SentenceSplitter(chunk_size=64, chunk_overlap=8)
    with pytest.raises(ValidationError, match="id_func"):
        SentenceSplitter.from_dict(splitter.to_dict())


@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_to_dict_from_dict_json_and_pickle_round_trip(cls: type[SpanNodeParser]) -> None:
    parser = make(cls, 48, include_prev_next_rel=False, length="utf16")
    data = parser.to_dict()
    assert data["class_name"] == cls.class_name() == cls.__name__
    copies = [
        cls.from_dict(data),
        cls.from_json(parser.to_json()),
        pickle.loads(pickle.dumps(parser)),
    ]
    text = "A short text. It has two paragraphs.\n\nThis is the second one, a bit longer. " * 5
    expected = summary(parser([Document(text=text, doc_id="d")]))
    for copy in copies:
        assert type(copy) is cls and copy.to_dict() == data
        assert summary(copy([Document(text=text, doc_id="d")])) == expected


PICKLE_TEXT = (
    "# Notes\r\n\r\nSame line. Same line. Same line.\r\n\r\n"
    "河流日志是住在河边的人记录水位的笔记。每天写一行：日期、水位、天气。\n\n"
    "Emoji 👩\u200d👩\u200d👧 and e\u0301 here. Same line. Same line.\n"
)


def pickle_documents() -> list[Document]:
    return [
        Document(text=PICKLE_TEXT, metadata={"source": "notes.md"}, doc_id="notes"),
        Document(text="A second text.\r\rIt repeats. It repeats. It repeats.", doc_id="two"),
    ]


def parse_in_worker(parser: SpanNodeParser, documents: list[Document]) -> list[tuple[Any, ...]]:
    """Run in a worker process: the summary of the nodes the pickled parser makes."""
    return summary(parser(documents))


def test_all_parsers_are_every_exported_parser() -> None:
    exported = {
        getattr(adapter, name)
        for name in adapter.__all__
        if name.startswith("Span") and name.endswith("NodeParser")
    }
    bases = {SpanNodeParser, adapter.SpanBudgetNodeParser, adapter.SpanSizedNodeParser}
    code = {adapter.SpanCodeNodeParser}  # takes a language: tests/test_code_adapters.py
    assert set(ALL_PARSERS) == exported - bases - code


@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_pickled_parser_gives_the_same_nodes(cls: type[SpanNodeParser]) -> None:
    parser = make(cls, 24, chunk_overlap=6) if "chunk_overlap" in cls.model_fields else make(cls)
    expected = parse_in_worker(parser, pickle_documents())
    assert len(expected) > 4
    copy = pickle.loads(pickle.dumps(parser))
    assert type(copy) is cls and copy.to_dict() == parser.to_dict()
    assert parse_in_worker(copy, pickle_documents()) == expected
    for document in pickle_documents():
        nodes = copy([document])
        assert_exact(document.text, nodes)


@pytest.fixture(scope="module", params=["spawn", "fork"])
def process_pool(request: pytest.FixtureRequest) -> Iterator[ProcessPoolExecutor]:
    """One pool of two worker processes per start method, shared by the module's tests."""
    method: str = request.param
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"the {method!r} start method is not available on this platform")
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        yield pool


@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_every_parser_works_in_a_process_pool(
    cls: type[SpanNodeParser], process_pool: ProcessPoolExecutor
) -> None:
    parser = make(cls, 24, chunk_overlap=6) if "chunk_overlap" in cls.model_fields else make(cls)
    documents = pickle_documents()
    expected = parse_in_worker(parser, documents)
    futures = [process_pool.submit(parse_in_worker, parser, documents) for _ in range(2)]
    for future in futures:
        assert future.result(timeout=120) == expected


def test_paragraph_parser_is_the_budgeted_paragraph_splitter() -> None:
    """The paragraph parser packs paragraphs under a cl100k_base budget, overlap 0 by
    default: the core ``ParagraphSplitter`` with ``length="cl100k_base"``."""
    parser = SpanParagraphNodeParser(chunk_size=24)
    assert (parser.chunk_overlap, parser.length) == (0, "cl100k_base")
    text = PROSE + "\n\n" + PICKLE_TEXT
    core = ParagraphSplitter(24, length="cl100k_base").split(text)
    assert len(core) > 4
    assert [(c.start, c.end) for c in parser.split_chunks(text)] == [(c.start, c.end) for c in core]
    nodes = parser([Document(text=text)])
    assert_exact(text, nodes)
    assert max(ntokens(n.get_content()) for n in nodes) <= 24


def test_custom_id_func_must_be_passed_again() -> None:
    def numbered(i: int, node: BaseNode) -> str:
        return f"{node.node_id}-{i}"

    parser = SpanRecursiveNodeParser(chunk_size=16, chunk_overlap=0, id_func=numbered)
    with pytest.raises(ParameterTypeError, match="numbered"):
        SpanRecursiveNodeParser.from_dict(parser.to_dict())
    again = SpanRecursiveNodeParser.from_dict(parser.to_dict(), id_func=numbered)
    nodes = again([Document(text=PROSE, doc_id="d")])
    assert [n.node_id for n in nodes] == [f"d-{i}" for i in range(len(nodes))]


# -- IngestionPipeline: cache keys, run/arun, workers -----------------------------------


class _Words:
    """A stand-in for a LangChain text splitter (LangchainNodeParser only calls split_text)."""

    def __init__(self, per_chunk: int) -> None:
        self.per_chunk = per_chunk

    def split_text(self, text: str) -> list[str]:
        words = text.split()
        return [
            " ".join(words[i : i + self.per_chunk]) for i in range(0, len(words), self.per_chunk)
        ]


def _stale(first: Any, second: Any, documents: list[Document]) -> bool:
    """Whether a pipeline with ``second`` returns the nodes ``first`` cached."""
    cache = IngestionCache()
    one = IngestionPipeline(transformations=[first], cache=cache).run(documents=documents)
    two = IngestionPipeline(transformations=[second], cache=cache).run(documents=documents)
    fresh = second(documents)
    return (
        [n.get_content() for n in two]
        == [n.get_content() for n in one]
        != [n.get_content() for n in fresh]
    )


def test_stock_parsers_share_cache_entries_across_settings() -> None:
    documents = [Document(text=PROSE, doc_id="d")]
    whitespace = SentenceSplitter(chunk_size=12, chunk_overlap=0, tokenizer=str.split)
    tiktoken_ = SentenceSplitter(chunk_size=12, chunk_overlap=0, tokenizer=TOKENS)
    assert get_transformation_hash(documents, whitespace) == get_transformation_hash(
        documents, tiktoken_
    )
    assert _stale(whitespace, tiktoken_, documents)
    small, large = LangchainNodeParser(_Words(3)), LangchainNodeParser(_Words(9))
    assert get_transformation_hash(documents, small) == get_transformation_hash(documents, large)
    assert _stale(small, large, documents)


def _variant(value: Any) -> Any:
    if value is None:  # abbreviations: spansplit's defaults
        return ["Mr."]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value - 1
    if isinstance(value, list):
        return value[:-1]
    if value == "cl100k_base":
        return "chars"
    if value == "/":  # header_path_separator
        return " > "
    if value == "raise":  # on_error
        return "skip"
    raise AssertionError(f"no variant for {value!r}")


@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_every_setting_changes_the_cache_key(cls: type[SpanNodeParser]) -> None:
    documents = [Document(text=PROSE, doc_id="d")]
    base = make(cls, 16, chunk_overlap=4) if "chunk_overlap" in cls.model_fields else make(cls, 16)
    settings_ = {
        name: value
        for name, value in base.to_dict().items()
        if name not in ("class_name", "id_func")
    }
    assert set(settings_) | {"id_func", "callback_manager"} == set(cls.model_fields)
    key = get_transformation_hash(documents, base)
    for name, value in settings_.items():
        variant = "markdown" if name == "preset" else _variant(value)
        changed = cls(**{**settings_, name: variant})
        assert get_transformation_hash(documents, changed) != key, name


def test_differing_parsers_never_share_cached_nodes() -> None:
    documents = [Document(text=PROSE, doc_id="d")]
    tokens = SpanRecursiveNodeParser(chunk_size=12, chunk_overlap=0)
    chars = SpanRecursiveNodeParser(chunk_size=12, chunk_overlap=0, length="chars")
    assert not _stale(tokens, chars, documents)
    cache = IngestionCache()
    IngestionPipeline(transformations=[tokens], cache=cache).run(documents=documents)
    cached = IngestionPipeline(transformations=[chars], cache=cache).run(documents=documents)
    assert summary(cached) == summary(chars(documents))


def _documents() -> list[Document]:
    return [
        Document(
            text=f"Chapter {d}.\n\n" + "It was a dark night. The rain fell. " * (10 + d),
            metadata={"chapter": d},
            doc_id=f"chapter-{d}",
        )
        for d in range(6)
    ]


def test_pipeline_run_and_arun_give_the_same_exact_nodes() -> None:
    parser = SpanSentenceNodeParser(chunk_size=24, chunk_overlap=6)
    documents = _documents()
    ran = IngestionPipeline(transformations=[parser]).run(documents=documents)
    aran = asyncio.run(IngestionPipeline(transformations=[parser]).arun(documents=documents))
    assert summary(ran) == summary(aran)
    for document in documents:
        assert_exact(document.text, [n for n in ran if n.ref_doc_id == document.doc_id])


def test_two_workers_give_the_same_nodes_as_one() -> None:
    parser = SpanRecursiveNodeParser(chunk_size=16, chunk_overlap=4)
    documents = _documents()
    one = IngestionPipeline(transformations=[parser]).run(documents=documents)
    two = IngestionPipeline(transformations=[parser]).run(documents=documents, num_workers=2)
    assert summary(two) == summary(one)


# -- generated Unicode and the real corpus -----------------------------------------------

PIECES = st.sampled_from(
    ["word", "Ünïcødé", " ", "  ", "\t", "\n", "\r\n", "\r", "\n\n", "。", "中文句子", "、",
     "👩‍👩‍👧‍👦", "e\u0301", "🇫🇷", ". ", "! ", "# Title\n", "---\n", "```\ncode\n```\n"]
)  # fmt: skip
TEXTS = st.lists(PIECES, max_size=60).map("".join)


def test_a_cluster_over_what_the_metadata_leaves_names_chunk_size_and_the_metadata() -> None:
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    # (the header_path of the text under "## Title": the long heading above it)
    text = "# word" + "\u00dcn\u00efc\u00f8d\u00e9" * 12 + "\n\n## Title\n\n" + family * 3 + "\n"
    parser = make(SpanMarkdownNodeParser, 80, length="cl100k_base")
    with pytest.raises(DocumentError, match=r"chunk_size=80 less \d+ .* for the metadata"):
        parser([Document(text=text)])


@settings(max_examples=60)
@given(text=TEXTS, size=st.integers(20, 60), chars=st.booleans())
def test_generated_text_offsets_and_lines_exact(text: str, size: int, chars: bool) -> None:
    length = "chars" if chars else "cl100k_base"
    for cls in ALL_PARSERS:
        document = Document(text=text)
        room = 60 if cls is SpanMarkdownNodeParser else 0  # its header_path is in the budget
        try:
            nodes = make(cls, size + room, length=length)([document])
        except (InvalidParameterError, DocumentError) as error:
            # A generated heading (emoji sequences, 10+ tokens each) can make the header
            # path fill the budget, or leave less than one emoji: the typed error says so.
            assert cls is SpanMarkdownNodeParser and "metadata" in str(error), error
            continue
        assert_exact(text, nodes)
        chained = make(SpanRecursiveNodeParser, 20 + room, length=length)(nodes)
        assert_exact(text, chained)


@pytest.mark.corpus
def test_corpus_book_offsets_exact() -> None:
    path = corpus_path("english_prose/pg84_frankenstein.gitenberg.crlf.txt")
    text = path.read_bytes().decode("utf-8")
    assert text.startswith("\ufeff") and "\r\n" in text
    document = Document(text=text, metadata={"file_name": path.name})
    nodes = SpanRecursiveNodeParser(chunk_size=256, chunk_overlap=32)([document])
    assert len(nodes) > 100
    assert_exact(text, nodes)
    assert max(ntokens(n.get_content(MetadataMode.EMBED)) for n in nodes) <= 256


@pytest.mark.corpus
@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_corpus_markdown_chained_offsets_exact(cls: type[SpanNodeParser]) -> None:
    path = corpus_path("chinese/trpl-zh-cn/src/ch08-02-strings.md")
    text = path.read_bytes().decode("utf-8")
    document = Document(text=text, metadata={"file_name": path.name})
    nodes = IngestionPipeline(transformations=[make(SpanBlockNodeParser, 400), make(cls, 96)]).run(
        documents=[document]
    )
    assert len(nodes) > 10
    assert_exact(text, nodes)


@pytest.mark.corpus
def test_recursive_from_preset_round_trips_and_stays_exact() -> None:
    path = corpus_path("markdown_docs/rust-lang-book/src/ch08-02-strings.md")
    text = path.read_bytes().decode("utf-8")
    parser = SpanRecursiveNodeParser.from_preset("markdown", chunk_size=128, chunk_overlap=16)
    assert parser.separators_are_regex and parser.keep_separator == "start"
    copy = SpanRecursiveNodeParser.from_json(parser.to_json())
    assert copy.to_dict() == parser.to_dict()
    nodes = copy([Document(text=text)])
    assert len(nodes) > 10
    assert_exact(text, nodes)
    with pytest.raises(InvalidParameterError, match="preset"):
        SpanRecursiveNodeParser.from_preset("no-such-preset")


# -- drop-in: what LlamaIndex's parsers take and promise ---------------------------------


def words(text: str) -> list[str]:
    """A LlamaIndex-style tokenizer (text -> list of tokens): whitespace-separated words."""
    return text.split()


def letters(text: str) -> list[str]:
    """Another tokenizer: one token per letter or digit."""
    return [c for c in text if c.isalnum()]


def word_count(text: str) -> int:
    """A length function (text -> int): whitespace-separated words."""
    return len(text.split())


@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_unknown_keywords_raise_type_error_as_llama_index_parsers_do(
    cls: type[SpanNodeParser],
) -> None:
    with pytest.raises(TypeError, match="chunk_sise"):
        SentenceSplitter(chunk_sise=8)  # type: ignore[call-arg]
    with pytest.raises(ParameterTypeError, match="keyword argument 'chunk_sise'") as info:
        cls(chunk_sise=8)
    assert "Did you mean 'chunk_size'?" in str(info.value)
    for stock_setting in ("separator", "paragraph_separator", "secondary_chunking_regex"):
        with pytest.raises(ParameterTypeError, match=rf"'{stock_setting}'.*LlamaIndex's"):
            cls(**{stock_setting: " "})


@pytest.mark.parametrize("cls", BUDGETED)
def test_tokenizer_counts_tokens_as_llama_index_does(cls: type[SpanNodeParser]) -> None:
    """``tokenizer=`` is a callable from text to a list; a chunk holds at most ``chunk_size``
    of its tokens, as in LlamaIndex's SentenceSplitter(tokenizer=...)."""
    text = PROSE + "\n\n" + PROSE
    nodes = make(cls, 12, tokenizer=words)([Document(text=text)])
    assert_exact(text, nodes)
    # At most 12 of its tokens (pieces of a split paragraph are packed evenly, not to 12).
    assert 6 <= max(len(words(n.get_content(MetadataMode.EMBED))) for n in nodes) <= 12
    stock = SentenceSplitter(chunk_size=12, chunk_overlap=0, tokenizer=words).split_text(text)
    assert max(len(words(chunk)) for chunk in stock) == 12  # the same unit, the same budget
    assert make(cls, 12, tokenizer=words).to_dict()["length"] == {
        "length_name": f"{__name__}.words"
    }
    with pytest.raises(InvalidParameterError, match="tokenizer or length, not both"):
        make(cls, 12, tokenizer=words, length="chars")


def test_block_parser_takes_a_tokenizer_too() -> None:
    text = "# Notes\n\n" + "\n".join(["a few words on a line"] * 12) + "\n"
    parser = SpanBlockNodeParser(chunk_size=12, tokenizer=words)
    nodes = parser([Document(text=text)])
    assert_exact(text, nodes)
    assert "".join(n.get_content() for n in nodes) == text  # blocks tile the text
    assert max(len(words(n.get_content())) for n in nodes) <= 12  # no line is over the target
    assert parser.to_dict()["length"] == {"length_name": f"{__name__}.words"}


def test_tokenizer_as_llama_index_builds_it() -> None:
    """``get_tokenizer()`` (LlamaIndex's default: tiktoken's encode with every special token
    allowed) works as ``tokenizer=`` and is saved under a name that says what it is."""
    parser = SpanSentenceNodeParser(chunk_size=16, chunk_overlap=0, tokenizer=TOKENS)
    saved = parser.to_dict()["length"]["length_name"]
    assert saved == "partial(tiktoken.core.Encoding.encode of cl100k_base, allowed_special='all')"
    nodes = parser([Document(text=PROSE)])
    assert_exact(PROSE, nodes)
    assert max(ntokens(n.get_content()) for n in nodes) <= 16


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def test_two_tokenizers_of_one_model_type_never_share_cached_nodes() -> None:
    """A ``tokenizers.Tokenizer`` was saved by its model type alone ("bpe tokenizer"): any
    two BPE tokenizers (GPT-2, Llama ...) had one cache key, and a pipeline got nodes
    chunked for the other, over its budget. Its name now holds a digest of its JSON."""
    from tokenizers import Tokenizer, models

    trained = _trained_tokenizer()
    letters = Tokenizer(
        models.BPE(vocab={c: i for i, c in enumerate("abcdefghijklmnopqrstuvwxyz .")}, merges=[])
    )
    documents = [Document(text="the quick brown fox jumps over the lazy dog. " * 10, id_="d")]
    first, second = (
        SpanSentenceNodeParser(chunk_size=20, chunk_overlap=0, length=t) for t in (trained, letters)
    )
    assert first.to_dict()["length"] != second.to_dict()["length"]
    assert not _stale(first, second, documents)
    cache = IngestionCache()
    IngestionPipeline(transformations=[first], cache=cache).run(documents=documents)
    nodes = IngestionPipeline(transformations=[second], cache=cache).run(documents=documents)
    assert max(len(letters.encode(n.get_content()).ids) for n in nodes) <= 20


def _trained_tokenizer() -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.BpeTrainer(vocab_size=120, special_tokens=["[UNK]"])
    tokenizer.train_from_iterator([PROSE, PICKLE_TEXT], trainer)
    return tokenizer


LENGTH_FORMS: dict[str, Callable[[], tuple[Any, Callable[[str], int], Any]]] = {
    # form -> (what length= gets, how a node is measured, what to_dict saves)
    "None": lambda: (None, len, None),
    "chars": lambda: ("chars", len, "chars"),
    "utf8": lambda: ("utf8", lambda t: len(t.encode("utf-8")), "utf8"),
    "utf16": lambda: ("utf16", lambda t: len(t.encode("utf-16-le")) // 2, "utf16"),
    "encoding name": lambda: ("cl100k_base", ntokens, "cl100k_base"),
    "model name": lambda: ("gpt-4", ntokens, "gpt-4"),
    "tiktoken Encoding": lambda: (
        resolve_length("cl100k_base").encoding,  # type: ignore[attr-defined]
        ntokens,
        "cl100k_base",
    ),
    "LengthFunction": lambda: (
        resolve_length("utf16"),
        lambda t: len(t.encode("utf-16-le")) // 2,
        "utf16",
    ),
    "named LengthFunction": lambda: (
        CallableLength(word_count, "words-v1"),
        word_count,
        {"length_name": "words-v1"},
    ),
    "callable": lambda: (word_count, word_count, {"length_name": f"{__name__}.word_count"}),
    "Hugging Face tokenizer": lambda: (
        (tokenizer := _trained_tokenizer()),
        lambda t: len(tokenizer.encode(t, add_special_tokens=False).ids),
        {"length_name": f"bpe tokenizer {_digest(tokenizer.to_str())}"},
    ),
}


@pytest.mark.parametrize("form", list(LENGTH_FORMS))
@pytest.mark.parametrize("cls", BUDGETED)
def test_length_takes_every_form_of_resolve_length(cls: type[SpanNodeParser], form: str) -> None:
    """Each form keeps its budget, saves a JSON-able value, pickles and gives the same
    nodes in the copy (a name, or the object in the pickle)."""
    length, measure, saved = LENGTH_FORMS[form]()
    parser = make(cls, 24, length=length)
    text = PROSE + "\n\n" + PICKLE_TEXT
    document = Document(text=text, doc_id="d")
    nodes = parser([document])
    assert_exact(text, nodes)
    assert max(measure(n.get_content(MetadataMode.EMBED)) for n in nodes) <= 24
    assert parser.to_dict()["length"] == saved
    assert json.loads(parser.to_json())["length"] == saved
    copy = pickle.loads(pickle.dumps(parser))
    assert summary(copy([document])) == summary(nodes)


def test_saved_names_are_stable_across_processes() -> None:
    """The cache key of a parser with a tokenizer is the same in a fresh interpreter."""
    script = (
        "import test_llama_index_adapter as t\n"
        "from llama_index.node_parser.spansplit import SpanSentenceNodeParser as P\n"
        "print(repr(P(chunk_size=16, chunk_overlap=0, tokenizer=t.words).to_dict()['length']))\n"
        "print(repr(P(chunk_size=16, chunk_overlap=0, tokenizer=t.TOKENS).to_dict()['length']))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    parsers = [
        SpanSentenceNodeParser(chunk_size=16, chunk_overlap=0, tokenizer=tokenizer)
        for tokenizer in (words, TOKENS)
    ]
    here = [repr(parser.to_dict()["length"]) for parser in parsers]
    assert done.stdout.splitlines() == here


def test_tokenizers_of_other_names_never_share_cached_nodes() -> None:
    documents = [Document(text=PROSE, doc_id="d")]
    by_words = SpanRecursiveNodeParser(chunk_size=12, chunk_overlap=0, tokenizer=words)
    by_letters = SpanRecursiveNodeParser(chunk_size=12, chunk_overlap=0, tokenizer=letters)
    assert get_transformation_hash(documents, by_words) != get_transformation_hash(
        documents, by_letters
    )
    assert not _stale(by_words, by_letters, documents)


def test_a_tokenizer_that_cannot_be_pickled_is_a_clear_error() -> None:
    """LlamaIndex drops an attribute it cannot pickle (with a warning) and the copy would
    count in cl100k_base; here pickling fails and says why, also through num_workers."""
    parser = SpanSentenceNodeParser(chunk_size=12, chunk_overlap=0, tokenizer=lambda t: t.split())
    assert parser([Document(text=PROSE)])  # works in this process
    with pytest.raises(ParameterTypeError, match=r"cannot be pickled.*num_workers"):
        pickle.dumps(parser)
    with pytest.raises(ParameterTypeError, match="cannot be pickled"):
        IngestionPipeline(transformations=[parser]).run(documents=_documents(), num_workers=2)


def test_a_length_saved_by_name_must_be_passed_again() -> None:
    parser = SpanRecursiveNodeParser(chunk_size=12, chunk_overlap=0, tokenizer=words)
    data = parser.to_dict()
    with pytest.raises(ParameterTypeError, match=r"saved by name only.*tokenizer=") as info:
        SpanRecursiveNodeParser.from_dict(data)
    assert f"{__name__}.words" in str(info.value)
    documents = [Document(text=PROSE, doc_id="d")]
    for again in (
        SpanRecursiveNodeParser.from_dict(data, tokenizer=words),
        SpanRecursiveNodeParser.from_json(parser.to_json(), tokenizer=words),
    ):
        assert again.to_dict() == data
        assert summary(again(documents)) == summary(parser(documents))


@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_from_defaults_is_the_constructor(cls: type[SpanNodeParser]) -> None:
    fields = {"chunk_size": 40} if "chunk_size" in cls.model_fields else {}
    if "chunk_overlap" in cls.model_fields:
        fields["chunk_overlap"] = 4
    made = cls.from_defaults(**fields)
    assert type(made) is cls and made.to_dict() == cls(**fields).to_dict()
    handler = LlamaDebugHandler()
    watched = cls.from_defaults(callback_manager=CallbackManager([handler]), **fields)
    assert watched.callback_manager.handlers == [handler]
    with pytest.raises(TypeError, match="chunk_sise"):
        cls.from_defaults(chunk_sise=3)


@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_include_metadata_false_adds_no_metadata_as_llama_index(cls: type[SpanNodeParser]) -> None:
    text = "alpha\r\nbeta gamma.\n\nDelta epsilon. " * 8
    document = Document(text=text, metadata={"source": "a.txt"})
    nodes = make(cls, 24, include_metadata=False)([document])
    stock = SentenceSplitter(chunk_size=24, chunk_overlap=0, include_metadata=False)([document])
    assert all(n.metadata == {} for n in [*nodes, *stock])  # no line numbers either
    assert_exact(text, nodes, lines=False)
    assert all(n.get_content(MetadataMode.EMBED) == n.get_content() for n in nodes)
    # and nothing is taken from the budget for metadata that is not shown
    full = make(cls, 24, include_metadata=False).split_text(text)
    assert [n.get_content() for n in nodes] == full


def _events(handler: LlamaDebugHandler, kind: CBEventType) -> list[tuple[Any, Any]]:
    return [(start.payload, end.payload) for start, end in handler.get_event_pairs(kind)]


@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_callback_events_as_the_stock_parsers_emit_them(cls: type[SpanNodeParser]) -> None:
    """One NODE_PARSING pair per call; one CHUNKING pair per non-empty text: the text in,
    its chunk texts out (which are the nodes' texts) — as SentenceSplitter does."""
    documents = [
        Document(text=PROSE, metadata={"title": "Fox"}, doc_id="a"),
        Document(text="Short one. " * 9, doc_id="b"),
    ]
    ours, stock = LlamaDebugHandler(), LlamaDebugHandler()
    parser = make(cls, 40, callback_manager=CallbackManager([ours]))
    nodes = parser.get_nodes_from_documents(documents)
    SentenceSplitter(
        chunk_size=40, chunk_overlap=0, callback_manager=CallbackManager([stock])
    ).get_nodes_from_documents(documents)
    for kind in (CBEventType.NODE_PARSING, CBEventType.CHUNKING):
        assert len(_events(ours, kind)) == len(_events(stock, kind)), kind
    chunking = _events(ours, CBEventType.CHUNKING)
    assert [start[EventPayload.CHUNKS] for start, _ in chunking] == [[d.text] for d in documents]
    chunk_texts = [chunk for _, end in chunking for chunk in end[EventPayload.CHUNKS]]
    assert chunk_texts == [n.get_content() for n in nodes]
    [(start, end)] = _events(ours, CBEventType.NODE_PARSING)
    assert start[EventPayload.DOCUMENTS] == documents and end[EventPayload.NODES] == nodes
    ours.flush_event_logs()
    chunks = parser.split_text(PROSE)
    assert _events(ours, CBEventType.CHUNKING) == [
        ({EventPayload.CHUNKS: [PROSE]}, {EventPayload.CHUNKS: chunks})
    ]


# -- the user flows: pipeline cache and workers, vector index, persist and reload --------------


def flow_documents() -> list[Document]:
    """Documents with CRLF and lone CR line endings, repeated sentences and metadata."""
    return [
        Document(
            text=f"# Chapter {d}\r\n\r\n" + "It was a dark night. The rain fell.\r\n" * (6 + d)
            + "\rSame words again.\n\nSame words again.\n",
            metadata={"chapter": d},
            doc_id=f"chapter-{d}",
        )
        for d in range(5)
    ]  # fmt: skip


def assert_exact_by_document(documents: Sequence[Document], nodes: Sequence[BaseNode]) -> None:
    texts = {d.doc_id: d.text for d in documents}
    assert {n.ref_doc_id for n in nodes} == set(texts)
    for doc_id, text in texts.items():
        assert_exact(text, [n for n in nodes if n.ref_doc_id == doc_id])


@pytest.mark.parametrize("tokenizer", [None, words], ids=["cl100k_base", "tokenizer"])
def test_pipeline_with_cache_and_two_workers_keeps_exact_offsets(tokenizer: Any) -> None:
    documents = flow_documents()
    parser = SpanSentenceNodeParser(chunk_size=20, chunk_overlap=5, tokenizer=tokenizer)
    cache = IngestionCache()
    first = IngestionPipeline(transformations=[parser], cache=cache).run(
        documents=documents, num_workers=2
    )
    assert_exact_by_document(documents, first)
    assert summary(first) == summary(parser(documents))
    assert cache.cache.get_all(collection=cache.collection)  # the workers' entries came back
    cached = IngestionPipeline(transformations=[parser], cache=cache).run(
        documents=documents, num_workers=2
    )
    assert [n.node_id for n in cached] == [n.node_id for n in first]  # served from the cache
    assert_exact_by_document(documents, cached)


class HashedWordsEmbedding(BaseEmbedding):
    """A deterministic stand-in for an embedding model (no network): hashed word counts."""

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * 64
        for word in regex.findall(r"\w+", text.lower()):
            vector[zlib.crc32(word.encode()) % 64] += 1.0
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        return [x / norm for x in vector]

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._vector(text)

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)


def test_vector_index_persist_and_reload_keep_exact_offsets(tmp_path: Path) -> None:
    documents = flow_documents()
    embed_model = HashedWordsEmbedding()
    parser = SpanRecursiveNodeParser(chunk_size=24, chunk_overlap=6)
    index = VectorStoreIndex.from_documents(
        documents, transformations=[parser], embed_model=embed_model
    )
    stored = list(index.docstore.docs.values())
    assert_exact_by_document(documents, stored)

    def hits(index: VectorStoreIndex) -> list[tuple[Any, ...]]:
        found = index.as_retriever(similarity_top_k=4).retrieve("dark rain night chapter 3")
        assert len(found) == 4
        for hit in found:
            text = next(d.text for d in documents if d.doc_id == hit.node.ref_doc_id)
            assert_exact(text, [hit.node])
        return [(hit.node.node_id, *summary([hit.node])) for hit in found]

    before = hits(index)
    index.storage_context.persist(persist_dir=str(tmp_path))
    reloaded = load_index_from_storage(
        StorageContext.from_defaults(persist_dir=str(tmp_path)), embed_model=embed_model
    )
    assert hits(reloaded) == before  # type: ignore[arg-type]
    assert_exact_by_document(documents, list(reloaded.docstore.docs.values()))


def test_the_markdown_preset_keeps_its_structure_through_the_parser() -> None:
    text = "# T\n\n```bash\n# not a heading\necho 1\n```\n\nAfter the fence.\n"
    parser = SpanRecursiveNodeParser.from_preset(
        "markdown", chunk_size=40, chunk_overlap=0, length="chars"
    )
    texts = [node.text for node in parser.get_nodes_from_documents([Document(text=text)])]
    assert any("```bash\n# not a heading\necho 1\n```" in t for t in texts)
    copy = SpanRecursiveNodeParser.from_dict(parser.to_dict())
    assert [n.text for n in copy.get_nodes_from_documents([Document(text=text)])] == texts


def test_page_numbers_and_a_bad_document_named_or_skipped(caplog: pytest.LogCaptureFixture) -> None:
    documents = [
        Document(text="Page one.\fPage two.", metadata={"file_name": "a.pdf"}),
        Document(text="bad\x00text", metadata={"file_name": "b.pdf"}),
    ]
    strict = SpanRecursiveNodeParser(
        chunk_size=30, chunk_overlap=0, length="chars", separators=["\f", " ", ""]
    )
    with pytest.raises(SpansplitError, match=r"'b.pdf'.*NUL"):
        strict.get_nodes_from_documents(documents)
    lenient = SpanRecursiveNodeParser(
        chunk_size=30,
        chunk_overlap=0,
        length="chars",
        separators=["\f", " ", ""],
        add_page_numbers=True,
        on_error="skip",
    )
    nodes = lenient.get_nodes_from_documents(documents)
    assert [(n.text, n.metadata["page_start"], n.metadata["page_end"]) for n in nodes] == [
        ("Page one.", 1, 1),
        ("Page two.", 2, 2),
    ]
    assert "page_start" not in nodes[0].get_content(MetadataMode.EMBED)
    assert "skipped b.pdf" in caplog.text
    # without a file name, by its source (as LangChain's names documents), else its id
    sourced = Document(text="bad\x00text", metadata={"source": "c.txt"}, doc_id="c")
    bare = Document(text="bad\x00text", doc_id="d")
    assert lenient.get_nodes_from_documents([sourced, bare]) == []
    assert "skipped c.txt" in caplog.text and "skipped d:" in caplog.text


# -- settings changed after construction ------------------------------------------------

CHANGED_TEXT = "Alpha beta gamma. Delta epsilon zeta.\n" * 60


def _assign(parser: SpanNodeParser, monkeypatch: pytest.MonkeyPatch) -> SpanNodeParser:
    parser.chunk_size = 24  # type: ignore[attr-defined]
    return parser


def _settings(parser: SpanNodeParser, monkeypatch: pytest.MonkeyPatch) -> SpanNodeParser:
    monkeypatch.setattr(Settings, "_node_parser", parser)  # restored after the test
    Settings.chunk_size = 24  # LlamaIndex sets node_parser.chunk_size
    return parser


def _copy(parser: SpanNodeParser, monkeypatch: pytest.MonkeyPatch) -> SpanNodeParser:
    return parser.model_copy(update={"chunk_size": 24})


@pytest.mark.parametrize("change", [_assign, _settings, _copy], ids=["assign", "Settings", "copy"])
@pytest.mark.parametrize("metadata", [{}, {"title": "Greek letters"}], ids=["bare", "metadata"])
@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_a_changed_chunk_size_is_used_as_at_construction(
    cls: type[SpanNodeParser],
    metadata: dict[str, Any],
    change: Callable[[SpanNodeParser, pytest.MonkeyPatch], SpanNodeParser],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``chunk_size`` changed after construction (assigned, through LlamaIndex's
    ``Settings.chunk_size``, or by ``model_copy``) splits as a parser built with it, as
    the stock SentenceSplitter does; the pipeline's cache key (``to_dict``) agrees."""
    documents = [Document(text=CHANGED_TEXT, metadata=metadata, doc_id="d")]
    stock = SentenceSplitter(chunk_size=4096, chunk_overlap=0)
    stock.chunk_size = 24
    assert summary(stock(documents)) == summary(
        SentenceSplitter(chunk_size=24, chunk_overlap=0)(documents)
    )
    parser = make(cls, 4096, length="chars" if cls is SpanBlockNodeParser else "cl100k_base")
    assert len(parser(documents)) == 1  # the size at construction: its splitter is cached
    changed = change(parser, monkeypatch)
    fresh = make(cls, 24, length=changed.length)  # type: ignore[attr-defined]
    expected = summary(fresh(documents))
    assert len(expected) > 10
    assert changed.to_dict() == fresh.to_dict()
    assert summary(changed(documents)) == expected
    assert changed.split_text(CHANGED_TEXT) == fresh.split_text(CHANGED_TEXT)
    run = IngestionPipeline(transformations=[changed], cache=IngestionCache()).run
    assert summary(run(documents=documents)) == expected


def test_changed_overlap_length_and_separators_are_used() -> None:
    text = "one two three four five six seven eight nine ten. " * 12
    parser = SpanRecursiveNodeParser(chunk_size=40, chunk_overlap=0)
    assert parser.split_text(text) == SpanRecursiveNodeParser(
        chunk_size=40, chunk_overlap=0
    ).split_text(text)
    parser.chunk_overlap = 10
    parser.length = "chars"
    parser.separators = [". ", " ", ""]
    fresh = SpanRecursiveNodeParser(
        chunk_size=40, chunk_overlap=10, length="chars", separators=[". ", " ", ""]
    )
    assert parser.split_text(text) == fresh.split_text(text)
    assert max(len(chunk) for chunk in parser.split_text(text)) <= 40


def test_bad_settings_made_after_construction_raise_the_constructors_errors() -> None:
    """A combination the constructor rejects is rejected at the next split with the same
    typed error, whichever entry point splits, also where metadata shrinks the budget."""
    with pytest.raises(InvalidParameterError, match="chunk_overlap=500") as at_init:
        SpanRecursiveNodeParser(chunk_size=100, chunk_overlap=500)
    parser = SpanRecursiveNodeParser(chunk_size=100, chunk_overlap=0)
    parser.chunk_overlap = 500
    documents = [Document(text=PROSE), Document(text=PROSE, metadata={"title": "Fox"})]
    for split in (
        lambda: parser.get_nodes_from_documents(documents[:1]),
        lambda: parser.get_nodes_from_documents(documents[1:]),
        lambda: parser.split_text(PROSE),
        lambda: parser.split_text_metadata_aware(PROSE, "title: Fox"),
        lambda: IngestionPipeline(transformations=[parser]).run(documents=documents),
    ):
        with pytest.raises(InvalidParameterError) as at_split:
            split()
        assert str(at_split.value) == str(at_init.value)
    with pytest.raises(InvalidParameterError) as defaulted:
        SpanSentenceNodeParser(chunk_size=128)  # (LlamaIndex's default overlap is 200)
    assert str(defaulted.value) == (
        "chunk_overlap=200: must be smaller than chunk_size=128 (the default "
        "chunk_overlap is 200: pass a smaller one)"
    )
    copy = SpanSentenceNodeParser(chunk_size=64, chunk_overlap=20).model_copy(
        update={"chunk_size": 16}
    )
    with pytest.raises(
        InvalidParameterError, match="chunk_overlap=20: must be smaller than chunk_size=16"
    ):
        copy.get_nodes_from_documents(documents)
    shrunk = SpanParagraphNodeParser(chunk_size=64)
    shrunk.chunk_size = 0
    with pytest.raises(InvalidParameterError, match="chunk_size=0: must be at least 1"):
        shrunk.get_nodes_from_documents(documents[1:])  # not a message about the metadata
    shrunk.chunk_size = "64"  # type: ignore[assignment]  # pydantic does not check it here
    with pytest.raises(ParameterTypeError, match="chunk_size must be int"):
        shrunk.get_nodes_from_documents(documents)
    parser.chunk_overlap = 10  # valid again: splits again
    assert parser.get_nodes_from_documents(documents)


# -- a text that is not plain text: named, or skipped --------------------------------


@pytest.mark.parametrize("metadata", [{}, {"title": "Shown"}], ids=["bare", "metadata"])
@pytest.mark.parametrize("bad", ["lone \ud800 surrogate", "lone \udfff", "a NUL \x00 here"])
@pytest.mark.parametrize("cls", ALL_PARSERS)
def test_a_bad_text_is_named_or_skipped_by_every_parser(
    cls: type[SpanNodeParser],
    bad: str,
    metadata: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A lone surrogate or a NUL fails as spansplit's typed error naming the document
    (``on_error="raise"``), or the document is skipped with a warning naming it, before
    LlamaIndex hashes the text (which raised ``UnicodeEncodeError`` in the budgeted
    parsers)."""
    good = Document(text="ok text.", metadata=metadata, doc_id="good")
    broken = Document(text=bad, metadata={**metadata, "file_name": "bad.txt"}, doc_id="bad")
    with pytest.raises(DocumentError, match=r"'bad\.txt'") as info:
        make(cls, 20).get_nodes_from_documents([good, broken])
    assert isinstance(info.value.error, InvalidInputError)
    assert info.value.document_id == "bad"
    nodes = make(cls, 20, on_error="skip").get_nodes_from_documents([good, broken])
    assert [(n.get_content(), n.ref_doc_id) for n in nodes] == [("ok text.", "good")]
    assert "skipped bad.txt" in caplog.text


def test_pages_of_nodes_split_again_count_on_from_their_node() -> None:
    # A parser applied to the nodes of another gives offsets in the document; its pages
    # counted from the node's own text (page 1 for a chunk on page 6: found by a review).
    text = "".join(f"page {i} text here. more words on it.\f" for i in range(1, 8))
    first = SpanSentenceNodeParser(chunk_size=60, chunk_overlap=0, add_page_numbers=True)
    again = SpanSentenceNodeParser(chunk_size=20, chunk_overlap=0, add_page_numbers=True)
    nodes = again.get_nodes_from_documents(first.get_nodes_from_documents([Document(text=text)]))
    assert len(nodes) > 3
    for node in nodes:
        assert node.start_char_idx is not None and node.end_char_idx is not None
        assert node.metadata["page_start"] == text[: node.start_char_idx].count("\f") + 1
        assert node.metadata["page_end"] == text[: node.end_char_idx - 1].count("\f") + 1
