"""What every splitter shares: input checks, line numbers and the making of ``Chunk``s.

A splitter is a small configured object. :class:`Splitter` turns the ``(start, end,
size)`` spans that a subclass finds in one validated text into chunks; a
:class:`BudgetedSplitter` is only a :class:`~spansplit.config.ChunkConfig` and a
:class:`~spansplit.packing.Structure` (boundary levels), and packing does the rest.
Splitters are plain objects of picklable parts, so process pools and Ray can ship them.
"""

from __future__ import annotations

import gc
import inspect
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from ..chunk import Chunk, SizedSpan
from ..config import ChunkConfig
from ..errors import InputTypeError
from ..lines import LineIndex
from ..packing import Structure, pack
from ..sizing import LengthSpec
from ..sizing.base import LengthFunction
from ..validate import check_text

_P = ParamSpec("_P")
_R = TypeVar("_R")


class _CollectorPause:
    """The cyclic garbage collector paused while any split runs, in any thread.

    Splitting allocates many small objects that live until it returns; the collector's
    passes over them grow with the size of the text (a 16 MB text spent a third of its
    time in them) and find nothing to free. The collector is global, so pauses are
    counted: the first split to start disables it (if it was enabled) and the last one to
    finish enables it again, only if the first one found it enabled.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = 0
        self._was_enabled = False

    def __enter__(self) -> None:
        with self._lock:
            if self._active == 0:
                self._was_enabled = gc.isenabled()
                if self._was_enabled:
                    gc.disable()
            self._active += 1

    def __exit__(self, *exc_info: object) -> None:
        with self._lock:
            self._active -= 1
            if self._active == 0 and self._was_enabled:
                gc.enable()


COLLECTOR_PAUSE = _CollectorPause()


def gc_paused(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``function`` with the cyclic garbage collector paused (see :class:`_CollectorPause`).

    Reference counting frees as usual, and any cycle is collected once the collector runs
    again.
    """

    @wraps(function)
    def paused(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with COLLECTOR_PAUSE:
            return function(*args, **kwargs)

    return paused


_MADE: SizedSpan = (0, 0, 0)
"""What :func:`make_chunks` leaves in a list of spans in place of each span it has used."""


def make_chunks(
    text: str,
    spans: Iterable[SizedSpan],
    kind: str | Sequence[str] = "text",
    *,
    source: int = 0,
    first_index: int = 0,
    oversized: Container[int] = (),
    metadata: Sequence[Mapping[str, Any]] | Callable[[int, int], Mapping[str, Any]] | None = None,
) -> list[Chunk]:
    """Chunks for ``spans`` of ``text``, numbered from ``first_index``, with line numbers.

    ``kind`` is one kind for all chunks or one per span; ``oversized`` holds the positions
    (in ``spans``) of chunks allowed over their budget by contract (paging blocks);
    ``metadata`` is one mapping per span, for structure-aware splitters, or a function of
    a span's start and end that makes it as its chunk is made (a chunk keeps a copy: made
    all first, the mappings were held twice, 18 times the text in chunks of 24 characters).
    A list of ``spans`` is used up: each entry is dropped once its chunk is made (kept to
    the end, the tuples took four times the text in chunks of 24 characters).
    """
    spans = spans if isinstance(spans, list) else list(spans)
    lines = LineIndex(text).spans_lines((start, end) for start, end, _ in spans)
    kinds: Sequence[str] = [kind] * len(spans) if isinstance(kind, str) else kind
    # Where a chunk starts at the previous one's end, both hold one int (28 bytes a chunk).
    starts = [start for start, _, _ in spans]
    for position in range(1, len(spans)):
        if starts[position] == spans[position - 1][1]:
            starts[position] = spans[position - 1][1]
    chunks: list[Chunk] = []
    for position, ((start, end, size), (first, last)) in enumerate(zip(spans, lines)):
        chunks.append(
            Chunk(
                text[start:end],
                starts[position],
                end,
                first_index + position,
                first,
                last,
                size,
                kinds[position],
                source,
                position in oversized,
                None
                if metadata is None
                else metadata(start, end)
                if callable(metadata)
                else metadata[position],
            )
        )
        spans[position] = _MADE  # (its tuple is freed as its chunk is made)
    return chunks


class Splitter(ABC):
    """A configured splitter: :meth:`split` returns the chunks of one text, in order."""

    kind: str = "text"

    @abstractmethod
    def spans(self, text: str) -> list[SizedSpan]:
        """``(start, end, size)`` of each chunk of ``text``, already validated."""

    def _chunks(self, text: str, source: int, first_index: int) -> list[Chunk]:
        """The chunks of one validated text; ``source`` and ``first_index`` as in
        :func:`make_chunks`."""
        return make_chunks(
            text, self.spans(text), self.kind, source=source, first_index=first_index
        )

    @gc_paused
    def split(self, text: str) -> list[Chunk]:
        """The chunks of ``text``; ``chunk.text == text[chunk.start:chunk.end]`` for each."""
        return self._chunks(check_text(text), 0, 0)

    @gc_paused
    def split_texts(self, texts: Sequence[str]) -> list[Chunk]:
        """Chunks of several texts in one list; ``chunk.source`` is the text's position."""
        if isinstance(texts, str):
            raise InputTypeError(
                "texts must be a sequence of str (a list or tuple), got a single str: "
                "split() takes one text, or pass [text]"
            )
        if isinstance(texts, (bytes, bytearray, memoryview)):
            raise InputTypeError(
                f"texts must be a sequence of str (a list or tuple), got "
                f"{type(texts).__name__}: decode it first and pass [texts.decode('utf-8')]"
            )
        if not isinstance(texts, Sequence):
            raise InputTypeError(
                f"texts must be a sequence of str (a list or tuple), got {type(texts).__name__}"
            )
        chunks: list[Chunk] = []
        for source, text in enumerate(texts):
            check_text(text, f"texts[{source}]")
            chunks += self._chunks(text, source, len(chunks))
        return chunks

    def split_text(self, text: str) -> list[str]:
        """Only the chunk texts, for callers that need plain strings."""
        return [chunk.text for chunk in self.split(text)]

    def __repr__(self) -> str:
        """The class and its settings: those it needs, the sizes and length, and any other
        that is not its default."""
        shown = []
        for name, parameter in inspect.signature(type(self).__init__).parameters.items():
            if name == "self" or not hasattr(self, name):
                continue
            value = getattr(self, name)
            always = name in ("chunk_overlap", "length") or parameter.default is parameter.empty
            if always or value != parameter.default:
                shown.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"


class BudgetedSplitter(Splitter):
    """A splitter that is only configuration: a :class:`ChunkConfig` (``chunk_size``,
    ``chunk_overlap``, ``length``, ``strip_whitespace``) and the :class:`Structure` that
    a subclass builds from its own settings; :func:`pack` does the rest.
    """

    structure: Structure
    """The boundary levels of this splitter's settings (set by the subclass)."""

    def __init__(
        self,
        chunk_size: int,
        chunk_overlap: int = 0,
        *,
        length: LengthSpec = None,
        strip_whitespace: bool = True,
    ) -> None:
        self.config = ChunkConfig(chunk_size, chunk_overlap, length, strip_whitespace)

    @property
    def chunk_size(self) -> int:
        """Largest size of a chunk, in the unit of :attr:`length`."""
        return self.config.chunk_size

    @property
    def chunk_overlap(self) -> int:
        """Most trailing context a chunk repeats from the one before it."""
        return self.config.chunk_overlap

    @property
    def length(self) -> LengthFunction:
        """How sizes are measured."""
        return self.config.length

    @property
    def strip_whitespace(self) -> bool:
        """Whether chunks are trimmed (their spans follow the trimmed text)."""
        return self.config.strip_whitespace

    def spans(self, text: str) -> list[SizedSpan]:
        return pack(text, self.structure, self.config)
