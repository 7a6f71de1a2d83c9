"""ParagraphSplitter (seed 003's token-limited paragraphs, done right): the seed's
chars-per-token guess beside our real tokenizer cuts, paragraph packing with the text between
paragraphs kept, sentence and word fallbacks, Hypothesis properties, the texts of tests/data
and the real corpus.

Most tests count cl100k_base tokens, as seed 003 did: ``length=CL100K`` is passed, since
``ParagraphSplitter`` counts code points by default (``spansplit.compat.split_token_paragraphs``
keeps the seed's names and its cl100k_base default)."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise, product

import pytest
from conftest import corpus_path, sample
from hypothesis import given
from hypothesis import strategies as st
from support import (
    check_chunks,
    corpus_cases,
    memory_beyond_result,
    toy_tokens,
    unicode_texts,
    word_count,
)

from spansplit import (
    Chunk,
    ChunkTooLargeError,
    InvalidParameterError,
    ParagraphSplitter,
    split_paragraphs,
)
from spansplit.boundaries.paragraphs import code_line_starts, looks_like_code
from spansplit.compat import PlainParagraphSplitter, split_token_paragraphs
from spansplit.sizing import resolve_length

CL100K = "cl100k_base"
TOKENS = resolve_length(CL100K)


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


def ours_for_seed(text: str, max_tokens: int) -> list[Chunk]:
    """Our chunks for the seed's call: through ``spansplit.compat.split_token_paragraphs``
    (the seed's names, cl100k_base by default) and the main API, which must agree."""
    chunks = split_token_paragraphs(text, max_tokens)
    assert chunks == split_paragraphs(text, max_tokens, length=CL100K)
    return chunks


# A Chinese sentence with no punctuation: 43 characters, 68 cl100k tokens.
LONG_CJK = "天青色等烟雨而我在等你炊烟袅袅升起隔江千万里在瓶底书汉隶仿前朝的飘逸就当我为遇见你伏笔"


def test_seed_breaks_the_budget_on_cjk_ours_holds_it() -> None:
    seed = seed003_split_large_paragraph(LONG_CJK + "。", 20, TOKENS.count)
    assert max(TOKENS.count(chunk) for chunk in seed) > 20  # 30 characters are ~49 tokens
    ours = ours_for_seed(LONG_CJK + "。", 20)
    assert ours and all(c.size == TOKENS.count(c.text) <= 20 for c in ours)
    assert "".join(c.text for c in ours) == LONG_CJK + "。"


def test_seed_loses_positions_ours_keeps_them() -> None:
    text = "第一段。\n\n  Second paragraph here.  \n\n第三段。"
    chunks = ours_for_seed(text, 5)
    assert all(text[c.start : c.end] == c.text for c in chunks)
    assert [c.start_line for c in chunks] == [1, 3, 5]


def test_paragraphs_are_packed_with_the_text_between_them() -> None:
    text = "Alpha one.\n\nBeta two.\n\n\n  Gamma three.\n\nDelta four."
    chunks = split_paragraphs(text, 12, length=CL100K)
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
    chunks = split_paragraphs(text, 30, length=CL100K)
    check_chunks(text, chunks, 30, TOKENS.count)
    assert chunks[0].text == small  # the split paragraph never joins its neighbours
    assert chunks[-1].text == "Short outro."
    for chunk in chunks[1:-1]:
        assert chunk.text.endswith(("。", ".", "!"))  # sentence boundaries


def test_chinese_full_stop_ends_its_chunk_and_never_starts_the_next() -> None:
    # langchain#18770
    text = "天青色等烟雨，而我在等你。哈哈哈。月色被打捞起，晕开了结局。如传世的青花瓷自顾自美丽。"
    chunks = split_paragraphs(text, 24, length=CL100K)
    assert len(chunks) > 1
    for chunk in chunks:
        assert chunk.text.endswith("。")
        assert not chunk.text.startswith(("。", "，"))


def test_one_emoji_over_a_one_token_budget_is_a_clear_error() -> None:
    with pytest.raises(ChunkTooLargeError) as caught:
        split_paragraphs("👍" * 50, 1, length=CL100K)
    error = caught.value
    assert (error.offset, error.size, error.budget) == (0, 3, 1)
    assert "offset 0" in str(error) and "3 cl100k_base tokens" in str(error)


def test_special_token_text_is_ordinary_text() -> None:
    text = "before <|endoftext|> after\n\n<|fim_prefix|> more"
    chunks = split_paragraphs(text, 8, length=CL100K)
    check_chunks(text, chunks, 8, TOKENS.count)


def test_invalid_parameters_are_named() -> None:
    with pytest.raises(InvalidParameterError, match="chunk_size=0"):
        ParagraphSplitter(0, length=CL100K)
    with pytest.raises(
        InvalidParameterError, match="chunk_overlap=5: must be smaller than chunk_size=5"
    ):
        ParagraphSplitter(5, 5, length=CL100K)


def test_code_points_by_default_tokens_under_the_seed_name() -> None:
    # ParagraphSplitter counts code points unless told otherwise; seed 003's name keeps
    # counting cl100k_base tokens.
    text = "一二三四五六七八九十。" * 3  # 33 code points, more cl100k tokens
    assert TOKENS.count(text) > 33
    chars = split_paragraphs(text, 33)
    assert [(c.text, c.size) for c in chars] == [(text, 33)]
    assert ParagraphSplitter(33).spans(text) == [(0, 33, 33)]
    tokens = split_token_paragraphs(text, 33)
    assert len(tokens) > 1 and all(c.size == TOKENS.count(c.text) <= 33 for c in tokens)


def test_overlap_repeats_trailing_sentences() -> None:
    text = "One fish. Two fish. Red fish. Blue fish. Old fish. New fish."
    chunks = split_paragraphs(text, 9, 3, length=CL100K)
    check_chunks(text, chunks, 9, TOKENS.count, overlap=3)
    assert all(b.start < a.end for a, b in pairwise(chunks))


def test_overlap_never_opens_a_chunk_inside_fenced_code_the_chunk_before_closed() -> None:
    """The overlap was the fence's last lines: the closing fence then opened the chunk and
    read as an opening one, making the prose after it code."""
    text = (
        "Release channels are described below in some detail.\n\n"
        "```text\nnightly: * - - *\n  |\nbeta: *\n```\n\n"
        "Most users do not use beta releases. They stay on stable."
    )
    chunks = split_paragraphs(text, 60, 20)
    check_chunks(text, chunks, 60, len, overlap=20)
    after = next(c for c in chunks if "Most users" in c.text)
    assert after.text.startswith("Most users")  # no start outside the fence fits the room
    # Where the chunk before ends inside the fence (it was cut), overlap may be code lines.
    code = "\n".join(f"line_{n} = {n}" for n in range(12))
    text = f"Intro.\n\n```python\n{code}\n```\n"
    chunks = split_paragraphs(text, 60, 15)
    check_chunks(text, chunks, 60, len, overlap=15)
    assert any(b.start < a.end for a, b in pairwise(chunks))


def test_overlap_of_prose_before_a_fenced_block_starts_at_a_sentence_not_a_line() -> None:
    """A fence on a line of the overlap's window made the whole window read as code, so the
    hard-wrapped prose before it got line starts ("storage. Therefore, ..." opened a
    chunk of rust-lang-book ch08-02 at 512+64 cl100k tokens)."""
    prose = (
        "The answer is 24: that is the number of bytes it takes to encode the word in\n"
        "UTF-8, because each scalar value in that string takes 2 bytes of\n"
        "storage. Therefore, an index into the string's bytes will not always match\n"
        "a valid scalar value. To show this, consider this invalid code:\n\n"
    )
    text = prose + '```rust\nlet hello = "hello";\nlet answer = &hello[0];\n```\n'
    starts = code_line_starts(text, 0, len(text))
    assert starts and all(start > len(prose) for start in starts)  # the code's lines only
    path = corpus_path("markdown_docs/rust-lang-book/src/ch08-02-strings.md")
    book = path.read_text(encoding="utf-8")
    chunks = split_paragraphs(book, 512, 64, length=CL100K)
    check_chunks(book, chunks, 512, TOKENS.count, overlap=64)
    starts = [c.start for c in chunks]
    assert book.index("storage. Therefore") not in starts
    opening = [c for c in chunks if c.start < book.index("Therefore, an index") < c.end][-1]
    assert book[opening.start - 2 : opening.start] in (". ", "\n\n")  # a sentence's start


def test_a_line_cut_at_the_overlap_windows_end_does_not_make_prose_code() -> None:
    """The window's last line, cut at its end ("trunks, a"), ended like code and made a
    hard-wrapped paragraph read as code: overlap started at the line start
    ("trunks, a crate ...") where more words fit."""
    text = sample("english.txt")
    chunks = split_paragraphs(text, 100, 20)
    check_chunks(text, chunks, 100, len, overlap=20)
    assert text.index("trunks, a crate") not in [c.start for c in chunks]
    assert text.index("two\ntrunks, a crate") in [c.start for c in chunks]


def test_a_table_is_cut_at_its_row_ends() -> None:
    """A Markdown table read as prose was cut at its words, mid-row ("| Staff 0," |
    "enamelled steel | 0 | ..."): its rows are cut at line ends, as code's are."""
    rows = "".join(
        f"| Staff {i}, enamelled steel | {i} | graduated every centimetre |\n" for i in range(6)
    )
    text = f"Parts.\n\n| Item | Count | Note |\n|------|------:|-------|\n{rows}"
    assert looks_like_code(text, text.index("|"), len(text))
    chunks = split_paragraphs(text, 120)
    check_chunks(text, chunks, 120, len)
    assert all(c.text.startswith(("Parts", "|")) and c.text.endswith((".", "|")) for c in chunks)
    assert "| Item |" in chunks[0].text
    assert chunks[0].text.endswith("| 0 | graduated every centimetre |")


def test_without_a_tokenizer_any_length_works() -> None:
    paragraphs = PlainParagraphSplitter().split("a b c\n\nd e f g h i j\n\nk")
    text = "\n\n".join(p.text for p in paragraphs)
    chunks = split_paragraphs(text, 4, length=word_count)
    assert [c.text for c in chunks] == ["a b c", "d e f g", "h i j", "k"]


# A paragraph of The Adventures of Sherlock Holmes (PG #1661), hard-wrapped as in the book:
# two of its four lines end "word,", which read as code until a review found the paragraph
# cut at a line end mid-sentence ("...she rose hurriedly," | "muttered some words...").
WRAPPED_DIALOGUE = (
    "“No, alone. She was very independent in little matters like that. Then,\n"
    "after we had sat down for ten minutes or so, she rose hurriedly,\n"
    "muttered some words of apology, and left the room. She never came\n"
    "back.”"
)


def test_hard_wrapped_prose_ending_lines_with_commas_is_not_code() -> None:
    text = WRAPPED_DIALOGUE
    assert not looks_like_code(text, 0, len(text))
    for size in (40, 48):
        chunks = split_paragraphs(text, size, length=CL100K)
        check_chunks(text, chunks, size, TOKENS.count)
        # Every chunk ends a sentence: the 30-token sentence after "that." fits whole.
        assert all(re.search(r"[.!?]”?$", c.text) for c in chunks), [c.text for c in chunks]
    semicolons = (
        "“Now, Kitty, you may cough as much as you choose,” said Mr. Bennet; and,\n"
        "as he spoke, he left the room, fatigued with the raptures of his wife;\n"
        "she said nothing."
    )
    assert not looks_like_code(semicolons, 0, len(semicolons))


@pytest.mark.parametrize(
    "code",
    [
        "result = compute(first_value,\n                 second_value)\nprint(result)",
        "int a, b, c;\nfor (a = 0; a < 10; a++) {\n    b += a;\n}",
        "  >>> runner.run(test)\n  Traceback (most recent call last):\n  ...\n  ValueError: x",
        "def parse(self, text, start, end):\n    return self.level(text, start, end)",
        "SELECT name,\n       age\nFROM people;",
    ],
)
def test_code_still_reads_as_code(code: str) -> None:
    assert looks_like_code(code, 0, len(code))


# --- properties ---------------------------------------------------------------------------


@given(unicode_texts, st.integers(1, 40), st.sampled_from(["cl100k_base", toy_tokens, "utf8"]))
def test_properties(text: str, max_tokens: int, spec: object) -> None:
    measure = resolve_length(spec)
    try:
        chunks = split_paragraphs(text, max_tokens, length=spec)
    except ChunkTooLargeError as error:
        assert error.size > max_tokens
        return
    check_chunks(text, chunks, max_tokens, measure.count, naive_lines=True)
    assert split_paragraphs(text, max_tokens, length=spec) == chunks


# --- the texts of tests/data (also on a clone without the corpus) ----------------------------

SAMPLES = {
    "english": sample("english.txt"),
    "english-crlf-bom": "\ufeff" + sample("english.txt").replace("\n", "\r\n"),
    "chinese": sample("chinese.txt"),
    "markdown": sample("markdown.md"),
    "code": sample("code.py"),
}
TOKEN_SETTINGS = [(64, 0), (256, 32), (512, 0)]


def check_token_paragraphs(text: str, max_tokens: int, overlap: int) -> None:
    chunks = split_paragraphs(text, max_tokens, overlap, length=CL100K)
    check_chunks(text, chunks, max_tokens, TOKENS.count, overlap=overlap or None)
    # Every paragraph boundary inside a chunk keeps the source text between paragraphs.
    assert all(text[c.start : c.end] == c.text for c in chunks)


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize(("max_tokens", "overlap"), TOKEN_SETTINGS)
def test_samples(name: str, max_tokens: int, overlap: int) -> None:
    check_token_paragraphs(SAMPLES[name], max_tokens, overlap)


# --- the corpus -------------------------------------------------------------------------------

CORPUS_CASES = [
    ("english_prose/pg2701_moby_dick.txt", 150_000),
    ("english_prose/pg1342_pride_and_prejudice.gitenberg.crlf.txt", 150_000),
    ("chinese/pg23962_xiyouji_journey_to_the_west.txt", 60_000),
    ("chinese/trpl-zh-cn/src/ch04-01-what-is-ownership.md", 60_000),
    ("mixed/ru-prose/gogol_shinel.txt", 60_000),
    ("mixed/react-docs-parallel/ko/src/content/learn/thinking-in-react.md", 60_000),
    ("mixed/crlf/semchunk_CHANGELOG.crlf.md", 60_000),
]


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("path", "limit", "max_tokens", "overlap"),
    corpus_cases([(*case, *settings) for case, settings in product(CORPUS_CASES, TOKEN_SETTINGS)]),
)
def test_corpus(path: str, limit: int, max_tokens: int, overlap: int) -> None:
    text = corpus_path(path).read_text(encoding="utf-8")[:limit]
    check_token_paragraphs(text, max_tokens, overlap)


def test_a_paragraph_of_many_code_lines_is_packed_a_window_at_a_time() -> None:
    """A paragraph that reads as code is cut at its lines: its lines were all held at once,
    as spans and as the strings looks_like_code read (71 times the text for a megabyte of
    heading lines, which read as comments). Now they are read a window at a time, with the
    same chunks."""
    text = "# a\n## b\n" * 120_000
    splitter = ParagraphSplitter(200, 20)
    splitter.split(text[:20_000])  # (what a first split sets up once is not the text's)
    assert memory_beyond_result(lambda: splitter.split(text)) < 8 * len(text)
    chunks = splitter.split(text[:90_000])
    check_chunks(text[:90_000], chunks, 200, len, overlap=20)
    assert all(chunk.text.startswith("#") and chunk.text.endswith(("a", "b")) for chunk in chunks)


@pytest.mark.parametrize("block", [1, 5, 64])
def test_looks_like_code_reads_lines_a_block_at_a_time_as_all_at_once(
    block: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [
        "x = 1;\r\ny = 2;\rdef f():\n    return 1\n",
        "Some prose, with commas,\nand more prose here.\nA line ending in a brace {\n",
        "prose line one.\nprose line two.\n>>> print(1)\n",
        "a,\nb,\nc,\nword\nword\nword\n",
    ]
    expected = [looks_like_code(t, s, e) for t in texts for s, e in pairwise(range(len(t) + 1))]
    expected += [looks_like_code(t, 0, len(t)) for t in texts]
    monkeypatch.setattr("spansplit.boundaries.paragraphs._LINE_BLOCK", block)
    found = [looks_like_code(t, s, e) for t in texts for s, e in pairwise(range(len(t) + 1))]
    assert found + [looks_like_code(t, 0, len(t)) for t in texts] == expected
