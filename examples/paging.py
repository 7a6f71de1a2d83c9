"""Page through a document in structure-aware blocks, and record what each page covered.

Blocks tile the text: every character is in exactly one block, so an app that stores each
block's ``start``/``end`` knows exactly which part of the document a model has seen.
Headings and thematic breaks start a block, blank lines end one, and other lines are cut
only when a block would grow past the target; a single line longer than the target is a
block of its own (``oversized``).

Run: ``python examples/paging.py``
"""

from __future__ import annotations

from spansplit import page, split_blocks

DOCUMENT = """\
# Field notes

The survey started at dawn. We counted birds along the river,
walked the north trail and stopped at the old bridge.

## Morning

Fog lay on the water until nine. Herons stood in the shallows,
and a kingfisher crossed twice.

```text
# tally (a comment in a code block, not a heading)
heron       4
kingfisher  2
```

## Afternoon
Wind from the west. The count slowed down.

---
Notes after the break: bring a second notebook next time; the first one filled up \
before noon, because every page went to one long list of sightings, written as a \
single line.
"""


def main() -> None:
    blocks = split_blocks(DOCUMENT, chunk_size=160)
    assert "".join(block.text for block in blocks) == DOCUMENT  # blocks tile the text

    offset: int | None = 0
    covered: list[tuple[int, int]] = []
    while offset is not None:
        current = page(blocks, offset, 3)
        print(f"page starting at block {offset + 1}:")
        for block in current.items:
            lines = f"lines {block.start_line}-{block.end_line}"
            flag = "  (one line over the target)" if block.oversized else ""
            print(
                f"  #{block.number} {block.kind:<7} chars {block.start}-{block.end} "
                f"{lines}, {block.size} chars{flag}"
            )
            first_line = block.text.strip().splitlines()[0] if block.text.strip() else ""
            print(f"      {first_line[:60]!r}")
            covered.append((block.start, block.end))
        offset = current.next_offset

    print(f"{len(blocks)} blocks cover characters 0-{covered[-1][1]} of {len(DOCUMENT)}")


if __name__ == "__main__":
    main()
