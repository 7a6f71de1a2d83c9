"""Extended grapheme clusters (UAX #29): the finest unit a hard cut may produce.

A cut between two clusters never separates a CRLF pair, a base from its combining marks,
or the parts of an emoji ZWJ sequence or a flag.
"""

from __future__ import annotations

import regex

_CLUSTER = regex.compile(r"\X")


def cluster_ends(text: str, start: int, end: int) -> list[int]:
    """Ends of the grapheme clusters of ``text[start:end]``, ``start`` being a cluster start."""
    segment = text[start:end]
    if segment.isascii() and "\r\n" not in segment:
        return list(range(start + 1, end + 1))
    return [m.end() for m in _CLUSTER.finditer(text, start, end)]


def first_cluster_end(text: str, start: int, end: int) -> int:
    """End of the grapheme cluster that starts at ``start`` (bounded by ``end``)."""
    match = _CLUSTER.match(text, start, end)
    return match.end() if match else start
