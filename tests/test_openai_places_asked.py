"""The OpenAI reader finds where a thing lies only when something cites it: an
assistant message whose words hold nothing is never cited at its words (a Responses
API item's status, which would cite them, is looked at before they are located)."""

from __future__ import annotations

from referee.engine.run.importers.openai import read_messages
from referee.engine.run.importers.record import Origin


def _read(messages: list) -> tuple[list[tuple[int, str, int, str]], object]:
    asked: list[tuple[int, str, int, str]] = []

    def locate(index: int, key: str, nth: int, suffix: str = "") -> Origin:
        asked.append((index, key, nth, suffix))
        return Origin("chat.json", index + 1)

    return asked, read_messages(messages, locate, "chat.json", [], "chat.json")


_CALL = {"role": "assistant", "content": None,
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "getRecord", "arguments": "{}"}}]}
_ANSWER = {"role": "tool", "tool_call_id": "c1", "content": "{\"code\": \"200\"}"}


def test_a_call_without_words_is_not_located_at_its_words():
    asked, conversation = _read([{"role": "user", "content": "Fetch it."}, _CALL, _ANSWER,
                                 {"role": "assistant", "content": "Done."}])
    assert (1, "content", 0, "/content") not in asked
    assert [call.tool for call in conversation.calls] == ["getRecord"]


def test_an_item_still_in_progress_is_still_cited_at_its_words():
    item = {"type": "message", "role": "assistant", "status": "in_progress", "content": "Sav"}
    asked, conversation = _read([{"role": "user", "content": "Save it."}, item])
    assert (1, "content", 0, "/content") in asked
    assert any(p.code == "unread-text" and p.line == 2 for p in conversation.problems)
