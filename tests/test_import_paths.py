"""Machine paths in imported runs: the working directory and home folders are
scrubbed, and every folder of a session keeps its place below the working directory."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.run.importers import conversations
from referee.engine.run.importers.writer import render_run


def _session(tmp_path: Path, records: list[dict]) -> dict[str, str]:
    source = tmp_path / "s.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    (found,) = conversations("claude-code", [source])
    return render_run(found).files


def _write(uuid: str, cwd: str, path: str) -> list[dict]:
    use = {"type": "tool_use", "id": f"c{uuid}", "name": "Write", "input": {"file_path": path, "content": "x"}}
    return [{"type": "assistant", "sessionId": "s", "uuid": f"a{uuid}", "cwd": cwd,
             "message": {"id": f"m{uuid}", "role": "assistant", "content": [use]}},
            {"type": "user", "sessionId": "s", "uuid": f"r{uuid}", "cwd": cwd,
             "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"c{uuid}",
                                                      "content": f"wrote {path}"}]}}]


def test_a_subfolder_the_session_moved_into_keeps_its_relative_part(tmp_path: Path):
    records = ([{"type": "user", "sessionId": "s", "uuid": "u", "cwd": "/srv/p", "message": {"role": "user", "content": "go"}}]
               + _write("1", "/srv/p", "/srv/p/app.py") + _write("2", "/srv/p/web", "/srv/p/web/app.py"))
    transcript = _session(tmp_path, records)["outputs/transcript.md"]
    assert '"file_path": "<cwd>/app.py"' in transcript
    assert '"file_path": "<cwd>/web/app.py"' in transcript
    assert "/srv/p" not in transcript


def test_home_folders_are_scrubbed_everywhere(tmp_path: Path):
    paths = ["/home/ana/.ssh/id_rsa", "/Users/bob/notes.txt", "C:\\Users\\carol\\secret.txt"]
    records = [{"type": "user", "sessionId": "s", "uuid": "u", "cwd": "/srv/p",
                "message": {"role": "user", "content": "read " + " ".join(paths)}}]
    for n, path in enumerate(paths):
        records += _write(str(n), "/srv/p", path)
    files = _session(tmp_path, records)
    text = files["outputs/transcript.md"]
    for name in ("ana", "bob", "carol"):
        assert name not in text, name
    assert '"file_path": "<home>/.ssh/id_rsa"' in text and '"<home>\\\\secret.txt"' in text
    assert "read <home>/.ssh/id_rsa <home>/notes.txt <home>\\secret.txt" in text


# --- tokens -------------------------------------------------------------------------------------


def _assistant(uuid: str, mid: str, usage: dict, stop) -> dict:
    message = {"id": mid, "role": "assistant", "content": [{"type": "text", "text": f"part {uuid}"}],
               "usage": usage, "stop_reason": stop}
    return {"type": "assistant", "sessionId": "s", "uuid": uuid, "cwd": "/srv/p", "message": message}


def test_tokens_are_recorded_apart_and_the_total_counts_the_cache(tmp_path: Path):
    usage = {"input_tokens": 10, "output_tokens": 200, "cache_creation_input_tokens": 3000,
             "cache_read_input_tokens": 40000}
    records = [{"type": "user", "sessionId": "s", "uuid": "u", "cwd": "/srv/p", "message": {"role": "user", "content": "go"}},
               _assistant("a1", "m1", usage, "end_turn")]
    files = _session(tmp_path, records)
    timing = json.loads(files["timing.json"])
    assert (timing["input_tokens"], timing["output_tokens"]) == (10, 200)
    assert (timing["cache_creation_input_tokens"], timing["cache_read_input_tokens"]) == (3000, 40000)
    assert timing["total_tokens"] == 43210 and "usage_snapshots" not in timing
    assert "usage-snapshot" not in files["source_map.json"]


def test_usage_written_while_streaming_is_said_to_be_a_snapshot(tmp_path: Path):
    records = [{"type": "user", "sessionId": "s", "uuid": "u", "cwd": "/srv/p", "message": {"role": "user", "content": "go"}},
               _assistant("a1", "m1", {"input_tokens": 10, "output_tokens": 2}, None),
               _assistant("a2", "m2", {"input_tokens": 10, "output_tokens": 1}, None),
               _assistant("a3", "m2", {"input_tokens": 10, "output_tokens": 90}, "end_turn")]
    files = _session(tmp_path, records)
    assert json.loads(files["timing.json"])["usage_snapshots"] == 1
    problems = json.loads(files["source_map.json"])["problems"]
    assert [p["code"] for p in problems] == ["usage-snapshot"] and "1 assistant message carries" in problems[0]["message"]


# --- the delivered file ---------------------------------------------------------------------


def test_a_session_takes_the_file_it_delivered_as_its_response(tmp_path: Path):
    from referee.engine.cli import main

    run = tmp_path / "run"
    (run / "outputs").mkdir(parents=True)
    records = [{"type": "user", "sessionId": "s", "uuid": "u", "cwd": "/srv/p", "message": {"role": "user", "content": "go"}},
               {"type": "assistant", "sessionId": "s", "uuid": "a", "cwd": "/srv/p",
                "message": {"id": "m", "role": "assistant", "content": [{"type": "text", "text": "See result.md."}]}}]
    (run / "session.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    (run / "outputs" / "result.md").write_text("The answer is 42.\n", encoding="utf-8")
    assert main(["import", "claude-code", str(run / "session.jsonl"), "--out", str(tmp_path / "ws"),
                 "--response", "outputs/result.md"]) == 0
    assert (tmp_path / "ws/session/outputs/response.md").read_text(encoding="utf-8") == "The answer is 42.\n"
