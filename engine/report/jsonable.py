"""Turn values read from a run into plain JSON values, and dump reports byte-stably."""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any


def plain(value: Any) -> Any:
    """A copy of ``value`` holding only JSON types.

    Loaders parse JSON floats as ``Decimal`` (exact comparisons); a report writes
    them back as floats, which round-trip the same digits for ordinary values.
    Non-finite numbers and other objects become their text, so a report never
    holds something ``json.dumps`` would reject or write as ``NaN``.
    """
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, Decimal):
        number = float(value)
        return number if math.isfinite(number) else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return str(value)


_SCRIPT_BREAKERS = re.compile(r"<(/script|!--)", re.IGNORECASE)


def neutralise_script_end(value: Any) -> Any:
    """Write ``</script`` as ``<\\/script`` (and ``<!--`` as ``<\\!--``) in every string.

    skill-creator's viewer pastes grading.json into a ``<script>`` element with
    ``json.dumps``, which leaves ``</script>`` as is and ends the element early.
    Quoted evidence can hold any text, so every string is made safe here; the
    backslash form reads the same to a person, and nothing else is touched.
    """
    if isinstance(value, str):
        return _SCRIPT_BREAKERS.sub(lambda m: "<\\" + m.group(1), value) if "<" in value else value
    if isinstance(value, dict):
        return {key: neutralise_script_end(item) for key, item in value.items()}
    if isinstance(value, list):
        return [neutralise_script_end(item) for item in value]
    return value


def dumps(document: dict) -> str:
    """The on-disk form: key order as given, UTF-8 text, 2-space indent, final newline."""
    return json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
