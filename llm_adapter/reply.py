"""Strict parsing of the grader's reply.

The reply must be one JSON object (a single surrounding code fence is tolerated,
nothing else): JSON is never dug out of prose, because prose is where an echoed
injection would hide a fake verdict. Every asked id must appear exactly once and
no other; each entry must put its reasoning before its verdict. Anything else is
``Malformed`` and the judge asks once more.
"""

from __future__ import annotations

import json
import re
from typing import Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.dsl.json_locate import syntax_error

Source = Literal["tool_calls", "response", "outputs", "agent_notes", "harness"]
FENCE = re.compile(r"\A```[a-zA-Z]*[ \t]*\n(?P<body>.*)\n```\Z", re.DOTALL)


class Malformed(ValueError):
    """The reply cannot be used; the message says why, in a sentence."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Quote(_Strict):
    source: Source
    quote: str = Field(min_length=1)


class AssertionReply(_Strict):
    id: str
    reasoning: str
    evidence: list[Quote] = []
    verdict: Literal["PASS", "FAIL"]


class ClaimReply(_Strict):
    claim: str
    type: Literal["factual", "process", "quality"]
    verified: bool
    evidence: list[Quote] = []


class Suggestion(_Strict):
    assertion: str | None = None
    reason: str


class Feedback(_Strict):
    suggestions: list[Suggestion] = []
    overall: str = ""


class Reply(_Strict):
    assertions: list[AssertionReply]
    claims: list[ClaimReply] = []
    eval_feedback: Feedback = Feedback()


def parse(text: str, ids: Sequence[str]) -> Reply:
    """Parse ``text`` as the reply for ``ids``; raise ``Malformed`` otherwise."""
    raw = load_object(text)
    _check_order(raw)
    try:
        reply = Reply.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise Malformed(f"{where}: {first['msg']}") from None
    got = [a.id for a in reply.assertions]
    if sorted(got) != sorted(ids) or len(set(got)) != len(got):
        raise Malformed(f"expected one entry for each of {', '.join(ids)}, "
                        f"got {', '.join(got) or 'none'}")
    return reply


def load_object(text: str) -> dict:
    """A grader reply's JSON object, read strictly: one code fence allowed, no
    repeated key, no NaN or Infinity, no lone surrogate; ``Malformed`` otherwise.
    Every kind of grader reply (per-run, holistic comparison) is read by it."""
    body = (text or "").strip()
    fenced = FENCE.match(body)
    if fenced:
        body = fenced.group("body").strip()
    if not body:
        raise Malformed("the reply is empty")
    try:
        value = json.loads(body, object_pairs_hook=_no_duplicates,
                           parse_constant=_no_constant)
    except Malformed:
        raise
    except json.JSONDecodeError as raised:
        exc = syntax_error(raised)
        raise Malformed(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise Malformed("not usable JSON (nested too deeply)") from None
    except ValueError:  # Python's own words name no place in the reply
        raise Malformed("not usable JSON (a number too long to read)") from None
    if not isinstance(value, dict):
        raise Malformed("the reply is JSON but not an object")
    surrogate = _lone_surrogate(value)
    if surrogate is not None:
        raise Malformed(f"a string of the reply holds a lone surrogate ({surrogate}), which is no text")
    return value


def _lone_surrogate(value: object) -> str | None:
    """The first lone surrogate in a key or string of ``value``, escaped; None if none."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack += list(item.keys()) + list(item.values())
        elif isinstance(item, list):
            stack += item
        elif isinstance(item, str) and not item.isascii():
            found = next((ch for ch in item if "\ud800" <= ch <= "\udfff"), None)
            if found is not None:
                return ascii(found)[1:-1]
    return None


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    # A repeated key would let a second, injected "verdict" silently win.
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        repeated: set[str] = set()
        for k, _ in pairs:
            (repeated if k in seen else seen).add(k)
        raise Malformed(f"repeated key {min(repeated)!r}")
    return value


def _no_constant(name: str) -> object:
    raise Malformed(f"{name} is not JSON")


def _check_order(raw: dict) -> None:
    """The verdict must come after the reasoning, so it is decided by the reasoning."""
    entries = raw.get("assertions")
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and "reasoning" in entry and "verdict" in entry:
            keys = list(entry)
            if keys.index("verdict") < keys.index("reasoning"):
                raise Malformed(f"entry {entry.get('id')!r} gives its verdict before its reasoning")
