"""JSONPath evaluation charged to the assertion's work budget.

jsonpath-ng walks the data in pure Python with no limit: ``$..*..*`` on a
megabyte of JSON visits every node once per ancestor. Every node of a compiled
query answers ``find(datum)`` for each datum it is asked about, and every step
of the walk is such a call, so counting the calls (and what they return) bounds
the walk: each one is charged to ``engine.budget``, and a query whose work or
result count goes past its budget ends the assertion with an ERROR naming it.
"""

from __future__ import annotations

from typing import Any, Callable

from referee.engine.budget import DEFAULT_RESULTS, BudgetExceeded, current, spend

MAX_RESULTS = DEFAULT_RESULTS  # outside an assertion's budget
_COUNTED = "_referee_counted"
# A query node's ``find``: a datum (or a bare value) to the matches under it. The
# checks wrap it to watch, charge or refuse what it meets.
Find = Callable[[Any], Any]


def bounded_find(query: Any, data: Any, text: str) -> list:
    """``query.find(data)``, charged step by step to the current budget.

    ``text`` is the query as written, for the message. Raises ``BudgetExceeded``
    when the walk exceeds the work budget or selects more values than the
    budget's ``results`` (``MAX_RESULTS`` outside any budget).
    """
    what = f"jsonpath {text!r}"
    _count_calls(query, what)
    found = query.find(data)
    budget = current()
    most = budget.limits.results if budget is not None else MAX_RESULTS
    if len(found) > most:
        raise BudgetExceeded(f"stopped: {what} selected {len(found):,} values, more than its "
                             f"budget of {most:,}; select less (a field, not '..*')")
    return found


def _count_calls(query: Any, what: str) -> None:
    """Make every node of ``query`` charge the budget on each ``find`` (once per query)."""
    if getattr(query, _COUNTED, False):
        return
    for node in nodes(query):
        node.find = _charged(node.find, what)
    setattr(query, _COUNTED, True)


def nodes(root: Any) -> list:
    """Every JSONPath node reachable from ``root`` through its attributes, each once."""
    from jsonpath_ng import JSONPath  # loaded already: ``root`` is one (see Compiler.jsonpath)

    found, seen, stack = [], set(), [root]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
            continue
        if not isinstance(item, JSONPath) or id(item) in seen:
            continue
        seen.add(id(item))
        found.append(item)
        stack.extend(v for k, v in vars(item).items() if k != "find")
    return found


def _charged(find: Find, what: str) -> Find:
    def find_charged(datum: Any) -> Any:
        spend(1, what)
        result = find(datum)
        if isinstance(result, list) and result:
            spend(len(result), what)
        return result

    return find_charged
