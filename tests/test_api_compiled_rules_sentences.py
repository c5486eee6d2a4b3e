"""Rules compiled once with ``referee.compile`` and graded with ``referee.grade``
over a workspace without evals.json take each eval's sentences from its
``eval_metadata.json``, as the same rules given as text do and as ``referee
grade --rules`` does: ``expect 1`` is the first expectation there, and a sentence
no rule checks is a semantic assertion of the run."""

from __future__ import annotations

import referee
from referee.engine.api import rules_name
from referee.engine.cli import main
from sharded import RULES, fresh

TEXT = RULES.read_text(encoding="utf-8")


def test_a_compiled_program_grades_as_the_rules_text_does(tmp_path):
    ws = fresh(tmp_path)
    by_text = referee.grade(TEXT, ws)
    by_program = referee.grade(referee.compile(TEXT), ws)
    assert [(r.path, r.grading_json) for r in by_program] == [(r.path, r.grading_json) for r in by_text]
    first = by_program[0].expectations[0]
    assert first["text"] == "travel_searchFlights is called before travel_bookReservation"


def test_the_readme_example_gives_the_bytes_grade_writes(tmp_path, capsys):
    ws = fresh(tmp_path)
    results = referee.grade(referee.compile(TEXT, rules_name(RULES, TEXT)), ws)
    assert main(["grade", str(ws), "--rules", str(RULES)]) == 1
    capsys.readouterr()
    assert results and all(r.grading_json == (ws / r.path / "grading.json").read_text(encoding="utf-8")
                           for r in results)


def test_a_program_is_compiled_again_for_no_workspace_without_sentences(tmp_path):
    program = referee.compile('eval 1\nexpect "done": response contains "done"\n')
    run = tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs"
    run.mkdir(parents=True)
    (run / "response.md").write_text("done\n", encoding="utf-8")
    (result,) = referee.grade(program, tmp_path)
    assert [e["text"] for e in result.expectations] == ["done"] and result.passed
