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

grading.json is rendered in two halves around ``eval_feedback``, because that
block needs every run of an eval: worker processes render each run with the
slot empty (``split_at_feedback``); the main process renders each eval's block
once and joins the halves (``join_feedback``), with no re-rendering per run.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Sequence

from pydantic_core import to_json

# pydantic-core's first to_json imports uuid (to know UUIDs when it sees one); a
# Ctrl-C during that import panics the serializer, which prints a Rust traceback
# instead of referee's message. Loaded here, nothing is imported while it runs.
import uuid  # noqa: F401,E402

from referee.engine.report.jsonable import dumps, neutralise_script_end

# The parts of a report whose contents come from outside referee's own code.
FREE_PARTS = ("execution_metrics", "timing", "grader")
_SCRIPT_BREAKERS = re.compile(r"<(/script|!--)", re.IGNORECASE)
# Every raw newline of a rendered document is layout (strings escape theirs), so
# this line can only be the top-level key, whatever the strings hold.
_FEEDBACK_LINE = '\n  "eval_feedback": '
_EMPTY_SLOT = _FEEDBACK_LINE + "null"


def _member_line(key: str) -> str:
    """How a top-level member of a rendered document starts (see ``_FEEDBACK_LINE``)."""
    return f'\n  "{key}": '


def render(document: Any) -> str:
    """The exact text of a report file (a dict, or a model of ``engine.report.models``)."""
    if hasattr(document, "model_dump"):
        document = document.model_dump(mode="json")
    fast = _rust_text(document, [document.get(part) for part in FREE_PARTS])
    if fast is None:
        return dumps(neutralise_script_end(document))
    return neutralise_text(fast) + "\n"


def json_text(document: Any) -> str:
    """``json.dumps(document, ensure_ascii=False, indent=2)``, for the ``--json``
    summary: every part is checked (it is small), and there is no ``</script`` rewrite."""
    fast = _rust_text(document, [document], keys_with_lt=True)
    return fast if fast is not None else json.dumps(document, ensure_ascii=False, indent=2)


def neutralise_text(text: str) -> str:
    """``neutralise_script_end`` done on rendered JSON, with the same result.

    ``<``, ``/``, ``!``, ``-`` and letters are never escaped by either encoder, so a
    ``</script`` or ``<!--`` in a string is the same characters in the text and
    nothing else in the text can form one; the inserted backslash is written
    escaped, as the encoder would write it. Dict keys are the exception (the
    reference leaves them alone): ``_renders_alike`` sends keys with ``<`` to the
    reference path.
    """
    if "<" not in text:
        return text
    return _SCRIPT_BREAKERS.sub(lambda match: "<\\\\" + match.group(1), text)


def split_at_feedback(text: str) -> tuple[str, str]:
    """A grading.json rendered with ``eval_feedback: null``, cut around that null."""
    head, found, tail = text.partition(_EMPTY_SLOT)
    if not found:
        raise ValueError("the document has no empty eval_feedback slot")
    return head + _FEEDBACK_LINE, tail


def feedback_text(feedback: dict) -> str:
    """An eval_feedback block as it stands inside grading.json: one level indented."""
    # '{\n  "eval_feedback": <value>\n}\n': the value, already at the right depth.
    return member_text(render({"eval_feedback": feedback}), "eval_feedback")


def member_text(text: str, key: str) -> str:
    """The text of top-level member ``key``'s value in a rendered document (indent 2),
    as it stands there: one level indented, without the comma after it."""
    return around_member(text, key)[1]


def around_member(text: str, key: str) -> tuple[str, str, str]:
    """A rendered document (indent 2, or the start of one) cut around the value of
    its top-level member ``key`` (``member_text``): what stands before the value,
    the value, and what follows it, the comma after it included."""
    line = _member_line(key)
    start = text.index(line) + len(line)
    end = text.find('\n  "', start)
    end = text.rindex("\n}") if end < 0 else end - 1  # the last member: it ends where the object does
    return text[:start], text[start:end], text[end:]


def around_nulls(text: str, keys: Sequence[str]) -> list[str]:
    """A rendered document whose top-level ``keys`` are null (in that order), cut
    around each null: ``len(keys) + 1`` pieces, each member's line ending the piece
    before its null, so that the pieces joined with the members' values (texts one
    level indented, as ``member_text`` gives them) have each value in its place."""
    pieces = []
    for key in keys:
        before, text = text.split(_member_line(key) + "null", 1)
        pieces.append(before + _member_line(key))
    return pieces + [text]


def join_feedback(head: str, block: str, tail: str) -> str:
    """The halves of ``split_at_feedback`` around a ``feedback_text`` block."""
    return head + block + tail


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
