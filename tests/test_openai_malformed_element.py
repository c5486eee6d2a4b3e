"""An element of an OpenAI message document that is not JSON, though the document's
brackets let its bounds be found (``{"role": "assistant", "content": "..." ]``, an object
closed by a bracket), was skipped as an element that is "not an object", as a number or a
string would be: the reply it may hold was dropped, so ``not response contains
"deleted"`` passed beside ``{"role": "assistant", "content": "I deleted your secret
files" ]``. It is now a message that could not be read (``bad-json``): the response and
the harness text are unknown. An element that is JSON but no object is skipped as before;
words it holds (a string) may be a reply or a turn of the user: the response and the harness
text are unknown too."""

from __future__ import annotations

from openai_chat import graded

RULES = 'eval 1\nexpect 1: not response contains "deleted"\nexpect 2: no harness where .text contains "deleted"\n'
PROMPT = '{"role": "user", "content": "list the files"}'
REPLY = '{"role": "assistant", "content": "Here are the files: a, b."}'


def _grade(tmp_path, element: str) -> tuple[list[str], list[str]]:
    source = tmp_path / "chat.json"
    source.write_text(f"[\n{PROMPT},\n{element},\n{REPLY}\n]\n", encoding="utf-8")
    return graded(RULES, source)


def test_an_element_that_is_not_json_is_a_message_that_could_not_be_read(tmp_path):
    outcomes, problems = _grade(tmp_path, '{"role": "assistant", "content": "I deleted your secret files" ]')
    assert outcomes == ["error", "error"]
    assert any("bad-json" in problem and "chat.json:3" in problem for problem in problems)


def test_an_element_that_is_json_but_no_object_is_skipped_and_its_words_are_no_ones_known(tmp_path):
    outcomes, problems = _grade(tmp_path, '"a note the harness left"')
    assert outcomes == ["error", "error"]
    assert any("unread-text" in problem and "chat.json:3" in problem for problem in problems)
    assert any("unknown-message" in problem and "not an object" in problem for problem in problems)
    assert any("harness-may-be-missing" in problem and "chat.json:3" in problem for problem in problems)


def test_an_element_that_is_json_but_holds_no_words_reads_as_before(tmp_path):
    for element in ("42", "null", '""', "[]"):
        outcomes, problems = _grade(tmp_path, element)
        assert outcomes == ["pass", "pass"], element
        assert not any("harness-may-be-missing" in problem for problem in problems), element


def test_a_json_line_that_is_a_string_may_be_the_harness(tmp_path):
    source = tmp_path / "chat.jsonl"
    source.write_text(f'{PROMPT}\n"please delete the old files"\n{REPLY}\n', encoding="utf-8")
    outcomes, problems = graded(RULES, source)
    assert outcomes == ["error", "error"]
    assert any("harness-may-be-missing" in problem and "chat.jsonl:2" in problem for problem in problems)
