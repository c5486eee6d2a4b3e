"""Whether a tool's answer was an error, in a format whose messages may not say.

OpenAI's chat format gives a tool message no error flag; producers add their own:
``"status": "error"`` (LangChain and LangGraph tool messages), ``"is_error": true``,
or an ``"error"`` member that holds something. A tool message with one of those is
an error. ``--error-when REGEX`` adds the producer's convention for the rest (a
tool that answers ``Error: ...``): a message whose text the pattern finds is an
error. Where neither says, an answered call is read as a success, and a source in
which no message carries any flag and no pattern was given says so: its statuses
are assumed (``statuses-assumed``), never silently trusted.

The pattern runs on the engine every rule runs on (``engine.regexes``); a tool
message it cannot decide on makes that call's status unknown (a check on it is an
ERROR), never a guess.
"""

from __future__ import annotations

from typing import Any

import regex

from referee.engine.regexes import compile_regex
from referee.engine.values import EvalError

FLAGS = ("is_error", "status", "error")  # the members by which producers say a tool failed
ASSUMED = "statuses-assumed"


class BadPattern(ValueError):
    """An ``--error-when`` pattern that does not compile; ``str`` says why."""


class ErrorWhen:
    """A compiled ``--error-when`` pattern; ``text`` is how the user wrote it."""

    def __init__(self, text: str) -> None:
        self.text = text
        try:
            self.pattern = compile_regex(text, "")
        except regex.error as exc:
            raise BadPattern(f"--error-when {text!r} is not a valid regular expression: {exc}") from None

    def finds(self, text: str, where: str) -> bool | None:
        """Whether the pattern is found in ``text``; None when it cannot be decided."""
        try:
            return self.pattern.search(text, where) is not None
        except EvalError:
            return None


def flagged(message: dict) -> bool | None:
    """True when the message says the tool failed, False when it says it did not,
    None when it carries no flag at all."""
    found = None
    if "is_error" in message:
        found = message["is_error"] is True
    if isinstance(message.get("status"), str):
        found = bool(found) or message["status"].casefold() in ("error", "failed", "failure")
    if "error" in message:
        found = bool(found) or _holds(message["error"])
    return found


def _holds(value: Any) -> bool:
    return value not in (None, False, "", [], {}) and value != 0
