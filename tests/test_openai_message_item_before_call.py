"""A Responses API list (the OpenAI Agents SDK's ``to_input_list()``) keeps the text and
the calls of one model response as items of their own: a ``message`` item, then the
``function_call`` items it came with. That text is sent with a call, as an assistant
message's content is with its ``tool_calls``: an agent note, never a reply. The calls
are not read (the run's calls are unknown); the response is the replies alone."""

from __future__ import annotations

from pathlib import Path

from openai_chat import json_file, outcomes

RULES = 'eval 1\nexpect 1: response contains "Deleting"\nexpect 2: response contains "All done"\n'


def _message(text: str, at: int) -> dict:
    return {"id": f"msg_{at}", "type": "message", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def _grade(tmp_path: Path, items: list) -> list[str]:
    source = json_file(tmp_path / "items.json", [{"role": "user", "content": "clean up"}, *items], indent=1)
    return outcomes(RULES, source)


CALL = {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "Bash",
        "arguments": '{"command": "rm -rf build"}', "status": "completed"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "done"}


def test_a_message_item_before_its_call_is_no_reply(tmp_path: Path):
    assert _grade(tmp_path, [_message("Deleting the build folder.", 1), CALL, OUTPUT,
                             _message("All done.", 2)]) == ["fail", "pass"]


def test_a_reasoning_item_between_them_changes_nothing(tmp_path: Path):
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": []}
    assert _grade(tmp_path, [_message("Deleting the build folder.", 1), reasoning, CALL, OUTPUT,
                             _message("All done.", 2)]) == ["fail", "pass"]


def test_a_message_item_after_a_call_output_is_a_reply(tmp_path: Path):
    assert _grade(tmp_path, [CALL, OUTPUT, _message("Deleting is done.", 1), {"role": "user", "content": "more"},
                             _message("All done.", 2)]) == ["pass", "pass"]
