"""``SpanCodeNodeParser``: LlamaIndex's ``CodeSplitter`` parameters, spansplit's chunks.

It takes what LlamaIndex's ``CodeSplitter`` takes (``language``, ``chunk_lines``,
``chunk_lines_overlap``, ``max_chars``, ``count_mode``, ``max_tokens``) and splits with
spansplit's ``CodeSplitter``: whole definitions where they fit, then statements, lines
and words, never over the budget, with exact ``start_char_idx``/``end_char_idx`` and the
chunk's ``symbols``, ``node_kinds`` and ``language`` in each node's metadata (hidden from
the embedding model and the LLM, so they take no budget).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from llama_index.core.bridge.pydantic import Field, PrivateAttr
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import BaseNode
from typing_extensions import Self

from spansplit import Chunk, CodeSplitter, Splitter
from spansplit.errors import GrammarUnavailableError, InvalidParameterError, ParameterTypeError
from spansplit.splitters.code import Fallback
from spansplit.validate import check_int, check_overlap

from .base import SpanBudgetNodeParser, _Origin

CODE_KEYS = ("language", "symbols", "node_kinds")
"""Metadata keys a code node gets from its chunk."""

BUDGET_FIELDS = {"char": "max_chars", "token": "max_tokens"}
"""The field that holds the budget in each ``count_mode``: ``chunk_size`` follows it."""

DEFAULT_BUDGETS = {"max_chars": 1500, "max_tokens": 512}

STOCK_ORDER = (
    "chunk_lines",
    "chunk_lines_overlap",
    "max_chars",
    "count_mode",
    "max_tokens",
    "tokenizer",
    "parser",
    "callback_manager",
    "include_metadata",
    "include_prev_next_rel",
    "id_func",
)
"""The parameters after ``language`` in the order LlamaIndex's ``CodeSplitter`` takes them."""

BUDGET_SETTINGS = ("count_mode", "max_chars", "max_tokens", "chunk_size")
"""The fields that decide the budget: a change to one is synced to the others."""


class SpanCodeNodeParser(SpanBudgetNodeParser):
    """Code split at its syntax tree into nodes of at most ``max_chars`` code points
    (``count_mode="char"``) or ``max_tokens`` tokens of ``length`` (``"token"``).

    ``chunk_lines`` is accepted for compatibility and, as in LlamaIndex, does not bound
    a chunk; any ``chunk_lines_overlap`` above 0 turns overlap on: each node repeats the
    end of the previous one, up to a fifth of the budget (spansplit overlaps by size, not
    by a count of lines).
    ``chunk_size`` is the budget of the current ``count_mode``: it follows ``max_chars``
    (char mode) or ``max_tokens`` (token mode), and setting ``chunk_size`` (as
    ``Settings.chunk_size`` does) sets that field too, so the two never disagree. A field
    assigned after construction, or replaced with ``model_copy(update=...)``, is used at
    the next split. ``length`` is ``"chars"`` in char mode (switching ``count_mode`` to
    ``"token"`` counts with ``"cl100k_base"`` unless ``length`` says otherwise).
    ``fallback="separators"`` splits with the language's separator table where no grammar
    is available (no ``symbols`` then), as ``langchain_spansplit.SpanCodeTextSplitter``'s
    ``fallback`` does; ``"error"`` (the default) raises ``GrammarUnavailableError`` naming
    what to install.
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
    fallback: Fallback = Field(
        default="error",
        description="Where the language's grammar is not available: 'error' raises "
        "GrammarUnavailableError naming what to install, 'separators' splits with the "
        "language's separator table (no symbols).",
    )

    _synced: tuple[Any, ...] | None = PrivateAttr(default=None)
    """The budget settings as last synced (see ``_sync_settings``)."""

    def __init__(self, language: str, *args: Any, **data: Any) -> None:
        """The settings after ``language`` may be given in the order of LlamaIndex's
        ``CodeSplitter`` (see :data:`STOCK_ORDER`). ``parser`` (LlamaIndex's tree-sitter
        parser) is accepted as ``None`` only: spansplit loads the grammar itself. A
        ``tokenizer`` needs ``count_mode="token"``."""
        if len(args) > len(STOCK_ORDER):
            raise TypeError(
                f"SpanCodeNodeParser() takes at most {len(STOCK_ORDER) + 1} positional "
                f"arguments (language, {', '.join(STOCK_ORDER)}), got {len(args) + 1}"
            )
        for name, value in zip(STOCK_ORDER, args):
            if name in data:
                raise TypeError(f"SpanCodeNodeParser() got multiple values for {name!r}")
            data[name] = value
        if data.pop("parser", None) is not None:
            raise ParameterTypeError(
                "SpanCodeNodeParser() takes no parser=: spansplit loads the language's "
                "tree-sitter grammar itself (pip install 'spansplit[code]'); pass "
                "language=... only, or fallback='separators' where no grammar is available"
            )
        mode = data.get("count_mode", "char")
        if mode == "char" and data.get("tokenizer") is not None:
            raise InvalidParameterError(
                "tokenizer",
                data["tokenizer"],
                "counts tokens, but count_mode='char' counts code points (max_chars): "
                "pass count_mode='token' (with max_tokens) to count with it",
            )
        if mode == "char":
            data.setdefault("length", "chars")
        field = BUDGET_FIELDS.get(mode)
        if field is not None:  # (another count_mode is reported by pydantic)
            size = data.get("chunk_size")
            if size is None:
                if field in data:  # (checked here, so that its error names it, not chunk_size)
                    data[field] = check_int(field, data[field], 1)
                data["chunk_size"] = data.get(field, DEFAULT_BUDGETS[field])
            elif field not in data:
                data[field] = size
            elif data[field] != size:
                raise InvalidParameterError(
                    "chunk_size",
                    size,
                    f"differs from {field}={data[field]!r}, the budget of "
                    f"count_mode={mode!r}: give one of them",
                )
        data["language"] = language
        super().__init__(**data)
        self._synced = self._budget_settings()

    def __setattr__(self, name: str, value: Any) -> None:
        """An assigned budget field updates the other: ``chunk_size`` and the budget of
        the current ``count_mode`` stay equal."""
        super().__setattr__(name, value)
        if name in BUDGET_SETTINGS:
            self._sync_settings()

    def _budget_settings(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in BUDGET_SETTINGS)

    def _sync_settings(self) -> None:
        """Make ``chunk_size`` (and ``length``) agree with ``count_mode``, ``max_chars`` and
        ``max_tokens`` again after any of them changed, whether assigned or replaced by
        ``model_copy(update=...)``; a changed ``chunk_size`` sets the mode's budget field."""
        now = self._budget_settings()
        before = self._synced
        if before is None or now == before:
            self._synced = now
            return
        mode, chunk_size = self.count_mode, self.chunk_size
        field = BUDGET_FIELDS.get(mode)
        if field is None:
            raise InvalidParameterError(
                "count_mode", mode, "must be 'char' (max_chars) or 'token' (max_tokens)"
            )
        old = dict(zip(BUDGET_SETTINGS, before))
        budget = getattr(self, field)
        set_field = super().__setattr__  # plain assignments: no sync within the sync
        if mode != old["count_mode"]:
            if mode == "char":
                set_field("length", "chars")
            elif self.length == "chars":
                set_field("length", type(self).model_fields["length"].default)
        if mode != old["count_mode"] or budget != old[field]:
            if chunk_size != old["chunk_size"] and chunk_size != budget:
                raise InvalidParameterError(
                    "chunk_size",
                    chunk_size,
                    f"and {field}={budget!r} both changed and differ; chunk_size is the "
                    f"budget of count_mode={mode!r}: change one of them",
                )
            set_field("chunk_size", budget)
        elif chunk_size != old["chunk_size"]:
            set_field(field, chunk_size)
        self._synced = self._budget_settings()

    @classmethod
    def from_defaults(  # type: ignore[override]  # LlamaIndex's CodeSplitter.from_defaults
        cls,
        language: str,
        chunk_lines: int = 40,
        chunk_lines_overlap: int = 0,
        max_chars: int = 1500,
        count_mode: Literal["token", "char"] = "char",
        max_tokens: int = 512,
        tokenizer: Callable[[str], Sequence[Any]] | None = None,
        callback_manager: CallbackManager | None = None,
        parser: Any = None,
        **settings: Any,
    ) -> Self:
        """The parser as ``CodeSplitter.from_defaults(language, chunk_lines, ...)`` makes
        it: the same parameters in the same order (``language`` first), this class's
        defaults, and any other setting (``fallback``, ``length`` ...) by keyword."""
        if tokenizer is not None:
            settings["tokenizer"] = tokenizer
        return cls(
            language=language,
            chunk_lines=chunk_lines,
            chunk_lines_overlap=chunk_lines_overlap,
            max_chars=max_chars,
            count_mode=count_mode,
            max_tokens=max_tokens,
            callback_manager=callback_manager or CallbackManager([]),
            parser=parser,
            **settings,
        )

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
        try:
            return CodeSplitter(
                self.language,
                size,
                self._overlap(size),
                length=self._length(),
                fallback=self.fallback,
            )
        except GrammarUnavailableError as error:  # name this parser's own setting
            raise GrammarUnavailableError(
                error.language,
                f"{error} (here: SpanCodeNodeParser(language={self.language!r}, "
                "fallback='separators') splits with the separator table)",
            ) from error

    def _node_metadata(self, node: BaseNode, origin: _Origin, chunk: Chunk) -> dict[str, Any]:
        metadata = super()._node_metadata(node, origin, chunk)
        if self.include_metadata:
            metadata.update(chunk.metadata)
        return metadata

    def _hidden_keys(self) -> tuple[str, ...]:
        return (*super()._hidden_keys(), *(CODE_KEYS if self.include_metadata else ()))
