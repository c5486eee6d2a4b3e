"""What a line of a Claude Code session that is not read may have held: a record
that is no JSON object (``not_a_record``), a line cut short or not JSON (``may_be_turn``),
and the words a record of a type the reader does not know keeps where a message does
(``holds_message``). What the records that are read mean is ``claude_records``'s."""

from __future__ import annotations

import json
import re
from typing import Any

from referee.engine.run.agents import CALLS_MAY_BE_MISSING
from referee.engine.run.importers.source import CALL_WORDS, holds_call, may_hold, may_say, nested, unescaped
from referee.engine.run.model import HARNESS_MAY_BE_MISSING, Problem

# How a record names itself text of the user or the harness: its type or its message's
# role, or the attachment it holds (a prompt queued while the agent worked); and how a
# record names a type at all (an assistant's message names "message", its blocks theirs).
_TURN_NAMED = re.compile(r'"(?:type|role)"\s*:\s*"(?:user|system|attachment)"|"attachment"\s*:', re.I)
_TYPE_NAMED = re.compile(r'"(?:type|role)"\s*:\s*"', re.I)


def holds_message(rec: dict) -> bool:
    """Whether a record of a type the reader does not know holds words where a message
    keeps them: its ``message`` or ``content`` (text, or text in ``content`` or
    ``text`` members within)."""
    return any(may_say(value) or any(isinstance(item, dict) and isinstance(item.get("content"), str)
                                     and item["content"].strip() for item in nested(value))
               for value in (rec.get("message"), rec.get("content")) if value is not None)


def not_a_record(source: str, line: int, value: Any, problems: list[Problem]) -> None:
    problems.append(Problem("unknown-record", source, "line is not a JSON object; skipped", line))
    if holds_call(value) or may_hold(json.dumps(value, ensure_ascii=False, default=str), CALL_WORDS):
        problems.append(Problem(CALLS_MAY_BE_MISSING, source, "this line, skipped, holds a tool call: no check "
                                "over the run's calls can be decided", line))
    if any(isinstance(item, dict) and holds_message(item) for item in nested(value)):
        problems.append(Problem(HARNESS_MAY_BE_MISSING, source, "this line, skipped, holds a message that may be a "
                                "turn of the user: no check over the harness text can be decided", line))


def may_be_turn(text: str) -> bool:
    """Whether a line that could not be read may have been a turn of the user or text
    the harness wrote: it names a user or system record or an attachment (written
    plainly or with ``\\u`` escapes), or it is JSON cut before it names any type. A line
    that names only other types (an assistant's message) was none, nor was text that is
    no JSON at all (what a shell wrote before a stream, stderr merged in)."""
    text = unescaped(text)
    if _TURN_NAMED.search(text):
        return True
    return text.lstrip()[:1] in ("{", "[") and _TYPE_NAMED.search(text) is None
