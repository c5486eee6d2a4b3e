"""Calls of an OpenAI custom tool (free-form input, no JSON) and the Responses API's call items.

- Chat Completions writes a custom tool's call as ``{"id", "type": "custom", "custom":
  {"name", "input"}}`` (OpenAI's API reference, ``ChatCompletionMessageCustomToolCall``),
  answered by a ``tool`` message of that ``tool_call_id``.
- The Responses API keeps a call as an item of its own, ``custom_tool_call`` (``input``) or
  ``function_call`` (``arguments``), and its answer as ``custom_tool_call_output`` or
  ``function_call_output`` naming the same ``call_id`` (a real one:
  tests/fixtures/real/openai/cookbook-custom-tool-call).

Each is a call: its name, its input as the args (free-form input is text, whole: ``.args`` is
that text and has no fields), its answer as the return, its status as a tool message's.
Before, the first was "a tool call without a function" and the others "a message with no
role": every check over the calls was an ERROR, so a run that used them could not be graded.
"""

from __future__ import annotations

import json
from pathlib import Path

import referee

PROMPT = {"role": "user", "content": "Run the tests"}
CUSTOM = {"role": "assistant", "content": None,
          "tool_calls": [{"id": "call_1", "type": "custom", "custom": {"name": "shell", "input": "rm -rf build && pytest"}}]}
ANSWER = {"role": "tool", "tool_call_id": "call_1", "content": "3 passed"}
REPLY = {"role": "assistant", "content": "All 3 tests pass."}
ITEM = {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1", "name": "shell",
        "input": "rm -rf build && pytest", "status": "completed"}
ITEM_ANSWER = {"type": "custom_tool_call_output", "call_id": "call_1", "output": "3 passed"}
ITEM_REPLY = {"type": "message", "role": "assistant", "status": "completed",
              "content": [{"type": "output_text", "text": "All 3 tests pass."}]}
RULES = """eval 1
expect 1: no calls to "shell"
expect 2: exactly 1 calls where .args contains "rm -rf build"
expect 3: first(calls).return == "3 passed"
expect 4: no calls where .args.command contains "rm"
expect 5: no calls with status error
expect 6: response contains "3 tests pass"
"""


def _outcomes(tmp_path: Path, messages: list, rules: str = RULES, **options) -> list[str]:
    source = tmp_path / "run.json"
    source.write_text(json.dumps(messages, indent=1), encoding="utf-8")
    (result,) = referee.grade(rules, source, as_eval="1", **options)
    return [e["outcome"] for e in result.grading["expectations"]]


def test_a_chat_completions_custom_call_is_a_call_its_input_the_args(tmp_path):
    # before: "a tool call without a function", and checks 1 to 5 were errors
    assert _outcomes(tmp_path, [PROMPT, CUSTOM, ANSWER, REPLY]) == ["fail", "pass", "pass", "pass", "pass", "pass"]


def test_a_custom_input_that_reads_as_json_is_text_still(tmp_path):
    written = json.loads(json.dumps(CUSTOM))
    written["tool_calls"][0]["custom"]["input"] = '{"command": "rm -rf /"}'
    rules = 'eval 1\nexpect 1: first(calls).args == "{\\"command\\": \\"rm -rf /\\"}"\n'
    assert _outcomes(tmp_path, [PROMPT, written, ANSWER, REPLY], rules) == ["pass"]


def test_a_custom_input_that_is_no_text_leaves_the_args_unknown(tmp_path):
    written = json.loads(json.dumps(CUSTOM))
    written["tool_calls"][0]["custom"]["input"] = {"command": "rm -rf /"}
    rules = 'eval 1\nexpect 1: no calls where .args contains "rm"\nexpect 2: exactly 1 calls to "shell"\n'
    assert _outcomes(tmp_path, [PROMPT, written, ANSWER, REPLY], rules) == ["error", "pass"]


def test_responses_custom_call_items_are_a_call_and_its_answer(tmp_path):
    # before: both items "a message with no role", and checks 1 to 5 were errors
    assert _outcomes(tmp_path, [PROMPT, ITEM, ITEM_ANSWER, ITEM_REPLY]) == ["fail", "pass", "pass", "pass", "pass",
                                                                            "pass"]


def test_an_output_given_as_parts_is_the_return(tmp_path):
    answer = ITEM_ANSWER | {"output": [{"type": "input_text", "text": "3 passed"}]}
    assert _outcomes(tmp_path, [PROMPT, ITEM, answer, ITEM_REPLY])[2] == "pass"


def test_a_function_call_item_is_read_as_a_call_with_json_arguments(tmp_path):
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "shell", "status": "completed",
            "arguments": json.dumps({"command": "rm -rf build && pytest"})}
    answer = {"type": "function_call_output", "call_id": "call_1", "output": "3 passed"}
    rules = RULES.replace('where .args contains "rm -rf build"', 'where .args.command contains "rm -rf build"')
    # .args is the arguments object: its command is a field, as a chat completions call's is
    assert _outcomes(tmp_path, [PROMPT, item, answer, ITEM_REPLY], rules) == ["fail", "pass", "pass", "fail", "pass",
                                                                            "pass"]


def test_an_output_item_that_names_no_call_leaves_the_calls_unknown(tmp_path):
    stray = ITEM_ANSWER | {"call_id": "call_9"}
    # the shell call read was made: 'no calls to "shell"' fails whatever call_9 was
    assert _outcomes(tmp_path, [PROMPT, ITEM, ITEM_ANSWER, stray, ITEM_REPLY])[:5] == ["fail"] + ["error"] * 4


def test_an_output_item_is_an_error_when_error_when_finds_it(tmp_path):
    failed = ITEM_ANSWER | {"output": "Error: no such file"}
    found = _outcomes(tmp_path, [PROMPT, ITEM, failed, ITEM_REPLY], error_when="^Error:")
    assert found[4] == "fail"


def test_a_call_item_no_output_answers_leaves_the_run_at_work(tmp_path):
    # the words before the call are sent with it; with no answer and no reply, the response is unknown
    said = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Running them."}]}
    rules = 'eval 1\nexpect 1: exactly 1 calls to "shell"\nexpect 2: response contains "Running"\n'
    assert _outcomes(tmp_path, [PROMPT, said, ITEM], rules) == ["pass", "error"]
