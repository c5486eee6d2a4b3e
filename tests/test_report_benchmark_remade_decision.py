"""``referee report`` shows benchmark.json's release decision only when ``referee
aggregate`` makes it again from the grades there, with the roles and release
settings (mode, thresholds, on_breach) benchmark.json records. A decision edited
together with its reasons' statuses and exit code agrees with itself, not with
the grades: it is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compare_workspace import graded
from referee.engine.cli import main


def _aggregated(tmp_path: Path) -> Path:
    # with_skill passes 2 runs of 3 in each eval: a gated pass rate of 66.7 %, below the
    # 80 % required (a FAIL), and each eval's runs spread 100 points (conditional).
    workspace = graded(tmp_path, {"with_skill": [["good", "good", "bad"]] * 2, "without_skill": [["bad"] * 3] * 2})
    assert main(["aggregate", str(workspace), "--primary", "with_skill"]) == 1
    return workspace


def _edit(workspace: Path, decision: str, status: str, drop: str | None = None) -> None:
    path = workspace / "benchmark.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    release = document["release"]
    release.update(decision=decision, exit_code={"PASS": 0, "CONDITIONAL PASS": 3, "FAIL": 1}[decision])
    for reason in release["reasons"]:
        reason["status"] = "ok" if reason["status"] == "ok" or status == "ok" else status
    if drop is not None:
        del release[drop]
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")


def _report(workspace: Path, capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["report", str(workspace), "--format", "markdown", "-o", "-"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("decision, status", [("PASS", "ok"), ("CONDITIONAL PASS", "conditional")])
def test_a_decision_edited_with_its_reasons_is_refused(tmp_path: Path, capsys, decision: str, status: str):
    # Input: aggregate's FAIL, with every reason's status made "ok" (or each breach made
    # "conditional"), the decision and exit code to match. report printed "## referee:
    # PASS" and exited 0 (or CONDITIONAL PASS, 3): the reasons agreed with the decision.
    workspace = _aggregated(tmp_path)
    _edit(workspace, decision, status)
    code, out, err = _report(workspace, capsys)
    assert code == 2 and out == ""
    assert f"its release decision {decision} is not the one `referee aggregate` makes from the grades" in err
    assert "(FAIL; the reasons of pass_rate" in err


def test_a_reason_whose_rule_is_no_name_is_refused(tmp_path: Path, capsys):
    # Input: a reason's "rule" made a list: report stopped with an internal error
    # (TypeError: unhashable type) while saying which reasons differ.
    workspace = _aggregated(tmp_path)
    path = workspace / "benchmark.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["release"]["reasons"][0]["rule"] = ["pass_rate"]
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    code, out, err = _report(workspace, capsys)
    assert code == 2 and out == "" and "internal error" not in err
    assert "(FAIL; the reasons of pass_rate differ)" in err


def test_a_decision_without_the_settings_it_rests_on_is_refused(tmp_path: Path, capsys):
    # Without on_breach the decision cannot be made again: it is not shown as it stands.
    workspace = _aggregated(tmp_path)
    _edit(workspace, "PASS", "ok", drop="on_breach")
    code, out, err = _report(workspace, capsys)
    assert code == 2 and out == ""
    assert "cannot be made again from the grades (its release block records no on_breach)" in err


def test_the_decision_aggregate_made_is_shown(tmp_path: Path, capsys):
    workspace = _aggregated(tmp_path)
    code, out, err = _report(workspace, capsys)
    assert code == 1 and out.split("\n")[1] == "## referee: FAIL"
    assert "release decision" not in err


def test_a_decision_other_release_settings_make_is_shown(tmp_path: Path, capsys):
    # Any decision aggregate makes from these grades with the settings recorded is shown:
    # here the config where a breach of pass_rate or stability is conditional.
    workspace = _aggregated(tmp_path)
    config = tmp_path / "lenient.toml"
    config.write_text('[on_breach]\npass_rate = "conditional"\n', encoding="utf-8")
    assert main(["aggregate", str(workspace), "--primary", "with_skill", "--release-config", str(config)]) == 3
    config.unlink()  # not needed again: benchmark.json records what it set
    code, out, err = _report(workspace, capsys)
    assert code == 3 and out.split("\n")[1] == "## referee: CONDITIONAL PASS"
