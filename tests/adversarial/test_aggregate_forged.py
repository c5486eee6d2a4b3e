"""``aggregate`` recounts every grading.json and refuses one whose counts were forged.

A grading.json states its counts beside the expectations they count. Taken as
given, ``gate: {passed: 10, total: 2}`` gave a 500 % pass rate and turned a FAIL
into a PASS. The counts are now recounted from the expectations; a file whose
stated counts disagree is listed as unusable with the reason, and counted nowhere.
Timing values no float can hold (a 400-digit integer, 1e155) used to end in an
internal OverflowError; they are left out of the figures with a warning naming
the file, the agent-written ``outputs/timing.json`` included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from budget_corpus import make_run, rules_for
from referee.engine.cli import main
from referee.engine.decision.recount import Item, disagreements
from referee.engine.report.build import gate, summary

RULES = rules_for('any calls to "save"', 'no calls to "delete"', 'exists file "response.md"')
SAVE = ("save", '{"n": 1}', '{"ok": true}', "success")
DELETE = ("delete", '{"n": 1}', '{"ok": true}', "success")


def _workspace(tmp_path: Path, files: dict[str, str] | None = None) -> Path:
    """with_skill fails its gate (it deleted); without_skill passes: a FAIL. ``files``
    (run-relative name to text) are written into with_skill/run-1 before the grade."""
    workspace = tmp_path / "ws"
    for run in ("run-1", "run-2"):
        make_run(workspace, calls=[SAVE, DELETE], run=run, configuration="with_skill")
        make_run(workspace, calls=[SAVE], run=run, configuration="without_skill")
    for name, text in (files or {}).items():
        (_grading(workspace, "with_skill", "run-1").parent / name).write_text(text, encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text(RULES, encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(rules)]) == 1
    return workspace


def _grading(workspace: Path, config: str, run: str) -> Path:
    return workspace / "iteration-1" / "eval-1-task" / config / run / "grading.json"


def _edit(path: Path, change) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")


def _aggregate(workspace: Path, capsys) -> tuple[int, dict, str]:
    code = main(["aggregate", str(workspace), "--mode", "quick"])
    out = capsys.readouterr()
    return code, json.loads((workspace / "benchmark.json").read_text(encoding="utf-8")), out.out + out.err


def _forge_gate(document: dict) -> None:
    document["gate"].update(passed=10, total=2, pass_rate=5.0)


FORGERIES = {
    "gate counts": _forge_gate,
    "summary counts": lambda d: d["summary"].update(passed=3, failed=0, pass_rate=1.0),
    "a passed flag": lambda d: d["expectations"][1].update(passed=True),
    "an outcome alone": lambda d: d["expectations"][1].update(outcome="pass"),
    "the counted list": lambda d: d["gate"].update(counted=d["gate"]["counted"][:1]),
    "an existence check gated": lambda d: d["expectations"][2].update(gated=True),
    "a repeated key": lambda d: d["expectations"][1].update(key=d["expectations"][0]["key"]),
    "a count as text": lambda d: d["gate"].update(total="2"),
}


def test_forged_gate_counts_no_longer_turn_fail_into_pass(tmp_path, capsys):
    workspace = _workspace(tmp_path)
    for run in ("run-1", "run-2"):
        _edit(_grading(workspace, "with_skill", run), _forge_gate)
    code, doc, said = _aggregate(workspace, capsys)
    # The forged runs are unusable: with_skill, still the skill under test, has no pass rate
    # (never without_skill's, which passes, taken for it).
    assert doc["release"]["decision"] == "FAIL" and code == 1
    assert doc["metadata"]["primary"] == "with_skill" and doc["run_summary"]["with_skill"]["runs"] == 0
    assert [u["path"] for u in doc["unusable_runs"]] == [
        "iteration-1/eval-1-task/with_skill/run-1", "iteration-1/eval-1-task/with_skill/run-2"]
    reason = doc["unusable_runs"][0]["reason"]
    assert reason.startswith("grading.json's counts disagree with its expectations (gate.passed is 10, "
                             "the expectations give 1; gate.pass_rate is 5.0, the expectations give 0.5")
    assert "500" not in json.dumps(doc["run_summary"])
    assert "not counted: grading.json's counts disagree" in said


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_every_forgery_makes_the_run_unusable(tmp_path, capsys, name):
    workspace = _workspace(tmp_path)
    _edit(_grading(workspace, "with_skill", "run-1"), FORGERIES[name])
    code, doc, _ = _aggregate(workspace, capsys)
    assert [u["path"] for u in doc["unusable_runs"]] == ["iteration-1/eval-1-task/with_skill/run-1"]
    assert "changed after referee wrote it" in doc["unusable_runs"][0]["reason"]
    assert code == 1 and doc["run_summary"]["with_skill"]["runs"] == 1


def test_an_untouched_workspace_is_counted_whole(tmp_path, capsys):
    code, doc, _ = _aggregate(_workspace(tmp_path), capsys)
    assert doc["unusable_runs"] == [] and doc["release"]["decision"] == "FAIL" and code == 1


@pytest.mark.parametrize("value", ["1" + "0" * 400, "1e155", "1e308"])
@pytest.mark.parametrize("place", ["timing.json", "outputs/timing.json"])
def test_timing_no_float_holds_is_left_out_with_a_warning(tmp_path, capsys, value, place):
    timing = '{"total_duration_seconds": %s, "total_tokens": %s}'
    workspace = _workspace(tmp_path, {place: timing % (value, value)})
    for config, run in (("with_skill", "run-2"), ("without_skill", "run-1"), ("without_skill", "run-2")):
        (_grading(workspace, config, run).parent / "timing.json").write_text(timing % (7, 7), encoding="utf-8")
    main(["grade", str(workspace), "--rules", str(tmp_path / "r.rules")])  # timing.json is the run's
    code, doc, said = _aggregate(workspace, capsys)
    assert code == 1 and "internal error" not in said and doc["unusable_runs"] == []
    assert f"iteration-1/eval-1-task/with_skill/run-1/{place}: total_duration_seconds is" in said
    assert "above 9,007,199,254,740,992" in said and "total_tokens is" in said
    assert doc["run_summary"]["with_skill"]["time_seconds"]["mean"] == 7.0
    assert doc["run_summary"]["with_skill"]["tokens"]["mean"] == 7.0


_ITEMS = st.lists(st.tuples(st.sampled_from(["pass", "fail", "error", "not_graded"]),
                            st.sampled_from(["exact_match", "semantic", "existence"]), st.booleans()),
                  max_size=8)


def _written(items: list[tuple[str, str, bool]]) -> list[dict]:
    """Items as referee writes them (``gated`` by the gate's own rule)."""
    from referee.engine.report.build import exclusion

    return [{"key": f"1#{n}", "outcome": o, "passed": o == "pass", "precision": p,
             "gated": exclusion(p, o, g) is None} for n, (o, p, g) in enumerate(items, 1)]


def _as_items(written: list[dict]) -> list[Item]:
    return [Item(e["key"], e["outcome"], e["passed"], e["precision"], e["gated"]) for e in written]


@given(_ITEMS)
def test_what_referee_writes_always_agrees_with_itself(items):
    written = _written(items)
    assert disagreements(_as_items(written), summary(written), gate(written)) == []


@given(_ITEMS, st.sampled_from(["passed", "failed", "total", "errors", "not_graded"]),
       st.integers(min_value=1, max_value=10 ** 6), st.booleans())
def test_any_count_changed_is_found(items, field, change, in_gate):
    written = _written(items)
    stated_summary, stated_gate = summary(written), gate(written)
    if in_gate and field in ("passed", "total"):
        stated_gate[field] += change
    else:
        stated_summary[field] += change
    assert disagreements(_as_items(written), stated_summary, stated_gate)


@pytest.mark.parametrize("name", ["gate counts", "an outcome alone", "the counted list"])
def test_report_refuses_forged_counts(tmp_path, capsys, name):
    workspace = _workspace(tmp_path)
    _edit(_grading(workspace, "with_skill", "run-1"), FORGERIES[name])
    capsys.readouterr()
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "internal error" not in out.err
    assert "with_skill/run-1/grading.json: its counts disagree with its expectations (" in out.err
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-", "--config", "without_skill"]) == 0
