"""Length functions: how big a piece of text is, in one unit (code points, bytes, tokens ...).

Every splitter takes one :class:`LengthFunction`; the packing layer is the only caller. A
length function knows nothing of where boundaries are. Fast paths (batch measuring,
token offsets) live here, behind the narrow interface below.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from ..chunk import Span
from ..errors import LengthFunctionError, ParameterTypeError


class LengthFunction(ABC):
    """Measures text in one unit.

    ``additive`` is true when ``count(a + b) == count(a) + count(b)`` for all texts, which
    lets the packer add sizes instead of measuring again (code points, UTF-8, UTF-16);
    tokenizers are not additive, so the packer verifies every chunk with :meth:`count`.
    """

    name: str = "custom"
    unit: str = "units"
    additive: bool = False

    @abstractmethod
    def count(self, text: str) -> int:
        """Size of ``text`` in this function's unit."""

    def __call__(self, text: str) -> int:
        return self.count(text)

    def count_spans(self, text: str, spans: Sequence[Span]) -> list[int]:
        """Sizes of ``text[start:end]`` for each span; override to batch or to avoid slicing."""
        count = self.count
        return [count(text[start:end]) for start, end in spans]

    def count_spans_capped(self, text: str, spans: Sequence[Span], cap: int) -> list[int]:
        """Like :meth:`count_spans`, but any size over ``cap`` may be reported as any value
        over ``cap``: the packer only needs to know that such a piece is too big, and a
        tokenizer can tell that from the start of a long piece without encoding all of it."""
        return self.count_spans(text, spans)

    def prefix_hint(self, text: str, start: int, end: int, budget: int) -> int | None:
        """A code point count ``k`` where ``text[start:start + k]`` is about ``budget`` units.

        Only a hint for the hard cut, which snaps it to a grapheme boundary and measures
        it with :meth:`count`; it must look at O(k) text, not all of ``text[start:end]``.
        ``None`` means "no fast way": the hard cut gallops and binary-searches instead.
        """
        return None

    def counts_code_points(self, text: str) -> bool:
        """Whether every span of ``text`` measures its number of code points, so that sizes
        are offset differences and packing may use the code point fast paths."""
        return False

    def measurer(self, text: str) -> TextMeasurer:
        """A :class:`TextMeasurer` for spans of ``text``; a tokenizer may index it once."""
        if self.counts_code_points(text):
            return _OffsetMeasurer(self, text)
        return TextMeasurer(self, text)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class TextMeasurer:
    """Measures spans of one text with one length function: what the packer calls.

    ``sizes`` may estimate (packing decisions only need to be close: every chunk is then
    measured exactly); ``count`` and ``count_spans`` are exact. This default measures each
    span; a tokenizer can answer from one encoding of the whole text instead.
    """

    cheap_sizes = False
    """Whether ``sizes`` answers far faster than ``count`` (from an index), so that
    estimates are worth making just to guide a search."""

    def __init__(self, length: LengthFunction, text: str) -> None:
        self.length = length
        self.text = text

    def prepare(self) -> None:
        """Start what can be done ahead (a tokenizer's index of the text) while the caller
        reads the text's structure; nothing for this measurer."""

    def release(self) -> None:
        """Cancel what :meth:`prepare` started and nothing has needed (a blank text, an
        error); nothing for this measurer."""

    def sizes(self, spans: Sequence[Span], cap: int) -> list[int]:
        """Sizes of the spans for packing: exact or close; any size over ``cap`` may be
        reported as any value over ``cap``."""
        return self.length.count_spans_capped(self.text, spans, cap)

    def count_spans(self, spans: Sequence[Span]) -> list[int]:
        """Exact sizes of the spans."""
        return self.length.count_spans(self.text, spans)

    def estimated_fit(self, starts: Sequence[int], end: int, room: int) -> int:
        """The first of ``starts`` (ascending, so estimates fall) whose estimated size of
        ``text[start:end]`` is at most ``room``, or the last one if none is."""
        low, high = 0, len(starts) - 1
        while low < high:
            middle = (low + high) // 2
            if self.sizes([(starts[middle], end)], room + 1)[0] <= room:
                high = middle
            else:
                low = middle + 1
        return low

    def reach_back(self, end: int, size: int) -> int:
        """An offset before which no ``text[start:end]`` measures ``size`` or less (0 when
        the measurer cannot tell cheaply): searches for a short suffix may start there."""
        return 0

    def count(self, start: int, end: int) -> int:
        """Exact size of ``text[start:end]``."""
        return self.length.count(self.text[start:end])


class PartMeasurer(TextMeasurer):
    """Measures a part of a text, ``text[base:base + len(part)]``, with a measurer of the
    whole text: offsets in the part, shifted by ``base``. Parts of one text measured this
    way share its token index, so a span's estimate is the one packing the whole text
    makes (an index of the part alone would estimate differently near its start)."""

    def __init__(self, whole: TextMeasurer, base: int, part: str) -> None:
        super().__init__(whole.length, part)
        self.whole = whole
        self.base = base
        self.cheap_sizes = whole.cheap_sizes

    def _shifted(self, spans: Sequence[Span]) -> list[Span]:
        base = self.base
        return [(start + base, end + base) for start, end in spans]

    def sizes(self, spans: Sequence[Span], cap: int) -> list[int]:
        return self.whole.sizes(self._shifted(spans), cap)

    def count_spans(self, spans: Sequence[Span]) -> list[int]:
        return self.whole.count_spans(self._shifted(spans))

    def estimated_fit(self, starts: Sequence[int], end: int, room: int) -> int:
        base = self.base
        return self.whole.estimated_fit([start + base for start in starts], end + base, room)

    def reach_back(self, end: int, size: int) -> int:
        return max(0, self.whole.reach_back(end + self.base, size) - self.base)

    def count(self, start: int, end: int) -> int:
        return self.whole.count(start + self.base, end + self.base)


class CodePoints(LengthFunction):
    """Python ``len``: Unicode code points, the unit of spansplit's offsets."""

    name = "chars"
    unit = "code points"
    additive = True

    def count(self, text: str) -> int:
        return len(text)

    def count_spans(self, text: str, spans: Sequence[Span]) -> list[int]:
        return [end - start for start, end in spans]

    def prefix_hint(self, text: str, start: int, end: int, budget: int) -> int | None:
        return min(budget, end - start)

    def counts_code_points(self, text: str) -> bool:
        return True


class _OffsetMeasurer(TextMeasurer):
    """Sizes that are offset differences (code points; UTF-8 bytes of ASCII text, UTF-16
    units of text within the BMP): nothing is sliced to count them."""

    def sizes(self, spans: Sequence[Span], cap: int) -> list[int]:
        return [end - start for start, end in spans]

    def count_spans(self, spans: Sequence[Span]) -> list[int]:
        return [end - start for start, end in spans]

    def count(self, start: int, end: int) -> int:
        return end - start


class Utf8Bytes(LengthFunction):
    """UTF-8 bytes, as storage limits and most non-Python runtimes count."""

    name = "utf8"
    unit = "UTF-8 bytes"
    additive = True

    def count(self, text: str) -> int:
        return len(text.encode("utf-8"))

    def prefix_hint(self, text: str, start: int, end: int, budget: int) -> int | None:
        head = text[start : min(end, start + budget)].encode("utf-8")
        return len(head[:budget].decode("utf-8", "ignore"))

    def counts_code_points(self, text: str) -> bool:
        return text.isascii()  # one byte each


class Utf16Units(LengthFunction):
    """UTF-16 code units, as JavaScript's ``string.length`` counts (seed 000 is TypeScript)."""

    name = "utf16"
    unit = "UTF-16 code units"
    additive = True

    def count(self, text: str) -> int:
        return len(text.encode("utf-16-le")) // 2

    def prefix_hint(self, text: str, start: int, end: int, budget: int) -> int | None:
        head = text[start : min(end, start + budget)].encode("utf-16-le")
        return len(head[: 2 * budget].decode("utf-16-le", "ignore"))

    def counts_code_points(self, text: str) -> bool:
        return not text or max(text) < "\U00010000"  # one unit each within the BMP


class CallableLength(LengthFunction):
    """Any callable ``str -> int``, e.g. a word counter; assumed not additive."""

    def __init__(self, function: Callable[[str], int], name: str | None = None) -> None:
        self.function = function
        self.name = name or str(getattr(function, "__name__", "custom"))

    def count(self, text: str) -> int:
        size = self.function(text)
        if isinstance(size, bool) or not isinstance(size, int):
            raise ParameterTypeError(
                f"length function {self.name!r} must return a non-negative int, "
                f"got {size!r} for a text of {len(text)} code points"
            )
        if size < 0:
            raise LengthFunctionError(
                f"length function {self.name!r} must return a non-negative int, "
                f"got {size!r} for a text of {len(text)} code points"
            )
        return size


CODE_POINTS = CodePoints()
UTF8_BYTES = Utf8Bytes()
UTF16_UNITS = Utf16Units()
