"""A list of Responses API items that holds no message (a run cut short before the agent
said anything: its calls and their answers only) is an OpenAI source, told as a message
list is: ``referee grade SOURCE`` reads it as ``referee import openai`` does (its calls
unknown, its response unknown: every check an ERROR), never refusing it as a file of no
format referee imports. LangChain's own dicts, whose calls say ``"type": "tool_call"``,
stay unrecognised: they are no format referee reads."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.cli import main
from referee.engine.run.importers.source_format import detect

REAL = Path(__file__).resolve().parent / "fixtures" / "real" / "openai"
CUT_SHORT = REAL / "nemo-gym-docs-qa-cut-short" / "deep-agents-version.json"
RULES = REAL / "nemo-gym-docs-qa-cut-short.rules"


def test_a_real_list_of_tool_items_with_no_message_is_told_openai():
    assert detect(CUT_SHORT) == "openai"


def test_such_a_list_graded_where_it_lies_gives_the_errors_of_its_import(tmp_path: Path, capsys):
    assert main(["grade", str(CUT_SHORT), "--rules", str(RULES), "--json"]) == 1
    graded = json.loads(capsys.readouterr().out)
    (run,) = graded["runs"]
    assert [e["outcome"] for e in run["expectations"]] == ["error"] * 8


def test_langchain_dicts_with_their_tool_calls_stay_unrecognised(tmp_path: Path):
    dump = [{"type": "human", "data": {"content": "weather in sf?"}},
            {"type": "ai", "data": {"content": "", "tool_calls": [
                {"name": "get_weather", "args": {"city": "sf"}, "id": "c1", "type": "tool_call"}],
                "invalid_tool_calls": [{"name": "get_weather", "args": "{", "id": "c2", "error": "bad JSON",
                                        "type": "invalid_tool_call"}]}}]
    path = tmp_path / "langchain.json"
    path.write_text(json.dumps(dump, indent=2), encoding="utf-8")
    assert detect(path) is None
