"""The clock decides no verdict: the same evidence gives the same grading.json under load.

Each test asserts a verdict, an exit code or bytes, never a duration. The load
test grades one heavy run twice, the second time with two processes keeping
both cores busy, and compares the reports byte for byte; the safety net is
tested by setting it to a nanosecond, which any machine overruns.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from budget_corpus import make_run, rules_for, verdicts
from referee.engine import budget
from referee.engine.verdict import Outcome

CALLS = 1_000
HEAVY = rules_for(
    'all calls have .status == "success"',
    r"all calls have .args.q matches /^(a|aa)+$/",
    r"no calls have .args.q fully matches /(a+)+b/",
    r"any calls where .args.q matches /(?<=a)a{3}/",
    'count(jsonpath(file "data.json" as json, "$..n")) == 400',
    r"response matches /\bfertig\b/",
)


def _heavy_run(root: Path) -> Path:
    calls = [("search", json.dumps({"q": "a" * (20 + n % 40)}), '{"ok": true}', "success")
             for n in range(CALLS)]
    data = json.dumps([{"n": n, "inner": {"m": n}} for n in range(400)])
    make_run(root, calls=calls, response="Die Straße ist fertig.\n", files={"data.json": data})
    return root


def _grade(workspace: Path, rules: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.engine.cli", "grade", str(workspace),
                           "--rules", str(rules)], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def _busy(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def test_a_heavy_grade_is_byte_identical_with_the_cpu_loaded(tmp_path):
    rules = tmp_path / "heavy.rules"
    rules.write_text(HEAVY, encoding="utf-8")
    idle = _heavy_run(tmp_path / "idle")
    loaded = tmp_path / "loaded"
    shutil.copytree(idle, loaded)
    first = _grade(idle, rules)
    assert first.returncode == 0, first.stderr
    load = _busy(2)
    try:
        second = _grade(loaded, rules)
    finally:
        for process in load:
            process.kill()
            process.wait()
    assert second.returncode == 0, second.stderr
    (report,) = idle.rglob("grading.json")
    (again,) = loaded.rglob("grading.json")
    assert report.read_bytes() == again.read_bytes()
    outcomes = [e["outcome"] for e in json.loads(report.read_text(encoding="utf-8"))["expectations"]]
    assert outcomes == ["pass", "pass", "pass", "pass", "pass", "pass"]


def test_the_safety_net_stops_the_grade_and_writes_nothing(tmp_path):
    rules = tmp_path / "heavy.rules"
    rules.write_text(HEAVY, encoding="utf-8")
    workspace = _heavy_run(tmp_path / "ws")
    stopped = _grade(workspace, rules, {budget.TIME_LIMIT_VARIABLE: "1e-9"})
    assert stopped.returncode == 2
    assert "the machine was too slow: run iteration-1/eval-1-task/with_skill/run-1 took more than 1e-09 s" in stopped.stderr
    assert "Traceback" not in stopped.stderr and "internal error" not in stopped.stderr
    assert not list(workspace.rglob("grading.json"))


def test_the_safety_net_is_never_a_verdict(tmp_path):
    _heavy_run(tmp_path)
    with pytest.raises(budget.TooSlow):
        with budget.wall_net("run x", seconds=1e-9):
            verdicts(tmp_path, rules_for('all calls have .status == "success"'))


@pytest.mark.parametrize("value", ["soon", "-1", "inf"])
def test_a_bad_time_limit_is_a_usage_error(tmp_path, value):
    rules = tmp_path / "r.rules"
    rules.write_text(rules_for("response is not empty"), encoding="utf-8")
    make_run(tmp_path / "ws", response="x")
    result = _grade(tmp_path / "ws", rules, {budget.TIME_LIMIT_VARIABLE: value})
    assert result.returncode == 2
    assert f"REFEREE_TIME_LIMIT='{value}': give a number of seconds" in result.stderr


def test_the_transcript_is_parsed_outside_every_assertion_s_budget(tmp_path, monkeypatch):
    from referee.engine.run import workspace

    seen = []
    parse = workspace.parse_transcript

    def watched(*args, **kwargs):
        seen.append(budget.current())
        return parse(*args, **kwargs)

    monkeypatch.setattr(workspace, "parse_transcript", watched)
    make_run(tmp_path, calls=[("save", "{}", "{}", "success")])
    (verdict,) = verdicts(tmp_path, rules_for('any calls to "save"'), limits=budget.Limits(steps=5))
    assert verdict.outcome is Outcome.PASS
    assert seen == [None]


def test_regex_timeout_is_accepted_warned_about_and_changes_nothing(tmp_path):
    rules = tmp_path / "r.rules"
    rules.write_text(rules_for(r"response matches /^(a|aa)+$/"), encoding="utf-8")
    workspace = tmp_path / "ws"
    make_run(workspace, response="a" * 5_000 + "!")
    result = subprocess.run([sys.executable, "-m", "referee.engine.cli", "grade", str(workspace),
                             "--rules", str(rules), "--regex-timeout", "0.000001"],
                            capture_output=True, text=True)
    assert result.returncode == 1, result.stderr
    assert "--regex-timeout is deprecated and ignored" in result.stderr
    (report,) = workspace.rglob("grading.json")
    assert json.loads(report.read_text(encoding="utf-8"))["expectations"][0]["outcome"] == "fail"
