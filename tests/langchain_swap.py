"""A pytest plugin: LangChain's own splitter tests run with spansplit's classes in theirs' place.

``tests/test_langchain_suite.py`` runs langchain-text-splitters' published unit tests with
``-p langchain_swap``. pytest imports a ``-p`` plugin before it collects anything, so by the
time the test module runs ``from langchain_text_splitters import
RecursiveCharacterTextSplitter`` (and ``from langchain_text_splitters.character import
CharacterTextSplitter``) those names are spansplit's drop-ins. The package is imported
first, so LangChain's own subclasses (``PythonCodeTextSplitter``, the HTML and Markdown
splitters) keep LangChain's classes: only what the tests name directly is swapped.
"""

from __future__ import annotations

import langchain_text_splitters
import langchain_text_splitters.character
from langchain_spansplit import SpanCharacterTextSplitter, SpanRecursiveTextSplitter

SWAPPED = {
    "RecursiveCharacterTextSplitter": SpanRecursiveTextSplitter,
    "CharacterTextSplitter": SpanCharacterTextSplitter,
}
"""LangChain's class name -> the spansplit class that replaces it."""

for _module in (langchain_text_splitters, langchain_text_splitters.character):
    for _name, _replacement in SWAPPED.items():
        setattr(_module, _name, _replacement)
