"""The exceptions spansplit raises: each names the parameter, value or offset at fault.

Every class derives from :class:`SpansplitError` and from the built-in exception a
caller would expect (``ValueError`` or ``TypeError``), so ``except ValueError`` works.
"""

from __future__ import annotations

from typing import Any


class SpansplitError(Exception):
    """Base class of every error raised on purpose by spansplit.

    Errors pickle whatever their constructor's signature (a worker process reports them
    to its parent): they are rebuilt from their message and attributes.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[SpansplitError], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class InputTypeError(SpansplitError, TypeError):
    """The text to split is not a ``str`` (for ``bytes``: decode it first)."""


class InvalidInputError(SpansplitError, ValueError):
    """The text is a ``str`` but not plain text (a lone surrogate, a NUL byte).

    ``offset`` is the code point offset of the first offending character.
    """

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


class ParameterTypeError(SpansplitError, TypeError):
    """A parameter has the wrong type; the message names the parameter and the value."""


class InvalidParameterError(SpansplitError, ValueError):
    """A parameter has a value no splitter can honour (``overlap >= max_chars`` ...)."""

    def __init__(self, name: str, value: object, reason: str) -> None:
        super().__init__(f"{name}={value!r}: {reason}")
        self.name = name
        self.value = value
        self.reason = reason


class ChunkTooLargeError(SpansplitError, ValueError):
    """One grapheme cluster is larger than the budget, so no split can meet it."""

    def __init__(self, offset: int, size: int, budget: int, unit: str, *, why: str = "") -> None:
        budget_text = f"the budget of {budget} {unit}" + (f" ({why})" if why else "")
        super().__init__(
            f"the grapheme cluster at offset {offset} measures {size} {unit}, "
            f"more than {budget_text}; raise the budget or use another length function"
        )
        self.offset = offset
        self.size = size
        self.budget = budget
        self.unit = unit

    def because(self, why: str) -> ChunkTooLargeError:
        """The same error, saying why the budget is what it is (what took the rest of
        ``chunk_size``)."""
        return ChunkTooLargeError(self.offset, self.size, self.budget, self.unit, why=why)


class TokenizerUnavailableError(SpansplitError, ValueError):
    """A tokenizer was asked for by name but cannot be loaded here (no file, no network)."""


class InconsistentLengthError(SpansplitError, ValueError):
    """The length function's sizes contradict each other, so no cut can meet the budget.

    Packing cuts where the length function says a piece fits and measures every chunk
    again; a chunk that then measures over the budget means the function is not monotonic
    (a longer text measured smaller, or trimming a text made it larger). The chunk's
    offsets and both sizes are named.
    """

    def __init__(self, length: object, start: int, end: int, size: int, budget: int) -> None:
        super().__init__(
            f"length function {length!r} measured the chunk at offsets {start}-{end} as {size}, "
            f"more than chunk_size={budget}, after packing had cut it to fit: its sizes are "
            "not consistent (a longer text must never measure smaller); use a length function "
            "that counts each piece of text the same wherever it appears"
        )
        self.start = start
        self.end = end
        self.size = size
        self.budget = budget


class LengthFunctionError(SpansplitError, ValueError):
    """The length function gave no usable size: a negative number, or a tokenizer that
    cannot encode the text. The message names the length function and the text's size."""


class ExtraNotInstalledError(SpansplitError, ImportError):
    """A feature needs an optional extra that is not installed; the message names it."""

    def __init__(self, feature: str, extra: str, package: str) -> None:
        super().__init__(
            f"{feature} needs the {package!r} package, which is not installed: "
            f"pip install 'spansplit[{extra}]'"
        )
        self.extra = extra


class GrammarUnavailableError(SpansplitError, ValueError):
    """The syntax-tree splitter has no grammar for a language here: tree-sitter or the
    language's grammar wheel is not installed (the message names the extra or package to
    install), or no grammar works offline for it (the message names the separator-table
    splitter instead)."""

    def __init__(self, language: str, message: str) -> None:
        super().__init__(message)
        self.language = language


class WorkerStoppedError(SpansplitError, RuntimeError):
    """A worker process stopped while it split documents (killed by a signal, by the
    kernel when memory ran out, or crashed): the run cannot go on; the message names the
    documents it was given."""
