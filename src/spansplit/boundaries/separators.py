"""Separator levels for recursive splitting (seed 004), and the separator presets as data.

A separator level splits a region at every match of one separator and returns the pieces
as spans. ``keep_separator`` decides where a separator goes: dropped (``False``), appended
to the preceding piece (``True``/``"end"``), or prepended to the following one
(``"start"``). The empty separator splits into grapheme clusters.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Literal

from ..chunk import Span
from ..errors import InvalidParameterError, ParameterTypeError
from ..lines import LINE_ENDING, LONE_CR, has_lone_cr
from .blocks import MARKDOWN_CUTS, MarkdownCuts
from .graphemes import (
    cluster_around,
    cluster_ends,
    cuts_inside_clusters,
    one_character_clusters,
)
from .levels import Level
from .linebreaks import CLAUSES
from .sentences import SentenceLevel

KeepSeparator = bool | Literal["start", "end"]


@dataclass(frozen=True, slots=True)
class SeparatorPreset:
    """Separators for one kind of text, coarsest first, and where separators should go.

    ``levels``, where set, replaces the separators by structure-aware levels (given
    ``keep_separator``) when :meth:`RecursiveSplitter.from_preset` builds the splitter;
    ``separators`` then shows the separators those levels improve on. ``prose``: the
    text is prose, so overlap starts at sentences, clauses or words rather than at
    whole trailing pieces.
    """

    separators: tuple[str, ...]
    regex: bool = True
    keep_separator: KeepSeparator = "start"
    levels: Callable[[KeepSeparator], tuple[Level, ...]] | None = None
    prose: bool = False


def markdown_levels(keep: KeepSeparator) -> tuple[Level, ...]:
    """The ``markdown`` preset's levels: headings, fences, thematic breaks and paragraphs
    as CommonMark reads them (see :class:`~.blocks.MarkdownCuts`), then lines (a heading
    line kept with the line after it: :class:`HeadingLines`), words and grapheme
    clusters."""
    structure: tuple[Level, ...] = tuple(MarkdownCuts(what) for what in MARKDOWN_CUTS)
    lines: tuple[Level, ...] = (HeadingLines(keep), HeadingLines(keep, " "))
    return structure + lines + (SeparatorLevel("", keep),)


_ATX_HEADING = re.compile(r"[ ]{0,3}#{1,6}(?:[ \t][^\r\n]*)?\r?\Z")


def _heading_starts(text: str, start: int, end: int) -> set[int]:
    """Where ATX headings start in ``[start, end)`` as CommonMark reads them (a ``# `` line
    inside a fence is none): the cuts before headings strictly inside a region that
    starts a character early, and ``start`` itself at the start of the text."""
    found = MarkdownCuts("heading")(text, max(0, start - 1), end)
    starts = {first for first, _ in found[1:]}
    if start == 0 and _ATX_HEADING.match(text, 0, _line_end(text, 0)):
        starts.add(0)
    return starts


def _line_end(text: str, position: int) -> int:
    """Where the line holding ``position`` ends (before its line ending), whatever region
    is being split: a level's answer must not depend on how far its region reaches."""
    found = _LINE_END.search(text, position)
    return len(text) if found is None else found.start()


_LINE_END = re.compile(r"[\r\n]")


@dataclass(frozen=True, slots=True)
class HeadingLines:
    """The ``markdown`` preset's line level (and, with ``separator=" "``, its word level):
    the pieces ``SeparatorLevel(separator, keep)`` gives, but an ATX heading line
    (``# Title``) is never cut inside, and at the line level it stays with the blank
    lines and the line after it. A section whose first paragraph is over the budget is
    cut at its lines, and those pieces never share a chunk with their neighbours: the
    heading was a chunk alone (``# Installing Rust``, 17 characters of a 100 budget), and
    with overlap the next chunk started inside its text (``Installing Rust``), a review
    found. Glued, the heading is packed with the words of the line after it; and a
    heading's own spaces are no cuts (a heading glued to a Chinese line with no space
    would be cut after its ``##``)."""

    keep: KeepSeparator = False
    separator: str = "\n"

    @property
    def lines(self) -> SeparatorLevel:
        """The plain line level: where overlap may start (after a heading too)."""
        return SeparatorLevel(self.separator, self.keep)

    def occurs(self, text: str, start: int, end: int) -> bool:
        """Whether the separator occurs in ``text[start:end]``."""
        return self.lines.occurs(text, start, end)

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        pieces = split_at(text, start, end, self.separator, self.keep)
        if len(pieces) < 2 or text.find("#", start, end) < 0:
            return pieces
        starts = _heading_starts(text, start, end)
        if not starts:
            return pieces
        if self.separator != "\n":
            # No cut inside a heading line: a piece that starts inside one joins the
            # piece before it.
            ordered = sorted(starts)
            joined: list[Span] = [pieces[0]]
            for piece_start, piece_end in pieces[1:]:
                before = bisect_right(ordered, piece_start - 1) - 1
                if before >= 0 and piece_start <= _line_end(text, ordered[before]):
                    joined[-1] = (joined[-1][0], piece_end)
                    continue
                joined.append((piece_start, piece_end))
            return joined
        glued: list[Span] = []
        heading = False  # the last piece holds a heading and blank lines only
        for piece_start, piece_end in pieces:
            if heading:
                glued[-1] = (glued[-1][0], piece_end)
            else:
                glued.append((piece_start, piece_end))
            content = piece_start
            while content < piece_end and text[content] in "\r\n":
                content += 1
            if content < piece_end and not text[content:piece_end].isspace():
                heading = content in starts
        return glued


def cjk_levels(keep: KeepSeparator) -> tuple[Level, ...]:
    """The ``cjk`` preset's levels: blank lines, then sentences (UAX #29 with full-width
    terminators and the closing marks after them, a line ending inside a paragraph read
    as a space, so hard-wrapped lines rank below 。！？), then clauses (；，、 and their
    ASCII forms, kept with what they end), then lines, then spaces and grapheme clusters.
    Lines come after clauses: hard-wrapped Chinese breaks a line anywhere, inside a word
    (須|臾), and a sentence cut at its line ends first left the part before the wrap
    alone (a runt of one ideograph)."""
    return (
        SeparatorLevel("\n\n", keep),
        SentenceLevel(wrapped=True),
        CLAUSES,
        SeparatorLevel("\n", keep),
        SeparatorLevel(" ", keep),
        SeparatorLevel("", keep),
    )


PRESETS: dict[str, SeparatorPreset] = {
    "plain": SeparatorPreset(
        ("\n\n", "\n", " ", ""), regex=False, keep_separator=False, prose=True
    ),
    "markdown": SeparatorPreset(
        (
            r"\n(?=#{1,6} )",
            r"\n(?=```)",
            r"\n(?=(?:\*\*\*+|---+|___+)\n)",
            r"\n\n",
            r"\n",
            r" ",
            r"",
        ),
        levels=markdown_levels,
    ),
    "python": SeparatorPreset(
        (
            r"\n(?=class )",
            r"\n(?=def )",
            r"\n(?=\tdef )",
            r"\n(?=    def )",
            r"\n\n",
            r"\n",
            r" ",
            r"",
        )
    ),
    "javascript": SeparatorPreset(
        (
            r"\n(?=(?:export )?(?:async )?function )",
            r"\n(?=(?:export )?(?:default )?class )",
            r"\n(?=(?:export )?(?:const|let|var) )",
            r"\n(?=(?:if|for|while|switch|return|try) )",
            r"\n\n",
            r"\n",
            r" ",
            r"",
        )
    ),
    "html": SeparatorPreset(
        (
            r"(?=<(?:body|div|section|article|header|footer|main|nav|table|ul|ol|h[1-6])\b)",
            r"(?=<(?:p|li|tr|br|pre|blockquote)\b)",
            r"\n\n",
            r"\n",
            r" ",
            r"",
        )
    ),
    "latex": SeparatorPreset(
        (
            r"\n(?=\\(?:chapter|section|subsection|subsubsection)\{)",
            r"\n(?=\\begin\{(?:enumerate|itemize|description|list|quote|quotation|verse|verbatim)\})",
            r"\n(?=\\(?:item)\b)",
            r"\n\n",
            r"\n",
            r" ",
            r"",
        )
    ),
    "cjk": SeparatorPreset(
        # ranked as the levels rank them: a line ending inside a paragraph below 。 and ，
        ("\n\n", "。", "．", "！", "？", "!", "?", "；", ";", "，", "、", ",", "\n", " ", ""),
        regex=False,
        keep_separator="end",
        levels=cjk_levels,
        prose=True,
    ),
}
PRESETS["typescript"] = PRESETS["javascript"]


def check_keep_separator(keep_separator: object) -> KeepSeparator:
    """Return ``keep_separator`` if it is ``False``, ``True``, ``"start"`` or ``"end"``."""
    if isinstance(keep_separator, bool) or keep_separator in ("start", "end"):
        return keep_separator
    raise InvalidParameterError(
        "keep_separator", keep_separator, "must be False, True, 'start' or 'end'"
    )


Separator = str | re.Pattern[str] | None
"""A literal separator, a compiled regular expression, or ``None`` (grapheme clusters)."""


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


_PLAIN_TEXT = re.compile(r"(?:[^\\.^$*+?{}\[\]|()]|\\[^0-9A-Za-z]|\\[ntrfva])+", re.DOTALL)
"""A regular expression of characters that match themselves and escaped characters only
(``\\n``, ``\\.``): it matches one text, its own with the escapes read."""

_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}


@lru_cache(maxsize=256)
def _plain_text(pattern: str) -> str | None:
    """The one text the regular expression ``pattern`` matches, if it is plain text."""
    if not _PLAIN_TEXT.fullmatch(pattern):
        return None
    return re.sub(r"\\(.)", lambda m: _ESCAPED.get(m[1], m[1]), pattern, flags=re.DOTALL)


@dataclass(frozen=True, slots=True)
class SeparatorLevel:
    """The level that splits a region at every match of one separator.

    ``separator`` is a literal string, or a regular expression in Python's ``re`` syntax
    (what LangChain users write) when ``is_regex``; ``""`` splits into grapheme clusters.
    ``keep`` says where a separator goes (see the module docstring).
    """

    separator: str
    keep: KeepSeparator = False
    is_regex: bool = False

    @property
    def pattern(self) -> Separator:
        """The separator as :func:`split_at` takes it (compiled once per process)."""
        if self.separator == "":
            return None
        literal = self.literal
        return _compiled(self.separator) if literal is None else literal

    @property
    def cut_anywhere(self) -> bool | None:
        """``False`` for the empty separator (any grapheme-cluster boundary: see
        :func:`~.levels.cut_anywhere`), else ``None``."""
        return False if self.separator == "" else None

    @property
    def literal(self) -> str | None:
        """The separator if it is a non-empty literal string, else ``None``. A regular
        expression of plain and escaped characters only (``" "``, or ``r"\\n\\n"`` in a
        language's table) is one: it matches one text, so it splits as that literal does."""
        if not self.separator:
            return None
        return _plain_text(self.separator) if self.is_regex else self.separator

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        return split_at(text, start, end, self.pattern, self.keep)

    def occurs(self, text: str, start: int, end: int) -> bool:
        """Whether the separator occurs in ``text[start:end]`` (grapheme clusters always do)."""
        pattern = self.pattern
        if pattern is None:
            return True
        if isinstance(pattern, str):
            if text.find(pattern, start, end) >= 0:
                return True
            return (
                is_line_feeds(pattern)
                and text.find("\r", start, end) >= 0
                and line_endings(len(pattern)).search(text, start, end) is not None
            )
        view, shift = _lf_view(pattern, text, start, end)
        return pattern.search(view, start - shift, end - shift) is not None


LOOK_BEHIND_CHARS = 256
"""Code points before a region that a separator's look-behind may read where they or the
region hold a lone CR (see :func:`_lf_view`)."""


_NAMES_LF = re.compile(r"\n|(?<!\\)(?:\\\\)*\\(?:n|x0[aA]|u000[aA]|012)|\(\?[aiLsux]*m")
"""An LF in a regular expression: the character, an escape of it (not an escaped
backslash before an ``n``: ``\\\\newline``), or the multi-line flag of ``^`` and ``$``."""


@lru_cache(maxsize=256)
def _reads_lines_at_lf(pattern: str) -> bool:
    """Whether a regular expression separator is written for LF line endings: it names LF
    (see :data:`_NAMES_LF`) and matches nothing at a lone CR itself (``\\r?\\n(?=def )``
    and ``(?m)^(?=def )`` are; ``\\r+`` and ``\\r\\n|\\r|\\n`` read a lone CR as it is)."""
    if _NAMES_LF.search(pattern) is None:
        return False
    for match in _compiled(pattern).finditer("a\rb"):
        start, end = match.span()
        if start <= 1 < end or start == end in (1, 2):  # it takes the CR, or stops at it
            return False
    return True


def _lf_view(pattern: re.Pattern[str], text: str, start: int, end: int) -> tuple[str, int]:
    """``text`` as the regular expression separator ``pattern`` reads ``text[start:end]``,
    and the offset of that reading in ``text``. For a separator written for LF line endings
    (see :func:`_reads_lines_at_lf`), where the region or the
    :data:`LOOK_BEHIND_CHARS` before it hold a lone CR: that stretch with each lone CR made
    LF (the same offsets), so that ``\\n(?=class )`` finds a line ending there as it does
    at an LF or a CRLF pair; else ``text`` itself."""
    if not _reads_lines_at_lf(pattern.pattern):
        return text, 0
    low = max(0, start - LOOK_BEHIND_CHARS)
    stop = min(len(text), end + 1)  # (a CR at the region's end, the LF after it: a pair)
    if not has_lone_cr(text, low, stop):
        return text, 0
    return LONE_CR.sub("\n", text[low:stop]), low


def is_line_feeds(separator: str) -> bool:
    """Whether ``separator`` is made of line feeds only (``"\n"``, ``"\n\n"``): it then
    matches line endings of every kind, as many in a row (a CRLF pair or a lone CR is one
    line ending, as CommonMark and the chunks' line numbers read them), so that
    ``"\n\n"`` finds the blank lines of a text with Windows line endings too."""
    return bool(separator) and not separator.strip("\n")


@lru_cache(maxsize=32)
def line_endings(count: int, more: bool = False) -> re.Pattern[str]:
    """``count`` line endings in a row, of any kind (what ``count`` line feeds match), or
    with ``more`` a run of ``count`` or more; a CRLF pair is one, never a CR and an LF."""
    return re.compile(f"(?:\r\n|\r(?!\n)|\n){{{count}{',' if more else ''}}}")


def _split_line_endings(
    text: str, start: int, end: int, count: int, keep_separator: KeepSeparator
) -> list[Span]:
    """:func:`split_at` for a separator of ``count`` line feeds in text that holds a CR
    (see :func:`is_line_feeds`), as the literal splits LF text: a run of line endings
    holds as many separators as fit, from its start, and what is left after them belongs
    to the next part; dropped, a run's separators go as one, and kept with a neighbour
    so does a run of :data:`LONG_RUN` code points or more."""
    runs = line_endings(count, more=True).finditer(text, start, end)  # (fewer hold none)
    if count == 1 and keep_separator is False:  # (each run one separator: lines)
        return _pieces_between(start, end, [run.span() for run in runs], False)
    matches: list[Span] = []
    for run in runs:
        ends = [found.end() for found in LINE_ENDING.finditer(text, run.start(), run.end())]
        separators = len(ends) // count
        if not separators:
            continue
        run_start, last_end = run.start(), ends[separators * count - 1]
        if keep_separator is False or (separators > 1 and last_end - run_start >= LONG_RUN):
            matches.append((run_start, last_end))
            continue
        for index in range(separators):
            separator_end = ends[(index + 1) * count - 1]
            matches.append((run_start, separator_end))
            run_start = separator_end
    return _pieces_between(start, end, matches, keep_separator)


def cuts_at_words(levels: Sequence[object]) -> bool:
    """Whether one of ``levels`` is a separator level that cuts at words (``" "``) or
    anywhere (``""``): without one, overlap inside a piece starts at a line-break
    opportunity of the general path, which the scan does not search for."""
    return any(
        isinstance(level, SeparatorLevel) and level.separator in ("", " ") for level in levels
    )


def separator_levels(
    separators: object, is_regex: bool, keep: KeepSeparator
) -> tuple[SeparatorLevel, ...]:
    """One level per separator, coarsest first; a regular expression that does not compile
    raises :class:`InvalidParameterError` naming its position."""
    if isinstance(separators, (str, bytes)) or not isinstance(separators, Sequence):
        raise ParameterTypeError(
            "separators must be a list of str such as ['\\n\\n', '\\n', ' ', ''], "
            f"got {type(separators).__name__}: {separators!r:.80}"
        )
    levels = []
    for index, separator in enumerate(separators):
        if not isinstance(separator, str):
            raise ParameterTypeError(
                f"separators[{index}] must be str, got {type(separator).__name__}: {separator!r}"
            )
        if is_regex and separator:
            try:
                _compiled(separator)
            except re.error as error:
                raise InvalidParameterError(
                    f"separators[{index}]", separator, f"not a valid regular expression: {error}"
                ) from error
        levels.append(SeparatorLevel(separator, keep, is_regex))
    return tuple(levels)


LONG_RUN = 64
"""Characters of a run of a separator (two or more of it in a row) that a separator kept
with its neighbour takes as one."""


def _split_literal(
    text: str, start: int, end: int, separator: str, keep_separator: KeepSeparator
) -> list[Span]:
    """:func:`split_at` for a literal separator: ``str.split`` finds the parts at C speed,
    and their offsets are running sums of their lengths."""
    if is_line_feeds(separator) and text.find("\r", start, end) >= 0:
        return _split_line_endings(text, start, end, len(separator), keep_separator)
    segment = text[start:end]
    unit = separator[0]
    if (
        keep_separator is False
        and separator == unit * len(separator)
        and separator * 2 in segment
        and one_character_clusters(segment)
    ):
        # Runs of the separator part nothing between their separators: split at whole
        # runs (a list per separator would take 36 bytes each, 100 MB for a whitespace
        # run of a megabyte). A run of the character holds as many separators as fit,
        # from its start; what is left after them belongs to the next part.
        width = len(separator)
        runs = _separator_runs(separator).finditer(text, start, end)
        separators = ((a, a + (b - a) // width * width) for a, b in (r.span() for r in runs))
        return _pieces_between(start, end, separators, False)
    if separator == unit * len(separator) and unit * LONG_RUN in segment:
        # A separator kept with a neighbour makes a piece of each separator of a run: a
        # run of LONG_RUN characters or more (two separators at least) is kept whole
        # instead, as one separator. Whether a run is long is read off the run alone.
        width = len(separator)
        matches: list[Span] = []
        for run in _separator_runs(separator).finditer(text, start, end):
            first, count = run.start(), (run.end() - run.start()) // width
            if count > 1 and run.end() - run.start() >= LONG_RUN:
                matches.append((first, first + count * width))
            else:
                matches += [(first + k * width, first + (k + 1) * width) for k in range(count)]
        if not one_character_clusters(segment):
            matches = whole_cluster_matches(text, matches)
        return _pieces_between(start, end, matches, keep_separator)
    lengths = list(map(len, segment.split(separator)))
    width = len(separator)
    starts = list(accumulate([n + width for n in lengths[:-1]], initial=start))
    if not one_character_clusters(segment):
        matches = [(a - width, a) for a in starts[1:]]
        snapped = whole_cluster_matches(text, matches, separator)
        if snapped is not matches:
            return _pieces_between(start, end, snapped, keep_separator)
    if keep_separator is False:
        return [(a, a + n) for a, n in zip(starts, lengths) if n]
    if keep_separator == "start":
        pieces = [(start, start + lengths[0])] if lengths[0] else []
        return pieces + [(a - width, a + n) for a, n in zip(starts[1:], lengths[1:])]
    pieces = [(a, a + n + width) for a, n in zip(starts[:-1], lengths[:-1])]
    return pieces + ([(starts[-1], end)] if lengths[-1] else [])


@lru_cache(maxsize=64)
def _separator_runs(separator: str) -> re.Pattern[str]:
    """Runs of a separator's one character long enough to hold the separator (a repeated
    character, not a repeated group: ``re`` keeps state per repetition of a group)."""
    return re.compile(f"{re.escape(separator[0])}{{{len(separator)},}}")


def whole_cluster_matches(text: str, matches: list[Span], literal: str = "") -> list[Span]:
    """Separator matches that keep grapheme clusters whole (``matches`` itself where all
    do). A match with an edge inside a cluster takes in the rest of that cluster when the
    rest is whitespace (the CR or LF of a CRLF pair: ``"\\n"`` then ends a CRLF line
    whole); any other match that would cut a cluster (a space that a combining mark
    joins, ``"!"`` before a vowel sign) is no separator there. Every match of a
    ``literal`` separator holds the same characters: only those outside it are read."""
    if literal:
        size, count = len(text), len(matches)
        edges = [start for start, _ in matches] + [end for _, end in matches]
        outside_before = "".join([text[start - 1] if start else "\n" for start, _ in matches])
        outside_after = "".join([text[end] if end < size else "\n" for _, end in matches])
        around = (outside_before + literal[-1] * count, literal[0] * count + outside_after)
        inside = cuts_inside_clusters(text, edges, around)
    else:
        inside = cuts_inside_clusters(text, [edge for match in matches for edge in match])
    if not inside:
        return matches
    cut = set(inside)
    kept = []
    for sep_start, sep_end in matches:
        if sep_start in cut:
            cluster_start = cluster_around(text, sep_start)[0]
            if not text[cluster_start:sep_start].isspace():
                continue
            sep_start = cluster_start
        if sep_end in cut:
            cluster_end = cluster_around(text, sep_end)[1]
            if not text[sep_end:cluster_end].isspace():
                continue
            sep_end = cluster_end
        kept.append((sep_start, sep_end))
    return kept


def _pieces_between(
    start: int, end: int, matches: Iterable[Span], keep_separator: KeepSeparator
) -> list[Span]:
    """The pieces of ``[start, end)`` between separator ``matches`` (in order), each
    separator dropped or kept with a neighbour as ``keep_separator`` says; empty pieces
    dropped, and a zero-width match at an edge splits nothing."""
    pieces = []
    previous = start
    for sep_start, sep_end in matches:
        if sep_start == sep_end and sep_start in (start, end):
            continue
        if keep_separator is False:
            piece_end, next_start = sep_start, sep_end
        elif keep_separator == "start":
            piece_end = next_start = sep_start
        else:
            piece_end = next_start = sep_end
        if piece_end > previous:
            pieces.append((previous, piece_end))
        previous = max(previous, next_start)
    if end > previous:
        pieces.append((previous, end))
    return pieces


def split_at(
    text: str, start: int, end: int, separator: Separator, keep_separator: KeepSeparator
) -> list[Span]:
    """Pieces of ``text[start:end]`` between matches of ``separator``; empty pieces dropped.
    No piece edge falls inside a grapheme cluster (see :func:`whole_cluster_matches`)."""
    if separator is None:
        bounds = cluster_ends(text, start, end)
        return list(zip([start, *bounds[:-1]], bounds))
    if isinstance(separator, str):
        return _split_literal(text, start, end, separator, keep_separator)
    view, shift = _lf_view(separator, text, start, end)
    matches = [match.span() for match in separator.finditer(view, start - shift, end - shift)]
    if shift:
        matches = [(low + shift, high + shift) for low, high in matches]
    return _pieces_between(start, end, whole_cluster_matches(text, matches), keep_separator)


LINE_LEVEL: Level = SeparatorLevel(LINE_ENDING.pattern, keep="end", is_regex=True)
"""Whole lines, each with its line ending (a level packing reads a window at a time)."""
