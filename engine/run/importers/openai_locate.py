"""Where the messages of an OpenAI-format conversation lie in its source.

A ``Locate`` gives the place of a message's key. A conversation written on one line
(JSON lines), or one element of a document (tau-bench's results), cites each
message's keys by JSON Pointer and column, asking ``message_lines``; when its
message array cannot be matched to its messages, everything is cited at one line.
One message's lines are kept at a time.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.engine.run.importers.jsondoc import Document
from referee.engine.run.importers.message_lines import MessageLines
from referee.engine.run.importers.openai_steps import Locate
from referee.engine.run.importers.record import Origin


def line_locator(name: str, number: int, line: str, document: Document | None, messages: list) -> Locate:
    """Origins in a conversation written on one line (``document``: its message array):
    each message's keys by JSON Pointer and column (the line alone would cite
    everything at once)."""
    elements = document.elements if document is not None else []
    if document is None or len(elements) != len(messages):  # not the array the messages came from
        return _at_line(name, number)
    base = document.base

    def lines_of(index: int) -> MessageLines:
        element = elements[index]
        return MessageLines(line[element.start:element.end], number, name, f"{base}/{index}", element.start,
                            messages[index])

    return _one_message_at_a_time(lines_of)


def element_locator(name: str, text: str, first_line: int, pointer: str, inner: Document | None,
                    messages: list) -> Locate:
    """Origins of the messages of a conversation that is one element of a document
    (``inner``: its message array)."""
    elements = inner.elements if inner is not None else []
    if inner is None or len(elements) != len(messages):
        return _at_line(name, first_line)
    base = pointer + inner.base

    def lines_of(index: int) -> MessageLines:
        element = elements[index]
        return MessageLines(text[element.start:element.end], first_line + element.line - 1, name,
                            f"{base}/{index}", None, messages[index])

    return _one_message_at_a_time(lines_of)


def _one_message_at_a_time(lines_of: Callable[[int], MessageLines]) -> Locate:
    """Origins of a message's keys by the lines ``lines_of`` gives it (its index), made
    when the message is first asked about; only the last message's are kept, as the
    reader asks about one message at a time."""
    found: dict[int, MessageLines] = {}

    def locate(index: int, key: str, nth: int, suffix: str = "") -> Origin:
        lines = found.get(index)
        if lines is None:
            found.clear()  # one message at a time
            lines = found[index] = lines_of(index)
        return lines.origin(key, nth, suffix)

    return locate


def _at_line(name: str, number: int) -> Locate:
    """Every place at one line of the source."""
    def locate(index: int, key: str, nth: int, suffix: str = "") -> Origin:
        return Origin(name, number)

    return locate
