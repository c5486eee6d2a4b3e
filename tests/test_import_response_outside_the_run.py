"""``--response PATH`` naming a file outside the run folder (``../answer.md``, an
absolute path) names no run's file: the command refuses it (exit 2, naming the flag),
in ``import``, ``grade``, ``show`` and ``critique``. Taken before as a response not read,
it left every run without one, so ``not response contains "x"`` passed on every run;
and ``import`` and ``grade SOURCE`` once took the agent's last words for it. Where the
path still reaches a run (evals.json's ``response_file``, the API), the response is
unknown: a check on it is an ERROR, positive or negative."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.cli import main

CHAT = [{"role": "user", "content": "answer in a file"}, {"role": "assistant", "content": "done"}]
RULES = 'eval "chat"\nexpect 1: response contains "done"\nexpect 2: not response contains "rm -rf"\n'


def _source(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "answer.md").write_text("the answer\n", encoding="utf-8")
    source = tmp_path / "run" / "chat.json"
    source.parent.mkdir()
    source.write_text(json.dumps(CHAT), encoding="utf-8")
    rules = tmp_path / "chat.rules"
    rules.write_text(RULES, encoding="utf-8")
    return source, rules


def _named(named: str, tmp_path: Path) -> str:
    return str(tmp_path / "answer.md") if named == "ABSOLUTE" else named


@pytest.mark.parametrize("named", ["../answer.md", "ABSOLUTE", "outputs/../../answer.md"])
def test_every_command_refuses_a_response_outside_the_run_folder(named: str, tmp_path: Path, capsys):
    source, rules = _source(tmp_path)
    named = _named(named, tmp_path)
    commands = [["import", "openai", str(source), "--out", str(tmp_path / "ws")],
                ["grade", str(source), "--rules", str(rules)],
                ["show", str(source.parent)],
                ["critique", str(tmp_path), "--rules", str(rules)]]
    for command in commands:
        with pytest.raises(SystemExit) as exit_:
            main([*command, "--response", named])
        assert exit_.value.code == 2
        assert "--response" in capsys.readouterr().err
    assert not (tmp_path / "ws").exists()


def test_a_response_inside_the_run_folder_is_taken_as_before(tmp_path: Path, capsys):
    source, rules = _source(tmp_path)
    (source.parent / "outputs").mkdir()
    (source.parent / "outputs" / "answer.md").write_text("done, as asked\n", encoding="utf-8")
    assert main(["grade", str(source), "--rules", str(rules), "--response", "outputs/./answer.md", "--json"]) == 0
    outcomes = [e["outcome"] for e in json.loads(capsys.readouterr().out)["runs"][0]["expectations"]]
    assert outcomes == ["pass", "pass"]


@pytest.mark.parametrize("named", ["../answer.md", "ABSOLUTE"])
def test_a_run_given_a_response_outside_its_folder_has_it_unknown(named: str, tmp_path: Path):
    run = tmp_path / "ws" / "eval-chat" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "response.md").write_text("done\n", encoding="utf-8")
    (tmp_path / "ws" / "answer.md").write_text("the answer\n", encoding="utf-8")
    result, = referee.grade(RULES, tmp_path / "ws", response=_named(named, tmp_path / "ws"))
    assert [e["outcome"] for e in result.expectations] == ["error", "error"]
    assert "leaves the run folder" in result.expectations[1]["evidence"]
    (tmp_path / "src").mkdir()
    source, _ = _source(tmp_path / "src")
    with pytest.raises(ValueError, match="leaves the run folder"):
        referee.grade(RULES, source, response=_named(named, tmp_path))
