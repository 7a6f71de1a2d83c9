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

import regex

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
_AFTER = r"[\p{GCB=Extend}\p{GCB=ZWJ}\p{GCB=SpacingMark}]"  # GB9, GB9a

CLUSTER: regex.Pattern[str] = regex.compile(
    rf"\r\n|[{_CONTROL}]|\p{{GCB=Prepend}}*(?:{_CORE}){_AFTER}*"  # GB3-GB5, GB9b
)
"""One extended grapheme cluster, matched from a cluster start."""

_FAST_CLUSTER = regex.compile(r"\X")
_LINKER = regex.compile(r"\p{InCB=Linker}")


def _pattern(text: str, start: int, end: int) -> regex.Pattern[str]:
    """The cluster pattern for ``text[start:end]``: ``\\X`` unless GB9c may apply."""
    return CLUSTER if _LINKER.search(text, start, end) else _FAST_CLUSTER


def cluster_ends(text: str, start: int, end: int) -> list[int]:
    """Ends of the grapheme clusters of ``text[start:end]``, ``start`` being a cluster start."""
    segment = text[start:end]
    if segment.isascii() and "\r\n" not in segment:
        return list(range(start + 1, end + 1))
    return [m.end() for m in _pattern(text, start, end).finditer(text, start, end)]


def first_cluster_end(text: str, start: int, end: int) -> int:
    """End of the grapheme cluster that starts at ``start`` (bounded by ``end``)."""
    match = CLUSTER.match(text, start, end)  # one cluster: the exact pattern costs nothing
    return match.end() if match else start
