"""``referee report`` shows benchmark.json's pass rates and deltas (``run_summary``,
beside them ``comparisons``) only when they are the ones ``referee aggregate``
makes from the grades there: a figure edited by hand (66.7 % made 95 %) is
refused, whether or not the release decision beside it was left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compare_workspace import graded
from referee.engine.cli import main


def _aggregated(tmp_path: Path) -> Path:
    # with_skill: a gated pass rate of 66.7 % against 0 %: FAIL (below 80 %).
    workspace = graded(tmp_path, {"with_skill": [["good", "good", "bad"]] * 2, "without_skill": [["bad"] * 3] * 2})
    assert main(["aggregate", str(workspace), "--primary", "with_skill"]) == 1
    return workspace


def _edit(workspace: Path, change) -> None:
    path = workspace / "benchmark.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")


def _rate(document: dict) -> None:
    document["run_summary"]["with_skill"]["pass_rate"]["mean"] = 0.95


def _delta(document: dict) -> None:
    document["run_summary"]["delta"]["pass_rate"] = "+0.95"


def _comparison(document: dict) -> None:
    document["comparisons"][0]["delta"]["pass_rate"] = 0.95


def _rate_without_release(document: dict) -> None:
    _rate(document)
    del document["release"]  # the decision shown is then the gate's, the table still benchmark.json's


@pytest.mark.parametrize("change, shown", [(_rate, "run_summary"), (_delta, "run_summary"),
                                           (_comparison, "comparisons"), (_rate_without_release, "run_summary")])
def test_figures_the_grades_do_not_give_are_refused(tmp_path: Path, capsys, change, shown: str):
    # The Markdown summary's benchmark table read "| with_skill | 95% ± 52% |" (or
    # "| delta | +95 pts |") under "## referee: FAIL", over runs at 66.7 %.
    workspace = _aggregated(tmp_path)
    _edit(workspace, change)
    capsys.readouterr()
    code = main(["report", str(workspace), "--format", "markdown", "-o", "-"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert f"benchmark.json: its {shown} (the pass rates and deltas shown) is not what `referee aggregate` " \
           "makes from the grades there" in err


def test_the_figures_aggregate_wrote_are_shown(tmp_path: Path, capsys):
    workspace = _aggregated(tmp_path)
    capsys.readouterr()
    assert main(["report", str(workspace), "--format", "markdown", "-o", "-"]) == 1
    out = capsys.readouterr().out
    assert "| with_skill | 67% ± 52% | – | – |" in out and "| delta | +67 pts | – | – |" in out
