"""Turn Lark's parse failures into diagnostics in the language's own words.

Lark names what it expected by terminal (``RPAR``, ``$END``, ``__ANON_0``); a person
wants "')'", "end of file" or "a value". Everything here maps those names, groups
long lists ("a condition", "a selection") and recognises a few common mistakes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # only a syntax error needs lark (the parser imports it then)
    from lark import Lark, Tree
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    from referee.dsl.lalr import Runtime

from referee.dsl.errors import Diagnostic, did_you_mean, line_col, line_of

SOURCES = ("calls", "notes", "harness", "response", "outputs", "metrics", "timing", "metadata", "file",
           "input")
_NAMED = {
    "$END": "end of file", "NAME": "a name", "STRING": "a string", "NUMBER": "a number",
    "REGEX": "a regex like /.../", "FIELD": "a field like .name", "DOT": "'.'",
    "COMPARE_OP": "a comparison (==, !=, <, <=, >, >=)", "EQUAL": "'='",
}
_GROUPS = (  # (summary, terminals that must all be expected); checked in this order
    ("a condition", {"NOT", "LPAR", "EXISTS", "ANY", "ALL", "NO", "EXACTLY", "SEMANTIC"}),
    ("a value", {"STRING", "NUMBER", "NAME", "LSQB", "LBRACE", "TRUE", "FALSE", "NULL"}),
    ("a selection (calls, notes, harness, response, outputs, metrics, timing, metadata, "
     "file \"...\", input \"...\")", {s.upper() for s in SOURCES}),
    ("a filter (to, with status, at step, where)", {"TO", "WITH", "AT", "WHERE"}),
    ("an operator (==, contains, starts with, matches, includes, is empty, ...)",
     {"COMPARE_OP", "CONTAINS", "STARTS", "ENDS", "MATCHES", "INCLUDES", "IS"}),
)
# Terminals a group makes redundant: once "a value" is said, ".name" need not be.
_IMPLIED = {
    "a condition": {"NOT", "LPAR", "EXISTS", "ANY", "ALL", "NO", "EXACTLY", "SEMANTIC",
                    "IN", "EACH", "STRING", "NUMBER", "NAME", "LSQB", "LBRACE", "TRUE",
                    "FALSE", "NULL", "FIELD", "DOT", "CALLS", "NOTES", "HARNESS", "RESPONSE", "OUTPUTS",
                    "METRICS", "TIMING", "METADATA", "FILE", "INPUT", "ONLY", "REGEX"},
    "a value": {"STRING", "NUMBER", "NAME", "LSQB", "LBRACE", "TRUE", "FALSE", "NULL",
                "FIELD", "DOT", "REGEX"},
    "an operator (==, contains, starts with, matches, includes, is empty, ...)":
        {"COMPARE_OP", "CONTAINS", "STARTS", "ENDS", "MATCHES", "FULLY", "INCLUDES", "IS",
         "BETWEEN", "BEFORE", "IGNORING", "LSQB", "FIELD"},
}
_MAX_LISTED = 6
# Operators, and words other languages use for them, for "did you mean".
_OPERATORS = ("contains", "matches", "includes", "starts", "ends", "between", "before", "in", "is")
# A quantifier and its selection, as the text before an operator written after them
# ends: ``no calls to "Edit"`` of ``no calls to "Edit" before response``.
_QUANTIFIED = re.compile(r"\b(no|any|all|exactly\s+\d+)\s+((?:(?!\b(?:and|or|not|have)\b)[^:()])+?)\s*\Z")


def _after_quantifier(before: str, value: str, kind: str, expected: set[str]):
    """(code, message, hint) for an operator written right after a quantifier's
    selection (``no calls to "Edit" before response``), which takes ``have`` there."""
    found = _QUANTIFIED.search(before)
    if found is None or kind in expected or value not in _OPERATORS + ("==", "!=", "<", "<=", ">", ">="):
        return None
    word, selection = found.group(1), found.group(2)
    if value == "before":
        hint = f"to say none comes before: write `not ({selection} before ...)`"
    else:
        hint = f"write `{word} {selection} have . {value} ...` (`.` is each element)"
    return ("syntax", f"'{value}' cannot follow `{word} {selection}`: a quantifier takes `have <condition>` "
            "for what each element must hold", hint)
_OPERATOR_WORDS = {"equals": "'=='", "equal": "'=='", "eq": "'=='", "ne": "'!='",
                   "startswith": "'starts with'", "endswith": "'ends with'", "like": "'matches'",
                   "has": "'contains' (text) or 'includes' (objects and lists)",
                   "regex": "'matches'", "match": "'matches'", "contain": "'contains'",
                   "include": "'includes'"}
_FILTER_WORDS = ("to", "with", "at", "where")
SOURCES_HINT = ("a selection starts with calls, notes, harness, response, outputs, metrics, timing, "
                "metadata, file \"...\" or input \"...\"")


class Terminals:
    """Human names for the terminals of one compiled grammar."""

    def __init__(self, parser: Lark | Runtime):  # its ``terminals``
        self.names = dict(_NAMED)
        self.keywords: set[str] = set()
        for term in parser.terminals:
            if term.name in self.names:
                continue
            text = getattr(term.pattern, "value", "")
            if term.pattern.type == "str" and text.isidentifier():
                self.keywords.add(text)
                self.names[term.name] = f"'{text}'"
            elif term.pattern.type == "str":
                self.names[term.name] = f"'{text}'"
            else:
                self.names[term.name] = term.name.lower()

    def describe_expected(self, expected: set[str], end_name: str) -> str:
        """``'x', a value or end of file`` for a set of terminal names."""
        left, said = set(expected), []
        for summary, members in _GROUPS:
            if members <= left:
                said.append(summary)
                left -= members | _IMPLIED.get(summary, set())
        listed = sorted(end_name if t == "$END" else self.names.get(t, t.lower())
                        for t in left)
        parts = said + listed
        if len(parts) > _MAX_LISTED:
            parts = parts[:_MAX_LISTED] + ["..."]
        if len(parts) <= 1:
            return "".join(parts)
        return ", ".join(parts[:-1]) + " or " + parts[-1]

    def describe_found(self, token_type: str, value: str, end_name: str) -> str:
        """How the offending token is named in a message."""
        if token_type == "$END":
            return end_name
        short = value if len(value) <= 30 else value[:27] + "..."
        if token_type == "NAME":
            return f"name '{short}'"
        if token_type == "STRING":
            return f"string {short}"
        if token_type == "NUMBER":
            return f"number {short}"
        if token_type == "REGEX":
            return f"regex {short}"
        if token_type == "FIELD":
            return f"field '{short}'"
        if value.isidentifier():
            return f"'{value}'"
        return f"'{short}'"


class Explainer:
    """Builds the diagnostic for one failed parse of a fragment of ``text``.

    ``reparse(src)`` parses an example with the same start rule, for
    ``UnexpectedInput.match_examples``."""

    def __init__(self, terms: Terminals, text: str, path: str, line_offset: int,
                 end_name: str, examples: dict[str, list[str]],
                 reparse: Callable[[str], Tree]):
        self.terms, self.text, self.path = terms, text, path
        self.line_offset, self.end_name = line_offset, end_name
        self.examples, self.reparse = examples, reparse

    def diagnostic(self, exc: UnexpectedInput, fragment: str) -> Diagnostic:
        from lark.exceptions import UnexpectedCharacters, UnexpectedToken

        if isinstance(exc, UnexpectedCharacters):
            return self._characters(exc, fragment)
        if isinstance(exc, UnexpectedToken):
            return self._token(exc, fragment)
        # UnexpectedEOF, the one subclass left.
        return self._make("syntax", "unexpected end of file", *self._end(fragment))

    # ---------------------------------------------------------------- cases

    def _characters(self, exc: UnexpectedCharacters, fragment: str) -> Diagnostic:
        # lark declares pos_in_stream as None; the lexer's error always sets its offset.
        pos: int = exc.pos_in_stream  # type: ignore[assignment]
        char = fragment[pos] if pos < len(fragment) else ""
        where = (exc.line, exc.column, exc.column + 1)
        if char == '"':
            return self._make("bad-string", "unterminated string", *where,
                              hint="a string ends with '\"' on the same line")
        if char == "/":
            return self._make("syntax", "unterminated regex", *where,
                              hint="a regex is written /pattern/flags on one line")
        if char == "'":
            return self._make("syntax", "strings use double quotes, not '", *where,
                              hint="write \"text\"")
        shown = repr(char)[1:-1] if char.isprintable() else f"U+{ord(char):04X}"
        expected = self.terms.describe_expected(set(exc.allowed or ()), self.end_name)
        message = f"unexpected character '{shown}'"
        return self._make("syntax", message + (f": expected {expected}" if expected else ""),
                          *where)

    def _token(self, exc: UnexpectedToken, fragment: str) -> Diagnostic:
        token = exc.token
        expected = set(exc.accepts or exc.expected or ())
        kind = token.type
        if kind == "$END":
            line, column, end = self._end(fragment)
        else:
            line, column = token.line, token.column
            end = column + max(1, len(str(token).split("\n")[0]))
        special = self._not_a_source(fragment, exc, kind, str(token), expected)
        if special is not None:
            return self._make(*special)
        mistake = self._special(exc, kind, str(token), expected, fragment)
        if mistake is not None:
            code, message, hint = mistake
            if message.startswith("'have'") and kind != "HAVE":
                # `any have ...` reads `have` as a name and fails later: point at it.
                line, column, end = self._word_before(fragment, "have", exc, (line, column, end))
            return self._make(code, message, line, column, end, hint)
        found = self.terms.describe_found(kind, str(token), self.end_name)
        wanted = self.terms.describe_expected(expected, self.end_name)
        return self._make("syntax", f"unexpected {found}: expected {wanted}", line, column, end)

    def _special(self, exc: UnexpectedToken, kind: str, value: str, expected: set[str],
                 fragment: str = "") -> tuple[str, str, str | None] | None:
        """(code, message, hint) for mistakes that deserve their own words, else None."""
        source_words = {s.upper() for s in SOURCES}
        if kind == "NAME" and source_words <= expected and "NAME" not in expected:
            return ("unknown-source", f"'{value}' is not a selection",
                    did_you_mean(value, SOURCES) or SOURCES_HINT)
        if kind == "HAVE":
            return ("syntax", "'have' needs a selection before it",
                    "write `any calls have <condition>`")
        quantified = _after_quantifier(fragment[:exc.token.start_pos], value, kind, expected)
        if quantified is not None:
            return quantified
        if value in self.terms.keywords and "NAME" in expected and kind != "NAME" \
                and kind not in expected:
            return ("reserved-word", f"'{value}' is a reserved word and cannot be a name",
                    "choose another name, e.g. '" + value + "_value'")
        if kind in ("AND", "OR") and "RPAR" in expected and "COMMA" in expected \
                and re.search(r"\b(where|have)\b", fragment[:exc.token.start_pos]):
            return ("syntax", f"unexpected '{value}': a 'where' or 'have' takes one condition, "
                    f"which ended before '{value}'",
                    f"parenthesise the whole condition: where (.a == 1 {value} .b == 2)")
        if kind == "EQUAL" and "COMPARE_OP" in expected:
            after = fragment[exc.token.start_pos:exc.token.start_pos + 2]
            if after == "=~":
                return ("syntax", "'=~' is not an operator of this language",
                        "did you mean 'matches'? write `x matches /regex/`")
            return ("syntax", "'=' is not a comparison", "write '==' to compare")
        if kind == "NAME" and "CONTAINS" in expected:
            wanted = _OPERATOR_WORDS.get(value.lower()) or did_you_mean(value, _OPERATORS)
            if wanted:
                wanted = wanted if wanted.startswith("did you") else f"did you mean {wanted}?"
                return ("syntax", f"'{value}' is not an operator", wanted)
        label = exc.match_examples(self.reparse, self.examples, use_accepts=True)
        if label:
            message, _, hint = label.partition("|")
            return ("syntax", message, hint or None)
        return None

    # -------------------------------------------------------------- helpers

    def _not_a_source(self, fragment: str, exc: UnexpectedToken, kind: str, value: str,
                      expected: set[str]) -> tuple[str, str, int, int, int, str] | None:
        """``any call to "x"``: a filter after a word that is no source. The word
        parsed as a name, and the filter is where parsing failed; point at the word."""
        if value not in _FILTER_WORDS or kind in expected:
            return None
        stop = getattr(exc.token, "start_pos", None) or 0
        found = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", fragment[:stop])
        if found is None or found.group(1) in self.terms.keywords:
            return None
        word, pos = found.group(1), found.start(1)
        line, column = line_col(fragment, pos)
        hint = did_you_mean(word, SOURCES) or SOURCES_HINT
        return ("unknown-source", f"'{word}' is not a selection",
                line, column, column + len(word), hint)

    @staticmethod
    def _word_before(fragment: str, word: str, exc: UnexpectedToken,
                     default: tuple[int, int, int]) -> tuple[int, int, int]:
        """(line, column, end) of the last ``word`` before the failing token."""
        stop = getattr(exc.token, "start_pos", None)
        hits = [m.start() for m in re.finditer(rf"\b{word}\b", fragment[:stop])] if stop else []
        if not hits:
            return default
        pos = hits[-1]
        line, column = line_col(fragment, pos)
        return line, column, column + len(word)

    def _end(self, fragment: str) -> tuple[int, int, int]:
        """Where to point when the fragment ended too early: just after its last token."""
        body = strip_comments(fragment).rstrip()
        pos = len(body)
        line, column = line_col(fragment, pos)
        return line, column, column + 1

    def _make(self, code: str, message: str, line: int, column: int, end: int,
              hint: str | None = None) -> Diagnostic:
        line += self.line_offset
        return Diagnostic(code, message, self.path, line, column, end, hint,
                          line_of(self.text, line))


def strip_comments(fragment: str) -> str:
    """The fragment with comments blanked (same length), so they are not 'the end'."""
    out = []
    in_string = False
    i = 0
    while i < len(fragment):
        c = fragment[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < len(fragment):
                out.append(fragment[i + 1])
                i += 1
            elif c in '"\n':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif c == "#":
            while i < len(fragment) and fragment[i] != "\n":
                out.append(" ")
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)
