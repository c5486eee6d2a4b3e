"""A pretty-printed JSON object that holds no message list (a config, a results file
given to ``referee import openai`` by mistake) is one document, not JSON lines: one
error names the file and the line where the document starts, never one per line, and
nothing is imported. A message list in such a document is read as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def _import(path: Path, out: Path) -> tuple[int, list[str]]:
    found = subprocess.run([sys.executable, "-m", "referee.engine.cli", "import", "openai", str(path), "--out",
                            str(out)], capture_output=True, text=True, check=False)
    return found.returncode, [line for line in found.stderr.splitlines() if path.name in line]


def test_a_pretty_printed_object_without_messages_is_one_error(tmp_path: Path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"model": "gpt-4o", "temperature": 0.2, "results": [{"score": 1}, {"score": 0}]},
                               indent=2), encoding="utf-8")
    code, errors = _import(path, tmp_path / "out")
    assert code == 2
    assert len(errors) == 1 and "one JSON object (from line 1) that holds no message list at its top level" in errors[0]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.md"))


def test_the_line_where_the_document_starts_is_named(tmp_path: Path):
    path = tmp_path / "config.json"
    path.write_text("\n\n" + json.dumps({"model": "x", "messages": "none"}, indent=2) + "\n", encoding="utf-8")
    code, errors = _import(path, tmp_path / "out")
    assert code == 2 and len(errors) == 1 and "(from line 3)" in errors[0]


def test_a_pretty_printed_message_list_is_still_read(tmp_path: Path):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"model": "x", "messages": [{"role": "user", "content": "hi"},
                                                            {"role": "assistant", "content": "hello"}]}, indent=2),
                    encoding="utf-8")
    code, errors = _import(path, tmp_path / "out")
    assert code == 0 and errors == []


def test_a_message_list_below_the_top_level_is_said_to_be_there(tmp_path: Path):
    # the importer reads a list under the document's own keys only: the error says so
    path = tmp_path / "export.json"
    path.write_text(json.dumps({"data": {"messages": [{"role": "user", "content": "hi"}]}}, indent=2),
                    encoding="utf-8")
    code, errors = _import(path, tmp_path / "out")
    assert code == 2 and len(errors) == 1 and "no message list at its top level" in errors[0]


def test_a_pretty_printed_document_that_is_not_json_is_one_error(tmp_path: Path):
    # a trailing comma: not JSON, yet one of its lines is, and read as JSON lines each
    # line was a conversation lost
    path = tmp_path / "config.json"
    path.write_text('{\n  "model": "gpt-4o",\n  "results": [\n    {"score": 1}\n  ],\n}\n', encoding="utf-8")
    code, errors = _import(path, tmp_path / "out")
    assert code == 2 and len(errors) == 1 and "spread over several lines (line 1 opens it" in errors[0]
