"""A logged request and its response (``{"messages": [...], "choices": [...]}``)
holds the agent's last reply beside the message list, where the OpenAI importer
reads no message: a check on the response is an ERROR there, never a pass on the
replies of the request or on none. A document, a conversation per JSON line and a
task's result are read alike; what is beside the list and holds no reply (the
model, the tools offered, metadata) changes nothing."""

from __future__ import annotations

import json

import pytest

import referee

RULES = 'eval 1\nexpect 1: not (response contains "rm")\nexpect 2: response contains "Done"\n'
MESSAGES = [{"role": "user", "content": "clean up"}, {"role": "assistant", "content": "Done."},
            {"role": "user", "content": "and now?"}]
REPLY = "I ran rm -rf / and it is Done"
BESIDE = {
    "choices": {"choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": REPLY}}]},
    "output": {"output": [{"type": "message", "role": "assistant",
                           "content": [{"type": "output_text", "text": REPLY}]}]},
}


def _grade(tmp_path, name: str, text: str) -> tuple[list[dict], list[str]]:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    return grading["expectations"], grading["problems"]


def _shapes(logged: dict) -> dict[str, tuple[str, str]]:
    return {"document": ("log.json", json.dumps(logged, indent=1)),
            "json-lines": ("log.jsonl", json.dumps(logged) + "\n"),
            "task-result": ("results.json", json.dumps([{"task_id": 0, "reward": 1.0,
                                                         **{("traj" if k == "messages" else k): v
                                                            for k, v in logged.items()}}]))}


@pytest.mark.parametrize("beside", BESIDE.values(), ids=BESIDE.keys())
@pytest.mark.parametrize("shape", ["document", "json-lines", "task-result"])
def test_a_reply_beside_the_messages_leaves_the_response_unknown(tmp_path, beside, shape):
    expectations, problems = _grade(tmp_path, *_shapes({"model": "gpt-4o", "messages": MESSAGES, **beside})[shape])
    assert [e["outcome"] for e in expectations] == ["error", "error"]
    assert any("unread-text" in problem for problem in problems)


@pytest.mark.parametrize("shape", ["document", "json-lines", "task-result"])
def test_what_holds_no_reply_beside_the_messages_changes_nothing(tmp_path, shape):
    # the request answered (ending on "and now?", no reply would answer it: the response is unknown)
    logged = {"model": "gpt-4o", "messages": MESSAGES[:2], "metadata": {"role": "assistant", "user": "u1"},
              "tools": [{"type": "function", "function": {"name": "Bash", "description": "runs a command",
                                                          "parameters": {"type": "object"}}}]}
    expectations, problems = _grade(tmp_path, *_shapes(logged)[shape])
    assert [e["outcome"] for e in expectations] == ["pass", "pass"]
    assert not any("unread-text" in problem for problem in problems)
