"""Conventionally named LangChain splitters, one per spansplit splitter.

Each class only translates LangChain's parameter names (``chunk_size``, ``chunk_overlap``,
``length_function``) to the core splitter's and hands it to :class:`SpanTextSplitter`.
The two that replace LangChain classes (:class:`SpanRecursiveTextSplitter` for
``RecursiveCharacterTextSplitter``, :class:`SpanCharacterTextSplitter` for
``CharacterTextSplitter``) take LangChain's parameters in LangChain's order with its
defaults. ``length_function`` takes anything ``spansplit.resolve_length`` accepts: a
callable ``str -> int`` (``len`` means code points), ``"utf8"``, a tiktoken encoding or
model name, a tiktoken ``Encoding`` or a Hugging Face tokenizer.
"""

from __future__ import annotations

import warnings
from collections.abc import Collection, Sequence
from typing import Any

from typing_extensions import Self

import spansplit
from spansplit import (
    BlockSplitter,
    InvalidParameterError,
    ParagraphSplitter,
    RecursiveSplitter,
    SentenceSplitter,
)
from spansplit.batch import OnError
from spansplit.boundaries.separators import KeepSeparator
from spansplit.packing import Structure
from spansplit.sizing import LengthSpec
from spansplit.splitters.recursive import DEFAULT_SEPARATORS

from .base import SpanTextSplitter, check_no_overlap, length_spec, overlap_for


def separator_splitter(
    separators: Sequence[str],
    keep_separator: KeepSeparator,
    is_separator_regex: bool,
    chunk_size: int,
    chunk_overlap: int,
    length_function: LengthSpec,
    strip_whitespace: bool,
) -> RecursiveSplitter:
    """The core splitter for LangChain's separator settings, in LangChain's meaning:
    ``keep_separator=True`` is ``"start"`` (the core's ``True`` is ``"end"``)."""
    return RecursiveSplitter(
        chunk_size,
        overlap_for(chunk_overlap, chunk_size),
        separators,
        "start" if keep_separator is True else keep_separator,
        length=length_spec(length_function),
        strip_whitespace=strip_whitespace,
        separators_are_regex=is_separator_regex,
    )


SYNTAX_OPTIONS = frozenset(
    {
        "chunk_size",
        "chunk_overlap",
        "length_function",
        "keep_separator",  # True or "start" only (see from_language)
        "add_start_index",
        "add_page_numbers",
        "on_error",
        "strip_whitespace",
    }
)
"""``from_language``'s keywords that leave the cuts to the syntax tree: the rest
(``separators``, ``is_separator_regex``) are separator-table settings."""


class SpanRecursiveTextSplitter(SpanTextSplitter):
    """``RecursiveCharacterTextSplitter``'s scheme with exact spans and hard budgets.

    Same parameters, order and defaults as LangChain's class (``separators`` first, the
    ``TextSplitter`` settings as keywords); ``keep_separator=True`` means ``"start"`` and
    ``separators`` of ``None`` or ``[]`` mean the defaults, as in LangChain. Unlike it, no
    chunk ever exceeds ``chunk_size`` under ``length_function`` and ``chunk_overlap`` must
    be smaller than ``chunk_size``.
    """

    def __init__(
        self,
        separators: Sequence[str] | None = None,
        keep_separator: KeepSeparator = True,
        is_separator_regex: bool = False,
        *,
        chunk_size: int = 4000,
        chunk_overlap: int = 200,
        length_function: LengthSpec = len,
        add_start_index: bool = False,
        add_page_numbers: bool = False,
        on_error: OnError = "raise",
        strip_whitespace: bool = True,
    ) -> None:
        """Make the splitter; the class docstring says what each parameter does."""
        splitter = separator_splitter(
            separators or DEFAULT_SEPARATORS, keep_separator, is_separator_regex,
            chunk_size, chunk_overlap, length_function, strip_whitespace,
        )  # fmt: skip
        super().__init__(
            splitter,
            add_start_index=add_start_index,
            add_page_numbers=add_page_numbers,
            on_error=on_error,
        )
        self._separators = list(separators or DEFAULT_SEPARATORS)  # as LangChain keeps them
        self._is_separator_regex = bool(is_separator_regex)
        self._keep_separator = keep_separator

    @classmethod
    def from_preset(cls, preset: str, **kwargs: Any) -> Self:
        """A splitter with the separators of ``spansplit.PRESETS[preset]`` (e.g.
        ``"markdown"``, ``"python"``); ``kwargs`` as for the class."""
        if preset not in spansplit.PRESETS:
            raise InvalidParameterError(
                "preset", preset, f"must be one of {sorted(spansplit.PRESETS)}"
            )
        chosen = spansplit.PRESETS[preset]
        keep = chosen.keep_separator  # the core's True is "end"; here True means "start"
        kwargs.setdefault("keep_separator", "end" if keep is True else keep)
        splitter = cls(separators=chosen.separators, is_separator_regex=chosen.regex, **kwargs)
        core = splitter.splitter
        if chosen.levels is not None and isinstance(core, RecursiveSplitter):
            # A structure-aware preset (markdown): its levels, not its regexes.
            core.structure = Structure(chosen.levels(core.keep_separator), isolate=True)
        return splitter

    @classmethod
    def from_language(cls, language: Any, **kwargs: Any) -> Self:
        """LangChain's ``from_language`` for every ``Language`` member (or its value).

        Where the language's tree-sitter grammar is installed (``spansplit[code]``) and
        no ``separators`` are given, the chunks follow the syntax tree (spansplit's
        ``CodeSplitter``: definitions, statements, lines, words, with ``symbols`` in the
        metadata); elsewhere the language's separator table is used, as LangChain does.
        ``kwargs`` as for the class, with its defaults: chunks are trimmed
        (``strip_whitespace=True``, as LangChain's) either way, unless
        ``strip_whitespace=False`` keeps code's indentation and line endings.

        The syntax tree takes every keyword but ``keep_separator="end"`` or ``False``:
        ``True`` and ``"start"`` (the default) are what it does anyway (a definition's
        keyword starts its chunk), while ``"end"`` (the keyword ends the chunk before)
        and ``False`` (the keyword is left out) are separator-table cuts, so with them the
        table is used and a ``UserWarning`` says so.
        """
        from spansplit.boundaries.code import grammar_available
        from spansplit.boundaries.code_languages import get_language

        from .code import SpanCodeTextSplitter, get_separators_for_language

        info = get_language(language)
        keep = kwargs.get("keep_separator", True)
        tree = info.grammar is not None and set(kwargs) <= SYNTAX_OPTIONS
        tree = tree and grammar_available(info)
        if tree and not (keep is True or keep == "start"):  # a definition starts with its keyword
            tree = False
            if keep is False or keep == "end":  # (another value: the class names the error)
                warnings.warn(
                    f"from_language({info.name!r}, keep_separator={keep!r}) splits with the "
                    "language's separator table, not its syntax tree (no 'symbols' in the "
                    "metadata): syntax-tree chunks start with their definition's keyword, "
                    "as keep_separator=True or 'start' (the default) gives",
                    UserWarning,
                    stacklevel=2,
                )
        if tree:
            # This class trims by default; SpanCodeTextSplitter, standing for no LangChain
            # class, keeps whole lines by default.
            keep = kwargs.pop("keep_separator", True)
            kwargs.setdefault("strip_whitespace", True)
            code = SpanCodeTextSplitter(info.name, **kwargs)
            # Built as LangChain builds it (a subclass's __init__ runs), then given the
            # code splitter's settings.
            splitter = cls(
                separators=get_separators_for_language(info.name),
                is_separator_regex=True,
                keep_separator=keep,
                **kwargs,
            )
            vars(splitter).update(vars(code))
            splitter._keep_separator = keep
            return splitter
        kwargs.setdefault("keep_separator", "start")
        return cls(
            separators=get_separators_for_language(info.name), is_separator_regex=True, **kwargs
        )

    @staticmethod
    def get_separators_for_language(language: Any) -> list[str]:
        """LangChain's static method, answered by LangChain: the list
        ``RecursiveCharacterTextSplitter.get_separators_for_language`` returns for a
        ``Language`` member, its value or a name spansplit knows (``"javascript"``).

        Most are plain strings, to customise and pass back as ``separators=`` with the
        default ``is_separator_regex=False``, as LangChain users do. Where LangChain has
        no list (``Language.PERL``) an ``InvalidParameterError`` (a ``ValueError``, as
        LangChain raises) points to spansplit's own table: the module-level
        :func:`~langchain_spansplit.get_separators_for_language` (regular expressions).
        """
        from .code import langchain_separators

        return langchain_separators(language)


class SpanCharacterTextSplitter(SpanTextSplitter):
    """``CharacterTextSplitter`` with exact spans and hard budgets: the text is split at
    ``separator`` (a literal, or a regular expression with ``is_separator_regex``) and the
    pieces merged up to ``chunk_size``.

    Same parameters, order and defaults as LangChain's class. A piece larger than
    ``chunk_size`` is cut between words (where UAX #14 allows a line break), a word larger
    than it at grapheme clusters, rather than passed through over budget;
    ``keep_separator=True`` means ``"start"``, as in LangChain.
    """

    def __init__(
        self,
        separator: str = "\n\n",
        is_separator_regex: bool = False,
        *,
        chunk_size: int = 4000,
        chunk_overlap: int = 200,
        length_function: LengthSpec = len,
        keep_separator: KeepSeparator = False,
        add_start_index: bool = False,
        add_page_numbers: bool = False,
        on_error: OnError = "raise",
        strip_whitespace: bool = True,
    ) -> None:
        """Make the splitter; the class docstring says what each parameter does."""
        splitter = separator_splitter(
            [separator], keep_separator, is_separator_regex,
            chunk_size, chunk_overlap, length_function, strip_whitespace,
        )  # fmt: skip
        super().__init__(
            splitter,
            add_start_index=add_start_index,
            add_page_numbers=add_page_numbers,
            on_error=on_error,
        )
        self._separator = separator  # (as LangChain keeps them)
        self._is_separator_regex = bool(is_separator_regex)
        self._keep_separator = keep_separator


class SpanSentenceTextSplitter(SpanTextSplitter):
    """Whole sentences packed up to ``chunk_size``, overlapping by up to ``chunk_overlap``
    (spansplit's ``SentenceSplitter``: UAX #29 sentences with CJK punctuation; a sentence
    longer than ``chunk_size`` is split at words). ``abbreviations``: words whose period
    does not end a sentence (the core's list by default). No LangChain class does this;
    the parameters follow ``TextSplitter``'s."""

    def __init__(
        self,
        chunk_size: int = 500,
        chunk_overlap: int = 0,
        length_function: LengthSpec = len,
        *,
        add_start_index: bool = False,
        add_page_numbers: bool = False,
        on_error: OnError = "raise",
        strip_whitespace: bool = True,
        abbreviations: Collection[str] | None = None,
    ) -> None:
        """Make the splitter; the class docstring says what each parameter does."""
        options: dict[str, Any] = {}
        if abbreviations is not None:
            options["abbreviations"] = abbreviations
        super().__init__(
            SentenceSplitter(
                chunk_size,
                chunk_overlap,
                length=length_spec(length_function),
                strip_whitespace=strip_whitespace,
                **options,
            ),
            add_start_index=add_start_index,
            add_page_numbers=add_page_numbers,
            on_error=on_error,
        )


class SpanParagraphTextSplitter(SpanTextSplitter):
    """Paragraphs packed up to ``chunk_size``, an over-long paragraph split at sentences,
    then words (spansplit's ``ParagraphSplitter``); ``chunk_overlap`` repeats trailing
    words of the previous chunk. The parameters follow ``TextSplitter``'s."""

    def __init__(
        self,
        chunk_size: int = 4000,
        chunk_overlap: int = 0,
        length_function: LengthSpec = len,
        *,
        add_start_index: bool = False,
        add_page_numbers: bool = False,
        on_error: OnError = "raise",
        strip_whitespace: bool = True,
    ) -> None:
        """Make the splitter; the class docstring says what each parameter does."""
        super().__init__(
            ParagraphSplitter(
                chunk_size,
                chunk_overlap,
                length=length_spec(length_function),
                strip_whitespace=strip_whitespace,
            ),
            add_start_index=add_start_index,
            add_page_numbers=add_page_numbers,
            on_error=on_error,
        )


class SpanBlockTextSplitter(SpanTextSplitter):
    """Structure-aware blocks (headings, rules, blank lines) of about ``chunk_size``
    (spansplit's ``BlockSplitter``); the blocks tile the text. A single line longer than
    ``chunk_size`` is its own block, the one documented exception to the budget."""

    def __init__(
        self,
        chunk_size: int,
        chunk_overlap: int = 0,
        length_function: LengthSpec = len,
        *,
        add_start_index: bool = False,
        add_page_numbers: bool = False,
        on_error: OnError = "raise",
    ) -> None:
        """Make the splitter; the class docstring says what each parameter does."""
        check_no_overlap(chunk_overlap, type(self).__name__)
        super().__init__(
            BlockSplitter(chunk_size, length=length_spec(length_function)),
            add_start_index=add_start_index,
            add_page_numbers=add_page_numbers,
            on_error=on_error,
        )
