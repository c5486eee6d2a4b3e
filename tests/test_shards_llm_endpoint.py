"""Shards graded live against two OpenAI-compatible servers that serve the same model
name were answered by two graders: their manifests record the endpoint each asked (no
user, password or query), and the merge refuses them as ``mixed``. Each run's
grading.json says which server answered it."""

from __future__ import annotations

import json

from llm_server import ScriptedServer, reading_judge
from sharded import RULE_ARGS, fresh, grade, grade_shard

from referee.engine.cli import main
from referee.llm_adapter.backends import endpoint


def _live(server: ScriptedServer) -> tuple[str, ...]:
    return ("--llm", "openai:scripted", "--llm-base-url", server.url)


def test_shards_asked_of_two_servers_are_mixed(tmp_path, capsys):
    ws = fresh(tmp_path)
    with ScriptedServer(default=reading_judge) as one, ScriptedServer(default=reading_judge) as other:
        assert grade_shard(ws, 1, 2, *_live(one)) == 0
        assert grade_shard(ws, 2, 2, *_live(other)) == 0
    judge = json.loads((ws / "shard-1-of-2.json").read_text(encoding="utf-8"))["judge"]
    assert judge["endpoint"] == endpoint("openai", one.url)
    capsys.readouterr()
    assert main(["merge", str(ws), *RULE_ARGS]) == 2
    err = capsys.readouterr().err
    assert "different LLM grader" in err and endpoint("openai", other.url) in err


def test_shards_asked_of_one_server_merge(tmp_path):
    ws = fresh(tmp_path)
    with ScriptedServer(default=reading_judge) as server:
        assert grade_shard(ws, 1, 2, *_live(server)) == 0
        assert grade_shard(ws, 2, 2, *_live(server)) == 0
    assert main(["merge", str(ws), *RULE_ARGS]) in (0, 1)


def test_endpoint_holds_no_secret():
    assert endpoint("openai", "https://me:s3cret@Proxy.Example:443/v1/?token=abc#x") == "https://proxy.example/v1"
    assert endpoint("openai", "http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"


def test_endpoint_defaults_to_the_providers(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/")
    assert endpoint("openai", None) == "https://api.openai.com/v1"
    assert endpoint("anthropic", None) == "http://127.0.0.1:9"


def test_grading_json_names_the_server_that_answered(tmp_path):
    ws = fresh(tmp_path)
    with ScriptedServer(default=reading_judge) as server:
        grade(ws, *_live(server))
    reports = sorted(ws.rglob("grading.json"))
    assert reports
    for path in reports:
        llm = json.loads(path.read_text(encoding="utf-8"))["grader"]["llm"]
        if llm is not None:
            assert llm["endpoint"] == endpoint("openai", server.url)


def _drop_endpoint(manifest_path):
    """A manifest as referee wrote it before it recorded the endpoint."""
    found = json.loads(manifest_path.read_text(encoding="utf-8"))
    del found["judge"]["endpoint"]
    manifest_path.write_text(json.dumps(found, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def test_manifests_written_before_the_endpoint_was_recorded(tmp_path, capsys):
    ws = fresh(tmp_path)
    with ScriptedServer(default=reading_judge) as server:
        assert grade_shard(ws, 1, 2, *_live(server)) == 0
        assert grade_shard(ws, 2, 2, *_live(server)) == 0
    _drop_endpoint(ws / "shard-1-of-2.json")
    capsys.readouterr()
    assert main(["merge", str(ws), *RULE_ARGS, "--check"]) == 2  # one old, one new: not known to agree
    assert "different LLM grader" in capsys.readouterr().err
    _drop_endpoint(ws / "shard-2-of-2.json")
    assert main(["merge", str(ws), *RULE_ARGS]) in (0, 1)  # all old: read and merged as before
