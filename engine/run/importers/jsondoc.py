"""Where the messages of one JSON document lie, found without parsing the whole of it.

A message list may be one pretty-printed document of hundreds of megabytes. Parsed
whole, every message would be held as Python objects at once (many times the
source's size); instead one pass over its bytes finds where each element of the
message array starts and ends, and each message is decoded and parsed on its own,
when it is read, and let go. The pass looks at strings and brackets only: JSON's
structure is ASCII, so no UTF-8 text inside a string can fake it. Line numbers are
counted as it goes, and a key inside a message is looked up in that message alone,
once per key (``message_lines``): the cost is linear in the document, however many
calls one message holds.

The pass costs a Python step per string of the document. A document of the plain
kind (a top-level array, UTF-8, every element within the exact decoder's reach) of
at most ``WHOLE_LIMIT`` is instead decoded element after element by the decoder
itself, which finds the same bounds at C speed and gives each message's value on
the way (``Document.values``); the pass stays the reference, and the one reading
of any other document.

The pass is ``jsondoc_walk``'s, the whole decoding ``jsondoc_whole``'s, and what
both find ``jsondoc_model``'s; this module picks the reading and the array.
"""

from __future__ import annotations

from referee.engine.run.importers.jsondoc_model import (HISTORY, MESSAGE_KEYS, SIMULATIONS, TRAJECTORY, Document,
                                                        Element, key_name)
from referee.engine.run.importers.jsondoc_walk import walked_array
from referee.engine.run.importers.jsondoc_whole import WHOLE_LIMIT, decoded_array

_SPACE = b" \t\r\n"
_ANY_KEYS = MESSAGE_KEYS + (HISTORY, SIMULATIONS)

__all__ = ["HISTORY", "MESSAGE_KEYS", "SIMULATIONS", "TRAJECTORY", "WHOLE_LIMIT", "Document", "Element", "decoded_array",
           "key_name", "message_array", "strays", "walked_array"]


def message_array(data: bytes | str) -> Document | None:
    """The message array of ``data`` (a file's bytes, or one line already decoded):
    the top-level array, or the top-level object's ``"messages"`` array (``"traj"`` in
    tau-bench's results; ``"history"`` in a SWE-agent trajectory, which holds a
    ``"trajectory"`` array beside it). None when ``data`` is not one JSON document
    holding one (JSON lines, whose first line ends before the data does, are read line
    by line). Offsets are in ``data``'s units.

    A ``"history"`` array beside another message array is that second list
    (``another``), whichever is read: it may hold the run's calls."""
    found = _array_of(data, _ANY_KEYS)
    if found is None or found.base != "/" + HISTORY or found.trajectory:
        return found
    # A "history" with no "trajectory" beside it is no SWE-agent trajectory: its array
    # is not read as the messages, but it is a second list beside the one read.
    other = _array_of(data, MESSAGE_KEYS)
    if other is not None and other.another is None:
        other.another = found.line
    return other


def _array_of(data: bytes | str, keys: tuple[str, ...]) -> Document | None:
    """``message_array`` with the keys ``keys`` naming a message array."""
    whole = decoded_array(data, keys)
    return whole if whole is not None else walked_array(data, keys)


def strays(data: bytes, elements: list[Element]) -> list[int]:
    """The index of each message of the array that values not objects (numbers,
    ``true``...: what the pass skips) come right before, reported as no message."""
    found = []
    for index, (before, after) in enumerate(zip(elements, elements[1:]), start=1):
        if before.end is not None and data[before.end:after.start].strip(_SPACE + b","):
            found.append(index)
    return found
