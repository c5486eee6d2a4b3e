"""A message of an OpenAI conversation that could not be read at all (not JSON, cut
short, nested too deep) may have been any message: a reply, so the response is unknown,
and as much a turn of the user, so a check over the harness text is an ERROR
(``harness-may-be-missing``) too, never a pass on the turns read around it; in a JSON
document and in JSON lines of one message each alike."""

from __future__ import annotations

from openai_chat import graded

RULES = 'eval 1\nexpect 1: no harness where .text contains "delete"\nexpect 2: count(harness) == 1\n'
PROMPT = '{"role": "user", "content": "list the files"}'
BROKEN = '{"role": "user", "content": "now delete everything",}'
REPLY = '{"role": "assistant", "content": "Here are the files: a, b."}'


def _grade(tmp_path, name: str, text: str) -> tuple[list[str], list[str]]:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    return graded(RULES, source)


def test_a_message_of_a_document_that_cannot_be_read_leaves_the_harness_text_unknown(tmp_path):
    outcomes, problems = _grade(tmp_path, "chat.json", f"[\n{PROMPT},\n{REPLY},\n{BROKEN},\n{REPLY}\n]\n")
    assert outcomes == ["error", "error"]
    assert any("harness-may-be-missing" in problem and "chat.json:4" in problem for problem in problems)


def test_a_line_of_one_message_that_cannot_be_read_leaves_the_harness_text_unknown(tmp_path):
    outcomes, problems = _grade(tmp_path, "chat.jsonl", f"{PROMPT}\n{REPLY}\n{BROKEN}\n{REPLY}\n")
    assert outcomes == ["error", "error"]
    assert any("harness-may-be-missing" in problem and "chat.jsonl:3" in problem for problem in problems)


def test_a_conversation_read_whole_reads_as_before(tmp_path):
    outcomes, problems = _grade(tmp_path, "chat.jsonl", f"{PROMPT}\n{REPLY}\n")
    assert outcomes == ["pass", "pass"]
