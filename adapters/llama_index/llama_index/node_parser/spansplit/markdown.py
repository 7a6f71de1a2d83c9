"""``SpanMarkdownNodeParser``: LlamaIndex's ``MarkdownNodeParser`` metadata (``header_path``)
with spansplit's Markdown splitting: a hard budget, fences and tables kept whole, exact
offsets, and optionally the sections as parent nodes of their chunks.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from llama_index.core.bridge.pydantic import Field
from llama_index.core.node_parser.node_utils import build_nodes_from_splits
from llama_index.core.schema import BaseNode, MetadataMode, NodeRelationship

from spansplit import Chunk, LineIndex, MarkdownSplitter, Splitter
from spansplit.boundaries.markdown import MarkdownLayout

from .base import END_LINE, LINE_KEYS, START_LINE, _NodeFactory, _Origin, _origin
from .parsers import _OverlapMixin

HEADER_PATH = "header_path"
SECTION_START = "section_start"
SECTION_END = "section_end"
NODE_ROLE = "markdown_node"
"""Metadata key that marks a section node (value ``"section"``)."""
HIDDEN_KEYS = (SECTION_START, SECTION_END, NODE_ROLE)
"""Metadata for retrieval code, left out of what the embedding model and the LLM see."""


_LAST_LAYOUT = threading.local()
"""The text whose Markdown layout :func:`opens_subsection` read last on this thread."""


def header_path(metadata: Mapping[str, Any], separator: str, opens: bool = False) -> str:
    """LlamaIndex's ``header_path`` for a chunk (its metadata): the headings above the
    section its text starts in, between and around ``separator`` (``"/Guide/Install/"``).
    A section's own heading is left out of every chunk of the section, as
    ``MarkdownNodeParser`` leaves it out of the section's node (and a splitter after it,
    of every piece of that node), so one section has one path to filter on; ``opens``: the
    chunk holds merged sections and starts with a subsection's heading, so the path is
    that subsection's (the ``headings`` are those of the section holding all of it). An
    empty heading (``##`` alone) adds nothing, as in ``heading_path_text``."""
    headings = [str(heading["text"]) for heading in metadata.get("headings", ())]
    if headings and not opens:
        headings.pop()
    named = [heading for heading in headings if heading]
    return separator + separator.join(named) + separator if named else separator


def opens_subsection(text: str, start: int, metadata: Mapping[str, Any]) -> bool:
    """Whether the chunk at ``start`` of ``text`` starts at the heading of a section deeper
    than the innermost of its ``headings`` (a chunk of merged sections that starts at a
    subsection), as the Markdown parse of ``text`` has its sections (read once per text)."""
    headings = metadata.get("headings") or ()
    if not headings:
        return False
    found = getattr(_LAST_LAYOUT, "found", None)
    if found is None or found[0] is not text:
        found = _LAST_LAYOUT.found = (text, MarkdownLayout(text))
    sections = found[1].headings
    index = found[1].section_of(start, start + 1)
    return (
        index >= 0
        and sections.starts[index] <= start <= sections.starts[index] + 3
        and sections.levels[index] > int(headings[-1]["level"])
    )


class SpanMarkdownNodeParser(_OverlapMixin):
    """Markdown nodes of at most ``chunk_size`` tokens of ``length``, metadata included,
    that follow the document's sections (:class:`spansplit.MarkdownSplitter`).

    Every heading starts a node, as with LlamaIndex's ``MarkdownNodeParser``
    (``merge_sections=True`` merges small sibling sections up to ``chunk_size``). Each node
    gets ``header_path`` as ``MarkdownNodeParser`` writes it; it is shown to the embedding
    model and counted against ``chunk_size``. With
    ``include_sections``, each section that holds a chunk is also returned as a node (its
    exact span, possibly over the budget: it is for small-to-big retrieval, not for
    embedding), the PARENT of its chunks and of the sections directly inside it, which
    are its CHILDREN (as ``HierarchicalNodeParser`` links its levels). The nodes of a document
    are numbered for ``id_func`` in the order returned: its chunks ``0 .. n-1``, then its
    sections ``n, n+1, ...``, so an ``id_func`` that numbers nodes gives every one its own id.
    """

    chunk_overlap: int = Field(
        default=0,
        strict=True,
        description="Most trailing context a node repeats from the one before it.",
    )
    header_path_separator: str = Field(
        default="/", description="Separator between the headings of header_path."
    )
    include_sections: bool = Field(
        default=False,
        strict=True,
        description="Also return each section as the parent node of its chunks.",
    )
    merge_sections: bool = Field(
        default=False,
        strict=True,
        description=(
            "Merge small sibling sections into one node up to chunk_size (by default "
            "every heading starts a node, as MarkdownNodeParser's do)."
        ),
    )

    @classmethod
    def class_name(cls) -> str:
        return "SpanMarkdownNodeParser"

    def _make_splitter(self, budget: int | None) -> Splitter:
        return MarkdownSplitter(
            budget or self.chunk_size,
            self._scaled(self.chunk_overlap, budget),
            length=self._length(),
            merge_sections=self.merge_sections,
        )

    def _node_metadata(self, node: BaseNode, origin: _Origin, chunk: Chunk) -> dict[str, Any]:
        metadata = super()._node_metadata(node, origin, chunk)
        if self.include_metadata:
            opens = self.merge_sections and opens_subsection(
                node.get_content(metadata_mode=MetadataMode.NONE), chunk.start, chunk.metadata
            )
            path = header_path(chunk.metadata, self.header_path_separator, opens)
            above = node.metadata.get(HEADER_PATH)  # the input's own: a node of a section
            separator = self.header_path_separator
            if isinstance(above, str) and above.endswith(separator) and above != separator:
                path = above + path[len(separator) :]
            metadata[HEADER_PATH] = path
        # (without include_metadata, the section span is only kept until _sections)
        section = chunk.metadata.get("section")
        kept = self.include_metadata or self.include_sections
        if kept and section is not None and origin.offset is not None:
            metadata[SECTION_START] = origin.offset + int(section[0])
            metadata[SECTION_END] = origin.offset + int(section[1])
        return metadata

    def _varying_metadata(self) -> str:
        return f"{HEADER_PATH} (the headings above the node)"

    def _hidden_keys(self) -> tuple[str, ...]:
        hidden = HIDDEN_KEYS if self.include_metadata or self.include_sections else ()
        return (*super()._hidden_keys(), *hidden)

    def _fitted_nodes(self, node: BaseNode, text: str) -> list[BaseNode]:
        try:
            chunks = super()._fitted_nodes(node, text)
        finally:
            _LAST_LAYOUT.found = None  # (the text's layout, read for merged sections)
        if not self.include_sections:
            return chunks
        return chunks + self._sections(node, text, chunks)

    def _sections(self, node: BaseNode, text: str, chunks: list[BaseNode]) -> list[BaseNode]:
        """One parent node per section that holds chunks (its span trimmed), linked both
        ways with its chunks; none where offsets are unknown. Sections are numbered for
        ``id_func`` after the chunks, so their ids differ from the chunks' and each other's."""
        origin = _origin(node, text)
        base = origin.offset
        groups: dict[tuple[int, int], list[BaseNode]] = {}
        for chunk in chunks:
            if base is None or SECTION_START not in chunk.metadata:
                continue
            start = int(chunk.metadata[SECTION_START]) - base
            end = int(chunk.metadata[SECTION_END]) - base
            if not self.include_metadata:
                del chunk.metadata[SECTION_START], chunk.metadata[SECTION_END]
            while end > start and text[end - 1].isspace():
                end -= 1
            groups.setdefault((start, end), []).append(chunk)
        sections: list[BaseNode] = []
        factory = _NodeFactory.of(node, self)
        lines: LineIndex | None = None
        for number, ((start, end), children) in enumerate(groups.items(), len(chunks)):
            node_id = self.id_func(number, node)
            first = children[0]
            # Its first chunk's keys in their order (which the nodes' hashes read), with its
            # own lines where its chunks have theirs.
            metadata = dict(first.metadata)
            if self.include_line_numbers:  # (else the input's own, as its chunks keep them)
                if START_LINE in first.metadata and origin.line is not None:
                    lines = lines or LineIndex(text)
                    metadata[START_LINE] = origin.line + lines.line(start) - 1
                    metadata[END_LINE] = origin.line + lines.line(max(start, end - 1)) - 1
                else:
                    for key in LINE_KEYS:
                        metadata.pop(key, None)
            metadata[NODE_ROLE] = "section"
            offsets = ((base or 0) + start, (base or 0) + end)
            if factory is None:  # an image document: LlamaIndex's own node type for it
                (section,) = build_nodes_from_splits(
                    [text[start:end]], node, id_func=lambda _i, _node, known=node_id: known
                )
                section.start_char_idx, section.end_char_idx = offsets
                section.metadata = metadata
                section.excluded_embed_metadata_keys = list(first.excluded_embed_metadata_keys)
                section.excluded_llm_metadata_keys = list(first.excluded_llm_metadata_keys)
            else:  # hides what its chunks hide
                section = factory.make(node_id, text[start:end], offsets, metadata)
            sections.append(section)
        _link_sections(list(groups), list(groups.values()), sections)
        return sections

    def _linked(self, node: BaseNode) -> bool:
        return node.metadata.get(NODE_ROLE) != "section"


def _link_sections(
    spans: list[tuple[int, int]], chunks: list[list[BaseNode]], sections: list[BaseNode]
) -> None:
    """Link each section node (``spans[k]``, holding ``chunks[k]`` directly) both ways
    with its children: its own chunks and the sections directly inside it, in document
    order, as ``HierarchicalNodeParser`` links each level to the next. A parent's text is
    then what its children cover, so ``AutoMergingRetriever`` (which merges where enough
    of a parent's children were retrieved) merges into a section only when its
    subsections count too: with its own chunks alone as children, two chunks of an
    introduction brought back the whole file."""
    children: list[list[tuple[int, BaseNode]]] = [
        [(_start(chunk), chunk) for chunk in own] for own in chunks
    ]
    # Sections nest or are disjoint: ordered by start (the longer first), each one's parent
    # is the innermost open section that holds it.
    order = sorted(range(len(spans)), key=lambda k: (spans[k][0], -spans[k][1]))
    open_sections: list[int] = []
    for index in order:
        start, end = spans[index]
        while open_sections and not (
            spans[open_sections[-1]][0] <= start and end <= spans[open_sections[-1]][1]
        ):
            open_sections.pop()
        if open_sections:
            parent = open_sections[-1]
            sections[index].relationships[NodeRelationship.PARENT] = sections[
                parent
            ].as_related_node_info()
            children[parent].append((_start(sections[index]), sections[index]))
        open_sections.append(index)
    for section, own in zip(sections, children):
        own.sort(key=lambda item: item[0])
        parent_info = section.as_related_node_info()
        for _, child in own:
            if child.metadata.get(NODE_ROLE) != "section":
                child.relationships[NodeRelationship.PARENT] = parent_info
        section.relationships[NodeRelationship.CHILD] = [
            child.as_related_node_info() for _, child in own
        ]


def _start(node: BaseNode) -> int:
    """Where ``node`` starts in its document (0 where that is not known)."""
    return int(getattr(node, "start_char_idx", None) or 0)
