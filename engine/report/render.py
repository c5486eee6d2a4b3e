"""The bytes of the report files, rendered fast and exactly as ``jsonable`` defines them.

``jsonable.dumps(neutralise_script_end(document))`` is the reference: the
standard library's encoder, which is pure Python once ``indent`` is given (about
1 ms per report). pydantic-core's Rust encoder writes the same text for every
string (each code point was compared), int, bool, null and for the indent=2
layout; it differs only on floats below 1e-4 (``1e-05`` against ``0.00001``) and
on non-finite floats, and the ``</script`` rewrite can then run over the text
(see ``neutralise_text``). So the Rust encoder is used when the parts of a
document that referee does not build itself (``execution_metrics``, ``timing``,
``grader``: copied from the run's files or the LLM grader's figures) hold no
such float, no other type and no key with ``<``; otherwise, and on any encoder
error, the reference path runs and its result or error is the answer.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Any

from pydantic_core import to_json

if TYPE_CHECKING:
    from pydantic import BaseModel

# pydantic-core's first to_json imports what it needs to know types it may meet
# (uuid; on Python 3.13 also pathlib, ipaddress and more); a Ctrl-C during such an
# import panics the serializer, which prints a Rust traceback instead of referee's
# message. One call here, at import, loads them all, so nothing is imported while
# a report is rendered (tests/adversarial/test_interrupt_render.py).
to_json({"warm": [1, 1.5, "text", True, None]})

from referee.engine.report.atomic import encode
from referee.engine.report.jsonable import dumps, neutralise_script_end

# The parts of a report whose contents come from outside referee's own code.
FREE_PARTS = ("execution_metrics", "timing", "grader")
_SCRIPT_BREAKERS = re.compile(r"<(/script|!--)", re.IGNORECASE)


def render(document: dict[str, Any] | BaseModel) -> str:
    """The exact text of a report file (a dict, or a model of ``engine.report.models``)."""
    data = document.model_dump(mode="json") if hasattr(document, "model_dump") else document
    fast = _rust_text(data, [data.get(part) for part in FREE_PARTS])
    if fast is None:
        return dumps(neutralise_script_end(data))
    return neutralise_text(fast) + "\n"


def json_text(document: Any) -> str:
    """``json.dumps(document, ensure_ascii=False, indent=2)``, for the ``--json``
    summary: every part is checked (it is small), and there is no ``</script`` rewrite."""
    fast = _rust_text(document, [document], keys_with_lt=True)
    return fast if fast is not None else json.dumps(document, ensure_ascii=False, indent=2)


def own_json(data: Any) -> bytes:
    """``json_text(data)`` as UTF-8 (``atomic.encode``), for data that holds none of
    ``FREE_PARTS`` (a run's ``--json`` entry, ``RunReport.json_entry``): built by
    referee alone, its keys are str and its floats ``rate()`` figures, which both
    encoders write alike (``render`` relies on the same), so it is not walked: the
    walk cost as much as the encoding. A lone surrogate, or a value that is no
    JSON, takes the reference path."""
    try:
        return to_json(data, indent=2)
    except ValueError:
        return encode(json.dumps(data, ensure_ascii=False, indent=2))


def neutralise_text(text: str) -> str:
    """``neutralise_script_end`` done on rendered JSON, with the same result.

    ``<``, ``/``, ``!``, ``-`` and letters are never escaped by either encoder, so a
    ``</script`` or ``<!--`` in a string is the same characters in the text and
    nothing else in the text can form one; the inserted backslash is written
    escaped, as the encoder would write it. A document with a key holding ``<``
    takes the reference path (``_renders_alike``): two keys that read the same once
    rewritten are one key there, as in any dict.
    """
    if "<" not in text:
        return text
    return _SCRIPT_BREAKERS.sub(lambda match: "<\\\\" + match.group(1), text)


def _rust_text(document: Any, free: list[Any], keys_with_lt: bool = False) -> str | None:
    if not all(_renders_alike(part, keys_with_lt) for part in free):
        return None
    try:
        return to_json(document, indent=2).decode("utf-8")
    except ValueError:  # a lone surrogate: the reference path decides what happens
        return None


def _renders_alike(value: Any, keys_with_lt: bool = False) -> bool:
    """True when both encoders write ``value`` the same (and, unless
    ``keys_with_lt``, no key holds ``<``, for ``neutralise_text``).

    A loop over a stack rather than a call per value: every ``--json`` entry and
    every report's free parts go through here, a few dozen values each."""
    pending = [value]
    while pending:
        value = pending.pop()
        kind = type(value)
        if kind is str or kind is int or kind is bool or value is None:
            continue
        if kind is dict:
            for key in value:
                if type(key) is not str or (not keys_with_lt and "<" in key):
                    return False
            pending.extend(value.values())
        elif kind is list:
            pending.extend(value)
        elif kind is not float or not (math.isfinite(value) and to_json(value).decode() == repr(value)):
            return False
    return True
