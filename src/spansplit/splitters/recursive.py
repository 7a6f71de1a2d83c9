"""Recursive separator splitting with exact spans, real overlap and hard budgets.

Separators are tried coarsest first: the text is split on the first one that occurs,
consecutive small pieces are merged up to ``chunk_size``, and a piece still too large is
split again with the finer separators (LangChain's ``RecursiveCharacterTextSplitter``
scheme, and seed 004's ``splitText``). Unlike them, every chunk is a span of the source,
no chunk ever exceeds ``chunk_size`` under the length function (after the last
separator, pieces are hard-cut at grapheme clusters), and overlap is present between
every pair of consecutive chunks whenever a trailing piece fits in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..boundaries.code_languages import MARKUP_LANGUAGES, get_language
from ..boundaries.levels import FirstSplit, Level, StartsLevel
from ..boundaries.linebreaks import LINE_BREAKS, clause_starts_from, word_starts
from ..boundaries.sentences import SentenceStarts
from ..boundaries.separators import (
    PRESETS,
    HeadingLines,
    KeepSeparator,
    SeparatorLevel,
    SeparatorPreset,
    check_keep_separator,
    cuts_at_words,
    separator_levels,
)
from ..chunk import Chunk
from ..errors import InvalidParameterError, ParameterTypeError
from ..packing import Structure
from ..sizing import LengthSpec
from ..validate import check_bool
from .base import BudgetedSplitter

DEFAULT_SEPARATORS: tuple[str, ...] = ("\n\n", "\n", " ", "")

PROSE_OVERLAP: tuple[StartsLevel, ...] = (SentenceStarts(), clause_starts_from, word_starts)
"""Where overlap starts in prose, best first: sentences, clauses, words."""


def separator_structure(levels: tuple[Level, ...], prose: bool, code: bool = False) -> Structure:
    """The structure of separator levels: for prose (the default separators, the ``plain``
    and ``cjk`` presets) overlap starts at sentences, clauses or words, cuts follow the
    punctuation rules of line breaking and the empty separator cuts at line-break
    opportunities; other separators cut as they are given, and overlap starts at their
    pieces, inside a piece never below a line-break opportunity (not inside a word, nor
    at closing punctuation), unless the one separator is the empty one; for ``code`` (a
    language's table) never inside a line."""
    # Where a line may break (between words, ideographs and kana), not between any two
    # grapheme clusters.
    finest = tuple(
        LINE_BREAKS if isinstance(level, SeparatorLevel) and level.separator == "" else level
        for level in levels
    )
    if prose:
        return Structure(finest, isolate=True, overlap_boundaries=PROSE_OVERLAP)
    if len(levels) == 1 and getattr(levels[0], "separator", None) == "":
        return Structure(levels, isolate=True, punctuation=False)  # [""]: cut anywhere
    # Overlap may start at any line, the one after a heading too (the Markdown preset's
    # line level keeps a heading with that line only for packing), never inside one.
    overlap = tuple(
        level.lines if isinstance(level, HeadingLines) and level.separator == "\n" else level
        for level in finest
        if not (code and (level is LINE_BREAKS or getattr(level, "separator", None) == " "))
    )
    if not code and not cuts_at_words(levels):
        overlap += (LINE_BREAKS,)  # (no words among the pieces: they are cut to fit at words)
    return Structure(
        levels, isolate=True, punctuation=False, overlap_level=FirstSplit(overlap), code=code
    )


class RecursiveSplitter(BudgetedSplitter):
    """Split on separators, coarsest first, and merge the pieces up to ``chunk_size``.

    ``chunk_overlap`` (in the unit of ``length``) is the most trailing context a chunk
    repeats from the one before it: with the default separators (prose), it starts at a
    sentence, else a clause, else a word; with other separators, it is made of whole
    pieces where they fit, else starts at a line-break opportunity inside the last one
    (never inside a word). ``separators``
    are literal strings unless ``separators_are_regex`` (Python ``re`` syntax); ``""``
    splits into grapheme clusters. ``keep_separator``: ``False`` drops separators at chunk
    edges, ``True``/``"end"`` keeps each with the piece before it, ``"start"`` with the
    piece after it. ``length`` is any form :func:`spansplit.resolve_length` accepts.
    ``strip_whitespace`` trims each chunk (its span follows the trimmed text).
    """

    def __init__(
        self,
        chunk_size: int,
        chunk_overlap: int = 0,
        separators: Sequence[str] = DEFAULT_SEPARATORS,
        keep_separator: KeepSeparator = False,
        *,
        length: LengthSpec = None,
        strip_whitespace: bool = True,
        separators_are_regex: bool = False,
    ) -> None:
        super().__init__(
            chunk_size, chunk_overlap, length=length, strip_whitespace=strip_whitespace
        )
        self.keep_separator = check_keep_separator(keep_separator)
        self.separators_are_regex = check_bool("separators_are_regex", separators_are_regex)
        levels = separator_levels(separators, self.separators_are_regex, self.keep_separator)
        self.separators = tuple(level.separator for level in levels)
        # (the default separators given as regular expressions, escaped or not, are the
        # same literals)
        literals = tuple(level.literal if level.separator else "" for level in levels)
        prose = literals == DEFAULT_SEPARATORS
        self.structure = separator_structure(levels, prose)

    @classmethod
    def from_language(cls, language: Any, chunk_size: int, **options: Any) -> RecursiveSplitter:
        """A splitter with the separator table of a programming language (any name
        ``spansplit.LANGUAGES`` or its aliases know, a LangChain ``Language`` member):
        definitions first, then control flow, blank lines, lines, words; overlap starts at
        a line (Markdown, LaTeX, HTML and reStructuredText: as their presets). Needs no
        grammar; :class:`~spansplit.CodeSplitter` splits at the syntax tree instead."""
        chosen = get_language(language)
        code = chosen.name not in MARKUP_LANGUAGES
        return cls._with_separators(
            chosen.separators, chunk_size, options, f"language {chosen.name!r}", code
        )

    @classmethod
    def from_preset(cls, preset: str, chunk_size: int, **options: Any) -> RecursiveSplitter:
        """A splitter with the separators of a preset: one of ``spansplit.PRESETS``; the
        other options are the constructor's, but the preset's separators."""
        if not isinstance(preset, str):
            raise ParameterTypeError(
                f"preset must be a str, one of {sorted(PRESETS)}, got {type(preset).__name__}: "
                f"{preset!r:.80}"
            )
        if preset not in PRESETS:
            raise InvalidParameterError("preset", preset, f"must be one of {sorted(PRESETS)}")
        return cls._with_separators(PRESETS[preset], chunk_size, options, f"preset {preset!r}")

    @classmethod
    def _with_separators(
        cls,
        chosen: SeparatorPreset,
        chunk_size: int,
        options: dict[str, Any],
        name: str,
        code: bool = False,
    ) -> RecursiveSplitter:
        fixed = sorted({"separators", "separators_are_regex"} & options.keys())
        if fixed:
            raise InvalidParameterError(
                fixed[0],
                options[fixed[0]],
                f"is set by {name}; pass separators to RecursiveSplitter itself",
            )
        options.setdefault("keep_separator", chosen.keep_separator)
        splitter = cls(
            chunk_size,
            separators=chosen.separators,
            separators_are_regex=chosen.regex,
            **options,
        )
        levels = splitter.structure.levels
        if chosen.levels is not None:
            levels = chosen.levels(splitter.keep_separator)
        splitter.structure = separator_structure(levels, chosen.prose, code)
        return splitter


def split_recursive(
    text: str,
    chunk_size: int,
    chunk_overlap: int = 0,
    separators: Sequence[str] = DEFAULT_SEPARATORS,
    keep_separator: KeepSeparator = False,
    *,
    length: LengthSpec = None,
    strip_whitespace: bool = True,
    separators_are_regex: bool = False,
) -> list[Chunk]:
    """Shortcut for ``RecursiveSplitter(...).split(text)``."""
    splitter = RecursiveSplitter(
        chunk_size,
        chunk_overlap,
        separators,
        keep_separator,
        length=length,
        strip_whitespace=strip_whitespace,
        separators_are_regex=separators_are_regex,
    )
    return splitter.split(text)
