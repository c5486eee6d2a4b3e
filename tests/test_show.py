"""``referee show``: what it lists for the shared example, exit codes, and the console entry."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine.cli import main

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "workspaces"

EXPECTED_STEPS = {
    "iteration-1/eval-1-expense-draft/with_skill/run-1": [
        (1, "expense-mcp_getInvoiceInfo", "success"),
        (2, "expense-mcp_checkExpenseItem", "success"),
        (3, "expense-mcp_saveExpenseDoc", "success"),
    ],
    "iteration-1/eval-1-expense-draft/with_skill/run-2": [
        (1, "expense-mcp_getInvoiceInfo", "success"),
        (2, "expense-mcp_checkExpenseItem", "error"),
        (3, "expense-mcp_checkExpenseItem", "success"),
        (4, "expense-mcp_saveExpenseDoc", "success"),
    ],
    "iteration-1/eval-1-expense-draft/without_skill/run-1": [
        (1, "expense-mcp_getInvoiceInfo", "success"),
        (2, "expense-mcp_saveExpenseDoc", "error"),
        (3, "expense-mcp_saveExpenseDoc", "success"),
    ],
    "iteration-1/eval-1-expense-draft/without_skill/run-2": [],
    "iteration-1/eval-2-sales-summary/with_skill/run-1": [(1, "Read", "success"), (2, "Bash", "success")],
    "iteration-1/eval-2-sales-summary/without_skill/run-1": [(1, "Write", "success")],
}


@pytest.fixture
def expense(shared_examples: Path) -> Path:
    return shared_examples / "expense-skill-workspace"


def _run(capsys, *argv):
    code = main(["show", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_lists_exactly_the_steps_of_the_shared_example(expense, capsys):
    code, out, err = _run(capsys, str(expense), "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    steps = {r["run"]["rel"]: [(s["step"], s["tool"], s["status"]) for s in r["steps"]] for r in doc["runs"]}
    assert steps == EXPECTED_STEPS
    assert list(steps) == list(EXPECTED_STEPS)  # discovery order
    assert doc["warnings"] == [] and all(r["warnings"] == [] for r in doc["runs"])
    assert str(expense) not in out and "/work/" not in out


def test_json_details_of_one_run(expense, capsys):
    run_dir = expense / "iteration-1" / "eval-1-expense-draft" / "with_skill" / "run-1"
    code, out, _ = _run(capsys, str(run_dir), "--json")
    (view,) = json.loads(out)["runs"]
    assert view["run"] == {"rel": ".", "eval_id": "1", "eval_name": "expense-draft",
                           "configuration": "with_skill", "run_number": 1, "iteration": 1,
                           "layout": None}
    save = view["steps"][2]
    assert (save["line"], save["args"]["line"], save["return"]["line"]) == (22, 24, 31)
    assert '"docStatus": "10"' in save["args"]["text"]
    assert [(n["kind"], n["step"], n["line"]) for n in view["notes"]] == [
        ("harness", None, 1), ("agent_notes", 1, 12), ("agent_notes", 3, 34)]
    assert view["files"] == ["metrics.json", "response.md", "transcript.md", "user_notes.md"]
    assert view["metrics"]["total_tool_calls"] == 3
    assert view["timing"] == {"total_tokens": 18234, "duration_ms": 41250, "total_duration_seconds": 41.3}
    assert view["user_notes"]["uncertainties"] == [
        'expenseType "1" is assumed to mean transport; the MCP server has no lookup for type codes.']
    assert out == json.dumps(json.loads(out), sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def test_text_view(expense, capsys):
    run_dir = expense / "iteration-1" / "eval-1-expense-draft" / "without_skill" / "run-1"
    code, out, _ = _run(capsys, str(run_dir))
    assert code == 0
    assert "  step 2  expense-mcp_saveExpenseDoc  error  outputs/transcript.md:11" in out
    assert "  agent_notes step 2 保存失败  outputs/transcript.md:17" in out
    assert "warnings: none" in out


def test_warnings_are_shown(tmp_path, capsys):
    run_dir = tmp_path / "eval-1" / "cfg"
    (run_dir / "outputs").mkdir(parents=True)
    (run_dir / "outputs" / "metrics.json").write_text("{")
    code, out, _ = _run(capsys, str(run_dir))
    assert code == 0 and "outputs/metrics.json:1: warning[bad-json]" in out


def test_workspace_warnings_are_shown(capsys):
    code, out, _ = _run(capsys, str(FIXTURES / "layouts"))
    assert code == 0 and "workspace warnings:" in out
    assert "iteration-1/eval-notes.txt: warning[stray-file]" in out


@pytest.mark.parametrize("make, reason", [
    (lambda p: p / "missing", "no such file or directory"),
    # a file is a source to read as referee import does: this one is none
    (lambda p: (p / "f.txt").write_text("x") and p / "f.txt",
     "not a format referee imports; name it: referee import {{claude-code,openai,skill-creator-log}} {target} "
     "--out DIR; nothing shown: every source given must be read"),
    (lambda p: p, "no outputs/ folder here and no run below it"),
])
def test_unusable_input_exits_2(tmp_path, capsys, make, reason):
    target = make(tmp_path)
    code, out, err = _run(capsys, str(target))
    assert code == 2 and out == ""
    assert err == f"referee show: error: {target}: {reason.format(target=target)}\n"


def test_console_entry_through_subprocess():
    run_dir = REPO / "examples" / "booking-skill-workspace" / "iteration-1" / "eval-1-book-flight" / "with_skill" / "run-2"
    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", "show", str(run_dir), "--json"],
                          cwd=REPO, capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    (view,) = json.loads(done.stdout)["runs"]
    assert [(s["step"], s["tool"], s["status"]) for s in view["steps"]] == [
        (1, "travel_searchFlights", "success"),
        (2, "travel_bookReservation", "error"),
        (3, "travel_bookReservation", "success"),
    ]
    assert view["steps"][2]["return"]["line"] == 25 and view["steps"][2]["return"]["is_json"]
    missing = subprocess.run([sys.executable, "-m", "referee.engine.cli", "show", "no/such/run"],
                             cwd=REPO, capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2
    assert missing.stderr == "referee show: error: no/such/run: no such file or directory\n"


def test_booking_example_reads_cleanly(capsys):
    code, out, _ = _run(capsys, str(REPO / "examples" / "booking-skill-workspace"), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["warnings"] == []
    assert [r["run"]["rel"].split("iteration-1/")[1] for r in doc["runs"]] == [
        "eval-1-book-flight/with_skill/run-1", "eval-1-book-flight/with_skill/run-2",
        "eval-1-book-flight/without_skill/run-1", "eval-1-book-flight/without_skill/run-2",
        "eval-2-fare-export/with_skill/run-1", "eval-2-fare-export/without_skill/run-1"]
    assert all(r["warnings"] == [] for r in doc["runs"])
    assert all(s["args"]["is_json"] and s["return"]["is_json"] for r in doc["runs"] for s in r["steps"])
