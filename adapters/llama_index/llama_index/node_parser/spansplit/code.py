"""``SpanCodeNodeParser``: LlamaIndex's ``CodeSplitter`` parameters, spansplit's chunks.

It takes what LlamaIndex's ``CodeSplitter`` takes (``language``, ``chunk_lines``,
``chunk_lines_overlap``, ``max_chars``, ``count_mode``, ``max_tokens``) and splits with
spansplit's ``CodeSplitter``: whole definitions where they fit, then statements, lines
and words, never over the budget, with exact ``start_char_idx``/``end_char_idx`` and the
chunk's ``symbols``, ``node_kinds`` and ``language`` in each node's metadata (hidden from
the embedding model and the LLM, so they take no budget).
"""

from __future__ import annotations

from typing import Any, Literal

from llama_index.core.bridge.pydantic import Field
from llama_index.core.schema import BaseNode

from spansplit import Chunk, CodeSplitter, Splitter
from spansplit.validate import check_int, check_overlap

from .base import SpanBudgetNodeParser, _Origin

CODE_KEYS = ("language", "symbols", "node_kinds")
"""Metadata keys a code node gets from its chunk."""


class SpanCodeNodeParser(SpanBudgetNodeParser):
    """Code split at its syntax tree into nodes of at most ``max_chars`` code points
    (``count_mode="char"``) or ``max_tokens`` tokens of ``length`` (``"token"``).

    ``chunk_lines`` is accepted for compatibility and, as in LlamaIndex, does not bound
    a chunk; any ``chunk_lines_overlap`` above 0 turns overlap on: each node repeats the
    end of the previous one, up to a fifth of the budget (spansplit overlaps by size, not
    by a count of lines).
    ``chunk_size`` follows ``max_chars``/``max_tokens``; ``length`` is ``"chars"`` in
    char mode.
    """

    language: str = Field(description="The programming language of the code being split.")
    chunk_lines: int = Field(default=40, gt=0, description="Accepted as in LlamaIndex.")
    chunk_lines_overlap: int = Field(
        default=0, ge=0, description="Above 0: nodes repeat up to a fifth of the budget (0: none)."
    )
    max_chars: int = Field(default=1500, gt=0, description="Budget in code points (char mode).")
    count_mode: Literal["token", "char"] = Field(
        default="char", description="'char': max_chars code points; 'token': max_tokens tokens."
    )
    max_tokens: int = Field(default=512, gt=0, description="Budget in tokens (token mode).")

    def __init__(self, language: str, **data: Any) -> None:
        mode = data.get("count_mode", "char")
        if mode == "char":
            data.setdefault("chunk_size", data.get("max_chars", 1500))
            data.setdefault("length", "chars")
        else:
            data.setdefault("chunk_size", data.get("max_tokens", 512))
        data["language"] = language
        super().__init__(**data)

    @classmethod
    def class_name(cls) -> str:
        return "SpanCodeNodeParser"

    def _check_settings(self) -> None:
        super()._check_settings()
        check_int("chunk_lines_overlap", self.chunk_lines_overlap, 0)
        check_overlap(self._overlap(self.chunk_size), self.chunk_size, "overlap", "chunk_size")

    def _overlap(self, budget: int) -> int:
        return budget // 5 if self.chunk_lines_overlap else 0

    def _make_splitter(self, budget: int | None) -> Splitter:
        size = budget or self.chunk_size
        return CodeSplitter(self.language, size, self._overlap(size), length=self._length())

    def _node_metadata(self, node: BaseNode, origin: _Origin, chunk: Chunk) -> dict[str, Any]:
        metadata = super()._node_metadata(node, origin, chunk)
        if self.include_metadata:
            metadata.update(chunk.metadata)
        return metadata

    def _hidden_keys(self) -> tuple[str, ...]:
        return (*super()._hidden_keys(), *(CODE_KEYS if self.include_metadata else ()))
