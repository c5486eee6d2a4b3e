"""``--llm-seed`` is part of the request a cassette answers: replaying a cassette
recorded with one seed for a grade that asks another is refused, as recording into
it is, instead of giving replies the model never gave to that request."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from llm_server import SCRIPTED_NOTE, ScriptedServer, reading_judge, small_run

from referee.engine.cli import main
from referee.engine.judging import SemanticItem
from referee.llm_adapter import make_judge

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "booking-skill"
CASSETTE = EXAMPLE / "judge.cassette.jsonl"  # recorded with seed 0
RUN = small_run({"response.md": "Booked LX2084 for you.\n"})
ITEMS = (SemanticItem("1#1", "The response names flight LX2084", "names LX2084"),)


def _grade(tmp_path: Path, *extra: str) -> int:
    workspace = tmp_path / "ws"
    shutil.copytree(REPO / "examples" / "booking-skill-workspace", workspace)
    return main(["grade", str(workspace), "--rules", str(EXAMPLE / "booking.rules"),
                 "--evals", str(EXAMPLE / "evals" / "evals.json"), "--llm", f"replay:{CASSETTE}", *extra])


def test_replaying_for_another_seed_is_a_usage_error_naming_the_flag(tmp_path, capsys):
    assert json.loads(CASSETTE.read_text(encoding="utf-8").splitlines()[0])["params"]["seed"] == 0
    assert _grade(tmp_path, "--llm-seed", "7") == 2
    err = capsys.readouterr().err
    assert "--llm-seed 7" in err and "seed 0" in err and "Traceback" not in err
    assert not list((tmp_path / "ws").rglob("grading.json.tmp*"))


def test_replaying_for_the_seed_it_was_recorded_with_grades(tmp_path, capsys):
    assert _grade(tmp_path, "--llm-seed", "0") in (0, 1)
    assert "not graded" not in capsys.readouterr().out


def test_a_cassette_recorded_with_a_seed_replays_for_that_seed_only(tmp_path):
    cassette = tmp_path / "c.jsonl"
    with ScriptedServer(default=reading_judge) as server:
        make_judge(f"record:{cassette}", inner="openai:scripted", base_url=server.url, seed=5,
                   timeout=5.0, note=SCRIPTED_NOTE).grade(RUN, ITEMS)
    assert make_judge(f"replay:{cassette}", seed=5).grade(RUN, ITEMS).usage.replayed
    with pytest.raises(ValueError, match="recorded with seed 5"):
        make_judge(f"replay:{cassette}", seed=0)
    with pytest.raises(ValueError, match="recorded with seed 5"):
        make_judge(f"replay:{cassette}", seed=None)


def test_the_seed_does_not_change_an_anthropic_cassette(tmp_path):
    # The Anthropic API takes no seed: its requests are the same whatever --llm-seed says,
    # live or replayed.
    cassette = tmp_path / "c.jsonl"
    with ScriptedServer(default=reading_judge) as server:
        make_judge(f"record:{cassette}", inner="anthropic:scripted", base_url=server.url,
                   timeout=5.0, note=SCRIPTED_NOTE).grade(RUN, ITEMS)
    assert make_judge(f"replay:{cassette}", seed=7).grade(RUN, ITEMS).usage.replayed
