"""``referee aggregate`` end to end: the published aggregator's bugs, each with a
correct benchmark or a clear error, never a silent 0 %; and what the viewer reads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO
from graded_runs import write_run
from referee.engine.cli import main

EXAMPLE_WS = REPO / "examples" / "booking-skill-workspace"
EVALS = REPO / "examples" / "booking-skill" / "evals" / "evals.json"
RELAXED = """
mode = "quick"
[on_breach]
not_graded = "conditional"
runs = "conditional"
"""


def aggregate(workspace: Path, *extra: str) -> tuple[int, dict | None]:
    code = main(["aggregate", str(workspace), *extra])
    out = workspace / "benchmark.json"
    return code, json.loads(out.read_text(encoding="utf-8")) if out.exists() else None


@pytest.fixture
def example(tmp_path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE_WS, ws)
    for stale in ("benchmark.json", "benchmark.md"):
        (ws / stale).unlink(missing_ok=True)
    return ws


def _viewer_reads(doc: dict) -> None:
    """The fields and types skill-creator's viewer (renderBenchmark) reads."""
    meta = doc["metadata"]
    assert isinstance(meta["skill_name"], str) and isinstance(meta["evals_run"], list)
    assert isinstance(meta["runs_per_configuration"], int) and meta["runs_per_configuration"] >= 1
    summary = doc["run_summary"]
    configs = [k for k in summary if k != "delta"]
    assert configs == meta["configurations"]  # nothing but configurations besides delta
    for config in configs:
        for metric in ("pass_rate", "time_seconds", "tokens"):
            stat = summary[config][metric]
            assert all(isinstance(stat[k], (int, float)) for k in ("mean", "stddev"))
    for value in summary.get("delta", {}).values():
        assert value[0] in "+-" and float(value) == float(value)
    for run in doc["runs"]:
        result = run["result"]
        assert {"eval_id", "eval_name", "configuration", "run_number"} <= set(run)
        assert isinstance(result["pass_rate"], float) and isinstance(result["time_seconds"], float)
        assert isinstance(result["passed"], int) and isinstance(result["total"], int)
        assert isinstance(result["errors"], int)
        assert all({"text", "passed", "evidence"} <= set(e) for e in run["expectations"])
    assert all(isinstance(n, str) for n in doc["notes"])


def test_example_benchmark_is_what_the_viewer_reads(example):
    code, doc = aggregate(example, "--evals", str(EVALS))
    assert code == 3 and doc["release"]["decision"] == "CONDITIONAL PASS"
    _viewer_reads(doc)
    assert doc["metadata"]["skill_name"] == "flight-booking" and doc["metadata"]["skill_path"] == "booking-skill"
    assert list(doc["run_summary"]) == ["with_skill", "without_skill", "delta"]
    assert doc["run_summary"]["delta"]["pass_rate"] == "+0.78"
    assert (example / "benchmark.md").read_text(encoding="utf-8").startswith("# Benchmark: flight-booking")


def test_committed_example_benchmark_is_reproduced(example):
    # The example's benchmark.json and benchmark.md are part of the example (referee
    # report shows its decision). After a deliberate change, regenerate them from the
    # checkout: referee aggregate examples/booking-skill-workspace --evals
    # examples/booking-skill/evals/evals.json, and review the diff.
    aggregate(example, "--evals", str(EVALS))
    for name in ("benchmark.json", "benchmark.md"):
        assert (example / name).read_bytes() == (EXAMPLE_WS / name).read_bytes(), f"regenerate {name}"


@pytest.mark.parametrize("good, bad, flags, sign", [
    ("old_skill", "new_skill", (), "-"),  # names say new is primary: it is the worse one here
    ("new_skill", "old_skill", (), "+"),
    ("zeta", "alpha", ("--primary", "zeta", "--baseline", "alpha"), "+"),
    ("alpha", "zeta", ("--primary", "zeta", "--baseline", "alpha"), "-"),
    ("without_x", "with_x", (), "-"),
])
def test_delta_sign_follows_the_roles_not_the_names(example, good, bad, flags, sign):
    for eval_dir in (example / "iteration-1").iterdir():
        if eval_dir.is_dir():
            (eval_dir / "with_skill").rename(eval_dir / good)
            (eval_dir / "without_skill").rename(eval_dir / bad)
    code, doc = aggregate(example, *flags)
    assert code == {"+": 3, "-": 1}[sign]  # CONDITIONAL PASS (too few runs), or FAIL when the primary is worse
    delta = doc["run_summary"]["delta"]["pass_rate"]
    assert delta[0] == sign and abs(float(delta)) == 0.78
    primary = doc["metadata"]["primary"]
    assert list(doc["run_summary"])[0] == primary


def test_names_that_say_nothing_are_refused_not_sorted(example, capsys):
    for eval_dir in (example / "iteration-1").iterdir():
        if eval_dir.is_dir():
            (eval_dir / "with_skill").rename(eval_dir / "b")
            (eval_dir / "without_skill").rename(eval_dir / "a")
    code, doc = aggregate(example)
    assert code == 2 and doc is None
    assert "--primary NAME --baseline NAME" in capsys.readouterr().err


def test_one_configuration_has_no_delta(tmp_path):
    for n in (1, 2):
        write_run(tmp_path / "eval-1" / "with_skill" / f"run-{n}", ["pass", "pass"])
    code, doc = aggregate(tmp_path, "--mode", "quick")
    assert code == 0 and doc["release"]["decision"] == "PASS"
    assert list(doc["run_summary"]) == ["with_skill"] and doc["comparisons"] == []
    assert doc["metadata"]["baseline"] is None


def test_three_configurations_are_each_compared_with_the_baseline(tmp_path):
    for config, outcome in (("with_skill", "pass"), ("without_skill", "fail"), ("with_skill_v2", "pass")):
        write_run(tmp_path / "eval-1" / config / "run-1", [outcome, "pass"])
    _, doc = aggregate(tmp_path)
    assert [(c["configuration"], c["baseline"], c["delta_text"]["pass_rate"]) for c in doc["comparisons"]] == [
        ("with_skill", "without_skill", "+0.50"), ("with_skill_v2", "without_skill", "+0.50")]
    assert list(doc["run_summary"]) == ["with_skill", "without_skill", "with_skill_v2", "delta"]


def test_runs_per_configuration_is_counted_and_eval_name_written(example):
    _, doc = aggregate(example)
    assert doc["metadata"]["runs_per_configuration"] == 1  # eval 2 has one run per configuration
    assert doc["metadata"]["runs_per_configuration_max"] == 2
    assert {(r["eval_id"], r["eval_name"]) for r in doc["runs"]} == {(1, "book-flight"), (2, "fare-export")}


def test_tokens_and_time_come_from_timing_json_not_a_character_count(example):
    _, doc = aggregate(example)
    run = next(r for r in doc["runs"] if r["path"].endswith("without_skill/run-1") and r["eval_id"] == 1)
    assert run["result"]["tokens"] == 7020 and run["result"]["time_seconds"] == 15.4


def test_gated_and_all_graded_pass_rates_are_both_labelled(example):
    _, doc = aggregate(example)
    run = next(r for r in doc["runs"] if r["eval_id"] == 2 and r["configuration"] == "without_skill")
    assert (run["result"]["passed"], run["result"]["total"]) == (0, 2)  # the existence check is out
    assert (run["result"]["passed_all_graded"], run["result"]["total_all_graded"]) == (1, 3)
    assert set(doc["metadata"]["pass_rates"]) == {"pass_rate", "pass_rate_all_graded"}


def test_runs_without_a_usable_grading_are_listed_never_zero(tmp_path, capsys):
    write_run(tmp_path / "eval-1" / "with_skill" / "run-1", ["pass"])
    write_run(tmp_path / "eval-1" / "with_skill" / "run-2", ["fail"], grader=None)  # skill-creator's grader
    (tmp_path / "eval-1" / "with_skill" / "run-3" / "outputs").mkdir(parents=True)  # never graded
    write_run(tmp_path / "eval-1" / "without_skill" / "run-1", ["fail"])
    (tmp_path / "eval-1" / "without_skill" / "run-1" / "grading.json").write_text("{broken")
    write_run(tmp_path / "eval-1" / "without_skill" / "run-2", ["fail"])
    code, doc = aggregate(tmp_path)
    unusable = {u["path"]: u["reason"] for u in doc["unusable_runs"]}
    assert set(unusable) == {"eval-1/with_skill/run-2", "eval-1/with_skill/run-3", "eval-1/without_skill/run-1"}
    assert "not written by referee" in unusable["eval-1/with_skill/run-2"]
    assert "no grading.json" in unusable["eval-1/with_skill/run-3"]
    assert doc["run_summary"]["with_skill"]["pass_rate"]["mean"] == 1.0  # not pulled down by a 0
    assert doc["run_summary"]["with_skill"]["runs"] == 1
    assert any(r["rule"] == "unusable_runs" and r["status"] != "ok" for r in doc["release"]["reasons"])


def test_nothing_graded_is_an_error_not_an_empty_benchmark(tmp_path, capsys):
    (tmp_path / "eval-1" / "with_skill" / "run-1" / "outputs").mkdir(parents=True)
    assert aggregate(tmp_path) == (2, None)
    assert "run referee grade first" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert aggregate(empty) == (2, None)
    assert "an empty benchmark is not a success" in capsys.readouterr().err


def test_stray_files_never_crash_it(example):
    (example / "iteration-1" / "eval-notes.txt").write_text("notes")
    (example / "iteration-1" / "eval-1-book-flight" / "with_skill" / "run-1.log").write_text("log")
    (example / "iteration-1" / "eval-1-book-flight" / "with_skill" / "run-a").mkdir()
    (example / "iteration-1" / "eval-9").mkdir()
    (example / "benchmark.json").write_text("not json")
    code, doc = aggregate(example)
    assert code == 3 and len(doc["runs"]) == 6


@pytest.mark.parametrize("level, runs", [
    ("", 6), ("iteration-1", 6), ("iteration-1/eval-1-book-flight", 4),
    ("iteration-1/eval-1-book-flight/with_skill", 2)])
def test_any_folder_level_is_accepted(example, level, runs):
    code, doc = aggregate(example / level) if level else aggregate(example)
    assert code == 3 and len(doc["runs"]) == runs
    assert {r["eval_id"] for r in doc["runs"]} <= {1, 2}
    assert {r["configuration"] for r in doc["runs"]} <= {"with_skill", "without_skill"}


def test_breakdowns_per_eval_configuration_and_assertion(example):
    _, doc = aggregate(example)
    eval1 = doc["evals"][0]
    assert eval1["eval_id"] == 1 and set(eval1["configurations"]) == {"with_skill", "without_skill"}
    assert eval1["configurations"]["without_skill"]["pass_rate"]["mean"] == pytest.approx(1 / 3, abs=1e-4)
    assert eval1["configurations"]["without_skill"]["spread"] == pytest.approx(0.6667, abs=1e-4)
    row = next(a for a in doc["assertions"] if a["key"] == "1#4")
    assert row["configurations"]["with_skill"]["passed"] == 2 and row["configurations"]["without_skill"]["passed"] == 0
    assert row["discriminates"] is True


def test_release_pass_exits_0_and_unstable_turns_it_conditional(tmp_path):
    config = tmp_path / "release.toml"
    config.write_text('mode = "quick"\n', encoding="utf-8")
    ws = tmp_path / "ws"
    for n in (1, 2):
        write_run(ws / "eval-1" / "with_skill" / f"run-{n}", ["pass"] * 10)
        write_run(ws / "eval-1" / "without_skill" / f"run-{n}", ["fail"] * 10)
    code, doc = aggregate(ws, "--release-config", str(config))
    assert code == 0 and doc["release"]["decision"] == "PASS"
    write_run(ws / "eval-1" / "with_skill" / "run-2", ["pass"] * 8 + ["fail"] * 2)  # a 20-point gap
    code, doc = aggregate(ws, "--release-config", str(config))
    assert code == 3 and doc["release"]["decision"] == "CONDITIONAL PASS"
    reason = next(r for r in doc["release"]["reasons"] if r["rule"] == "stability")
    assert reason["status"] == "conditional" and "20 points" in reason["message"]
    # the mean, never the best run
    assert doc["run_summary"]["with_skill"]["pass_rate"]["mean"] == 0.9


def test_release_fails_below_the_pass_rate_and_lists_the_numbers(tmp_path):
    for n in (1, 2, 3):
        write_run(tmp_path / "eval-1" / "with_skill" / f"run-{n}", ["pass", "fail"])
        write_run(tmp_path / "eval-1" / "without_skill" / f"run-{n}", ["pass", "pass"])
    code, doc = aggregate(tmp_path)
    assert code == 1 and doc["release"]["decision"] == "FAIL"
    messages = {r["rule"]: (r["status"], r["message"]) for r in doc["release"]["reasons"]}
    assert messages["pass_rate"][0] == "fail" and "50.0%" in messages["pass_rate"][1]
    assert messages["delta"][0] == "fail" and "-50.0 points" in messages["delta"][1]


def test_errored_and_ungraded_gate_assertions_are_rules(tmp_path):
    for n in (1, 2, 3):
        write_run(tmp_path / "eval-1" / "with_skill" / f"run-{n}", ["pass", "error" if n == 1 else "pass",
                                                                     "not_graded"])
    code, doc = aggregate(tmp_path)
    messages = {r["rule"]: r for r in doc["release"]["reasons"]}
    assert messages["errors"]["status"] == "fail" and "1 errored" in messages["errors"]["message"]
    assert messages["not_graded"]["status"] == "conditional"
    assert doc["release"]["decision"] == "FAIL"


@pytest.mark.parametrize("text, message", [
    ("mode = 'slow'\n", "mode must be one of"),
    ("[thresholds]\nmin_pass_rate = 'high'\n", "thresholds.min_pass_rate"),
    ("[thresholds]\nmin_pas_rate = 0.5\n", "unknown key thresholds.min_pas_rate"),
    ("[on_breach]\ndelta = 'maybe'\n", "on_breach.delta"),
    ("mode = \n", "not valid TOML"),
    ("mode = " + "[" * 100_000 + "\n", "not valid TOML: nested too deeply"),
])
def test_a_bad_release_config_is_a_usage_error_naming_the_file(example, tmp_path, capsys, text, message):
    config = tmp_path / "mine.toml"
    config.write_text(text, encoding="utf-8")
    assert aggregate(example, "--release-config", str(config)) == (2, None)
    err = capsys.readouterr().err
    assert message in err and "mine.toml" in err and "Traceback" not in err


@pytest.mark.parametrize("data, message", [
    (b"[" * 100_000, "nested too deeply"),
    (b'{"evals": [', "Expecting value"),
    (b"\xff", "not UTF-8"),
])
def test_an_unreadable_evals_file_is_a_usage_error_naming_it(example, tmp_path, capsys, data, message):
    evals = tmp_path / "evals.json"
    evals.write_bytes(data)
    assert aggregate(example, "--evals", str(evals), "--check") == (2, None)
    err = capsys.readouterr().err
    assert f"cannot read the evals file {evals}" in err and message in err and "internal error" not in err


def test_check_writes_nothing(example, capsys):
    assert aggregate(example, "--check") == (3, None)
    assert "nothing was written (--check)" in capsys.readouterr().out


def test_the_same_bytes_from_another_working_directory_and_path(example, tmp_path, monkeypatch):
    aggregate(example, "--evals", str(EVALS))
    first = (example / "benchmark.json").read_bytes()
    other = tmp_path / "elsewhere" / "deeper" / "copy"
    shutil.copytree(example, other)
    (other / "benchmark.json").unlink()
    monkeypatch.chdir(other.parent)
    assert main(["aggregate", "copy", "--evals", str(EVALS)]) == 3
    assert (other / "benchmark.json").read_bytes() == first


def test_several_iterations_aggregate_the_last_unless_told(tmp_path, capsys):
    write_run(tmp_path / "iteration-1" / "eval-1" / "with_skill" / "run-1", ["fail"])
    write_run(tmp_path / "iteration-2" / "eval-1" / "with_skill" / "run-1", ["pass"])
    _, doc = aggregate(tmp_path)
    assert [r["path"] for r in doc["runs"]] == ["iteration-2/eval-1/with_skill/run-1"]
    assert "aggregating iteration 2" in capsys.readouterr().err
    _, doc = aggregate(tmp_path, "--iteration", "1")
    assert [r["path"] for r in doc["runs"]] == ["iteration-1/eval-1/with_skill/run-1"]


@pytest.mark.parametrize("broken", [
    {"summary": [], "gate": {}, "expectations": []},
    {"summary": {"passed": -1, "total": 1}, "gate": {"counted": [], "passed": 0, "total": 0}, "expectations": []},
    {"summary": {"passed": 1, "total": 1}, "gate": {"counted": 3, "passed": 0, "total": 0}, "expectations": [1]},
    [],
])
def test_a_hostile_grading_json_is_reported_not_a_crash(tmp_path, broken):
    write_run(tmp_path / "eval-1" / "with_skill" / "run-1", ["pass"])
    target = tmp_path / "eval-1" / "with_skill" / "run-2"
    write_run(target, ["pass"])
    if isinstance(broken, dict):
        broken["grader"] = {"name": "referee"}
    (target / "grading.json").write_text(json.dumps(broken), encoding="utf-8")
    code, doc = aggregate(tmp_path)
    assert code == 3 and [u["path"] for u in doc["unusable_runs"]] == ["eval-1/with_skill/run-2"]
    said = next(r["message"] for r in doc["release"]["reasons"] if r["rule"] == "unusable_runs")
    assert said.count("(") == said.count(")"), said  # was "(grading.json lacks what aggregation needs (TypeError"


@pytest.mark.parametrize("field, value, said", [
    ("expectations", None, "its expectations is null, not a list"),
    ("gate", [], "its gate is [], not an object"),
    ("summary", None, "its summary is null, not an object"),
])
def test_a_grading_json_edited_out_of_shape_names_the_field(tmp_path, capsys, field, value, said):
    write_run(tmp_path / "eval-1" / "with_skill" / "run-1", ["pass"])
    target = tmp_path / "eval-1" / "with_skill" / "run-2"
    write_run(target, ["pass"])
    document = json.loads((target / "grading.json").read_text(encoding="utf-8"))
    document[field] = value
    (target / "grading.json").write_text(json.dumps(document), encoding="utf-8")
    code, doc = aggregate(tmp_path)
    err = capsys.readouterr().err
    assert code == 3 and [u["path"] for u in doc["unusable_runs"]] == ["eval-1/with_skill/run-2"]
    assert said in doc["unusable_runs"][0]["reason"] and said in err
    assert "Error" not in err  # was "(TypeError: 'NoneType' object is not iterable)"


def test_a_grading_json_cut_short_is_named_by_line_not_by_exception(tmp_path, capsys):
    write_run(tmp_path / "eval-1" / "with_skill" / "run-1", ["pass"])
    target = tmp_path / "eval-1" / "with_skill" / "run-2"
    write_run(target, ["pass"])
    text = (target / "grading.json").read_text(encoding="utf-8")
    (target / "grading.json").write_text(text[:len(text) // 2], encoding="utf-8")
    code, doc = aggregate(tmp_path)
    err = capsys.readouterr().err
    assert code == 3 and "grading.json is not readable JSON (" in doc["unusable_runs"][0]["reason"]
    assert ", line " in err and "Error" not in err, err  # was "(not JSON (JSONDecodeError: Expecting ..."
