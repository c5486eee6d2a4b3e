"""``referee diff`` sees the input files the rules read (``input "expected.txt"``):
states graded with other input files are graded by other rules, and are refused
(or compared with a note under --allow-different-rules), whether a state is a
workspace or aggregate's benchmark.json."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main

RULES = 'eval 1\nexpect "matches": response contains input "expected.txt"\n'
EVALS = {"skill_name": "s", "evals": [{"id": 1, "prompt": "go", "expected_output": "x",
                                       "files": ["evals/files/expected.txt"], "expectations": []}]}


@pytest.fixture
def states(tmp_path: Path, capsys) -> tuple[Path, Path, Path, Path]:
    """BASE graded with expected.txt saying "done", NEW copied from it; the rules and evals.json."""
    (tmp_path / "skill" / "evals" / "files").mkdir(parents=True)
    evals = tmp_path / "skill" / "evals" / "evals.json"
    evals.write_text(json.dumps(EVALS), encoding="utf-8")
    (evals.parent / "files" / "expected.txt").write_text("done\n", encoding="utf-8")
    rules = tmp_path / "r.rules"
    rules.write_text(RULES, encoding="utf-8")
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "go"}, {"role": "assistant", "content": "done"}]),
                    encoding="utf-8")
    base = tmp_path / "base"
    for config in ("with_skill", "without_skill"):
        assert main(["import", "openai", str(chat), "--out", str(base), "--eval", "1", "--config", config]) == 0
    assert main(["grade", str(base), "--rules", str(rules), "--evals", str(evals)]) == 0
    new = tmp_path / "new"
    shutil.copytree(base, new)
    capsys.readouterr()
    return base, new, rules, evals


def test_states_graded_with_the_same_input_files_are_compared(states, capsys):
    base, new, _, _ = states
    assert main(["diff", str(base), str(new), "--primary", "with_skill"]) == 0
    out = capsys.readouterr().out
    assert "no regression" in out and "input files" not in out


def test_states_graded_with_other_input_files_are_refused(states, capsys):
    base, new, rules, evals = states
    (evals.parent / "files" / "expected.txt").write_text("finished\n", encoding="utf-8")
    assert main(["grade", str(new), "--rules", str(rules), "--evals", str(evals), "--force"]) == 1
    capsys.readouterr()
    assert main(["diff", str(base), str(new), "--primary", "with_skill"]) == 2
    err = capsys.readouterr().err
    assert "graded with different input files" in err and "expected.txt@" in err
    assert main(["diff", str(base), str(new), "--primary", "with_skill", "--allow-different-rules"]) == 0
    out = capsys.readouterr().out
    assert "note: graded with different input files" in out and "compared anyway" in out


def test_a_benchmark_records_the_input_files(states, capsys):
    base, new, rules, evals = states
    main(["aggregate", str(base), "--evals", str(evals)])
    blessed = base / "benchmark.json"
    assert json.loads(blessed.read_text(encoding="utf-8"))["metadata"]["inputs"] == ["eval 1: expected.txt@d117fa00"]
    (evals.parent / "files" / "expected.txt").write_text("finished\n", encoding="utf-8")
    main(["grade", str(new), "--rules", str(rules), "--evals", str(evals), "--force"])
    capsys.readouterr()
    assert main(["diff", str(blessed), str(new), "--primary", "with_skill"]) == 2
    assert "graded with different input files" in capsys.readouterr().err


def test_a_state_that_records_no_input_files_is_said(states, capsys):
    base, new, _, _ = states
    for grading in base.rglob("grading.json"):
        document = json.loads(grading.read_text(encoding="utf-8"))
        del document["run"]["inputs"]  # as a referee that did not record them wrote it
        grading.write_text(json.dumps(document), encoding="utf-8")
    main(["diff", str(base), str(new), "--primary", "with_skill"])
    out = capsys.readouterr().out
    assert "records no digests of the input files" in out
