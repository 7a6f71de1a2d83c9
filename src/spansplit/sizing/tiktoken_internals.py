"""Every use of tiktoken's private attributes, in one place, each with a correct fallback.

spansplit reads a few things tiktoken does not publish, because they make counting and
offline loading fast or possible. Each accessor here returns ``None`` (or takes the public
way) when a tiktoken release no longer has the attribute, so spansplit stays correct and
only gets slower; ``tests/test_tiktoken_internals.py`` fails with the attribute's name
when one is gone, so the change is seen rather than silently paid for.

What is read (tiktoken 0.12 to 0.14), what it gives, and the fallback:

* ``Encoding._core_bpe.encode_to_tiktoken_buffer``: token ids as a native buffer;
  else ``encode_ordinary`` (a Python list).
* ``Encoding._encode_single_piece``: the tokens of one pretoken, without the
  pretokenizer (for whitespace runs too long for it, and long pretokens encoded in
  parts); else a text with a long whitespace run cannot be counted
  (:class:`~spansplit.errors.LengthFunctionError`), and a long run with no cut is left to
  tiktoken whole.
* ``Encoding._mergeable_ranks``: every token's bytes; else ``decode_single_token_bytes``
  for each id.
* ``Encoding._pat_str``: the pretokenizer's pattern, which the token index's cuts were
  proven for; else no token index (every span is encoded).
* ``Encoding._pat_str``, ``_mergeable_ranks`` and ``_special_tokens``: what a copy of an
  encoding is made of (a thread encodes fastest with an encoding it used first); else
  the encoding is shared.
* ``tiktoken.registry.ENCODINGS``: encodings tiktoken has loaded; else load again.
* ``tiktoken.registry.ENCODING_CONSTRUCTORS`` and the ``load_tiktoken_bpe`` in a
  constructor's globals: an encoding's definition, run with a loader that reads local
  copies; else ``tiktoken.get_encoding`` (tiktoken's own cache; the network only where
  allowed).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterator
from collections.abc import Set as AbstractSet
from types import FunctionType
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from ..errors import LengthFunctionError
from .pretoken_cuts import cuts_for

if TYPE_CHECKING:
    from tiktoken import Encoding

BufferEncoder = Callable[[str], Any]
"""Text to a buffer of uint32 token ids (``encode_ordinary`` semantics)."""


def buffer_encoder(encoding: Encoding) -> BufferEncoder | None:
    """``encode_ordinary`` that returns the ids as a native uint32 buffer, if available."""
    core: Any = getattr(encoding, "_core_bpe", None)
    encode = getattr(core, "encode_to_tiktoken_buffer", None)
    if encode is None:
        return None
    no_special: set[str] = set()  # special-token text counts as ordinary text

    def encode_buffer(text: str) -> Any:
        return encode(text, no_special)

    return encode_buffer


def piece_encoder(encoding: Encoding) -> Callable[[bytes], list[int]] | None:
    """The tokens of one pretoken (its UTF-8 bytes), encoded without the pretokenizer, if
    available."""
    encode = getattr(encoding, "_encode_single_piece", None)
    return encode if callable(encode) else None


LONG_WHITESPACE_CHARS = 1 << 16
"""Texts with a whitespace run this long are cut into pretokens here, not by tiktoken,
whose pretokenizer overflows its backtracking stack on runs of about a million."""

LONG_RUN_CHARS = 1 << 16
"""A text with a run this long where no pretoken cut lies (CJK without punctuation, emoji
sequences, whitespace) has the stretch around it cut into pretokens here, and a long
pretoken encoded in parts (:func:`_encode_long_piece`): tiktoken's merge of one pretoken
takes tens of bytes a byte (38 MB for a megabyte of CJK letters)."""

LONG_PIECE_BYTES = 1 << 15
"""Pretokens longer than this (in UTF-8 bytes) are encoded in parts."""

PART_BYTES = 1 << 14
"""About how long each part of a long pretoken is."""

_SEAM_WINDOW = 256
"""Bytes after a candidate seam encoded to guess the first token of the next part: twice the
longest token (128 bytes in cl100k_base and o200k_base)."""

_SEAM_TRIES = 256
"""Token boundaries of a part, from its end back, tried as its seam before the rest of the
pretoken is encoded whole."""

_LONG_TEXT_CHARS = min(LONG_WHITESPACE_CHARS, LONG_RUN_CHARS)
"""Shorter texts are left to tiktoken whole."""

_SAMPLE_STEP = LONG_WHITESPACE_CHARS // 2
_NOT_SPACE = re.compile(r"\S")


def long_whitespace_runs(text: str) -> list[tuple[int, int]]:
    """Every run of at least :data:`LONG_WHITESPACE_CHARS` whitespace characters in
    ``text``, as ``(start, end)``. Such a run covers two consecutive multiples of half
    that length, so only those few characters are looked at (two per 64K) and the text
    around a pair of them only where both are whitespace."""
    runs: list[tuple[int, int]] = []
    n, step = len(text), _SAMPLE_STEP
    at = 0
    while at + step < n:
        if not (text[at].isspace() and text[at + step].isspace()):
            at += step
            continue
        start = at
        while start > 0:  # back to the run's first character, a block at a time
            low = max(0, start - step)
            kept = text[low:start].rstrip()
            start = low + len(kept)
            if kept:
                break
        after = _NOT_SPACE.search(text, at)
        end = n if after is None else after.start()
        if end - start >= LONG_WHITESPACE_CHARS:
            runs.append((start, end))
        at = (max(end, at) // step + 1) * step
    return runs


def has_long_whitespace(text: str) -> bool:
    """Whether ``text`` holds a run of at least :data:`LONG_WHITESPACE_CHARS` whitespace."""
    return len(text) >= LONG_WHITESPACE_CHARS and bool(long_whitespace_runs(text))


def _long_stretches(encoding: Encoding, text: str) -> list[tuple[int, int]]:
    """The stretches of ``text`` to cut into pretokens here rather than by tiktoken, in
    order: from a pretoken cut before to one after each long whitespace run and each run
    of :data:`LONG_RUN_CHARS` with no cut (found by one search for a cut per half of
    that length) whose characters both pretokenizers read alike (:func:`_read_alike`); for
    an encoding without proven cuts, the whole text if it has a long whitespace run."""
    if len(text) < _LONG_TEXT_CHARS:
        return []
    runs = [(start, end, True) for start, end in long_whitespace_runs(text)]
    cuts = cuts_for(encoding.name, pretokenizer_pattern(encoding))
    if cuts is None:
        return [(0, len(text))] if runs else []
    n, step = len(text), LONG_RUN_CHARS // 2
    if piece_encoder(encoding) is not None:  # else tiktoken merges them whole
        runs += [(at, at + step, False) for at in cuts.cut_free_windows(text, step)]
    stretches: list[tuple[int, int, bool]] = []  # and whether tiktoken cannot take it
    for start, end, whitespace in sorted(runs):
        done = stretches[-1][1] if stretches else 0
        if end <= done:
            continue  # inside the stretch before
        found = cuts.first(text, end, n)
        high = n if found is None else found
        if start < done:  # runs overlapping: one stretch
            stretches[-1] = (stretches[-1][0], high, stretches[-1][2] or whitespace)
            continue
        low = cuts.last(text, done, start + 1)
        stretches.append((done if low is None else low, high, whitespace))
    return [
        (low, high)
        for low, high, whitespace in stretches
        if whitespace or _read_alike(encoding, text[low:high])
    ]


def _read_alike(encoding: Encoding, text: str) -> bool:
    """Whether tiktoken's pretokenizer and the ``regex`` module's, with the same pattern,
    read every character of ``text`` alike. They can differ on characters that their
    Unicode tables do not share (a letter added in Unicode 17 is a letter to the ``regex``
    module and unassigned to tiktoken 0.14): each character outside ASCII is tried once,
    in a probe where it follows a letter and comes before a contraction and a digit."""
    wide = sorted(set(text).difference(map(chr, range(128))))
    probe = "".join(f"x{char}'s {char}1 " for char in wide)
    return not wide or encode_by_pretokens(encoding, probe) == encoding.encode_ordinary(probe)


def encode_ordinary(encoding: Encoding, text: str) -> list[int]:
    """``encoding.encode_ordinary(text)`` for any text, also one with a whitespace run too
    long for tiktoken's pretokenizer or a long run with no pretoken cut: the stretch around
    each (:func:`_long_stretches`) is encoded by :func:`encode_by_pretokens`, the rest by
    tiktoken."""
    if len(text) < _LONG_TEXT_CHARS:
        return encoding.encode_ordinary(text)
    ids: list[int] = []
    for part in _by_stretches(encoding, text, encoding.encode_ordinary, encode_by_pretokens):
        ids += part
    return ids


BUFFER_COUNT_MIN_CHARS = 2048
"""Texts at least this long are counted from a native buffer of ids (4 bytes a token),
not a list of Python ints (about 36 bytes a token)."""


def count_ordinary(encoding: Encoding, text: str) -> int:
    """``len(encode_ordinary(encoding, text))``, without a list of ids for a long text."""
    if len(text) < BUFFER_COUNT_MIN_CHARS:
        return len(encoding.encode_ordinary(text))
    encode = buffer_encoder(encoding)

    def plain(part: str) -> int:
        if encode is not None:
            try:
                return memoryview(encode(part)).nbytes // 4
            except UnicodeEncodeError:
                pass  # a lone surrogate: encode_ordinary reads it as U+FFFD
        return len(encoding.encode_ordinary(part))

    return sum(_by_stretches(encoding, text, plain, _pretoken_count))


_T = TypeVar("_T")


def _by_stretches(
    encoding: Encoding,
    text: str,
    plain: Callable[[str], _T],
    by_pretokens: Callable[[Encoding, str], _T],
) -> list[_T]:
    """``plain`` of the text between the stretches of :func:`_long_stretches` and
    ``by_pretokens`` of each stretch, in order."""
    done = 0
    parts: list[_T] = []
    for low, high in _long_stretches(encoding, text):
        parts += [plain(text[done:low]), by_pretokens(encoding, text[low:high])]
        done = high
    return [*parts, plain(text[done:])]


def encode_with_special(
    encoding: Encoding,
    text: str,
    allowed_special: Literal["all"] | AbstractSet[str],
    disallowed_special: Literal["all"] | Collection[str],
) -> list[int]:
    """``encoding.encode(text, allowed_special=..., disallowed_special=...)`` for any text,
    also one with a whitespace run too long for tiktoken's pretokenizer or a long run with
    no pretoken cut: tiktoken encodes the text between allowed special tokens apart, and so
    does this, with :func:`encode_ordinary`."""
    if not (len(text) >= _LONG_TEXT_CHARS and _long_stretches(encoding, text)):
        return encoding.encode(
            text, allowed_special=allowed_special, disallowed_special=disallowed_special
        )
    specials = encoding.special_tokens_set
    allowed = specials if allowed_special == "all" else set(allowed_special)
    disallowed = specials - allowed if disallowed_special == "all" else set(disallowed_special)
    if disallowed and (found := _any_of(disallowed).search(text)):
        encoding.encode(found.group(), allowed_special=allowed, disallowed_special=disallowed)
    ids: list[int] = []
    done = 0
    for found in _any_of(allowed).finditer(text) if allowed else ():
        ids += encode_ordinary(encoding, text[done : found.start()])
        ids.append(encoding.encode_single_token(found.group()))
        done = found.end()
    ids += encode_ordinary(encoding, text[done:])
    return ids


def _any_of(tokens: AbstractSet[str]) -> re.Pattern[str]:
    """A pattern matching any of ``tokens``, longest first."""
    return re.compile("|".join(map(re.escape, sorted(tokens, key=lambda t: (-len(t), t)))))


def encode_by_pretokens(encoding: Encoding, text: str) -> list[int]:
    """What ``encoding.encode_ordinary(text)`` returns, computed as tiktoken does but with
    the ``regex`` module cutting the text into pretokens with tiktoken's own pattern (it
    backtracks without a stack limit), and each pretoken encoded alone by tiktoken (a long
    one in parts, :func:`_encode_long_piece`)."""
    ids: list[int] = []
    for piece in _pretokens(encoding, text):
        _encode_long_piece(encoding, piece, ids)
    return ids


def _pretoken_count(encoding: Encoding, text: str) -> int:
    """``len(encode_by_pretokens(encoding, text))``, without keeping the ids."""
    return sum(_encode_long_piece(encoding, piece, None) for piece in _pretokens(encoding, text))


def _pretokens(encoding: Encoding, text: str) -> Iterator[bytes]:
    """The UTF-8 bytes of each pretoken of ``text``, as tiktoken's pattern cuts it."""
    pattern = pretokenizer_pattern(encoding)
    if pattern is None or piece_encoder(encoding) is None:
        raise LengthFunctionError(
            f"{encoding.name} cannot encode a text of {len(text)} code points with a run of "
            f"{LONG_WHITESPACE_CHARS} or more whitespace characters with this tiktoken release"
        )
    if not text.isascii():  # as tiktoken does, a lone surrogate becomes U+FFFD
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    for piece in _pretokenizer(pattern).finditer(text):
        yield piece.group().encode("utf-8")


def _encode_long_piece(encoding: Encoding, piece: bytes, ids: list[int] | None) -> int:
    """The number of tokens of one pretoken, its ids appended to ``ids`` when given.

    A pretoken over :data:`LONG_PIECE_BYTES` is encoded in parts of about
    :data:`PART_BYTES`, each cut where the tokens either side are a valid pair: two tokens
    whose bytes encode back to those two tokens. Byte-pair encoding has properties that
    make that exact (proven in the README of GitHub's ``bpe`` crate, corollaries II, III
    and IIIa): the tokens of a valid encoding up to one of its token boundaries are the
    valid encoding of those bytes, a valid encoding followed by a token that forms a valid
    pair with its last token is valid, two valid encodings that share a token join into
    a valid one, and only one encoding of a text is valid. Each part ends at one of its
    own token boundaries (:func:`_part`); the first token of the next part is checked
    against its last, and where the pair is not valid the whole pretoken is encoded at
    once."""
    encode = piece_encoder(encoding)
    assert encode is not None  # checked by _pretokens
    if len(piece) <= LONG_PIECE_BYTES:
        tokens = encode(piece)
        if ids is not None:
            ids += tokens
        return len(tokens)
    token = encoding.decode_single_token_bytes

    def valid(left: int, right: int) -> bool:
        return encode(token(left) + token(right)) == [left, right]

    mark = len(ids) if ids is not None else 0
    total = start = 0
    last: int | None = None  # the last token of the parts so far
    while start < len(piece):
        if len(piece) - start > 2 * PART_BYTES:
            tokens, end = _part(encode, valid, token, piece, start)
        else:
            tokens, end = encode(piece[start:]), len(piece)
        if last is not None and not valid(last, tokens[0]):
            tokens = encode(piece)  # a seam that the window misjudged: the pretoken whole
            if ids is not None:
                del ids[mark:]
            total, end = 0, len(piece)
        if ids is not None:
            ids += tokens
        total += len(tokens)
        last, start = tokens[-1], end
    return total


def _part(
    encode: Callable[[bytes], list[int]],
    valid: Callable[[int, int], bool],
    token: Callable[[int], bytes],
    piece: bytes,
    start: int,
) -> tuple[list[int], int]:
    """The tokens of the next part of a long pretoken, from ``start``, and where it ends.

    ``PART_BYTES`` from ``start`` are encoded; the part ends at the last of their token
    boundaries (of the last :data:`_SEAM_TRIES`) where the token before it and the first
    token that :data:`_SEAM_WINDOW` bytes after it encode to form a valid pair, with the
    tokens before it (a valid encoding of its bytes, by corollary II). Without one, the
    part is the rest of the pretoken."""
    tokens = encode(piece[start : start + PART_BYTES])
    end = start + PART_BYTES
    for count in range(len(tokens), max(0, len(tokens) - _SEAM_TRIES), -1):
        after = encode(piece[end : end + _SEAM_WINDOW])
        if valid(tokens[count - 1], after[0]):
            return tokens[:count], end
        end -= len(token(tokens[count - 1]))
    return encode(piece[start:]), len(piece)


@functools.cache
def _pretokenizer(pattern: str) -> Any:
    import regex

    return regex.compile(pattern)


def pretokenizer_pattern(encoding: Encoding) -> str | None:
    """The regular expression that cuts text into pretokens, if readable."""
    pattern = getattr(encoding, "_pat_str", None)
    return pattern if isinstance(pattern, str) else None


def private_copy(encoding: Encoding) -> Encoding | None:
    """A new ``Encoding`` equal to ``encoding`` (same name, pattern and tokens), if the
    attributes it is made of are readable."""
    import tiktoken

    pattern = pretokenizer_pattern(encoding)
    ranks = getattr(encoding, "_mergeable_ranks", None)
    special = getattr(encoding, "_special_tokens", None)
    if pattern is None or not isinstance(ranks, dict) or not isinstance(special, dict):
        return None
    return tiktoken.Encoding(
        encoding.name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=special
    )


def token_bytes(encoding: Encoding) -> dict[bytes, int]:
    """The bytes of every ordinary token, by rank: ``_mergeable_ranks`` when present,
    else decoded token by token through the public API (a few seconds, once)."""
    ranks: dict[bytes, int] | None = getattr(encoding, "_mergeable_ranks", None)
    if isinstance(ranks, dict) and ranks:
        return ranks
    special = {encoding.encode_single_token(token) for token in encoding.special_tokens_set}
    decode = encoding.decode_single_token_bytes
    found: dict[bytes, int] = {}
    for rank in range(encoding.n_vocab):
        if rank in special:
            continue
        try:
            found[decode(rank)] = rank
        except KeyError:  # a gap in the ranks
            continue
    return found


def loaded_encoding(name: str) -> Encoding | None:
    """The encoding ``name`` if tiktoken has already loaded it in this process."""
    import tiktoken.registry

    loaded: dict[str, Encoding] | None = getattr(tiktoken.registry, "ENCODINGS", None)
    return loaded.get(name) if isinstance(loaded, dict) else None


def local_constructor(
    name: str,
    load_bpe: Callable[[str, str | None], dict[bytes, int]],
    load_data_gym: Callable[[str], dict[bytes, int]],
) -> Callable[[], dict[str, Any]] | None:
    """tiktoken's constructor for encoding ``name``, rebound so that it reads its ranks
    through ``load_bpe(url, expected_sha256)`` instead of ``load_tiktoken_bpe`` (and
    ``load_data_gym(url)`` for gpt2's two-file format).

    The definition of an encoding (pattern, special tokens, file URL and hash) lives in
    its constructor; rather than copying it, the same code runs with another loader.
    ``None`` when the constructor is not reachable or does not load that way.
    """
    import tiktoken.load
    import tiktoken.registry

    tiktoken.registry.list_encoding_names()  # makes tiktoken find its plugins' constructors
    constructors = getattr(tiktoken.registry, "ENCODING_CONSTRUCTORS", None) or {}
    constructor = constructors.get(name)
    if not isinstance(constructor, FunctionType):
        return None
    scope = constructor.__globals__
    if scope.get("load_tiktoken_bpe") is not tiktoken.load.load_tiktoken_bpe:
        return None

    def load_local_bpe(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
        return load_bpe(blobpath, expected_hash)

    local_scope = dict(scope)
    local_scope["load_tiktoken_bpe"] = load_local_bpe
    local_scope["data_gym_to_mergeable_bpe_ranks"] = lambda vocab_bpe_file, *_, **__: load_data_gym(
        vocab_bpe_file
    )
    for key, value in scope.items():  # so that o200k_harmony calls the rebound o200k_base
        if isinstance(value, FunctionType) and value.__globals__ is scope:
            local_scope[key] = FunctionType(
                value.__code__, local_scope, value.__name__, value.__defaults__, value.__closure__
            )
    rebound: Callable[[], dict[str, Any]] = local_scope[constructor.__name__]
    return rebound
