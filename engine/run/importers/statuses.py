"""Whether a tool's answer was an error, in a format whose messages may not say.

OpenAI's chat format gives a tool message no error flag; producers add their own:
``"status": "error"`` (LangChain and LangGraph tool messages), ``"is_error": true``
(``"isError": true`` as MCP and AG-UI write it), or an ``"error"`` member that holds
something. A tool message with one of those is an error; a flag that says neither
(``"is_error": "true"``, ``"status": "cancelled"``) leaves its call's status unknown.
An MCP client may store a tool's whole ``CallToolResult`` as the message's content,
as JSON text (``{"content": [...], "isError": true}``) or as an object: the
``isError`` at the top level of that object is a flag of the message as well (only
there: a return that holds such a key deeper inside says nothing by it). So is the
``error`` of ToolBench's answers, the text ``{"error": "...", "response": ...}`` its
server gives every call: text there says the tool failed, an empty string that it did
not (read from the text's start, as ToolBench cuts long answers short). So is the exit
code mini-swe-agent's answer to a command opens with (``<returncode>1</returncode>``),
and its answer to a command it killed for taking too long: both errors, an exit code
of 0 a success. ``--error-when REGEX`` adds the producer's convention for the rest (a
tool that answers ``Error: ...``): a message whose text the pattern finds is an
error. Where neither says, an answered call is read as a success, and a source in
which no message carries any flag and no pattern was given says so: its statuses
are assumed (``statuses-assumed``), never silently trusted.

The pattern runs on the engine every rule runs on (``engine.regexes``); a tool
message it cannot decide on makes that call's status unknown (a check on it is an
ERROR), never a guess.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

import regex

from referee.engine.regexes import compile_regex
from referee.engine.run.importers.openai_content import text_of
from referee.engine.run.importers.record import Origin
from referee.engine.run.importers.source import json_container
from referee.engine.run.model import Problem
from referee.engine.run.status_words import FAILED, SUCCEEDED
from referee.engine.values import EvalError

FLAGS = ("is_error", "isError", "status", "error")  # the members by which producers say a tool failed
# the flags that are true or false: is_error, and isError as MCP's tool results and the
# AG-UI protocol's tool messages write it
_BOOLEAN_FLAGS = ("is_error", "isError")
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


UNSURE = "unsure"  # a flag that says neither (``"is_error": "true"``, ``"status": "cancelled"``)


def flagged(message: dict) -> bool | str | None:
    """True when the message says the tool failed, False when it says it did not,
    ``UNSURE`` when a flag it carries says neither, None when it carries no flag."""
    found: bool | str | None = None
    content = message.get("content")
    given = [message[key] for key in _BOOLEAN_FLAGS if key in message] + _result_flag(content) + _answer_flag(content)
    given += _exit_flag(content)
    if isinstance(message.get("error"), bool):  # tau2-bench's "error": false says the tool did not fail
        given.append(message["error"])
    for flag in given:
        said = flag if isinstance(flag, bool) else False if flag is None else UNSURE
        found = said if found is None or found == said else UNSURE  # two flags that disagree say neither
    if isinstance(message.get("status"), str):
        word = message["status"].casefold()
        found = True if word in FAILED else found if word in SUCCEEDED else found or UNSURE
    elif message.get("status") is not None:
        found = found or UNSURE
    if "error" in message and _holds(message["error"]):
        found = True
    return found


# A JSON escape of an ASCII letter (U+0040 to U+007F), by which a key may spell "isError"
_LETTER_ESCAPED = re.compile(r"\\u00[4-7][0-9A-Fa-f]")


def _result_flag(content: Any) -> list[Any]:
    """The ``isError`` of an MCP ``CallToolResult`` given as the tool message's content
    (``[flag]``, else ``[]``): the object itself, or its JSON text (a string, or the
    text of the content's parts). Only the top level of that object is looked at: an
    ordinary return that holds an ``isError`` deeper inside is not a result that says
    its tool failed."""
    if isinstance(content, dict) and not isinstance(content.get("text"), str):
        result: Any = content
    else:
        text = text_of([content] if isinstance(content, dict) else content)
        # parsed only when the text may be an object naming the flag, maybe with a letter of
        # its name escaped (a backslash-u escape of a letter, 0045); escapes of other
        # characters (503c) cannot spell it
        named = text.lstrip()[:1] == "{" and ("isError" in text or _LETTER_ESCAPED.search(text) is not None)
        found = json_container(text) if named else None
        result = found[0] if found is not None else None
    return [result["isError"]] if isinstance(result, dict) and "isError" in result else []


# ToolBench's answer as its server writes it (json.dumps, error first), read from the
# start: ToolBench cuts a long answer short (``...``), leaving the JSON open
_ANSWER_START = re.compile(r'\{"error": ("(?:[^"\\]|\\.)*"), "response": ')


def _answer_flag(content: Any) -> list[bool | str]:
    """The ``error`` of a ToolBench answer given as the content's text
    (``{"error": "...", "response": ...}``, as its RapidAPI server answers every call):
    ``[True]`` when it holds text, ``[False]`` when it is empty, ``[]`` for any other
    text. A whole object of other members says nothing by it; one cut short is read by
    its start, and one cut before its error ends says neither (``[UNSURE]``)."""
    if not isinstance(content, str) or not content.startswith('{"error": "'):
        return []
    whole = json_container(content)
    if whole is not None:
        answer = whole[0]
        keep = isinstance(answer, dict) and answer.keys() == {"error", "response"} and isinstance(answer["error"], str)
        return [answer["error"] != ""] if keep else []
    start = _ANSWER_START.match(content)
    error = json_container(f"[{start.group(1)}]") if start is not None else None  # None: an escape JSON has not
    return [error[0][0] != ""] if error is not None else [UNSURE]


# mini-swe-agent's answer to a command it ran (its observation template, also in a tool
# message when it calls tools): the exit code first; and its answer to a command it killed.
_EXIT_CODE = re.compile(r"<returncode>(-?[0-9]{1,9})</returncode>")
_KILLED = ("The last command <command>", "</command> timed out and has been killed.")


def _exit_flag(content: Any) -> list[bool]:
    """``[True]`` for mini-swe-agent's answer to a command that exited with a code other
    than 0 or that it killed for taking too long, ``[False]`` for one that exited with
    0, ``[]`` for any other text: the exit code is read only where the answer opens."""
    if not isinstance(content, (str, list)):
        return []
    text = text_of(content)
    code = _EXIT_CODE.match(text)
    if code is not None:
        return [int(code.group(1)) != 0]
    opening, killed = _KILLED
    return [True] if text.startswith(opening) and killed in text else []


def _holds(value: Any) -> bool:
    return value not in (None, False, "", [], {}) and value != 0


class Statuses:
    """The statuses of one conversation's answered calls, each read from its tool
    message (``flagged``, then ``--error-when``), and how they were read: ``warn`` is
    told where one cannot be decided."""

    def __init__(self, name: str, error_when: ErrorWhen | None, warn: Callable[[str, Origin, str], None]) -> None:
        self.name = name
        self.error_when = error_when
        self.warn = warn
        self.answered = self.flagged = self.matched = 0  # tool messages: all, with a flag, found by --error-when

    def of(self, message: dict, origin: Origin, lost: bool = False,
           says_failures: bool = False) -> tuple[str, frozenset[str]]:
        """The call's status from its tool message, and ``{"status"}``
        when ``--error-when`` could not decide on it (or could not see all its text:
        ``lost``). ``says_failures``: the call's producer gives every failed call's answer
        an ``error`` (Inspect AI), so an answer carrying no flag says its tool did not fail."""
        self.answered += 1
        flag = flagged(message)
        if flag is None and says_failures:
            flag = False
        self.flagged += flag is not None
        if flag == UNSURE:
            self.warn("status-unknown", origin, "the tool message's error flag says neither failed nor succeeded: "
                      "its call's status is unknown")
            return "success", frozenset({"status"})
        if flag or self.error_when is None:
            return ("error" if flag else "success"), frozenset()
        content = message.get("content")
        if isinstance(content, dict):  # one text part is the text it holds; another object, its JSON
            text = text_of([content]) if isinstance(content.get("text"), str) else json.dumps(content, ensure_ascii=False)
        else:
            text = text_of(content)
        found = None if lost else self.error_when.finds(text, f"the tool message at {origin.source}:{origin.line}")
        if found is None:
            self.warn("status-unknown", origin, f"--error-when /{self.error_when.text}/ could not be decided on this "
                      "tool message: its call's status is unknown")
            return "success", frozenset({"status"})
        self.matched += found
        return ("error" if found else "success"), frozenset()

    def problems(self) -> tuple[Problem, ...]:
        """How the statuses were read, when no flag said so for every answer."""
        if not self.answered or self.flagged == self.answered:
            return ()
        if self.error_when is not None:
            message = (f"{self.matched} of {self.answered} tool messages matched --error-when "
                       f"/{self.error_when.text}/ and were read as errors")
            return (Problem("error-when", self.name, message),)
        if self.flagged:
            return ()
        message = ("no tool message says whether its tool failed (no is_error, isError, status or error member) and no "
                   "--error-when was given: every answered call is read as a success; name the tool's error "
                   "text with referee import openai --error-when REGEX")
        return (Problem(ASSUMED, self.name, message),)
