"""The sentence of an assertion, printed by ``referee grade`` under its run, stays on
its line. The sentences can come from the workspace (``eval_metadata.json``'s
``expectations``, which the harness writes beside the runs): a line break in one,
printed as it is, would start a line that reads as referee's, or as a workflow
command in a CI log (the GitHub Actions runner reads one at the start of any line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.cli import main

FORGED = "::stop-commands::hidden"


def _workspace(tmp_path: Path) -> tuple[Path, Path]:
    outputs = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True)
    (outputs / "response.md").write_text("hi\n", encoding="utf-8")
    metadata = {"eval_id": 1, "eval_name": "x", "expectations": [f"says bye\n{FORGED}"]}
    (tmp_path / "ws" / "eval-1-x" / "eval_metadata.json").write_text(json.dumps(metadata), encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "x"\nexpect 1: response contains "bye"\n', encoding="utf-8")
    return tmp_path / "ws", rules


@pytest.mark.parametrize("verbose", [[], ["--verbose"]])
def test_an_expectation_with_a_line_break_stays_on_its_line(tmp_path, capsys, verbose):
    # Input: eval_metadata.json's expectation "says bye\n::stop-commands::hidden", which
    # fails; grade printed its sentence with the break as it is.
    workspace, rules = _workspace(tmp_path)
    assert main(["grade", str(workspace), "--rules", str(rules), "--check", "--color", "never", *verbose]) == 1
    out = capsys.readouterr().out
    assert [line for line in out.split("\n") if line.strip().startswith("::")] == []
    assert f"x 1#1 says bye\\n{FORGED}" in out
