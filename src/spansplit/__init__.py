"""spansplit: text splitting for RAG where every chunk is an exact span of its source.

``chunk.text == source[chunk.start:chunk.end]`` holds for every chunk of every splitter;
offsets are code points, lines are 1-based CommonMark lines, and budgets are measured
with the real length function (tiktoken included) and never exceeded. Every budgeted
splitter takes ``chunk_size``, ``chunk_overlap``, ``length`` and ``strip_whitespace``.
"""

from __future__ import annotations

from .boundaries.code_languages import LANGUAGES, CodeLanguage, language_for_path
from .boundaries.sentences import DEFAULT_ABBREVIATIONS, sentence_spans
from .boundaries.separators import PRESETS, SeparatorPreset
from .boundaries.words import word_spans
from .chunk import Chunk, Page, Span, convert_offsets, page
from .config import ChunkConfig
from .errors import (
    ChunkTooLargeError,
    ExtraNotInstalledError,
    GrammarUnavailableError,
    InconsistentLengthError,
    InputTypeError,
    InvalidInputError,
    InvalidParameterError,
    LengthFunctionError,
    ParameterTypeError,
    SpansplitError,
    TokenizerUnavailableError,
    WorkerStoppedError,
)
from .lines import LineIndex, count_lines
from .sizing import LengthFunction, resolve_length
from .splitters.base import BudgetedSplitter, Splitter
from .splitters.blocks import BlockSplitter, split_blocks
from .splitters.code import CodeSplitter, split_code
from .splitters.markdown import MarkdownSplitter, split_markdown, with_heading_path
from .splitters.paragraphs import ParagraphSplitter, split_paragraphs
from .splitters.recursive import RecursiveSplitter, split_recursive
from .splitters.sentences import SentenceSplitter, split_sentences
from .validate import check_text

__version__ = "0.2.0"

__all__ = [
    "DEFAULT_ABBREVIATIONS",
    "LANGUAGES",
    "PRESETS",
    "BlockSplitter",
    "BudgetedSplitter",
    "Chunk",
    "ChunkConfig",
    "ChunkTooLargeError",
    "CodeLanguage",
    "CodeSplitter",
    "ExtraNotInstalledError",
    "GrammarUnavailableError",
    "InconsistentLengthError",
    "InputTypeError",
    "InvalidInputError",
    "InvalidParameterError",
    "LengthFunction",
    "LengthFunctionError",
    "LineIndex",
    "MarkdownSplitter",
    "Page",
    "ParagraphSplitter",
    "ParameterTypeError",
    "RecursiveSplitter",
    "SentenceSplitter",
    "SeparatorPreset",
    "Span",
    "SpansplitError",
    "Splitter",
    "TokenizerUnavailableError",
    "WorkerStoppedError",
    "__version__",
    "check_text",
    "convert_offsets",
    "count_lines",
    "language_for_path",
    "page",
    "resolve_length",
    "sentence_spans",
    "split_blocks",
    "split_code",
    "split_markdown",
    "split_paragraphs",
    "split_recursive",
    "split_sentences",
    "with_heading_path",
    "word_spans",
]
