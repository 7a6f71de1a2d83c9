"""Split a real source tree at its syntax: every file, its chunks, their symbol paths.

    python examples/code_tree.py [FOLDER] [--chunk-size 512]

FOLDER defaults to the ``json`` package of the Python standard library on this machine.
Each file's language comes from its extension; files in languages spansplit does not
know are skipped. Budgets are cl100k_base tokens (offline). Needs ``spansplit[code]``.
"""

from __future__ import annotations

import argparse
import json
import sysconfig
from collections import Counter
from pathlib import Path

from spansplit import CodeSplitter, InvalidParameterError, language_for_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = Path(sysconfig.get_paths()["stdlib"]) / "json"
    parser.add_argument("folder", nargs="?", type=Path, default=default)
    parser.add_argument("--chunk-size", type=int, default=512)
    options = parser.parse_args()

    splitters: dict[str, CodeSplitter] = {}
    kinds: Counter[str] = Counter()
    for path in sorted(options.folder.rglob("*")):
        if not path.is_file():
            continue
        try:
            language = language_for_path(path)
        except InvalidParameterError:
            continue  # not a language spansplit knows
        splitter = splitters.get(language)
        if splitter is None:
            splitter = CodeSplitter(
                language, options.chunk_size, length="cl100k_base", fallback="separators"
            )
            splitters[language] = splitter
        text = path.read_text(encoding="utf-8")
        chunks = splitter.split(text)
        print(f"{path.relative_to(options.folder)} ({language}): {len(chunks)} chunks")
        for chunk in chunks:
            assert text[chunk.start : chunk.end] == chunk.text  # every chunk is a span
            symbols = ".".join(chunk.metadata["symbols"]) or "<module>"
            kinds.update(chunk.metadata["node_kinds"])
            first_line = chunk.text.strip().splitlines()[0][:60]
            print(
                f"  lines {chunk.start_line:>4}-{chunk.end_line:<4} {chunk.size:>4} tokens  "
                f"{symbols:<32} {first_line}"
            )
    print("node kinds:", json.dumps(dict(kinds.most_common(6))))


if __name__ == "__main__":
    main()
