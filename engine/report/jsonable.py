"""Make report values safe inside a <script> element, and dump reports byte-stably."""

from __future__ import annotations

import json
import re
from typing import Any


_SCRIPT_BREAKERS = re.compile(r"<(/script|!--)", re.IGNORECASE)


def neutralise_script_end(value: Any) -> Any:
    """Write ``</script`` as ``<\\/script`` (and ``<!--`` as ``<\\!--``) in every string,
    keys included.

    skill-creator's viewer pastes grading.json into a ``<script>`` element with
    ``json.dumps``, which leaves ``</script>`` as is and ends the element early.
    Quoted evidence can hold any text, and keys can be a run's tool names or
    metrics, so every string is made safe here; the backslash form reads the same
    to a person, survives being read and dumped again, and nothing else is touched.
    """
    if isinstance(value, str):
        return _SCRIPT_BREAKERS.sub(lambda m: "<\\" + m.group(1), value) if "<" in value else value
    if isinstance(value, dict):
        return {neutralise_script_end(key): neutralise_script_end(item) for key, item in value.items()}
    if isinstance(value, list):
        return [neutralise_script_end(item) for item in value]
    return value


def dumps(document: dict) -> str:
    """The on-disk form: key order as given, UTF-8 text, 2-space indent, final newline."""
    return json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
