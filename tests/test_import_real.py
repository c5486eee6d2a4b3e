"""Real public runs (tests/fixtures/real, each with its SOURCE.md), imported and graded:
the verdicts and warnings expected of each, the same whether the run is imported to
disk and graded or built in memory, and evidence that cites the source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

import referee
from referee.engine.cli import main
from referee.engine.run.importers import read_sources
from referee.engine.run.importers.naming import Namer
from referee.engine.run.importers.writer import render_run
from referee.engine.run.memory import memory_run
from referee.engine.run.workspace import discover

REAL = Path(__file__).resolve().parent / "fixtures" / "real"
CASES = yaml.safe_load((REAL / "imports.yaml").read_text(encoding="utf-8"))


def _imported(case: dict, out: Path) -> dict[str, dict]:
    extra = ["--error-when", case["error_when"]] if "error_when" in case else []
    assert main(["import", case["format"], *(str(REAL / s) for s in case["sources"]), "--out", str(out), *extra]) == 0
    assert main(["grade", str(out), "--rules", str(REAL / case["rules"])]) in (0, 1)
    return {run.id.rel: json.loads((run.path / "grading.json").read_text(encoding="utf-8"))
            for run in discover(out).runs}


def _outcomes(report: dict) -> dict[str, str]:
    return {item["key"].split("#")[1]: item["outcome"] for item in report["expectations"]}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_real_runs_give_the_expected_verdicts(case: dict, tmp_path: Path, capsys):
    reports = _imported(case, tmp_path / "ws")
    capsys.readouterr()
    assert sorted(reports) == sorted(case["runs"])
    for name, want in case["runs"].items():
        assert _outcomes(reports[name]) == want["verdicts"], name
        codes = sorted({p.split("warning[")[1].split("]")[0] for p in reports[name]["problems"]})
        assert codes == sorted(want["problems"]), reports[name]["problems"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_in_memory_and_on_disk_give_the_same_verdicts(case: dict, tmp_path: Path, capsys):
    reports = _imported(case, tmp_path / "ws")
    capsys.readouterr()
    rules = (REAL / case["rules"]).read_text(encoding="utf-8")
    read = read_sources(case["format"], [REAL / s for s in case["sources"]], error_when=case.get("error_when"))
    namer = Namer([path for path, _, _ in read.found])  # the folders import names them after
    for path, number, conversation in read.found:
        name = namer.name(path, number)
        (result,) = referee.grade(rules, memory_run(render_run(conversation).files, eval_id=name))
        assert [e["outcome"] for e in result.expectations] == list(_outcomes(reports[name]).values()), name


def test_evidence_of_real_runs_cites_the_source_and_quotes_what_it_holds(tmp_path: Path, capsys):
    case = CASES[0]
    reports = _imported(case, tmp_path / "ws")
    capsys.readouterr()
    checked = 0
    for name, report in reports.items():
        source = (REAL / "claude-code" / name / "transcript.jsonl").read_text(encoding="utf-8").split("\n")
        for item in report["expectations"]:
            assert "transcript.md" not in item["evidence"] and "Tool: " not in item["evidence"], item["evidence"]
            for place in item["evidence_location"]:
                if place["file"] == "transcript.jsonl":
                    assert 1 <= place["line"] <= len(source)
                    checked += 1
        for claim in report["claims"]:
            assert "outputs/" not in claim["evidence"], claim
    assert checked >= 20


@pytest.mark.parametrize("folder, kind", [("claude-code", "claude-code"), ("openai", "openai")])
def test_real_logs_pointed_at_as_they_lie_are_named_with_the_import_that_makes_them_runs(folder, kind, capsys):
    # A folder of sessions is no workspace: the error names a log in it and the import.
    assert main(["grade", str(REAL / folder), "--rules", str(REAL / "openai" / "tau-retail.rules")]) == 2
    err = capsys.readouterr().err
    assert "no runs found under" in err and f"log, which is a run once imported: referee import {kind} " in err
    assert main(["show", str(REAL / "claude-code" / "hello-world-script")]) == 2
    assert "hello-world-script/transcript.jsonl holds a claude-code log" in capsys.readouterr().err


def test_a_log_left_in_a_runs_outputs_is_named_with_its_format(tmp_path: Path, capsys):
    run = tmp_path / "ws" / "task" / "outputs"
    run.mkdir(parents=True)
    (run / "chat.json").write_bytes((REAL / "openai" / "tau-bench-retail" / "grok-3-retail-task-0.json").read_bytes())
    assert main(["show", str(tmp_path / "ws")]) == 0
    assert "looks like an openai log that was not imported" in capsys.readouterr().out


def test_a_session_left_unimported_in_a_run_never_lets_a_check_pass(tmp_path: Path):
    # The run's record, notes and answer are in the log, which grading does not read:
    # "no harness ...", "no calls ..." and "not response ..." are errors, never passes on nothing.
    run = tmp_path / "coverage-test-fix" / "outputs"
    run.mkdir(parents=True)
    (run / "transcript.jsonl").write_bytes((REAL / "claude-code" / "coverage-test-fix" / "transcript.jsonl").read_bytes())
    rules = (REAL / "claude-code" / "sessions.rules").read_text(encoding="utf-8")
    rules = rules.replace('eval "hello-world-script"', 'expect 17: not response contains "malware"\n\neval "hello-world-script"')
    (result,) = referee.grade(rules, tmp_path)
    outcomes = {item["key"].split("#")[1]: item["outcome"] for item in result.expectations}
    assert "pass" not in outcomes.values(), outcomes
    for key in ("7", "10", "13", "15", "17"):  # every negative check of the rules
        assert outcomes[key] == "error", key
    assert "transcript.jsonl looks like a claude-code log that was not imported" in result.expectations[9]["evidence"]
