"""dsl/parser_tables.json holds exactly the tables lark makes from the grammar, and
is used only when it was made from this grammar and these options."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from lark import Lark

from referee.dsl import lalr
from referee.dsl.parser import PARSER_OPTIONS, build_parser, grammar_text
from referee.dsl.tables import TABLES, TablesError, _PlainData, tables_of, tables_text

REPO = Path(__file__).resolve().parents[1]


def rules_texts() -> list[str]:
    """Every rules text the repository holds: the examples and the conformance cases."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(REPO.glob("examples/**/*.rules"))]
    for path in sorted((REPO / "tests" / "conformance").glob("*.yaml")):
        texts += [case["rules"] for case in yaml.safe_load(path.read_text(encoding="utf-8"))
                  if isinstance(case.get("rules"), str)]
    return texts


def test_the_saved_tables_are_those_lark_makes_from_the_grammar():
    # Failing here means the grammar changed: run `python -m referee.dsl.tables`.
    made = tables_text(build_parser(), grammar_text(), PARSER_OPTIONS)
    assert TABLES.read_text(encoding="utf-8") == made


MADE = """
import hashlib
from referee.dsl.parser import PARSER_OPTIONS, build_parser, grammar_text
from referee.dsl.tables import tables_text
text = tables_text(build_parser(), grammar_text(), PARSER_OPTIONS)
print(hashlib.sha256(text.encode()).hexdigest())
"""


def test_the_tables_do_not_depend_on_the_hash_seed():
    # Lark's own numbering of states and symbols does; the file's order does not.
    import hashlib

    made = [subprocess.run([sys.executable, "-c", MADE], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout.strip() for seed in ("0", "1")]
    assert made == [hashlib.sha256(TABLES.read_bytes()).hexdigest()] * 2


def test_tables_of_another_grammar_or_other_options_are_not_used():
    assert lalr.load(grammar_text(), PARSER_OPTIONS) is not None
    assert lalr.load(grammar_text() + "\n// edited\n", PARSER_OPTIONS) is None
    assert lalr.load(grammar_text(), {**PARSER_OPTIONS, "maybe_placeholders": False}) is None


def test_a_parser_the_runtime_does_not_follow_gets_no_tables():
    options = {k: v for k, v in PARSER_OPTIONS.items() if k != "start"}
    flagged = Lark('start: "a"i', **options)
    with pytest.raises(TablesError, match="flags: A"):
        tables_of(flagged, 'start: "a"i', options)
    every_token = Lark('start: "a"', **{**options, "keep_all_tokens": True})
    with pytest.raises(TablesError, match="keep_all_tokens"):
        tables_of(every_token, 'start: "a"', options)


def test_what_lark_saved_is_read_as_plain_data_only():
    import io

    with pytest.raises(TablesError, match="pathlib"):
        _PlainData(io.BytesIO(pickle.dumps({"data": Path("x")}))).load()


def test_a_layout_of_the_saved_parser_not_known_here_is_told(monkeypatch):
    import referee.dsl.tables as tables

    monkeypatch.setattr(tables._PlainData, "load", lambda self: {"memo": {}, "data": {}})
    with pytest.raises(TablesError, match="layout not known"):
        tables_of(build_parser(), grammar_text(), PARSER_OPTIONS)
