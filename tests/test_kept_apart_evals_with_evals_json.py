"""Two eval folders whose eval_metadata.json give one eval id stay two evals when
the checks come from evals.json or a rules file.

Without --evals each is graded by its own sentences, kept apart as
``eval-1-book/1`` and ``eval-1-export/1``. With --evals (or rules) naming eval 1,
both were graded as eval 1: the run was looked up by the id its metadata shares,
so the runs of one eval were graded by the other's checks and counted in its
critique. A run kept apart is now found by its qualified id alone: rules that
name it so grade it; rules that name the shared id grade neither, and say why."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main

EVALS = {"skill_name": "x", "evals": [{"id": 1, "prompt": "p", "expectations": ["Books LX2084"],
                                       "referee": {"checks": {"1": 'response contains "LX2084"'}}}]}


def _workspace(root: Path) -> Path:
    for folder, name, text in (("eval-1-book", "book", "Booked LX2084."), ("eval-1-export", "export", "Exported.")):
        outputs = root / "ws" / "iteration-1" / folder / "with_skill" / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text(f"{text}\n", encoding="utf-8")
        (outputs.parent.parent.parent / "eval_metadata.json").write_text(
            json.dumps({"eval_id": 1, "eval_name": name}), encoding="utf-8")
    (root / "evals.json").write_text(json.dumps(EVALS), encoding="utf-8")
    return root / "ws"


def test_evals_json_naming_the_shared_id_grades_neither(tmp_path: Path, capsys):
    workspace = _workspace(tmp_path)
    assert main(["grade", str(workspace), "--evals", str(tmp_path / "evals.json"), "--check"]) == 2
    err = capsys.readouterr().err
    assert "eval id '1' names evals in other folders too, so this one is 'eval-1-export/1'" in err


def test_rules_naming_the_qualified_id_grade_that_eval_alone(tmp_path: Path, capsys):
    workspace = _workspace(tmp_path)
    rules = tmp_path / "r.rules"
    rules.write_text('eval "eval-1-book/1"\nexpect "books it": response contains "LX2084"\n', encoding="utf-8")
    assert main(["grade", str(workspace), "--rules", str(rules), "--check", "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert [run["path"] for run in runs] == ["iteration-1/eval-1-book/with_skill/run-1"]
