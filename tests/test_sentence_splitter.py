"""SentenceSplitter (seed 001's ``chunkText``, done right): the seed's flaws shown beside our
fixes, overlap snapped to sentences then words, budgets under real and toy length functions,
Hypothesis properties on generated Unicode, the texts of tests/data and the real corpus."""

from __future__ import annotations

from itertools import pairwise, product

import pytest
from conftest import corpus_path, sample
from hypothesis import given
from hypothesis import strategies as st
from support import LENGTHS, Length, check_chunks, corpus_cases, toy_tokens, unicode_texts

from spansplit import (
    ChunkTooLargeError,
    InvalidParameterError,
    ParameterTypeError,
    SentenceSplitter,
    split_sentences,
)
from spansplit.boundaries.sentences import sentence_spans
from spansplit.compat import chunk_text
from spansplit.sizing import resolve_length


def seed001_chunk_text(text: str, max_chars: int = 500, overlap: int = 0) -> list[str]:
    """Seed 001's ``chunkText``, transcribed from Dart (``lastIndexOf(p, i)`` searches
    backward from ``i`` inclusive, as ``rfind(p, 0, i + 1)`` does)."""
    if not text:
        return []
    if max_chars < 1:
        return [text]
    chunks = []
    start = 0
    while start < len(text):
        end = min(start + max_chars, len(text))
        if end < len(text):
            last_period = text.rfind(".", 0, end + 1)
            if last_period > start:
                end = last_period + 1
        chunk_start = start
        chunks.append(text[start:end].strip())
        start = end
        if overlap > 0 and start < len(text):
            rewound = end - overlap
            start = chunk_start + 1 if rewound <= chunk_start else min(max(rewound, 0), len(text))
    return [chunk for chunk in chunks if chunk]


# --- the seed's flaws, and ours beside them ---------------------------------------------


def ours_for_seed(text: str, max_chars: int, overlap: int = 0) -> list:
    """Our chunks for the seed's call: through ``spansplit.compat.chunk_text`` (the seed's
    names) and the main API, which must agree."""
    chunks = chunk_text(text, max_chars, overlap)
    assert chunks == split_sentences(text, max_chars, overlap)
    return chunks


def test_seed_can_exceed_max_chars_ours_never_does() -> None:
    text = "abcd. efgh. ijkl."
    seed = seed001_chunk_text(text, 4)
    assert seed[0] == "abcd." and len(seed[0]) == 5  # the period at index `end` is taken
    ours = ours_for_seed(text, 4)
    assert ours and all(c.size == len(c.text) <= 4 for c in ours)
    assert "".join(c.text for c in ours).replace(" ", "") == text.replace(" ", "")


def test_seed_breaks_at_any_period_ours_keeps_numbers_and_abbreviations() -> None:
    text = "Pi is 3.14 and Dr. Who is 2.71 years old. Next one."
    assert seed001_chunk_text(text, 18)[0] == "Pi is 3.14 and Dr."  # after an abbreviation
    assert seed001_chunk_text(text, 30)[0] == "Pi is 3.14 and Dr. Who is 2."  # in a number
    assert seed001_chunk_text(text, 9)[0] == "Pi is 3."
    ours = [c.text for c in ours_for_seed(text, 45)]
    assert ours == ["Pi is 3.14 and Dr. Who is 2.71 years old.", "Next one."]


def test_seed_loses_positions_ours_keeps_exact_spans() -> None:
    text = "  First sentence here.   Second one follows.  "
    assert seed001_chunk_text(text, 24) == ["First sentence here.", "Second one follows."]
    ours = ours_for_seed(text, 24)
    assert [(c.start, c.end) for c in ours] == [(2, 22), (25, 44)]
    assert all(text[c.start : c.end] == c.text for c in ours)


def test_seed_accepts_impossible_settings_ours_names_them() -> None:
    assert seed001_chunk_text("some text", 0) == ["some text"]
    with pytest.raises(InvalidParameterError, match=r"chunk_size=0"):
        split_sentences("some text", 0)
    with pytest.raises(
        InvalidParameterError, match=r"chunk_overlap=10: must be smaller than chunk_size=10"
    ):
        split_sentences("some text", 10, 10)
    with pytest.raises(ParameterTypeError, match="chunk_size"):
        split_sentences("some text", "10")  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="chunk_overlap=-1"):
        SentenceSplitter(10, -1)


def test_seed_overlap_rewinds_by_characters_ours_by_whole_sentences() -> None:
    text = "Ant bees. Cat dogs. Eel fish. Gnu hens."
    seed = seed001_chunk_text(text, 19, 7)
    assert seed[1].startswith("t dogs.")  # rewound 7 characters: mid-word
    ours = ours_for_seed(text, 19, 9)
    assert [c.text for c in ours] == [
        "Ant bees. Cat dogs.",
        "Cat dogs. Eel fish.",
        "Eel fish. Gnu hens.",
    ]


# --- behaviour ----------------------------------------------------------------------------


def test_empty_and_blank_texts_give_no_chunks() -> None:
    assert split_sentences("") == []
    assert split_sentences(" \n\t\r\n ") == []


def test_sentences_are_packed_whole() -> None:
    text = "Alpha beta. Gamma delta. Epsilon zeta. Eta theta."
    assert [c.text for c in split_sentences(text, 25)] == [
        "Alpha beta. Gamma delta.",
        "Epsilon zeta. Eta theta.",
    ]


def test_a_long_sentence_is_cut_at_words_then_at_clusters() -> None:
    text = "The quick brown fox jumps over the lazy dog near the riverbank."
    chunks = split_sentences(text, 16)
    assert [c.text for c in chunks] == [
        "The quick brown",
        "fox jumps over",
        "the lazy dog",
        "near the",
        "riverbank.",
    ]
    # A word is cut into even parts (15 + 15 + 15), not 20 + 20 + a runt of 5.
    long_word = "Pneumonoultramicroscopicsilicovolcanoconiosis"
    assert [c.text for c in split_sentences(long_word, 20)] == [
        long_word[:15],
        long_word[15:30],
        long_word[30:],
    ]


def test_a_long_sentence_is_cut_at_clauses_before_words() -> None:
    text = "When the river rose, the post went under, and nobody read it for a week."
    assert [c.text for c in split_sentences(text, 45)] == [
        "When the river rose, the post went under,",
        "and nobody read it for a week.",
    ]


def test_overlap_falls_back_to_words_when_no_sentence_fits() -> None:
    text = "A rather long first sentence goes here. Short one."
    chunks = split_sentences(text, 40, 12)
    assert [c.text for c in chunks] == [
        "A rather long first sentence goes here.",
        "goes here. Short one.",
    ]


def test_overlap_snaps_to_a_sentence_start_when_one_fits() -> None:
    text = " ".join(f"Sentence number {n} is here." for n in range(12))
    starts = {start for start, _ in sentence_spans(text)}
    chunks = split_sentences(text, 90, 30)
    for before, after in pairwise(chunks):
        assert after.start < before.end  # overlap present
        assert after.start in starts
        assert len(text[after.start : before.end]) <= 30


def test_chinese_full_stop_ends_its_chunk_and_never_starts_the_next() -> None:
    # langchain#18770: "。" was moved to the start of the following chunk.
    text = "天青色等烟雨，而我在等你。哈哈哈。月色被打捞起，晕开了结局。"
    chunks = split_sentences(text, 14)
    for chunk in chunks:
        assert not chunk.text.startswith(("。", "！", "？", "」"))
    assert all(c.text.endswith("。") for c in chunks)


def test_closing_quotes_stay_with_their_sentence() -> None:
    text = "他说：「你好。」她笑了。我们走吧！"
    chunks = split_sentences(text, 9)
    assert [c.text for c in chunks] == ["他说：「你好。」", "她笑了。我们走吧！"]


def test_dialogue_is_not_cut_after_a_question_before_lower_case() -> None:
    # UAX #29 ends a sentence at "?\u201d he"; a chunk then started "he cried ...".
    text = (
        "\u201cWhere is the cook?\u201d he cried at length. The cook came. "
        "\u201cFire!\u201d shouted the mate, and all ran."
    )
    chunks = split_sentences(text, 50)
    assert [c.text for c in chunks] == [
        "\u201cWhere is the cook?\u201d he cried at length.",
        "The cook came.",
        "\u201cFire!\u201d shouted the mate, and all ran.",
    ]
    # With UAX #29's sentences the first chunk ended inside the last one, after "\u201cFire!\u201d".
    overlapped = split_sentences(text, 64, 16)
    assert [c.text for c in overlapped] == [
        "\u201cWhere is the cook?\u201d he cried at length. The cook came.",
        "The cook came. \u201cFire!\u201d shouted the mate, and all ran.",
    ]


def test_abbreviations_can_be_turned_off() -> None:
    text = "Mr. Smith arrived. He sat."
    assert [c.text for c in SentenceSplitter(19).split(text)] == ["Mr. Smith arrived.", "He sat."]
    plain = SentenceSplitter(19, abbreviations=()).split(text)
    assert [c.text for c in plain] == ["Mr. Smith arrived.", "He sat."]
    assert [c.text for c in SentenceSplitter(4, abbreviations=()).split("Mr. X")] == ["Mr.", "X"]


def test_one_emoji_over_a_one_token_budget_is_a_clear_error() -> None:
    with pytest.raises(ChunkTooLargeError) as caught:
        split_sentences("👍👍👍", 1, length="cl100k_base")
    assert caught.value.offset == 0
    assert caught.value.size == 3 and caught.value.budget == 1
    assert "offset 0" in str(caught.value) and "cl100k_base tokens" in str(caught.value)


def test_token_budget_holds_with_tiktoken() -> None:
    tokens = resolve_length("cl100k_base")
    text = "Tokens are not characters. " * 40 + "数据很重要，我们要小心处理。" * 20
    chunks = split_sentences(text, 32, 8, length="cl100k_base")
    check_chunks(text, chunks, 32, tokens.count, overlap=8)


# --- properties ------------------------------------------------------------------------------


def chunks_or_error(text: str, chunk_size: int, overlap: int, spec: object) -> list | None:
    try:
        return split_sentences(text, chunk_size, overlap, length=spec)
    except ChunkTooLargeError as error:
        assert error.size > chunk_size
        return None


@given(unicode_texts, st.integers(1, 60), st.data(), st.sampled_from(LENGTHS))
def test_properties(
    text: str, chunk_size: int, data: st.DataObject, length: tuple[object, Length]
) -> None:
    overlap = data.draw(st.integers(0, chunk_size - 1))
    spec, measure = length
    chunks = chunks_or_error(text, chunk_size, overlap, spec)
    if chunks is None:
        return
    check_chunks(text, chunks, chunk_size, measure, overlap=overlap, naive_lines=True)
    assert chunks_or_error(text, chunk_size, overlap, spec) == chunks


# --- the texts of tests/data (also on a clone without the corpus) ----------------------------

SAMPLES = {
    "english": sample("english.txt"),
    "english-crlf-bom": "\ufeff" + sample("english.txt").replace("\n", "\r\n"),
    "chinese": sample("chinese.txt"),
    "markdown": sample("markdown.md"),
    "code": sample("code.py"),
}
CHARACTER_SETTINGS = [(200, 0), (500, 100), (2000, 200)]


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize(("chunk_size", "overlap"), CHARACTER_SETTINGS)
def test_samples_in_characters(name: str, chunk_size: int, overlap: int) -> None:
    text = SAMPLES[name]
    chunks = split_sentences(text, chunk_size, overlap)
    check_chunks(text, chunks, chunk_size, len, overlap=overlap)


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("max_tokens", [64, 512])
def test_samples_in_tokens(name: str, max_tokens: int) -> None:
    text = SAMPLES[name]
    tokens = resolve_length("cl100k_base")
    chunks = split_sentences(text, max_tokens, max_tokens // 8, length=tokens)
    check_chunks(text, chunks, max_tokens, tokens.count, overlap=max_tokens // 8)


@pytest.mark.parametrize("name", SAMPLES)
def test_toy_tokenizer_on_the_samples(name: str) -> None:
    text = SAMPLES[name]
    chunks = split_sentences(text, 60, 12, length=toy_tokens)
    check_chunks(text, chunks, 60, toy_tokens, overlap=12)


# --- the corpus -------------------------------------------------------------------------------

CORPUS_CASES = [
    ("english_prose/pg1661_adventures_of_sherlock_holmes.txt", 200_000),
    ("english_prose/pg84_frankenstein.gitenberg.crlf.txt", 200_000),
    ("chinese/pg23962_xiyouji_journey_to_the_west.txt", 120_000),
    ("mixed/ru-prose/chekhov_dama_s_sobachkoy.txt", 60_000),
    ("mixed/react-docs-parallel/ja/src/content/learn/thinking-in-react.md", 60_000),
    ("mixed/react-docs-parallel/ar/src/content/learn/index.md", 60_000),
    ("markdown_docs/rust-lang-book/src/ch04-01-what-is-ownership.md", 60_000),
]


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("path", "limit", "chunk_size", "overlap"),
    corpus_cases(
        [(*case, *settings) for case, settings in product(CORPUS_CASES, CHARACTER_SETTINGS)]
    ),
)
def test_corpus_in_characters(path: str, limit: int, chunk_size: int, overlap: int) -> None:
    text = corpus_path(path).read_text(encoding="utf-8")[:limit]
    chunks = split_sentences(text, chunk_size, overlap)
    check_chunks(text, chunks, chunk_size, len, overlap=overlap)


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("path", "limit", "max_tokens"),
    corpus_cases([(*case, tokens) for case, tokens in product(CORPUS_CASES[:3], [64, 512])]),
)
def test_corpus_in_tokens(path: str, limit: int, max_tokens: int) -> None:
    text = corpus_path(path).read_text(encoding="utf-8")[: limit // 2]
    tokens = resolve_length("cl100k_base")
    chunks = split_sentences(text, max_tokens, max_tokens // 8, length=tokens)
    check_chunks(text, chunks, max_tokens, tokens.count, overlap=max_tokens // 8)


@pytest.mark.corpus
def test_toy_tokenizer_on_the_corpus() -> None:
    text = corpus_path("english_prose/pg2701_moby_dick.txt").read_text(encoding="utf-8")[:80_000]
    chunks = split_sentences(text, 60, 12, length=toy_tokens)
    check_chunks(text, chunks, 60, toy_tokens, overlap=12)


def test_seed_001_counts_utf16_units_where_asked() -> None:
    """Dart strings count UTF-16 units: six emoji (12 units) need two chunks at
    ``maxChars=8``; ``chunk_text`` counts code points unless given ``length="utf16"`` (and
    cuts a word over the limit into even parts, where the seed fills the first)."""
    text = "😀" * 6
    assert [c.text for c in chunk_text(text, 8)] == [text]
    chunks = chunk_text(text, 8, length="utf16")
    assert [c.text for c in chunks] == ["😀" * 3, "😀" * 3] and [c.size for c in chunks] == [6, 6]
