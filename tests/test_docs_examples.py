"""Every example of docs/language.md parses, so the reference cannot drift."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import dsl
from dsl.errors import COMPILER_CODES, PARSER_CODES
from dsl.parser import lark_parser
from dsl.syntax import Terminals

DOC = (Path(__file__).resolve().parents[1] / "docs" / "language.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(referee|rules)\n(.*?)^```$", DOC, flags=re.S | re.M)


def test_the_doc_has_examples():
    kinds = {kind for kind, _ in BLOCKS}
    assert kinds == {"referee", "rules"} and len(BLOCKS) > 20


@pytest.mark.parametrize("kind,text", BLOCKS, ids=[f"{k}-{i}" for i, (k, _) in enumerate(BLOCKS)])
def test_example_parses_and_round_trips(kind, text):
    if kind == "rules":
        tree = dsl.parse_rules(text, "docs.rules")
        assert dsl.parse_rules(dsl.format_rules(tree), "docs.rules") == tree
    else:
        tree = dsl.parse_condition(text.strip(), "docs")
        assert dsl.parse_condition(dsl.format_condition(tree)) == tree


def test_reserved_words_listed_are_the_grammars():
    section = DOC.split("## Reserved words", 1)[1]
    listed = set(re.findall(r"[a-z]+", section.split("`")[1]))
    assert listed == Terminals(lark_parser()).keywords


def test_every_error_code_is_documented():
    for code in PARSER_CODES + COMPILER_CODES:
        assert f"`{code}`" in DOC, code
