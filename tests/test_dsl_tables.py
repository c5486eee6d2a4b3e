"""The parser loaded from dsl/parser_tables.json is the parser the grammar builds."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import lark

import pytest
import yaml
from hypothesis import given, strategies as st
from lark.exceptions import UnexpectedInput

from referee.dsl.parser import PARSER_OPTIONS, STARTS, build_parser, grammar_text, lark_parser
from referee.dsl.tables import _decoded, _encoded, saved_parser

REPO = Path(__file__).resolve().parents[1]


def rules_texts() -> list[str]:
    """Every rules text the repository holds: the examples and the conformance cases."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(REPO.glob("examples/**/*.rules"))]
    for path in sorted((REPO / "tests" / "conformance").glob("*.yaml")):
        texts += [case["rules"] for case in yaml.safe_load(path.read_text(encoding="utf-8"))
                  if isinstance(case.get("rules"), str)]
    return texts


def test_the_saved_tables_are_those_of_this_grammar():
    # Failing here means the grammar changed: run `python -m referee.dsl.tables`.
    if saved_parser(grammar_text(), PARSER_OPTIONS) is None and _made_by_another_lark():
        # A newer lark than the one that made the tables: they are not used, and the
        # parser is built from the grammar instead, as it must be.
        assert lark_parser().source_path != "<deserialized>"
        pytest.skip(f"the tables were made with another lark than {lark.__version__}; the parser "
                    "is built instead (run `python -m referee.dsl.tables` to save them again)")
    assert saved_parser(grammar_text(), PARSER_OPTIONS) is not None
    assert lark_parser().source_path == "<deserialized>"


def _made_by_another_lark() -> bool:
    """True when the saved tables are this grammar's, made by a lark of another version."""
    saved = json.loads((REPO / "dsl" / "parser_tables.json").read_text(encoding="utf-8"))
    made_with = saved["made_by"].split("(lark ", 1)[1].split(")", 1)[0]
    key = repr((grammar_text(), sorted(PARSER_OPTIONS.items()), made_with))
    return made_with != lark.__version__ and saved["fingerprint"] == hashlib.sha256(key.encode("utf-8")).hexdigest()


def _outcome(parser, text: str, start: str):
    try:
        tree = parser.parse(text, start=start)
    except UnexpectedInput as err:
        return ("error", type(err).__name__, err.line, err.column)
    spans = [(n.meta.line, n.meta.column, n.meta.end_line, n.meta.end_column)
             for n in tree.iter_subtrees() if not n.meta.empty]
    return ("tree", tree, spans)


@pytest.mark.parametrize("start", ["start"])
def test_loaded_and_built_parsers_agree_on_every_example(start):
    loaded, built = lark_parser(), build_parser()
    texts = rules_texts()
    assert len(texts) > 50
    for text in texts:
        assert _outcome(loaded, text, start) == _outcome(built, text, start), text


@given(st.text(alphabet='expect 1:"let evl() ==.,/x#\n', max_size=40),
       st.sampled_from(STARTS))
def test_loaded_and_built_parsers_agree_on_any_text(text, start):
    assert _outcome(lark_parser(), text, start) == _outcome(_BUILT, text, start)


_BUILT = build_parser()


def test_the_encoding_keeps_tuples_and_keys():
    value = {"a": (1, (2, "x")), 3: [{"~t": 1}], (1, 2): None, "b": {"~d": [1]}}
    assert json.loads(json.dumps(_encoded(value)), object_hook=_decoded) == value
