"""The decision on top of a report is benchmark.json's release decision only when it
is one that ``referee aggregate`` makes: PASS, CONDITIONAL PASS or FAIL. Any other
text there is not a decision; it is named as a problem and the report decides from
the grades, so it can neither stand as a verdict nor add markup to the summary
(``PASS\\n\\n<!--`` once hid everything after the heading of the pull-request comment)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"


def _workspace(tmp_path: Path, decision, breach: str | None = None) -> Path:
    workspace = tmp_path / "ws"
    shutil.copytree(EXAMPLE, workspace)
    path = workspace / "benchmark.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["release"]["decision"] = decision  # its inputs still match the grades: it is fresh
    if breach is not None:  # the reasons and exit code of that decision, as a release config could make them
        document["release"]["exit_code"] = {"FAIL": 1}[decision]
        for reason in document["release"]["reasons"]:
            if reason["status"] != "ok":
                reason["status"] = document["release"]["on_breach"][reason["rule"]] = breach
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return workspace


@pytest.mark.parametrize("decision", ["PASS\n\n<!--", "pass", 1])
def test_a_release_decision_aggregate_never_makes_is_refused(tmp_path: Path, capsys, decision):
    # Input: the example (its grades fail without the skill, and benchmark.json says
    # with_skill is the primary), with benchmark.json's release decision edited.
    # report put "PASS\n\n<!--" in the summary's heading as it is, opening an HTML
    # comment that hid the rest; a decision that is no string was passed over in silence.
    # Then such a decision was left out and the gate's shown: PASS, exit 0, where
    # aggregate had decided CONDITIONAL PASS. What it decided is unknown: refused.
    workspace = _workspace(tmp_path, decision)
    code = main(["report", str(workspace), "--format", "markdown", "-o", "-"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "benchmark.json: its release decision" in err and "none that `referee aggregate` makes" in err


def test_a_decision_aggregate_makes_is_shown(tmp_path: Path, capsys):
    # The example's CONDITIONAL PASS as a release config whose runs and not_graded
    # rules fail would decide it, with that config's on_breach recorded (a FAIL beside
    # reasons that make a CONDITIONAL PASS is refused: test_report_benchmark_edited_decision.py;
    # one the recorded settings do not make: test_report_benchmark_remade_decision.py).
    workspace = _workspace(tmp_path, "FAIL", breach="fail")
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 1
    out, err = capsys.readouterr()
    assert out.split("\n")[1] == "## referee: FAIL"
    assert "release decision" not in err
