"""What in a Claude Code session asks the agent for an answer, and what does not: a
user's words, an image, a prompt queued while it worked, a custom slash command, a Stop
hook that sends it back to work ask; a built-in command and what it printed, a shell
command or a note the user ran or saved itself, an interrupt mark, the notice that a
background task ended do not. The reader of
an agent's records keeps the last request the agent owes an answer (``claude_user``)."""

from __future__ import annotations

import re
from typing import Any

# How Claude Code records a slash command the user ran, and what a built-in one printed,
# a shell command the user ran itself (``! git status``) with its output, and a note it
# saved to memory (``# always use uv``): a user message made of these tags alone is the
# harness's record, never a request.
_COMMAND_TAGS = ("command-name", "command-message", "command-args", "local-command-stdout",
                 "local-command-stderr", "local-command-caveat", "bash-input", "bash-stdout", "bash-stderr",
                 "user-memory-input")
_COMMAND_OPEN = re.compile(r"\s*<(%s)>" % "|".join(_COMMAND_TAGS))
_COMMAND_NAME = re.compile(r"<command-name>\s*/?([^<\s]*)")
_COMMAND_PRINTED = ("<local-command-stdout>", "<local-command-stderr>")
# Built-in commands Claude Code runs itself, never asking the model: ``/exit`` ends the
# session with no answer to wait for. Any other command (a custom one, a skill) may be
# a prompt the agent answers, unless what it printed follows it.
_LOCAL_COMMANDS = frozenset({"exit", "quit", "clear", "compact", "cost", "help", "status", "config", "model",
                             "context", "usage", "doctor", "login", "logout", "memory", "permissions", "resume",
                             "export"})
_INTERRUPTED = "[Request interrupted by user"  # Claude Code's mark of an interrupt, no request
# What a user's request may hold besides its words: a tuple, so a part typed by JSON of
# another kind (an object) is compared with them, never hashed.
ASKED_PARTS = ("image", "document")
# What Claude Code tells the agent when a Stop hook refuses to let it stop: it goes on working
_STOP_REFUSED = ("Stop hook feedback:", "SubagentStop hook feedback:")
# How Claude Code tells an agent that waits that a background task ended, in a user record
# it writes itself: text that opens with this tag, in a record newer versions name so
_TASK_NOTIFICATION = "<task-notification>"


def command_record(text: str) -> bool:
    """Whether a user message's text is Claude Code's record of a slash command
    (``<command-name>/clear</command-name>``, its message and arguments) or of what a
    built-in command printed (``<local-command-stdout>``), or of a shell command the user
    ran itself (``<bash-input>``, ``<bash-stdout>``), or of a note it saved to memory
    (``<user-memory-input>``): those tags and nothing else."""
    at, tags = 0, 0
    while at < len(text):  # each tag closed at its first end (none nests): one pass over the text
        opened = _COMMAND_OPEN.match(text, at)
        if opened is None:
            return tags > 0 and not text[at:].strip()
        end = text.find(f"</{opened.group(1)}>", opened.end())
        if end < 0:
            return False
        at, tags = end + len(opened.group(1)) + 3, tags + 1
    return tags > 0


def queued_unread(attachment: Any) -> bool:
    """Whether an attachment is a prompt the user typed while the agent was at work
    (``queued_command``) given in a shape ``queued_prompt`` does not read: no text
    (parts, when the user pasted an image with it)."""
    return (isinstance(attachment, dict) and attachment.get("type") == "queued_command"
            and not isinstance(attachment.get("prompt"), str))


def queued_prompt(attachment: Any) -> str | None:
    """The text of a prompt the user typed while the agent was at work, which Claude
    Code gives the agent as a ``queued_command`` attachment (``commandMode`` "prompt");
    None for any other attachment (a background task's notification is the harness's)."""
    if not isinstance(attachment, dict) or attachment.get("type") != "queued_command":
        return None
    prompt = attachment.get("prompt")
    return prompt if attachment.get("commandMode", "prompt") == "prompt" and isinstance(prompt, str) else None


def command_printed(text: str) -> bool:
    """Whether a command's record is what a built-in command printed: Claude Code ran it
    itself, so the command before it asked the agent nothing."""
    return text.lstrip().startswith(_COMMAND_PRINTED)


def command_may_ask(text: str) -> bool:
    """Whether a slash command's record names a command that may be a prompt the agent
    answers (a custom one, a skill): any but the built-in ones."""
    name = _COMMAND_NAME.search(text)
    return name is not None and name.group(1).casefold() not in _LOCAL_COMMANDS


def stop_refused(text: str) -> bool:
    """Whether a meta record tells the agent a Stop hook refused to let it stop."""
    return text.lstrip().startswith(_STOP_REFUSED)


def task_notification(rec: dict, text: str) -> bool:
    """Whether a user record is Claude Code's notice that a background task ended (its
    ``origin.kind`` says so, or its text opens with ``<task-notification>``): the
    harness's words, as the same notice given as a ``queued_command`` attachment is,
    never the user's nor a request of the user."""
    origin = rec.get("origin")
    named = isinstance(origin, dict) and origin.get("kind") == "task-notification"
    return named or text.lstrip().startswith(_TASK_NOTIFICATION)


def interrupted(text: str) -> bool:
    """Whether a user message is Claude Code's mark of an interrupt, not a request."""
    return text.lstrip().startswith(_INTERRUPTED)
