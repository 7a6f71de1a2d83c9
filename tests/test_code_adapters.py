"""The code splitter through LangChain (``from_language`` for every ``Language`` member,
``get_separators_for_language``) and LlamaIndex (``SpanCodeNodeParser``)."""

from __future__ import annotations

import inspect
import logging
import pickle
import warnings
from contextlib import nullcontext

import pytest
from conftest import sample

from spansplit import CodeSplitter, GrammarUnavailableError, RecursiveSplitter
from spansplit.batch import DocumentError
from spansplit.boundaries.code import grammar_available
from spansplit.boundaries.code_languages import LANGUAGES, get_language
from spansplit.errors import InvalidParameterError, ParameterTypeError

langchain_text_splitters = pytest.importorskip("langchain_text_splitters")
Language = langchain_text_splitters.Language


def test_from_language_accepts_every_langchain_language() -> None:
    from langchain_spansplit import SpanRecursiveTextSplitter

    text = sample("code.go")
    for member in Language:
        splitter = SpanRecursiveTextSplitter.from_language(
            member, chunk_size=160, chunk_overlap=0, add_start_index=True
        )
        info = get_language(member)
        expected = CodeSplitter if info.grammar and grammar_available(info) else RecursiveSplitter
        assert isinstance(splitter.splitter, expected), member
        documents = splitter.create_documents([text])
        for document in documents:
            start, end = document.metadata["start_index"], document.metadata["end_index"]
            assert text[start:end] == document.page_content
            assert splitter._length_function(document.page_content) <= 160


def test_from_language_go_has_symbols_in_metadata() -> None:
    from langchain_spansplit import SpanRecursiveTextSplitter

    if not grammar_available(get_language("go")):
        pytest.skip("the go grammar wheel is not installed")
    splitter = SpanRecursiveTextSplitter.from_language(Language.GO, chunk_size=16, chunk_overlap=0)
    from langchain_core.documents import Document

    documents = splitter.split_documents([Document(page_content=sample("code.go"))])
    assert ["Predictor", "Extremes"] in [d.metadata["symbols"] for d in documents]
    assert pickle.loads(pickle.dumps(splitter)).split_text("func f() {}\n") == ["func f() {}"]


def test_from_language_runs_a_subclass_init_on_the_syntax_tree_too() -> None:
    from langchain_spansplit import SpanRecursiveTextSplitter

    if not grammar_available(get_language("python")):
        pytest.skip("the python grammar wheel is not installed")

    class Tagged(SpanRecursiveTextSplitter):
        def __init__(self, *args: object, tag: str = "py", **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            self.tag = tag

        def split_text(self, text: str) -> list[str]:
            return [f"[{self.tag}] {chunk}" for chunk in super().split_text(text)]

    splitter = Tagged.from_language(Language.PYTHON, chunk_size=30, chunk_overlap=0)
    assert isinstance(splitter.splitter, CodeSplitter)
    code = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
    assert splitter.split_text(code) == [
        "[py] def f():\n    return 1",
        "[py] def g():\n    return 2",
    ]
    # LangChain keeps the keep_separator it was given
    assert splitter._keep_separator is True
    assert SpanRecursiveTextSplitter(keep_separator="end")._keep_separator == "end"


def test_from_language_keeps_the_syntax_tree_with_the_spansplit_options() -> None:
    from langchain_spansplit import SpanRecursiveTextSplitter

    if not grammar_available(get_language("go")):
        pytest.skip("the go grammar wheel is not installed")
    splitter = SpanRecursiveTextSplitter.from_language(
        Language.GO,
        chunk_size=60,
        chunk_overlap=0,
        add_page_numbers=True,
        on_error="skip",
        strip_whitespace=True,
    )
    assert isinstance(splitter.splitter, CodeSplitter) and splitter._is_separator_regex
    documents = splitter.create_documents([sample("code.go"), "package x\x00"])
    assert documents and all(d.metadata["page_start"] == 1 for d in documents)
    assert all(trimmed_but_its_indentation(d.page_content) for d in documents)
    assert [error.where for error in splitter.skipped] == ["texts[1]"]


def trimmed_but_its_indentation(chunk: str) -> bool:
    """Whether ``chunk`` is trimmed but for the indentation of its first line (which a chunk
    that starts on a line of code keeps)."""
    return chunk == chunk.rstrip() and chunk.lstrip(" \t") == chunk.strip()


def test_from_language_with_separators_options_uses_the_table() -> None:
    from langchain_spansplit import SpanRecursiveTextSplitter, get_separators_for_language

    tree = grammar_available(get_language("rust"))
    with pytest.warns(UserWarning, match="separator table") if tree else nullcontext():
        splitter = SpanRecursiveTextSplitter.from_language(
            Language.RUST, chunk_size=200, chunk_overlap=0, keep_separator="end"
        )
    assert isinstance(splitter.splitter, RecursiveSplitter)
    assert list(splitter.splitter.separators) == get_separators_for_language(Language.RUST)
    assert SpanRecursiveTextSplitter.get_separators_for_language("cobol")[-1] == ""


def test_llama_index_code_node_parser_takes_code_splitter_parameters() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.core.schema import MetadataMode
    from llama_index.node_parser.spansplit import SpanCodeNodeParser

    if not grammar_available(get_language("python")):
        pytest.skip("the python grammar wheel is not installed")
    text = sample("code.py") + "\n\n" + sample("code.py")  # repeated text: offsets stay exact
    for parser in (
        SpanCodeNodeParser(
            language="python", chunk_lines=40, chunk_lines_overlap=15, max_chars=400
        ),
        SpanCodeNodeParser(language="python", count_mode="token", max_tokens=96),
    ):
        nodes = parser.get_nodes_from_documents([Document(text=text)])
        assert len(nodes) > 4
        for node in nodes:
            assert text[node.start_char_idx : node.end_char_idx] == node.text
            assert parser._length().count(node.get_content(MetadataMode.EMBED)) <= parser.chunk_size
            assert node.metadata["language"] == "python"
            assert "symbols" not in node.get_content(MetadataMode.LLM)
        copy = SpanCodeNodeParser.from_dict(parser.to_dict())
        assert copy.to_dict() == parser.to_dict()
        assert pickle.loads(pickle.dumps(parser)).to_dict() == parser.to_dict()


def test_llama_index_code_nodes_have_no_metadata_when_told() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanCodeNodeParser

    if not grammar_available(get_language("python")):
        pytest.skip("the python grammar wheel is not installed")
    parser = SpanCodeNodeParser(language="python", max_chars=400, include_metadata=False)
    nodes = parser.get_nodes_from_documents([Document(text=sample("code.py"), metadata={"a": 1})])
    assert len(nodes) > 2 and all(node.metadata == {} for node in nodes)


# --- from_language trims as LangChain; get_separators_for_language is LangChain's -------------

TWO_FUNCTIONS = "def a():\n    return 1\n\ndef b():\n    x = 1\n    return x\n"


def test_from_language_trims_chunks_as_langchain_does() -> None:
    """``from_language`` takes the class's defaults, ``strip_whitespace=True`` among them,
    also where it splits by the syntax tree: the chunks are LangChain's here, but that the
    first line of a chunk keeps its indentation."""
    from langchain_spansplit import SpanCodeTextSplitter, SpanRecursiveTextSplitter

    if not grammar_available(get_language("python")):
        pytest.skip("the python grammar wheel is not installed")
    ours = SpanRecursiveTextSplitter.from_language(Language.PYTHON, chunk_size=30, chunk_overlap=0)
    theirs = langchain_text_splitters.RecursiveCharacterTextSplitter.from_language(
        Language.PYTHON, chunk_size=30, chunk_overlap=0
    )
    assert isinstance(ours.splitter, CodeSplitter)
    expected = ["def a():\n    return 1", "def b():\n    x = 1", "return x"]
    assert theirs.split_text(TWO_FUNCTIONS) == expected
    assert ours.split_text(TWO_FUNCTIONS) == [*expected[:2], "    return x"]
    assert ours._strip_whitespace is True
    kept = SpanRecursiveTextSplitter.from_language(
        Language.PYTHON, chunk_size=30, chunk_overlap=0, strip_whitespace=False
    )
    untrimmed = ["def a():\n    return 1\n", "def b():\n    x = 1\n", "    return x\n"]
    assert kept.split_text(TWO_FUNCTIONS) == untrimmed
    # SpanCodeTextSplitter stands for no LangChain class: whole lines, as documented.
    assert inspect.signature(SpanCodeTextSplitter).parameters["strip_whitespace"].default is False
    code = SpanCodeTextSplitter("python", chunk_size=30, chunk_overlap=0)
    assert code.split_text(TWO_FUNCTIONS) == untrimmed


def test_from_language_trims_for_every_language_by_default() -> None:
    # As LangChain's does, but a chunk that starts on an indented line of code keeps the
    # line's indentation (LangChain's strip() leaves it out, which misplaces the line).
    from langchain_spansplit import SpanRecursiveTextSplitter

    text = "\n".join(f"    {line}  " for line in sample("code.go").splitlines()) + "\n\n"
    indented = 0
    for member in Language:
        splitter = SpanRecursiveTextSplitter.from_language(member, chunk_size=80, chunk_overlap=0)
        chunks = splitter.split_text(text)
        assert chunks and all(trimmed_but_its_indentation(chunk) for chunk in chunks), member
        indented += any(chunk.startswith("    ") for chunk in chunks)
    assert indented


def test_get_separators_for_language_is_langchains_list_for_every_member() -> None:
    """The static method answers as LangChain's does, for every ``Language`` member (and
    its value): the same list, or a ``ValueError`` where LangChain has none; the module's
    function stays spansplit's own table of regular expressions."""
    from langchain_spansplit import SpanRecursiveTextSplitter, get_separators_for_language

    stock = langchain_text_splitters.RecursiveCharacterTextSplitter.get_separators_for_language
    for member in Language:
        try:
            expected = stock(member)
        except ValueError:
            for language in (member, member.value):
                with pytest.raises(InvalidParameterError, match=r"LangChain has no separator"):
                    SpanRecursiveTextSplitter.get_separators_for_language(language)
            assert get_separators_for_language(member)  # spansplit's own table is there
            continue
        assert SpanRecursiveTextSplitter.get_separators_for_language(member) == expected, member
        assert SpanRecursiveTextSplitter.get_separators_for_language(member.value) == expected
    js = SpanRecursiveTextSplitter.get_separators_for_language("javascript")  # spansplit's name
    assert js == stock(Language.JS)
    with pytest.raises(InvalidParameterError, match=r"get_separators_for_language\('tsx'\)"):
        SpanRecursiveTextSplitter.get_separators_for_language("tsx")  # no LangChain member
    assert get_separators_for_language(Language.PYTHON) == list(
        get_language("python").separators.separators
    )


RST = (
    "Intro paragraph one here.\n\nSection Title\n=============\n\n"
    "Body text of the section goes here and continues a while.\n\n"
    "=======\nOverline\n=======\n\nText.\n\n----\n\nAfter the transition, more text.\n"
)


def test_rst_section_titles_stay_with_their_underline_and_overline() -> None:
    """The reStructuredText table cut before every adornment line: a title was one chunk and
    its underline began the next (``'Section Title'``, ``'=============\\n\\nBody…'``), and an
    overline was cut from its title. A transition line still starts a piece."""
    from langchain_spansplit import SpanRecursiveTextSplitter

    chunks = SpanRecursiveTextSplitter.from_language(
        Language.RST, chunk_size=30, chunk_overlap=0
    ).split_text(RST)
    assert "Section Title\n=============" in chunks
    assert "=======\nOverline\n=======" in chunks
    assert "----" in chunks
    assert not any(chunk.strip("=-\n") == "" and chunk != "----" for chunk in chunks), chunks
    assert not any(chunk.endswith(("Title", "Overline")) for chunk in chunks), chunks


def test_langchains_separators_passed_back_split_as_in_langchain() -> None:
    """A LangChain user passes the list back (customised or not) as ``separators=`` with
    the default ``is_separator_regex=False``: the paragraph and line separators match."""
    from langchain_spansplit import SpanRecursiveTextSplitter

    stock = langchain_text_splitters.RecursiveCharacterTextSplitter
    prose = "para one words here\n\npara two words here\nline three"
    compared = 0
    for member in Language:
        try:
            separators = SpanRecursiveTextSplitter.get_separators_for_language(member)
        except InvalidParameterError:
            continue
        if not {"\n\n", "\n", " "} <= set(separators):
            continue  # lists of regexes only (LaTeX, HTML, VB6): LangChain's do not match either
        ours = SpanRecursiveTextSplitter(separators=separators, chunk_size=25, chunk_overlap=0)
        theirs = stock(separators=separators, chunk_size=25, chunk_overlap=0)
        expected = ["para one words here", "para two words here", "line three"]
        assert ours.split_text(prose) == theirs.split_text(prose) == expected, member
        compared += 1
    assert compared > 20


# --- SpanCodeNodeParser: fallback, from_defaults, changed settings, bad text -------------------

NO_OFFLINE_GRAMMAR = sorted(name for name, info in LANGUAGES.items() if info.grammar is None)
SOME_CODE = (
    "first line of the file\n\n"
    + "".join(f"block {i} opens here\n  and it goes on for a while\n\n" for i in range(8))
    + "last line\n"
)


def test_llama_index_code_parser_takes_fallback_as_langchains_splitter() -> None:
    """Languages with no offline grammar: the error names the parser's own ``fallback``
    setting, and ``fallback="separators"`` splits as LangChain's SpanCodeTextSplitter and
    the core CodeSplitter do with it, with exact offsets; the field round-trips."""
    pytest.importorskip("llama_index.core")
    from langchain_spansplit import SpanCodeTextSplitter
    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanCodeNodeParser
    from pydantic import ValidationError

    assert {"proto", "r", "rst", "markdown", "latex", "html", "cobol"} <= set(NO_OFFLINE_GRAMMAR)
    for language in NO_OFFLINE_GRAMMAR:
        with pytest.raises(GrammarUnavailableError) as info:
            SpanCodeNodeParser(language=language)
        message = f"SpanCodeNodeParser(language={language!r}, fallback='separators')"
        assert message in str(info.value)
        parser = SpanCodeNodeParser(language=language, fallback="separators", max_chars=60)
        nodes = parser.get_nodes_from_documents([Document(text=SOME_CODE)])
        core = CodeSplitter(language, 60, fallback="separators").split(SOME_CODE)
        langchain = SpanCodeTextSplitter(
            language, chunk_size=60, chunk_overlap=0, fallback="separators"
        ).split_text(SOME_CODE)
        assert [n.text for n in nodes] == [c.text for c in core] == langchain, language
        for node in nodes:
            assert SOME_CODE[node.start_char_idx : node.end_char_idx] == node.text
            assert node.metadata["language"] == language and node.metadata["symbols"] == []
        again = SpanCodeNodeParser.from_dict(parser.to_dict())
        assert again.fallback == "separators" and again.to_dict() == parser.to_dict()
    with pytest.raises(ValidationError, match="fallback"):
        SpanCodeNodeParser(language="proto", fallback="nope")


def test_llama_index_code_parser_from_defaults_as_code_splitters() -> None:
    """``from_defaults(language, chunk_lines, chunk_lines_overlap, max_chars, count_mode,
    max_tokens, tokenizer, callback_manager, parser)``: LlamaIndex's order."""
    pytest.importorskip("llama_index.core")
    from llama_index.core.callbacks import CallbackManager
    from llama_index.core.node_parser import CodeSplitter as StockCodeSplitter
    from llama_index.node_parser.spansplit import SpanCodeNodeParser

    if not grammar_available(get_language("python")):
        pytest.skip("the python grammar wheel is not installed")
    stock = list(inspect.signature(StockCodeSplitter.from_defaults).parameters)
    ours = list(inspect.signature(SpanCodeNodeParser.from_defaults).parameters)
    assert ours[: len(stock)] == stock
    made = SpanCodeNodeParser.from_defaults("python")
    assert made.to_dict() == SpanCodeNodeParser(language="python").to_dict()
    positional = SpanCodeNodeParser.from_defaults("python", 40, 15, 400, "char", 512)
    assert (
        positional.to_dict()
        == SpanCodeNodeParser(language="python", chunk_lines_overlap=15, max_chars=400).to_dict()
    )
    assert (positional.chunk_size, positional.length) == (400, "chars")
    tokens = SpanCodeNodeParser.from_defaults("python", 40, 0, 1500, "token", 96, str.split)
    assert (tokens.chunk_size, tokens.length.name) == (96, "builtins.str.split")
    manager = CallbackManager([])
    assert (
        SpanCodeNodeParser.from_defaults("python", callback_manager=manager).callback_manager
        is manager
    )
    assert SpanCodeNodeParser.from_defaults("proto", fallback="separators").fallback == "separators"
    with pytest.raises(ParameterTypeError, match="takes no parser="):
        SpanCodeNodeParser.from_defaults("python", parser=object())
    with pytest.raises(InvalidParameterError, match="count_mode='token'"):
        SpanCodeNodeParser.from_defaults("python", tokenizer=str.split)  # char mode
    with pytest.raises(TypeError, match="max_chrs"):
        SpanCodeNodeParser.from_defaults("python", max_chrs=3)


def test_llama_index_code_parser_takes_the_stock_constructors_positional_order() -> None:
    """``SpanCodeNodeParser("python", 5, 1, 60)`` as LlamaIndex's ``CodeSplitter(language,
    chunk_lines, chunk_lines_overlap, max_chars, ...)`` takes it (only ``language`` was
    positional); the other parsers, keyword-only as most of LlamaIndex's, say so by name."""
    pytest.importorskip("llama_index.core")
    from llama_index.core.node_parser import CodeSplitter as StockCodeSplitter
    from llama_index.node_parser.spansplit import SpanCodeNodeParser, SpanSentenceNodeParser
    from llama_index.node_parser.spansplit.code import STOCK_ORDER

    if not grammar_available(get_language("python")):
        pytest.skip("the python grammar wheel is not installed")
    stock = list(inspect.signature(StockCodeSplitter.__init__).parameters)
    assert stock[2:] == list(STOCK_ORDER)  # (after self and language)
    made = SpanCodeNodeParser("python", 5, 1, 60)
    expected = SpanCodeNodeParser(
        language="python", chunk_lines=5, chunk_lines_overlap=1, max_chars=60
    )
    assert made.to_dict() == expected.to_dict() and made.chunk_size == 60
    tokens = SpanCodeNodeParser("python", 40, 0, 1500, "token", 96, str.split)
    assert (tokens.chunk_size, tokens.length.name) == (96, "builtins.str.split")
    with pytest.raises(TypeError, match="multiple values for 'max_chars'"):
        SpanCodeNodeParser("python", 40, 0, 100, max_chars=200)
    with pytest.raises(TypeError, match="at most 12 positional"):
        SpanCodeNodeParser("python", *range(12))
    with pytest.raises(
        TypeError, match=r"SpanSentenceNodeParser\(\) takes its settings by keyword"
    ):
        SpanSentenceNodeParser(256, 32)


def test_llama_index_code_parser_uses_a_changed_chunk_size() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document, Settings
    from llama_index.node_parser.spansplit import SpanCodeNodeParser

    documents = [Document(text=SOME_CODE, doc_id="code")]
    parser = SpanCodeNodeParser(language="r", fallback="separators", max_chars=1000)
    assert len(parser.get_nodes_from_documents(documents)) == 1
    fresh = SpanCodeNodeParser(language="r", fallback="separators", max_chars=60)
    expected = [n.text for n in fresh.get_nodes_from_documents(documents)]
    previous = Settings._node_parser
    try:
        Settings.node_parser = parser
        Settings.chunk_size = 60
    finally:
        Settings._node_parser = previous
    assert [n.text for n in parser.get_nodes_from_documents(documents)] == expected
    parser.chunk_lines_overlap = 5  # overlap: a fifth of the budget
    overlapping = SpanCodeNodeParser(
        language="r", fallback="separators", max_chars=60, chunk_lines_overlap=5
    )
    assert parser.split_text(SOME_CODE) == overlapping.split_text(SOME_CODE)


def test_llama_index_code_parser_names_or_skips_a_bad_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document
    from llama_index.node_parser.spansplit import SpanCodeNodeParser

    documents = [
        Document(text="x <- 1\n", metadata={"file_name": "ok.R"}),
        Document(text="y <- '\ud800'\n", metadata={"file_name": "bad.R"}),
    ]
    strict = SpanCodeNodeParser(language="r", fallback="separators", max_chars=40)
    with pytest.raises(DocumentError, match=r"'bad.R'.*lone surrogate"):
        strict.get_nodes_from_documents(documents)
    lenient = SpanCodeNodeParser(language="r", fallback="separators", max_chars=40, on_error="skip")
    with caplog.at_level(logging.WARNING):
        nodes = lenient.get_nodes_from_documents(documents)
    assert [n.text for n in nodes] == ["x <- 1\n"]
    assert "skipped bad.R" in caplog.text


PYTHON_FUNCTIONS = "".join(
    f"def f{i}(x):\n    y = x + {i}\n    return y * 2\n\n\n" for i in range(60)
)


def _largest(parser: object) -> int:
    from llama_index.core import Document

    nodes = parser.get_nodes_from_documents([Document(text=PYTHON_FUNCTIONS)])  # type: ignore[attr-defined]
    return max(len(node.text) for node in nodes)


def test_llama_index_code_parser_uses_a_budget_field_changed_after_construction() -> None:
    """``max_chars``/``max_tokens``/``count_mode`` assigned or replaced by ``model_copy``
    are the budget of the next split (they were ignored: ``chunk_size`` kept the budget
    of construction), and ``chunk_size`` follows them."""
    pytest.importorskip("llama_index.core")
    from llama_index.node_parser.spansplit import SpanCodeNodeParser

    def parser(**settings: object) -> SpanCodeNodeParser:
        return SpanCodeNodeParser(language="python", fallback="separators", **settings)

    assigned = parser(max_chars=1500)
    assigned.max_chars = 100
    assert assigned.chunk_size == 100 and assigned.to_dict()["chunk_size"] == 100
    assert _largest(assigned) <= 100
    assert assigned.to_dict() == parser(max_chars=100).to_dict()

    copied = parser(max_chars=1500).model_copy(update={"max_chars": 100})
    assert _largest(copied) <= 100 and copied.chunk_size == 100

    switched = parser(count_mode="token", max_tokens=30)
    assert switched.length == "cl100k_base"
    switched.count_mode = "char"
    switched.max_chars = 100
    assert (switched.chunk_size, switched.length) == (100, "chars")
    assert _largest(switched) <= 100
    assert switched.to_dict() == parser(max_chars=100, max_tokens=30).to_dict()

    to_tokens = parser(max_chars=100).model_copy(update={"count_mode": "token", "max_tokens": 40})
    to_tokens.split_text(PYTHON_FUNCTIONS)
    assert (to_tokens.chunk_size, to_tokens.length) == (40, "cl100k_base")
    assert to_tokens.to_dict() == parser(count_mode="token", max_tokens=40, max_chars=100).to_dict()

    sized = parser(max_chars=1500)
    sized.chunk_size = 100  # as Settings.chunk_size does: the mode's budget field follows
    assert (sized.max_chars, sized.max_tokens) == (100, 512)
    assert _largest(sized) <= 100


def test_llama_index_code_parser_rejects_a_chunk_size_that_disagrees_with_its_budget() -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.node_parser.spansplit import SpanCodeNodeParser

    given = SpanCodeNodeParser(language="python", fallback="separators", chunk_size=200)
    assert (given.chunk_size, given.max_chars) == (200, 200)
    with pytest.raises(InvalidParameterError, match="max_chars=100"):
        SpanCodeNodeParser(language="python", max_chars=100, chunk_size=200)
    both = SpanCodeNodeParser(language="python", fallback="separators").model_copy(
        update={"max_chars": 100, "chunk_size": 200}
    )
    with pytest.raises(InvalidParameterError, match="both changed"):
        both.split_text(PYTHON_FUNCTIONS)
    bad_mode = SpanCodeNodeParser(language="python", fallback="separators").model_copy(
        update={"count_mode": "lines"}
    )
    with pytest.raises(InvalidParameterError, match="count_mode"):
        bad_mode.split_text(PYTHON_FUNCTIONS)


def test_llama_index_code_parser_names_the_budget_field_that_is_wrong() -> None:
    """``max_chars``/``max_tokens`` become ``chunk_size``: a bad value was reported as a
    bad ``chunk_size``, which the user never gave."""
    pytest.importorskip("llama_index.core")
    from llama_index.node_parser.spansplit import SpanCodeNodeParser

    with pytest.raises(ParameterTypeError, match=r"max_chars must be int, got str: '100'"):
        SpanCodeNodeParser(language="python", max_chars="100")
    with pytest.raises(ParameterTypeError, match=r"max_tokens must be int, got float: 2\.5"):
        SpanCodeNodeParser(language="python", count_mode="token", max_tokens=2.5)
    with pytest.raises(InvalidParameterError, match="max_chars=0: must be at least 1"):
        SpanCodeNodeParser(language="python", max_chars=0)
    # Given with a chunk_size it agrees with, a whole float is still taken, as pydantic takes it
    agreed = SpanCodeNodeParser(language="python", max_chars=300.0, chunk_size=300)
    assert (agreed.max_chars, agreed.chunk_size) == (300, 300)


@pytest.mark.parametrize("keep", [True, "start"])
def test_from_language_keeps_the_syntax_tree_with_keep_separator_start(keep: object) -> None:
    """``keep_separator=True``/``"start"`` is what the syntax tree does (a definition starts
    with its keyword): it once turned the tree off, silently (no ``symbols``)."""
    from langchain_spansplit import SpanRecursiveTextSplitter

    if not grammar_available(get_language("python")):
        pytest.skip("the python grammar wheel is not installed")
    default = SpanRecursiveTextSplitter.from_language("python", chunk_size=30, chunk_overlap=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kept = SpanRecursiveTextSplitter.from_language(
            "python", chunk_size=30, chunk_overlap=0, keep_separator=keep, add_start_index=True
        )
    assert isinstance(kept.splitter, CodeSplitter)
    documents = kept.create_documents([TWO_FUNCTIONS])
    assert [d.page_content for d in documents] == default.split_text(TWO_FUNCTIONS)
    assert [d.metadata["symbols"] for d in documents] == [["a"], ["b"], ["b"]]


@pytest.mark.parametrize("keep", [False, "end"])
def test_from_language_says_why_keep_separator_end_uses_the_table(keep: object) -> None:
    from langchain_spansplit import SpanRecursiveTextSplitter

    if not grammar_available(get_language("python")):
        pytest.skip("the python grammar wheel is not installed")
    with pytest.warns(UserWarning, match=r"keep_separator=.*separator table.*syntax tree"):
        splitter = SpanRecursiveTextSplitter.from_language(
            "python", chunk_size=30, chunk_overlap=0, keep_separator=keep
        )
    assert isinstance(splitter.splitter, RecursiveSplitter)
