"""The order of an OpenAI Assistants API thread export's messages.

Such an export is listed newest first by default (``order=desc``), each message
with its ``created_at`` (in seconds); read as listed, its latest user turn would be
the eval prompt and its replies reversed. Its messages never hold their runs' tool
calls (those are in the run steps), which ``openai`` says once per thread.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Callable

# An Assistants API message's "object".
THREAD_MESSAGE = "thread.message"


def in_time_order(pairs: Iterable[tuple[int, Any]], unread: object,
                  unordered: Callable[[int], None]) -> Iterator[tuple[int, Any]]:
    """``(index, message)`` pairs in the order the messages were written; ``unread``
    marks a message that could not be read. Chat messages have no time and are
    handed on one at a time, as they come. A thread export is held whole (a thread
    is small) and read oldest first. A thread whose times are not all given, and do
    not rise, has no known order: it is read as listed, and ``unordered`` is told
    the index of its first message (its response is unknown)."""
    pairs = iter(pairs)
    head: list[tuple[int, Any]] = []
    for pair in pairs:
        head.append(pair)
        if pair[1] is not unread:
            break
    if not head or not is_thread_message(head[-1][1]):
        yield from head
        yield from pairs
        return
    held = [pair for pair in head + list(pairs) if pair[1] is not unread]
    times = [_created_at(message) for _, message in held]
    given = [time for time in times if time is not None]
    if len(given) < len(times):
        if given != sorted(given):
            unordered(held[0][0])
        yield from held
    elif given == sorted(given, reverse=True):  # newest first: messages of one second keep their places
        yield from reversed(held)
    else:  # every time is given here; the position breaks ties, so no two pairs are compared
        yield from (pair for _, _, pair in sorted(zip(given, range(len(held)), held)))


def is_thread_message(message: Any) -> bool:
    return isinstance(message, dict) and message.get("object") == THREAD_MESSAGE


def _created_at(message: Any) -> int | float | None:
    """When an Assistants API message was written (seconds since the epoch), or None."""
    time = message.get("created_at") if isinstance(message, dict) else None
    return time if isinstance(time, (int, float)) and not isinstance(time, bool) else None
