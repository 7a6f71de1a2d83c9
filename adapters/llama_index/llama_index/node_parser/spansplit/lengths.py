"""What a parser's ``length=`` and ``tokenizer=`` become, and how they are saved.

A name (``"chars"``, ``"cl100k_base"``, ``"gpt-4o"``) is kept as it is: it serializes, pickles
and makes a stable ``IngestionPipeline`` cache key. Anything else ``spansplit.resolve_length``
accepts (a tiktoken ``Encoding``, a Hugging Face tokenizer, a callable ``str -> int``, a
``LengthFunction``) becomes a :class:`~spansplit.LengthFunction`, and a LlamaIndex-style
``tokenizer`` (a callable from text to a list of tokens) a :class:`TokenListLength`. Where
such an object stands for a name tiktoken knows, the name is kept instead. Objects cannot be
serialized by value: ``to_dict`` writes them as ``{"length_name": NAME}`` with a NAME that is
the same in every process (no memory address), so cache keys stay stable; ``from_dict``
cannot rebuild them from it and asks for the object again.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Sequence
from typing import Any

from spansplit import LengthFunction, resolve_length
from spansplit.errors import ParameterTypeError
from spansplit.sizing import CODE_POINTS, UTF8_BYTES, UTF16_UNITS, CallableLength
from spansplit.sizing.tiktoken import TiktokenLength
from spansplit.sizing.tiktoken_loader import encoding_names

SAVED_NAME = "length_name"
"""The key of the dict ``to_dict`` writes for a length that only has a name."""


def callable_name(function: Any) -> str:
    """A name for a callable that is the same in every process: module and qualified name,
    the object a method is bound to (its ``name`` or ``name_or_path`` where it has one), and
    the arguments of a ``functools.partial``."""
    if isinstance(function, functools.partial):
        arguments = [repr(argument) for argument in function.args]
        arguments += [f"{key}={value!r}" for key, value in function.keywords.items()]
        return f"partial({', '.join([callable_name(function.func), *arguments])})"
    module = getattr(function, "__module__", None) or type(function).__module__
    qualified = getattr(function, "__qualname__", None) or type(function).__qualname__
    name = f"{module}.{qualified}"
    owner = getattr(function, "__self__", None)
    if owner is not None and not isinstance(owner, types.ModuleType):
        label = getattr(owner, "name", None) or getattr(owner, "name_or_path", None)
        name += f" of {label if isinstance(label, str) and label else type(owner).__qualname__}"
    return name


class TokenListLength(LengthFunction):
    """Tokens as LlamaIndex counts them: ``len(tokenizer(text))``, for the ``tokenizer``
    parsers take (a callable from text to a list, such as ``tiktoken``'s ``encode`` or a
    Hugging Face tokenizer's ``tokenize``). It pickles when the tokenizer does."""

    additive = False

    def __init__(self, tokenizer: Callable[[str], Sequence[Any]], name: str | None = None) -> None:
        if not callable(tokenizer):
            raise ParameterTypeError(
                "tokenizer must be a callable from text to a list of tokens, got "
                f"{type(tokenizer).__name__}: {tokenizer!r:.80}"
            )
        self.tokenizer = tokenizer
        self.name = name or callable_name(tokenizer)
        self.unit = "tokens"

    def count(self, text: str) -> int:
        tokens = self.tokenizer(text)
        if isinstance(tokens, (str, bytes)) or not isinstance(tokens, Sequence):
            raise ParameterTypeError(
                f"tokenizer {self.name!r} must return a list of tokens, got "
                f"{type(tokens).__name__}: {tokens!r:.80}"
            )
        return len(tokens)


def length_setting(value: Any, owner: str) -> Any:
    """``length`` as the parser keeps it: a name (or ``None``) as it is, any other form
    :func:`spansplit.resolve_length` accepts as a ``LengthFunction`` (a name where one
    stands for it). A saved name (``{"length_name": ...}``) cannot be rebuilt: an error
    says to pass the object again."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dict) and SAVED_NAME in value:
        raise ParameterTypeError(
            f"length={value[SAVED_NAME]!r} was saved by name only (a tokenizer or function "
            f"cannot be serialized); pass it again: {owner}.from_dict(data, length=...) or "
            f"{owner}.from_dict(data, tokenizer=...)"
        )
    if callable(value) and not isinstance(value, LengthFunction) and not hasattr(value, "encode"):
        return CallableLength(value, callable_name(value))
    length = resolve_length(value)
    return known_name(length) or length


def known_name(length: LengthFunction) -> str | None:
    """The name that stands for ``length`` where one does: code points, UTF-8, UTF-16, or a
    tiktoken encoding that tiktoken can load by its name."""
    if length in (CODE_POINTS, UTF8_BYTES, UTF16_UNITS):
        return length.name
    if isinstance(length, TiktokenLength) and length.name in encoding_names():
        return length.name
    return None


def saved_length(value: Any) -> Any:
    """``length`` as ``to_dict`` writes it: a name as it is, an object as its stable name."""
    if value is None or isinstance(value, str):
        return value
    return {SAVED_NAME: value.name}


def is_saved_name(value: Any) -> bool:
    """Whether ``value`` is a length ``to_dict`` could only save by name."""
    return isinstance(value, dict) and SAVED_NAME in value
