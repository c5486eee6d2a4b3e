"""Windows names a home folder in any case and with either slash: each is scrubbed."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.run.importers import conversations
from referee.engine.run.importers.homes import scrub_homes
from referee.engine.run.importers.writer import render_run


def test_a_windows_home_in_any_case_or_slash_is_scrubbed():
    for path in ("c:\\users\\ann\\notes.txt", "C:\\USERS\\ann\\notes.txt", "c:/users/ann/notes.txt",
                 "C:/Users/ann/notes.txt", "d:\\Users\\ann\\notes.txt"):
        assert scrub_homes(f"read {path}") == "read <home>" + path[len(path) - 10:], path
    assert scrub_homes('"c:\\\\users\\\\ann\\\\x"') == '"<home>\\\\x"'  # inside JSON


def test_a_path_that_only_holds_users_is_kept():
    assert scrub_homes("src/c:/users/x") == "src/c:/users/x"
    assert scrub_homes("c:\\data\\users\\ann") == "c:\\data\\users\\ann"


def test_no_file_an_import_writes_names_the_user(tmp_path: Path):
    messages = [{"role": "user", "content": "read c:\\users\\ann\\notes.txt"},
                {"role": "assistant", "content": None, "tool_calls": [{"id": "1", "type": "function", "function": {
                    "name": "Read", "arguments": json.dumps({"path": "c:\\users\\ann\\notes.txt"})}}]},
                {"role": "tool", "tool_call_id": "1", "content": "C:\\USERS\\Ann\\notes.txt: ok"},
                {"role": "assistant", "content": "done: c:/users/ann/notes.txt"}]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(messages), encoding="utf-8")
    (found,) = conversations("openai", [source])
    for name, text in render_run(found).files.items():
        assert "ann" not in text.lower().replace("<home>", ""), (name, text)


def test_a_windows_home_seen_from_wsl_is_scrubbed():
    for path in ("/mnt/c/Users/ann/proj", "/mnt/c/users/ann/proj", "/mnt/D/USERS/ann/proj"):
        assert scrub_homes(f"cd {path}") == "cd <home>/proj", path
        assert scrub_homes(f'"cwd": "{path}"') == '"cwd": "<home>/proj"', path
    assert scrub_homes("cd x/mnt/c/Users/ann") == "cd x/mnt/c/Users/ann"  # a relative path: kept
