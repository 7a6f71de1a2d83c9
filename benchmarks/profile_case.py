"""cProfile of one harness case: where the time of one call goes.

    python benchmarks/profile_case.py spansplit-recursive english 1 tokens 512 [OVERLAP]
    python benchmarks/profile_case.py llama-adapter-spansentencenodeparser mixed 8 tokens 256 32

Arguments: a contender key (``run.py --list`` shows them; see ``peers.py``), a text key
(english, chinese, markdown, mixed), its size in MB, the unit (tokens, chars, none), the
budget and the overlap. The splitter is built and warmed up as ``worker.py`` does, then one
call on the whole text is profiled; the top functions by own time and by cumulative time
are printed (``--top N``, default 25).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers
import texts
from worker import WARM_UP_CODE_POINTS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("contender", choices=sorted(peers.BY_KEY))
    parser.add_argument("text", choices=sorted(texts.TEXT_SOURCES))
    parser.add_argument("megabytes", type=float)
    parser.add_argument("unit", choices=("tokens", "chars", "none"))
    parser.add_argument("size", type=int)
    parser.add_argument("overlap", type=int, nargs="?", default=0)
    parser.add_argument("--top", type=int, default=25)
    options = parser.parse_args()

    from spansplit.sizing.tiktoken_loader import load_encoding

    encoding = load_encoding("cl100k_base")
    text = texts.load(texts.TextSpec(options.text, options.text, options.megabytes))
    budget = peers.Budget(options.unit, options.size, options.overlap)
    contender = peers.BY_KEY[options.contender]
    call, _ = contender.build(budget, encoding)
    call(text[:WARM_UP_CODE_POINTS])
    if contender.fresh is not None:
        contender.fresh()
    call, _ = contender.build(budget, encoding)
    profile = cProfile.Profile()
    profile.enable()
    call(text)
    profile.disable()
    stats = pstats.Stats(profile, stream=sys.stdout).strip_dirs()
    stats.sort_stats("tottime").print_stats(options.top)
    stats.sort_stats("cumulative").print_stats(options.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
