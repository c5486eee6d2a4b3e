"""``--check`` writes nothing: given with a grader that writes a file (a ``record:`` or
``auto:`` cassette, ``--llm-batch-import``'s cassette, ``--llm-batch-export``'s
requests), ``grade``, ``compare`` and ``validate`` refuse it as a usage error naming
both flags, before anything is asked or written (no folder made either)."""

from __future__ import annotations

import shutil

import pytest

from conftest import REPO
from referee.engine.cli import main

BOOKING = REPO / "examples" / "booking-skill"
EXAMPLE = REPO / "examples" / "booking-skill-workspace"
RULES = ["--rules", str(BOOKING / "booking.rules"), "--evals", str(BOOKING / "evals" / "evals.json")]


def _command(name: str, ws, *extra: str) -> list[str]:
    rules = RULES if name != "compare" else RULES[2:]
    return [name, str(ws), *rules, *extra]


@pytest.mark.parametrize("command", ["grade", "compare", "validate"])
@pytest.mark.parametrize("mode", ["record", "auto"])
def test_check_with_a_recording_cassette_is_refused(tmp_path, capsys, command, mode):
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    cassette = tmp_path / "new" / "folder" / "c.jsonl"
    code = main(_command(command, ws, "--check", "--llm", f"{mode}:{cassette}",
                         "--llm-backend", "openai:m", "--llm-base-url", "http://127.0.0.1:9/v1"))
    err = capsys.readouterr().err
    assert code == 2
    assert "--check" in err and f"--llm {mode}:" in err
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("flag", ["--llm-batch-export", "--llm-batch-import"])
def test_check_with_a_batch_file_is_refused(tmp_path, capsys, flag):
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws)
    given = tmp_path / "batch.jsonl"
    if flag == "--llm-batch-import":
        given.write_text("", encoding="utf-8")
    cassette = tmp_path / "c.jsonl"
    code = main(_command("grade", ws, "--check", "--llm", f"replay:{cassette}", "--llm-backend", "openai:m",
                         flag, str(given)))
    err = capsys.readouterr().err
    assert code == 2 and "--check" in err and flag in err
    assert not cassette.exists()
    assert flag == "--llm-batch-import" or not given.exists()


def test_check_with_a_replayed_cassette_grades(tmp_path, capsys):
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("grading.json", "ground_truth.json"))
    code = main(_command("grade", ws, "--check", "--llm", f"replay:{BOOKING / 'judge.cassette.jsonl'}"))
    assert code in (0, 1)
    assert not list(ws.rglob("grading.json"))
