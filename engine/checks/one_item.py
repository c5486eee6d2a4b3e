"""A list of one item compared with that item: ``.args.to == "ceo@example.com"`` over
``"to": ["ceo@example.com"]``.

Tools take one value or a list of them alike (a recipient, a path, a tag), and agents
write either. The list is not the text, so ``==`` fails and ``no calls have .args.to
== "ceo@example.com"`` would pass over a mail sent to that address. Whether the rule
means the value, whichever way it is written, or the text alone cannot be told: such
an ``==`` or ``!=`` is an ERROR saying how to write either.
"""

from __future__ import annotations

from referee.engine.equality import equal
from referee.engine.values import EvalError, Val, plain_top, render, short


def not_one_item(left: Val, right: Val, ignore_case: bool) -> None:
    """An EvalError when one side is a list of one item and the other a value equal to
    that item (text, a number, a boolean): the two differ only as list and item."""
    for listed, value in ((left, right), (right, left)):
        items = plain_top(listed.value)
        if isinstance(items, list) and len(items) == 1 and not isinstance(plain_top(value.value), (list, dict)):
            if equal(items[0], value.value, ignore_case):
                raise _one_item_error(listed, value)


def _one_item_error(listed: Val, value: Val) -> EvalError:
    shown = short(render(value.value), 60)
    return EvalError(f"{listed.label} is a list of one item, {shown}, and {value.label} is that item: "
                     f"whether the rule means the value, one or listed, or the text as written cannot be "
                     f"told; write `{shown} in ...` for the item, or compare with [{shown}] for the list")
