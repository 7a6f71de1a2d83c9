"""Markdown split by sections, with the heading path of every chunk.

A section that fits is one chunk; small sibling sections are merged up to ``chunk_size``;
a larger section is split at its sub-headings first, then at its blocks (paragraphs, list
items, fenced code, tables, block quotes, HTML blocks), then at rows, lines or sentences,
then words and grapheme clusters. A fence, a table, an HTML block or a list item that fits
is never cut, and overlap never starts inside a code block, a table or an HTML block (nor
inside a list item but at its start). Overlap starts at a block or a sentence where one fits,
and a chunk may end early so that it can.
Structure is read by a CommonMark parser (:mod:`spansplit.boundaries.markdown`, the
``markdown`` extra).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..boundaries.markdown import (
    BlockLevel,
    Fits,
    Heading,
    MarkdownLayout,
    SectionLevel,
    WordLevel,
    load_pyromark,
    overlap_boundaries,
)
from ..boundaries.words import word_spans
from ..chunk import Chunk, SizedSpan
from ..config import ChunkConfig
from ..errors import ChunkTooLargeError, InvalidParameterError, ParameterTypeError
from ..packing import Structure, pack
from ..sizing import LengthSpec
from ..sizing.base import TextMeasurer
from ..validate import check_bool
from .base import BudgetedSplitter, make_chunks

HEADING_PATH_SEPARATOR = " > "
"""Between the headings of a path in :func:`with_heading_path`."""


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The lines of ``text[start:end]``, each with its line ending (front matter)."""
    from ..lines import split_lines

    bounds = [start]
    for line in split_lines(text[start:end]):
        bounds.append(bounds[-1] + len(line))
    return list(itertools.pairwise(bounds))


_FRONT_MATTER = Structure((_lines, word_spans), heading_lines=False)  # ("# comments")


class MarkdownSplitter(BudgetedSplitter):
    """Markdown chunks of at most ``chunk_size`` that follow its sections.

    Every chunk's ``metadata`` holds ``headings``, the heading path of the innermost
    section that holds the whole chunk (outermost first, each ``{"level": n, "text":
    ...}``), and ``section``, that section's ``[start, end]`` (the whole document where
    there are no headings), for small-to-big retrieval. YAML front matter is a chunk of
    its own, of kind ``"front_matter"``; other chunks are of kind ``"markdown"``.

    With ``count_heading_path``, ``chunk_size`` also covers the heading path that
    :func:`with_heading_path` puts before a chunk's text for an embedding model (as
    LlamaIndex counts metadata); the chunk's span stays exact either way.

    With ``merge_sections=False``, small sections are not merged: every heading starts a
    chunk, so each chunk lies in one section and its ``headings`` name that section
    (LangChain's ``MarkdownHeaderTextSplitter`` and LlamaIndex's ``MarkdownNodeParser``
    return one chunk per section too), a heading with no text before the next one alone.
    """

    kind = "markdown"

    def __init__(
        self,
        chunk_size: int,
        chunk_overlap: int = 0,
        *,
        length: LengthSpec = None,
        strip_whitespace: bool = True,
        count_heading_path: bool = False,
        merge_sections: bool = True,
    ) -> None:
        super().__init__(
            chunk_size, chunk_overlap, length=length, strip_whitespace=strip_whitespace
        )
        self.count_heading_path = check_bool("count_heading_path", count_heading_path)
        self.merge_sections = check_bool("merge_sections", merge_sections)
        load_pyromark()  # a missing parser fails here, naming the extra

    def structure_for(self, layout: MarkdownLayout, fits: Fits | None = None) -> Structure:
        """The levels of one parsed text: sections, then blocks, then words (a heading
        glued to the word after it); overlap stays inside a section (a chunk that starts
        at a heading repeats nothing before it) and never starts inside a code block, a
        table or an HTML block. ``fits`` tells the budget, so that a
        section or block that fits is not cut to keep a heading with it. Without
        ``merge_sections``, every heading starts a chunk."""
        separate = not self.merge_sections
        return Structure(
            (
                SectionLevel(layout, fits, every_heading=separate),
                BlockLevel(layout, fits),
                WordLevel(layout, fits),
            ),
            isolate=True,
            overlap_boundaries=overlap_boundaries(layout),
            overlap_fences=layout.overlap_fences(fits if self.chunk_overlap else None),
            chunk_starts=layout.heading_starts if separate else (),
            heading_lines=False,  # (sections place headings)
        )

    def spans(self, text: str) -> list[SizedSpan]:
        return self._planned(text)[1].spans

    def _chunks(self, text: str, source: int, first_index: int) -> list[Chunk]:
        layout, found = self._planned(text)
        kinds = ["front_matter"] * found.front_matter + [self.kind] * (
            len(found.spans) - found.front_matter
        )
        return make_chunks(
            text,
            found.spans,
            kinds,
            source=source,
            first_index=first_index,
            metadata=functools.partial(describe, layout),
        )

    def _planned(self, text: str) -> tuple[MarkdownLayout, _Planned]:
        """The text's layout, and its chunks' spans (the front matter's first), measured by
        one measurer: a tokenizer's index of the text is made on the pool while the text is
        parsed."""
        measurer = self.length.measurer(text)
        if not text.isspace():
            measurer.prepare()
        try:
            layout = MarkdownLayout(text)
            return layout, self._fitted(text, layout, measurer)
        finally:
            measurer.release()  # an index that nothing needed (a blank body, an error)

    def _fitted(self, text: str, layout: MarkdownLayout, measurer: TextMeasurer) -> _Planned:
        """The chunks' spans; with ``count_heading_path``, packed with a budget
        that leaves room for the longest heading path, less any excess then measured."""
        if not self.count_heading_path:
            return self._sized(text, layout, self.config, measurer)
        count = self.length.count
        room = max(
            (
                count(heading_path_text(layout.heading_path(i)) + "\n\n")
                for i in range(len(layout.headings))
            ),
            default=0,
        )
        while True:
            config = self._config_with_room(room)
            try:
                found = self._sized(text, layout, config, measurer)
            except ChunkTooLargeError as error:
                raise error.because(
                    f"chunk_size={self.chunk_size} less {room} {self.length.unit} kept for "
                    "the longest heading path, with count_heading_path=True"
                ) from None
            largest = max(
                (
                    count(_with_heading_path(text[a:b], a, describe(layout, a, b)))
                    for a, b, _ in found.spans
                ),
                default=0,
            )
            if largest <= self.chunk_size:
                return found
            room += largest - self.chunk_size

    def _sized(
        self, text: str, layout: MarkdownLayout, config: ChunkConfig, measurer: TextMeasurer
    ) -> _Planned:
        """The chunks' spans: front matter apart, then the body."""
        spans: list[SizedSpan] = []
        if layout.front_matter is not None:
            region = layout.front_matter
            spans = pack(text, _FRONT_MATTER, config, region=region, measurer=measurer)
        front_matter = len(spans)
        structure = self.structure_for(layout, config.span_fits(text, measurer))
        region = (layout.body_start, len(text))
        spans += pack(text, structure, config, region=region, measurer=measurer)
        return _Planned(spans, front_matter)

    def _config_with_room(self, room: int) -> ChunkConfig:
        """The configuration whose budget leaves ``room`` for a heading path."""
        budget = self.chunk_size - room
        if budget < 1:
            raise InvalidParameterError(
                "chunk_size",
                self.chunk_size,
                f"the longest heading path takes {room} {self.length.unit}, leaving no room "
                "for text with count_heading_path=True",
            )
        overlap = min(self.chunk_overlap, budget - 1)
        return ChunkConfig(budget, overlap, self.length, self.strip_whitespace)


class _Planned(NamedTuple):
    """A text's chunks as planned: their spans, the first ``front_matter`` of them the
    front matter's."""

    spans: list[SizedSpan]
    front_matter: int


def describe(layout: MarkdownLayout, start: int, end: int) -> dict[str, Any]:
    """The metadata of the chunk ``[start, end)``: heading path and section span."""
    if layout.front_matter is not None and start < layout.front_matter[1]:
        return {"headings": [], "section": list(layout.front_matter)}
    index = layout.section_of(start, end)
    if index < 0:
        return {"headings": [], "section": [layout.body_start, len(layout.text)]}
    sections, path = layout.headings, []
    at = index
    while at >= 0:  # (from the arrays: no Heading made for each chunk)
        path.append({"level": sections.levels[at], "text": sections.text(at)})
        at = sections.parents[at]
    return {"headings": path[::-1], "section": [sections.starts[index], sections.ends[index]]}


def heading_path_text(headings: list[Heading] | list[Mapping[str, Any]]) -> str:
    """The heading path as one line, outermost first (``"Guide > Install > Linux"``);
    an empty heading (``##`` alone) adds nothing to it."""
    texts = (h.text if isinstance(h, Heading) else str(h["text"]) for h in headings)
    return HEADING_PATH_SEPARATOR.join(text for text in texts if text)


def with_heading_path(chunk: Chunk) -> str:
    """The chunk's text with its heading path before it, for an embedding model.

    The innermost heading is not repeated when the chunk starts on its line; a chunk
    without headings is returned as it is.
    """
    if not isinstance(chunk, Chunk):
        raise ParameterTypeError(
            f"with_heading_path takes a spansplit Chunk, got {type(chunk).__name__}"
            + (
                ": for a LangChain Document use langchain_spansplit.with_heading_path"
                if hasattr(chunk, "page_content")
                else ""
            )
        )
    return _with_heading_path(chunk.text, chunk.start, chunk.metadata)


def headings_before(metadata: Mapping[str, Any], start: int) -> list[Mapping[str, Any]]:
    """The headings of a chunk's path (its ``metadata``, its ``start`` offset) that are not
    in its text: all but the innermost when the chunk starts on that heading's line (its
    section's first line, up to three spaces of indentation in)."""
    headings = list(metadata.get("headings", ()))
    section = metadata.get("section")
    if headings and section is not None and 0 <= start - int(section[0]) <= 3:
        headings.pop()
    return headings


def _with_heading_path(text: str, start: int, metadata: Mapping[str, Any]) -> str:
    return join_heading_path(heading_path_text(headings_before(metadata, start)), text)


def join_heading_path(path: str, text: str) -> str:
    """``text`` with the heading path ``path`` (one line) before it, a blank line between;
    ``text`` alone where the path is empty."""
    return f"{path}\n\n{text}" if path else text


def split_markdown(
    text: str,
    chunk_size: int,
    chunk_overlap: int = 0,
    *,
    length: LengthSpec = None,
    strip_whitespace: bool = True,
    count_heading_path: bool = False,
    merge_sections: bool = True,
) -> list[Chunk]:
    """Shortcut for ``MarkdownSplitter(...).split(text)``."""
    splitter = MarkdownSplitter(
        chunk_size,
        chunk_overlap,
        length=length,
        strip_whitespace=strip_whitespace,
        count_heading_path=count_heading_path,
        merge_sections=merge_sections,
    )
    return splitter.split(text)
