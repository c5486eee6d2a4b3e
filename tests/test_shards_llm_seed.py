"""Shards graded by a live OpenAI-compatible model with different ``--llm-seed`` asked
different requests: their manifests record the seed, and the merge refuses them as
``mixed`` as it refuses shards graded by different models."""

from __future__ import annotations

import json

from llm_server import ScriptedServer, reading_judge
from sharded import RULE_ARGS, fresh, grade_shard

from referee.engine.cli import main


def _live(server: ScriptedServer, seed: str) -> tuple[str, ...]:
    return ("--llm", "openai:scripted", "--llm-base-url", server.url, "--llm-seed", seed)


def test_shards_asked_with_different_seeds_are_mixed(tmp_path, capsys):
    ws = fresh(tmp_path)
    with ScriptedServer(default=reading_judge) as server:
        assert grade_shard(ws, 1, 2, *_live(server, "1")) == 0
        assert grade_shard(ws, 2, 2, *_live(server, "2")) == 0
    judge = json.loads((ws / "shard-1-of-2.json").read_text(encoding="utf-8"))["judge"]
    assert judge["seed"] == 1
    capsys.readouterr()
    assert main(["merge", str(ws), *RULE_ARGS]) == 2
    err = capsys.readouterr().err
    assert "different LLM grader" in err and "'seed': 2" in err


def test_shards_asked_with_one_seed_merge(tmp_path, capsys):
    ws = fresh(tmp_path)
    with ScriptedServer(default=reading_judge) as server:
        assert grade_shard(ws, 1, 2, *_live(server, "3")) == 0
        assert grade_shard(ws, 2, 2, *_live(server, "3")) == 0
    assert main(["merge", str(ws), *RULE_ARGS]) in (0, 1)
