"""Paragraphs (seed 002): maximal runs of non-blank CommonMark lines.

A blank line is empty or holds only spaces (U+0020) and tabs (U+0009); a line of U+00A0
or U+3000 is not blank. A paragraph's span runs from the first character of its first
line to the end of its last line's content (the last line ending is excluded).

Paragraphs are the gaps between *separators*: a line ending followed by one or more
blank lines (or by the end of the text). A separator pattern that starts with a literal
LF lets the regex engine skip from LF to LF at C speed, instead of trying every position
as a possible line start; only texts with lone CRs need a slower general pattern. The
offsets of the matches are read with ``map`` over the match list (C speed), not in a
Python loop: a text has a separator every few lines.
"""

from __future__ import annotations

import re
from itertools import pairwise, repeat
from operator import sub

from ..chunk import Span
from ..lines import has_lone_cr

BLANK_CHARACTERS = " \t\r\n"
"""What a blank line may hold besides nothing: spaces, tabs and its line ending."""

# A line ending, then blank lines (each with its ending, the last one may end the text).
# In a text with no lone CR every line ending ends with LF, so the search starts at a LF
# (the CR of a CRLF before it is added back); with lone CRs the general pattern is used.
# The lookahead asks for one blank line; then the whole run of blank characters is taken
# and given back to the end of its last line ending (never between CR and LF), or to the
# end of the text. A run of one character class keeps no state per character, where a
# repeated group of lines kept some for each line (0.9 GB for five million blank lines).
_SEPARATOR_LF = re.compile(r"\n(?=[ \t]*(?:\r?\n|\Z))[ \t\r\n]*(?:\Z|(?<=\n))")
_SEPARATOR_ANY = re.compile(
    r"(?:\r\n|\r(?!\n)|\n)(?=[ \t]*(?:[\r\n]|\Z))[ \t\r\n]*(?:\Z|(?<=\n)|(?<=\r)(?!\n))"
)
# Blank lines at the start of the text (the last one may end the text), the same way.
_LEADING_BLANKS = re.compile(r"(?:[ \t\r\n]*(?:\Z|(?<=\n)|(?<=\r)(?!\n)))?")

_match_start = re.Match.start
_match_end = re.Match.end


def _separators(
    text: str, start: int, stop: int, lone_cr: bool | None = None
) -> tuple[list[int], list[int]]:
    """Starts and ends of the separators of ``text[start:stop]``: a line ending and the
    blank lines after it (``start`` must be a line start or inside a line); ``lone_cr``
    says whether the range holds a lone CR, if the caller knows."""
    if has_lone_cr(text, start, stop) if lone_cr is None else lone_cr:
        found = list(_SEPARATOR_ANY.finditer(text, start, stop))
        return list(map(_match_start, found)), list(map(_match_end, found))
    found = list(_SEPARATOR_LF.finditer(text, start, stop))
    starts = list(map(_match_start, found))
    if starts and text.find("\r", start, stop) >= 0:
        # A separator found at the LF of a CRLF starts at its CR.
        after_cr = list(map(text.startswith, repeat("\r"), map(sub, starts, repeat(1))))
        after_cr[0] = after_cr[0] and starts[0] > start
        starts = list(map(sub, starts, after_cr))
    return starts, list(map(_match_end, found))


def leading_blanks_end(text: str, start: int = 0, stop: int | None = None) -> int:
    """End of the blank lines that ``text[start:stop]`` starts with (``start`` if none);
    ``start`` must be a line start."""
    leading = _LEADING_BLANKS.match(text, start, len(text) if stop is None else stop)
    return leading.end() if leading else start


def paragraph_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Spans of the paragraphs of ``text[start:end]`` (``start`` must be a line start)."""
    stop = len(text) if end is None else end
    first = leading_blanks_end(text, start, stop)
    if first >= stop:
        return []
    separator_starts, separator_ends = _separators(text, first, stop)
    # Each paragraph runs from the end of a separator (or ``first``) to the next one.
    separator_ends.insert(0, first)
    spans = list(zip(separator_ends, separator_starts))
    if separator_ends[-1] < stop:
        spans.append((separator_ends[-1], stop))
    return spans


_LINE_STARTS = re.compile(r"(?<=\n)|(?<=\r)(?!\n)")
_LINE_SPLIT = re.compile(r"\r\n|\r|\n")
# What any code line shows at least one of (a quick test before the lines are read).
_CODE_HINT = re.compile(r"[{}();\[\]\\,:#/@>`~\t]|    |\.\.\.")
_SESSION = (">>>", "```", "~~~", "... ")  # a doctest prompt or a fence: code at once
_CODE_START = ("\t", "    ", "...")
_COMMENT_START = ("//", "#", "@")
_CODE_END = tuple("{}();[]\\")
_BLOCK_OPENERS = ("):", " else:", " try:", " finally:")


def _is_code_line(line: str) -> bool:
    """A line that only code shows: indented by a tab or four spaces, a comment or
    decorator start, or ending with a bracket, brace, semicolon, backslash, a comma right
    after a word, quote or bracket, or a block opener such as "):" and "else:"."""
    if line.startswith(_CODE_START):
        return line == "..." or not line.startswith("...") or line.startswith("... ")
    content = line.lstrip(" \t")
    if content.startswith(_COMMENT_START) and (content[0] != "@" or content[1:2].isalnum()):
        return True
    content = content.rstrip(" \t")
    if content.endswith(_CODE_END) or content.endswith(_BLOCK_OPENERS):
        return True
    if content in ("else:", "try:", "finally:"):
        return True
    return (
        content.endswith(",")
        and len(content) > 1
        and (content[-2].isalnum() or content[-2] in "_'\")]}")
    )


def looks_like_code(text: str, start: int, end: int) -> bool:
    """Whether the lines of ``text[start:end]`` read as code: a doctest prompt or a fence
    on any line, or at least half of the lines indented or ending like code."""
    if not _CODE_HINT.search(text, start, end):
        return False
    lines = _LINE_SPLIT.split(text[start:end])
    matched = 0
    for line in lines:
        if line.startswith(_SESSION):
            return True
        matched += _is_code_line(line)
    return 2 * matched >= len(lines)


def code_line_spans(text: str, start: int, end: int) -> list[Span]:
    """The lines of ``text[start:end]`` (each with its line ending) if the region reads as
    code (:func:`looks_like_code`), else the whole region: code is cut at line ends, prose
    is left to the sentence level."""
    if not looks_like_code(text, start, end):
        return [(start, end)]
    cuts = [m.start() for m in _LINE_STARTS.finditer(text, start, end)]
    return list(pairwise([start, *(c for c in cuts if start < c < end), end]))


def code_line_starts(text: str, low: int, end: int) -> list[int]:
    """Line starts in ``[low, end)`` where the lines around them read as code: where
    overlap of code starts at a line."""
    reach = max(0, low - 1024)  # a line start not far back (a longer line: from low)
    first = max(text.rfind("\n", reach, low), text.rfind("\r", reach, low)) + 1 or low
    return [start for start, _ in code_line_spans(text, first, end)[1:] if start >= low]
