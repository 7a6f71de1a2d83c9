"""Words: the level that cuts a sentence longer than the budget (seed 001: "cut at word
boundaries, then at grapheme-cluster boundaries").

A piece is a run of non-space characters with the spaces after it; the spaces at the
start of the region go with the first piece, so the pieces tile the region exactly. A run
without spaces (Chinese, Japanese, a long URL) stays one piece and is left to the hard
cut. Two kinds of space do not separate words:

* no-break spaces (U+00A0, U+2007, U+202F), which exist to forbid a break there;
* a space followed by a combining mark, ZWJ or spacing mark, since the two form one
  grapheme cluster (UAX #29 rules GB9, GB9a) that a cut must not split (a tab or a line
  ending is a control character, which no mark joins: it stays a separator).
"""

from __future__ import annotations

import re
from functools import cache

import regex

from ..chunk import JOINING_MARKS, Span
from .sentences import bmp_ranges, check_region

_JOINING = f"[{JOINING_MARKS}]"  # a character that joins the one before it (GB9, GB9a)
# A space (White_Space) that may end a piece: a control character (tab, line ending: no
# mark ever joins those), or another space that is neither no-break nor a cluster's base.
_BREAK_SPACE = rf"(?:(?=\s)[\r\n\p{{GCB=Control}}]|(?![\xa0\u2007\u202f])\s(?!{_JOINING}))"
# Runs of them, with the common ones taken a run at a time: repeating the group above once
# per character makes the regex module keep state per character (100 MB for a run of a
# million spaces); a run of tabs and line endings always breaks, a run of spaces unless
# its last one is a mark's base (the run then gives that one back).
_BREAK_SPACES = rf"(?:[\t\n\r\x0b\x0c]++|[ \u3000]+(?!{_JOINING})|{_BREAK_SPACE})*+"
_WORD = regex.compile(rf"{_BREAK_SPACES}(?:[^\s]++|(?!{_BREAK_SPACE})\s)*+{_BREAK_SPACES}")

# Most text has no space but these six and no mark on a space: there every space breaks,
# and a word is a run of other characters, which the standard ``re`` finds several times
# faster than the rules above.
_COMMON_SPACES = " \t\n\x0b\x0c\r"
_PLAIN_WORD = re.compile(rf"[{_COMMON_SPACES}]*[^{_COMMON_SPACES}]*[{_COMMON_SPACES}]*")


@cache
def _needs_word_rules() -> re.Pattern[str]:
    """What makes a region need :data:`_WORD` (never an ASCII character, so ASCII text is
    not searched): another space that breaks (ideographic, em, line separator, ...; a
    no-break space is a word's in both), or a space followed by a mark that joins it, or
    by any character beyond the BMP (an emoji modifier joins, and reading the joining marks
    of the other planes would cost more than the few regions that have one)."""
    other_spaces = bmp_ranges(r"\s--[ \t\n\x0b\x0c\r\xa0\u2007\u202f]")
    joining = bmp_ranges(JOINING_MARKS)
    return re.compile(f"[{other_spaces}]| [{joining}\U00010000-\U0010ffff]")


def word_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Spans of the words of ``text[start:end]`` (each with its following spaces)."""
    stop = check_region(text, start, end)
    plain = text[start:stop].isascii() or not _needs_word_rules().search(text, start, stop)
    rules = _PLAIN_WORD if plain else _WORD
    spans = [m.span() for m in rules.finditer(text, start, stop)]
    if spans and spans[-1][0] == spans[-1][1]:
        spans.pop()  # the empty match at the end of the region
    return spans
