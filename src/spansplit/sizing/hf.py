"""Token counts with a Hugging Face tokenizer, or with anything that has ``.encode(text)``.

A ``tokenizers.Tokenizer`` counts without the special tokens its post-processor would add
(``add_special_tokens=False``: a chunk's budget is for its own text), without the truncation
and padding it may be saved with (a copy counts), and measures batches with
``encode_batch_fast`` (parallel in Rust). Any other object whose ``encode(text)``
returns a list of ids, or an object with ``.ids``, works too — a ``transformers``
tokenizer, for one: ``add_special_tokens=False`` is passed where the method accepts it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from ..chunk import Span
from ..errors import ParameterTypeError, TokenizerUnavailableError
from .base import LengthFunction

try:
    from tokenizers import Tokenizer
except ImportError:  # only needed to recognise a tokenizers.Tokenizer, to batch its calls
    HAVE_TOKENIZERS = False
else:
    HAVE_TOKENIZERS = True


class TokenizerLength(LengthFunction):
    """Tokens of a Hugging Face tokenizer (or of any object with ``.encode(text)``)."""

    additive = False

    def __init__(self, tokenizer: Any, name: str | None = None) -> None:
        if not callable(getattr(tokenizer, "encode", None)):
            raise ParameterTypeError(
                f"tokenizer must have an encode(text) method, got {type(tokenizer).__name__}"
            )
        self._fast = HAVE_TOKENIZERS and isinstance(tokenizer, Tokenizer)
        self.tokenizer = _whole_counts(tokenizer) if self._fast else tokenizer
        self.name = name or _tokenizer_name(tokenizer)
        self.unit = f"{self.name} tokens"
        self._keyword = True  # whether encode accepts add_special_tokens

    def count(self, text: str) -> int:
        return self._size(self._encode(text))

    def count_spans(self, text: str, spans: Sequence[Span]) -> list[int]:
        if not self._fast or len(spans) < 2:
            return [self.count(text[start:end]) for start, end in spans]
        pieces = [text[start:end] for start, end in spans]
        encode_batch = getattr(self.tokenizer, "encode_batch_fast", self.tokenizer.encode_batch)
        return [len(encoding.ids) for encoding in encode_batch(pieces, add_special_tokens=False)]

    def _encode(self, text: str) -> Any:
        if self._keyword:
            try:
                return self.tokenizer.encode(text, add_special_tokens=False)
            except TypeError as error:
                if "add_special_tokens" not in str(error):
                    raise
                self._keyword = False
        return self.tokenizer.encode(text)

    def _size(self, encoded: Any) -> int:
        ids = getattr(encoded, "ids", encoded)
        if not isinstance(ids, (str, bytes)):
            try:
                return len(ids)
            except TypeError:
                pass
        raise ParameterTypeError(
            f"tokenizer {self.name!r}: encode(text) must return a list of ids or an object "
            f"with .ids, got {type(encoded).__name__}: {encoded!r:.80}"
        )


def _whole_counts(tokenizer: Tokenizer) -> Tokenizer:
    """``tokenizer``, or a copy of it without truncation and padding where it has them: a
    ``tokenizer.json`` saved with a model often truncates to the model's context or pads,
    and a count cut short or padded would let chunks over the budget through."""
    if tokenizer.truncation is None and tokenizer.padding is None:
        return tokenizer
    whole = Tokenizer.from_str(tokenizer.to_str())
    whole.no_truncation()
    whole.no_padding()
    return whole


def _tokenizer_name(tokenizer: Any) -> str:
    """A readable name that tells tokenizers apart: the model path (transformers), else the
    model type and a digest of the tokenizer's JSON (tokenizers): by its type alone, every
    BPE tokenizer was "bpe tokenizer", and a cache keyed by the name (LlamaIndex's
    ``IngestionPipeline``) gave one tokenizer's chunks for another's."""
    path = getattr(tokenizer, "name_or_path", None)
    if isinstance(path, str) and path:
        return path
    model = getattr(tokenizer, "model", None)
    if model is not None:
        return f"{type(model).__name__.lower()} tokenizer {_digest(tokenizer.to_str())}"
    return type(tokenizer).__name__


def _digest(data: str | bytes) -> str:
    """The first 12 hex digits of the SHA-256 of ``data`` (UTF-8 for text)."""
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()[:12]


def load_tokenizer_file(path: str) -> TokenizerLength:
    """The length of a Hugging Face ``tokenizer.json`` file (the ``hf`` extra)."""
    try:
        from tokenizers import Tokenizer as FileTokenizer
    except ImportError as error:
        from ..errors import ExtraNotInstalledError

        raise ExtraNotInstalledError("a tokenizer.json length", "hf", "tokenizers") from error
    try:
        tokenizer = FileTokenizer.from_file(path)
    except Exception as error:  # the tokenizers library raises its own exception types
        raise TokenizerUnavailableError(
            f"length={path!r}: not a tokenizer.json file ({error})"
        ) from error
    with open(path, "rb") as file:
        digest = _digest(file.read())
    return TokenizerLength(tokenizer, name=f"{path.rsplit('/', 1)[-1]} {digest}")
