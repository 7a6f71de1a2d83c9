"""The Markdown splitter through LangChain (``SpanMarkdownTextSplitter``, names as
``MarkdownHeaderTextSplitter`` gives them) and LlamaIndex (``SpanMarkdownNodeParser``,
``header_path`` as ``MarkdownNodeParser`` writes it, sections as parent nodes)."""

from __future__ import annotations

import pickle

import pytest
from conftest import sample

from spansplit import InvalidParameterError, ParameterTypeError, resolve_length

pytest.importorskip("pyromark")
HANDBOOK = sample("markdown.md")
CL100K = resolve_length("cl100k_base")


# --- LangChain ---------------------------------------------------------------------------------


def test_langchain_header_names_and_exact_offsets() -> None:
    langchain_core = pytest.importorskip("langchain_core")
    from langchain_spansplit import SpanMarkdownTextSplitter

    splitter = SpanMarkdownTextSplitter(
        [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")],
        chunk_size=300,
        chunk_overlap=0,
        add_start_index=True,
    )
    source = langchain_core.documents.Document(page_content=HANDBOOK, metadata={"file": "m.md"})
    documents = splitter.split_documents([source])
    for document in documents:
        m = document.metadata
        assert HANDBOOK[m["start_index"] : m["end_index"]] == document.page_content
        assert m["file"] == "m.md" and len(document.page_content) <= 300
        assert m["section_start"] <= m["start_index"] and m["end_index"] <= m["section_end"]
    parts = next(d for d in documents if d.page_content.startswith("### Parts list"))
    assert {k: v for k, v in parts.metadata.items() if k.startswith("Header")} == {
        "Header 1": "Tide Gauge Handbook",
        "Header 2": "Installation",
        "Header 3": "Parts list",
    }
    # Levels left out of headers_to_split_on are not named (they still structure the split).
    only_top = SpanMarkdownTextSplitter([("#", "Title")], chunk_size=300, chunk_overlap=0)
    names = {k for d in only_top.create_documents([HANDBOOK]) for k in d.metadata}
    assert "Title" in names and not any(k.startswith("Header") for k in names)
    # MarkdownHeaderTextSplitter's positional order: headers, return_each_line, strip_headers.
    positional = SpanMarkdownTextSplitter([("#", "Title")], False, False, chunk_size=300)
    assert positional.split_text("# A\n\ntext\n") == ["# A\n\ntext"]
    # ... and its public attributes, as it keeps them (code that ported it reads them).
    from langchain_text_splitters import MarkdownHeaderTextSplitter

    pairs = [("#", "Title"), ("###", "Part"), ("##", "Chapter")]
    theirs, ours = MarkdownHeaderTextSplitter(pairs), SpanMarkdownTextSplitter(pairs)
    assert ours.headers_to_split_on == theirs.headers_to_split_on
    assert ours.return_each_line is theirs.return_each_line is False
    assert ours.strip_headers is False and theirs.strip_headers is True  # (headings kept here)


def test_langchain_with_heading_path_gives_the_text_count_heading_path_budgets() -> None:
    """count_heading_path made chunk_size cover a heading path that a LangChain user could
    not build from the Document (spansplit.with_heading_path takes a Chunk): the path is
    in the metadata now, and langchain_spansplit.with_heading_path puts it before the text."""
    pytest.importorskip("langchain_core")
    from langchain_spansplit import SpanMarkdownTextSplitter, with_heading_path

    from spansplit.sizing.tiktoken_loader import load_encoding

    encoding = load_encoding("cl100k_base")
    splitter = SpanMarkdownTextSplitter(
        chunk_size=60, chunk_overlap=0, count_heading_path=True, length_function="cl100k_base"
    )
    documents = splitter.create_documents([HANDBOOK])
    assert len(documents) > 3
    for document in documents:
        shown = with_heading_path(document)
        assert len(encoding.encode_ordinary(shown)) <= 60
        path = document.metadata["heading_path"]
        assert shown == (f"{path}\n\n" if path else "") + document.page_content
    parts = next(d for d in documents if d.page_content.startswith("| Stilling well"))
    assert parts.metadata["heading_path"] == "Tide Gauge Handbook > Installation > Parts list"
    # Without count_heading_path there is no such key, and the helper says what to do.
    plain = SpanMarkdownTextSplitter(chunk_size=60, chunk_overlap=0).create_documents([HANDBOOK])
    assert "heading_path" not in plain[0].metadata
    with pytest.raises(InvalidParameterError, match="count_heading_path=True"):
        with_heading_path(plain[0])
    with pytest.raises(ParameterTypeError, match="LangChain Document"):
        with_heading_path("text")  # type: ignore[arg-type]


def test_langchain_empty_headers_to_split_on_names_no_heading_as_langchain() -> None:
    pytest.importorskip("langchain_core")
    from langchain_spansplit import SpanMarkdownTextSplitter
    from langchain_text_splitters import MarkdownHeaderTextSplitter

    text = "# A\n\nx\n\n## B\n\ny\n"
    theirs = MarkdownHeaderTextSplitter([]).split_text(text)
    ours = SpanMarkdownTextSplitter([], chunk_size=8, chunk_overlap=0).create_documents([text])
    assert [d.metadata for d in theirs] == [{}]
    assert len(ours) > 1
    assert [
        {k: v for k, v in d.metadata.items() if not k.startswith("section_")} for d in ours
    ] == [{} for _ in ours]
    named = SpanMarkdownTextSplitter(chunk_size=8, chunk_overlap=0).create_documents([text])
    assert named[-1].metadata["Header 2"] == "B"  # None (the default): every level


def test_langchain_markdown_documents_get_page_numbers() -> None:
    pytest.importorskip("langchain_core")
    from langchain_spansplit import SpanMarkdownTextSplitter

    splitter = SpanMarkdownTextSplitter(chunk_size=25, chunk_overlap=0, add_page_numbers=True)
    documents = splitter.create_documents(["# One\n\nFirst page.\f\n# Two\n\nSecond page."])
    assert [(d.metadata["page_start"], d.metadata["page_end"]) for d in documents] == [
        (1, 1),
        (2, 2),
    ]
    assert documents[1].metadata["Header 1"] == "Two"


def test_langchain_sections_and_pages_of_documents_split_again_are_in_the_source() -> None:
    # Split twice, start_index was in the first source already, but section_start/_end
    # and page_start/_end counted from the text split again (found by a review).
    langchain_core = pytest.importorskip("langchain_core")
    from langchain_spansplit import SpanMarkdownTextSplitter

    text = "Intro.\f\n\n# Guide\n\nFirst para of the guide.\f\n\nSecond para of the guide.\n"
    first = SpanMarkdownTextSplitter(
        chunk_size=60, chunk_overlap=0, add_start_index=True, add_page_numbers=True
    ).split_documents([langchain_core.documents.Document(page_content=text)])
    again = SpanMarkdownTextSplitter(
        chunk_size=30, chunk_overlap=0, add_start_index=True, add_page_numbers=True
    ).split_documents(first)
    assert len(again) > len(first)
    for document in again:
        m = document.metadata
        assert text[m["start_index"] : m["end_index"]] == document.page_content
        assert m["section_start"] <= m["start_index"] and m["end_index"] <= m["section_end"]
        assert m["page_start"] == text[: m["start_index"]].count("\f") + 1
        assert m["page_end"] == text[: m["end_index"] - 1].count("\f") + 1


def test_langchain_rejects_a_bad_header_pair_and_pickles() -> None:
    pytest.importorskip("langchain_core")
    from langchain_spansplit import SpanMarkdownTextSplitter

    with pytest.raises(InvalidParameterError, match=r"headers_to_split_on\[1\]"):
        SpanMarkdownTextSplitter([("#", "H1"), ("h2", "H2")])
    splitter = SpanMarkdownTextSplitter(chunk_size=200, chunk_overlap=20, add_start_index=True)
    copy = pickle.loads(pickle.dumps(splitter))
    assert [d.metadata for d in copy.create_documents([HANDBOOK])] == [
        d.metadata for d in splitter.create_documents([HANDBOOK])
    ]


# --- LlamaIndex --------------------------------------------------------------------------------


def llama_nodes(**settings: object) -> list[object]:
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    parser = SpanMarkdownNodeParser(**settings)
    return parser.get_nodes_from_documents([Document(text=HANDBOOK, metadata={"file": "m.md"})])


def test_llama_index_header_path_and_hard_budget() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core.schema import MetadataMode

    nodes = llama_nodes(chunk_size=96)
    for node in nodes:
        assert HANDBOOK[node.start_char_idx : node.end_char_idx] == node.text  # type: ignore[attr-defined]
        for mode in (MetadataMode.EMBED, MetadataMode.LLM):
            assert CL100K.count(node.get_content(mode)) <= 96  # type: ignore[attr-defined]
    paths = {node.text[:14]: node.metadata["header_path"] for node in nodes}  # type: ignore[attr-defined]
    # The node's own heading is not in its path, as in MarkdownNodeParser.
    assert paths["### Parts list"] == "/Tide Gauge Handbook/Installation/"
    assert paths["# Tide Gauge H"] == "/"
    embedded = nodes[3].get_content(MetadataMode.EMBED)  # type: ignore[attr-defined]
    assert "header_path: /" in embedded and "section_start" not in embedded


def test_llama_index_sections_are_parents_of_their_chunks() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core.schema import NodeRelationship

    nodes = llama_nodes(chunk_size=64, include_sections=True)
    sections = [n for n in nodes if n.metadata.get("markdown_node") == "section"]  # type: ignore[attr-defined]
    chunks = [n for n in nodes if n.metadata.get("markdown_node") != "section"]  # type: ignore[attr-defined]
    assert sections and chunks
    by_id = {n.node_id: n for n in nodes}  # type: ignore[attr-defined]
    for chunk in chunks:
        parent = by_id[chunk.relationships[NodeRelationship.PARENT].node_id]  # type: ignore[attr-defined]
        assert parent.start_char_idx <= chunk.start_char_idx  # type: ignore[attr-defined]
        assert chunk.end_char_idx <= parent.end_char_idx + 1  # type: ignore[attr-defined]
        assert HANDBOOK[parent.start_char_idx : parent.end_char_idx] == parent.text
    lines = HANDBOOK.splitlines()
    for section in sections:
        # Its lines, as its chunks have theirs (they had none).
        first, last = section.metadata["start_line"], section.metadata["end_line"]  # type: ignore[attr-defined]
        assert "\n".join(lines[first - 1 : last]).strip() == section.text.strip()  # type: ignore[attr-defined]
        # Its children: its own chunks and the sections directly inside it, in order,
        # covering its text (as HierarchicalNodeParser's levels), each pointing back to it.
        children = [by_id[c.node_id] for c in section.relationships[NodeRelationship.CHILD]]  # type: ignore[attr-defined]
        assert children and [c.start_char_idx for c in children] == sorted(
            c.start_char_idx for c in children
        )
        assert children[0].start_char_idx == section.start_char_idx  # type: ignore[attr-defined]
        for child in children:
            assert child.relationships[NodeRelationship.PARENT].node_id == section.node_id  # type: ignore[attr-defined]
            assert section.start_char_idx <= child.start_char_idx  # type: ignore[attr-defined]
            assert child.end_char_idx <= section.end_char_idx + 1  # type: ignore[attr-defined]
    assert any(
        by_id[c.node_id] in sections
        for section in sections
        for c in section.relationships[NodeRelationship.CHILD]  # type: ignore[attr-defined]
    )
    # PREVIOUS/NEXT link chunks only.
    for chunk in chunks[1:]:
        previous = chunk.relationships[NodeRelationship.PREVIOUS].node_id  # type: ignore[attr-defined]
        assert by_id[previous] in chunks
    # The leaves, to embed, are the chunks, each within the budget (a section need not be).
    from llama_index.core.node_parser import get_leaf_nodes
    from llama_index.core.schema import MetadataMode

    leaves = get_leaf_nodes(nodes)
    assert [n.node_id for n in leaves] == [n.node_id for n in chunks]  # type: ignore[attr-defined]
    count = resolve_length("cl100k_base").count
    assert max(count(n.get_content(MetadataMode.EMBED)) for n in leaves) <= 64


def test_llama_index_auto_merging_brings_back_a_section_only_when_enough_of_it_was_found() -> None:
    """A section's only children were its own chunks, though its text holds its
    subsections: the chunks of an introduction were merged into the whole document. Its
    subsections are its children too now, as HierarchicalNodeParser's levels."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import StorageContext, VectorStoreIndex
    from llama_index.core.embeddings import MockEmbedding
    from llama_index.core.node_parser import get_leaf_nodes
    from llama_index.core.retrievers import AutoMergingRetriever
    from llama_index.core.schema import NodeRelationship, NodeWithScore

    nodes = llama_nodes(chunk_size=40, include_sections=True)
    storage = StorageContext.from_defaults()
    storage.docstore.add_documents(nodes)
    index = VectorStoreIndex(
        get_leaf_nodes(nodes), storage_context=storage, embed_model=MockEmbedding(embed_dim=8)
    )
    retriever = AutoMergingRetriever(index.as_retriever(), storage)  # merges at half
    top = max(  # the document's title section: the whole handbook
        (n for n in nodes if n.metadata.get("markdown_node") == "section"),  # type: ignore[attr-defined]
        key=lambda n: n.end_char_idx - n.start_char_idx,  # type: ignore[attr-defined]
    )
    own = [
        n
        for n in nodes
        if n.relationships.get(NodeRelationship.PARENT) is not None  # type: ignore[attr-defined]
        and n.relationships[NodeRelationship.PARENT].node_id == top.node_id  # type: ignore[attr-defined]
        and n.metadata.get("markdown_node") != "section"
    ]  # type: ignore[attr-defined]
    assert own and top.end_char_idx - top.start_char_idx > 2 * sum(len(n.text) for n in own)  # type: ignore[attr-defined]
    merged, _ = retriever._get_parents_and_merge([NodeWithScore(node=n, score=1.0) for n in own])
    assert all(found.node.node_id != top.node_id for found in merged)


def test_llama_index_chained_parsers_keep_the_whole_header_path() -> None:
    """Run on the nodes of a coarser parse, the path held only the headings inside the
    input node: '/Parts list/' where the document's is '/Tide Gauge Handbook/...'."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.core.node_parser import MarkdownNodeParser
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    document = Document(text=HANDBOOK)
    fine = SpanMarkdownNodeParser(chunk_size=48)
    direct = {n.start_char_idx: n.metadata["header_path"] for n in fine([document])}  # type: ignore[attr-defined]
    chained = fine(SpanMarkdownNodeParser(chunk_size=512).get_nodes_from_documents([document]))
    shared = [n for n in chained if n.start_char_idx in direct]  # type: ignore[attr-defined]
    assert len(shared) > len(chained) // 2
    assert all(n.metadata["header_path"] == direct[n.start_char_idx] for n in shared)  # type: ignore[attr-defined]
    assert any(n.metadata["header_path"].count("/") > 2 for n in shared)  # type: ignore[attr-defined]
    # After the stock parser, its path comes first (it reads no setext headings, so its
    # paths differ from ours there).
    coarse = MarkdownNodeParser().get_nodes_from_documents([document])
    for node in fine(coarse):
        source = next(
            c
            for c in coarse
            if c.start_char_idx <= node.start_char_idx < c.end_char_idx  # type: ignore[attr-defined]
        )
        assert node.metadata["header_path"].startswith(source.metadata["header_path"])  # type: ignore[attr-defined]


def test_llama_index_sections_keep_the_inputs_lines_without_line_numbers() -> None:
    """With include_line_numbers=False, section nodes got computed lines, shown to the
    model, while their chunks kept the document's own start_line."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    document = Document(
        text="# A\n\nIntro text here.\n\n## B\n\nMore text here.\n", metadata={"start_line": 5}
    )
    parser = SpanMarkdownNodeParser(
        chunk_size=24, include_sections=True, include_line_numbers=False
    )
    nodes = parser([document])
    assert any(n.metadata.get("markdown_node") == "section" for n in nodes)  # type: ignore[attr-defined]
    assert all(n.metadata.get("start_line") == 5 and "end_line" not in n.metadata for n in nodes)  # type: ignore[attr-defined]


def test_llama_index_sections_without_metadata() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core.schema import NodeRelationship

    nodes = llama_nodes(chunk_size=64, include_sections=True, include_metadata=False)
    sections = [n for n in nodes if n.metadata.get("markdown_node") == "section"]  # type: ignore[attr-defined]
    chunks = [n for n in nodes if n.metadata.get("markdown_node") != "section"]  # type: ignore[attr-defined]
    assert sections and all(n.metadata == {"markdown_node": "section"} for n in sections)  # type: ignore[attr-defined]
    assert chunks and all(n.metadata == {} for n in chunks)  # type: ignore[attr-defined]
    assert all(NodeRelationship.PARENT in n.relationships for n in chunks)  # type: ignore[attr-defined]


def test_llama_index_round_trips_and_pickles() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    parser = SpanMarkdownNodeParser(chunk_size=80, chunk_overlap=8, include_sections=True)
    again = SpanMarkdownNodeParser.from_dict(parser.to_dict())
    assert again.to_dict() == parser.to_dict()
    assert pickle.loads(pickle.dumps(parser)).to_dict() == parser.to_dict()


def numbered_id(index: int, node: object) -> str:
    """An ``id_func`` that numbers the nodes of a document, as users write them."""
    return f"{node.node_id}-{index}"  # type: ignore[attr-defined]


def test_llama_index_sections_get_their_own_ids_and_links_survive_a_docstore() -> None:
    """With an ``id_func`` that numbers nodes, the sections are numbered after the chunks:
    every id is unique, and PARENT/CHILD links resolve to the right nodes after a
    ``SimpleDocumentStore`` round-trip (which keeps one node per id)."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.core.schema import NodeRelationship
    from llama_index.core.storage.docstore import SimpleDocumentStore
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    documents = [
        Document(text=HANDBOOK, doc_id="handbook"),
        Document(text="# Other\n\nA second file.\n\n## Part\n\nIts part.\n", doc_id="other"),
    ]
    parser = SpanMarkdownNodeParser(chunk_size=64, include_sections=True, id_func=numbered_id)
    nodes = parser.get_nodes_from_documents(documents)
    for document in documents:
        own = [n for n in nodes if n.ref_doc_id == document.doc_id]
        chunks = [n for n in own if n.metadata.get("markdown_node") != "section"]
        sections = [n for n in own if n.metadata.get("markdown_node") == "section"]
        assert chunks and sections
        assert [n.node_id for n in own] == [f"{document.doc_id}-{i}" for i in range(len(own))]
        assert own == chunks + sections  # chunks 0..n-1, then the sections
    store = SimpleDocumentStore()
    store.add_documents(nodes)
    loaded = SimpleDocumentStore.from_dict(store.to_dict())
    assert len(loaded.docs) == len(nodes)
    texts = {d.doc_id: d.text for d in documents}
    for node in nodes:
        stored = loaded.get_node(node.node_id)
        assert (stored.text, stored.metadata) == (node.text, node.metadata)  # type: ignore[attr-defined]
        if node.metadata.get("markdown_node") == "section":
            children = stored.relationships[NodeRelationship.CHILD]
            assert children and isinstance(children, list)
            for child in children:
                kid = loaded.get_node(child.node_id)
                assert kid.relationships[NodeRelationship.PARENT].node_id == node.node_id
            continue
        parent = loaded.get_node(stored.relationships[NodeRelationship.PARENT].node_id)
        assert parent.metadata["markdown_node"] == "section"
        assert node.node_id in [c.node_id for c in parent.relationships[NodeRelationship.CHILD]]
        text = texts[node.ref_doc_id]  # type: ignore[index]
        assert text[parent.start_char_idx : parent.end_char_idx] == parent.text  # type: ignore[attr-defined]
        assert parent.start_char_idx <= node.start_char_idx  # type: ignore[attr-defined,operator]
        assert node.end_char_idx <= parent.end_char_idx + 1  # type: ignore[attr-defined,operator]


def test_llama_index_no_room_error_names_the_header_path_and_adds_up() -> None:
    """A budget that the file's metadata and the heading path use up: the error once named
    only the metadata every node shows (15 tokens of chunk_size=30), not what took the rest."""
    pytest.importorskip("llama_index.core")
    import re

    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    text = (
        "# A very long heading title with many words in it\n\n"
        "## Another fairly long subheading title here\n\n"
        "### A third heading\n\n" + "Body sentence here. " * 30
    )
    document = Document(text=text, metadata={"file_name": "x" * 40})
    with pytest.raises(InvalidParameterError) as caught:
        SpanMarkdownNodeParser(chunk_size=30).get_nodes_from_documents([document])
    message = str(caught.value)
    found = re.search(
        r"takes up to (\d+) .*: (\d+) for the metadata .* (\d+) more for header_path", message
    )
    assert found, message
    total, common, varying = map(int, found.groups())
    assert common + varying == total >= 30 and varying > 0


@pytest.mark.parametrize("option", ["strip_headers", "return_each_line"])
def test_langchain_markdown_header_options_say_what_they_would_do(option: str) -> None:
    """Code ported from MarkdownHeaderTextSplitter passes these: they raised a bare
    TypeError (unexpected keyword); off they are what the splitter does, on a clear error."""
    pytest.importorskip("langchain_text_splitters")
    from langchain_spansplit import SpanMarkdownTextSplitter

    headers = [("#", "Header 1"), ("##", "Header 2")]
    splitter = SpanMarkdownTextSplitter(headers, chunk_size=40, chunk_overlap=0, **{option: False})
    assert splitter.split_text("# Foo\n\nText.\n") == ["# Foo\n\nText."]
    with pytest.raises(InvalidParameterError, match=f"{option}=True"):
        SpanMarkdownTextSplitter(headers, chunk_size=40, chunk_overlap=0, **{option: True})


# --- one section per chunk, as the frameworks give them -----------------------------------------

SMALL_SECTIONS = (
    "# A\n\nintro\n\n## B\n\nbee text\n\n```sh\n# not a heading\n```\n\n"
    "### C\n\nsee text\n\n## Bare\n\n# D\n\ndee\n"
)


def test_langchain_names_each_section_as_markdown_header_text_splitter() -> None:
    """Small sections are a Document each, named as MarkdownHeaderTextSplitter names them
    (its text joins lines its own way; ours is the file's span); merged on request."""
    pytest.importorskip("langchain_core")
    from langchain_spansplit import SpanMarkdownTextSplitter
    from langchain_text_splitters import MarkdownHeaderTextSplitter

    headers = [("#", "H1"), ("##", "H2"), ("###", "H3")]
    theirs = MarkdownHeaderTextSplitter(headers, strip_headers=False).split_text(SMALL_SECTIONS)
    splitter = SpanMarkdownTextSplitter(headers, chunk_size=1000, add_start_index=True)
    ours = splitter.create_documents([SMALL_SECTIONS])
    names = [{k: v for k, v in d.metadata.items() if k.startswith("H")} for d in ours]
    assert names == [d.metadata for d in theirs]
    assert [d.page_content.split("\n")[0] for d in ours] == [
        d.page_content.split("\n")[0].rstrip() for d in theirs
    ]
    for document in ours:
        start = document.metadata["start_index"]
        assert SMALL_SECTIONS[start : start + len(document.page_content)] == document.page_content
    merged = SpanMarkdownTextSplitter(headers, chunk_size=1000, merge_sections=True)
    (whole,) = merged.create_documents([SMALL_SECTIONS])
    assert whole.page_content == SMALL_SECTIONS.strip()
    assert not any(k.startswith("H") for k in whole.metadata)


def test_llama_index_header_paths_as_markdown_node_parser() -> None:
    """A node per section with MarkdownNodeParser's header_path (and the same text, as both
    keep the heading line); merged on request."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.core.node_parser import MarkdownNodeParser
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    document = Document(text=SMALL_SECTIONS)
    theirs = MarkdownNodeParser().get_nodes_from_documents([document])
    ours = SpanMarkdownNodeParser(chunk_size=1000).get_nodes_from_documents([document])
    assert [n.metadata["header_path"] for n in ours] == [n.metadata["header_path"] for n in theirs]
    assert [n.text for n in ours] == [n.text.strip() for n in theirs]
    for node in ours:
        assert SMALL_SECTIONS[node.start_char_idx : node.end_char_idx] == node.text
    merged = SpanMarkdownNodeParser(chunk_size=1000, merge_sections=True)
    assert len(merged.get_nodes_from_documents([document])) == 1


def test_llama_index_header_path_leaves_out_empty_headings() -> None:
    """``#`` and ``##`` alone are headings with no text: the path of the section below them
    was ``"//"``; now, as the core's ``heading_path_text``, they add nothing."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    text = "#\n\nfoo\n\n##\n\nbar\n\n### Named\n\nbaz\n"
    nodes = SpanMarkdownNodeParser(chunk_size=60).get_nodes_from_documents([Document(text=text)])
    assert [(n.text, n.metadata["header_path"]) for n in nodes] == [
        ("#\n\nfoo", "/"),
        ("##\n\nbar", "/"),
        ("### Named\n\nbaz", "/"),
    ]


def test_llama_index_header_path_is_one_for_every_node_of_a_section() -> None:
    """The nodes after a long section's first once had its own heading in their path
    ('/Guide/Install/' after '/Guide/'): MarkdownNodeParser's node of the section, and
    every piece a splitter after it makes, have '/Guide/'."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.core.node_parser import MarkdownNodeParser, SentenceSplitter
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    text = "# Guide\n\n## Install\n\n" + "Install it with pip. " * 40 + "\n\nThen run it.\n"
    ours = SpanMarkdownNodeParser(chunk_size=64).get_nodes_from_documents([Document(text=text)])
    stock = SentenceSplitter(chunk_size=64, chunk_overlap=0).get_nodes_from_documents(
        MarkdownNodeParser().get_nodes_from_documents([Document(text=text)])
    )
    paths = [node.metadata["header_path"] for node in ours]
    assert len(ours) > 3 and paths == ["/", *["/Guide/"] * (len(ours) - 1)]
    assert {node.metadata["header_path"] for node in stock[1:]} == {"/Guide/"}


def test_langchain_sections_split_again_warn_where_offsets_would_mix_two_frames() -> None:
    """Sections made without add_start_index, split again with it: each chunk's
    start_index was an offset in its section while the section_start beside it was in the
    file, with no word said. Made with it, every offset is in the file."""
    pytest.importorskip("langchain_text_splitters")
    import warnings

    from langchain_spansplit import SpanMarkdownTextSplitter, SpanSentenceTextSplitter

    headers = [("#", "Header 1"), ("##", "Header 2")]
    fine = SpanSentenceTextSplitter(chunk_size=200, chunk_overlap=40, add_start_index=True)
    bare = SpanMarkdownTextSplitter(headers, chunk_size=4000, chunk_overlap=0)
    sections = bare.create_documents([HANDBOOK], [{"source": "m.md"}])
    with pytest.warns(UserWarning, match=r"m.md: its chunks' start_index/end_index are offsets"):
        fine.split_documents(sections)
    indexed = SpanMarkdownTextSplitter(
        headers, chunk_size=4000, chunk_overlap=0, add_start_index=True
    ).create_documents([HANDBOOK], [{"source": "m.md"}])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        children = fine.split_documents(indexed)
    for child in children:
        meta = child.metadata
        assert HANDBOOK[meta["start_index"] : meta["end_index"]] == child.page_content
        assert meta["section_start"] <= meta["start_index"] < meta["section_end"]


def test_llama_index_header_path_of_merged_subsections_is_theirs() -> None:
    """A node of merged subsections (## B and ## C under # A) lost A from its path: the
    headings of a merged chunk are those of the section holding all of it (A), whose own
    heading is not the one the node's text starts under."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    for head, sub in (("# A\n\n", "## {}\n\n"), ("A\n===\n\n", "{}\n---\n\n")):
        text = head + "intro words here. " * 4 + "\n\n" + sub.format("B") + "bee text.\n\n"
        text += sub.format("C") + "cee text.\n"
        for merge in (True, False):
            parser = SpanMarkdownNodeParser(chunk_size=80, merge_sections=merge, length=len)
            paths = {
                node.text.lstrip("# ")[:1]: node.metadata["header_path"]  # type: ignore[attr-defined]
                for node in parser.get_nodes_from_documents([Document(text=text)])
            }
            assert paths == {"A": "/", "i": "/", "B": "/A/", **({} if merge else {"C": "/A/"})}


@pytest.mark.parametrize("merge", [True, False])
def test_llama_index_header_path_is_not_fooled_by_heading_lines_in_code(merge: bool) -> None:
    """A chunk that starts with a '## comment' line of a shell block, or a fence and a
    YAML '---' (read as a setext heading), kept its section's own heading in its path."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    block = "echo hello world and more words\n" * 3 + "## comment here\n" + "echo bye\n" * 3
    texts = [
        ("# A\n\nintro.\n\n```bash\n" + block + "```\n", 60),
        (
            "# A\n\nintro words here that are long enough to split.\n\n"
            "```yaml\n---\nkey: value\nother: thing\n```\n",
            40,
        ),
        ("# A\r\n\r\n" + "intro words here. " * 4 + "\r\n\r\n##\r\n\r\nbee text.\r\n", 80),
    ]
    for text, size in texts:
        parser = SpanMarkdownNodeParser(chunk_size=size, merge_sections=merge, length=len)
        nodes = parser.get_nodes_from_documents([Document(text=text)])
        paths = {n.metadata["header_path"] for n in nodes if not n.text.startswith("##\r")}  # type: ignore[attr-defined]
        assert len(nodes) > 1 and paths == {"/"}, [
            (n.text[:20], n.metadata["header_path"]) for n in nodes
        ]  # type: ignore[attr-defined]
        if text.startswith("# A\r\n"):  # an empty heading under A, CRLF: its node is in A
            assert [n.metadata["header_path"] for n in nodes if n.text.startswith("##\r")] == [
                "/A/"
            ]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "before",
    [
        "- ```sh\n  ls\n  ```\n\n",  # a fence in a list item
        "~~~md\n```\n~~~\n\n",  # a backtick line inside a tilde fence
        "```x``` is inline.\n\n",  # no fence: backticks in its info string
        "    ## indented code\n\n",
        "<div>\n## in html\n</div>\n\n",
    ],
)
def test_llama_index_merged_subsections_are_found_as_the_parse_has_them(before: str) -> None:
    """Whether a merged node starts at a subsection was read with patterns: a fence in a
    list item, a backtick line in a tilde fence or inline backticks miscounted the fences
    before it, and an indented code line or an HTML block read as a heading; the
    Markdown parse of the text says."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanMarkdownNodeParser

    text = "# A\n\n" + "intro words here that fill. " * 2 + "\n\n" + before
    text += "## B\n\nbee.\n\n## C\n\nsee.\n"
    parser = SpanMarkdownNodeParser(chunk_size=40, merge_sections=True, length=len)
    nodes = parser.get_nodes_from_documents([Document(text=text)])
    paths = {n.text[:4]: n.metadata["header_path"] for n in nodes}  # type: ignore[attr-defined]
    assert paths.get("## B") == "/A/"
    assert all(p == "/" for t, p in paths.items() if not t.startswith("## B"))
