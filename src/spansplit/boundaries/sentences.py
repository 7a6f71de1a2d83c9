"""Sentences: the UAX #29 default sentence boundaries, with small tailorings for chunking.

The rules SB1-SB11 and SB998 of Unicode Standard Annex #29 (SB5's skipping of Extend and
Format characters included) are written once, as a pattern template over the
Sentence_Break classes, that matches one whole sentence from a sentence start; ``finditer``
returns the sentences back to back, so the work runs in C and Python only collects their
ends. A sentence keeps what UAX #29 gives it: closing punctuation, trailing spaces and
one paragraph separator (LF, CR, CRLF, NEL, U+2028, U+2029; rule SB4 makes every line
ending a paragraph separator).

The template is compiled from the ``regex`` module's Unicode data:

* with ``\\p{Sentence_Break=...}`` classes for the ``regex`` module (exact for all text);
* with the same classes spelled out as code point ranges of the Basic Multilingual Plane,
  for the standard ``re`` module, several times faster. Lines holding a character beyond
  U+FFFF (emoji, rare ideographs) go through the first pattern, the rest through the
  second; a line ending always ends a sentence, so the two never disagree at a seam;
* for lines beyond the BMP longer than :data:`LONG_ASTRAL_LINE`, with the ranges of
  every plane for ``re``: on Python 3.11 and later its loop keeps no state per step, so
  a long sentence takes no memory for its length (the ``regex`` module keeps tens of
  bytes per step).

Tailorings, all on by default; ``abbreviations=(), openers=False, lowercase_continues=False,
list_items=False`` gives plain UAX #29:

* **Abbreviations.** A full stop that ends a listed abbreviation and is followed by spaces
  and more text on the same line does not end the sentence, so "Mr. Smith" stays whole.
  An entry matches case-sensitively and only as a whole word (not preceded by a letter,
  a digit or a full stop). :data:`DEFAULT_ABBREVIATIONS` lists titles and Latin or
  editorial short forms that hardly ever end an English sentence before a capitalised
  word. "etc.", "Jr.", "No." and single initials are left out on purpose: in real prose
  they mostly do end one ("..., etc. Mrs. Bennet was ...", "said I. The"); "No." and a
  month's abbreviation end none before a number ("No. 4", "Dec. 25"). Before a
  lower-case word UAX #29 already keeps the sentence whole ("e.g. this", "etc. and").
* **Openers.** An opening bracket or quote (general category Ps or Pi) glued to the text
  after a terminator starts the next sentence instead of ending the previous one:
  "你好。「她说" breaks before 「, where UAX #29 counts 「 as closing punctuation and keeps
  it with 你好。. A quote followed by a space keeps the UAX #29 behaviour, so the German
  closing “ in "„Hallo.“ Dann" stays with its sentence. Bidirectional controls after a
  sentence's spaces (a right-to-left mark, an isolate's start) start the next sentence
  too, where UAX #29 (SB5) keeps them with those spaces.
* **Lower case goes on.** A "!" or "?" (Sentence_Break STerm) followed, after closing
  punctuation and spaces, by a lower-case letter does not end the sentence, as SB8 already
  rules for a full stop: "“Where?” he asked." and "Alas! never more." are one sentence
  each. UAX #29 breaks there, cutting dialogue in two. A paragraph separator still ends
  the sentence (SB4), and scripts without case are unaffected. With it go two rules for
  quotations: in Japanese, a quotation followed by a quotative particle (と, って, など,
  なんて) goes on ("「本当ですか？」と聞いた。" is one sentence); a closing quotation mark
  set after a space, as in French ("« Tu viens ? » Il"), ends the sentence it closes
  instead of starting the next.
* **List items.** The full stop of a numbered item's marker at a line start ("2. ", "b. ")
  ends no sentence, where UAX #29 ends one before a capital ("\n2. Run": the number went
  with the item before it); with ``wrapped=True``, a line that opens a list item ("- ",
  "2. ", "b) ") or a line of dialogue ("—¿Vas?", "— Non.") starts a sentence, its line
  ending not read as a space. A number, a letter or a dash opens one only at a
  paragraph's start or after a line that ends a sentence or a clause or opens one: a
  hard-wrapped "exactly\n500. Then" goes on.

Full-width terminators (。！？．｡) and the closing brackets after them (」』）》) are
UAX #29 terminators and closers already, so Chinese and Japanese sentences end there with
no following space.

Hard-wrapped text (a book with a line ending every 70 characters) gets a sentence per
line under SB4. ``wrapped=True`` reads a line ending between two non-blank lines as a
space, so sentences run across lines; blank lines (only spaces and tabs, as CommonMark
says), NEL, U+2028 and U+2029 still end them. It suits prose, not Markdown structure,
so it is off by default.

One addition is always on, as no chunk may split a grapheme cluster: a boundary that
SB11 would put inside one (after a Prepend character such as U+0600, before a mark that
joins the character before it such as an emoji skin tone, between a ZWJ and a pictograph)
is not made. Unicode's SentenceBreakTest.txt has no such case, and all its 512 cases pass
with ``abbreviations=(), lowercase_continues=False``, with or without openers (with lower
case going on, the two cases "!a" and "!\u0308a" differ).
"""

from __future__ import annotations

import re
import sys
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

import regex

from ..chunk import JOINING_MARKS, Span
from ..errors import InputTypeError, InvalidParameterError, ParameterTypeError
from ..lines import offset_typecode
from ..validate import check_bool, check_int
from .paragraphs import SEPARATOR, paragraph_spans

DEFAULT_ABBREVIATIONS: frozenset[str] = frozenset(
    {
        # Titles before a name.
        "Mr.", "Mrs.", "Ms.", "Mx.", "Messrs.", "Mmes.", "Dr.", "Prof.", "St.", "Mt.",
        "Rev.", "Fr.", "Hon.", "Gov.", "Sen.", "Rep.", "Pres.", "Gen.", "Col.", "Maj.",
        "Capt.", "Cmdr.", "Lt.", "Sgt.", "Cpl.", "Adm.", "Mme.", "Mlle.", "Mons.",
        # Latin and editorial short forms that introduce more of the same sentence.
        "e.g.", "i.e.", "cf.", "viz.", "vs.", "approx.", "ca.", "Fig.", "Figs.", "Eq.",
        "Eqs.", "Ref.", "Refs.", "Vol.", "Ch.", "Sec.", "pp.",
    }
)  # fmt: skip
"""Abbreviations whose full stop does not end a sentence (see the module docstring)."""

_BEFORE_NUMBERS = (
    "No", "Nr", "Nos",
    "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
)  # fmt: skip
"""Abbreviations (with ``abbreviations`` on) whose full stop ends no sentence before a
number: a number sign's ("No. 4") and a month's ("Dec. 25")."""

# The classes the template uses, as members of a ``regex`` character set.
_PROPERTIES: dict[str, str] = {
    "T": r"\p{SB=ATerm}\p{SB=STerm}",
    "ATERM": r"\p{SB=ATerm}",
    "STERM": r"\p{SB=STerm}",
    "P": r"\r\n\p{SB=Sep}",
    "EF": r"\p{SB=Extend}\p{SB=Format}",
    "CLOSE": r"\p{SB=Close}",
    "SP": r"\p{SB=Sp}",
    "UL": r"\p{SB=Upper}\p{SB=Lower}",
    "UPPER": r"\p{SB=Upper}",
    "LOWER": r"\p{SB=Lower}",
    "NUMERIC": r"\p{SB=Numeric}",
    "SCONT": r"\p{SB=SContinue}",
    "LETTER": r"\p{SB=OLetter}\p{SB=Upper}\p{SB=Lower}",
    "OPEN": r"\p{Ps}\p{Pi}",
    "WORD": r"\p{L}\p{N}",  # letters and digits: "_Mr. Darcy_" (emphasis) still matches
    "PREPEND": r"\p{GCB=Prepend}",
    "JOINS_BACK": JOINING_MARKS,
    "PICTOGRAPHIC": r"\p{ExtPict}",
    # Every class but the terminators, separators, Extend and Format, commonest first:
    # the regex module tries a set's members in order, so this beats a negated set.
    "PLAIN": r"\p{SB=Lower}\p{SB=Sp}\p{SB=OLetter}\p{SB=Other}\p{SB=Upper}\p{SB=Close}"
    r"\p{SB=Numeric}\p{SB=SContinue}",
}

POSSESSIVE_LOOP = sys.version_info >= (3, 11)
"""Whether the ``re`` pattern may use a possessive group (Python 3.11 added them)."""

LONG_ASTRAL_LINE = 1 << 14
"""Lines with a character beyond the BMP at least this long go to the ``re`` pattern for
all planes, whose memory does not grow with the length of a sentence."""

_ASTRAL = regex.compile("[\U00010000-\U0010ffff]")
_LINE_END = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_SEPARATORS = ("\n", "\r", "\x85", "\u2028", "\u2029")
_LINE_ENDINGS = "".join(_SEPARATORS)
_MATCH_END = re.Match.end
_DIALOGUE_DASHES = "\u2014\u2013\u2015"
"""The dashes that open dialogue (Spanish, French, Russian ...): ``—¿Vas?``."""
_SPOKEN_OPENERS = "¿¡«\"“‘'„»"
"""What dialogue may open with after its dash, besides a capital letter."""


def _template(
    c: Mapping[str, str],
    abbreviations: frozenset[str],
    openers: bool,
    lowercase_continues: bool,
    quick: bool,
    possessive: bool = False,
) -> str:
    """The pattern of one sentence, starting at a sentence start, over the classes ``c``.

    Written for both engines: no possessive quantifiers (but one with ``possessive``, for
    ``re`` on Python 3.11 and later), fixed-width lookbehind only, and
    every greedy run followed by a guard so that backtracking cannot stop it early.
    ``quick`` adds shortcuts for the commonest endings (they need the class CLOSE_NO_OPEN,
    closing punctuation that is not an opener); the result is the same without them.
    """
    t, p, ef, close, sp = c["T"], c["P"], c["EF"], c["CLOSE"], c["SP"]
    plain = f"[{c['PLAIN']}]*"  # characters that can never end a sentence
    parasep = rf"(?:\r\n|[{p}])"
    # Checks right after a full stop (ATerm): each one names a rule that keeps going.
    sb7 = f"(?!(?<=[{c['UL']}][\\s\\S])[{ef}]*[{c['UPPER']}])"  # "U.S"
    sb6 = f"(?![{ef}]*[{c['NUMERIC']}])"  # "3.14"
    abbreviation = ""
    if abbreviations:
        by_length: dict[int, list[str]] = {}
        for entry in sorted(abbreviations):
            by_length.setdefault(len(entry), []).append(re.escape(entry))
        ends_word = "|".join(
            f"(?<=(?<![{c['WORD']}])(?<!\\.)(?:{'|'.join(group)}))"
            for _, group in sorted(by_length.items())
        )
        abbreviation = f"(?!(?:{ends_word})[{ef}]*(?:[{sp}][{ef}]*)+[^{sp}{ef}{p}])"  # "Mr. S"
        # A number sign's or a month's abbreviation before a number: "at No. 4 Privet
        # Drive", "on Dec. 25".
        numbered = "|".join(f"(?<=(?<![{c['WORD']}]){sign}\\.)" for sign in _BEFORE_NUMBERS)
        abbreviation += f"(?!(?:{numbered})[{ef}]*(?:[{sp}][{ef}]*)+[0-9])"
    if openers:
        glued_opener = f"(?=[{c['OPEN']}][{close}{ef}]*(?![{close}{ef}])[^{sp}{p}{c['SCONT']}{t}])"
        run = f"[{close}{ef}]*?(?:{glued_opener}|(?![{close}{ef}])[{sp}{ef}]*(?![{sp}{ef}]))"
    else:
        run = f"[{close}{ef}]*(?![{close}{ef}])[{sp}{ef}]*(?![{sp}{ef}])"
    sb8 = f"(?![^{c['LETTER']}{t}{p}]*[{c['LOWER']}])"  # "etc.) the"
    # The same rule after "!" and "?" (a tailoring): "“Where?” he asked".
    sterm_sb8 = sb8 if lowercase_continues else ""
    sb8a = f"(?![{c['SCONT']}{t}])"  # "?!", "!,"
    if openers:
        # A tailoring: a dash that opens a line of dialogue right after a terminator and a
        # space or two does not go on the sentence (SContinue) but starts the next, which
        # ends on its line: "ella. —No —dijo él." (not an attribution after a quotation,
        # "…taken.” — Oscar Wilde", nor a signature, "the end. – The Editors").
        spoken = f"{c['UPPER']}{re.escape(_SPOKEN_OPENERS)}"
        after_terminator = f"(?:(?<=[{t}][{sp}])|(?<=[{t}][{sp}][{sp}]))"
        dialogue = f"{after_terminator}[{_DIALOGUE_DASHES}][ \u00a0]*[{spoken}][^{p}]*?[{t}]"
        sb8a = f"(?!(?!{dialogue})[{c['SCONT']}{t}])"
    # Never end inside a grapheme cluster: not after a Prepend character, not before a
    # mark that joins the character before it, not inside an emoji ZWJ sequence.
    cluster_safe = (
        f"(?<![{c['PREPEND']}])(?![{c['JOINS_BACK']}])(?!(?<=\u200d)[{c['PICTOGRAPHIC']}])"
    )
    # SB8 applies to the runs after an ATerm only (and after an STerm, tailored). No
    # groups: ``ends`` also serves as a look-ahead below.
    then = f"{sb8a}(?:{parasep}|{cluster_safe})"
    ends = (
        f"[{c['ATERM']}]{sb7}{sb6}{abbreviation}{run}{sb8}{then}"
        f"|[{c['STERM']}]{run}{sterm_sb8}{then}"
        f"|{parasep}|\\Z"
    )
    # A terminator run that did not end the sentence, or Extend/Format characters (SB5;
    # the second form is SB7 with marks between the letter and the full stop).
    goes_on = (
        f"[{t}][{close}{ef}]*[{sp}{ef}]*"
        f"|(?<=[{c['UL']}])[{ef}]+[{c['ATERM']}][{ef}]*(?=[{c['UPPER']}])"
        f"|[{ef}]+"
    )
    step = f"(?:{goes_on}){plain}"
    if possessive:
        # The same match as the lazy loop below (at each step ``ends`` is tried first, and
        # a step never has to be undone, since one always matches where ``ends`` does not),
        # without the state the lazy loop keeps for every step: 60 bytes a step, for a
        # sentence of a megabyte of marks. ``ends`` can only match at a terminator, a
        # separator or the end, so it is tried only there.
        general = f"(?:(?:(?=[^{t}{p}])|(?!{ends})){step})*+(?:{ends})"
    else:
        general = f"(?:{step})*?(?:{ends})"
    if not quick:
        return f"{plain}{general}"
    no_open = c["CLOSE_NO_OPEN"]
    shortcuts = [
        "\\r\\n",  # line ends: the commonest ending of all in hard-wrapped text
        f"[{p}]",
        f"[{c['STERM']}][{no_open}]*[{sp}]*"  # "。」他"
        f"(?=[^{close}{sp}{ef}{c['SCONT']}{t}{p}{c['JOINS_BACK']}]){sterm_sb8}",
        f"[{c['ATERM']}](?:[{no_open}]+|{abbreviation})[{sp}]+(?=[{c['UPPER']}])",  # ". The"
        f"[{t}][{close}{ef}]*[{sp}{ef}]*{parasep}",  # any terminator run, then a line end
    ]
    return f"{plain}(?:{'|'.join(shortcuts)}|{general})"


def _bmp() -> str:
    """Every code point of the Basic Multilingual Plane, in order, as one string."""
    # UTF-32 little-endian bytes built by slice assignment: fast, unlike chr() in a loop
    # (and unlike UTF-16, it cannot pair two surrogates into one character).
    buffer = bytearray(4 * 65536)
    buffer[0::4] = bytes(range(256)) * 256
    buffer[1::4] = b"".join(bytes([high]) * 256 for high in range(256))
    return bytes(buffer).decode("utf-32-le", "surrogatepass")


@lru_cache(maxsize=1)
def _bmp_text() -> str:
    """:func:`_bmp`, made once."""
    return _bmp()


@lru_cache(maxsize=1)
def _astral_text() -> str:
    """Every code point beyond the BMP, in order, as one string (made once)."""
    return array("I", range(0x10000, 0x110000)).tobytes().decode("utf-32-le")


def bmp_ranges(members: str) -> str:
    """The code points of the BMP in the ``regex`` character-set members ``members``
    (``\\p{...}`` classes, V1 set operations), as ranges for a standard ``re`` set;
    surrogates are left out."""
    return _ranges(members, _bmp_text(), 0)


def astral_ranges(members: str) -> str:
    """:func:`bmp_ranges` for the code points beyond the BMP."""
    return _ranges(members, _astral_text(), 0x10000)


def _ranges(members: str, text: str, base: int) -> str:
    """The code points of ``text`` (consecutive, from ``base``) in ``members``, as ranges."""
    ranges = []
    for match in regex.finditer(f"[{members}]++", text, flags=regex.V1):
        first, last = match.start() + base, match.end() - 1 + base
        if first >= 0xD800 and last <= 0xDFFF:
            continue  # surrogates stay out of every class: they count as plain text
        ranges.append(
            re.escape(chr(first))
            if first == last
            else f"{re.escape(chr(first))}-{re.escape(chr(last))}"
        )
    return "".join(ranges)


@lru_cache(maxsize=2)
def _re_classes(astral: bool) -> dict[str, str]:
    """The template's classes as explicit ranges of the BMP (with ``astral``, of every
    plane), read from ``regex``'s data."""
    # re's own letters and digits need no table; PLAIN is the negation of three classes.
    classes = {"WORD": r"^\W_", "PLAIN": ""}
    wanted = {**_PROPERTIES, "CLOSE_NO_OPEN": r"[\p{SB=Close}--[\p{Ps}\p{Pi}]]"}
    for name, members in wanted.items():
        if name not in classes:
            classes[name] = bmp_ranges(members)
            if astral:
                classes[name] += astral_ranges(members)
    classes["PLAIN"] = f"^{classes['T']}{classes['P']}{classes['EF']}"
    return classes


@lru_cache(maxsize=16)
def fast_pattern(
    abbreviations: frozenset[str], openers: bool, lowercase_continues: bool, astral: bool = False
) -> re.Pattern[str]:
    """The ``re`` pattern, with shortcuts, for text without characters beyond the BMP;
    with ``astral``, for any text (its classes take a tenth of a second to read, so it
    is made when such text turns up)."""
    classes = _re_classes(astral)
    return re.compile(
        _template(classes, abbreviations, openers, lowercase_continues, True, POSSESSIVE_LOOP)
    )


@lru_cache(maxsize=16)
def exact_pattern(
    abbreviations: frozenset[str], openers: bool, lowercase_continues: bool
) -> regex.Pattern[str]:
    """The ``regex`` pattern, for any text (compiled only when such text turns up)."""
    return regex.compile(
        _template(_PROPERTIES, abbreviations, openers, lowercase_continues, quick=False)
    )


def check_abbreviations(abbreviations: object) -> frozenset[str]:
    """Return ``abbreviations`` as a frozenset after checking each entry (a single string
    is refused, not read letter by letter)."""
    if isinstance(abbreviations, (str, bytes, bytearray)) or not isinstance(
        abbreviations, Iterable
    ):
        raise ParameterTypeError(
            "abbreviations must be a collection of strings such as {'Mr.', 'e.g.'}, "
            f"got {type(abbreviations).__name__}: {abbreviations!r}"
        )
    if abbreviations is DEFAULT_ABBREVIATIONS:
        return DEFAULT_ABBREVIATIONS
    entries = frozenset(abbreviations)
    for entry in entries:
        if not isinstance(entry, str):
            raise ParameterTypeError(
                f"abbreviations must hold strings, got {type(entry).__name__}: {entry!r}"
            )
        if not entry.endswith(".") or not entry.strip(".") or any(ch.isspace() for ch in entry):
            raise InvalidParameterError(
                "abbreviations",
                entry,
                "each entry must be a word ending with a full stop, with no spaces (e.g. 'Mr.')",
            )
    return entries


def check_region(text: object, start: object, end: object) -> int:
    """Return the end of the region ``text[start:end]`` after checking all three arguments.

    ``end=None`` means the end of the text; otherwise ``0 <= start <= end <= len(text)``.
    """
    if not isinstance(text, str):
        raise InputTypeError(f"text must be str, got {type(text).__name__}")
    size = len(text)
    first = check_int("start", start, 0)
    stop = size if end is None else check_int("end", end, 0)
    if first > size:
        raise InvalidParameterError("start", first, f"must be at most len(text)={size}")
    if not first <= stop <= size:
        raise InvalidParameterError("end", stop, f"must be between start={first} and {size}")
    return stop


def _line_start(text: str, low: int, index: int) -> int:
    """Start of the line holding ``index``, not before ``low`` (a line start itself)."""
    return max(low, *(text.rfind(sep, low, index) + 1 for sep in _SEPARATORS))


def _add_ends(
    pattern: re.Pattern[str] | regex.Pattern[str], text: str, start: int, stop: int, ends: list[int]
) -> None:
    """Append to ``ends`` the sentence ends that ``pattern`` finds in ``text[start:stop]``."""
    if isinstance(pattern, re.Pattern):
        found = list(map(_MATCH_END, pattern.finditer(text, start, stop)))
    else:
        found = [match.end() for match in pattern.finditer(text, start, stop)]
    found.pop()  # the empty match that the pattern makes at the end of the region
    ends += found


_INNER_LINE_END = re.compile(r"[^ \t\r\n][ \t]*(?:\r\n|\r|\n)[ \t]*[^ \t\r\n]")
"""A line ending between two lines that are not blank: one inside a paragraph."""


_BULLETS = "-*+\u2022\u2023\u25e6"
"""The marks that open a bulleted list item."""
_ITEM_LINE_BEFORE = frozenset(".:;!?)]}…»”。：；！？）」』")
"""What a line ends with before a numbered item's or a dialogue line (a sentence or a
clause ends)."""
_LIST_ITEM = (
    rf"[ \t]*(?:(?:[{re.escape(_BULLETS)}]|\d{{1,3}}[.)]|[A-Za-z][.)])[ \t]|[{_DIALOGUE_DASHES}])"
)
# After a line ending: a line feed found at C speed; the others where the text has them.
_LIST_ITEM_LINE = (re.compile(f"\n{_LIST_ITEM}"), re.compile(f"[{_LINE_ENDINGS}]{_LIST_ITEM}"))
"""A line ending, then a line that opens a list item (``- ``, ``2. ``, ``b) ``)."""
_LIST_ITEM_START = re.compile(_LIST_ITEM)
_NUMBERED_ITEM = re.compile(r"[ \t]*(?:\d{1,3}|[A-Za-z])\.[ \t]+(?=\S)")
"""A numbered item's marker (``2. ``), whose full stop ends no sentence."""


def _item_lines(text: str, start: int, stop: int) -> list[int]:
    """Where each line of ``text[start:stop]`` that opens a list item starts: a bullet
    (``- ``, ``* ``, ``•``), or a number or letter (``2. ``, ``b) ``) or a dialogue dash
    (``—``) that starts the text or a paragraph or follows a line that ends a sentence or
    a clause (``.``, ``:``, ``!``, ``?``, ``;``, a closing bracket or quotation mark) or
    opens an item itself. A hard-wrapped line that
    starts with a number or an initial ("exactly\n500. Then", "by\nA. Smith") goes on with
    the line before it. The lines before are read in the text, not the region alone, so
    a region gives the ends the whole text gives."""
    # (the region, not the whole text: a long text is read a region at a time)
    rare = any(text.find(ending, start, stop) >= 0 for ending in _LINE_ENDINGS[1:])
    lines = [item.start() + 1 for item in _LIST_ITEM_LINE[rare].finditer(text, start, stop)]
    if (start == 0 or text[start - 1] in _LINE_ENDINGS) and _LIST_ITEM_START.match(
        text, start, stop
    ):
        lines.insert(0, start)
    return [line for line in lines if _opens_item(text, line)]


_MUST_END = re.compile(f"(?P<separator>{SEPARATOR})|[{_LINE_ENDINGS}](?={_LIST_ITEM})")
"""A paragraph separator, or a line ending before a line that may open a list item."""


def _sentence_must_end(text: str, at: int) -> int:
    """The first place after ``at`` where a sentence ends whatever comes before it, where
    lines are unwrapped: after a paragraph separator (blank lines), or before a line that
    opens a list item (see :func:`_item_lines`: the line ending before it stays a line
    ending, after which UAX #29 always ends a sentence); the end of the text where
    neither follows. Found in one scan, so a long list with no blank line is read a few
    items at a time."""
    for found in _MUST_END.finditer(text, at):
        if found.group("separator") is not None or _opens_item(text, found.end()):
            return found.end()
    return len(text)


def _opens_item(text: str, line: int) -> bool:
    """Whether the line at ``line``, which starts with a list marker, opens an item (see
    :func:`_item_lines`)."""
    head = text[line : line + 8].lstrip(" \t")
    marker = head[:1]
    if marker in _BULLETS:
        return True
    if marker in _DIALOGUE_DASHES:
        # a line of dialogue opens with a capital, ¿ or ¡, or a quote ("—¿Vas?", "— Non."),
        # not a dash that goes on a sentence ("p.m.\n—the usual time—")
        spoken = head[1:].lstrip(" \u00a0")[:1]
        if not (spoken.isupper() or spoken in _SPOKEN_OPENERS):
            return False
    window = text[max(0, line - 200) : line]
    before = window.rstrip()
    gap = window[len(before) :]
    if not before or gap.count("\n") + gap.count("\r") - gap.count("\r\n") >= 2:
        return True  # the text's or a paragraph's first line
    if before[-1] in _ITEM_LINE_BEFORE:
        return True
    # The line before, from its own start: the window may begin inside it, and a word cut
    # there ("r. " of "Dr.", 200 characters back) would read as a list marker.
    previous_end = line - len(gap)
    previous_start = _line_start_before(text, previous_end)
    return _LIST_ITEM_START.match(text, previous_start, previous_end) is not None


def _line_start_before(text: str, end: int) -> int:
    """Where the line that ends at ``end`` starts (after any of :data:`_SEPARATORS`), read
    back a stretch at a time: in time linear in that line's length, not in the text's."""
    high = end
    while high > 0:
        low = max(0, high - 256)
        found = max(text.rfind(separator, low, high) for separator in _SEPARATORS)
        if found >= 0:
            return found + 1
        high = low
    return 0


def _unwrapped(text: str, items: Sequence[int] = ()) -> str:
    """``text`` with the line endings inside each paragraph made spaces (same length),
    but the one before each line that opens a list item (``items``, where such lines
    start): each item starts a sentence."""
    if _INNER_LINE_END.search(text) is None:
        return text  # (one-line paragraphs: not listed, 130 bytes a paragraph)
    parts: list[str] = []
    done = at = 0
    for first, last in paragraph_spans(text):
        inside = text[first:last].replace("\r\n", "  ").replace("\r", " ").replace("\n", " ")
        parts.append(text[done:first])
        taken = first  # the paragraph is in parts up to here (each part sliced once)
        while at < len(items) and items[at] < last:
            line_start = items[at]
            at += 1
            if line_start > taken:  # the line ending before it stays
                ending = 2 if text.startswith("\r\n", line_start - 2) else 1
                parts += (
                    inside[taken - first : line_start - ending - first],
                    text[line_start - ending : line_start],
                )
                taken = line_start
        parts.append(inside[taken - first :])
        done = last
    parts.append(text[done:])
    return "".join(parts)


def _without_item_markers(text: str, stop: int, ends: list[int], items: list[int]) -> list[int]:
    """``ends`` without those right after a numbered item's marker at the start of a line
    (``items``: where lines that open list items start). UAX #29 ends a sentence at
    ``"\n2. Run"``: the number went with the item before."""
    gone = set()
    for line_start in items:
        marker = _NUMBERED_ITEM.match(text, line_start, stop)
        if marker is not None:
            gone.add(marker.end())
    return [end for end in ends if end not in gone] if gone else ends


def sentence_spans(
    text: str,
    start: int = 0,
    end: int | None = None,
    *,
    abbreviations: Iterable[str] = DEFAULT_ABBREVIATIONS,
    openers: bool = True,
    lowercase_continues: bool = True,
    wrapped: bool = False,
    list_items: bool = True,
) -> list[Span]:
    """Spans of the sentences of ``text[start:end]``; they tile the region exactly.

    ``start`` must be a sentence start. The region's end is treated as the end of the
    text; the two rules that look back (SB7 "U.S", abbreviations) may see the characters
    just before ``start``. ``abbreviations=(), openers=False, lowercase_continues=False,
    list_items=False`` gives plain UAX #29;
    ``wrapped=True`` lets sentences run across the lines of a paragraph.
    """
    stop = check_region(text, start, end)
    settings = (
        check_abbreviations(abbreviations),
        check_bool("openers", openers),
        check_bool("lowercase_continues", lowercase_continues),
    )
    wrapped = check_bool("wrapped", wrapped)
    items = check_bool("list_items", list_items)
    ends = sentence_ends(text, start, stop, settings, wrapped, list_items=items)
    return list(zip(chain((start,), ends), ends))


SentenceSettings = tuple[frozenset[str], bool, bool]
"""Checked abbreviations, ``openers`` and ``lowercase_continues`` (see :func:`sentence_spans`)."""


def sentence_ends(
    text: str,
    start: int,
    stop: int,
    settings: SentenceSettings,
    wrapped: bool,
    *,
    list_items: bool = True,
) -> list[int]:
    """Where each sentence of ``text[start:stop]`` ends, ascending (the last at ``stop``):
    :func:`sentence_spans` without a tuple for each, its arguments checked already."""
    if start == stop:
        return []
    items = _item_lines(text, start, stop) if list_items else []
    if wrapped:
        # Same length, so the ends found in the copy are the ends in the original.
        copy = _unwrapped(text[start:stop], [item - start for item in items])
        local = _rule_ends(copy, 0, stop - start, settings)
        ends = [found + start for found in local] if start else local
    else:
        ends = _rule_ends(text, start, stop, settings)
    ends = _without_item_markers(text, stop, ends, items)
    if not (settings[1] or settings[2]):
        return ends
    return _tailor_edges(text, start, stop, ends, openers=settings[1], quotations=settings[2])


_BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_EDGE_MARK = re.compile(f"[»”’›とっな_*~`]|[{_BIDI_CONTROLS}]")
"""At a sentence's start, a character that may start a sentence that is none; at its
end, a bidirectional control that belongs to the next (see :func:`_tailor_edges`)."""
_BIDI_RUN_END = re.compile(f"[{_BIDI_CONTROLS}]+$")
_QUOTATIVE = re.compile("と(?!ても)|って|など|なんて")
"""A Japanese quotative particle, which goes on with the quotation before it (not とても)."""
_QUOTATION_CLOSED = frozenset("」』”’）〉》»")
_SPACE = r"[^\S\x1c-\x1f]"
"""A space (``re``'s ``\\s`` takes the information separators U+001C-U+001F too, which
Unicode does not count as white space)."""
_IS_SPACE = re.compile(_SPACE)
_LINE_SPACES = r"[^\S\r\n\x1c-\x1f\x85\u2028\u2029]*(?:\r\n|[\r\n\x85\u2028\u2029])?"
"""The spaces after a sentence, to and with the line ending after them."""
_CLOSING_AFTER_SPACE = re.compile(
    rf"[»”’›](?={_SPACE}|[.,;:!?…)\]»”’›]|\Z)(?P<tail>[.!?…)\]»”’›]*){_LINE_SPACES}"
)
"""A closing quotation mark followed by a space, punctuation or the end (it closes: UAX #14
LB15b), with the terminators and closing marks after it (``»``, ``».``) and the spaces
after them."""
_EMPHASIS_CLOSED = re.compile(rf"[_*~]{{1,3}}[)\]»”’›\"']*(?={_SPACE}|\Z){_LINE_SPACES}")
"""Markdown's closing emphasis (``_``, ``**``, ``~~``) and the closing marks after it,
followed by a space or the end (not by punctuation, which would start the next sentence),
with the spaces after them."""
_CODE_CLOSED = re.compile(rf"`+[)\]»”’›\"']*(?:[.!?…]+[)\]»”’›\"']*)?(?={_SPACE}|\Z){_LINE_SPACES}")
"""The backticks that close Markdown's inline code after a terminator or closing bracket,
with the terminator and closing marks after them and the spaces after those
("`&s[..]`. We": UAX #29 ends a sentence after "]" and again after "`.")."""
_TERMINATED = frozenset(".!?…。！？‼⁇⁈⁉")
_LINE_ENDS = frozenset("\r\n\x85\u2028\u2029")
"""The line endings a sentence's spaces stop at (see ``_LINE_SPACES``)."""


def _tailor_edges(
    text: str, start: int, stop: int, ends: list[int], *, openers: bool, quotations: bool
) -> list[int]:
    """``ends`` with the tailorings that read a sentence's edges.

    With ``quotations`` (``lowercase_continues``): a Japanese quotation followed by a
    quotative particle goes on (``「本当ですか？」と聞いた。`` is one sentence); a closing
    quotation mark after a space, as French sets it (``« Tu viens ? » Il``), and Markdown's
    closing emphasis after the terminator (``See _Hackluyt._ And``) end the sentence they
    close instead of starting the next, and so do the backticks that close inline code
    after them (``into `&s[..]`. We``). With ``openers``: bidirectional
    controls after a sentence's spaces (a right-to-left mark, an isolate's start) start
    the next sentence, as an opening quote does, where UAX #29 (SB5) keeps them with the
    spaces before them. The last and first characters of the sentences are searched at
    once (at C speed); no rule crosses a line ending, so a region read alone gives the
    ends the whole text gives."""
    edges = "".join([text[end - 1 : end + 1] for end in ends[:-1]])
    changed: dict[int, int] = {}  # index of an end -> where it moves (-1: no end)
    for found in _EDGE_MARK.finditer(edges):
        index, first = divmod(found.start(), 2)
        position = ends[index]
        if not first:  # a bidirectional control ends the sentence
            if openers and index not in changed:
                low = ends[index - 1] if index else start
                run = _BIDI_RUN_END.search(text, max(low, position - 16), position)
                if run is not None and run.start() > low and text[run.start() - 1].isspace():
                    changed[index] = run.start()
            continue
        if not quotations:
            continue
        before = text[position - 1]
        closing = None
        if before in _QUOTATION_CLOSED and _QUOTATIVE.match(text, position):
            changed[index] = -1
        elif _IS_SPACE.match(before) and before not in _LINE_ENDS:
            closing = _CLOSING_AFTER_SPACE.match(text, position, stop)
            if closing is not None and text.startswith((",", ";", ":"), closing.end("tail")):
                changed[index] = -1  # a clause goes on after it (« Oui ? », dit-il.)
                closing = None
        elif text[position] == "`":
            if before in _TERMINATED or before in _QUOTATION_CLOSED or before in ")]}":
                closing = _CODE_CLOSED.match(text, position, stop)
                if closing is not None and text[closing.end() : closing.end() + 1].islower():
                    changed[index] = -1  # (a lower-case word goes on: to UAX #29's next end)
                    closing = None
        elif before in _TERMINATED or before in _QUOTATION_CLOSED:
            closing = _EMPHASIS_CLOSED.match(text, position, stop)
        if closing is not None:  # (the mark alone: joined to the sentence before)
            changed[index] = -1 if closing.end() >= ends[index + 1] else closing.end()
    if not changed:
        return ends
    return [changed.get(i, end) for i, end in enumerate(ends) if changed.get(i, end) >= 0]


def _rule_ends(text: str, start: int, stop: int, settings: SentenceSettings) -> list[int]:
    """:func:`sentence_ends` by the patterns alone, lines not unwrapped."""
    fast = fast_pattern(*settings)
    ends: list[int] = []
    done = start
    for astral in _ASTRAL.finditer(text, start, stop):
        if astral.start() < done:
            continue
        # The line around a character beyond the BMP goes to the exact pattern; a long one
        # to the re pattern for all planes (slower on such characters, whose classes it
        # reads range by range, but it keeps no state per step of a long sentence).
        first = _line_start(text, done, astral.start())
        line_end = _LINE_END.search(text, astral.end(), stop)
        last = line_end.end() if line_end else stop
        if first > done:
            _add_ends(fast, text, done, first, ends)
        if last - first >= LONG_ASTRAL_LINE and POSSESSIVE_LOOP:
            _add_ends(fast_pattern(*settings, astral=True), text, first, last, ends)
        else:
            _add_ends(exact_pattern(*settings), text, first, last, ends)
        done = last
    if done < stop:
        _add_ends(fast, text, done, stop, ends)
    return ends


@dataclass(frozen=True, slots=True)
class SentenceLevel:
    """The sentence boundary level with its tailorings (see :func:`sentence_spans`)."""

    abbreviations: frozenset[str] = DEFAULT_ABBREVIATIONS
    openers: bool = True
    lowercase_continues: bool = True
    wrapped: bool = False

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        return sentence_spans(
            text,
            start,
            end,
            abbreviations=self.abbreviations,
            openers=self.openers,
            lowercase_continues=self.lowercase_continues,
            wrapped=self.wrapped,
        )


_STOPS = r"[\p{SB=OLetter}\p{SB=Upper}\p{SB=Lower}\p{SB=Sep}\p{SB=STerm}\p{SB=ATerm}]"
_ONE_LINE_END = r"(?:\r\n|\r(?!\n)|\n)"
_LOOKAHEAD_END = regex.compile(rf"{_STOPS}|[\r\n]")
# Where lines are unwrapped, a single line ending is a space: only a blank line stops.
_WRAPPED_LOOKAHEAD_END = regex.compile(rf"{_STOPS}|{_ONE_LINE_END}[ \t]*{_ONE_LINE_END}")


def lookahead_ends(text: str, start: int, end: int, *, wrapped: bool = False) -> bool:
    """Whether the sentence rules' look-ahead from ``start`` ends before ``end``: at a
    letter, a paragraph separator (a blank line, ``wrapped``) or a terminator. Only there
    does UAX #29's rule SB8 (no break before a lowercase letter that follows, whatever
    digits, spaces and punctuation come between) stop reading: a boundary before
    ``start`` is settled once it does."""
    pattern = _WRAPPED_LOOKAHEAD_END if wrapped else _LOOKAHEAD_END
    return pattern.search(text, start, end) is not None


@dataclass(frozen=True, slots=True)
class SentenceStarts:
    """Sentence starts in ``[low, end)``, where overlap may start at a sentence: those of
    the whole text (by :func:`sentence_spans`, unwrapped where ``wrapped``), read a
    stretch at a time as packing asks for them and kept for the last few stretches of
    the last text this thread asked about. Packing asks about every chunk's tail, and
    about much of a chunk where it looks for a sentence end to stop at: read window by
    window, the text was read about once over again, and more with small chunks."""

    abbreviations: frozenset[str] = DEFAULT_ABBREVIATIONS
    wrapped: bool = True

    def __call__(self, text: str, low: int, end: int) -> list[int]:
        cached = getattr(_LAST_STARTS, "found", None)
        if cached is None or cached.text is not text or cached.settings != self:
            cached = _LAST_STARTS.found = _Stretches(text, self)
        return cached.starts(low, end)

    def ends(self, text: str, low: int, end: int) -> list[int]:
        """The starts in ``[low, end)`` that packing may end a chunk before (all of them;
        Markdown's leave out those right after a heading)."""
        return self(text, low, end)


STARTS_STRETCH = 1 << 14
"""Code points :class:`SentenceStarts` reads at once, to the next place a sentence must end."""

KEPT_STRETCHES = 8
"""Stretches whose sentence starts are kept (packing asks about a chunk's own text and the
text after it: the stretches before are not asked about again)."""


class _Stretches:
    """The sentence starts of one text, read a stretch at a time: each stretch ends where
    a sentence must (after a paragraph separator or before a line that opens a list item,
    or after any line ending where lines are not wrapped), so a stretch read alone has the
    sentences of the whole text; the starts of the :data:`KEPT_STRETCHES` last read are
    kept, and where each stretch begins."""

    def __init__(self, text: str, settings: SentenceStarts) -> None:
        self.text = text
        self.settings = settings
        self.bounds = array(offset_typecode(text), [0])  # where each stretch found begins
        self.read: dict[int, array[int]] = {}  # a stretch's index -> its starts (but 0)

    def _bound(self, index: int) -> int:
        """Where stretch ``index`` begins (the text's length past its last stretch)."""
        text, bounds = self.text, self.bounds
        while len(bounds) <= index and bounds[-1] < len(text):
            at = bounds[-1] + STARTS_STRETCH
            if at >= len(text):
                stop = len(text)
            elif self.settings.wrapped:
                stop = _sentence_must_end(text, at)
            else:
                line_end = _LINE_END.search(text, at)
                stop = len(text) if line_end is None else line_end.end()
            bounds.append(stop)
        return bounds[index] if index < len(bounds) else len(text)

    def _stretch(self, index: int) -> array[int]:
        """The sentence starts of stretch ``index`` (but the text's first), read now
        unless they are kept."""
        found = self.read.get(index)
        if found is None:
            begin, stop = self._bound(index), self._bound(index + 1)
            rules = (self.settings.abbreviations, True, True)
            ends = sentence_ends(self.text, begin, stop, rules, self.settings.wrapped)
            found = array(self.bounds.typecode, [begin] if begin else [])
            found.fromlist(ends)
            found.pop()  # the end of the stretch: the next one's first start
            if len(self.read) >= KEPT_STRETCHES:
                del self.read[next(iter(self.read))]  # the one read first
            self.read[index] = found
        return found

    def starts(self, low: int, end: int) -> list[int]:
        """The sentence starts in ``[low, end)``, ascending."""
        bounds = self.bounds
        while bounds[-1] <= low and bounds[-1] < len(self.text):
            self._bound(len(bounds))  # find stretches up to the one holding ``low``
        index = bisect_right(bounds, low) - 1
        found: list[int] = []
        while (begin := self._bound(index)) < end and begin < len(self.text):
            starts = self._stretch(index)
            found += starts[bisect_left(starts, low) : bisect_left(starts, end)]
            index += 1
        return found


_LAST_STARTS = threading.local()
"""The stretches of the text :class:`SentenceStarts` read last on this thread, until
:func:`forget_sentence_starts`."""


def forget_sentence_starts() -> None:
    """Let go of the text :class:`SentenceStarts` read last on this thread, and its starts
    (packing calls this when it is done with a text)."""
    _LAST_STARTS.found = None
