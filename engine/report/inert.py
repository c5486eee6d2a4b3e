"""Text for a terminal that cannot act on it: control characters are shown, not sent.

Tool names, file names, quotes and paths come from the run, and the agent wrote
them. Sent raw, an escape sequence in one could move the cursor, rewrite earlier
lines (a FAIL repainted as PASS), set the window title or hide text; a bidi
override could make text read backwards. ``inert`` writes each such character
as an escape (``\\x1b``, ``\\r``, ``\\u202e``); line breaks and tabs are kept.
Colour is added by referee after the text is made inert, so its own codes pass.
"""

from __future__ import annotations

import re
from typing import Any

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match) -> str:
    code = ord(match.group())
    if code == 0x0D:
        return "\\r"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str) -> str:
    """``text`` with every control character (but line break and tab) written as an escape."""
    return _UNSAFE.sub(_escaped, text)


def inert_data(value: Any) -> Any:
    """A copy of JSON-like ``value`` with every string (keys too) made ``inert``."""
    if isinstance(value, str):
        return inert(value)
    if isinstance(value, dict):
        return {inert_data(k): inert_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(inert_data(v) for v in value)
    return value
