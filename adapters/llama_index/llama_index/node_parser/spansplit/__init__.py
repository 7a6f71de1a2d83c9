"""LlamaIndex node parsers from spansplit: every node is an exact span of its document.

``start_char_idx``/``end_char_idx`` are exact on every node (also on repeated text, after
the framework's postprocessing, and for parsers applied to the nodes of other parsers),
``start_line``/``end_line`` are in the metadata (hidden from the embedding model and the
LLM by default), and ``chunk_size`` is a hard budget under the real tokenizer, metadata
included.
"""

from .base import (
    END_LINE,
    LINE_KEYS,
    START_LINE,
    SpanBudgetNodeParser,
    SpanNodeParser,
    SpanSizedNodeParser,
)
from .code import SpanCodeNodeParser
from .markdown import SpanMarkdownNodeParser
from .parsers import (
    SpanBlockNodeParser,
    SpanParagraphNodeParser,
    SpanRecursiveNodeParser,
    SpanSentenceNodeParser,
)

__all__ = [
    "END_LINE",
    "LINE_KEYS",
    "START_LINE",
    "SpanBlockNodeParser",
    "SpanBudgetNodeParser",
    "SpanCodeNodeParser",
    "SpanMarkdownNodeParser",
    "SpanNodeParser",
    "SpanParagraphNodeParser",
    "SpanRecursiveNodeParser",
    "SpanSentenceNodeParser",
    "SpanSizedNodeParser",
]
