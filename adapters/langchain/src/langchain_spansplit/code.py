"""Source code for LangChain: syntax-tree chunks with symbol paths, and separator tables.

:class:`SpanCodeTextSplitter` wraps spansplit's ``CodeSplitter``: chunks follow
definitions, then statements, lines and words, and each Document's metadata says where
it lies (``symbols``, ``node_kinds``, ``language``) besides its exact offsets and lines.
:func:`get_separators_for_language` is LangChain's function of the same name, answered
from spansplit's own separator tables (one for every ``Language`` member).
"""

from __future__ import annotations

from typing import Any

from spansplit import CodeSplitter
from spansplit.batch import OnError
from spansplit.boundaries.code_languages import get_language
from spansplit.sizing import LengthSpec
from spansplit.splitters.code import Fallback

from .base import SpanTextSplitter, length_spec


def get_separators_for_language(language: Any) -> list[str]:
    """The separators (regular expressions, coarsest first) for a LangChain ``Language``
    member or a language name: what ``from_language`` splits with where no grammar is
    installed, and what LangChain users pass with ``is_separator_regex=True``."""
    return list(get_language(language).separators.separators)


class SpanCodeTextSplitter(SpanTextSplitter):
    """Code split at its syntax tree (spansplit's ``CodeSplitter``), exact spans and hard
    budgets under ``length_function``.

    ``language`` is a LangChain ``Language`` member or a name; ``fallback="separators"``
    uses the language's separator table where its grammar is not installed (otherwise a
    ``GrammarUnavailableError`` names the extra to install). Chunks are whole lines with
    their indentation unless ``strip_whitespace``.
    """

    def __init__(
        self,
        language: Any,
        chunk_size: int = 4000,
        chunk_overlap: int = 200,
        length_function: LengthSpec = len,
        strip_whitespace: bool = False,
        add_start_index: bool = False,
        add_page_numbers: bool = False,
        on_error: OnError = "raise",
        fallback: Fallback = "error",
    ) -> None:
        super().__init__(
            CodeSplitter(
                language,
                chunk_size,
                chunk_overlap,
                length=length_spec(length_function),
                strip_whitespace=strip_whitespace,
                fallback=fallback,
            ),
            add_start_index=add_start_index,
            add_page_numbers=add_page_numbers,
            on_error=on_error,
        )
