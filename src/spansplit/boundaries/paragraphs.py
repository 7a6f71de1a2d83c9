"""Paragraphs (seed 002): maximal runs of non-blank CommonMark lines.

A blank line is empty or holds only spaces (U+0020) and tabs (U+0009); a line of U+00A0
or U+3000 is not blank. A paragraph's span runs from the first character of its first
line to the end of its last line's content (the last line ending is excluded).
"""

from __future__ import annotations

import re

from ..sizing.base import Span

# A non-blank line starts at a line start (offset 0 or after a line ending), has at least
# one character other than space, tab, CR or LF, and may be followed by more such lines.
_PARAGRAPH = re.compile(
    r"(?<![^\r\n])[ \t]*[^ \t\r\n][^\r\n]*(?:(?:\r\n|\r|\n)[ \t]*[^ \t\r\n][^\r\n]*)*"
)


def paragraph_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Spans of the paragraphs of ``text[start:end]`` (``start`` must be a line start)."""
    stop = len(text) if end is None else end
    return [m.span() for m in _PARAGRAPH.finditer(text, start, stop)]
