"""Checks on caller input shared by every splitter: the text itself and numeric parameters."""

from __future__ import annotations

import numbers
import re

from .errors import InputTypeError, InvalidInputError, InvalidParameterError, ParameterTypeError

_NUL_OR_SURROGATE = re.compile("[\x00\ud800-\udfff]")


def check_text(text: object, name: str = "text") -> str:
    """Return ``text`` if it is plain text, else raise a typed error naming the fault.

    Plain text is a ``str`` with no lone surrogate (it could not be encoded as UTF-8)
    and no NUL character (the mark of binary data, which belongs to other readers).
    """
    if not isinstance(text, str):
        if isinstance(text, (bytes, bytearray, memoryview)):
            raise InputTypeError(
                f"{name} must be str, got {type(text).__name__}: decode it first, "
                f"e.g. {name}.decode('utf-8')"
            )
        hint = (
            ": a splitter's split_texts() takes several texts"
            if name == "text" and isinstance(text, (list, tuple))
            else ""
        )
        raise InputTypeError(f"{name} must be str, got {type(text).__name__}{hint}")
    # A strict UTF-16 encoding (the cheapest one) rejects a lone surrogate, which ASCII
    # text cannot hold; str.find looks for NUL at C speed. The regex runs only to report.
    bad = None
    if not text.isascii():
        try:
            text.encode("utf-16-le")
        except UnicodeEncodeError as error:
            bad = _NUL_OR_SURROGATE.search(text, 0, error.end)
    if bad is None and text.find("\x00") >= 0:
        bad = _NUL_OR_SURROGATE.search(text)
    if bad is not None:
        offset = bad.start()
        char = bad.group()
        if char == "\x00":
            raise InvalidInputError(
                f"{name} contains a NUL character at offset {offset}: plain text only "
                "(binary data must be converted to text first)",
                offset,
            )
        raise InvalidInputError(
            f"{name} contains a lone surrogate U+{ord(char):04X} at offset {offset}: "
            "not valid Unicode text",
            offset,
        )
    return text


def check_int(name: str, value: object, minimum: int) -> int:
    """Return ``value`` as an ``int`` if it is an integer (not a ``bool``; a NumPy integer
    is one) of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ParameterTypeError(f"{name} must be int, got {type(value).__name__}: {value!r}")
    value = int(value)
    if value < minimum:
        raise InvalidParameterError(name, value, f"must be at least {minimum}")
    return value


def check_overlap(
    overlap: object, budget: int, overlap_name: str, budget_name: str, default: int | None = None
) -> int:
    """Return ``overlap`` if it is an int in ``[0, budget)``; overlap must leave room to advance.
    ``default``: the overlap a caller gets without asking (a framework's 200), which the
    error names as such, since the caller may never have set it."""
    value = check_int(overlap_name, overlap, 0)
    if value >= budget:
        hint = f" (the default {overlap_name} is {value}: pass a smaller one)"
        raise InvalidParameterError(
            overlap_name,
            value,
            f"must be smaller than {budget_name}={budget}" + (hint if value == default else ""),
        )
    return value


def check_bool(name: str, value: object) -> bool:
    """Return ``value`` if it is a ``bool`` (``0``, ``None`` or ``"yes"`` are not)."""
    if not isinstance(value, bool):
        raise ParameterTypeError(f"{name} must be bool, got {type(value).__name__}: {value!r}")
    return value
