"""Tool errors in OpenAI-format sources: the flags producers write, ``--error-when``,
and a warning where statuses can only be assumed."""

from __future__ import annotations

import json
from pathlib import Path

import referee
from referee.engine.cli import main
from referee.engine.run.importers import conversations
from referee.engine.run.importers.writer import render_run
from referee.engine.run.memory import memory_run
from referee.engine.run.workspace import discover


def _messages(*answers: dict) -> list[dict]:
    messages: list[dict] = [{"role": "user", "content": "book it"}]
    for n, answer in enumerate(answers):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{n}", "type": "function", "function": {"name": f"tool{n}", "arguments": "{}"}}]})
        messages.append({"role": "tool", "tool_call_id": f"c{n}", **answer})
    return messages + [{"role": "assistant", "content": "Done."}]


def _statuses(tmp_path: Path, messages: list[dict], error_when: str | None = None) -> tuple[list[str], set[str]]:
    (tmp_path / "m.json").write_text(json.dumps(messages), encoding="utf-8")
    (found,) = conversations("openai", [tmp_path / "m.json"], error_when=error_when)
    run = memory_run(render_run(found).files)
    return [c.status for c in run.transcript.calls], {p.code for p in run.problems}


def test_the_flags_producers_write_make_errors(tmp_path: Path):
    answers = [{"content": "ok", "status": "success"},            # LangChain: success
               {"content": "Error: timeout", "status": "error"},  # LangChain / LangGraph ToolMessage
               {"content": "boom", "is_error": True},
               {"content": "", "error": "permission denied"},
               {"content": "fine", "error": None}]
    statuses, codes = _statuses(tmp_path, _messages(*answers))
    assert statuses == ["success", "error", "error", "error", "success"]
    assert "statuses-assumed" not in codes


def test_without_a_flag_or_a_pattern_the_run_says_its_statuses_were_assumed(tmp_path: Path):
    statuses, codes = _statuses(tmp_path, _messages({"content": "Error: no such flight"}, {"content": "ok"}))
    assert statuses == ["success", "success"] and "statuses-assumed" in codes


def test_error_when_reads_the_producers_error_text(tmp_path: Path):
    answers = [{"content": "Error: no such flight"}, {"content": "LX2084 booked"},
               {"content": [{"type": "text", "text": "Error: card declined"}]}]
    statuses, codes = _statuses(tmp_path, _messages(*answers), r"^Error:")
    assert statuses == ["error", "success", "error"]
    assert "statuses-assumed" not in codes and "error-when" in codes


def test_error_when_is_recorded_in_the_source_map_and_shown(tmp_path: Path, capsys):
    (tmp_path / "m.json").write_text(json.dumps(_messages({"content": "Error: x"})), encoding="utf-8")
    assert main(["import", "openai", str(tmp_path / "m.json"), "--out", str(tmp_path / "ws"),
                 "--error-when", "^Error:"]) == 0
    source_map = json.loads((tmp_path / "ws/m/source_map.json").read_text(encoding="utf-8"))
    assert source_map["options"] == {"error_when": "^Error:"}
    capsys.readouterr()
    assert main(["show", str(tmp_path / "ws/m")]) == 0
    assert "matched --error-when /^Error:/" in capsys.readouterr().out


def test_an_error_when_that_cannot_decide_makes_the_status_unknown(tmp_path: Path, monkeypatch):
    from referee.engine.run.importers import statuses

    monkeypatch.setattr(statuses.ErrorWhen, "finds", lambda self, text, where: None)
    (tmp_path / "m.json").write_text(json.dumps(_messages({"content": "Error: x"})), encoding="utf-8")
    (found,) = conversations("openai", [tmp_path / "m.json"], error_when="^Error:")
    (result,) = referee.grade('eval 1\nexpect: no calls with status error\n', memory_run(render_run(found).files))
    assert result.expectations[0]["outcome"] == "error"


def test_a_bad_pattern_or_the_wrong_format_is_a_usage_error(tmp_path: Path, capsys):
    (tmp_path / "m.json").write_text(json.dumps(_messages({"content": "x"})), encoding="utf-8")
    assert main(["import", "openai", str(tmp_path / "m.json"), "--out", str(tmp_path / "ws"),
                 "--error-when", "(unclosed"]) == 2
    assert "--error-when '(unclosed' is not a valid regular expression" in capsys.readouterr().err
    assert main(["import", "claude-code", str(tmp_path / "m.json"), "--out", str(tmp_path / "ws"),
                 "--error-when", "x"]) == 2
    assert not discover(tmp_path / "ws").runs
