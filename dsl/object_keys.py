"""Keys an object literal of the rules holds twice: written alike, or equal in NFC.

Keys are compared in NFC when checks run (``engine.checks.keys``), so
``{"Müller": 1, "Mu\\u0308ller": 2}`` names one key twice as surely as
``{"a": 1, "a": 2}`` does: a check comparing with such an object would be an ERROR,
or be judged on one of its values. Both are refused when the rules are read (``duplicate-key``).
"""

from __future__ import annotations

import json
import unicodedata
from typing import Iterator

ONCE = "write each key once"


def repeated_keys(keys: list[str]) -> Iterator[tuple[int, str, str]]:
    """``(index, message, hint)`` for each key equal in NFC to a key before it in ``keys``."""
    first: dict[str, str] = {}
    for index, key in enumerate(keys):
        form = unicodedata.normalize("NFC", key)
        if form not in first:
            first[form] = key
        elif first[form] == key:
            yield index, f"key {shown(key)} appears twice in this object", ONCE
        else:
            message = (f"key {shown(key)} appears twice in this object: {shown(first[form])}, "
                       "before it, is the same key in NFC")
            yield index, message, f"{ONCE}: keys are compared in NFC, where both spellings are one key"


def shown(key: str) -> str:
    """``key`` as the rules write it; one not in NFC with its letters beyond ASCII
    escaped (``"Mu\\u0308ller"``), so it can be told from its twin."""
    if unicodedata.is_normalized("NFC", key):
        return json.dumps(key, ensure_ascii=False)
    return json.dumps(key) + " (not in NFC)"
