"""Source code for LangChain: syntax-tree chunks with symbol paths, and separator tables.

:class:`SpanCodeTextSplitter` wraps spansplit's ``CodeSplitter``: chunks follow
definitions, then statements, lines and words, and each Document's metadata says where
it lies (``symbols``, ``node_kinds``, ``language``) besides its exact offsets and lines.
:func:`get_separators_for_language` gives spansplit's own separator tables (regular
expressions, one for every ``Language`` member), what ``from_language`` splits with where no
grammar is installed; ``SpanRecursiveTextSplitter.get_separators_for_language`` gives
LangChain's own lists (:func:`langchain_separators`), as LangChain's static method does.
"""

from __future__ import annotations

from typing import Any

from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

from spansplit import CodeSplitter, InvalidParameterError
from spansplit.batch import OnError
from spansplit.boundaries.code_languages import get_language
from spansplit.sizing import LengthSpec
from spansplit.splitters.code import Fallback

from .base import SpanTextSplitter, length_spec, overlap_for


def get_separators_for_language(language: Any) -> list[str]:
    """spansplit's separators (regular expressions, coarsest first) for a LangChain
    ``Language`` member or a language name: what ``from_language`` splits with where no
    grammar is installed; pass them with ``is_separator_regex=True``. For LangChain's own
    lists (mostly plain strings) use ``SpanRecursiveTextSplitter.get_separators_for_language``."""
    return list(get_language(language).separators.separators)


def langchain_language(language: Any) -> Language:
    """The LangChain ``Language`` member for a member, its value (``"js"``) or a name or
    alias spansplit knows (``"javascript"``); ``InvalidParameterError`` if there is none."""
    if isinstance(language, Language):
        return language
    value = getattr(language, "value", language)
    if isinstance(value, str) and value in Language._value2member_map_:
        return Language(value)
    name = get_language(language).name  # a typed error for a language spansplit lacks
    for member in Language:
        if member.value == name or get_language_name(member) == name:
            return member
    raise InvalidParameterError(
        "language",
        language,
        "LangChain's Language has no member for it, so LangChain has no separator list; "
        f"spansplit's own is langchain_spansplit.get_separators_for_language({name!r})",
    )


def get_language_name(member: Language) -> str | None:
    """spansplit's name for a LangChain member, ``None`` for one spansplit does not know."""
    try:
        return get_language(member).name
    except InvalidParameterError:
        return None


def langchain_separators(language: Any) -> list[str]:
    """LangChain's separator list for ``language`` (see
    ``SpanRecursiveTextSplitter.get_separators_for_language``), from LangChain itself."""
    member = langchain_language(language)
    try:
        return RecursiveCharacterTextSplitter.get_separators_for_language(member)
    except ValueError as error:  # a member LangChain has no list for (Language.PERL)
        raise InvalidParameterError(
            "language",
            language,
            f"LangChain has no separator list for it ({error}); spansplit's own, regular "
            f"expressions for is_separator_regex=True, is "
            f"langchain_spansplit.get_separators_for_language({member.value!r}), and "
            "SpanRecursiveTextSplitter.from_language splits with it",
        ) from error


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
        """Make the splitter; the class docstring says what each parameter does."""
        super().__init__(
            CodeSplitter(
                language,
                chunk_size,
                overlap_for(chunk_overlap, chunk_size),
                length=length_spec(length_function),
                strip_whitespace=strip_whitespace,
                fallback=fallback,
            ),
            add_start_index=add_start_index,
            add_page_numbers=add_page_numbers,
            on_error=on_error,
        )
