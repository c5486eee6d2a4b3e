"""``referee.grade`` over a workspace that ``referee critique`` examined with these
very rules adds its findings to eval_feedback, as ``referee grade`` does, so the
grading.json it returns is the one the command writes; with other rules it leaves
them out, as the command does."""

from __future__ import annotations

import json

import referee
from referee.engine.api import rules_name
from referee.engine.cli import main
from sharded import EVALS, RULE_ARGS, RULES, fresh

TEXT = RULES.read_text(encoding="utf-8")


def critiqued(tmp_path):
    ws = fresh(tmp_path)
    assert main(["critique", str(ws), *RULE_ARGS]) == 1  # the existence check of eval 2 is weak
    return ws


def from_critique(grading: str) -> list[dict]:
    return [s for s in json.loads(grading)["eval_feedback"]["suggestions"] if s.get("source") == "critique"]


def test_the_api_adds_the_critique_as_the_command_does(tmp_path, capsys):
    ws = critiqued(tmp_path)
    program = referee.compile(TEXT, rules_name(RULES, TEXT), evals=EVALS,
                              evals_name=rules_name(EVALS, EVALS.read_text(encoding="utf-8")))
    results = referee.grade(program, ws, evals=EVALS)
    assert main(["grade", str(ws), *RULE_ARGS]) == 1
    capsys.readouterr()
    assert any(from_critique(r.grading_json) for r in results)
    for result in results:
        assert result.grading_json == (ws / result.path / "grading.json").read_text(encoding="utf-8")
    as_text = referee.grade(TEXT, ws, evals=EVALS)
    assert [from_critique(r.grading_json) for r in as_text] == [from_critique(r.grading_json) for r in results]


def test_findings_made_with_other_rules_are_left_out(tmp_path, capsys):
    ws = critiqued(tmp_path)
    capsys.readouterr()
    results = referee.grade(TEXT + "\n# edited\n", ws, evals=EVALS)
    assert results and not any(from_critique(r.grading_json) for r in results)
    assert capsys.readouterr() == ("", "")  # the library prints nothing
