"""A field an object holds only under a name a reader takes for the one asked.

A CSV header written ``name, status`` (a blank after the comma, as people type a list),
a key ``"status "`` or one holding a zero-width space: a person reading the data sees
the column or the field the rule names, while the lookup finds no key equal to it and
reads the field as missing, which ``no ... where .status == "failed"`` would take as a
pass. Which field the rule means cannot be told, so the lookup is an ERROR naming the
key there is, never a silent miss. A name differing in case (``Region`` for
``region``) is another name, as it is to the programs that read such data.
"""

from __future__ import annotations

import json

from referee.engine.checks.folding import as_seen, text_form
from referee.engine.values import EvalError, render


def near_key(obj: dict, key: str) -> str | None:
    """A key of ``obj`` equal to ``key`` only as a reader sees both (blanks at the ends
    and invisible characters aside), when ``obj`` has no key equal to it; else None."""
    wanted = _loose(key)
    for written in obj:
        if isinstance(written, str) and _loose(written) == wanted:
            return written
    return None


def _loose(name: str) -> str:
    return text_form(as_seen(name).strip())


def near_key_error(label: str, key: str, written: str) -> EvalError:
    """The ERROR of asking ``label`` for ``key`` where it holds ``written`` (``near_key``)."""
    return EvalError(f"{label} has no field {render(key)} but has {_written(written)}, a name that differs only "
                     f"in blanks at its ends or invisible characters: which field the rule means cannot be told; "
                     f"write the name as the data has it, .[{_written(written)}]")


def _written(name: str) -> str:
    """``name`` as a string of the rules: an invisible character as its escape, so it can be copied."""
    return json.dumps(name, ensure_ascii=as_seen(name) != name)
