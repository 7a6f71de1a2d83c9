"""The sizing layer: every way spansplit measures text, behind one protocol.

:func:`resolve_length` turns what a caller passes as ``length=`` into a
:class:`LengthFunction`: ``None``/``"chars"`` (code points, the default), ``"utf8"``,
``"utf16"``, a tiktoken encoding or model name (``"cl100k_base"``, ``"gpt-4o"``), a
``tiktoken.Encoding``, a Hugging Face tokenizer (anything with ``.encode``) or the path of
its ``tokenizer.json``, a
:class:`LengthFunction`, or any callable ``str -> int``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..errors import ParameterTypeError, TokenizerUnavailableError
from .base import (
    CODE_POINTS,
    UTF8_BYTES,
    UTF16_UNITS,
    CallableLength,
    CodePoints,
    LengthFunction,
    Utf8Bytes,
    Utf16Units,
)

LengthSpec = str | LengthFunction | Callable[[str], int] | Any | None
"""Anything :func:`resolve_length` accepts."""

_BY_NAME: dict[str, LengthFunction] = {
    "chars": CODE_POINTS,
    "codepoints": CODE_POINTS,
    "code_points": CODE_POINTS,
    "utf8": UTF8_BYTES,
    "utf-8": UTF8_BYTES,
    "bytes": UTF8_BYTES,
    "utf16": UTF16_UNITS,
    "utf-16": UTF16_UNITS,
}


def resolve_length(length: LengthSpec = None, parameter: str = "length") -> LengthFunction:
    """The :class:`LengthFunction` for ``length`` (see the module docstring for the forms);
    an error names it as ``parameter`` (an adapter's ``encoding_name``, ``tokenizer``)."""
    if length is None or length is len:
        return CODE_POINTS  # ``len`` of a str counts code points: the same function
    if isinstance(length, LengthFunction):
        return length
    if isinstance(length, str):
        known = _BY_NAME.get(length.lower())
        if known is not None:
            return known
        if length.lower().endswith(".json"):
            path = os.path.expanduser(length)
            if not os.path.isfile(path):
                raise TokenizerUnavailableError(
                    f"{parameter}={length!r}: no such file (a tokenizer.json must be the path "
                    "of an existing file)"
                )
            from .hf import load_tokenizer_file

            return load_tokenizer_file(path)
        from .tiktoken import tiktoken_length

        try:
            return tiktoken_length(length)
        except TokenizerUnavailableError as error:  # named as the parameter it came in
            raise TokenizerUnavailableError(f"{parameter}={length!r}: {error}") from None
    if isinstance(length, os.PathLike):  # a tokenizer.json as a pathlib.Path
        path = os.fspath(length)
        if not isinstance(path, str) or not os.path.isfile(path):
            raise TokenizerUnavailableError(
                f"{parameter}={length!r}: no such file (a tokenizer.json must be the path of an "
                "existing file)"
            )
        from .hf import load_tokenizer_file

        return load_tokenizer_file(path)
    if hasattr(length, "encode_ordinary"):
        from .tiktoken import TiktokenLength

        return TiktokenLength(length)  # type: ignore[arg-type]  # duck-typed Encoding
    if hasattr(length, "encode"):
        from .hf import TokenizerLength

        return TokenizerLength(length)
    if callable(length):
        return CallableLength(length)
    raise ParameterTypeError(
        f"{parameter} must be None, a name such as 'chars', 'utf8', 'utf16' or 'cl100k_base', "
        f"a tokenizer, or a callable str -> int; got {type(length).__name__}: {length!r}"
    )


__all__ = [
    "CODE_POINTS",
    "UTF8_BYTES",
    "UTF16_UNITS",
    "CallableLength",
    "CodePoints",
    "LengthFunction",
    "LengthSpec",
    "Utf8Bytes",
    "Utf16Units",
    "resolve_length",
]
