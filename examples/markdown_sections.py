"""Split a folder of Markdown documentation into citable chunks: section by section, each
chunk with its heading path, its exact span and the span of its section.

    python examples/markdown_sections.py [FOLDER] [--chunk-size 256]

FOLDER defaults to this repository's own documentation (its README files). Each chunk is
printed with its file, lines and heading path; a summary ends the run. Token counts use
cl100k_base, offline. Needs the markdown extra: pip install ".[markdown,tiktoken]" from the clone.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from spansplit import MarkdownSplitter, with_heading_path

ROOT = Path(__file__).resolve().parent.parent


def documents(folder: Path) -> list[Path]:
    """The Markdown files under ``folder`` (the repository's READMEs by default), leaving
    out hidden folders (virtualenvs, caches) and build output."""
    return sorted(
        path
        for path in folder.rglob("*.md")
        if not any(
            part.startswith(".") or part == "build" for part in path.relative_to(folder).parts
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT)
    parser.add_argument("--chunk-size", type=int, default=256)
    parser.add_argument("--show", type=int, default=12, help="chunks printed in full detail")
    options = parser.parse_args()

    splitter = MarkdownSplitter(options.chunk_size, length="cl100k_base", count_heading_path=True)
    total_chunks = total_files = shown = 0
    for path in documents(options.folder):
        text = path.read_bytes().decode("utf-8")
        chunks = splitter.split(text)
        total_files += 1
        total_chunks += len(chunks)
        for chunk in chunks:
            assert text[chunk.start : chunk.end] == chunk.text  # a citation is exact
            embedded = splitter.length.count(with_heading_path(chunk))
            assert embedded <= options.chunk_size  # the path counts against the budget
            if shown < options.show:
                shown += 1
                path_text = " > ".join(h["text"] for h in chunk.metadata["headings"]) or "-"
                start, end = chunk.metadata["section"]
                where = path.relative_to(options.folder)
                print(
                    f"{where}:{chunk.start_line}-{chunk.end_line}  {chunk.size:>3} tokens  "
                    f"[{path_text}]  section {start}-{end}"
                )
    print(
        f"-> {total_files} files, {total_chunks} chunks, every span exact, every chunk "
        f"within {options.chunk_size} cl100k_base tokens with its heading path"
    )


if __name__ == "__main__":
    main()
