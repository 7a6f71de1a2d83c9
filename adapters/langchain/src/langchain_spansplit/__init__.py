"""LangChain text splitters whose Documents are exact spans of their source.

Every Document's ``page_content`` equals ``text[start_index:end_index]`` of the text it
came from, with 1-based ``start_line``/``end_line``, and no chunk exceeds its budget under
the real length function (tiktoken and Hugging Face tokenizers included).
"""

from __future__ import annotations

from .base import (
    DEFAULT_ENCODING,
    END_INDEX,
    END_LINE,
    SPAN_METADATA_KEYS,
    START_INDEX,
    START_LINE,
    SpanTextSplitter,
)
from .code import SpanCodeTextSplitter, get_separators_for_language
from .markdown import HEADING_PATH, SpanMarkdownTextSplitter, with_heading_path
from .splitters import (
    SpanBlockTextSplitter,
    SpanCharacterTextSplitter,
    SpanParagraphTextSplitter,
    SpanRecursiveTextSplitter,
    SpanSentenceTextSplitter,
)

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_ENCODING",
    "END_INDEX",
    "END_LINE",
    "HEADING_PATH",
    "SPAN_METADATA_KEYS",
    "START_INDEX",
    "START_LINE",
    "SpanBlockTextSplitter",
    "SpanCharacterTextSplitter",
    "SpanCodeTextSplitter",
    "SpanMarkdownTextSplitter",
    "SpanParagraphTextSplitter",
    "SpanRecursiveTextSplitter",
    "SpanSentenceTextSplitter",
    "SpanTextSplitter",
    "__version__",
    "get_separators_for_language",
    "with_heading_path",
]
