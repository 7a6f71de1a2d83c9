"""The token index (one tiktoken encoding of a whole text serving every span) against
tiktoken itself: its sync points are pretoken boundaries, its exact counts are exact, its
estimates are close, on adversarial generated text, the texts of tests/data and the real
corpus."""

from __future__ import annotations

import random
from itertools import product

import pytest
import regex
from conftest import corpus_path, sample
from hypothesis import given, settings
from hypothesis import strategies as st
from support import ATOMS as SHARED_ATOMS
from support import corpus_cases

from spansplit.sizing import resolve_length, token_index
from spansplit.sizing import tiktoken as tiktoken_sizing
from spansplit.sizing.base import TextMeasurer
from spansplit.sizing.token_index import SYNC_POINTS, TokenIndexMeasurer

ENCODINGS = ["cl100k_base", "o200k_base"]


def length_for(name: str):  # type: ignore[no-untyped-def]
    try:
        return resolve_length(name)
    except Exception as error:  # o200k_base needs a local copy (llama-index-core has one)
        pytest.skip(f"{name} not available offline here: {error}")


# The shared atoms, and pieces that stress the pretokenizer around line endings:
# punctuation before newlines (".\n\n" is one cl100k pretoken), "/" after newlines (o200k's
# punctuation rule), runs of spaces and newlines, digits, CJK, emoji.
ATOMS = [
    *SHARED_ATOMS,
    "Ab",
    ",",
    "!?",
    "/",
    "//",
    "'s",
    "1",
    "123456",
    "「",
    "👍",
    "-",
    "```",
    "http://x.y/z",
    " \n",
    "\n ",
    ".\n",
    "/\n",
    "\n/",
]
texts = st.lists(st.sampled_from(ATOMS), min_size=1, max_size=80).map("".join)


def pretoken_starts(pattern: str, text: str) -> set[int]:
    """Where the encoding's own pretokenizer (its pattern, run by ``regex``) starts pieces."""
    return {m.start() for m in regex.finditer(pattern, text)}


@pytest.mark.parametrize("name", ENCODINGS)
@settings(max_examples=300)
@given(text=texts)
def test_sync_points_are_pretoken_boundaries(name: str, text: str) -> None:
    encoding = length_for(name).encoding
    starts = pretoken_starts(encoding._pat_str, text)
    for match in SYNC_POINTS[name].finditer(text):
        assert match.end() in starts, (text, match.end())


def indexed(name: str, text: str) -> TokenIndexMeasurer:
    length = length_for(name)
    measurer = TokenIndexMeasurer(length, text, SYNC_POINTS[name])
    return measurer


@pytest.mark.parametrize("name", ENCODINGS)
@settings(max_examples=150)
@given(text=texts, data=st.data())
def test_exact_counts_equal_tiktoken_on_generated_text(
    name: str, text: str, data: st.DataObject
) -> None:
    length = length_for(name)
    measurer = indexed(name, text)
    n = len(text)
    spans = data.draw(
        st.lists(
            st.tuples(st.integers(0, n), st.integers(0, n)).map(lambda p: (min(p), max(p))),
            min_size=1,
            max_size=12,
        )
    )
    expected = [len(length.encoding.encode_ordinary(text[a:b])) for a, b in spans]
    assert measurer.count_spans(spans) == expected


def long_sample(name: str, size: int, *, crlf: bool = False) -> str:
    """A text of tests/data repeated to ``size`` code points (CRLF line endings if asked)."""
    text = sample(name).replace("\n", "\r\n") if crlf else sample(name)
    return (text * (size // len(text) + 1))[:size]


# Texts of tests/data, long enough to be indexed (see INDEX_MIN_CHARS).
SAMPLES = {
    "english": long_sample("english.txt", 60_000),
    "english-crlf": long_sample("english.txt", 60_000, crlf=True),
    "chinese": long_sample("chinese.txt", 40_000),
    "markdown": long_sample("markdown.md", 40_000),
    "code": long_sample("code.py", 40_000),
}

CORPUS_TEXTS = [
    "english_prose/pg1342_pride_and_prejudice.gitenberg.crlf.txt",
    "chinese/pg23962_xiyouji_journey_to_the_west.txt",
    "mixed/ru-prose/gogol_shinel.txt",
    "mixed/unicode-emoji-14.0/emoji-test.txt",
    "commonmark/spec.txt",
    "markdown_docs/rust-lang-reference/src",  # a folder: its files joined
]


def corpus_text(path: str) -> str:
    location = corpus_path(path)
    if location.is_dir():
        return "".join(p.read_text(encoding="utf-8") for p in sorted(location.rglob("*.md")))
    return location.read_text(encoding="utf-8")


def check_exact_counts(name: str, text: str, seed: str) -> None:
    length = length_for(name)
    measurer = length.measurer(text)
    assert isinstance(measurer, TokenIndexMeasurer)
    rng = random.Random(seed)
    spans = []
    for _ in range(300):
        a = rng.randrange(len(text))
        spans.append((a, min(len(text), a + rng.randint(0, 5000))))
    expected = length.count_spans(text, spans)
    assert measurer.count_spans(spans) == expected
    assert max(abs(e - x) for e, x in zip(measurer.sizes(spans, 10**9), expected)) <= 4


@pytest.mark.parametrize("name", ENCODINGS)
@pytest.mark.parametrize("sample_name", SAMPLES)
def test_exact_counts_equal_tiktoken_on_the_samples(name: str, sample_name: str) -> None:
    assert len(SAMPLES[sample_name]) >= token_index.INDEX_MIN_CHARS
    check_exact_counts(name, SAMPLES[sample_name], sample_name)


@pytest.mark.corpus
@pytest.mark.parametrize(("name", "path"), corpus_cases(list(product(ENCODINGS, CORPUS_TEXTS))))
def test_exact_counts_equal_tiktoken_on_the_corpus(name: str, path: str) -> None:
    check_exact_counts(name, corpus_text(path)[:200_000], path)


def check_segments_encode_as_the_whole(text: str) -> None:
    length = length_for("cl100k_base")
    measurer = indexed("cl100k_base", text)
    assert measurer.count_spans([(0, len(text))]) == [length.count(text)]
    assert measurer.sizes([(0, len(text))], 10**9) == [length.count(text)]


@pytest.mark.parametrize("sample_name", SAMPLES)
def test_segments_cut_at_sync_points_encode_as_the_whole_on_the_samples(
    monkeypatch: pytest.MonkeyPatch, sample_name: str
) -> None:
    # Many small segments: the index must still equal one encoding of the whole text.
    monkeypatch.setattr(token_index, "SEGMENT_CHARS", 1000)
    check_segments_encode_as_the_whole(SAMPLES[sample_name])


@pytest.mark.corpus
def test_segments_cut_at_sync_points_encode_as_the_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # Many small segments: the index must still equal one encoding of the whole text.
    monkeypatch.setattr(token_index, "SEGMENT_CHARS", 1000)
    text = corpus_path("english_prose/pg84_frankenstein.gitenberg.crlf.txt").read_text(
        encoding="utf-8"
    )[:60_000]
    check_segments_encode_as_the_whole(text)


def test_short_texts_and_other_lengths_use_the_plain_measurer() -> None:
    length = length_for("cl100k_base")
    assert type(length.measurer("short text")) is TextMeasurer
    chars = resolve_length("chars").measurer("x" * 100_000)
    assert not isinstance(chars, TokenIndexMeasurer)
    assert chars.count(5, 105) == 100  # an offset difference: code points need no index


def check_index_same_with_and_without_numpy(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    # numpy is optional: both ways of building the index give the same token ends.
    text += " <|endoftext|> 👩‍👩‍👧"
    length = length_for("cl100k_base")
    cuts = [0, 15_000, len(text)]
    with_numpy = length.token_ends(text, cuts)
    monkeypatch.setattr(tiktoken_sizing, "optional_numpy", lambda: None)
    without = length.token_ends(text, cuts)
    assert with_numpy == without
    assert len(without) == length.count(text[:15_000]) + length.count(text[15_000:])
    assert without[-1] == len(text)  # every character starts in exactly one token


@pytest.mark.parametrize("sample_name", SAMPLES)
def test_the_index_is_the_same_with_and_without_numpy_on_the_samples(
    monkeypatch: pytest.MonkeyPatch, sample_name: str
) -> None:
    check_index_same_with_and_without_numpy(monkeypatch, SAMPLES[sample_name][:40_000])


@pytest.mark.corpus
def test_the_index_is_the_same_with_and_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    text = corpus_path("chinese/pg23962_xiyouji_journey_to_the_west.txt").read_text(
        encoding="utf-8"
    )[:40_000]
    check_index_same_with_and_without_numpy(monkeypatch, text)


def check_batched_lookups(text: str) -> None:
    # With numpy, a long batch of spans is looked up with searchsorted; one by one, with
    # bisect. Both read the same index and must agree span for span.
    measurer = indexed("cl100k_base", text)
    rng = random.Random(7)
    spans = sorted(
        (a, min(len(text), a + rng.randint(0, 3000))) for a in rng.sample(range(len(text)), 200)
    )
    batched = measurer.sizes(spans, 10**9)
    assert len(spans) >= token_index.VECTOR_MIN_SPANS
    assert batched == [measurer.sizes([span], 10**9)[0] for span in spans]


@pytest.mark.parametrize("sample_name", SAMPLES)
def test_batched_lookups_equal_one_by_one_lookups_on_the_samples(sample_name: str) -> None:
    check_batched_lookups(SAMPLES[sample_name][:50_000])


@pytest.mark.corpus
def test_batched_lookups_equal_one_by_one_lookups() -> None:
    text = corpus_path("english_prose/pg84_frankenstein.gitenberg.crlf.txt").read_text(
        encoding="utf-8"
    )[:50_000]
    check_batched_lookups(text)
