"""An Assistants API export of a thread's messages is listed newest first by default
(``GET /threads/{id}/messages``, ``order=desc``): each message carries its
``created_at``, and the conversation is read in the order they were written, never
in file order (which would make the latest user turn the eval prompt and reverse the
replies)."""

from __future__ import annotations

import json

import referee
from referee.engine.run.importers import conversations
from referee.engine.run.importers import record as R

RULES = ('eval 1\nexpect 1: response starts with "First"\nexpect 2: response matches /First\\s+Second/\n'
         'expect 3: first(harness).text == "q1"\n')


def _message(number: int, role: str, text: str, created_at: int | None) -> dict:
    message = {"id": f"msg_{number}", "object": "thread.message", "thread_id": "thread_1", "role": role,
               "assistant_id": "asst_1" if role == "assistant" else None,
               "run_id": "run_1" if role == "assistant" else None, "attachments": [], "metadata": {},
               "content": [{"type": "text", "text": {"value": text, "annotations": []}}]}
    if created_at is not None:
        message["created_at"] = created_at
    return message


_THREAD = [("user", "q1"), ("assistant", "First"), ("user", "q2"), ("assistant", "Second")]


def _read(tmp_path, messages: list, name: str = "thread.json"):
    source = tmp_path / name
    source.write_text(json.dumps(messages, indent=2), encoding="utf-8")
    return conversations("openai", [source])[0], source


def _texts(conversation) -> list[tuple[str, str]]:
    return [(entry.kind, entry.text) for entry in conversation.entries if isinstance(entry, R.Text)]


def test_a_thread_listed_newest_first_is_read_oldest_first(tmp_path):
    newest_first = [_message(n, role, text, 1700000000 + n) for n, (role, text) in enumerate(_THREAD)][::-1]
    conversation, _ = _read(tmp_path, newest_first)
    assert _texts(conversation) == [(R.EVAL_PROMPT, "q1"), ("agent", "First"), (R.USER, "q2"), ("agent", "Second")]
    assert [reply.text for reply in conversation.response] == ["First", "Second"]


def test_messages_of_one_second_keep_their_place(tmp_path):
    # created_at counts seconds: a turn and its reply often share one; newest first, the
    # later of the two comes first in the file
    times = [1700000000, 1700000000, 1700000005, 1700000005]
    newest_first = [_message(n, role, text, times[n]) for n, (role, text) in enumerate(_THREAD)][::-1]
    conversation, _ = _read(tmp_path, newest_first)
    assert [reply.text for reply in conversation.response] == ["First", "Second"]
    assert _texts(conversation)[0] == (R.EVAL_PROMPT, "q1")


def test_a_thread_in_time_order_is_read_as_it_is(tmp_path):
    oldest_first = [_message(n, role, text, 1700000000 + n) for n, (role, text) in enumerate(_THREAD)]
    conversation, _ = _read(tmp_path, oldest_first)
    assert [reply.text for reply in conversation.response] == ["First", "Second"]


def test_graded_newest_first_the_verdicts_follow_the_time_order(tmp_path):
    newest_first = [_message(n, role, text, 1700000000 + n) for n, (role, text) in enumerate(_THREAD)][::-1]
    source = tmp_path / "thread.json"
    source.write_text(json.dumps(newest_first, indent=2), encoding="utf-8")
    grading = referee.grade(RULES, source, as_eval="1")[0].grading
    assert [e["outcome"] for e in grading["expectations"]] == ["pass", "pass", "pass"]


def test_a_thread_whose_times_are_not_all_given_and_not_in_order_has_no_known_response(tmp_path):
    messages = [_message(3, "assistant", "Second", 1700000003), _message(2, "user", "q2", None),
                _message(1, "assistant", "First", 1700000001), _message(0, "user", "q1", 1700000000)]
    conversation, _ = _read(tmp_path, messages)
    assert conversation.response and all(reply.unsure for reply in conversation.response)
    assert any(p.code == "message-order" for p in conversation.problems)


def test_json_lines_newest_first_likewise(tmp_path):
    newest_first = [_message(n, role, text, 1700000000 + n) for n, (role, text) in enumerate(_THREAD)][::-1]
    source = tmp_path / "thread.jsonl"
    source.write_text("".join(json.dumps(m) + "\n" for m in newest_first), encoding="utf-8")
    conversation = conversations("openai", [source])[0]
    assert [reply.text for reply in conversation.response] == ["First", "Second"]
    # each message is still cited on its own line
    assert [reply.origin.line for reply in conversation.response] == [3, 1]


def test_a_thread_listed_in_no_order_is_read_in_time_order(tmp_path):
    times = [1700000000, 1700000002, 1700000001, 1700000003]
    shuffled = [_message(n, role, text, times[n]) for n, (role, text) in
                enumerate([("user", "q1"), ("user", "q2"), ("assistant", "First"), ("assistant", "Second")])]
    conversation, _ = _read(tmp_path, shuffled)
    assert [reply.text for reply in conversation.response] == ["First", "Second"]
    assert _texts(conversation)[:2] == [(R.EVAL_PROMPT, "q1"), ("agent", "First")]
