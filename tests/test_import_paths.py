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
