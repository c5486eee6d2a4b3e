"""``diff`` refuses states whose assertions read differently though the rules files'
digests agree: a semantic assertion (``expect 7``) takes its sentence from evals.json,
which no digest records, and the sentence is what the LLM grader judges."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO
from referee.engine.cli import main

EXAMPLE = REPO / "examples" / "booking-skill-workspace"
SKILL = REPO / "examples" / "booking-skill"


def _new(tmp_path: Path, sentence: str | None) -> Path:
    """The example workspace graded again, with eval 1's seventh expectation reworded."""
    skill, new = tmp_path / "skill", tmp_path / "new"
    shutil.copytree(SKILL, skill)
    shutil.copytree(EXAMPLE, new)
    evals = skill / "evals" / "evals.json"
    if sentence is not None:
        doc = json.loads(evals.read_text(encoding="utf-8"))
        doc["evals"][0]["expectations"][6] = sentence
        evals.write_text(json.dumps(doc), encoding="utf-8")
    main(["grade", str(new), "--rules", str(skill / "booking.rules"), "--evals", str(evals)])
    return new


def test_a_semantic_sentence_reworded_in_evals_json_is_other_rules(tmp_path: Path, capsys):
    new = _new(tmp_path, "The response is rude")
    capsys.readouterr()
    assert main(["diff", str(EXAMPLE), str(new)]) == 2
    assert "graded by different rules (the wording of 1#7 differs)" in capsys.readouterr().err
    assert main(["diff", str(EXAMPLE / "benchmark.json"), str(new)]) == 2


def test_the_same_sentences_are_the_same_rules(tmp_path: Path, capsys):
    new = _new(tmp_path, None)
    capsys.readouterr()
    assert main(["diff", str(EXAMPLE), str(new)]) == 0
    assert "no regression" in capsys.readouterr().out
