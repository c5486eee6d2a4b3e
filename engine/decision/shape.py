"""Whether a report referee wrote (grading.json, benchmark.json) still has the shape its
readers need, and if not, which field is wrong.

A report edited by hand or by another tool may hold ``null`` or a list where referee
wrote an object. Its readers name the field and what stands there, so the user knows
what to look at: a Python exception's words ("'NoneType' object is not iterable")
name nothing in the file.

A shape is a type (or a tuple of types), ``{field: shape}`` for an object (a field
whose name ends in ``?`` may be absent), or ``[shape]`` for a list of such items.
"""

from __future__ import annotations

import json
from typing import Any

from referee.engine.caps import cut
from referee.engine.text import plain

NAME = (str, int)  # an eval id or an assertion key: skill-creator's ids are numbers
OPTIONAL_OBJECT = (dict, type(None))

GRADING_SHAPE = {
    "expectations": [{"key": str, "text": str, "outcome": str, "precision": str, "passed": bool, "gated": bool}],
    "summary": dict,
    "gate": {"counted": list},
    "grader": dict,
}

# What ``referee merge`` reads of each run's report besides: the eval whose critique it
# gives the run, the configuration it counts the gate in, the digest of its files; and
# the claims, without which the report it writes again cannot be written.
MERGED_SHAPE = {**GRADING_SHAPE, "eval_feedback": object, "claims": list,
                "run": {"rules_eval": str, "configuration": str, "files_digest?": (str, type(None))}}

BENCHMARK_SHAPE = {
    "metadata": {"grader?": OPTIONAL_OBJECT},
    "runs": [{"eval_id": NAME, "configuration": str,
              # each count is compared with the one its expectations give (compare.regress)
              "result": {"passed": object, "failed": object, "total": object, "gate_errors": object},
              "expectations": [{"key": NAME, "text": str, "outcome": str, "passed": bool, "counted": bool}]}],
    "unusable_runs?": [{"path": str, "reason": str, "eval_id": NAME, "configuration": str}],
}


def shape_problem(document: Any, shape: Any = None) -> str | None:
    """What in ``document`` is not where or what referee writes it (by default the
    shape of a grading.json), or None."""
    return _first_wrong(document, GRADING_SHAPE if shape is None else shape, "")


def _first_wrong(value: Any, shape: Any, where: str) -> str | None:
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return _wrong(where, value, "an object")
        for name, inner in shape.items():
            field = name.rstrip("?")
            place = f"{where}.{field}" if where else field
            if field not in value:
                if name.endswith("?"):
                    continue
                return f"its {place} is missing"
            found = _first_wrong(value[field], inner, place)
            if found is not None:
                return found
        return None
    if isinstance(shape, list):
        if not isinstance(value, list):
            return _wrong(where, value, "a list")
        for index, item in enumerate(value):
            found = _first_wrong(item, shape[0], f"{where}[{index}]")
            if found is not None:
                return found
        return None
    kinds = shape if isinstance(shape, tuple) else (shape,)
    # true and false are no numbers here, though Python counts them as ints
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        return _wrong(where, value, _words(kinds))
    return None


_WORDS = {str: "a string", int: "a whole number", bool: "true or false", dict: "an object",
          list: "a list", type(None): "null"}


def _words(kinds: tuple) -> str:
    return " or ".join(_WORDS.get(kind, kind.__name__) for kind in kinds)


def _wrong(where: str, value: Any, wanted: str) -> str:
    shown = cut(json.dumps(plain(value), ensure_ascii=False), 40)
    return f"its {where or 'content'} is {shown}, not {wanted}"
