"""``SpanMarkdownTextSplitter``: Markdown split by sections, with the heading path named as
LangChain's ``MarkdownHeaderTextSplitter`` names it, under a hard budget, with exact offsets.

LangChain splits Markdown in two steps: ``MarkdownHeaderTextSplitter`` (no budget; its
chunks are not text of the file) then a ``RecursiveCharacterTextSplitter`` (whose
``start_index`` points into the section, not the file). Here one splitter does both
(spansplit's ``MarkdownSplitter``): every heading starts a chunk, a section too large for
one is split at its blocks, and fences and tables that fit stay whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.documents import Document

from spansplit import Chunk, InvalidParameterError, MarkdownSplitter, ParameterTypeError
from spansplit.batch import OnError
from spansplit.sizing import LengthSpec
from spansplit.splitters.markdown import heading_path_text, headings_before, join_heading_path

from .base import SECTION_END, SECTION_START, SpanTextSplitter, length_spec, overlap_for

HEADING_PATH = "heading_path"
"""The metadata key of the heading path that ``count_heading_path`` counts (see
:func:`with_heading_path`)."""

DEFAULT_HEADERS: tuple[tuple[str, str], ...] = tuple(
    ("#" * level, f"Header {level}") for level in range(1, 7)
)
"""``headers_to_split_on`` when none are given: every level, named as LangChain's docs do."""


class SpanMarkdownTextSplitter(SpanTextSplitter):
    """Markdown chunks of at most ``chunk_size`` that follow its sections.

    ``headers_to_split_on`` is ``MarkdownHeaderTextSplitter``'s: ``[("#", "Header 1"),
    ("##", "Header 2"), ...]`` (``None``: every level, ``[]``: none, as LangChain's
    ``[]``). Each Document's metadata names the headings of its path at
    those levels (``{"Header 1": "Guide", "Header 2": "Install"}``), and gets
    ``section_start``/``section_end``, the span of the innermost section holding it (for
    small-to-big retrieval). ``count_heading_path`` makes ``chunk_size`` also cover the
    heading path before the text, written in the metadata as ``heading_path``
    (``"Guide > Install"``; :func:`with_heading_path` puts it before the text). Headings are
    always kept in the text (a chunk is a span of the file); every heading level
    structures the split, whether or not it is named. As with
    ``MarkdownHeaderTextSplitter``, every heading starts a Document, so each lies in one
    section and names it; ``merge_sections=True`` merges small sibling sections up to
    ``chunk_size`` instead (fewer Documents, each named by the section that holds it
    whole). ``MarkdownHeaderTextSplitter``'s ``strip_headers`` and ``return_each_line``
    are accepted off only (a clear error on), in its positional order.
    """

    def __init__(
        self,
        headers_to_split_on: Sequence[tuple[str, str]] | None = None,
        return_each_line: bool = False,
        strip_headers: bool = False,
        *,
        chunk_size: int = 4000,
        chunk_overlap: int = 200,
        length_function: LengthSpec = len,
        add_start_index: bool = False,
        add_page_numbers: bool = False,
        on_error: OnError = "raise",
        strip_whitespace: bool = True,
        count_heading_path: bool = False,
        merge_sections: bool = False,
    ) -> None:
        """Make the splitter; the class docstring says what each parameter does."""
        # MarkdownHeaderTextSplitter's own options, where ported code passes them.
        if strip_headers:
            raise InvalidParameterError(
                "strip_headers",
                strip_headers,
                "a chunk is a span of the file, so its headings stay in its text; the heading "
                "path is in its metadata (spansplit.with_heading_path puts it before the text)",
            )
        if return_each_line:
            raise InvalidParameterError(
                "return_each_line",
                return_each_line,
                "chunks follow sections and blocks up to chunk_size; a smaller chunk_size "
                "gives smaller chunks",
            )
        headers = DEFAULT_HEADERS if headers_to_split_on is None else headers_to_split_on
        self._header_names = _header_names(headers)  # [] names none, as LangChain's [] does
        self._count_heading_path = bool(count_heading_path)
        # MarkdownHeaderTextSplitter's public attributes, as it keeps them (the longest
        # marker first).
        self.headers_to_split_on = sorted(
            [tuple(pair) for pair in headers], key=lambda pair: len(pair[0]), reverse=True
        )
        self.return_each_line = False
        self.strip_headers = False
        super().__init__(
            MarkdownSplitter(
                chunk_size,
                overlap_for(chunk_overlap, chunk_size),
                length=length_spec(length_function),
                strip_whitespace=strip_whitespace,
                count_heading_path=count_heading_path,
                merge_sections=merge_sections,
            ),
            add_start_index=add_start_index,
            add_page_numbers=add_page_numbers,
            on_error=on_error,
        )

    def _chunk_metadata(self, chunk: Chunk, offset: int = 0) -> Mapping[str, Any]:
        metadata: dict[str, Any] = {}
        for heading in chunk.metadata.get("headings", ()):
            name = self._header_names.get(heading["level"])
            if name is not None:
                metadata[name] = heading["text"]
        section = chunk.metadata.get("section")
        if section is not None:
            metadata[SECTION_START], metadata[SECTION_END] = (offset + int(p) for p in section)
        if self._count_heading_path:  # what chunk_size counted before the text
            metadata[HEADING_PATH] = heading_path_text(headings_before(chunk.metadata, chunk.start))
        return metadata


def with_heading_path(document: Document) -> str:
    """The Document's text with its heading path before it (``"Guide > Install\n\n"`` and
    ``page_content``), for an embedding model: what ``chunk_size`` covers when
    :class:`SpanMarkdownTextSplitter` is made with ``count_heading_path=True``, which writes
    the path in its metadata (``heading_path``; a Document without headings: its text)."""
    metadata = getattr(document, "metadata", None)
    if not isinstance(document, Document) or not isinstance(metadata, Mapping):
        raise ParameterTypeError(
            f"with_heading_path takes a LangChain Document, got {type(document).__name__}"
        )
    if HEADING_PATH not in metadata:
        raise InvalidParameterError(
            "document",
            f"<Document with metadata keys {sorted(map(str, metadata))}>",
            "has no heading_path: split it with "
            "SpanMarkdownTextSplitter(..., count_heading_path=True)",
        )
    return join_heading_path(str(metadata[HEADING_PATH]), document.page_content)


def _header_names(headers: Sequence[tuple[str, str]]) -> dict[int, str]:
    """Heading level -> metadata name, from LangChain's ``[("##", "Header 2"), ...]``."""
    names: dict[int, str] = {}
    for index, pair in enumerate(headers):
        if (
            not isinstance(pair, (tuple, list))
            or len(pair) != 2
            or not isinstance(pair[0], str)
            or not isinstance(pair[1], str)
            or not 1 <= len(pair[0]) <= 6
            or set(pair[0]) != {"#"}
        ):
            raise InvalidParameterError(
                f"headers_to_split_on[{index}]",
                pair,
                "must be a pair such as ('##', 'Header 2'): one to six '#' and a name",
            )
        names[len(pair[0])] = pair[1]
    return names
