"""Which key of an object a field named in the rules is: the key equal to it in NFC.

Texts are compared in NFC (``checks.folding.text_form``), so a key written decomposed
("Mu" + U+0308 + "ller", as macOS writes names) is the field ``"Müller"``, as the
text ``"Müller"`` is found among ``keys(...)``. An object may hold two keys equal in
NFC (one written whole, one decomposed): with equal values either is the field; with
different values which one the rules mean is not decided, and a lookup of it is an
ERROR naming both, never a pick (so a negative check over it cannot pass).

An object whose keys are all NFC (most: ``unicodedata.is_normalized`` tells it in C)
is looked up as a dict is, with one test of its keys.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from referee.dsl.object_keys import shown
from referee.engine.checks.folding import text_form
from referee.engine.values import EvalError, render


def keys_in_nfc(obj: dict) -> bool:
    """Whether every key of ``obj`` is text in NFC: then no two keys are equal in NFC."""
    try:
        # NUL composes with nothing, so the joined keys are NFC exactly when each is
        joined = "\0".join(obj)
    except TypeError:
        return False
    return joined.isascii() or unicodedata.is_normalized("NFC", joined)


def key_of(obj: dict, key: Any) -> Any:
    """The key of ``obj`` (as written) that ``key`` names, equal to it in NFC; ``None``
    when there is none. An EvalError when two keys equal to it hold different values."""
    if not isinstance(key, str):
        return key if key in obj else None
    if keys_in_nfc(obj) and unicodedata.is_normalized("NFC", key):
        return key if key in obj else None
    wanted = text_form(key)
    found = [k for k in obj if isinstance(k, str) and text_form(k) == wanted]
    if not found:
        return None
    exact = key if key in found else found[0]
    _decided(obj, found)
    return exact


def _decided(obj: dict, found: list) -> None:
    from referee.engine.equality import equal  # equality reads keys through here

    first = found[0]
    for other in found[1:]:
        if not equal(obj[first], obj[other]):
            raise EvalError(two_keys(first, other))


def two_keys(first: str, other: str) -> str:
    """The ERROR of an object holding ``first`` and ``other``, equal in NFC, with different values."""
    return (f"the object has two keys equal in NFC with different values, {_shown(first)} and {_shown(other)}, "
            f"so which one the field {render(text_form(first))} is cannot be decided")


def _shown(key: str) -> str:
    """``key`` as a reader can tell it from its twin: ``"Müller" (in NFC)``, or as the
    rules' ``duplicate-key`` shows one not in NFC, escaped (``"Mu\\u0308ller" (not in NFC)``)."""
    if unicodedata.is_normalized("NFC", key):
        return f"{render(key)} (in NFC)"
    return shown(key)


class Undecided:
    """The value of a key an object holds twice, equal in NFC, with different values."""

    def __init__(self, error: EvalError):
        self.error = error


def in_nfc(obj: dict) -> dict:
    """``obj`` with its keys in NFC (``obj`` itself when they are); the value of a key
    held twice (equal in NFC) with different values is ``Undecided``."""
    if keys_in_nfc(obj):
        return obj
    made: dict = {}
    written: dict = {}
    for key, value in obj.items():
        form = text_form(key) if isinstance(key, str) else key
        if form not in made:
            made[form], written[form] = value, key
        elif not isinstance(made[form], Undecided):
            made[form] = _one_of(made[form], value, written[form], key)
    return made


def _one_of(kept: Any, value: Any, first: str, other: str) -> Any:
    from referee.engine.equality import equal  # equality reads keys through here

    try:
        return kept if equal(kept, value) else Undecided(EvalError(two_keys(first, other)))
    except EvalError as exc:
        return Undecided(exc)
