"""Boundary levels: how a structure offers places to cut, coarsest first.

A level is any callable ``level(text, start, end) -> list[Span]`` that returns the pieces
of the region ``text[start:end]`` at one structure (paragraphs, sentences, words, a
separator ...), in order. Levels know nothing of sizes; packing asks a level for the
pieces of a region only when that region is over budget. Levels are module-level
functions or frozen dataclasses, so splitters that hold them pickle. A level whose
structure nests (sections within sections, items within lists) sets ``recursive = True``:
packing then tries it again on its own pieces before the next level.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..chunk import Span

Level = Callable[[str, int, int], list[Span]]
"""The pieces of ``text[start:end]`` at one structure, in order."""

StartsLevel = Callable[[str, int, int], list[int]]
"""Where a chunk's overlap may start at one structure (sentences, clauses, words):
``starts(text, low, end)`` gives the starts in ``[low, end)``, ascending, looking at the
text before ``low`` as much as the structure needs."""

LeadTest = Callable[[str, int, int], bool]
"""Whether the piece ``text[start:end]`` goes with the piece after it rather than end a
chunk, as a heading line does (a comment above code: see ``Structure.lead_pieces``)."""


def is_recursive(level: Level) -> bool:
    """Whether ``level`` splits its own pieces again (nested structure)."""
    return getattr(level, "recursive", False) is True


def cut_anywhere(level: Level) -> bool | None:
    """For the finest levels, which cut anywhere they allow (grapheme clusters, line-break
    opportunities): whether they cut at line-break opportunities (``True``) or at any
    cluster boundary (``False``); ``None`` for every other level. Packing does not ask
    such a level for its pieces (one per character) but cuts where the budget is reached."""
    found = getattr(level, "cut_anywhere", None)
    return found if isinstance(found, bool) else None


def splits(parts: list[Span], start: int, end: int) -> bool:
    """Whether ``parts`` (a level's answer for ``[start, end)``) found a boundary in it."""
    return len(parts) > 1 or (len(parts) == 1 and parts[0] != (start, end))


@dataclass(frozen=True, slots=True)
class FirstSplit:
    """The pieces of a region at the coarsest of ``levels`` that finds a boundary in it
    (the whole region when none does): where overlap may start inside a piece."""

    levels: tuple[Level, ...]

    def __call__(self, text: str, start: int, end: int) -> list[Span]:
        for level in self.levels:
            occurs = getattr(level, "occurs", None)
            if occurs is not None and not occurs(text, start, end):
                continue  # cheaply known to be absent: one part
            parts = level(text, start, end)
            if splits(parts, start, end):
                return parts
        return [(start, end)]
