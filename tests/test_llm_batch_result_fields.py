"""A batch result line is read as strictly as a cassette line: a field given twice (JSON
parsers keep the last one) would make one line answer two requests, or give two replies."""

from __future__ import annotations

import json

import pytest
from sharded import fresh
from test_llm_batch import KEY, OPENAI_RESULT, _keyed, files, import_


@pytest.mark.parametrize("field, line", [
    ("custom_id", json.dumps(_keyed(OPENAI_RESULT))[:-1] + f', "custom_id": "{"b" * 64}"}}'),
    ("content", json.dumps(_keyed(OPENAI_RESULT)).replace('"content": "Hello."',
                                                           '"content": "Hello.", "content": "Other."')),
])
def test_a_result_line_with_a_field_given_twice_is_refused(field, line, tmp_path, monkeypatch, capsys):
    # input: a result file whose line repeats "custom_id" (or the reply's "content")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert KEY in line and line.count(f'"{field}"') == 2
    results = tmp_path / "results.jsonl"
    results.write_text(line + "\n", encoding="utf-8")
    ws = fresh(tmp_path)
    assert import_(ws, "openai", tmp_path / "c.jsonl", results) == 2
    assert f"results.jsonl:1: the field '{field}' appears twice" in capsys.readouterr().err
    assert files(ws) == {} and not (tmp_path / "c.jsonl").exists()
