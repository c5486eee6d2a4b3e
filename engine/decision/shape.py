"""Whether a grading.json has the shape aggregation reads, and if not, which field is wrong.

A grading.json edited by hand or by another tool may hold ``null`` or a list where
referee wrote an object. Aggregation names the field and what stands there, so the
user knows what to look at: a Python exception's words ("'NoneType' object is not
iterable") name nothing in the file.
"""

from __future__ import annotations

import json
from typing import Any

from referee.engine.caps import cut
from referee.engine.text import plain

# The fields of each expectation that aggregation reads, and the JSON type each must have.
_EXPECTATION = {"key": str, "text": str, "outcome": str, "precision": str, "passed": bool, "gated": bool}


def shape_problem(document: dict) -> str | None:
    """What in ``document`` is not where or what referee writes it, or None."""
    for name, kind in (("expectations", list), ("summary", dict), ("gate", dict), ("grader", dict)):
        if not isinstance(document.get(name), kind):
            return _wrong(name, document.get(name), "a list" if kind is list else "an object", name in document)
    if not isinstance(document["gate"].get("counted"), list):
        return _wrong("gate.counted", document["gate"].get("counted"), "a list", "counted" in document["gate"])
    for index, item in enumerate(document["expectations"]):
        where = f"expectations[{index}]"
        if not isinstance(item, dict):
            return _wrong(where, item, "an object", True)
        for field, kind in _EXPECTATION.items():
            if not isinstance(item.get(field), kind):
                wanted = "true or false" if kind is bool else "a string"
                return _wrong(f"{where}.{field}", item.get(field), wanted, field in item)
    return None


def _wrong(name: str, value: Any, wanted: str, present: bool) -> str:
    if not present:
        return f"its {name} is missing"
    shown = cut(json.dumps(plain(value), ensure_ascii=False), 40)
    return f"its {name} is {shown}, not {wanted}"
