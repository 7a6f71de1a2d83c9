"""Every splitter the harness times: spansplit's and its peers', configured alike.

A :class:`Contender` builds, for one budget, a fresh ``(call, pieces)`` pair: ``call(text)`` is
the library's own API and is all that is timed; ``pieces(text, result)`` turns its result into
``(text, start, end)`` triples afterwards (``start``/``end`` are ``None`` where the library
gives no offsets). Token budgets count cl100k_base tokens with the ``tiktoken.Encoding``
that spansplit's offline loader returns; each peer gets that encoding (or a counter made
from it) in the form it documents, except semantic-text-splitter's tiktoken-rs form, whose
cl100k_base is compiled into the library. Nothing here downloads anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Piece = tuple[str, "int | None", "int | None"]
Pieces = Callable[[str, Any], list[Piece]]
Built = tuple[Callable[[str], Any], Pieces]


@dataclass(frozen=True)
class Budget:
    """A chunk budget: ``size`` and ``overlap`` in ``unit`` (``tokens``, ``chars``, or
    ``none`` for the segmenters, which take no budget)."""

    unit: str
    size: int
    overlap: int = 0

    @property
    def label(self) -> str:
        if self.unit == "none":
            return "segmentation"
        unit = "cl100k tokens" if self.unit == "tokens" else "chars"
        extra = f", overlap {self.overlap}" if self.overlap else ""
        return f"{self.size:,} {unit}{extra}"

    @property
    def key(self) -> str:
        return f"{self.unit}-{self.size}-{self.overlap}"


PROSE = frozenset({"english", "chinese", "markdown", "mixed"})
"""The texts every general splitter is measured on."""


@dataclass(frozen=True)
class Contender:
    """One library's splitter: how to build it for a budget, and what it supports."""

    key: str
    name: str
    distribution: str
    units: frozenset[str]
    build: Callable[[Budget, Any], Built]
    config: str
    overlap: bool = True
    offsets: bool = True
    fresh: Callable[[], None] | None = None
    texts: frozenset[str] = PROSE
    """Keys of the texts it is measured on (a structure-aware splitter: its own kind)."""

    @property
    def ours(self) -> bool:
        return self.distribution == "spansplit"

    def supports(self, budget: Budget, text: str = "english") -> bool:
        return (
            budget.unit in self.units
            and (self.overlap or budget.overlap == 0)
            and text in self.texts
        )


def _token_counter(encoding: Any) -> Callable[[str], int]:
    encode = encoding.encode_ordinary
    return lambda text: len(encode(text))


def _length(budget: Budget, encoding: Any) -> Any:
    """spansplit's ``length=``: the encoding itself for tokens, code points otherwise."""
    return encoding if budget.unit == "tokens" else None


def _chunks(source: str, result: Any) -> list[Piece]:
    """Pieces of anything with ``text``/``start``/``end`` (spansplit's ``Chunk``)."""
    return [(c.text, c.start, c.end) for c in result]


def _texts(source: str, result: Any) -> list[Piece]:
    return [(t, None, None) for t in result]


# spansplit ---------------------------------------------------------------------------------


def _spansplit_recursive(budget: Budget, encoding: Any) -> Built:
    from spansplit import RecursiveSplitter

    splitter = RecursiveSplitter(budget.size, budget.overlap, length=_length(budget, encoding))
    return splitter.split, _chunks


def _spansplit_token_paragraphs(budget: Budget, encoding: Any) -> Built:
    from spansplit import ParagraphSplitter

    splitter = ParagraphSplitter(budget.size, budget.overlap, length=_length(budget, encoding))
    return splitter.split, _chunks


def _spansplit_sentences(budget: Budget, encoding: Any) -> Built:
    from spansplit import SentenceSplitter

    splitter = SentenceSplitter(budget.size, budget.overlap, length=_length(budget, encoding))
    return splitter.split, _chunks


def _spansplit_markdown(budget: Budget, encoding: Any) -> Built:
    from spansplit import MarkdownSplitter

    splitter = MarkdownSplitter(budget.size, budget.overlap, length=_length(budget, encoding))
    return splitter.split, _chunks


def _spansplit_code(budget: Budget, encoding: Any) -> Built:
    from texts import FILE_SEPARATOR

    from spansplit import CodeSplitter

    splitter = CodeSplitter("python", budget.size, budget.overlap, length=_length(budget, encoding))

    def call(text: str) -> list[Any]:
        return [splitter.split(source) for source in text.split(FILE_SEPARATOR)]

    def pieces(source: str, result: list[Any]) -> list[Piece]:
        # Offsets are within each file: moved to the joined text to be checked against it.
        found: list[Piece] = []
        offset = 0
        for text, chunks in zip(source.split(FILE_SEPARATOR), result):
            found += [(c.text, offset + c.start, offset + c.end) for c in chunks]
            offset += len(text) + len(FILE_SEPARATOR)
        return found

    return call, pieces


def _spansplit_blocks(budget: Budget, encoding: Any) -> Built:
    from spansplit import split_blocks

    return (lambda text: split_blocks(text, budget.size)), _chunks


def _spansplit_paragraphs(budget: Budget, encoding: Any) -> Built:
    from spansplit.compat import PlainParagraphSplitter

    return PlainParagraphSplitter().split, _chunks


def _spansplit_sentence_spans(budget: Budget, encoding: Any) -> Built:
    from spansplit import sentence_spans

    def pieces(source: str, spans: list[tuple[int, int]]) -> list[Piece]:
        # Spans only: their text is the source's by construction.
        return [(source[start:end], start, end) for start, end in spans]

    return sentence_spans, pieces


# peers -------------------------------------------------------------------------------------


def _langchain(budget: Budget, encoding: Any) -> Built:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    length: Callable[[str], int] = _token_counter(encoding) if budget.unit == "tokens" else len
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=budget.size, chunk_overlap=budget.overlap, length_function=length
    )
    return splitter.split_text, _texts


def _llama_index(budget: Budget, encoding: Any) -> Built:
    from llama_index.core.node_parser import SentenceSplitter

    # `tokenizer` returns a sequence whose len() is the size: tokens, or the string itself
    # (its len() is its code points) for character budgets.
    tokenizer = encoding.encode_ordinary if budget.unit == "tokens" else str
    splitter = SentenceSplitter(
        chunk_size=budget.size, chunk_overlap=budget.overlap, tokenizer=tokenizer
    )
    return splitter.split_text, _texts


def _semchunk_fresh() -> None:
    from semchunk import semchunk

    semchunk._memoized_token_counters.clear()  # a fresh memo cache for every repetition


def _semchunk(budget: Budget, encoding: Any) -> Built:
    from semchunk import semchunk

    chunker = semchunk.chunkerify(encoding if budget.unit == "tokens" else len, budget.size)
    overlap = budget.overlap or None

    def call(text: str) -> Any:
        return chunker(text, offsets=True, overlap=overlap)

    def pieces(source: str, result: Any) -> list[Piece]:
        chunks, offsets = result
        return [(t, s, e) for t, (s, e) in zip(chunks, offsets)]

    return call, pieces


def _sts_pieces(source: str, result: Any) -> list[Piece]:
    return [(t, s, s + len(t)) for s, t in result]


def _sts_tiktoken(budget: Budget, encoding: Any) -> Built:
    from semantic_text_splitter import TextSplitter

    if budget.unit == "tokens":
        splitter = TextSplitter.from_tiktoken_model("gpt-4", budget.size, budget.overlap)
    else:
        splitter = TextSplitter(budget.size, budget.overlap)
    return splitter.chunk_indices, _sts_pieces


def _sts_callback(budget: Budget, encoding: Any) -> Built:
    from semantic_text_splitter import TextSplitter

    splitter = TextSplitter.from_callback(_token_counter(encoding), budget.size, budget.overlap)
    return splitter.chunk_indices, _sts_pieces


def _chonkie_pieces(source: str, result: Any) -> list[Piece]:
    return [(c.text, c.start_index, c.end_index) for c in result]


def _chonkie_tokenizer(budget: Budget, encoding: Any) -> Any:
    return encoding if budget.unit == "tokens" else "character"


def _chonkie_fresh() -> None:
    from chonkie import RecursiveChunker

    RecursiveChunker._estimate_token_count.cache_clear()


def _chonkie_recursive(budget: Budget, encoding: Any) -> Built:
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(_chonkie_tokenizer(budget, encoding), chunk_size=budget.size)
    return chunker.chunk, _chonkie_pieces


def _chonkie_token(budget: Budget, encoding: Any) -> Built:
    from chonkie import TokenChunker

    chunker = TokenChunker(
        _chonkie_tokenizer(budget, encoding), chunk_size=budget.size, chunk_overlap=budget.overlap
    )
    return chunker.chunk, _chonkie_pieces


def _chonkie_sentence(budget: Budget, encoding: Any) -> Built:
    from chonkie import SentenceChunker

    chunker = SentenceChunker(
        _chonkie_tokenizer(budget, encoding), chunk_size=budget.size, chunk_overlap=budget.overlap
    )
    return chunker.chunk, _chonkie_pieces


BUDGETED = frozenset({"tokens", "chars"})
TOKENS = frozenset({"tokens"})
SEGMENTATION = frozenset({"none"})

CONTENDERS: tuple[Contender, ...] = (
    Contender(
        "spansplit-recursive",
        "spansplit RecursiveSplitter",
        "spansplit",
        BUDGETED,
        _spansplit_recursive,
        "`RecursiveSplitter(size, overlap, length=encoding)` (code points for chars); "
        "default separators; `.split(text)` returns `Chunk`s with offsets and lines",
    ),
    Contender(
        "spansplit-token-paragraphs",
        "spansplit ParagraphSplitter",
        "spansplit",
        BUDGETED,
        _spansplit_token_paragraphs,
        "`ParagraphSplitter(size, overlap, length=encoding)` (code points for chars)",
    ),
    Contender(
        "spansplit-sentences",
        "spansplit SentenceSplitter",
        "spansplit",
        BUDGETED,
        _spansplit_sentences,
        "`SentenceSplitter(size, overlap, length=encoding)` (code points for chars)",
    ),
    Contender(
        "spansplit-markdown",
        "spansplit MarkdownSplitter",
        "spansplit",
        BUDGETED,
        _spansplit_markdown,
        "`MarkdownSplitter(size, overlap, length=encoding)` (code points for chars; the "
        "`markdown` extra): sections, blocks kept whole, heading paths",
        texts=frozenset({"markdown"}),
    ),
    Contender(
        "spansplit-code",
        "spansplit CodeSplitter",
        "spansplit",
        BUDGETED,
        _spansplit_code,
        "`CodeSplitter('python', size, overlap, length=encoding)` (code points for chars; "
        "the `code` extra), file by file",
        texts=frozenset({"python"}),
    ),
    Contender(
        "spansplit-blocks",
        "spansplit split_blocks",
        "spansplit",
        frozenset({"chars"}),
        _spansplit_blocks,
        "`split_blocks(text, size)`: seed 000 paging blocks (no overlap; a single line "
        "longer than the target is its own block by contract)",
        overlap=False,
    ),
    Contender(
        "spansplit-paragraphs",
        "spansplit PlainParagraphSplitter",
        "spansplit",
        SEGMENTATION,
        _spansplit_paragraphs,
        "`compat.PlainParagraphSplitter().split(text)` (seed 002, with line numbers)",
    ),
    Contender(
        "spansplit-sentence-spans",
        "spansplit sentence_spans",
        "spansplit",
        SEGMENTATION,
        _spansplit_sentence_spans,
        "`sentence_spans(text)` (UAX #29 + CJK + abbreviations; spans only)",
    ),
    Contender(
        "langchain-recursive",
        "LangChain RecursiveCharacterTextSplitter",
        "langchain-text-splitters",
        BUDGETED,
        _langchain,
        "`RecursiveCharacterTextSplitter(chunk_size, chunk_overlap, length_function=...)` "
        "with `len(encoding.encode_ordinary(t))` for tokens, `len` for chars (what "
        "`from_tiktoken_encoder` builds, without its download); `.split_text(text)`",
        offsets=False,
    ),
    Contender(
        "llama-index-sentence",
        "LlamaIndex SentenceSplitter",
        "llama-index-core",
        BUDGETED,
        _llama_index,
        "`SentenceSplitter(chunk_size, chunk_overlap, tokenizer=encoding.encode_ordinary)` "
        "for tokens, `tokenizer=str` (len = code points) for chars; `.split_text(text)`; "
        "its sentence tokenizer (NLTK punkt) ships with llama-index-core",
        offsets=False,
    ),
    Contender(
        "semchunk",
        "semchunk",
        "semchunk",
        BUDGETED,
        _semchunk,
        "`semchunk.chunkerify(encoding, size)` (it counts with `encode(t, "
        "disallowed_special=())` and memoizes; `len` for chars); called with "
        "`offsets=True, overlap=overlap`; its memo cache is emptied before each repetition",
        fresh=_semchunk_fresh,
    ),
    Contender(
        "sts-tiktoken",
        "semantic-text-splitter (tiktoken-rs)",
        "semantic-text-splitter",
        BUDGETED,
        _sts_tiktoken,
        "`TextSplitter.from_tiktoken_model('gpt-4', size, overlap)` (cl100k_base compiled "
        "into the library), `TextSplitter(size, overlap)` for chars; `.chunk_indices(text)`",
    ),
    Contender(
        "sts-callback",
        "semantic-text-splitter (callback)",
        "semantic-text-splitter",
        TOKENS,
        _sts_callback,
        "`TextSplitter.from_callback(lambda t: len(encoding.encode_ordinary(t)), size)`; "
        "`.chunk_indices(text)`; timed without overlap only (the tiktoken-rs form covers "
        "overlap), and not in the scaling series",
        overlap=False,
    ),
    Contender(
        "chonkie-recursive",
        "chonkie RecursiveChunker",
        "chonkie",
        BUDGETED,
        _chonkie_recursive,
        "`RecursiveChunker(tokenizer=encoding, chunk_size=size)` ('character' for chars); "
        "default rules; no overlap option; `.chunk(text)`",
        overlap=False,
        fresh=_chonkie_fresh,
    ),
    Contender(
        "chonkie-token",
        "chonkie TokenChunker",
        "chonkie",
        BUDGETED,
        _chonkie_token,
        "`TokenChunker(tokenizer=encoding, chunk_size=size, chunk_overlap=overlap)` "
        "('character' for chars); `.chunk(text)`",
    ),
    Contender(
        "chonkie-sentence",
        "chonkie SentenceChunker",
        "chonkie",
        BUDGETED,
        _chonkie_sentence,
        "`SentenceChunker(tokenizer=encoding, chunk_size=size, chunk_overlap=overlap)` "
        "('character' for chars); default delimiters; `.chunk(text)`",
    ),
)


# LlamaIndex adapter (issue 7's 8 MB target) --------------------------------------------------

ADAPTER_BUDGET = Budget("tokens", 256, 32)
"""llama_index#10554's settings: ``SentenceSplitter(chunk_size=256, chunk_overlap=32)``."""


def _nodes(parser: Any) -> Built:
    """``get_nodes_from_documents`` on one ``Document`` of the text, as a pipeline calls it."""
    from llama_index.core import Document

    def call(text: str) -> Any:
        return parser.get_nodes_from_documents([Document(text=text)])

    def pieces(source: str, nodes: Any) -> list[Piece]:
        return [(n.text, n.start_char_idx, n.end_char_idx) for n in nodes]

    return call, pieces


def _adapter(class_name: str) -> Callable[[Budget, Any], Built]:
    def build(budget: Budget, encoding: Any) -> Built:
        from llama_index.node_parser import spansplit

        parser = getattr(spansplit, class_name)(
            chunk_size=budget.size, chunk_overlap=budget.overlap
        )
        return _nodes(parser)

    return build


def _stock_sentence_splitter(budget: Budget, encoding: Any) -> Built:
    from llama_index.core.node_parser import SentenceSplitter

    return _nodes(SentenceSplitter(chunk_size=budget.size, chunk_overlap=budget.overlap))


_ADAPTER_NOTE = (
    "`{0}(chunk_size=256, chunk_overlap=32)` (default `length='cl100k_base'`, loaded "
    "offline); `get_nodes_from_documents([Document(text=text)])`"
)

_ADAPTER_PARSERS = (
    "SpanSentenceNodeParser",
    "SpanRecursiveNodeParser",
    "SpanParagraphNodeParser",
)

ADAPTERS: tuple[Contender, ...] = (
    *(
        Contender(
            f"llama-adapter-{name.lower()}",
            f"spansplit {name}",
            "spansplit",
            TOKENS,
            _adapter(name),
            _ADAPTER_NOTE.format(name),
        )
        for name in _ADAPTER_PARSERS
    ),
    Contender(
        "llama-adapter-stock",
        "LlamaIndex SentenceSplitter (stock)",
        "llama-index-core",
        TOKENS,
        _stock_sentence_splitter,
        "`SentenceSplitter(chunk_size=256, chunk_overlap=32)` with its default tokenizer "
        "(cl100k_base from the copy llama-index-core ships); "
        "`get_nodes_from_documents([Document(text=text)])`",
    ),
)

BY_KEY = {c.key: c for c in (*CONTENDERS, *ADAPTERS)}
