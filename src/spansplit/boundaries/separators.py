"""Separator levels for recursive splitting (seed 004), and the separator presets as data.

A separator level splits a region at every match of one separator and returns the pieces
as spans. ``keep_separator`` decides where a separator goes: dropped (``False``), appended
to the preceding piece (``True``/``"end"``), or prepended to the following one
(``"start"``). The empty separator splits into grapheme clusters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal

import regex

from ..errors import InvalidParameterError, ParameterTypeError
from ..sizing.base import Span
from .graphemes import cluster_ends

KeepSeparator = bool | Literal["start", "end"]


@dataclass(frozen=True, slots=True)
class SeparatorPreset:
    """Separators for one kind of text, coarsest first, and where separators should go."""

    separators: tuple[str, ...]
    regex: bool = True
    keep_separator: KeepSeparator = "start"


PRESETS: dict[str, SeparatorPreset] = {
    "plain": SeparatorPreset(("\n\n", "\n", " ", ""), regex=False, keep_separator=False),
    "markdown": SeparatorPreset(
        (
            r"\n(?=#{1,6} )",
            r"\n(?=```)",
            r"\n(?=(?:\*\*\*+|---+|___+)\n)",
            r"\n\n",
            r"\n",
            r" ",
            r"",
        )
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
        ("\n\n", "\n", "。", "．", "！", "？", "!", "?", "；", ";", "，", "、", ",", " ", ""),
        regex=False,
        keep_separator="end",
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


Separator = str | regex.Pattern[str] | None
"""A literal separator, a compiled regular expression, or ``None`` (grapheme clusters)."""


def compile_separators(separators: Sequence[str], is_regex: bool) -> list[Separator]:
    """One separator per entry: literals stay ``str``, patterns are compiled, ``""`` is ``None``."""
    if isinstance(separators, str) or not all(isinstance(s, str) for s in separators):
        raise ParameterTypeError(f"separators must be a sequence of str, got {separators!r}")
    compiled: list[Separator] = []
    for index, separator in enumerate(separators):
        if separator == "":
            compiled.append(None)
        elif not is_regex:
            compiled.append(separator)
        else:
            try:
                compiled.append(regex.compile(separator))
            except regex.error as error:
                raise InvalidParameterError(
                    f"separators[{index}]", separator, f"not a valid regular expression: {error}"
                ) from error
    return compiled


def _split_literal(
    text: str, start: int, end: int, separator: str, keep_separator: KeepSeparator
) -> list[Span]:
    """:func:`split_at` for a literal separator: ``str.split`` finds the parts at C speed,
    and their offsets are running sums of their lengths."""
    lengths = list(map(len, text[start:end].split(separator)))
    width = len(separator)
    starts = list(accumulate([n + width for n in lengths[:-1]], initial=start))
    if keep_separator is False:
        return [(a, a + n) for a, n in zip(starts, lengths) if n]
    if keep_separator == "start":
        pieces = [(start, start + lengths[0])] if lengths[0] else []
        return pieces + [(a - width, a + n) for a, n in zip(starts[1:], lengths[1:])]
    pieces = [(a, a + n + width) for a, n in zip(starts[:-1], lengths[:-1])]
    return pieces + ([(starts[-1], end)] if lengths[-1] else [])


def split_at(
    text: str, start: int, end: int, separator: Separator, keep_separator: KeepSeparator
) -> list[Span]:
    """Pieces of ``text[start:end]`` between matches of ``separator``; empty pieces dropped."""
    if separator is None:
        bounds = cluster_ends(text, start, end)
        return list(zip([start, *bounds[:-1]], bounds))
    if isinstance(separator, str):
        return _split_literal(text, start, end, separator, keep_separator)
    pieces = []
    previous = start
    for match in separator.finditer(text, start, end):
        sep_start, sep_end = match.span()
        if sep_start == sep_end and sep_start in (start, end):
            continue  # a zero-width match at the edge splits nothing
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


def first_present(text: str, start: int, end: int, separators: Sequence[Separator]) -> int:
    """Index of the first separator found inside ``text[start:end]`` (``None`` always is)."""
    for index, separator in enumerate(separators):
        if separator is None:
            return index
        if isinstance(separator, str):
            if text.find(separator, start, end) >= 0:
                return index
        elif separator.search(text, start, end):
            return index
    return len(separators)
