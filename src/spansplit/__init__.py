"""spansplit: text splitting for RAG where every chunk is an exact span of its source.

``chunk.text == source[chunk.start:chunk.end]`` holds for every chunk of every splitter;
offsets are code points, lines are 1-based CommonMark lines, and budgets are measured
with the real length function (tiktoken included) and never exceeded.
"""

from __future__ import annotations

from .boundaries.sentences import DEFAULT_ABBREVIATIONS, sentence_spans
from .boundaries.separators import PRESETS, SeparatorPreset
from .boundaries.words import word_spans
from .chunk import Chunk, Page, convert_offsets, page
from .errors import (
    ChunkTooLargeError,
    InputTypeError,
    InvalidInputError,
    InvalidParameterError,
    ParameterTypeError,
    SpansplitError,
    TokenizerUnavailableError,
)
from .lines import LineIndex, count_lines
from .sizing import LengthFunction, resolve_length
from .splitters.base import Splitter
from .splitters.blocks import BlockSplitter, split_blocks
from .splitters.paragraphs import ParagraphSplitter, paragraphs_json, split_paragraphs
from .splitters.recursive import RecursiveSplitter, content_view, split_recursive
from .splitters.sentences import SentenceChunker, chunk_sentences
from .splitters.token_paragraphs import TokenParagraphSplitter, split_token_paragraphs
from .validate import check_text

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_ABBREVIATIONS",
    "PRESETS",
    "BlockSplitter",
    "Chunk",
    "ChunkTooLargeError",
    "InputTypeError",
    "InvalidInputError",
    "InvalidParameterError",
    "LengthFunction",
    "LineIndex",
    "Page",
    "ParagraphSplitter",
    "ParameterTypeError",
    "RecursiveSplitter",
    "SentenceChunker",
    "SeparatorPreset",
    "SpansplitError",
    "Splitter",
    "TokenParagraphSplitter",
    "TokenizerUnavailableError",
    "__version__",
    "check_text",
    "chunk_sentences",
    "content_view",
    "convert_offsets",
    "count_lines",
    "page",
    "paragraphs_json",
    "resolve_length",
    "sentence_spans",
    "split_blocks",
    "split_paragraphs",
    "split_recursive",
    "split_token_paragraphs",
    "word_spans",
]
