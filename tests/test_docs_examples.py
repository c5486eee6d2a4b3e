"""Every example of docs/language.md parses, compiles and runs, so the reference
cannot drift from the language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee import dsl
from conftest import SHARED_EXAMPLES
from referee.engine.compile import check_rules, compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.workspace import load_run
from referee.engine.verdict import Outcome
from referee.dsl.errors import COMPILER_CODES, PARSER_CODES
from referee.dsl.parser import lark_parser
from referee.dsl.syntax import Terminals

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


# The doc's conditions speak of the shared expense example; these lets are the ones
# its first rules block defines.
_LETS = """eval 1
let amount = first(calls to glob "*getInvoiceInfo" with status success).return.body.amount
let saved  = last(calls to glob "*saveExpenseDoc" with status success)
expect: """
_RUN = SHARED_EXAMPLES / "expense-skill-workspace/iteration-1/eval-1-expense-draft/with_skill/run-1"
CONDITIONS = [text for kind, text in BLOCKS if kind == "referee"]


@pytest.mark.parametrize("kind,text", BLOCKS, ids=[f"{k}-{i}" for i, (k, _) in enumerate(BLOCKS)])
def test_example_compiles(kind, text, tmp_path):
    source = text if kind == "rules" else _LETS + text
    tree = dsl.parse_rules(source, "docs.rules")
    assert check_rules([tree], _evals_with_inputs(tree, tmp_path)) == []


def _evals_with_inputs(tree, root):
    """For an example that reads inputs: an evals.json listing each input it names
    (as skill-creator does, under evals/files/) for each of its evals."""
    named = sorted(set(re.findall(r'\binput "([^"]+)"', dsl.format_rules(tree))))
    if not named:
        return None
    (root / "evals" / "files").mkdir(parents=True)
    for name in named:
        (root / "evals" / "files" / name).write_text("region,total\nNorth,1250\n", encoding="utf-8")
    evals = [{"id": int(block.key), "prompt": "p", "expectations": ["a", "b"],
              "files": [f"evals/files/{name}" for name in named]} for block in tree.evals]
    (root / "evals" / "evals.json").write_text(json.dumps({"evals": evals}), encoding="utf-8")
    return dsl.load_evals(root / "evals" / "evals.json")


@pytest.mark.parametrize("text", CONDITIONS, ids=[f"condition-{i}" for i in range(len(CONDITIONS))])
def test_example_runs_without_error(text, shared_examples):
    program = compile_rules([dsl.parse_rules(_LETS + text, "docs.rules")])
    (verdict,) = evaluate(program.evals[0], load_run(_RUN))
    assert verdict.outcome is not Outcome.ERROR, verdict.message
