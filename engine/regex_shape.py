"""What the tree of a regular expression (``regex_syntax.parse``) tells before the
pattern runs: whether a backtracking engine may take exponential time on it
(``backtrack_safe``), whether it calls a group (``group_call``), how much compiling
it writes out (``written_out``), whether it holds a line anchor, and what in it only
the backtracking engine runs (``needs_backtracking_why``).
"""

from __future__ import annotations

import re

from referee.engine.regex_syntax import GROUP_NAME, Alt, Group, Leaf, Other, Repeat, Seq


def backtrack_safe(tree: object) -> bool:
    """False when a group repeated more than once holds a repetition, an
    alternation or a construct the reader cannot judge: the shapes (``(a+)+``,
    ``(a|aa)+``) on which a backtracking engine can take exponential time."""
    if isinstance(tree, Repeat):
        if not tree.known:
            return False
        if (tree.high is None or tree.high > 1) and _branches(tree.body):
            return False
        return backtrack_safe(tree.body)
    return all(backtrack_safe(child) for child in _children(tree))


_GROUP_CALL = re.compile(rf"\(\?(?:R|[0-9]+|&{GROUP_NAME}|P>{GROUP_NAME})\)")


def group_call(tree: object) -> str | None:
    """The first call of a group of the pattern in ``tree`` (``(?R)``, ``(?1)``,
    ``(?&name)``), as written, or None. A call re-enters the pattern, a loop no
    repetition shows: ``(?0)`` recurses without consuming anything until memory runs
    out, and ``backtrack_safe`` cannot bound what a call repeats."""
    if isinstance(tree, Other):
        return tree.text if _GROUP_CALL.fullmatch(tree.text) else None
    for child in _children(tree):
        found = group_call(child)
        if found:
            return found
    return None


def written_out(tree: object) -> int:
    """How many atoms the ``regex`` module writes out for ``tree``: it compiles each
    copy a repetition must match (its lower count, nested counts multiplied), so
    this is what its compiling costs in memory and time."""
    if isinstance(tree, Repeat):
        return max(tree.low, 1) * written_out(tree.body)
    children = _children(tree)
    return sum(written_out(child) for child in children) if children or isinstance(tree, Seq) else 1


def has_line_anchor(tree: object) -> bool:
    """Whether the pattern holds ``^`` or ``$`` (which meet a line's end)."""
    if isinstance(tree, Leaf):
        return tree.kind in ("bol", "eol")
    return any(has_line_anchor(child) for child in _children(tree))


def _branches(tree: object) -> bool:
    """Whether ``tree`` can match in more than one way: it holds a repetition
    (of more than one), an alternation or an unknown construct."""
    if isinstance(tree, Repeat):
        return tree.high is None or tree.high > 1 or _branches(tree.body)
    if isinstance(tree, (Alt, Other)):
        return True
    if isinstance(tree, Group) and tree.kind == "other":
        return True
    return any(_branches(child) for child in _children(tree))


def _children(tree: object) -> list:
    if isinstance(tree, Seq):
        return tree.items
    if isinstance(tree, Alt):
        return tree.branches
    if isinstance(tree, (Group, Repeat)):
        return [tree.body]
    return []


def needs_backtracking_why(tree: object) -> str | None:
    """What in the tree only the backtracking engine runs (for messages), if anything."""
    if isinstance(tree, Other):
        return f"it uses {tree.text}"
    if isinstance(tree, Group) and tree.kind in ("look", "atomic", "other"):
        return {"look": "it uses a lookaround", "atomic": "it uses an atomic group"}.get(
            tree.kind, "it uses a group only the backtracking engine knows")
    if isinstance(tree, Repeat) and (tree.mode == "+" or not tree.known):
        return "it uses a possessive or fuzzy repetition"
    for child in _children(tree):
        why = needs_backtracking_why(child)
        if why:
            return why
    return None
