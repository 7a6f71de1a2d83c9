"""Token-budgeted paragraphs (seed 003): the seed's chars-per-token guess beside our real
tokenizer cuts, paragraph packing with the text between paragraphs kept, sentence and word
fallbacks, Hypothesis properties and the real corpus."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

import pytest
from conftest import corpus_path
from hypothesis import given
from hypothesis import strategies as st
from support import check_chunks, toy_tokens, unicode_texts, word_count

from spansplit import (
    ChunkTooLargeError,
    InvalidParameterError,
    TokenParagraphSplitter,
    split_paragraphs,
    split_token_paragraphs,
)
from spansplit.sizing import resolve_length

TOKENS = resolve_length("cl100k_base")


def seed003_split_large_paragraph(
    text: str, max_tokens: int, count_tokens: Callable[[str], int]
) -> list[str]:
    """Seed 003's ``_split_large_paragraph``, as the seed document gives it."""
    chunks: list[str] = []
    sentences = re.split(r"([。！？.!?]+)", text)
    combined = [sentences[i] + sentences[i + 1] for i in range(0, len(sentences) - 1, 2)]
    if len(sentences) % 2 == 1 and sentences[-1].strip():
        combined.append(sentences[-1])
    current, current_tokens = "", 0
    for sentence in combined:
        sentence_tokens = count_tokens(sentence)
        if sentence_tokens > max_tokens:
            if current.strip():
                chunks.append(current.strip())
                current, current_tokens = "", 0
            chars_per_chunk = int(max_tokens * 1.5)
            chunks += [
                sentence[i : i + chars_per_chunk] for i in range(0, len(sentence), chars_per_chunk)
            ]
        elif current_tokens + sentence_tokens > max_tokens:
            if current.strip():
                chunks.append(current.strip())
            current, current_tokens = sentence, sentence_tokens
        else:
            current += sentence
            current_tokens += sentence_tokens
    if current.strip():
        chunks.append(current.strip())
    return chunks


# A Chinese sentence with no punctuation: 43 characters, 68 cl100k tokens.
LONG_CJK = "天青色等烟雨而我在等你炊烟袅袅升起隔江千万里在瓶底书汉隶仿前朝的飘逸就当我为遇见你伏笔"


def test_seed_breaks_the_budget_on_cjk_ours_holds_it() -> None:
    seed = seed003_split_large_paragraph(LONG_CJK + "。", 20, TOKENS.count)
    assert max(TOKENS.count(chunk) for chunk in seed) > 20  # 30 characters are ~49 tokens
    ours = split_token_paragraphs(LONG_CJK + "。", 20)
    assert ours and all(c.size == TOKENS.count(c.text) <= 20 for c in ours)
    assert "".join(c.text for c in ours) == LONG_CJK + "。"


def test_seed_loses_positions_ours_keeps_them() -> None:
    text = "第一段。\n\n  Second paragraph here.  \n\n第三段。"
    chunks = split_token_paragraphs(text, 5)
    assert all(text[c.start : c.end] == c.text for c in chunks)
    assert [c.start_line for c in chunks] == [1, 3, 5]


def test_paragraphs_are_packed_with_the_text_between_them() -> None:
    text = "Alpha one.\n\nBeta two.\n\n\n  Gamma three.\n\nDelta four."
    chunks = split_token_paragraphs(text, 12)
    assert [c.text for c in chunks] == [
        "Alpha one.\n\nBeta two.\n\n\n  Gamma three.",
        "Delta four.",
    ]
    assert chunks[0].size == TOKENS.count(chunks[0].text) <= 12
    assert (chunks[0].start_line, chunks[0].end_line) == (1, 6)


def test_a_paragraph_over_the_budget_is_split_at_sentences_on_its_own() -> None:
    small = "Short intro."
    big = "一二三四五六七八九十。" * 6 + "This is English. And more English here!"
    text = f"{small}\n\n{big}\n\nShort outro."
    chunks = split_token_paragraphs(text, 30)
    check_chunks(text, chunks, 30, TOKENS.count)
    assert chunks[0].text == small  # the split paragraph never joins its neighbours
    assert chunks[-1].text == "Short outro."
    for chunk in chunks[1:-1]:
        assert chunk.text.endswith(("。", ".", "!"))  # sentence boundaries


def test_chinese_full_stop_ends_its_chunk_and_never_starts_the_next() -> None:
    # langchain#18770
    text = "天青色等烟雨，而我在等你。哈哈哈。月色被打捞起，晕开了结局。如传世的青花瓷自顾自美丽。"
    chunks = split_token_paragraphs(text, 24)
    assert len(chunks) > 1
    for chunk in chunks:
        assert chunk.text.endswith("。")
        assert not chunk.text.startswith(("。", "，"))


def test_one_emoji_over_a_one_token_budget_is_a_clear_error() -> None:
    with pytest.raises(ChunkTooLargeError) as caught:
        split_token_paragraphs("👍" * 50, 1)
    error = caught.value
    assert (error.offset, error.size, error.budget) == (0, 3, 1)
    assert "offset 0" in str(error) and "3 cl100k_base tokens" in str(error)


def test_special_token_text_is_ordinary_text() -> None:
    text = "before <|endoftext|> after\n\n<|fim_prefix|> more"
    chunks = split_token_paragraphs(text, 8)
    check_chunks(text, chunks, 8, TOKENS.count)


def test_invalid_parameters_are_named() -> None:
    with pytest.raises(InvalidParameterError, match="max_tokens=0"):
        TokenParagraphSplitter(0)
    with pytest.raises(InvalidParameterError, match="overlap=5: must be smaller than max_tokens=5"):
        TokenParagraphSplitter(5, overlap=5)


def test_overlap_repeats_trailing_sentences() -> None:
    text = "One fish. Two fish. Red fish. Blue fish. Old fish. New fish."
    chunks = split_token_paragraphs(text, 9, overlap=3)
    check_chunks(text, chunks, 9, TOKENS.count, overlap=3)
    assert all(b.start < a.end for a, b in pairwise(chunks))


def test_without_a_tokenizer_any_length_works() -> None:
    text = "\n\n".join(p.text for p in split_paragraphs("a b c\n\nd e f g h i j\n\nk"))
    chunks = split_token_paragraphs(text, 4, length=word_count)
    assert [c.text for c in chunks] == ["a b c", "d e f g", "h i j", "k"]


# --- properties ---------------------------------------------------------------------------


@given(unicode_texts, st.integers(1, 40), st.sampled_from(["cl100k_base", toy_tokens, "utf8"]))
def test_properties(text: str, max_tokens: int, spec: object) -> None:
    measure = resolve_length(spec)
    try:
        chunks = split_token_paragraphs(text, max_tokens, length=spec)
    except ChunkTooLargeError as error:
        assert error.size > max_tokens
        return
    check_chunks(text, chunks, max_tokens, measure.count, naive_lines=True)
    assert split_token_paragraphs(text, max_tokens, length=spec) == chunks


# --- the corpus -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "limit"),
    [
        ("english_prose/pg2701_moby_dick.txt", 150_000),
        ("english_prose/pg1342_pride_and_prejudice.gitenberg.crlf.txt", 150_000),
        ("chinese/pg23962_xiyouji_journey_to_the_west.txt", 60_000),
        ("chinese/trpl-zh-cn/src/ch04-01-what-is-ownership.md", 60_000),
        ("mixed/ru-prose/gogol_shinel.txt", 60_000),
        ("mixed/react-docs-parallel/ko/src/content/learn/thinking-in-react.md", 60_000),
        ("mixed/crlf/semchunk_CHANGELOG.crlf.md", 60_000),
    ],
)
@pytest.mark.parametrize(("max_tokens", "overlap"), [(64, 0), (256, 32), (512, 0)])
def test_corpus(path: str, limit: int, max_tokens: int, overlap: int) -> None:
    text = corpus_path(path).read_text(encoding="utf-8")[:limit]
    chunks = split_token_paragraphs(text, max_tokens, overlap=overlap)
    check_chunks(text, chunks, max_tokens, TOKENS.count, overlap=overlap or None)
    # Every paragraph boundary inside a chunk keeps the source text between paragraphs.
    assert all(text[c.start : c.end] == c.text for c in chunks)
