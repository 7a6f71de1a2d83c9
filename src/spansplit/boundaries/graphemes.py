"""Extended grapheme clusters (UAX #29): the finest unit a hard cut may produce.

A cut between two clusters never separates a CRLF pair, a base from its combining marks,
the parts of an emoji ZWJ sequence or a flag, or an Indic conjunct.

The ``regex`` module's ``\\X`` is nearly right, but it applies rule GB9c (no break inside
an Indic conjunct: consonant, linker such as a virama, consonant) even where no consonant
precedes the linker, so it glues a lone virama to the next consonant (4 of the 766 cases
of Unicode 17's GraphemeBreakTest.txt). :data:`CLUSTER` spells the rules out with the
same Unicode data instead, and passes every case. Text without a linker cannot meet
GB9c, so there the faster ``\\X`` is used: both give the same clusters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

import regex

from ..chunk import CONTROL_CHAR, FIRST_MARK, JOINING_MARKS, JOINS_BACK, PREPEND, Span
from .sentences import bmp_ranges

_CONTROL = r"\r\n\p{GCB=Control}"
_HANGUL = (
    r"\p{GCB=L}*(?:\p{GCB=V}+|\p{GCB=LV}\p{GCB=V}*|\p{GCB=LVT})\p{GCB=T}*"
    r"|\p{GCB=L}+|\p{GCB=T}+"
)
# GB9c: a conjunct is consonant (linker and extenders, with at least one linker, consonant)*.
_INCB_GLUE = r"[\p{InCB=Extend}\p{InCB=Linker}]*\p{InCB=Linker}[\p{InCB=Extend}\p{InCB=Linker}]*"
_CONJUNCT = rf"\p{{InCB=Consonant}}(?:{_INCB_GLUE}\p{{InCB=Consonant}})*"
_PICTOGRAPHIC = r"\p{ExtPict}(?:\p{GCB=Extend}*\p{GCB=ZWJ}\p{ExtPict})*"  # GB11
_FLAG = r"\p{GCB=RI}\p{GCB=RI}"  # GB12, GB13
_CORE = rf"{_HANGUL}|{_FLAG}|{_PICTOGRAPHIC}|{_CONJUNCT}|[^{_CONTROL}]"
_AFTER = f"[{JOINING_MARKS}]"  # GB9, GB9a

CLUSTER: regex.Pattern[str] = regex.compile(
    rf"\r\n|[{_CONTROL}]|\p{{GCB=Prepend}}*(?:{_CORE}){_AFTER}*"  # GB3-GB5, GB9b
)
"""One extended grapheme cluster, matched from a cluster start."""

_FAST_CLUSTER = regex.compile(r"\X")
_LINKER = regex.compile(r"\p{InCB=Linker}")


def _pattern(text: str, start: int, end: int) -> regex.Pattern[str]:
    """The cluster pattern for ``text[start:end]``: ``\\X`` unless GB9c may apply."""
    return CLUSTER if _LINKER.search(text, start, end) else _FAST_CLUSTER


def one_character_clusters(segment: str) -> bool:
    """Whether every character of ``segment`` is a grapheme cluster of its own (ASCII
    without a CRLF pair), so no cut in it can fall inside a cluster."""
    return segment.isascii() and "\r\n" not in segment


def cluster_ends(text: str, start: int, end: int) -> list[int]:
    """Ends of the grapheme clusters of ``text[start:end]``, ``start`` being a cluster start."""
    if one_character_clusters(text[start:end]):
        return list(range(start + 1, end + 1))
    return [m.end() for m in _pattern(text, start, end).finditer(text, start, end)]


def first_cluster_end(text: str, start: int, end: int) -> int:
    """End of the grapheme cluster that starts at ``start`` (bounded by ``end``)."""
    match = CLUSTER.match(text, start, end)  # one cluster: the exact pattern costs nothing
    return match.end() if match else start


# Character classes for telling whether a position is a cluster boundary without matching
# clusters: JOINS_BACK continues the cluster before it whatever that is (GB9, GB9a; a
# control before it aside, GB4); after a _PLAIN character only one of JOINS_BACK does (or,
# after a control or LF, nothing at all), while after any other (CR, Prepend, Hangul, a
# regional indicator, ZWJ, a linker) the clusters before it may matter.
_PLAIN = regex.compile(r"[\p{GCB=Other}\p{GCB=Control}\n]")
_NOT_PLAIN = regex.compile(r"[^\p{GCB=Other}\p{GCB=Control}\n]")
_SIMPLE_START = regex.compile(r"[\p{GCB=Other}&&\p{InCB=None}]", regex.V1)
_WHITESPACE_CONTROLS = "\x85\u2028\u2029"  # and every whitespace below " "


@cache
def _joins_back(char: str) -> bool:
    return JOINS_BACK.match(char) is not None


@cache
def _plain(char: str) -> bool:
    return _PLAIN.match(char) is not None


@cache
def _simple_start(char: str) -> bool:
    return _SIMPLE_START.match(char) is not None


@cache
def _prepend(char: str) -> bool:
    return PREPEND.match(char) is not None


class _ClusterScan:
    """Where grapheme clusters lie around positions of one text, asked in ascending order.

    Each question walks back from the position to a sure cluster start and matches
    clusters forward from there; the last cluster found is remembered, so questions in
    ascending order never walk back past it (linear in all, even inside one cluster of a
    million marks)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.last = (0, 0)  # the last cluster found: start, end

    def _sure_start(self, position: int) -> bool:
        """Whether a cluster starts at ``position`` whatever comes before the character
        before it."""
        text = self.text
        before, after = text[position - 1], text[position]
        if before == "\r":
            return after != "\n"
        if CONTROL_CHAR.match(before) or CONTROL_CHAR.match(after):
            return True
        if _plain(before):
            return not _joins_back(after)
        # After a mark, a regional indicator, Hangul: a plain character that no rule joins
        # to what precedes it (not a consonant a linker may join, not after ZWJ or Prepend).
        return _simple_start(after) and before != "\u200d" and not _prepend(before)

    def around(self, position: int) -> Span:
        """The cluster holding ``text[position]`` (``0 <= position < len(text)``)."""
        start, end = self.last
        if start <= position < end:
            return start, end
        floor = end if end <= position else 0
        pos = position
        while pos > floor and not self._sure_start(pos):
            pos -= 1
        text = self.text
        while True:
            match = CLUSTER.match(text, pos)
            following = match.end() if match else pos + 1
            if following > position:
                self.last = (pos, following)
                return pos, following
            pos = following


def cluster_around(text: str, position: int) -> Span:
    """The grapheme cluster that holds ``text[position]``: its start and end."""
    return _ClusterScan(text).around(position)


def cuts_inside_clusters(
    text: str, positions: Sequence[int], around: tuple[str, str] | None = None
) -> list[int]:
    """The positions of ``positions`` (offsets into ``text``) that fall strictly inside a
    grapheme cluster (a CRLF pair included), ascending.

    Between two characters below U+0300 only a CRLF pair is a cluster. Other positions
    are looked at one by one when they are few (each character's class is remembered),
    else the characters on either side of them are gathered into two strings searched at
    C speed; only positions next to a character that may join another are looked at
    closely (:class:`_ClusterScan`). ``around``, where the caller has them, are those two
    strings (``text[p - 1]`` and ``text[p]`` for each position ``p`` strictly inside).
    """
    size = len(text)
    if around is not None:
        chosen = [p for p in (positions[i] for i in _suspects(*around)) if 0 < p < size]
    elif len(positions) <= 64:
        chosen = [
            p
            for p in positions
            if 0 < p < size
            and (
                text[p - 1] == "\r"
                if text[p - 1] < FIRST_MARK and text[p] < FIRST_MARK
                else not _plain(text[p - 1]) or _joins_back(text[p])
            )
        ]
    else:
        befores = "".join([text[p - 1] if 0 < p < size else "\n" for p in positions])
        afters = "".join([text[p] if 0 < p < size else "\n" for p in positions])
        chosen = [positions[i] for i in _suspects(befores, afters)]
    if not chosen:
        return []
    scan = _ClusterScan(text)
    return [p for p in sorted(set(chosen)) if scan.around(p)[0] != p]


def _suspects(befores: str, afters: str) -> set[int]:
    """Indices ``i`` where ``befores[i]`` may continue into the next character or
    ``afters[i]`` joins the one before it: where a cut may fall inside a cluster. With the
    standard ``re`` module and the classes as ranges where both strings are within the
    BMP (several times faster), else with ``regex``."""
    if _ASTRAL.search(befores) or _ASTRAL.search(afters):
        found = {m.start() for m in _NOT_PLAIN.finditer(befores)}
        found.update(m.start() for m in JOINS_BACK.finditer(afters))
        return found
    not_plain, joins_back = _fast_classes()
    found = {m.start() for m in not_plain.finditer(befores)}
    found.update(m.start() for m in joins_back.finditer(afters))
    return found


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@lru_cache(maxsize=1)
def _fast_classes() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """:data:`_NOT_PLAIN` and :data:`JOINS_BACK` for the BMP, for the standard ``re``."""
    plain = bmp_ranges(r"\p{GCB=Other}\p{GCB=Control}\n")
    joins = bmp_ranges(JOINING_MARKS)
    return re.compile(f"[^{plain}]"), re.compile(f"[{joins}]")


def run_in_clusters(text: str, start: int, end: int) -> bool:
    """Whether an edge of the whitespace run ``text[start:end]`` lies inside a grapheme
    cluster: a mark joins its last space (GB9, GB9a), or its first space follows a
    Prepend character (GB9b); a control joins nothing. Marks and Prepend characters are
    rare, so they are looked for first (each character's class is remembered). An empty
    run has no edge to look at."""
    if start >= end:
        return False
    if end < len(text) and _joins_back(text[end]):
        last = text[end - 1]
        if not (last < " " or last in _WHITESPACE_CONTROLS):
            return True
    if start > 0 and _prepend(text[start - 1]):
        first = text[start]
        return not (first < " " or first in _WHITESPACE_CONTROLS)
    return False
