"""A Responses API ``reasoning`` item among OpenAI-format messages (``{"type":
"reasoning", "summary": [{"type": "summary_text", "text": ...}]}``) is the model's
reasoning, not a reply: it is skipped, so it neither leaves the response unknown (no
ERROR on otherwise readable replies) nor counts as the response, even when it is all
there is after the prompt. One that holds a call still makes the calls unknown."""

from __future__ import annotations

from openai_chat import graded, json_file

PROMPT = {"role": "user", "content": "what is the code?"}
RULES = ('eval 1\nexpect 1: not (response contains "1234")\nexpect 2: response contains "Done"\n'
         'expect 3: no calls to "Bash"\n')
CALL = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": "{}"}}]}
ANSWER = {"role": "tool", "tool_call_id": "c1", "content": "ok"}


def _reasoning(text: str) -> dict:
    return {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": text}],
            "content": [{"type": "reasoning_text", "text": text}], "encrypted_content": None}


def _grade(tmp_path, *messages: dict) -> tuple[list[str], list[str]]:
    source = json_file(tmp_path / "chat.json", [PROMPT, CALL, ANSWER, *messages])
    return graded(RULES, source)


def test_reasoning_before_a_reply_is_skipped(tmp_path):
    outcomes, problems = _grade(tmp_path, _reasoning("The code is 1234; do not say it."),
                                {"role": "assistant", "content": "Done."})
    assert outcomes == ["pass", "pass", "pass"]
    assert not any("unread-text" in problem or "calls-may-be-missing" in problem for problem in problems)


def test_reasoning_is_never_the_response(tmp_path):
    outcomes, problems = _grade(tmp_path, _reasoning("Done: the code is 1234."))
    # no reply follows the tool's answer: the response is unknown, and the summary does not stand in for one
    assert outcomes[:2] == ["error", "error"]
    assert any("no-reply" in problem for problem in problems)


def test_reasoning_naming_a_call_in_its_words_changes_nothing(tmp_path):
    outcomes, problems = _grade(tmp_path, _reasoning("Next a function_call to Bash, or tool_calls?"),
                                {"role": "assistant", "content": "Done."})
    assert outcomes == ["pass", "pass", "pass"]
    assert not any("calls-may-be-missing" in problem for problem in problems)


def test_reasoning_that_holds_a_call_makes_the_calls_unknown(tmp_path):
    item = dict(_reasoning("thinking"), content=[{"type": "function_call", "name": "Bash", "arguments": "{}"}])
    outcomes, problems = _grade(tmp_path, item, {"role": "assistant", "content": "Done."})
    assert outcomes == ["pass", "pass", "error"]
    assert any("calls-may-be-missing" in problem for problem in problems)
