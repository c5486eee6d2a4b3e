"""Messages as the model streamed them (``claude -p --include-partial-messages``):
``stream_event`` records are copies, in pieces, of the assistant records that follow
them whole. They are not read; what they started is kept, to be found whole
(``Partial.not_whole``): a block that no whole record holds was cut short while the
model wrote it, so a call there is not read and words there may be the agent's last.
What the records of an agent mean is ``claude_records``'s."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from referee.engine.run.importers.record import Origin
from referee.engine.run.importers.source import may_say

# Parts of a message as it streams that hold neither words nor a call.
_UNSAID = frozenset({"thinking", "thinking_delta", "signature_delta", "redacted_thinking", "citations_delta"})
Unread = Callable[[Origin, str, Any], None]  # reports a part not read, and what it is


class Partial:
    """The blocks each streamed message started: its id (None when it names none), and
    by block index, ``[kind, origin, said]``: "call" or "text" (None for neither yet),
    where it started, and whether its text holds words."""

    def __init__(self, call_blocks: frozenset[str]) -> None:
        self.call_blocks = call_blocks  # the block types that are calls (``claude_records``)
        self.streamed: list[dict] = []

    def event(self, origin: Origin, event: Any, unread: Unread) -> None:
        """An event of a message as the model streamed it: which blocks it started, and
        whether one holds words yet. Its text and input are not read: the whole records
        are. What is neither a block nor its start is reported by ``unread``."""
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == "message_start":
            message = event.get("message")
            key = message.get("id") if isinstance(message, dict) else None
            self.streamed.append({"id": key if isinstance(key, str) else None, "blocks": {}})
            unread(origin, "the start of a message as it streamed", message)
            return
        if kind not in ("content_block_start", "content_block_delta"):
            unread(origin, f"a {kind!r} event of a message as it streamed", event)
            return
        if not self.streamed:  # a block with no message_start: no message it can be matched to
            self.streamed.append({"id": None, "blocks": {}})
        blocks = self.streamed[-1]["blocks"]
        index = event.get("index")
        index = index if isinstance(index, int) and not isinstance(index, bool) else f"line-{origin.line}"
        part = event.get("content_block") if kind == "content_block_start" else event.get("delta")
        part_kind = part.get("type") if isinstance(part, dict) else None
        block = blocks.setdefault(index, [None, origin, False])
        # a type of another JSON type (an object) is no name to look up (hashed, it stopped the import)
        if isinstance(part_kind, str) and (part_kind in self.call_blocks or part_kind == "input_json_delta"):
            block[0] = block[0] or "call"
        elif part_kind in ("text", "text_delta"):
            block[0] = block[0] or "text"
            block[2] = block[2] or may_say(part.get("text"))
        elif isinstance(part_kind, str) and (part_kind in _UNSAID or part_kind.endswith("_tool_result")):
            pass  # no words, no call: a server call's answer is read with the call, from the whole record
        else:
            unread(origin, f"a part of type {part_kind!r} of a message as it streamed", part)
            if may_say(part):
                block[0], block[2] = block[0] or "text", True

    def not_whole(self, held: Callable[[str | None], tuple[int, int]]) -> Iterator[tuple[str, Origin]]:
        """Each block started that no assistant record holds whole, as ``("call", where)``
        or ``("text", where)`` (text with words only): ``held(id)`` is how many calls and
        texts the record of that message holds whole ((0, 0) for none, or no id)."""
        for streamed in self.streamed:
            calls, texts = held(streamed["id"])
            for kind, origin, said in streamed["blocks"].values():
                if kind == "call":
                    calls -= 1
                    if calls < 0:
                        yield "call", origin
                elif kind == "text" and said:
                    texts -= 1
                    if texts < 0:
                        yield "text", origin
