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
from collections.abc import Callable, Iterator
from itertools import pairwise, repeat
from operator import sub

from ..chunk import Span
from ..lines import has_lone_cr
from .levels import Level

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
SEPARATOR = r"(?:\r\n|\r(?!\n)|\n)(?=[ \t]*(?:[\r\n]|\Z))[ \t\r\n]*(?:\Z|(?<=\n)|(?<=\r)(?!\n))"
"""A paragraph separator (any line endings), as a pattern to search for or to build on."""
_SEPARATOR_ANY = re.compile(SEPARATOR)
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
_CODE_HINT = re.compile(r"[{}();\[\]\\,:#/@>`~|\t]|    |\.\.\.")
_SESSION = (">>>", "```", "~~~", "... ")  # a doctest prompt or a fence: code at once
# A line whose first character is none of these and whose last is none of those is
# neither a doctest prompt or fence nor code nor ends like code: most lines of prose.
_MAYBE_CODE_FIRST = " \t.#/@>`~|"
_MAYBE_CODE_LAST = " \t{}();[]\\:,"
_CODE_START = ("\t", "    ", "...")
_COMMENT_START = ("//", "#", "@")
_CODE_END = tuple("{}();[]\\")
_BLOCK_OPENERS = ("):", " else:", " try:", " finally:")


# A word of prose: letters (with inner apostrophes, hyphens or full stops: "don't",
# "to-day", "U.S"), opening marks before it and punctuation or closing marks after it.
_PROSE_WORD = re.compile(
    r"[\"'(\[_*\u2018\u201c\u00ab-]*[^\W\d_]+(?:['\u2019.-][^\W\d_]+)*"
    r"[\"'()\]_*.,;:!?\u2019\u201d\u00bb-]*"
)
_NOT_PROSE = re.compile(r"[=<>{}|\\`$]|[^\W_][(\[]|\S\.\S*\(")  # assignment, a call
_PROSE_WORDS = 4  # words a line of prose shows at least


def _reads_as_prose(content: str) -> bool:
    """Whether a line (no indentation) reads as a line of prose: at least four words,
    nearly all of them plain words with their punctuation, and no operator nor call. A
    hard-wrapped line of a book ends with a comma or a semicolon as often as code does."""
    if _NOT_PROSE.search(content):
        return False
    words = content.split()
    if len(words) < _PROSE_WORDS:
        return False
    plain = sum(1 for word in words if _PROSE_WORD.fullmatch(word))
    return 5 * plain >= 4 * len(words)


_CODE, _ENDS_LIKE_CODE = 2, 1


def _code_line_kind(line: str) -> int:
    """``_CODE`` for a line that only code shows (indented by a tab or four spaces, a
    comment or decorator start, a bare ``else:``) or a table row (between pipes: cut at
    line ends as code is), ``_ENDS_LIKE_CODE`` for one ending with
    a bracket, brace, semicolon, backslash, a comma right after a word, quote or bracket,
    or a block opener such as "):" (code unless it reads as prose), else 0."""
    if line.startswith(_CODE_START):
        code = line == "..." or not line.startswith("...") or line.startswith("... ")
        return _CODE if code else 0
    content = line.lstrip(" \t")
    if content.startswith(_COMMENT_START) and (content[0] != "@" or content[1:2].isalnum()):
        return _CODE
    content = content.rstrip(" \t")
    if content in ("else:", "try:", "finally:") or (
        len(content) > 1 and content[0] == "|" and content[-1] == "|"
    ):
        return _CODE
    if (
        content.endswith(_CODE_END)
        or content.endswith(_BLOCK_OPENERS)
        or (
            content.endswith(",")
            and len(content) > 1
            and (content[-2].isalnum() or content[-2] in "_'\")]}")
        )
    ):
        return _ENDS_LIKE_CODE
    return 0


def _is_code_line(line: str) -> bool:
    """A line that only code shows: see :func:`_code_line_kind`; a line that ends like
    code is code unless it reads as prose (a hard-wrapped line of a book ends with a comma
    or a semicolon as often as code does)."""
    kind = _code_line_kind(line)
    return kind == _CODE or (kind == _ENDS_LIKE_CODE and not _reads_as_prose(line.strip()))


HEADING_MOST_CHARS = 300
"""The longest text :func:`looks_like_heading` reads as a heading line."""

STACKED_HEADINGS = 6
"""The most heading lines in a row that packing keeps with the text after them (``# A``,
``## B``, ``### C`` ...); a longer run (a table of contents) is packed as any text."""
_HEADING_LINE = re.compile(r"#{1,6}(?:[ \t][^\r\n]*)?")
_BLANK = " \t\r\n"


def looks_like_heading(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (blank lines around it aside) is a whole Markdown
    heading: an ATX heading line (``## Install``), or a setext heading (a line of text
    over a line of ``=`` or ``-``), or either line of one. Indented at most three spaces:
    what a reader expects to lead the text after it, never to end a chunk. A ``#``
    inside a line (a word cut from it) or indented further (code) is none."""
    if end - start > HEADING_MOST_CHARS or not _may_start_line(text, start, 3):
        return False
    lead = text[start : start + 8].lstrip(_BLANK)[:1]
    if lead not in ("#", "=", "-") and not _UNDERLINE_LINE.search(
        text, start, end + HEADING_MOST_CHARS
    ):
        return False  # (the quick test: most pieces are no heading)
    piece = text[start:end]
    content = piece.strip(_BLANK)
    if not content:
        return False
    first = end - len(piece.lstrip(_BLANK))
    last = first + len(content)
    line_start = _line_start(text, first)
    indent = first - line_start
    if line_start < 0 or indent > 3 or text[line_start:first] != " " * indent:
        return False  # not at a line start, or indented with a tab or four spaces
    if not _rest_of_line_blank(text, last):
        return False  # a part of a line
    if content[0] == "#":
        return _HEADING_LINE.fullmatch(content) is not None
    lines = _LINES.split(content)
    if len(lines) == 2:
        return _is_title(lines[0]) and _UNDERLINE.fullmatch(lines[1]) is not None
    if len(lines) > 1:
        return False
    if _UNDERLINE.fullmatch(content):  # the underline: a title line right before it
        if line_start == 0:
            return False
        before = _line_start(text, line_start - 1 - (text[line_start - 2 : line_start] == "\r\n"))
        return before >= 0 and _is_title(text[before:line_start].rstrip("\r\n"))
    return _is_title(content) and _underline_after(text, last)


_UNDERLINE_TEXT = r" {0,3}(?:=+|-+)[ \t]*"
_UNDERLINE = re.compile(_UNDERLINE_TEXT)
"""A setext heading's underline (CommonMark), as a whole line."""
_UNDERLINE_LINE = re.compile(rf"[\r\n]{_UNDERLINE_TEXT}(?:[\r\n]|\Z)")
"""An underline on a line of its own, where :func:`looks_like_heading` looks first."""
_LINES = re.compile(r"\r\n|[\r\n]")
_NOT_A_TITLE = re.compile(r"[ \t]*(?:[#>|]|[-+*][ \t]|\d{1,9}[.)][ \t]|$)")
"""The start of a line that is no setext heading's text (an ATX heading, a quote, a table
row, a list item, a blank line)."""


_FENCE_LINE = re.compile(r"[ \t>\r\n]*(?P<fence>`{3,}|~{3,})(?P<info>[^\r\n]*)")
"""A fence line of a code block, in a quote or list item or not (CommonMark), after the
quote's blank lines that go with it."""


def fence_line(text: str, start: int, end: int) -> tuple[str, str] | None:
    """The fence (```` ``` ````, ``~~~~``) and info string (``"bash"``, or ``""``) of the fence
    line that ``text[start:end]`` is (blank lines and a quote's markers around it aside),
    ``None`` when it is no whole fence line: a fence is what a reader expects to stay with
    the code next to it, never to stand alone. A fence line with an info string can only
    open a block; one closes a block opened by a fence of its character, as long or
    shorter."""
    if end - start > HEADING_MOST_CHARS:
        return None
    piece = text[start:end]
    content = piece.strip(_BLANK)
    found = _FENCE_LINE.fullmatch(content)
    if found is None:
        return None
    first = end - len(piece.lstrip(_BLANK))
    line_start = _line_start(text, first)
    if line_start < 0 or text[line_start:first].strip(" \t>"):
        return None  # not at a line start (after a quote's markers and an indent)
    if not _rest_of_line_blank(text, first + len(content)):
        return None  # a part of a line
    fence, info = found["fence"], found["info"].strip(" \t")
    return None if fence[0] == "`" and "`" in info else (fence, info)


def holds_blank_line(text: str, start: int, end: int) -> bool:
    """Whether a paragraph separator (a blank line) lies in ``text[start:end]``."""
    return _SEPARATOR_ANY.search(text, start, end) is not None


def next_line(text: str, end: int, start: int) -> bool:
    """Whether ``start`` is on the line right after the one ``end`` is on: one line ending
    between them, and only spaces, tabs and a quote's markers besides."""
    gap = text[end:start]
    endings = gap.count("\n") + gap.count("\r") - gap.count("\r\n")
    return endings == 1 and not gap.strip(" \t>\r\n")


def _may_start_line(text: str, position: int, indent: int) -> bool:
    """A quick test: ``False`` where ``position`` holds a character that is not blank and
    more than ``indent`` spaces and tabs, or anything but them, lie between it and the
    line ending (or the text's start) before it: a word inside a line, which starts no
    heading or title."""
    if text[position : position + 1] in ("", " ", "\t", "\r", "\n"):
        return True  # (blank lines may come first: the full test reads past them)
    head = text[max(0, position - indent - 1) : position]
    body = head.rstrip(" \t")
    if body:
        return body[-1] in "\r\n"
    return len(head) <= indent or len(head) == position  # (or back to the text's start)


def _line_start(text: str, position: int) -> int:
    """Where the line holding ``position`` starts, looking back at most a heading's length
    (-1 where it starts further back)."""
    low = max(0, position - HEADING_MOST_CHARS - 8)
    found = max(text.rfind("\n", low, position), text.rfind("\r", low, position)) + 1
    return found if found > 0 or low == 0 else -1


def _rest_of_line_blank(text: str, position: int) -> bool:
    """Whether only spaces and tabs follow ``position`` up to its line's end."""
    after = text[position : position + 8].lstrip(" \t")
    return (not after and position + 8 >= len(text)) or after[:1] in ("\n", "\r")


def _is_title(line: str) -> bool:
    """Whether ``line`` may be a setext heading's text (indented at most three spaces)."""
    indent = len(line) - len(line.lstrip(" "))
    return (
        indent <= 3
        and len(line) <= HEADING_MOST_CHARS
        and _NOT_A_TITLE.match(line) is None
        and _UNDERLINE.fullmatch(line) is None
    )


_TITLE_NOT_ENDING = frozenset(
    ".!?,;:\u2026\"'\u201d\u2019)\u3002\uff01\uff1f\uff0c\uff1b\uff1a\u3001\u300d\u300f"
)
"""What a title does not end with: the punctuation that ends a sentence or a clause."""
_MARKUP = re.compile(r"[\[\]{}<>`|*_=/\\@#$%^&~]")
"""What a title does not hold: markup and code (``[link]: url``, ``r[rule.id]``, ``{x}``)."""
_BLANK_LINE_BEFORE = re.compile(r"(?:\r\n|\r(?!\n)|\n)[ \t]*(?:\r\n|\r(?!\n)|\n)[ \t]*\Z")
"""Two line endings (a CRLF pair is one, never a CR and an LF) and blank space: a blank line
ends right before."""
TITLE_MOST_CHARS = 100
"""The longest title in code points: a longer line is a paragraph's, whatever it ends with."""


def looks_like_title(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (blank lines around it aside) is a plain-text title: one
    line of at most :data:`TITLE_MOST_CHARS` standing as a paragraph of its own before more
    text, with a letter or digit, no markup or code and no sentence or clause punctuation
    at its end ("第五章　离开", "Chapter Five"): what a reader expects to lead the text
    after it, not to end a chunk."""
    if end - start > TITLE_MOST_CHARS or not _may_start_line(text, start, 15):
        return False
    line = text[start:end].rstrip(_BLANK).lstrip("\r\n")
    if not line or line[-1] in _TITLE_NOT_ENDING or _LINES.search(line) is not None:
        return False
    if not _is_title(line) or _MARKUP.search(line) or not any(c.isalnum() for c in line):
        return False
    low = max(0, start - 16)
    first = not text[low:start].strip(_BLANK) and low == 0
    if not first and _BLANK_LINE_BEFORE.search(text, low, start) is None:
        return False
    after = _SEPARATOR_ANY.match(text, end)
    return after is not None and after.end() < len(text)  # (text follows it, to lead)


def may_lead(last: str, *, titles: bool = True) -> bool:
    """A quick test before :func:`looks_like_lead`: whether a piece that ends with the
    character ``last`` may be a lead-in (a colon) or, with ``titles``, a title (no sentence
    punctuation)."""
    return last in LEAD_IN_ENDS or (titles and last not in _TITLE_NOT_ENDING)


def looks_like_lead(text: str, start: int, end: int, *, titles: bool = True) -> bool:
    """Whether ``text[start:end]`` leads the block after it: a lead-in
    (:func:`looks_like_lead_in`) or, with ``titles`` (prose, not code), a title
    (:func:`looks_like_title`)."""
    if looks_like_lead_in(text, start, end):
        return True
    return titles and looks_like_title(text, start, end)


def _underline_after(text: str, position: int) -> bool:
    """Whether the line after the one that ``position`` ends (blanks aside) is a setext
    underline."""
    ending = _LINES.search(text, position, position + 16)
    if ending is None:
        return False
    next_end = _LINES.search(text, ending.end(), ending.end() + HEADING_MOST_CHARS)
    stop = next_end.start() if next_end else min(len(text), ending.end() + HEADING_MOST_CHARS)
    return _UNDERLINE.fullmatch(text, ending.end(), stop) is not None


_UNDERLINE_AFTER_LINE_FEED = re.compile(rf"\n{_UNDERLINE_TEXT}(?:[\r\n]|\Z)")
""":data:`_UNDERLINE_LINE` after a line feed: a literal first, searched faster."""


def may_hold_headings(text: str) -> bool:
    """Whether ``text`` has a ``#`` or a setext underline line: else no piece of it is a
    heading (a search at C speed, about a millisecond a megabyte of prose)."""
    if "#" in text or _UNDERLINE_AFTER_LINE_FEED.search(text):
        return True
    return "\r" in text and _UNDERLINE_LINE.search(text) is not None


def heading_hint(text: str, line_start: int, end: int) -> bool:
    """A quick test before :func:`looks_like_heading`: whether the line from
    ``line_start`` to ``end`` may end a heading (it starts with ``#``, ``=`` or ``-``, or
    the line after it is a setext underline)."""
    return text[line_start : line_start + 4].lstrip(" ")[:1] in ("#", "=", "-") or (
        _underline_after(text, end)
    )


LEAD_IN_MOST_CHARS = 400
"""The longest text :func:`looks_like_lead_in` reads as a lead-in."""
LEAD_IN_ENDS = ":\uff1a"
"""What a lead-in ends with: a colon (a fullwidth one in CJK)."""
_SENTENCE_BEFORE = frozenset("\r\n.!?\"')\u201d\u2019\u3002\uff01\uff1f\u300d\u300f")
"""What may come right before a sentence (spaces aside): a line ending, a terminator or a
closing mark after one."""


def looks_like_lead_in(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (blank lines around it aside) is a sentence or more that
    ends with a colon, as one that introduces the block after it does ("Check that it
    runs:" before a command): what a reader expects to lead that block, not to end a
    chunk. At most :data:`LEAD_IN_MOST_CHARS`, one paragraph, starting at a line's start or
    after a sentence's end (not the last words of a sentence cut short)."""
    if end - start > LEAD_IN_MOST_CHARS:
        return False
    piece = text[start:end].rstrip(_BLANK)
    if not piece or piece[-1] not in LEAD_IN_ENDS or _SEPARATOR_ANY.search(piece) is not None:
        return False
    before = text[max(0, start - 8) : start].rstrip(" \t")
    return not before or before[-1] in _SENTENCE_BEFORE


def code_indentation_start(text: str, start: int, end: int, fenced: bool) -> int:
    """Where a trimmed chunk ``text[start:end]`` starts with the indentation of its first
    line: at that line's start where only spaces and tabs lie before ``start`` on it and
    the line is code: ``fenced`` (inside a fenced code block), else not a line of prose
    (:func:`_reads_as_prose`) nor a list item, a Markdown quotation or heading (indented
    less than four columns), in a paragraph that is no list item, whose lines (from its
    start or the last line above at the first column, at most :data:`_CODE_CONTEXT_LINES`
    above) up to the chunk's first blank line, without the indentation they share (a
    letter quoted in a novel is indented too), read as code (:func:`looks_like_code`) and
    hold a line indented further; else at ``start``. An indentation is part of a line of
    code (Python's blocks, YAML's nesting): a chunk cut inside code keeps it, as its other
    lines keep theirs."""
    line = indentation_start(text, start)
    if line == start:
        return start
    if fenced:
        return line
    first_end = _LINES.search(text, start, end)
    first = text[start : end if first_end is None else first_end.start()].rstrip(" \t")
    if _reads_as_prose(first) or _markdown_structure(text[line:start], first):
        return start  # (most prose: one line read)
    lines = _lines_above(text, line)
    if lines and _LIST_MARKER.match(lines[0].lstrip(" \t")):
        return start  # the continuation of a list item
    blank = _SEPARATOR_ANY.search(text, start, end)
    lines += _LINE_SPLIT.split(text[line : end if blank is None else blank.start()])
    shared = min(len(each) - len(each.lstrip(" \t")) for each in lines if each.strip())
    lines = [each[shared:] for each in lines]
    dedented = "\n".join(lines)
    nested = any(_line_kind(each) in (None, _CODE) for each in lines)
    return line if nested and looks_like_code(dedented, 0, len(dedented)) else start


def indentation_start(text: str, start: int, low: int = 0) -> int:
    """The start of the line on which only spaces and tabs (its indentation) lie before
    ``start``, at or after ``low``; ``start`` where other text lies before it there (a
    byte order mark that starts the text is none)."""
    line = start
    while line > low and text[line - 1] in " \t":
        line -= 1
    if line == start or line == 0 or text[line - 1] in "\r\n":
        return line
    return line if line == 1 and text[0] == "\ufeff" else start


def _lines_above(text: str, line: int) -> list[str]:
    """The lines above the one starting at ``line``, up to a blank line or one at the first
    column (a window of code starts at one), at most :data:`_CODE_CONTEXT_LINES`, in order."""
    lines: list[str] = []
    while line > 0 and len(lines) < _CODE_CONTEXT_LINES:
        end = line - 2 if text[line - 2 : line] == "\r\n" else line - 1
        low = max(0, end - _CODE_CONTEXT - 1)
        found = max(text.rfind("\n", low, end), text.rfind("\r", low, end))
        if found < 0 and low > 0:
            break  # (a line longer than that)
        line = found + 1
        each = text[line:end]
        if not each.strip():
            break
        lines.append(each)
        if each[:1] not in (" ", "\t"):
            break
    return lines[::-1]


def _markdown_structure(indentation: str, first: str) -> bool:
    """Whether a line with ``indentation`` whose text is ``first`` is a list item, or a
    quotation or an ATX heading (indented less than four columns, as CommonMark has them;
    a doctest prompt is none)."""
    if _LIST_MARKER.match(first):
        return True
    shallow = len(indentation.expandtabs(4)) < 4
    return shallow and (
        (first.startswith(">") and not first.startswith(">>>"))
        or _HEADING_MARKER.match(first) is not None
    )


_CODE_CONTEXT_LINES = 8
"""Lines above a chunk's first line read for the paragraph it lies in."""

_CODE_CONTEXT = 1024
"""Code points a line above may span, at most."""

_LIST_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
"""A Markdown list item's marker."""

_HEADING_MARKER = re.compile(r"#{1,6}(?:[ \t]|$)")
"""A Markdown ATX heading's marker."""


def ends_with_heading(text: str, start: int, end: int) -> bool:
    """Whether the last line of ``text[start:end]`` is a heading (:func:`looks_like_heading`)."""
    line = _line_start(text, end)
    return line >= 0 and looks_like_heading(text, max(line, start), end)


def starts_with_heading(text: str, start: int, end: int) -> bool:
    """Whether the first line of ``text[start:end]`` is a heading (:func:`looks_like_heading`):
    a section starts there."""
    found = _LINES.search(text, start, min(end, start + HEADING_MOST_CHARS + 1))
    stop = found.start() if found else min(end, start + HEADING_MOST_CHARS + 1)
    return heading_hint(text, start, stop) and looks_like_heading(text, start, stop)


def ends_with_lead(
    text: str,
    start: int,
    end: int,
    *,
    titles: bool = True,
    leads: Callable[[str, int, int], bool] | None = None,
) -> bool:
    """Whether the last line of ``text[start:end]`` (trailing whitespace aside) is a heading,
    leads the block after it (:func:`looks_like_lead`) or is one that ``leads`` tells (a
    comment above code): no chunk should end with it."""
    end = start + len(text[start:end].rstrip(_BLANK))
    line = max(start, text.rfind("\n", start, end) + 1, text.rfind("\r", start, end) + 1)
    if line >= end:
        return False
    if looks_like_heading(text, line, end) or looks_like_lead(text, line, end, titles=titles):
        return True
    return leads is not None and leads(text, line, end)


def inside_heading(text: str, position: int) -> bool:
    """Whether ``position`` lies inside a heading line (:func:`looks_like_heading`), after
    its first character: no overlap starts there (a chunk opening mid-heading)."""
    start = _line_start(text, position)
    lead = text[start:position].lstrip(" ")[:1] if start >= 0 else ""
    if not lead:
        return False  # a long line, or the line's start
    if lead not in ("#", "=", "-"):  # a setext heading's text line at most: is one under it?
        feed = text.find("\n", position, position + HEADING_MOST_CHARS + 1)
        lone_cr = feed >= 0 and 0 <= text.find("\r", position, feed) < feed - 1
        if feed >= 0 and not lone_cr and text[feed + 1 : feed + 5].lstrip(" ")[:1] not in "=-":
            return False
    found = _LINES.search(text, position, position + HEADING_MOST_CHARS + 1)
    stop = found.start() if found else min(len(text), position + HEADING_MOST_CHARS + 1)
    return heading_hint(text, start, stop) and looks_like_heading(text, start, stop)


def looks_like_code(text: str, start: int, end: int) -> bool:
    """Whether the lines of ``text[start:end]`` read as code: a doctest prompt (indented
    too) or a fence on any line, or at least half of the lines indented or ending like
    code (a line of prose that ends with a comma does not). The lines are read a block at
    a time, not held all at once."""
    if not _CODE_HINT.search(text, start, end):
        return False
    count = code = ending = 0  # lines; code lines; lines that end like code (code unless prose)
    for lines in _line_blocks(text, start, end):
        count += len(lines)
        for line in lines:
            kind = _line_kind(line)
            if kind is None:
                return True
            if kind == _CODE:
                code += 1
            elif kind:
                ending += 1
    need = (count + 1) // 2 - code  # code lines still wanted: at least half
    if need <= 0:
        return True
    if ending < need:
        return False  # most prose: too few lines end like code to read them
    for lines in _line_blocks(text, start, end):
        for line in lines:
            kind = _line_kind(line)
            if not kind or kind == _CODE:
                continue
            need -= not _reads_as_prose(line.strip())
            ending -= 1
            if need <= 0:
                return True
            if ending < need:
                return False
    return False


def _line_kind(line: str) -> int | None:
    """:func:`_code_line_kind` of ``line`` (0 at a glance for most lines of prose), and
    ``None`` for a doctest prompt (or a line of a shell session)."""
    if line[:1] not in _MAYBE_CODE_FIRST and line[-1:] not in _MAYBE_CODE_LAST:
        return 0
    if line.startswith(_SESSION) or line.lstrip(" \t").startswith(">>> "):
        return None
    return _code_line_kind(line)


_LINE_BLOCK = 1 << 16
"""Code points of lines :func:`looks_like_code` splits at once, about."""


def _line_blocks(text: str, start: int, end: int) -> Iterator[list[str]]:
    """The lines of ``text[start:end]`` (without their line endings), a block of about
    :data:`_LINE_BLOCK` code points at a time; as ``split`` gives them for the whole."""
    at = start
    while at < end:
        stop = min(end, at + _LINE_BLOCK)
        if stop < end:
            found = _LINE_STARTS.search(text, stop, end)
            stop = end if found is None else found.start()
        region = text[at:stop]
        lines = _LINE_SPLIT.split(region) if "\r" in region else region.split("\n")
        if stop < end:
            lines.pop()  # (the empty line after the block's last line ending)
        yield lines
        at = stop


class _CodeLines:
    """The lines of ``text[start:end]`` (each with its line ending) if the region reads as
    code (:func:`looks_like_code`), else the whole region: code is cut at line ends, prose
    is left to the sentence level."""

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        if not looks_like_code(text, start, end):
            return [(start, end)]
        cuts = [m.start() for m in _LINE_STARTS.finditer(text, start, end)]
        return list(pairwise([start, *(c for c in cuts if start < c < end), end]))

    def local_for(self, text: str, start: int, end: int) -> Level:
        """The lines as a level that finds them in any part of the region, where the region
        reads as code: packing reads a long one a window at a time (see
        :mod:`spansplit.packing.windows`), not holding all its lines at once (a paragraph
        of 250,000 heading lines took 20 times the text as a list of spans). Where it reads
        as prose, the region whole, as this level gives it, without reading it again."""
        if not looks_like_code(text, start, end):
            return _whole_region
        from .separators import LINE_LEVEL

        return LINE_LEVEL


def _whole_region(text: str, start: int, end: int) -> list[Span]:
    """The region as one piece."""
    return [(start, end)]


code_line_spans = _CodeLines()


def code_line_starts(text: str, low: int, end: int) -> list[int]:
    """Line starts in ``[low, end)`` where the lines of the paragraph around them read as
    code: where overlap of code starts at a line. Each paragraph is read on its own (the
    prose before a fenced block is not code because of the fence), and in whole lines: a
    line cut at ``end`` (it may end like code) is left out of the reading."""
    reach = max(0, low - 1024)  # a line start not far back (a longer line: from low)
    first = max(text.rfind("\n", reach, low), text.rfind("\r", reach, low)) + 1 or low
    stop = end
    if text[end : end + 1] not in ("", "\n", "\r"):
        stop = max(text.rfind("\n", first, end), text.rfind("\r", first, end)) + 1
    return [
        start
        for paragraph in paragraph_spans(text, first, stop)
        for start, _ in code_line_spans(text, *paragraph)[1:]
        if start >= low
    ]
