"""A tool message whose content is the text of an MCP ``CallToolResult``
(``{"content": [...], "isError": true}``, as MCP clients store a tool's whole
result): the ``isError`` at the top level of that JSON object says whether the tool
failed, as the message's own ``isError`` does. A value that says neither leaves the
status unknown; a flag deeper inside an ordinary JSON return says nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openai_chat import outcomes

CALL = {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
                                                            "function": {"name": "rm", "arguments": "{}"}}]}
RULES = ('eval 1\nexpect 1: no calls with status error\n'
         'expect 2: all calls to "rm" have .status == "success"\n')


def _mcp(flag) -> dict:
    return {"content": [{"type": "text", "text": "permission denied"}], "isError": flag}


def _grade(tmp_path: Path, content, **beside) -> list[str]:
    source = tmp_path / "chat.json"
    answer = {"role": "tool", "tool_call_id": "c1", "content": content, **beside}
    messages = [{"role": "user", "content": "delete it"}, CALL, answer, {"role": "assistant", "content": "Done."}]
    source.write_text(json.dumps(messages), encoding="utf-8")
    return outcomes(RULES, source)


def test_an_mcp_result_written_as_text_that_says_is_error_is_an_error(tmp_path: Path):
    assert _grade(tmp_path, json.dumps(_mcp(True))) == ["fail", "fail"]


def test_an_mcp_result_in_a_text_part_that_says_is_error_is_an_error(tmp_path: Path):
    assert _grade(tmp_path, [{"type": "text", "text": json.dumps(_mcp(True))}]) == ["fail", "fail"]


def test_an_mcp_result_given_as_an_object_that_says_is_error_is_an_error(tmp_path: Path):
    assert _grade(tmp_path, _mcp(True)) == ["fail", "fail"]


def test_an_mcp_result_that_says_is_error_false_is_a_success(tmp_path: Path):
    assert _grade(tmp_path, json.dumps(_mcp(False))) == ["pass", "pass"]


@pytest.mark.parametrize("flag", ["true", 1, [True]])
def test_an_mcp_result_whose_is_error_says_neither_leaves_the_status_unknown(tmp_path: Path, flag):
    assert _grade(tmp_path, json.dumps(_mcp(flag))) == ["error", "error"]


def test_a_result_flag_that_disagrees_with_the_message_leaves_the_status_unknown(tmp_path: Path):
    assert _grade(tmp_path, json.dumps(_mcp(True)), isError=False) == ["error", "error"]


def test_a_flag_deeper_inside_an_ordinary_return_says_nothing(tmp_path: Path):
    answer = json.dumps({"items": [{"name": "a", "isError": True}], "result": {"isError": True}})
    assert _grade(tmp_path, answer) == ["pass", "pass"]
    assert _grade(tmp_path, json.dumps([{"isError": True}])) == ["pass", "pass"]


def test_a_flag_named_with_an_escaped_letter_among_other_escapes_is_read(tmp_path: Path):
    # the text is parsed only where it may name the flag: among escapes of other
    # characters (an ASCII-only encoder's), a letter of its name escaped still does
    text = json.dumps({"content": [{"type": "text", "text": "拒否"}], "isError": True}).replace("isError", "is\\u0045rror")
    assert "\\u62d2" in text and "isError" not in text
    assert _grade(tmp_path, text) == ["fail", "fail"]
    assert _grade(tmp_path, json.dumps({"content": [{"type": "text", "text": "拒否"}]})) == ["pass", "pass"]
