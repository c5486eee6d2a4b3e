"""``referee grade`` end to end, on copies of the shared expense example."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine.cli import main
from test_schema import validate_tree

RULES = """
eval 1 "expense-draft"
let saved = last(calls to glob "*saveExpenseDoc" with status success)
expect 1: count(calls to glob "*saveExpenseDoc") == 1
expect 2: any calls to glob "*saveExpenseDoc" with status success have .args.docStatus == "10"
expect 4: saved.args.fdMonthOfOccurrence == "120260200"
expect 5: not response contains "{fdId}"
expect 7: response is not empty
expect 8

eval 2 "sales-summary"
expect 1: exists file "summary.csv"
expect 2: first(lines(file "summary.csv")) == "region,total"
expect 5
"""
RUNS = ["iteration-1/eval-1-expense-draft/with_skill/run-1", "iteration-1/eval-1-expense-draft/with_skill/run-2",
        "iteration-1/eval-1-expense-draft/without_skill/run-1",
        "iteration-1/eval-1-expense-draft/without_skill/run-2",
        "iteration-1/eval-2-sales-summary/with_skill/run-1", "iteration-1/eval-2-sales-summary/without_skill/run-1"]


@pytest.fixture
def setup(shared_examples, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(shared_examples / "expense-skill-workspace", tmp_path / "ws")
    (tmp_path / "expense.rules").write_text(RULES, encoding="utf-8")
    return tmp_path


def grade(*extra: str) -> int:
    return main(["grade", "ws", "--rules", "expense.rules", *extra])


def reports(root: Path, name: str = "grading.json") -> dict[str, bytes]:
    return {rel: (root / "ws" / rel / name).read_bytes() for rel in RUNS}


def test_grades_every_run_and_reports_validate(setup, capsys):
    assert grade() == 1
    out = capsys.readouterr().out
    assert out.count("\n") >= len(RUNS) + 1 and out.splitlines()[-2].startswith("total: 6 runs")
    assert out.splitlines()[-1] == "wrote grading.json and ground_truth.json in 6 run folders under ws"
    assert "\033[" not in out  # not a terminal: no colour
    assert validate_tree(setup / "ws") == 2 * len(RUNS)
    first = json.loads(reports(setup)[RUNS[0]])
    assert [e["outcome"] for e in first["expectations"]] == ["pass"] * 5 + ["not_graded"]
    assert first["summary"] == {"passed": 5, "failed": 0, "total": 5, "pass_rate": 1.0, "errors": 0,
                                "not_graded": 1}
    assert first["gate"]["total"] == 4 and first["gate"]["passed"] == 4
    assert first["execution_metrics_source"] == "metrics.json" and first["skill_type"] == "mcp_based"
    assert first["timing"]["total_tokens"] == 18234


def test_notes_only_run_fails_and_summaries_add_up(setup):
    grade()
    for rel, raw in reports(setup).items():
        report = json.loads(raw)
        s = report["summary"]
        assert s["total"] == s["passed"] + s["failed"]
        assert s["passed"] == sum(e["passed"] for e in report["expectations"])
        assert all(not e["passed"] for e in report["expectations"] if e["method"] == "not_graded")
    lone = json.loads(reports(setup)[RUNS[3]])
    assert [e["outcome"] for e in lone["expectations"][:3]] == ["fail", "fail", "fail"]
    assert any(c["claim"] == "saveExpenseDoc was called" and not c["verified"] for c in lone["claims"])


def test_ground_truth_has_the_deterministic_checks(setup):
    grade()
    truth = json.loads(reports(setup, "ground_truth.json")[RUNS[0]])
    assert [c["key"] for c in truth["checks"]] == ["1#1", "1#2", "1#3", "1#4", "1#5"]
    assert {c["method"] for c in truth["checks"]} == {"ground_truth"}


def test_byte_identical_across_runs_jobs_and_paths(setup, shared_examples):
    grade()
    once = reports(setup)
    grade("--jobs", "2")
    assert reports(setup) == once
    other = setup / "elsewhere" / "deeper"
    shutil.copytree(shared_examples / "expense-skill-workspace", other / "ws")
    shutil.copy(setup / "expense.rules", other / "expense.rules")
    assert main(["grade", str(other / "ws"), "--rules", str(setup / "expense.rules")]) == 1
    assert reports(other) == once


def test_foreign_grading_json_is_never_destroyed(setup, capsys):
    target = setup / "ws" / RUNS[1] / "grading.json"
    target.write_text('{"expectations": [], "summary": {"pass_rate": 0.5}}')
    assert grade() == 2
    err = capsys.readouterr().err
    assert f"{RUNS[1]}/grading.json was not written by referee" in err and "--force" in err
    assert target.read_text() == '{"expectations": [], "summary": {"pass_rate": 0.5}}'
    assert grade("--force") == 1
    assert "kept it as" in capsys.readouterr().err
    assert (target.parent / "grading.json.bak").read_text().startswith('{"expectations": []')
    assert json.loads(target.read_text())["grader"]["name"] == "referee"


def test_check_writes_nothing(setup):
    assert grade("--check") == 1
    assert not list((setup / "ws").rglob("grading.json"))


def test_json_output_is_one_document(setup, capsys):
    assert grade("--json", "--check") == 1
    document = json.loads(capsys.readouterr().out)
    assert [r["path"] for r in document["runs"]] == RUNS
    assert document["exit_code"] == 1 and document["check"] is True
    assert document["totals"]["runs"] == 6


def test_input_errors_exit_2(setup, capsys):
    assert main(["grade", "missing", "--rules", "expense.rules"]) == 2
    assert "workspace not found" in capsys.readouterr().err
    (setup / "empty").mkdir()
    assert main(["grade", "empty", "--rules", "expense.rules"]) == 2
    assert "no runs found" in capsys.readouterr().err
    (setup / "bad.rules").write_text('eval 1\nexpect 1: count(calls to "x") ==\n')
    assert main(["grade", "ws", "--rules", "bad.rules"]) == 2
    err = capsys.readouterr().err
    assert "bad.rules:2:" in err and "nothing was graded" in err
    assert main(["grade", "ws", "--rules", "nope.rules"]) == 2


def test_nothing_counted_is_not_a_pass(setup, capsys):
    (setup / "soft.rules").write_text('eval 1\nexpect 7: response is not empty\nexpect 8\n')
    assert main(["grade", "ws", "--rules", "soft.rules", "--check"]) == 1
    assert "nothing counted toward the gate" in capsys.readouterr().err


def test_all_gated_passing_exits_0(setup, capsys):
    (setup / "good.rules").write_text('eval 2\nexpect 1: exists file "summary.csv"\nexpect 2: count(calls) >= 1\n')
    assert main(["grade", "ws", "--rules", "good.rules"]) == 0
    assert "no eval of the rules matches eval '1'" in capsys.readouterr().err


def test_help_documents_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    text = capsys.readouterr().out
    assert "exit codes:" in text and "  2  usage or input error" in text


def test_deterministic_path_does_not_load_the_llm_adapter(setup):
    code = ("import sys; from engine.cli import main; main(['grade', 'ws', '--rules', 'expense.rules', '--check']);"
            "print(sorted(m for m in sys.modules if m.startswith('referee.llm_adapter')))")
    done = subprocess.run([sys.executable, "-c", code], cwd=setup, capture_output=True, text=True,
                          env={"PYTHONPATH": str(Path(__file__).resolve().parents[1]), "PATH": ""})
    assert done.stdout.strip().splitlines()[-1] == "[]"
