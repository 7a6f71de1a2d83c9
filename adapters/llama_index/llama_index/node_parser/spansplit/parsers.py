"""One thin node parser per spansplit splitter: fields in, the core splitter out.

None of them splits text itself: each maps its pydantic fields to the constructor of one
core splitter (the same ``chunk_size``, ``chunk_overlap`` and ``length``), and the bases in
:mod:`.base` do the rest.
"""

from __future__ import annotations

from typing import Any, Literal

from llama_index.core.bridge.pydantic import Field

from spansplit import (
    DEFAULT_ABBREVIATIONS,
    PRESETS,
    BlockSplitter,
    ParagraphSplitter,
    RecursiveSplitter,
    SentenceSplitter,
    Splitter,
)
from spansplit.errors import InvalidParameterError
from spansplit.packing import Structure
from spansplit.splitters.recursive import DEFAULT_SEPARATORS
from spansplit.validate import check_overlap

from .base import SpanBudgetNodeParser, SpanSizedNodeParser

DEFAULT_OVERLAP = 200
"""LlamaIndex's default ``chunk_overlap`` (its ``SentenceSplitter``'s)."""

_OVERLAP_DESCRIPTION = (
    "Most trailing context a node repeats from the one before it, in the unit of `length`."
)


class _OverlapMixin(SpanBudgetNodeParser):
    chunk_overlap: int = Field(
        default=DEFAULT_OVERLAP, strict=True, description=_OVERLAP_DESCRIPTION
    )

    def _check_settings(self) -> None:
        super()._check_settings()
        check_overlap(
            self.chunk_overlap, self.chunk_size, "chunk_overlap", "chunk_size", DEFAULT_OVERLAP
        )


class SpanRecursiveNodeParser(_OverlapMixin):
    """Recursive separator splitting (:class:`spansplit.RecursiveSplitter`): separators are
    tried coarsest first, pieces merged up to ``chunk_size``, overlap made of whole pieces;
    past the last separator a piece is cut at grapheme clusters, never over the budget."""

    separators: list[str] = Field(
        default_factory=lambda: list(DEFAULT_SEPARATORS),
        description="Separators, coarsest first; '' splits into grapheme clusters.",
    )
    keep_separator: bool | Literal["start", "end"] = Field(
        default=False,
        description="False drops separators at chunk edges; True/'end' keeps each with the "
        "piece before it, 'start' with the piece after it.",
    )
    strip_whitespace: bool = Field(
        default=True, strict=True, description="Trim each chunk (its span follows the trim)."
    )
    separators_are_regex: bool = Field(
        default=False,
        strict=True,
        description="Read the separators as regular expressions (Python re syntax).",
    )
    preset: str | None = Field(
        default=None,
        description="The spansplit preset the separators come from (set by from_preset); a "
        "structure-aware preset ('markdown') splits by its structure, not its separators.",
    )

    @classmethod
    def class_name(cls) -> str:
        return "SpanRecursiveNodeParser"

    @classmethod
    def from_preset(cls, preset: str, **fields: Any) -> SpanRecursiveNodeParser:
        """A parser with the separators of one of ``spansplit.PRESETS`` ('markdown', ...)."""
        if preset not in PRESETS:
            raise InvalidParameterError("preset", preset, f"must be one of {sorted(PRESETS)}")
        chosen = PRESETS[preset]
        fields.setdefault("keep_separator", chosen.keep_separator)
        return cls(
            separators=list(chosen.separators),
            separators_are_regex=chosen.regex,
            preset=preset,
            **fields,
        )

    def _make_splitter(self, budget: int | None) -> Splitter:
        size = budget or self.chunk_size
        splitter = RecursiveSplitter(
            size,
            self._scaled(self.chunk_overlap, budget),
            separators=self.separators,
            keep_separator=self.keep_separator,
            length=self._length(),
            strip_whitespace=self.strip_whitespace,
            separators_are_regex=self.separators_are_regex,
        )
        chosen = PRESETS.get(self.preset) if self.preset else None
        if chosen is not None and chosen.levels is not None:
            splitter.structure = Structure(chosen.levels(splitter.keep_separator), isolate=True)
        return splitter


class SpanSentenceNodeParser(_OverlapMixin):
    """Sentence-aligned chunks (:class:`spansplit.SentenceSplitter`): a chunk ends at a
    sentence boundary (UAX #29, with abbreviations and CJK punctuation) wherever one lies
    within ``chunk_size``; overlap repeats trailing text of the previous chunk."""

    abbreviations: list[str] | None = Field(
        default=None,
        description="Words whose full stop does not end a sentence ('Dr.', 'e.g.'); "
        "None for spansplit's English defaults, [] for pure UAX #29.",
    )

    @classmethod
    def class_name(cls) -> str:
        return "SpanSentenceNodeParser"

    def _make_splitter(self, budget: int | None) -> Splitter:
        return SentenceSplitter(
            budget or self.chunk_size,
            self._scaled(self.chunk_overlap, budget),
            length=self._length(),
            abbreviations=(
                DEFAULT_ABBREVIATIONS if self.abbreviations is None else self.abbreviations
            ),
        )


class SpanParagraphNodeParser(_OverlapMixin):
    """Paragraphs packed under the budget (:class:`spansplit.ParagraphSplitter`): a
    paragraph too large is split at sentences (Chinese and English punctuation), a
    sentence too large at words, then at grapheme clusters, each measured for real."""

    chunk_overlap: int = Field(default=0, strict=True, description=_OVERLAP_DESCRIPTION)

    @classmethod
    def class_name(cls) -> str:
        return "SpanParagraphNodeParser"

    def _make_splitter(self, budget: int | None) -> Splitter:
        return ParagraphSplitter(
            budget or self.chunk_size,
            self._scaled(self.chunk_overlap, budget),
            length=self._length(),
        )


class SpanBlockNodeParser(SpanSizedNodeParser):
    """Structure-aware paging blocks (:class:`spansplit.BlockSplitter`): headings and rules
    start a block, blank lines end one, and the blocks tile the document exactly.

    ``chunk_size`` is a target, not a budget: a single line longer than it is a block of
    its own, so metadata is not subtracted from it.
    """

    @classmethod
    def class_name(cls) -> str:
        return "SpanBlockNodeParser"

    def _make_splitter(self, budget: int | None) -> Splitter:
        return BlockSplitter(budget or self.chunk_size, length=self._length())
