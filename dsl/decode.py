"""Decoding of the tokens whose text needs checking: strings (JSON escapes), numbers
(JSON syntax, int or Decimal) and regex literals (slashes and flags).

A mix-in of the transformer: problems are recorded through ``self.at.error`` and a
harmless value is returned, so one pass reports every bad token of a statement.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import TYPE_CHECKING

from referee.dsl import ast

if TYPE_CHECKING:
    from lark import Token  # or dsl.lalr's, which is alike

    from referee.dsl.located import Located

_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_SURROGATE = re.compile("[\ud800-\udfff]")
FLAG_ORDER = "imsx"


class Decoding:
    """Token decoders; the class using it provides ``self.at`` (a ``Located``)."""

    at: Located

    def decode_string(self, token: Token) -> str:
        """A STRING token's value with JSON's escape rules; '' after reporting if bad."""
        try:
            value = json.loads(str(token))
        except json.JSONDecodeError as exc:
            self._string_error(token, exc)
            return ""
        bad = _SURROGATE.search(value)
        if bad:
            self.at.error("bad-string", "a \\u escape names half of a surrogate pair; "
                          "write the whole character", token)
            return ""
        return value

    def _string_error(self, token: Token, exc: json.JSONDecodeError) -> None:
        text = str(token)
        # The lexer gives every token its position; only a hand-made Token lacks one.
        assert token.line is not None and token.column is not None
        column = token.column + exc.pos
        where = ast.Span(token.line + self.at.line_offset, column,
                         token.line + self.at.line_offset, column + 2)
        if exc.msg.startswith("Invalid control character"):
            self.at.error("bad-string", "a control character (such as a tab) inside a "
                          "string; write it as an escape like \\t", where)
        elif "escape" in exc.msg:
            escape = text[exc.pos:exc.pos + 2]
            self.at.error("bad-string", f"invalid escape '{escape}' in a string", where,
                          "JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u and four hex digits (\\u00e9)")
        else:
            self.at.error("bad-string", f"invalid string: {exc.msg.lower()}", token)

    def decode_number(self, token: Token) -> int | Decimal:
        """A NUMBER token as int (no fraction or exponent) or Decimal; 0 if bad."""
        text = str(token)
        if not _JSON_NUMBER.fullmatch(text):
            self.at.error("bad-number", f"'{text}' is not a number", token,
                          "numbers are written as in JSON: 12, -3.5, 1e3 (no leading "
                          "zeros, digits after a '.')")
            return 0
        if any(c in text for c in ".eE"):
            return Decimal(text)
        try:
            return int(text)
        except ValueError:  # more digits than Python converts (4300 by default)
            self.at.error("bad-number", f"a whole number of {len(text.lstrip('-'))} digits, more than can be read",
                          token)
            return 0

    def whole_number(self, token: Token, what: str) -> int | None:
        """A NUMBER token that must be a whole number (an index, a step, a count);
        None after reporting when it is not."""
        if not _JSON_NUMBER.fullmatch(str(token)):
            self.decode_number(token)
            return None
        value = self.decode_number(token)
        if isinstance(value, Decimal):
            self.at.error("bad-number", f"{what} is a whole number, not '{token}'", token)
            return None
        return value

    def decode_regex(self, token: Token) -> tuple[str, str]:
        """``/pattern/flags`` → (pattern with ``\\/`` unescaped, flags in imsx order)."""
        text = str(token)
        end = text.rfind("/")
        pattern, flags = unescape_slashes(text[1:end]), text[end + 1:]
        bad = sorted(set(flags) - set(FLAG_ORDER))
        if bad:
            self.at.error("bad-flag", f"unknown regex flag '{bad[0]}'", token,
                          "flags are i (ignore case), m (multi-line), s (dot matches "
                          "newline), x (verbose)")
        return pattern, "".join(f for f in FLAG_ORDER if f in flags)



def unescape_slashes(pattern: str) -> str:
    """Drop the backslash of ``\\/`` only; every other escape is the regex's own."""
    out, i = [], 0
    while i < len(pattern):
        if pattern[i] == "\\" and i + 1 < len(pattern):
            pair = pattern[i:i + 2]
            out.append("/" if pair == "\\/" else pair)
            i += 2
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)
