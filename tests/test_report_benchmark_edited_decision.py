"""``referee report`` shows benchmark.json's release decision only when it is the
one its reasons give (FAIL when a reason's status is "fail", else CONDITIONAL PASS
when one is "conditional", else PASS) with its exit code: a decision edited by hand
(FAIL made PASS) is refused, as counts that disagree with their expectations are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compare_workspace import graded
from referee.engine.cli import main


def _aggregated(tmp_path: Path) -> Path:
    # with_skill passes 2 runs of 3 in each eval: a gated pass rate of 66.7 %, below the
    # 80 % required, so aggregate decides FAIL (exit 1).
    workspace = graded(tmp_path, {"with_skill": [["good", "good", "bad"]] * 2, "without_skill": [["bad"] * 3] * 2})
    assert main(["aggregate", str(workspace), "--primary", "with_skill"]) == 1
    return workspace


def _edit(workspace: Path, **release) -> None:
    path = workspace / "benchmark.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["release"].update(release)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")


@pytest.mark.parametrize("edit", [{"decision": "PASS", "exit_code": 0}, {"decision": "PASS"},
                                  {"decision": "CONDITIONAL PASS", "exit_code": 3}, {"exit_code": 0},
                                  {"decision": "PASS", "exit_code": 0, "reasons": None}])
def test_a_release_decision_its_reasons_do_not_give_is_refused(tmp_path: Path, capsys, edit: dict):
    # The report said "## referee: PASS" and exited 0 over a FAIL edited to PASS.
    workspace = _aggregated(tmp_path)
    _edit(workspace, **edit)
    capsys.readouterr()
    code = main(["report", str(workspace), "--format", "markdown", "-o", "-"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "is not the one `referee aggregate` makes from what it holds" in err


def test_the_decision_aggregate_wrote_is_shown(tmp_path: Path, capsys):
    workspace = _aggregated(tmp_path)
    capsys.readouterr()
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 1
    assert capsys.readouterr().out.split("\n")[1] == "## referee: FAIL"
