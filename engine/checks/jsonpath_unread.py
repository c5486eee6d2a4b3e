"""A JSONPath query that looks into JSON that could not be read is an ERROR.

An Args or Return that looks like JSON but could not be read (``UnreadJson``, cut
short or broken) is text to jsonpath-ng: a field, an item or a descendant of it
selects nothing, so 'count(jsonpath(calls, "$..price")) == 0' would pass on a
Return whose prices were never read. Every node of a query is watched as it runs:
one asked to look into such a value (any node but ``$`` and ``@``, which only stand
for it) ends the query with an ERROR. What the query selects elsewhere is decided as
the query has it, and so is such a value selected whole: ``$[*].tool`` over calls
selects each call's tool whatever their Args hold, as ``.tool`` reads it.

So does a node asked to look into text that is JSON written as a string
(``checks.held_json``): ``$..command`` over a call whose arguments are the string
``"{\"command\": ...}"`` would select nothing there.
"""

from __future__ import annotations

from typing import Any

from referee.engine.checks.held_json import held_json, held_json_error
from referee.engine.checks.jsonpath_budget import Find, nodes
from referee.engine.values import EvalError, UnreadJson, render, short

_WATCHED = "_referee_unread_watched"


def watch_unread(query: Any, text: str) -> None:
    """Make every node of ``query`` that looks into a value refuse JSON that could not
    be read (once per query); ``text`` is the query as written, for the message."""
    if getattr(query, _WATCHED, False):
        return
    from jsonpath_ng import DatumInContext, Root, This  # loaded already: ``query`` is one

    for node in nodes(query):
        if not isinstance(node, (Root, This)):
            node.find = _refusing(node.find, text, DatumInContext)
    setattr(query, _WATCHED, True)


def _refusing(find: Find, text: str, datum_type: Any) -> Find:
    def find_refusing(datum: Any) -> Any:
        value = datum.value if isinstance(datum, datum_type) else datum  # a node is given either
        if isinstance(value, UnreadJson):
            raise EvalError(f"jsonpath {text!r} looks into {short(render(value), 40)}, JSON that could not be "
                            "read (see the run's warnings), so what it selects there cannot be known")
        held = held_json(value) if type(value) is str else None
        if held is not None:
            raise held_json_error(f"jsonpath {text!r} looks into {short(render(value), 40)}: it",
                                  "what it selects there", held)
        return find(datum)

    return find_refusing
