"""tiktoken's private attributes, read in one module (spansplit.sizing.tiktoken_internals):
a test that fails with the attribute's name when a tiktoken release drops one, and tests
that the public fallbacks give the same counts (only slower)."""

from __future__ import annotations

from array import array

import pytest
from conftest import sample
from support import peak_memory

from spansplit.sizing import tiktoken as counting
from spansplit.sizing import tiktoken_internals as internals
from spansplit.sizing.tiktoken import TiktokenLength
from spansplit.sizing.tiktoken_loader import load_encoding

tiktoken = pytest.importorskip("tiktoken")

FALLBACKS = {
    "Encoding._core_bpe.encode_to_tiktoken_buffer": "encode_ordinary (slower, more memory)",
    "Encoding._mergeable_ranks": "decode_single_token_bytes for every id (seconds, once)",
    "tiktoken.registry.ENCODINGS": "the encoding is loaded again",
    "tiktoken.registry.ENCODING_CONSTRUCTORS": "tiktoken.get_encoding (its cache, then network)",
    "Encoding._pat_str": "no token index: every span is encoded",
}


def test_the_private_attributes_spansplit_reads_are_there() -> None:
    encoding = load_encoding("cl100k_base")
    missing = []
    if internals.buffer_encoder(encoding) is None:
        missing.append("Encoding._core_bpe.encode_to_tiktoken_buffer")
    if not isinstance(getattr(encoding, "_mergeable_ranks", None), dict):
        missing.append("Encoding._mergeable_ranks")
    if internals.pretokenizer_pattern(encoding) is None:
        missing.append("Encoding._pat_str")
    if not isinstance(getattr(tiktoken.registry, "ENCODINGS", None), dict):
        missing.append("tiktoken.registry.ENCODINGS")

    def no_file(url: str, expected: str | None = None) -> dict[bytes, int]:
        raise FileNotFoundError(url)

    if internals.local_constructor("cl100k_base", no_file, no_file) is None:
        missing.append("tiktoken.registry.ENCODING_CONSTRUCTORS")
    assert not missing, (
        f"tiktoken {tiktoken.__version__} no longer has "
        + "; ".join(f"{name} (spansplit now uses {FALLBACKS[name]})" for name in missing)
        + ": update spansplit/sizing/tiktoken_internals.py"
    )


def test_the_buffer_encoder_gives_encode_ordinary_ids() -> None:
    encoding = load_encoding("cl100k_base")
    encode = internals.buffer_encoder(encoding)
    assert encode is not None
    text = "Special <|endoftext|> text counts as text. 漢字 😀"
    assert list(array("I", bytes(encode(text)))) == encoding.encode_ordinary(text)


def hide_private_attributes(monkeypatch: pytest.MonkeyPatch) -> None:
    """tiktoken as if its private attributes were gone."""
    monkeypatch.setattr(counting, "buffer_encoder", lambda encoding: None)
    monkeypatch.setattr(internals, "buffer_encoder", lambda encoding: None)
    monkeypatch.setattr(counting, "_CHAR_STARTS", {})

    class Hidden:
        """The encoding with ``_mergeable_ranks`` hidden."""

        def __init__(self, encoding: object) -> None:
            self._encoding = encoding

        def __getattr__(self, name: str) -> object:
            if name == "_mergeable_ranks":
                raise AttributeError(name)
            return getattr(self._encoding, name)

    real = internals.token_bytes
    monkeypatch.setattr(counting, "token_bytes", lambda encoding: real(Hidden(encoding)))  # type: ignore[arg-type]


def test_without_private_attributes_counts_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    text = sample("english.txt") + sample("chinese.txt") + "😀👍🏽\r\n" * 50
    encoding = load_encoding("cl100k_base")
    cuts = [0, text.index("\nChapter III") + 1, len(text)]
    spans = [(0, 500), (10, 4000), (3000, len(text)), (len(text) - 90, len(text))]
    with_internals = TiktokenLength(encoding)
    ends = with_internals.token_ends(text, cuts)
    sizes = with_internals.measurer(text * 20).count_spans(spans)
    hide_private_attributes(monkeypatch)
    public_only = TiktokenLength(encoding)
    assert public_only.token_ends(text, cuts) == ends
    assert public_only.measurer(text * 20).count_spans(spans) == sizes
    assert len(ends) == len(encoding.encode_ordinary(text)) and ends[-1] == len(text)
    assert sizes == [len(encoding.encode_ordinary((text * 20)[a:b])) for a, b in spans]


def test_a_private_copy_encodes_as_the_encoding() -> None:
    # Pool threads encode with copies of their own (tiktoken is fastest on the first thread
    # that used an Encoding); a copy must give the same tokens.
    encoding = load_encoding("cl100k_base")
    copy = internals.private_copy(encoding)
    assert copy is not None and copy is not encoding and copy.name == encoding.name
    text = sample("english.txt")[:3000] + " <|endoftext|> 漢字 😀\r\n"
    assert copy.encode_ordinary(text) == encoding.encode_ordinary(text)


@pytest.mark.parametrize(
    "text",
    [
        "a" * (internals.BUFFER_COUNT_MIN_CHARS - 1),
        "a" * internals.BUFFER_COUNT_MIN_CHARS,
        sample("english.txt") + sample("chinese.txt") + "😀👍🏽\r\n" * 50,
        "x" + " " * (internals.LONG_WHITESPACE_CHARS + 5) + "y <|endoftext|>",
        "a" * internals.BUFFER_COUNT_MIN_CHARS + "\ud800 lone surrogate",
    ],
    ids=["below-threshold", "at-threshold", "samples", "long-whitespace", "surrogate"],
)
def test_counting_gives_the_length_of_encode_ordinary(text: str) -> None:
    encoding = load_encoding("cl100k_base")
    expected = len(internals.encode_ordinary(encoding, text))
    assert internals.count_ordinary(encoding, text) == expected


def test_counting_a_long_text_holds_no_list_of_ids() -> None:
    # A list of ids takes about 36 bytes a token; the native buffer 4, outside Python.
    length = TiktokenLength(load_encoding("cl100k_base"))
    text = sample("english.txt") * 4
    tokens = length.count(text)
    assert tokens == len(length.encoding.encode_ordinary(text))
    assert peak_memory(lambda: length.count(text)) < tokens


def test_the_token_index_takes_little_more_than_its_own_size() -> None:
    # The ends are summed into the array returned (4 bytes a token); besides that and the
    # copy of each segment tiktoken reads, at most 2 bytes a token (it was 6: a sum, a
    # copy of the sum, and the array made from that copy).
    length = TiktokenLength(load_encoding("cl100k_base"))
    text = "a1 " * 400_000
    third = len(text) // 3
    cuts = [0, third, 2 * third, len(text)]
    ends = length.token_ends(text, cuts)
    assert ends[-1] == len(text) and len(ends) == len(length.encoding.encode_ordinary(text))
    peak = peak_memory(lambda: length.token_ends(text, cuts))
    assert peak <= 4 * len(ends) + len(text) + 2 * len(ends)
