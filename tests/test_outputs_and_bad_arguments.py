"""Outputs that must not be written through what stands in their place, and arguments
or input files that once ended as an internal error instead of a message naming them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.engine.cli import main

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "booking-skill"
RULES = EXAMPLE / "booking.rules"
EVALS = EXAMPLE / "evals" / "evals.json"


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    copy = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", copy)
    return copy


def test_grade_with_an_evals_json_that_is_not_json_names_it(workspace, tmp_path, capsys):
    # input: --evals pointing at an empty file
    evals = tmp_path / "evals.json"
    evals.write_text("", encoding="utf-8")
    assert main(["grade", str(workspace), "--evals", str(evals), "--check"]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert f"{evals}:1:1" in err and "bad-evals" in err


def test_an_evals_json_number_of_10000_digits_is_an_error_at_its_line(tmp_path, capsys):
    # input: evals.json whose eval id, on line 3, is a number written with 10,000 digits
    evals = tmp_path / "evals.json"
    evals.write_text('{"skill_name": "x",\n "evals": [\n  {"id": ' + "9" * 10000
                     + ', "prompt": "p", "expectations": ["a"]}]}\n', encoding="utf-8")
    assert main(["check", "--evals", str(evals)]) == 1
    out, err = capsys.readouterr()
    assert "internal error" not in err
    assert f"{evals}:3:10: error[bad-evals]" in out


def test_a_rules_number_of_10000_digits_is_an_error_at_its_line(tmp_path, capsys):
    # input: a rules file comparing a count with a number written with 10,000 digits
    rules = tmp_path / "big.rules"
    rules.write_text('eval 1\nexpect "a": count(calls) == ' + "9" * 10000 + "\n", encoding="utf-8")
    assert main(["check", str(rules)]) == 1
    out, err = capsys.readouterr()
    assert "internal error" not in err
    assert f"{rules}:2:29: error[bad-number]" in out


def test_more_jobs_than_runs_starts_no_more_processes_than_runs(workspace, capsys):
    # input: --jobs 100000000000000000000 for a workspace of 6 runs
    code = main(["grade", str(workspace), "--rules", str(RULES), "--evals", str(EVALS), "--check",
                 "--jobs", str(10 ** 20)])
    assert code == 1  # the example's runs without the skill fail on purpose
    assert "internal error" not in capsys.readouterr().err


@pytest.mark.parametrize("command", [["compare"], ["analyze", "--evals", str(EVALS)]])
def test_a_symlinked_comparison_folder_is_refused(workspace, tmp_path, capsys, command):
    # input: WORKSPACE/comparison is a symbolic link to a folder outside the workspace
    main(["grade", str(workspace), "--rules", str(RULES), "--evals", str(EVALS)])
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / "comparison").symlink_to(outside)
    capsys.readouterr()
    assert main([command[0], str(workspace), *command[1:]]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert list(outside.iterdir()) == []


def test_recording_to_a_symlinked_cassette_is_refused(workspace, tmp_path, monkeypatch, capsys):
    # input: --llm record:PATH where PATH is a symbolic link to a cassette recorded before
    from llm_server import ScriptedServer, reading_judge

    monkeypatch.setenv("OPENAI_API_KEY", "k")
    recorded, link = tmp_path / "recorded.jsonl", workspace / "judge.jsonl"

    def grade(cassette: Path) -> int:
        with ScriptedServer(default=reading_judge) as server:
            # no --check: it writes nothing, and refuses a cassette to record
            return main(["grade", str(workspace), "--rules", str(RULES), "--evals", str(EVALS),
                         "--llm", f"record:{cassette}", "--llm-backend", "openai:m", "--llm-base-url", server.url])

    grade(recorded)
    link.symlink_to(recorded)
    capsys.readouterr()
    assert grade(link) == 2
    assert link.is_symlink() and f"{link} is a symbolic link" in capsys.readouterr().err
