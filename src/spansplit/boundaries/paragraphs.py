"""Paragraphs (seed 002): maximal runs of non-blank CommonMark lines.

A blank line is empty or holds only spaces (U+0020) and tabs (U+0009); a line of U+00A0
or U+3000 is not blank. A paragraph's span runs from the first character of its first
line to the end of its last line's content (the last line ending is excluded).

Paragraphs are the gaps between *separators*: a line ending followed by one or more
blank lines (or by the end of the text). A separator pattern that starts with a literal
LF lets the regex engine skip from LF to LF at C speed, instead of trying every position
as a possible line start; only texts with lone CRs need a slower general pattern.
"""

from __future__ import annotations

import re

from ..lines import has_lone_cr
from ..sizing.base import Span

BLANK_CHARACTERS = " \t\r\n"
"""What a blank line may hold besides nothing: spaces, tabs and its line ending."""

# A line ending, then blank lines (each with its ending, the last one may end the text).
# In a text with no lone CR every line ending ends with LF, so the search starts at a LF
# (the CR of a CRLF before it is added back); with lone CRs the general pattern is used.
# (A CR followed by LF is never taken alone: backtracking must not split a CRLF.)
_SEPARATOR_LF = re.compile(r"\n(?:[ \t]*(?:\r?\n|\Z))+")
_SEPARATOR_ANY = re.compile(r"(?:\r\n|\r(?!\n)|\n)(?:[ \t]*(?:\r\n|\r(?!\n)|\n|\Z))+")
# Blank lines at the start of the text (the last one may end the text).
_LEADING_BLANKS = re.compile(r"(?:[ \t]*(?:\r\n|\r(?!\n)|\n))*(?:[ \t]*\Z)?")


def separator_spans(text: str, start: int, stop: int, lone_cr: bool | None = None) -> list[Span]:
    """Spans of the separators in ``text[start:stop]``: a line ending and the blank lines
    after it (``start`` must be a line start or inside a line). ``lone_cr`` says whether
    the range holds a lone CR, if the caller knows."""
    if has_lone_cr(text, start, stop) if lone_cr is None else lone_cr:
        return [m.span() for m in _SEPARATOR_ANY.finditer(text, start, stop)]
    spans = [m.span() for m in _SEPARATOR_LF.finditer(text, start, stop)]
    if text.find("\r", start, stop) >= 0:  # a separator starting at a CRLF's LF starts at its CR
        spans = [(at - 1 if at > start and text[at - 1] == "\r" else at, end) for at, end in spans]
    return spans


def blank_line_runs(text: str, start: int = 0, lone_cr: bool | None = None) -> list[Span]:
    """Spans of the runs of blank lines of ``text[start:]``, whole lines with their endings.

    ``start`` must be a line start. The runs are the separators of :func:`paragraph_spans`
    without the line ending of the line before them. ``lone_cr`` says whether the text
    holds a lone CR, if the caller knows.
    """
    stop = len(text)
    leading = _LEADING_BLANKS.match(text, start)
    first = leading.end() if leading else start
    runs = [(start, first)] if first > start else []
    if first >= stop:
        return runs
    for at, end in separator_spans(text, first, stop, lone_cr):
        blank_start = at + (2 if text[at : at + 2] == "\r\n" else 1)
        if end > blank_start:
            runs.append((blank_start, end))
    return runs


def paragraph_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Spans of the paragraphs of ``text[start:end]`` (``start`` must be a line start)."""
    stop = len(text) if end is None else end
    leading = _LEADING_BLANKS.match(text, start, stop)
    first = leading.end() if leading else start
    if first >= stop:
        return []
    spans: list[Span] = []
    for separator_start, separator_end in separator_spans(text, first, stop):
        spans.append((first, separator_start))
        first = separator_end
    if first < stop:
        spans.append((first, stop))
    return spans
