"""A run that two evals of the rules claim, one by the run's id and another by its
name (the folder's, or the one its eval_metadata.json gives), is a usage error
naming both. Graded by the first, the other's assertions were left out without a word: a
failing ``expect`` under ``eval "book-flight"`` never ran on eval 3's run named
book-flight, and the grade passed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.dsl import parse_rules
from referee.engine.cli import main
from referee.engine.compile import AmbiguousEval, compile_rules
from referee.engine.run.model import RunId
from referee.engine.run.workspace import discover

BY_ID_AND_NAME = 'eval 3\nexpect 1: response contains "Hello"\neval "book-flight"\nexpect 1: response contains "Nope"\n'


def _workspace(tmp_path: Path, folder: str = "eval-3-book-flight", metadata: dict | None = None) -> Path:
    run = tmp_path / "ws" / folder / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("Hello.\n", encoding="utf-8")
    if metadata is not None:
        (run.parents[1] / "eval_metadata.json").write_text(json.dumps(metadata), encoding="utf-8")
    return tmp_path / "ws"


def test_an_eval_by_id_and_another_by_name_is_an_error_naming_both(tmp_path: Path, capsys):
    rules = tmp_path / "r.rules"
    rules.write_text(BY_ID_AND_NAME, encoding="utf-8")
    assert main(["grade", str(_workspace(tmp_path)), "--rules", str(rules), "--check"]) == 2
    err = capsys.readouterr().err
    assert "eval '3' and eval 'book-flight' of the rules both claim this run" in err
    assert "eval-3-book-flight/with_skill/run-1" in err


def test_a_name_eval_metadata_json_gives_claiming_another_eval_is_an_error(tmp_path: Path):
    program = compile_rules([parse_rules(BY_ID_AND_NAME, "r.rules")])
    (run,) = discover(_workspace(tmp_path, "eval-3", {"eval_id": 3, "eval_name": "book-flight"})).runs
    with pytest.raises(AmbiguousEval, match="eval '3' and eval 'book-flight'"):
        program.for_run(run.id, run.metadata)


@pytest.mark.parametrize("rules", ['eval 3 "book-flight"\nexpect 1: response is not empty\n',
                                   'eval 3\nexpect 1: response is not empty\neval 4 "other"\nexpect 1: response is not empty\n',
                                   # a display name several evals share: each claims the runs of its own id
                                   'eval 3 "book-flight"\nexpect 1: response is not empty\n'
                                   'eval 4 "book-flight"\nexpect 1: response is not empty\n'])
def test_one_eval_claiming_by_id_and_name_is_that_eval(rules: str):
    program = compile_rules([parse_rules(rules, "r.rules")])
    found = program.for_run(RunId("eval-3-book-flight/with_skill/run-1", "3", "book-flight", "with_skill", 1), {})
    assert found is not None and found.key == "3"


def test_the_error_reaches_the_command_from_worker_processes(tmp_path: Path, capsys):
    rules = tmp_path / "r.rules"
    rules.write_text(BY_ID_AND_NAME, encoding="utf-8")
    workspace = _workspace(tmp_path)
    (workspace / "eval-3-book-flight" / "with_skill" / "run-2" / "outputs").mkdir(parents=True)
    assert main(["grade", str(workspace), "--rules", str(rules), "--check", "--jobs", "2"]) == 2
    assert "both claim this run" in capsys.readouterr().err


def test_two_evals_of_one_name_claiming_a_run_named_so_is_an_error():
    program = compile_rules([parse_rules('eval 1 "sales"\nexpect 1: response is not empty\n'
                                         'eval 2 "sales"\nexpect 1: response is not empty\n', "r.rules")])
    with pytest.raises(AmbiguousEval, match="eval '1' \\(named 'sales'\\) and eval '2' \\(named 'sales'\\)"):
        program.for_run(RunId("sales/with_skill/run-1", "sales", None, "with_skill", 1), {})
