"""The generic node parser over a spansplit splitter: exact offsets that survive the pipeline.

A subclass only says which core splitter its pydantic fields build; this module turns the
splitter's chunks into LlamaIndex nodes. Offsets come from the chunks' spans, never from
searching the text, so they stay right on repeated text, through
``NodeParser._postprocess_parsed_nodes`` (which overwrites them with ``str.find``) and
when a parser splits the nodes of another parser.
"""

from __future__ import annotations

import difflib
import logging
import pickle
import warnings
from abc import abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from llama_index.core.bridge.pydantic import (
    Field,
    PrivateAttr,
    field_serializer,
    field_validator,
)
from llama_index.core.callbacks import CallbackManager, CBEventType, EventPayload
from llama_index.core.node_parser.interface import MetadataAwareTextSplitter, TextSplitter
from llama_index.core.node_parser.node_utils import build_nodes_from_splits, default_id_func
from llama_index.core.schema import (
    DEFAULT_TEXT_NODE_TMPL,
    BaseNode,
    Document,
    ImageDocument,
    MetadataMode,
    NodeRelationship,
    RelatedNodeInfo,
    TextNode,
)
from llama_index.core.utils import get_tqdm_iterable
from typing_extensions import Self

from spansplit import Chunk, LengthFunction, Splitter, count_lines, resolve_length
from spansplit.batch import DocumentError
from spansplit.chunk import PAGE_KEYS, first_page, with_page_numbers
from spansplit.errors import (
    ChunkTooLargeError,
    InvalidInputError,
    InvalidParameterError,
    ParameterTypeError,
)
from spansplit.validate import check_int, check_text

from .lengths import TokenListLength, is_saved_name, length_setting, saved_length

START_LINE = "start_line"
END_LINE = "end_line"
LINE_KEYS = (START_LINE, END_LINE)
"""Metadata keys of a node's 1-based first and last line in its root document."""

LOG = logging.getLogger("llama_index.node_parser.spansplit")

CONTENT_MODES = (MetadataMode.EMBED, MetadataMode.LLM)
"""The renderings of a node that must fit ``chunk_size``: what is embedded, what the LLM reads."""

T = TypeVar("T")

STOCK_SETTINGS = {
    "separator": "the word separator of LlamaIndex's SentenceSplitter/TokenTextSplitter",
    "paragraph_separator": "the paragraph separator of LlamaIndex's SentenceSplitter",
    "secondary_chunking_regex": "the sub-sentence regex of LlamaIndex's SentenceSplitter",
    "chunking_tokenizer_fn": "the sentence tokenizer of LlamaIndex's SentenceSplitter",
    "backup_separators": "the fallback separators of LlamaIndex's TokenTextSplitter",
}
"""Settings of LlamaIndex's own text splitters that spansplit's parsers do not take, and
what they are: the error for one says what to use instead."""


class _Cache(dict[Any, Any]):
    """Objects rebuilt from a parser's fields (splitters, tokenizer), keyed by the field
    values they were built from; pickles as empty, so a worker process rebuilds them from
    the fields instead of receiving them."""

    def __reduce__(self) -> tuple[type[_Cache], tuple[()]]:
        return (_Cache, ())


UNCACHED_FIELDS = frozenset({"callback_manager", "id_func"})
"""Fields that do not shape the splitter: left out of the cache key."""


def _frozen(value: Any) -> Hashable:
    """A hashable stand-in for a field value, equal only for equal values of the same type
    (``True`` is not ``1``): lists and dicts by their items, any other unhashable object by
    its identity."""
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(_frozen(item) for item in value))
    if isinstance(value, dict):
        return (dict, tuple((_frozen(k), _frozen(v)) for k, v in value.items()))
    try:
        hash(value)
    except TypeError:
        return (type(value), id(value))
    return (type(value), value)


@dataclass(frozen=True, slots=True)
class _Origin:
    """Where a node's text starts in its root document: offset and line, ``None`` if unknown."""

    offset: int | None
    line: int | None


def _origin(node: BaseNode, text: str) -> _Origin:
    """The position of ``node``'s text in the document it was cut from.

    A node that records its offsets (made by a parser) is placed by them, provided they
    span exactly its text; a document, or any node without offsets and without a source,
    is a root: its own text is the document. A parsed node without offsets cannot be
    placed, so its children get no offsets (``None``), rather than wrong ones.
    """
    start = getattr(node, "start_char_idx", None)
    if start is not None:
        end = getattr(node, "end_char_idx", None)
        if end is not None and end - start != len(text):
            return _Origin(None, None)
        # (at offset 0, line 1 unless the node says it is a part of a file starting later)
        line = _line_number(node.metadata.get(START_LINE)) or (1 if start == 0 else None)
        return _Origin(start, line)
    if isinstance(node, Document) or node.source_node is None:
        # A document that says which line of its file it starts at (a part of a file, as
        # some loaders make) has its chunks' lines counted on from there.
        return _Origin(0, _line_number(node.metadata.get(START_LINE)) or 1)
    return _Origin(None, None)


def _line_number(value: Any) -> int | None:
    """``value`` if it is a line number (an int of at least 1), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None


def _restore_default_id_func(value: Any, owner: str) -> Any:
    """``id_func`` as ``to_dict`` wrote it (``{"id_func_name": ...}``) back to a function."""
    if isinstance(value, dict) and "id_func_name" in value:
        name = value["id_func_name"]
        if name == default_id_func.__name__:
            return default_id_func
        raise ParameterTypeError(
            f"id_func={name!r} was serialized by name only and cannot be restored from it; "
            f"pass the function again: {owner}.from_dict(data, id_func={name})"
        )
    return value


class SpanNodeParser(TextSplitter):
    """Base of spansplit's node parsers: nodes are exact spans of their documents.

    Each node gets ``start_char_idx``/``end_char_idx`` (code points into the root
    document, also for a parser applied to the nodes of another parser) and, with
    ``include_line_numbers``, the metadata keys ``start_line``/``end_line`` (1-based
    CommonMark lines). Line numbers are left out of the text the embedding model and
    the LLM see unless ``line_numbers_in_content`` is set, so they take no budget.
    Configuration lives in pydantic fields only: ``to_dict`` is the whole configuration,
    so ``IngestionPipeline``'s cache keys, ``from_dict``, JSON and pickling all follow it.
    """

    include_line_numbers: bool = Field(
        default=True,
        strict=True,
        description="Add start_line/end_line (1-based, in the root document) to node metadata.",
    )
    line_numbers_in_content: bool = Field(
        default=False,
        strict=True,
        description="Also show start_line/end_line to the embedding model and the LLM.",
    )
    add_page_numbers: bool = Field(
        default=False,
        strict=True,
        description="Add page_start/page_end (a form feed ends a page, as in text from PDFs) "
        "to node metadata, hidden from the model like the line numbers.",
    )
    on_error: Literal["raise", "skip"] = Field(
        default="raise",
        description="A document that cannot be split (a NUL, a lone surrogate): 'raise' an "
        "error naming it, or 'skip' it with a warning and go on with the others.",
    )

    _cache: _Cache = PrivateAttr(default_factory=_Cache)

    init_only: ClassVar[frozenset[str]] = frozenset()
    """Keyword arguments ``__init__`` takes besides the fields (turned into fields)."""

    def __init__(self, *args: Any, **data: Any) -> None:
        if args:  # (LlamaIndex's parsers take their settings by keyword too, but for a few)
            raise TypeError(
                f"{type(self).__name__}() takes its settings by keyword "
                f"(chunk_size=..., ...), got {len(args)} positional: {args!r}"
            )
        self._reject_unknown(data)
        super().__init__(**data)
        self._splitter()  # build once: a bad setting fails here, with spansplit's typed error

    @classmethod
    def _reject_unknown(cls, data: dict[str, Any]) -> None:
        """Raise ``TypeError`` for a keyword that is no setting, as LlamaIndex's own parsers
        do (pydantic would ignore it: ``chunk_sise=8`` would leave the default size)."""
        known = set(cls.model_fields) | cls.init_only
        for name in data:
            if name in known:
                continue
            if name in STOCK_SETTINGS:
                hint = (
                    f" That is {STOCK_SETTINGS[name]}: spansplit's parsers find sentences, "
                    "paragraphs and words themselves, and SpanRecursiveNodeParser takes "
                    "separators=[...]."
                )
            else:
                close = difflib.get_close_matches(name, sorted(known), n=1)
                hint = f" Did you mean {close[0]!r}?" if close else ""
            raise ParameterTypeError(
                f"{cls.__name__}() got an unexpected keyword argument {name!r} "
                f"(={data[name]!r:.60}).{hint} Its settings: {', '.join(sorted(known))}."
            )

    @classmethod
    def from_defaults(
        cls, callback_manager: CallbackManager | None = None, **settings: Any
    ) -> Self:
        """The parser with ``settings`` and the defaults for the rest, as LlamaIndex's
        parsers' ``from_defaults`` (a ``callback_manager`` of ``None`` means a new one)."""
        return cls(callback_manager=callback_manager or CallbackManager([]), **settings)

    @field_validator("id_func", mode="before")
    @classmethod
    def _id_func_from_dict(cls, value: Any) -> Any:
        return _restore_default_id_func(value, cls.__name__)

    @field_validator("callback_manager", mode="before")
    @classmethod
    def _a_callback_manager(cls, value: Any) -> Any:
        """A ``CallbackManager`` (``None``: a new one). Anything else failed at the first
        split, far from its cause: ``from_defaults(" ")``, as for the stock
        ``SentenceSplitter.from_defaults(separator)``, made ``" "`` the callback manager."""
        if value is None:
            return CallbackManager([])
        if not isinstance(value, CallbackManager):
            raise ParameterTypeError(
                f"callback_manager must be a llama_index CallbackManager, got "
                f"{type(value).__name__}: {value!r:.80} ({cls.__name__}.from_defaults takes "
                "its settings as keywords: from_defaults(chunk_size=...))"
            )
        return value

    @classmethod
    def class_name(cls) -> str:
        return "SpanNodeParser"

    def _check_settings(self) -> None:
        """Check settings the core splitter would report under other names. Runs whenever
        the settings differ from those of every cached splitter: at construction, and at the
        next split after a field was assigned (``parser.chunk_size = 64``, LlamaIndex's
        ``Settings.chunk_size``) or replaced (``model_copy(update=...)``), neither of which
        pydantic validates here."""

    def _sync_settings(self) -> None:
        """Bring fields that follow others up to date before the splitter is looked up
        (``SpanCodeNodeParser``'s ``chunk_size`` follows ``max_chars``/``max_tokens``,
        also after ``model_copy(update=...)``, which sets fields without assigning them)."""

    @abstractmethod
    def _make_splitter(self, budget: int | None) -> Splitter:
        """The core splitter these fields describe, with ``budget`` instead of the
        configured size where the parser shrinks it for metadata (``None``: as configured)."""

    def _settings_key(self) -> Hashable:
        """The current values of the fields that shape the splitter, as a cache key: a
        splitter is never used for settings other than those it was built from."""
        return tuple(
            _frozen(getattr(self, name))
            for name in type(self).model_fields
            if name not in UNCACHED_FIELDS
        )

    def _splitter(self, budget: int | None = None) -> Splitter:
        """The core splitter for the current settings (``budget``: see ``_make_splitter``),
        built and checked on first use of these settings, then reused."""
        self._sync_settings()
        key = ("splitter", budget, self._settings_key())
        splitter = self._cache.get(key)
        if splitter is None:
            self._check_settings()
            if len(self._cache) > 64:  # many metadata sizes or settings: drop the old ones
                self._cache.clear()
            splitter = self._cache[key] = self._make_splitter(budget)
        return splitter

    def split_chunks(self, text: str, budget: int | None = None) -> list[Chunk]:
        """spansplit's chunks of ``text`` (spans, line numbers, sizes) for these settings."""
        chunks = self._splitter(budget).split(text)
        return with_page_numbers(text, chunks) if self.add_page_numbers else chunks

    def split_text(self, text: str) -> list[str]:
        return self._chunking(text, lambda: [chunk.text for chunk in self.split_chunks(text)])

    def _chunking(self, text: str, split: Callable[[], list[T]]) -> list[T]:
        """``split()`` (chunk texts or nodes of ``text``) inside one ``CHUNKING`` event, as
        LlamaIndex's own text splitters emit it: the text in, the chunk texts out, none for
        an empty text."""
        if not text:
            return split()
        with self.callback_manager.event(
            CBEventType.CHUNKING, payload={EventPayload.CHUNKS: [text]}
        ) as event:
            result = split()
            chunks = [
                item.get_content(MetadataMode.NONE) if isinstance(item, BaseNode) else item
                for item in result
            ]
            event.on_end(payload={EventPayload.CHUNKS: chunks})
        return result

    # -- nodes ------------------------------------------------------------------------

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        self._splitter()  # settings changed since construction are checked before any node
        parsed: list[BaseNode] = []
        for node in get_tqdm_iterable(nodes, show_progress, "Parsing nodes"):
            try:
                parsed.extend(self._nodes_from(node))
            except (InvalidInputError, ChunkTooLargeError) as error:  # the text, not settings
                metadata = node.metadata
                name = metadata.get("file_name") or metadata.get("source")
                name = str(name or node.ref_doc_id or node.node_id)
                failure = DocumentError(node.node_id, error, name)
                if self.on_error == "raise":
                    raise failure from error
                LOG.warning("llama-index-node-parser-spansplit: skipped %s: %s", name, error)
        return parsed

    def _nodes_from(self, node: BaseNode) -> list[BaseNode]:
        """The nodes of one input node, inside one ``CHUNKING`` event. The text is checked
        first: LlamaIndex hashes it (as UTF-8) as soon as a node refers to it, so a lone
        surrogate would otherwise fail there, as an untyped ``UnicodeEncodeError`` that
        ``on_error`` cannot skip."""
        text = check_text(node.get_content(metadata_mode=MetadataMode.NONE))
        if not text and isinstance(node, ImageDocument):
            return self._image_alone(node)
        return self._chunking(text, lambda: self._fitted_nodes(node, text))

    def _image_alone(self, node: ImageDocument) -> list[BaseNode]:
        """The one node of an image document without text: the image with the document's
        metadata and empty text (offsets 0 to 0), as LlamaIndex's text splitters give it,
        rather than no node, which lost the image."""
        (image,) = build_nodes_from_splits([""], node, id_func=self.id_func)
        image.start_char_idx, image.end_char_idx = 0, 0
        image.metadata = dict(node.metadata) if self.include_metadata else {}
        image.excluded_embed_metadata_keys = list(node.excluded_embed_metadata_keys)
        image.excluded_llm_metadata_keys = list(node.excluded_llm_metadata_keys)
        return [image]

    def _fitted_nodes(self, node: BaseNode, text: str) -> list[BaseNode]:
        """The nodes of ``node`` (whose text is ``text``); subclasses with budgets fit them
        to the metadata shown with them."""
        return self._build_nodes(node, self.split_chunks(text), _origin(node, text))

    def _build_nodes(self, node: BaseNode, chunks: list[Chunk], origin: _Origin) -> list[BaseNode]:
        """One node per chunk with the metadata and offsets it will keep after
        postprocessing, each built whole in one construction."""
        factory = _NodeFactory.of(node, self)
        if factory is None:  # an image document: LlamaIndex's own node type for it
            built = build_nodes_from_splits([c.text for c in chunks], node, id_func=self.id_func)
            for new, chunk in zip(built, chunks):
                new.start_char_idx, new.end_char_idx = _offsets(origin, chunk.start, chunk.end)
                new.metadata = self._node_metadata(node, origin, chunk)
                new.excluded_embed_metadata_keys = self._excluded(node.excluded_embed_metadata_keys)
                new.excluded_llm_metadata_keys = self._excluded(node.excluded_llm_metadata_keys)
            return list(built)
        return [
            factory.make(
                self.id_func(index, node),
                chunk.text,
                _offsets(origin, chunk.start, chunk.end),
                self._node_metadata(node, origin, chunk),
            )
            for index, chunk in enumerate(chunks)
        ]

    def _node_metadata(self, node: BaseNode, origin: _Origin, chunk: Chunk) -> dict[str, Any]:
        """The metadata of the node of ``chunk`` (subclasses add their own keys)."""
        metadata = self._metadata(node, origin, chunk.start_line, chunk.end_line)
        if self.add_page_numbers and self.include_metadata:
            # (the budget's probe chunk has no pages: it measures metadata alone) A node
            # that is a span of its document and says what page it starts on (split with
            # pages before) has its chunks' pages counted on from there.
            before = first_page(node.metadata) - 1 if origin.offset is not None else 0
            metadata.update({k: chunk.metadata.get(k, 1) + before for k in PAGE_KEYS})
        return metadata

    def _metadata(
        self, node: BaseNode, origin: _Origin, start_line: int, end_line: int
    ) -> dict[str, Any]:
        """The input's metadata and, with ``include_line_numbers``, this chunk's line numbers
        in the root document in place of the input's (where they are not known, none);
        nothing with ``include_metadata=False``, as LlamaIndex's parsers."""
        if not self.include_metadata:
            return {}
        if not self.include_line_numbers:
            return dict(node.metadata)
        metadata = {k: v for k, v in node.metadata.items() if k not in LINE_KEYS}
        if origin.line is not None:
            metadata[START_LINE] = origin.line + start_line - 1
            metadata[END_LINE] = origin.line + end_line - 1
        return metadata

    def _hidden_keys(self) -> tuple[str, ...]:
        """Metadata keys this parser adds that the embedding model and the LLM do not see."""
        hidden: tuple[str, ...] = PAGE_KEYS if self.add_page_numbers else ()
        if self.include_line_numbers and not self.line_numbers_in_content:
            hidden += LINE_KEYS
        return hidden

    def _excluded(self, keys: list[str]) -> list[str]:
        return [*keys, *(key for key in self._hidden_keys() if key not in keys)]

    def _postprocess_parsed_nodes(
        self, nodes: list[BaseNode], parent_doc_map: dict[str, Document]
    ) -> list[BaseNode]:
        """The framework's postprocessing (sources, metadata), then our exact offsets and
        line numbers back, and PREVIOUS/NEXT links between consecutive nodes of a document."""
        exact = [
            (
                getattr(node, "start_char_idx", None),
                getattr(node, "end_char_idx", None),
                {key: node.metadata[key] for key in LINE_KEYS if key in node.metadata},
            )
            for node in nodes
        ]
        # The framework's own PREVIOUS/NEXT links are made again below: skip them there.
        framework = self.model_copy(update={"include_prev_next_rel": False})
        nodes = super(SpanNodeParser, framework)._postprocess_parsed_nodes(nodes, parent_doc_map)
        for node, (start, end, lines) in zip(nodes, exact):
            # Assigned only where changed: every assignment is validated by pydantic.
            if isinstance(node, TextNode) and (node.start_char_idx, node.end_char_idx) != (
                start,
                end,
            ):
                node.start_char_idx, node.end_char_idx = start, end
            for key in LINE_KEYS:  # (in place: the keys' order is in the nodes' hashes)
                if key not in lines:
                    node.metadata.pop(key, None)
                elif node.metadata.get(key) != lines[key]:
                    node.metadata[key] = lines[key]
        if self.include_prev_next_rel:
            _link_neighbours([node for node in nodes if self._linked(node)])
        return nodes

    def _linked(self, node: BaseNode) -> bool:
        """Whether ``node`` takes part in PREVIOUS/NEXT links (parent nodes do not)."""
        return True


def _offsets(origin: _Origin, start: int, end: int) -> tuple[int | None, int | None]:
    """A chunk's offsets in the root document, or ``(None, None)`` where unknown."""
    if origin.offset is None:
        return None, None
    return origin.offset + start, origin.offset + end


@dataclass(frozen=True, slots=True)
class _NodeFactory:
    """Text nodes of one input: what they copy from it (as LlamaIndex's parsers do), the
    metadata keys hidden from the models, and one SOURCE relationship object for all."""

    embedding: list[float] | None
    embed_excluded: list[str]
    llm_excluded: list[str]
    metadata_separator: str
    metadata_template: str
    text_template: str
    source: RelatedNodeInfo

    @classmethod
    def of(cls, node: BaseNode, parser: SpanNodeParser) -> _NodeFactory | None:
        """For ``node`` parsed by ``parser``; None for an image document (not a text node)."""
        if isinstance(node, ImageDocument):
            return None
        if not isinstance(node, (TextNode, Document)):
            raise ValueError(f"Unknown document type: {type(node)}")
        return cls(
            node.embedding,
            parser._excluded(node.excluded_embed_metadata_keys),
            parser._excluded(node.excluded_llm_metadata_keys),
            node.metadata_separator,
            node.metadata_template,
            node.text_template,
            node.as_related_node_info(),
        )

    def make(
        self, node_id: str, text: str, span: tuple[int | None, int | None], metadata: dict[str, Any]
    ) -> TextNode:
        """A text node built whole in one construction (pydantic validates every
        assignment after it again)."""
        return TextNode(
            id_=node_id,
            text=text,
            start_char_idx=span[0],
            end_char_idx=span[1],
            metadata=metadata,
            embedding=self.embedding,
            excluded_embed_metadata_keys=list(self.embed_excluded),
            excluded_llm_metadata_keys=list(self.llm_excluded),
            metadata_separator=self.metadata_separator,
            metadata_template=self.metadata_template,
            text_template=self.text_template,
            relationships={NodeRelationship.SOURCE: self.source},
        )


def _related_node_info(node: BaseNode) -> RelatedNodeInfo:
    """``node.as_related_node_info()`` without validating again what the node holds (its
    metadata copied, as validation would)."""
    return RelatedNodeInfo.model_construct(
        node_id=node.node_id,
        node_type=node.get_type(),
        metadata=dict(node.metadata),
        hash=node.hash,
    )


def _link_neighbours(nodes: list[BaseNode]) -> None:
    """PREVIOUS/NEXT between consecutive nodes of the same document, both ways.

    The framework links a node to the next only while their sources match before it has
    re-pointed the next node's source to the document, so nodes split from nodes of
    another parser get PREVIOUS links but no NEXT links; links are made again here.
    """
    infos = [_related_node_info(node) for node in nodes]
    for i in range(1, len(nodes)):
        before, node = nodes[i - 1], nodes[i]
        if node.ref_doc_id is not None and before.ref_doc_id == node.ref_doc_id:
            node.relationships[NodeRelationship.PREVIOUS] = infos[i - 1]
            before.relationships[NodeRelationship.NEXT] = infos[i]


class SpanSizedNodeParser(SpanNodeParser):
    """A spansplit node parser with a size: ``chunk_size`` measured by ``length``."""

    chunk_size: int = Field(
        default=1024,
        strict=True,
        description="Largest chunk (a target for blocks), in the unit of `length`.",
    )
    length: Any = Field(
        default="cl100k_base",
        description=(
            "How sizes are measured: 'chars' (code points), 'utf8', 'utf16', a tiktoken "
            "encoding or model name such as 'cl100k_base', 'o200k_base' or 'gpt-4o', or any "
            "other form spansplit.resolve_length accepts (a tiktoken Encoding, a Hugging Face "
            "tokenizer, a callable str -> int); tokenizer= (text -> list) sets it too. A name "
            "is saved as it is, an object by a stable name only (see the README)."
        ),
    )

    init_only: ClassVar[frozenset[str]] = frozenset({"tokenizer"})

    def __init__(self, *args: Any, **data: Any) -> None:
        """``tokenizer`` (a callable from text to a list of tokens, as LlamaIndex's parsers
        take it) counts ``len(tokenizer(text))``: it becomes ``length``."""
        tokenizer = data.pop("tokenizer", None)
        if tokenizer is not None:
            if data.get("length") is not None and not is_saved_name(data["length"]):
                raise InvalidParameterError(
                    "tokenizer",
                    tokenizer,
                    f"give tokenizer or length, not both (length={data['length']!r})",
                )
            data["length"] = TokenListLength(tokenizer)
        super().__init__(*args, **data)

    @field_validator("length", mode="before")
    @classmethod
    def _length_setting(cls, value: Any) -> Any:
        return length_setting(value, cls.__name__)

    @field_serializer("length")
    def _saved_length(self, value: Any) -> Any:
        return saved_length(value)

    def __getstate__(self) -> dict[str, Any]:
        """LlamaIndex's pickling, but a length that cannot be pickled is an error here:
        LlamaIndex would drop it with a warning, and the copy a worker process gets (with
        ``num_workers > 1``) would count in cl100k_base instead."""
        try:
            pickle.dumps(self.length)
        except Exception as error:
            name = getattr(self.length, "name", self.length)
            raise ParameterTypeError(
                f"length {name!r} cannot be pickled ({error}), so this "
                "parser cannot go to another process (IngestionPipeline num_workers > 1, a "
                "process pool): pass a module-level function, a tiktoken encoding name or a "
                "Hugging Face tokenizer instead of a lambda or a local function"
            ) from error
        return super().__getstate__()

    @classmethod
    def class_name(cls) -> str:
        return "SpanSizedNodeParser"

    def _check_settings(self) -> None:
        check_int("chunk_size", self.chunk_size, 1)

    def _length(self) -> LengthFunction:
        """The length function ``length`` stands for, built once per process and value."""
        key = ("length", _frozen(self.length))
        length = self._cache.get(key)
        if length is None:
            length = self._cache[key] = resolve_length(self.length)
        return length

    def _scaled(self, overlap: int, budget: int | None) -> int:
        """``overlap`` for a budget shrunk by metadata: scaled with it, so it stays below it."""
        if budget is None or budget == self.chunk_size:
            return overlap
        return overlap * budget // self.chunk_size


class SpanBudgetNodeParser(SpanSizedNodeParser, MetadataAwareTextSplitter):
    """A spansplit node parser whose ``chunk_size`` is a hard budget, metadata included.

    A node's text and the metadata shown with it must fit together: the budget for the
    text is ``chunk_size`` less what the metadata takes, measured with the same length
    function, and every node is then measured as ``get_content(MetadataMode.EMBED)`` and
    ``get_content(MetadataMode.LLM)`` render it; if one is still over (tokens do not add
    up exactly across the join), the text budget shrinks by the excess and the text is
    split again. A budget of zero raises a typed error instead of an empty node.
    """

    @classmethod
    def class_name(cls) -> str:
        return "SpanBudgetNodeParser"

    def _fitted_nodes(self, node: BaseNode, text: str) -> list[BaseNode]:
        origin = _origin(node, text)
        last_line = max(1, count_lines(text))  # the most digits a line number has here
        probe = self._build_nodes(node, [Chunk("", 0, 0, 0, last_line, last_line, 0)], origin)[0]
        shown = [probe.get_metadata_str(mode).strip() for mode in CONTENT_MODES]
        if not any(shown):
            return self._build_nodes(node, self.split_chunks(text), origin)
        count = self._length().count
        template = str(getattr(probe, "text_template", DEFAULT_TEXT_NODE_TMPL))
        overhead = max(count(template.format(metadata_str=s, content="")) for s in shown if s)

        def attempt(budget: int) -> tuple[list[BaseNode], int]:
            built = self._build_nodes(node, self.split_chunks(text, budget), origin)
            shown = {n.get_content(mode) for n in built for mode in CONTENT_MODES}
            return built, max(map(count, shown), default=0)

        def metadata_size(built: list[BaseNode]) -> int:
            """The most that the metadata shown with one of ``built`` takes (its rendering
            less its text): only measured to report a budget that leaves no room."""
            return max(
                (
                    count(n.get_content(mode)) - count(n.get_content(MetadataMode.NONE))
                    for n in built
                    for mode in CONTENT_MODES
                ),
                default=overhead,
            )

        return self._fit(overhead, attempt, metadata_size)

    def split_text_metadata_aware(self, text: str, metadata_str: str) -> list[str]:
        """Chunks of ``text`` that fit ``chunk_size`` together with ``metadata_str`` in
        LlamaIndex's default node template (what ``TextNode.get_content`` renders)."""
        self._splitter()  # the current settings, checked before chunk_size is used
        shown = metadata_str.strip()
        if not shown:
            return self.split_text(text)
        return self._chunking(text, lambda: self._fitted_texts(text, shown))

    def _fitted_texts(self, text: str, shown: str) -> list[str]:
        """Chunk texts of ``text`` that fit with the metadata string ``shown``."""
        count = self._length().count

        def render(content: str) -> str:
            return DEFAULT_TEXT_NODE_TMPL.format(metadata_str=shown, content=content).strip()

        def attempt(budget: int) -> tuple[list[str], int]:
            texts = [chunk.text for chunk in self.split_chunks(text, budget)]
            return texts, max((count(render(t)) for t in texts), default=0)

        overhead = count(DEFAULT_TEXT_NODE_TMPL.format(metadata_str=shown, content=""))
        return self._fit(overhead, attempt)

    def _varying_metadata(self) -> str:
        """What in the metadata shown with a node differs from node to node (named in the
        error for a budget that leaves no room for text)."""
        return "metadata that differs between nodes"

    def _fit(
        self,
        overhead: int,
        attempt: Callable[[int], tuple[T, int]],
        metadata_size: Callable[[T], int] | None = None,
    ) -> T:
        """Split with ``chunk_size - overhead``, less any excess measured, until all fit.

        ``overhead`` is what the metadata every node shows takes; ``metadata_size`` of a
        result, the most the metadata of one of its nodes takes (more where it differs
        between nodes, as a heading path does), to say what took the room if none is left.
        """
        budget = self.chunk_size - overhead
        unit = self._length().unit
        if budget >= 1 and 2 * overhead > self.chunk_size:
            # (LlamaIndex's SentenceSplitter says as much where fewer than 50 tokens are left)
            warnings.warn(
                f"the metadata shown with each node takes {overhead} of chunk_size="
                f"{self.chunk_size} {unit}, leaving {budget} for its text, so nodes will be "
                "small; raise chunk_size or leave metadata keys out of the content "
                "(excluded_embed_metadata_keys / excluded_llm_metadata_keys)",
                UserWarning,
                stacklevel=2,
            )
        last: list[T] = []
        while budget >= 1:
            try:
                result, largest = attempt(budget)
            except ChunkTooLargeError as error:
                raise error.because(
                    f"chunk_size={self.chunk_size} less {self.chunk_size - budget} {unit} "
                    "for the metadata shown with each node"
                ) from None
            if largest <= self.chunk_size:
                return result
            last = [result]
            budget -= largest - self.chunk_size
        most = max(overhead, metadata_size(last[0])) if last and metadata_size else overhead
        if most > overhead:
            taken = (
                f"up to {most} {unit}: {overhead} for the metadata every node shows and up "
                f"to {most - overhead} more for {self._varying_metadata()}"
            )
        else:
            taken = f"{overhead} {unit}"
        raise InvalidParameterError(
            "chunk_size",
            self.chunk_size,
            f"the metadata shown with each node takes {taken}, leaving no room for text; "
            "raise chunk_size or leave metadata keys out of the content "
            "(excluded_embed_metadata_keys / excluded_llm_metadata_keys)",
        )
