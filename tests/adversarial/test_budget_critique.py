"""``referee critique`` has a budget of counted work, reached at the same place everywhere.

A mutant costs one unit per call and per note of its run (and per 1,000
characters of text); the mutants of an assertion are charged before any is
graded. Past the budget the critique stops with exit code 2, a message saying
so, and no critique.json. Verdicts and exit codes only: no test measures time.
"""

from __future__ import annotations

from budget_corpus import make_run, rules_for
from referee.engine.cli import main
from referee.engine.critique.runner import DEFAULT_BUDGET

CALLS = 200


def _workspace(tmp_path):
    make_run(tmp_path / "ws", calls=[("save", '{"n": 1}', '{"ok": true}', "success")] * CALLS)
    rules = tmp_path / "r.rules"
    rules.write_text(rules_for('all calls have .status == "success"', 'any calls to "save"'),
                     encoding="utf-8")
    return tmp_path / "ws", rules


def test_a_critique_past_its_budget_stops_and_writes_nothing(tmp_path, capsys):
    workspace, rules = _workspace(tmp_path)
    messages = []
    for _ in range(2):
        assert main(["critique", str(workspace), "--rules", str(rules), "--budget", "1,000"]) == 2
        messages.append(capsys.readouterr().err)
    assert messages[0] == messages[1]
    assert messages[0].startswith("referee critique: error: critique stopped: the mutants would spend "
                                  "more than its budget of 1,000 units of work (0 were graded;")
    assert not (workspace / "critique.json").exists()


def test_a_critique_within_its_budget_is_unchanged(tmp_path, capsys):
    workspace, rules = _workspace(tmp_path)
    assert main(["critique", str(workspace), "--rules", str(rules), "--check"]) in (0, 1)
    assert "mutants graded" in capsys.readouterr().out
    assert CALLS * 40 < DEFAULT_BUDGET


def test_a_bad_budget_is_a_usage_error(tmp_path, capsys):
    workspace, rules = _workspace(tmp_path)
    try:
        main(["critique", str(workspace), "--rules", str(rules), "--budget", "none"])
    except SystemExit as stop:
        assert stop.code == 2
    assert "expected a positive number of units, got 'none'" in capsys.readouterr().err
