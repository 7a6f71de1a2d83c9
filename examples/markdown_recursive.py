"""Recursive splitting with the Markdown preset: chunks that start at headings and fences.

The preset tries separators coarsest first: before an ATX heading, before a code fence,
before a thematic break, then blank lines, lines, spaces and finally grapheme clusters.
Each chunk is printed with its code point span and its lines, and checked against the
source. The same splitter is then shown with a token budget (cl100k_base, offline) and
with seed 004's ``[{"content", "size"}]`` view (``spansplit.compat.content_view``).

    pip install ".[tiktoken]"   # from the clone
    python examples/markdown_recursive.py
"""

from __future__ import annotations

import json

from spansplit import RecursiveSplitter
from spansplit.compat import content_view

GUIDE = """# Growing tomatoes

Tomatoes want sun, warmth and steady water. Start them indoors six to eight weeks
before the last frost, then move them out once the nights stay above ten degrees.

## Sowing

Sow two seeds per pot, half a centimetre deep, and keep the soil moist but not wet.
Seedlings appear after about a week; keep the stronger one of each pair.

```text
week 0   sow
week 1   seedlings
week 6   harden off outdoors
```

## Planting out

Plant deep: bury the stem up to the first true leaves, and roots will grow along it.
Give each plant half a metre of space and a stake or a cage from the first day.

---

## Watering and feeding

Water at the base, in the morning, and a lot rather than often. Once the first fruits
set, feed every two weeks with a fertiliser rich in potassium.

### Common problems

- Split fruit: watering that swings between dry and soaked.
- Black bottoms (blossom end rot): the same, or too little calcium.
- Yellow lower leaves: normal late in the season; remove them.
"""


def show(title: str, splitter: RecursiveSplitter) -> None:
    """Print each chunk with its span, its lines and its size, and check the span."""
    print(f"== {title}")
    for chunk in splitter.split(GUIDE):
        assert GUIDE[chunk.start : chunk.end] == chunk.text  # every chunk is a span
        first_line = chunk.text.splitlines()[0]
        print(
            f"#{chunk.number:<2} [{chunk.start:>4}:{chunk.end:<4}] "
            f"lines {chunk.start_line:>2}-{chunk.end_line:<2} "
            f"{chunk.size:>3} {splitter.length.unit:<18} {first_line[:50]!r}"
        )
    print()


def main() -> None:
    show("Markdown preset, 300 characters", RecursiveSplitter.from_preset("markdown", 300))
    show(
        "Markdown preset, 220 characters, 60 characters of overlap",
        RecursiveSplitter.from_preset("markdown", 220, chunk_overlap=60),
    )
    show(
        "Markdown preset, 48 cl100k_base tokens",
        RecursiveSplitter.from_preset("markdown", 48, length="cl100k_base"),
    )
    print("== seed 004's view, 300 characters (first two chunks)")
    chunks = RecursiveSplitter.from_preset("markdown", 300).split(GUIDE)
    print(json.dumps(content_view(chunks)[:2], ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
