"""An 8 MB document through spansplit's LlamaIndex parsers and the stock ``SentenceSplitter``.

llama_index#10554 reports ~60 s for one ~8 MB document through the stock
``SentenceSplitter(chunk_size=256, chunk_overlap=32)``. This script builds such a document
from the corpus (English books, Markdown, Chinese, joined and repeated to 8 MB of UTF-8),
runs ``get_nodes_from_documents`` with each parser at the same settings (cl100k_base
tokens), and reports the time, the node count, how many nodes are an exact span of the
document at their offsets, and the largest node in tokens as the embedding model sees it
(``get_content(MetadataMode.EMBED)``: the document's file name is metadata), against the
budget of 256.

Run: ``python benchmarks/bench_llama_index.py [--mb 8] [--skip-stock]`` (corpus from
``$SPANSPLIT_CORPUS``, else ``../shared/corpus`` beside the repository).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from llama_index.core import Document
from llama_index.core.node_parser import NodeParser, SentenceSplitter
from llama_index.core.schema import BaseNode, MetadataMode, TextNode
from llama_index.core.utils import get_tokenizer
from llama_index.node_parser.spansplit import (
    SpanRecursiveNodeParser,
    SpanSentenceNodeParser,
    SpanTokenParagraphNodeParser,
)

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("SPANSPLIT_CORPUS", ROOT.parent / "shared" / "corpus"))
SOURCES = [
    "english_prose/pg2701_moby_dick.txt",
    "english_prose/pg1342_pride_and_prejudice.gitenberg.crlf.txt",
    "english_prose/pg1661_adventures_of_sherlock_holmes.txt",
    "markdown_docs/rust-lang-book/src",
    "chinese/pg23962_xiyouji_journey_to_the_west.txt",
]
CHUNK_SIZE, CHUNK_OVERLAP = 256, 32


def load(megabytes: float) -> str:
    """The corpus texts, read byte-exact, joined and repeated until ``megabytes`` of UTF-8."""
    pieces = []
    for source in SOURCES:
        path = CORPUS / source
        files = sorted(path.glob("*.md")) if path.is_dir() else [path]
        pieces += [f.read_bytes().decode("utf-8") for f in files]
    once = "\n\n".join(pieces)
    target = int(megabytes * 1_000_000)
    text = once * (1 + target // len(once.encode("utf-8")))
    encoded = text.encode("utf-8")[:target]
    return encoded.decode("utf-8", "ignore")


def check(text: str, nodes: Sequence[BaseNode]) -> tuple[int, int]:
    """Nodes whose offsets give their text back, and the largest node in tokens as the
    embedding model sees it (metadata included)."""
    tokens = get_tokenizer()
    exact = sum(
        isinstance(n, TextNode)
        and n.start_char_idx is not None
        and text[n.start_char_idx : n.end_char_idx] == n.text
        for n in nodes
    )
    largest = max((len(tokens(n.get_content(MetadataMode.EMBED))) for n in nodes), default=0)
    return exact, largest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=8.0, help="document size in MB of UTF-8")
    parser.add_argument("--skip-stock", action="store_true", help="skip the stock parser")
    options = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS} (set SPANSPLIT_CORPUS)", file=sys.stderr)
        return 1
    text = load(options.mb)
    document = Document(text=text, metadata={"file_name": "corpus.txt"})
    size = len(text.encode("utf-8")) / 1e6
    print(f"one document: {size:.1f} MB of UTF-8, {len(text):,} code points")
    print(f"chunk_size={CHUNK_SIZE}, chunk_overlap={CHUNK_OVERLAP} (cl100k_base tokens)\n")
    parsers: dict[str, NodeParser] = {
        "SpanRecursiveNodeParser": SpanRecursiveNodeParser(
            chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP
        ),
        "SpanSentenceNodeParser": SpanSentenceNodeParser(
            chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP
        ),
        "SpanTokenParagraphNodeParser": SpanTokenParagraphNodeParser(
            chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP
        ),
    }
    if not options.skip_stock:
        parsers["stock SentenceSplitter"] = SentenceSplitter(
            chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP
        )
    print(
        f"{'parser':30} {'seconds':>8} {'nodes':>8} {'exact offsets':>14} {'max embed tokens':>17}"
    )
    for name, node_parser in parsers.items():
        start = time.perf_counter()
        nodes = node_parser.get_nodes_from_documents([document])
        seconds = time.perf_counter() - start
        exact, largest = check(text, nodes)
        print(f"{name:30} {seconds:8.1f} {len(nodes):8,} {exact:>14,} {largest:17,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
