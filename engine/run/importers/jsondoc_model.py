"""What ``jsondoc`` finds in a document: the elements of its message array
(``Element``), the array and what lies around it (``Document``), and the keys
that name a message array (``key_name``, ``MESSAGE_KEYS``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.dsl.frozen import frozen
from referee.engine.run.importers.exact import loads

MESSAGE_KEYS = ("messages", "traj")  # the keys whose array holds the messages
# SWE-agent's .traj keeps its messages under "history", beside the "trajectory" of
# the same steps: a "history" array is the message list only with a "trajectory" array.
HISTORY, TRAJECTORY = "history", "trajectory"
SIMULATIONS = "simulations"  # tau2-bench's results: a conversation each, its "messages" inside


@frozen
class Element:
    """One element of the message array: its bytes ``[start, end)`` (``end`` None when
    the document is cut short inside it), the line it starts on, and whether it is
    an object (anything else is no message)."""

    start: int
    end: int | None
    line: int
    is_object: bool = True


@dataclass
class Document:
    """The elements of a document's message array, whether the array was closed, and
    the array's JSON Pointer (``""`` for a top-level array, ``/messages``, ``/traj``)."""

    elements: list[Element] = field(default_factory=list)
    closed: bool = False
    base: str = ""
    values: list[Any] | None = None  # each element's value, when the document was decoded whole
    # a top-level array decoded whole: its value, every element (a number, true... too)
    whole: list[Any] | None = None
    # The line of a second array under "messages" or "traj", which is not read: JSON
    # readers differ on a key given twice, so the run may hold calls that are not here.
    another: int | None = None
    # Where the message array lies, ``[`` to ``]`` (None when cut short): what is beside
    # it (a logged response's "choices", a Responses API "output") is not read.
    span: tuple[int, int] | None = None
    line: int = 1  # the line where the message array opens
    trajectory: bool = False  # whether the top-level object holds a "trajectory" array (SWE-agent's .traj)

    def cut_after_elements(self) -> bool:
        """Whether the document never closes though its last element (if any) was read
        whole: cut between two elements or after its array, so each element read is
        whole and what came after them is lost. A cut inside an element is that
        element's to say."""
        return not self.closed and not (self.elements and self.elements[-1].end is None)

    def value(self, index: int, text: str) -> tuple[Any] | None:
        """``(value,)`` of element ``index``, whose text is ``text``, as ``exact.loads``
        reads it (None when it does not): decoded with the document, or now."""
        return (self.values[index],) if self.values is not None else loads(text)


def key_name(written: str) -> str | None:
    """The name a key written ``written`` (quotes and escapes kept) gives: ``"mess\\u0061ges"``
    is ``messages`` to every JSON reader, so it is to referee; None when it is no string."""
    if "\\" not in written:
        return written[1:-1] if len(written) > 1 and written[-1:] == '"' else None
    found = loads(written)
    return found[0] if found is not None and isinstance(found[0], str) else None
