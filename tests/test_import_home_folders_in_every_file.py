"""Home folders become ``<home>`` in every file an import writes (docs/import.md): not
only in the views, but in the problems ``source_map.json`` keeps (a tool call id used
twice, a role not read, as the source wrote them), in the tool names ``metrics.json``
counts, and in the executor's metrics and timing a skill-creator log carries over."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.run.importers import read_sources
from referee.engine.run.importers.source_map import dumps
from referee.engine.run.importers.writer import render_run

CALLS = [{"id": "/home/ann/id", "type": "function", "function": {"name": "/home/ann/tool", "arguments": "{}"}},
         {"id": "/home/ann/id", "type": "function", "function": {"name": "/Users/bob/tool", "arguments": "{}"}}]
CHAT = [{"role": "user", "content": "go"},
        {"role": "assistant", "content": "", "tool_calls": CALLS},
        {"role": "/home/ann/role", "content": "x"},
        {"role": "tool", "tool_call_id": "/home/ann/id", "content": "ok"},
        {"role": "tool", "tool_call_id": "/home/ann/id", "content": "ok"},
        {"role": "assistant", "content": "done"}]


def _files(source: Path) -> dict[str, str]:
    conversation, = read_sources("auto", [source]).conversations
    written = render_run(conversation)
    return {**written.files, "source_map.json": dumps(written.source_map)}


def test_no_home_folder_is_left_in_the_files_of_an_openai_import(tmp_path: Path):
    source = tmp_path / "chat.json"
    source.write_text(json.dumps(CHAT), encoding="utf-8")
    files = _files(source)
    for name, text in files.items():
        assert "/home/ann" not in text and "/Users/bob" not in text, name
    assert json.loads(files["outputs/metrics.json"])["tool_calls"] == {"<home>/tool": 2}


def test_no_home_folder_is_left_in_what_a_skill_creator_log_carries_over(tmp_path: Path):
    (tmp_path / "log.md").write_text("# Log\n\n## Step 1\nRan it.\n\n## Final Result\nDone.\n", encoding="utf-8")
    (tmp_path / "metrics.json").write_text(json.dumps({"tool_calls": {"/home/ann/x": 2, "/Users/bob/x": 1},
                                                       "note": "/home/ann/proj"}), encoding="utf-8")
    (tmp_path / "timing.json").write_text(json.dumps({"total_tokens": 5, "by": "C:\\Users\\ann\\run"}),
                                          encoding="utf-8")
    files = _files(tmp_path / "log.md")
    assert json.loads(files["outputs/metrics.json"]) == {"tool_calls": {"<home>/x": 3}, "note": "<home>/proj"}
    assert json.loads(files["timing.json"]) == {"total_tokens": 5, "by": "<home>\\run"}


def test_two_values_of_one_name_once_homes_are_scrubbed_make_the_file_unusable(tmp_path: Path):
    (tmp_path / "log.md").write_text("# Log\n\n## Step 1\nRan it.\n\n## Final Result\nDone.\n", encoding="utf-8")
    (tmp_path / "metrics.json").write_text(json.dumps({"by": {"/home/ann/x": "a", "/home/bob/x": "b"}}),
                                           encoding="utf-8")
    conversation, = read_sources("auto", [tmp_path / "log.md"]).conversations
    written = render_run(conversation)
    assert written.source_map.unread["outputs/metrics.json"] == {1: ("text",)}
    assert any(p.code == "home-clash" for p in written.problems)
