"""Line-breaking rules (UAX #14) for where a chunk may start and end, and the finer
boundaries that go with them: clauses and line-break opportunities.

A reader never expects a chunk to begin with closing punctuation or to end with opening
punctuation. UAX #14 forbids a line break before the classes CL (``。，、」』）``), CP
(``)]``), EX (``!?！？``), IS (``,.:;``), NS (``々：；``), CJ (small kana, ``ー``), IN
(``…``) and a closing quotation mark, and after OP (``「『（([{``) and an opening quotation
mark, even across spaces. Whether a quotation mark opens or closes follows its context
(LB15a, LB15b): a final one (Pf: ``”’»``) closes before a space, punctuation or the end,
an initial one (Pi: ``“‘«``) opens after a space, opening punctuation or the start; so the
German ``»Ja.«`` opens with ``»`` and closes with ``«``. The classes come from the
``regex`` module's ``\\p{Line_Break=...}`` data:

* :func:`glue` joins the pieces of any boundary level across a cut that those rules
  forbid (packing applies it to every level), so a hard-wrapped Chinese line that starts
  with ``。`` never starts a chunk;
* :func:`break_opportunities` are the places a line may break inside a run of text:
  after spaces and around ideographs and kana (Chinese and Japanese have no spaces),
  never inside a word of a spaced script or a full-width word or number (``ＡＢＣ１２３``,
  ``３．１４``, which UAX #14 would break), never before closing or after opening
  punctuation, never inside a grapheme cluster. Hard cuts and the finest overlap starts
  use them; Hangul is kept whole between spaces (Korean is written with spaces);
* :func:`clause_starts` are the starts after clause punctuation (``,;:，、；：``).

This is the part of UAX #14 that decides where chunk edges fall, not a full line
breaker: numbers, hyphens and dashes, for instance, offer no break here (a word longer
than the budget is cut after a hyphen, a dash or a slash in it first: see
:func:`~spansplit.packing.pieces.hard_cut`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import regex

from ..chunk import JOINING_MARKS, Span, after_whitespace, before_whitespace
from .graphemes import cuts_inside_clusters
from .sentences import bmp_ranges

CLOSING_CLASSES = r"\p{lb=CL}\p{lb=CP}\p{lb=EX}\p{lb=IS}\p{lb=NS}\p{lb=CJ}\p{lb=IN}"
"""Line-break classes that no line (and no chunk) may start with, as set members."""

# What a final quotation mark closes before (UAX #14 LB15b: SP, GL, WJ, CL, QU, CP, EX,
# IS, SY, BK, CR, LF, NL, ZW), and what an initial one opens after (LB15a: BK, CR, LF,
# NL, OP, QU, GL, SP, ZW); the start and the end of the text count too.
# East Asian wide text counts on both sides (as UAX #14 LB19a reads quotes between such
# characters): in hard-wrapped Chinese, a ” that starts a line after 去 closes.
_EAST_ASIAN = r"\p{ea=W}\p{ea=F}"
_QUOTE_CLOSES_BEFORE = (
    r"\s\p{lb=GL}\p{lb=WJ}\p{lb=CL}\p{lb=QU}\p{lb=CP}\p{lb=EX}\p{lb=IS}\p{lb=SY}\p{lb=ZW}"
    + _EAST_ASIAN
)
_QUOTE_OPENS_AFTER = r"\s\p{lb=OP}\p{lb=QU}\p{lb=GL}\p{lb=ZW}" + _EAST_ASIAN
_FINAL_QUOTE, _INITIAL_QUOTE = r"[\p{lb=QU}&&\p{Pf}]", r"[\p{lb=QU}&&\p{Pi}]"
# A final quotation mark with no space before it always closes (LB19), one after a space
# by what follows it; an initial one with no space after it always opens.
_CLOSING_QUOTE = rf"(?:(?<!\s){_FINAL_QUOTE}|{_FINAL_QUOTE}(?![^{_QUOTE_CLOSES_BEFORE}]))"
_OPENING_QUOTE = rf"(?:{_INITIAL_QUOTE}(?!\s)|(?<![^{_QUOTE_OPENS_AFTER}]){_INITIAL_QUOTE})"
# Closing and opening punctuation, each a pattern of one character read in its context.
_CLOSING_SET = rf"(?:[{CLOSING_CLASSES}]|{_CLOSING_QUOTE})"
_OPENING_SET = rf"(?:\p{{lb=OP}}|{_OPENING_QUOTE})"

CLOSING = regex.compile(_CLOSING_SET, regex.V1)
"""One character no chunk may start with (closing punctuation, UAX #14 LB13-LB22)."""
OPENING = regex.compile(_OPENING_SET, regex.V1)
"""One character no chunk may end with (opening punctuation, UAX #14 LB14, LB15a)."""

# Ideographs and kana (line-break class ID, with the small kana of CJ), and emoji (ID, EB
# and their modifiers EM): a line may break between any two of them, and before or after
# one beside other text (UAX #14 LB31; LB30b keeps a modifier with its base, as its
# grapheme cluster does).
_IDEOGRAPHIC = r"\p{lb=ID}\p{lb=EB}\p{lb=EM}"
# Full-width letters and digits (ＡＢＣ１２３): UAX #14 lets a line break between any two
# of them (class ID), but a reader sees a word or a number there, as in ASCII: none
# between them, nor inside a number's separators and signs (３．１４, １２：３０, ５０％, ＄５).
_FULL_WIDTH_ALNUM = r"[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]"
_FULL_WIDTH_DIGIT = r"[\uff10-\uff19]"
# (The character after the position is read first: most text has none of these.)
_IN_FULL_WIDTH_WORD = (
    rf"(?![\uff05\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]"
    rf"(?:(?<={_FULL_WIDTH_ALNUM}{_FULL_WIDTH_ALNUM})|(?<={_FULL_WIDTH_ALNUM}\uff05)"
    rf"|(?<={_FULL_WIDTH_DIGIT}[\uff0e\uff0c\uff1a\uff0f.,:/]{_FULL_WIDTH_DIGIT})"
    rf"|(?<=[\uff04\uffe5\uffe1]{_FULL_WIDTH_DIGIT})))"
)
# Spaces a line may break after: White_Space but not a no-break space.
_SPACE = r"[\s--[\xa0\u2007\u202f]]"
# Opening punctuation of East Asian width (「『（【), which a line may break before (LB30
# keeps only narrow brackets with the letter before them).
_WIDE_OPENING = r"[\p{lb=OP}&&[\p{ea=W}\p{ea=F}]]"
# A position where a line may break: after spaces; before an ideograph or wide opening
# punctuation; after an ideograph or a full-width closing mark before other text. Never before
# closing punctuation, never after opening punctuation.
_OPPORTUNITY = regex.compile(
    rf"(?:(?<={_SPACE})(?!{_SPACE})|(?<=\S)(?=[{_IDEOGRAPHIC}{_WIDE_OPENING}])"
    rf"|(?<=[{_IDEOGRAPHIC}[\p{{lb=CL}}\p{{lb=NS}}\p{{lb=EX}}--\p{{ASCII}}]])(?=\S)"
    # before and after a run of regional indicators (flags), never inside one (LB30a)
    rf"|(?<=[^\s\p{{lb=RI}}])(?=\p{{lb=RI}})|(?<=\p{{lb=RI}})(?=[^\s\p{{lb=RI}}]))"
    rf"(?!{_CLOSING_SET}|[\p{{lb=SY}}\p{{lb=WJ}}\p{{lb=ZW}}\p{{lb=GL}}\p{{lb=CM}}])"
    rf"(?<!{_OPENING_SET}\p{{lb=CM}}*{_SPACE}*|[\p{{lb=WJ}}\p{{lb=GL}}]\p{{lb=CM}}*)"
    # never inside a grapheme cluster (GB9, GB9a, GB9b, GB11), nor a full-width word or
    # number (class ID, but read as a word or a number)
    rf"(?![{JOINING_MARKS}])(?<![\p{{GCB=Prepend}}\u200d])" + _IN_FULL_WIDTH_WORD,
    regex.V1,
)
# The end of a clause: clause punctuation (Sentence_Break=SContinue less the dashes), the
# closing punctuation after it, then the spaces after that; ASCII ",;:" only before a
# space ("1,000" and "a:b" go on), full-width "，、；：" before anything.
_CLAUSE_CLOSERS = rf"[{CLOSING_CLASSES}[\p{{lb=QU}}&&\p{{Pf}}]]*"
_CLAUSE_END = regex.compile(
    rf"[\p{{SB=SContinue}}--\p{{Pd}}--\p{{ASCII}}]{_CLAUSE_CLOSERS}{_SPACE}*"
    rf"|[[\p{{SB=SContinue}}--\p{{Pd}}]&&\p{{ASCII}}]{_CLAUSE_CLOSERS}{_SPACE}+",
    regex.V1,
)


def forbidden_cuts(
    text: str, spans: Sequence[Span], punctuation: bool = True, trimmed: bool = False
) -> list[int]:
    """Indices ``k`` of ``spans`` whose cut before piece ``k`` the rules forbid: an edge
    of it falls inside a grapheme cluster (the end of piece ``k - 1`` or the start of
    piece ``k``: :func:`~.graphemes.cuts_inside_clusters`), or, with ``punctuation``,
    piece ``k`` starts with closing punctuation or piece ``k - 1`` ends with opening
    punctuation (spaces aside; ``trimmed``: no piece starts or ends with whitespace).
    The edge characters are gathered into strings and searched at C speed; only the
    pieces found are looked at one by one."""
    if len(spans) < 2:
        return []
    ends = [end for _, end in spans[:-1]]
    starts = [start for start, _ in spans[1:]]
    firsts = "".join([text[start] for start in starts])
    lasts = "".join([text[end - 1] for end in ends])
    # The characters around each edge of a cut, as cuts_inside_clusters reads them: those
    # inside the pieces are gathered already, and where the pieces tile, all of them.
    if ends == starts:
        inside = set(cuts_inside_clusters(text, ends, (lasts, firsts)))
    else:
        size = len(text)
        after_ends = "".join([text[end] if end < size else "\n" for end in ends])
        before_starts = "".join([text[start - 1] if start else "\n" for start in starts])
        around = (lasts + before_starts, after_ends + firsts)
        inside = set(cuts_inside_clusters(text, ends + starts, around))
    found: set[int] = set()
    if inside:
        found.update(index + 1 for index, end in enumerate(ends) if end in inside)
        found.update(index + 1 for index, start in enumerate(starts) if start in inside)
    if punctuation:
        # The first and last characters other than spaces, looked for a few characters
        # in (a blank there stands for more spaces, which are looked at one by one).
        if not trimmed:
            reach = _EDGE_REACH
            firsts = "".join([text[start : start + reach].lstrip()[:1] or " " for start in starts])
            lasts = "".join([text[max(0, end - reach) : end].rstrip()[-1:] or " " for end in ends])
        suspects = {m.start() for m in _EDGE_FIRST.finditer(firsts)}
        suspects.update(m.start() for m in _EDGE_LAST.finditer(lasts))
        for index in sorted(suspects):
            (a, b), (c, d) = spans[index], spans[index + 1]
            if punctuation_joins(text, a, b, c, d):
                found.add(index + 1)
    return sorted(found)


_LINE_ENDING = re.compile(r"[\n\r\v\f\x85\u2028\u2029]")
"""A character that ends a line (UAX #14 classes BK, CR, LF and NL)."""


def punctuation_joins(text: str, a: int, b: int, c: int, d: int) -> bool:
    """Whether the cut between pieces ``[a, b)`` and ``[c, d)`` is one the punctuation
    rules forbid (:func:`punctuation_forbids`, spaces at the pieces' edges aside)."""
    return punctuation_forbids(
        text, before_whitespace(text, a, b), after_whitespace(text, c, d), a, d
    )


def punctuation_forbids(
    text: str, last: int, first: int, low: int = 0, high: int | None = None
) -> bool:
    """Whether a cut between ``text[low:last]`` and ``text[first:high]`` (only whitespace
    between them) puts closing punctuation first or opening punctuation last. Across a
    line ending, which UAX #14 always lets a line break after, only punctuation beyond
    ASCII counts: hard-wrapped CJK and typographic quotes still hold together, while code
    keeps its lines (``{`` ending one, ``}`` or ``.method()`` starting the next)."""
    high = len(text) if high is None else high
    before, after = text[last - 1 : last] if last > low else "", text[first : first + 1]
    if (
        before.isascii()
        and after.isascii()
        and before not in _ASCII_OPENING
        and (first >= high or after not in _ASCII_CLOSING)
    ):
        return False  # (most cuts: ASCII on both sides, read without a pattern)
    opening = last > low and OPENING.match(text, last - 1) is not None
    closing = first < high and CLOSING.match(text, first) is not None
    if not (opening or closing):
        return False
    if _LINE_ENDING.search(text, last, first) is None:
        return True
    return (opening and not text[last - 1].isascii()) or (closing and not text[first].isascii())


_ASCII_OPENING = frozenset(c for c in map(chr, range(128)) if OPENING.match(c))
_ASCII_CLOSING = frozenset(c for c in map(chr, range(128)) if CLOSING.match(c))
"""The ASCII characters :data:`OPENING` and :data:`CLOSING` match (alone: no ASCII quotation
mark opens or closes by its context)."""

_EDGE_REACH = 8
"""How far past a piece's edge :func:`forbidden_cuts` looks for its first (last) character
other than spaces at C speed."""

# A first character that may hide a closing one (itself, or a space before one) and a
# last character that may hide an opening one, any quotation mark included: these read
# characters gathered from the edges of pieces, out of their context.
_MAY_CLOSE = rf"{CLOSING_CLASSES}[\p{{lb=QU}}&&\p{{Pf}}]"
_MAY_OPEN = r"\p{lb=OP}[\p{lb=QU}&&\p{Pi}]"
_EDGE_FIRST = regex.compile(rf"[\s{_MAY_CLOSE}]", regex.V1)
_EDGE_LAST = regex.compile(rf"[\s{_MAY_OPEN}]", regex.V1)


_FORBIDDEN_RUN = regex.compile(rf"\s{_CLOSING_SET}|{_OPENING_SET}\s", regex.V1)


def forbidden_run(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether ``text[start:end]`` has whitespace before closing punctuation or after
    opening punctuation (a run of it may then be no cut). Most text has neither, which a
    standard ``re`` pattern of the characters alone (their context aside) tells at a
    sixth of the time ``regex`` takes."""
    end = len(text) if end is None else end
    if _forbidden_run_hint().search(text, start, end) is None and not _ASTRAL.search(
        text, start, end
    ):
        return False
    return _FORBIDDEN_RUN.search(text, start, end) is not None


@lru_cache(maxsize=1)
def _forbidden_run_hint() -> re.Pattern[str]:
    """Whitespace before a character that may be closing punctuation, or after one that
    may be opening punctuation (quotation marks by their kind alone), in the BMP: where
    this finds nothing in text of the BMP, :data:`_FORBIDDEN_RUN` finds nothing either."""
    space, closing, opening = (bmp_ranges(members) for members in (r"\s", _MAY_CLOSE, _MAY_OPEN))
    return re.compile(f"[{space}][{closing}]|[{opening}][{space}]")


def glue(
    text: str,
    spans: list[Span],
    breaks: set[int],
    punctuation: bool = True,
    trimmed: bool = False,
) -> tuple[list[Span], set[int]]:
    """``spans`` with the pieces joined across every cut the rules forbid (see
    :func:`forbidden_cuts`: never inside a grapheme cluster, and with ``punctuation``
    never before closing or after opening punctuation); ``breaks`` (indices of pieces
    that must start a chunk) follow their pieces, and a break on a piece that was joined
    to the one before is dropped with the cut. Joining can make a new forbidden cut (a
    blank piece joined to what follows it): it is joined too. ``trimmed``: no piece starts
    or ends with whitespace (joined pieces neither)."""
    while True:
        joins = forbidden_cuts(text, spans, punctuation, trimmed)
        if not joins:
            return spans, breaks
        joined = set(joins)
        out: list[Span] = []
        moved: set[int] = set()
        for index, span in enumerate(spans):
            if index in joined:
                out[-1] = (out[-1][0], span[1])
                continue
            if index in breaks:
                moved.add(len(out))
            out.append(span)
        spans, breaks = out, moved


@lru_cache(maxsize=1)
def _fast_opportunity() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """:data:`_OPPORTUNITY` for text within the BMP, with the standard ``re`` module and
    the classes spelled out as ranges (several times faster), and the places its
    fixed-width lookbehinds cannot see: opening punctuation, combining marks and spaces
    before a position, or a word joiner or no-break character and combining marks."""
    space, white = bmp_ranges(r"\s--[\xa0\u2007\u202f]"), bmp_ranges(r"\s")
    ideographic = bmp_ranges(rf"{_IDEOGRAPHIC}{_WIDE_OPENING}")
    after = bmp_ranges(rf"{_IDEOGRAPHIC}[\p{{lb=CL}}\p{{lb=NS}}\p{{lb=EX}}--\p{{ASCII}}]")
    closing = bmp_ranges(CLOSING_CLASSES)
    opening = bmp_ranges(r"\p{lb=OP}")
    final_quotes, closes_before = bmp_ranges(r"\p{lb=QU}&&\p{Pf}"), bmp_ranges(_QUOTE_CLOSES_BEFORE)
    initial_quotes, opens_after = bmp_ranges(r"\p{lb=QU}&&\p{Pi}"), bmp_ranges(_QUOTE_OPENS_AFTER)
    closing_quote = f"(?:(?<![{white}])[{final_quotes}]|[{final_quotes}](?![^{closes_before}]))"
    opening_quote = f"(?:[{initial_quotes}](?![{white}])|(?<![^{opens_after}])[{initial_quotes}])"
    never_before = bmp_ranges(r"\p{lb=SY}\p{lb=WJ}\p{lb=ZW}\p{lb=GL}\p{lb=CM}")
    glue_marks = bmp_ranges(r"\p{lb=WJ}\p{lb=GL}")
    marks = bmp_ranges(r"\p{lb=CM}")
    joins_back = bmp_ranges(JOINING_MARKS)
    prepend = bmp_ranges(r"\p{GCB=Prepend}")
    opportunity = re.compile(
        f"(?:(?<=[{space}])(?![{space}])|(?<=[^{white}])(?=[{ideographic}])"
        f"|(?<=[{after}])(?=[^{white}]))"
        f"(?![{closing}{never_before}]|{closing_quote})(?<![{opening}{glue_marks}])"
        f"(?<!{opening_quote})(?![{joins_back}])(?<![{prepend}\u200d])"
        f"{_IN_FULL_WIDTH_WORD}"
    )
    opens = f"(?:[{opening}]|{opening_quote})"
    blocked = re.compile(f"{opens}[{marks}]*[{space}]+|(?:{opens}|[{glue_marks}])[{marks}]+")
    return opportunity, blocked


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def break_opportunities(text: str, start: int, end: int) -> list[int]:
    """Positions strictly inside ``text[start:end]`` where a line may break (see the
    module docstring), ascending; none is inside a grapheme cluster. The lookarounds see
    the text around the region, so any ``start`` gives the same positions."""
    # (searched up to the character after the region, which the lookaheads read)
    stop = min(len(text), end + 1)
    if _ASTRAL.search(text, max(0, start - 8), min(len(text), end + 8)):
        found = [m.start() for m in _OPPORTUNITY.finditer(text, start + 1, stop)]
    else:
        opportunity, blocked = _fast_opportunity()
        found = [m.start() for m in opportunity.finditer(text, start + 1, stop)]
        if found:
            stops = {m.end() for m in blocked.finditer(text, max(0, start - 64), end)}
            if stops:
                found = [p for p in found if p not in stops]
    while found and found[-1] >= end:
        found.pop()
    return found


def word_starts(text: str, low: int, end: int) -> list[int]:
    """Line-break opportunities in ``[low, end)``: where overlap may start at a word."""
    return break_opportunities(text, low - 1, end) if low > 0 else break_opportunities(text, 0, end)


def clause_starts(text: str, start: int, end: int) -> list[int]:
    """Starts of the clauses inside ``text[start:end]``: after clause punctuation
    (``,;:，、；：``), the closing punctuation and spaces after it; ascending."""
    found = []
    for match in _CLAUSE_END.finditer(text, start, end):
        position = match.end()
        if start < position < end and CLOSING.match(text, position) is None:
            found.append(position)
    return found


def clause_starts_from(text: str, low: int, end: int) -> list[int]:
    """Clause starts in ``[low, end)``: where overlap may start at a clause."""
    return [p for p in clause_starts(text, max(0, low - 16), end) if p >= low]


def _spans_at(start: int, end: int, cuts: list[int]) -> list[Span]:
    return list(pairwise([start, *cuts, end]))


@dataclass(frozen=True, slots=True)
class ClauseLevel:
    """The level that splits a region into clauses (each keeps its punctuation)."""

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        return _spans_at(start, end, clause_starts(text, start, end))


@dataclass(frozen=True, slots=True)
class LineBreakLevel:
    """The level that splits a region at every line-break opportunity: words of spaced
    scripts (with their spaces), single ideographs and kana with their punctuation."""

    cut_anywhere = True  # see levels.cut_anywhere

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        return _spans_at(start, end, break_opportunities(text, start, end))


CLAUSES = ClauseLevel()
LINE_BREAKS = LineBreakLevel()
