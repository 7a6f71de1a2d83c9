"""spansplit.compat keeps the seeds' parameter names, in calls and in error messages."""

from __future__ import annotations

import pytest

from spansplit import InvalidParameterError, ParameterTypeError, compat


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: compat.chunk_text("x", 0), InvalidParameterError, "max_chars=0: must be"),
        (
            lambda: compat.chunk_text("x", 5, 5),
            InvalidParameterError,
            "overlap=5: must be smaller than max_chars=5",
        ),
        (lambda: compat.split_text_blocks("x", 0), InvalidParameterError, "target_chars=0"),
        (
            lambda: compat.split_token_paragraphs("x", "3"),  # type: ignore[arg-type]
            ParameterTypeError,
            "max_tokens must be int, got str",
        ),
    ],
)
def test_errors_name_the_seed_parameters(call, error, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=message) as raised:
        call()
    assert "chunk_size" not in str(raised.value) and "chunk_overlap" not in str(raised.value)


def test_seed_functions_give_the_main_api_chunks() -> None:
    text = "One sentence here. Another one follows! And a third?\n\nNew paragraph."
    from spansplit import BlockSplitter, ParagraphSplitter, SentenceSplitter

    assert compat.chunk_text(text, 30, 5) == SentenceSplitter(30, 5).split(text)
    assert compat.split_text_blocks(text, 30) == BlockSplitter(30).split(text)
    assert compat.split_token_paragraphs(text, 8) == ParagraphSplitter(
        8, length="cl100k_base"
    ).split(text)


def test_the_seed_pager_is_in_compat() -> None:
    # Seed 000 returns {blocks, nextOffset}: compat.page gives Page(items, next_offset).
    blocks = compat.split_text_blocks("One.\n\nTwo.\n\nThree.", 5)
    assert len(blocks) > 2
    first = compat.page(blocks, 0, 2)
    assert isinstance(first, compat.Page)
    assert first.items == blocks[:2]
    assert first.next_offset == 2
    assert compat.page(blocks, len(blocks) - 1, 2).next_offset is None
