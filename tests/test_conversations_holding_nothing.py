"""A conversation of a source that holds several (tau-bench's results, JSON lines of
conversations) that gives no run is an error naming the source, the conversation and
its line: never left out without a word while the others are imported.

tau-bench keeps a task whose run crashed as a result with an empty ``traj``
(tests/fixtures/real/openai/tau-bench-crashed-task, a real result): whatever the agent
did before the crash is lost, and the import must say that task is missing."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.importers import import_sources, read_sources

REAL = Path(__file__).parent / "fixtures" / "real" / "openai"
DONE = json.loads((REAL / "tau-bench-retail" / "grok-3-retail-task-0.json").read_text(encoding="utf-8"))[0]
CRASHED = json.loads((REAL / "tau-bench-crashed-task" / "tool-calling-deepseek-v3-0.0_range_0-1_user-gpt-4o-human_"
                      "0612073827.json").read_text(encoding="utf-8"))[0]


def _results(tmp_path: Path, name: str, second: dict) -> Path:
    path = tmp_path / name
    if name.endswith(".jsonl"):
        path.write_text("".join(json.dumps(r) + "\n" for r in (DONE, second, DONE)), encoding="utf-8")
    else:
        path.write_text(json.dumps([DONE, second, DONE], indent=2), encoding="utf-8")
    return path


def _second_line(path: Path) -> int:
    """The line the second result starts on."""
    if path.suffix == ".jsonl":
        return 2
    lines = path.read_text(encoding="utf-8").split("\n")
    return [n for n, line in enumerate(lines, 1) if line == "  {"][1]


def test_a_crashed_task_of_tau_bench_results_is_an_error_not_a_task_left_out(tmp_path: Path):
    for name in ("results.json", "results.jsonl"):
        source = _results(tmp_path, name, CRASHED)
        result = import_sources("openai", [source], tmp_path / f"ws-{name}")
        assert [run.name for run in result.written] == ["results-1", "results-3"], name
        (error,) = result.errors
        assert error.startswith(f"{source}: conversation 2 (line {_second_line(source)}) ") and "not imported" in error
        assert "no message" in error


def test_an_element_that_is_no_conversation_is_an_error_with_its_reason(tmp_path: Path):
    source = _results(tmp_path, "results.json", {"task_id": 1, "reward": 0.0, "info": {"error": "EOF"}, "trial": 0})
    read = read_sources("openai", [source])
    assert [number for _, number, _ in read.found] == [1, 3]
    (error,) = read.errors
    assert f"conversation 2 (line {_second_line(source)})" in error and "is not a conversation" in error


def test_import_and_grade_of_sources_say_which_task_is_missing(tmp_path: Path, capsys):
    source = _results(tmp_path, "results.json", CRASHED)
    assert main(["import", "openai", str(source), "--out", str(tmp_path / "ws")]) == 1  # a task is missing
    assert "referee import: error: " in capsys.readouterr().err
    rules = tmp_path / "r.rules"
    rules.write_text('eval "results-2"\nexpect 1: no calls to "cancel_pending_order"\n', encoding="utf-8")
    assert main(["grade", str(source), "--rules", str(rules)]) == 2  # no run of eval results-2: none passes
    assert "conversation 2" in capsys.readouterr().err


def test_a_source_of_one_conversation_holding_nothing_stays_one_error(tmp_path: Path):
    source = REAL / "tau-bench-crashed-task" / "tool-calling-deepseek-v3-0.0_range_0-1_user-gpt-4o-human_0612073827.json"
    read = read_sources("openai", [source])
    assert read.found == () and len(read.errors) == 1 and "holds no openai conversation" in read.errors[0]
