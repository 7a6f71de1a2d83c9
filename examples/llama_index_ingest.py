"""Exact citations in LlamaIndex: documents -> IngestionPipeline -> nodes -> highlighted source.

Runs offline: no embedding model or LLM is called (the "retriever" below counts shared
words; swap in a real index), and token budgets use tiktoken's cl100k_base from a bundled
copy. Every node carries ``start_char_idx``/``end_char_idx`` and ``start_line``/``end_line``
into its document, so a hit can be shown in place, even where the same sentence occurs
twice in a document.

    pip install ".[tiktoken]" ./adapters/llama_index   # from the clone
    python examples/llama_index_ingest.py
"""

from __future__ import annotations

import re

from llama_index.core import Document
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.schema import BaseNode, MetadataMode, TextNode
from llama_index.node_parser.spansplit import SpanSentenceNodeParser

GUIDES = {
    "bees.md": """# Keeping bees

Open the hive on a warm, calm afternoon, when most foragers are out.
Move slowly and keep the smoker lit.

In spring, look for eggs: a queen that lays is a queen that lives.
Add a super when eight of the ten frames are drawn out.

Before winter, leave the bees enough honey: about twenty kilograms.
Move slowly and keep the smoker lit.\r\nA calm beekeeper makes calm bees.
""",
    "compost.md": """# A compost heap

Mix green waste (grass, peelings) with brown waste (leaves, cardboard), about half and half.
Turn the heap every few weeks so that air reaches the middle.

A heap that smells sour is too wet: add brown waste and turn it.
""",
}

WORD = re.compile(r"\w+")
LINE_ENDING = re.compile(r"\r\n|\r|\n")  # the line endings line numbers count (CommonMark)


def overlap(question: str, node: BaseNode) -> int:
    """How many of the question's words a node shares: a stand-in for a real retriever."""
    words = set(WORD.findall(question.lower()))
    return len(words & set(WORD.findall(node.get_content().lower())))


def highlight(text: str, start: int, end: int, first_line: int, last_line: int) -> str:
    """The lines around ``text[start:end]``, numbered, with the span between »«."""
    lines = LINE_ENDING.split(text[:start] + "»" + text[start:end] + "«" + text[end:])
    shown = range(max(1, first_line - 1), min(len(lines), last_line + 1) + 1)
    return "\n".join(f"  {n:3} | {lines[n - 1]}" for n in shown)


def main() -> None:
    documents = [
        Document(text=text, metadata={"file_name": name}, doc_id=name)
        for name, text in GUIDES.items()
    ]
    # Whole sentences, at most 40 cl100k_base tokens per node, metadata included.
    parser = SpanSentenceNodeParser(chunk_size=40, chunk_overlap=0)
    nodes = IngestionPipeline(transformations=[parser]).run(documents=documents)
    print(f"{len(documents)} documents -> {len(nodes)} nodes")
    shown = nodes[1].get_content(MetadataMode.EMBED)
    print(f"what the embedding model sees of a node (no line numbers):\n{shown!r}\n")

    questions = [
        "How should I move near the hive, and keep the smoker?",
        "How much honey should the bees keep before winter?",  # its node repeats a sentence
        "What if the heap smells sour?",
    ]
    for question in questions:
        print(f"Q: {question}")
        best = max(nodes, key=lambda node: overlap(question, node))
        assert isinstance(best, TextNode) and best.start_char_idx is not None
        assert best.end_char_idx is not None and best.ref_doc_id is not None
        source = GUIDES[best.ref_doc_id]
        start, end = best.start_char_idx, best.end_char_idx
        first, last = best.metadata["start_line"], best.metadata["end_line"]
        assert source[start:end] == best.text  # the citation is the node, character for character
        print(f"  {best.ref_doc_id}, lines {first}-{last}, characters {start}-{end}:")
        print(highlight(source, start, end, first, last))
        print()


if __name__ == "__main__":
    main()
