"""What a captured piece of a sentence becomes in a check, by the kind of its part.

Every conversion returns the text to put in the check, or None when the piece
cannot be said in the language (an unknown count word, a word the part has no
meaning for): the pattern is then not used for this sentence.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import regex

from referee.engine.suggest.facts import (Resolved, RunFacts, has_heading, resolve_field, resolve_file,
                                          resolve_heading, resolve_input, resolve_return_field,
                                          resolve_tool)
from referee.engine.suggest.patterns import Part
from referee.engine.text import ascii_digits

COUNT_WORDS = {"once": 1, "exactly once": 1, "one": 1, "twice": 2, "two": 2, "three": 3, "four": 4,
               "five": 5, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
               "八": 8, "九": 9, "十": 10}
QUOTES = {'"': '"', "“": "”", "「": "」", "『": "』", "'": "'", "`": "`"}
# Kinds that read the captured text with its quotes (the others have them dropped first).
RAW_KINDS = ("value", "pairs", "json_pair", "count", "number", "ignore", "verbatim")
_REGEX_SPECIAL = regex.compile(r"([\\.^$*+?{}\[\]|()/])")
_JSON_PAIR = regex.compile(r'\s*"?([^":]+?)"?\s*:\s*(.+?)\s*')
_JSON_WORD = regex.compile(r"-?\d+(?:\.\d+)?|true|false|null")
# A number as a sentence writes it: digits grouped by threes with commas, a decimal point.
_NUMBER = regex.compile(r"(-?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")


class Filling:
    """What the drafting of one sentence has gathered: the runs' facts, the tools the
    sentence names (fields are resolved against them), notes, and whether a name had
    to be guessed (which makes the draft less sure)."""

    def __init__(self, facts: RunFacts):
        self.facts = facts
        self.notes: list[str] = []
        self.lowered = False
        self.tools: dict[str, list[str]] = {}  # group -> the runs' tool names it may be
        self.confirmed: set[str] = set()  # groups whose names the runs were seen to have

    def take(self, resolved: Resolved) -> str:
        if resolved.note:
            self.notes.append(resolved.note)
        self.lowered = self.lowered or resolved.lowers
        return resolved.text

    def tool(self) -> str | None:
        names = self.tools.get("tool")
        return names[0] if names and len(names) == 1 else None


def convert(part: Part, name: str, raw: str, groups: dict[str, str], filling: Filling) -> str | None:
    """The check text for ``raw``, captured by ``part`` under the group ``name``."""
    text = raw if part.kind in RAW_KINDS else unquote(raw)
    if part.words:
        meaning = part.words.get(text.lower())
        if meaning is None:
            return None
        text = meaning
    if part.form:
        text = part.form.replace("{}", text)
    return _KINDS[part.kind](name, text, groups, filling)


def unquote(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and QUOTES.get(raw[0]) == raw[-1]:
        return raw[1:-1]
    return raw


def _tool(name: str, text: str, groups: dict, filling: Filling) -> str:
    filling.tools[name] = sorted(t for t in filling.facts.tools if t == text or t.endswith(text))
    resolved = resolve_tool(text, filling.facts)
    if filling.tools[name] and not resolved.lowers:
        filling.confirmed.add(name)
    return filling.take(resolved)


def _field(name: str, text: str, groups: dict, filling: Filling) -> str:
    resolved = resolve_field(text, filling.facts, filling.tool())
    if filling.facts.known and not resolved.lowers and resolved.text in filling.facts.all_fields():
        filling.confirmed.add(name)
    return filling.take(resolved)


def _count(name: str, text: str, groups: dict, filling: Filling) -> str | None:
    word = text.strip().lower()
    number = COUNT_WORDS.get(word, int(word) if ascii_digits(word, most=9) else None)
    return None if number is None else str(number)


def _number(name: str, text: str, groups: dict, filling: Filling) -> str | None:
    """``12,000`` as the number literal ``12000``; anything else is no number."""
    found = _NUMBER.fullmatch(text.strip())
    if found is None:
        return None
    return found.group(1) + found.group(2).replace(",", "") + (found.group(3) or "")


def _heading(name: str, text: str, groups: dict, filling: Filling) -> str:
    """A section's title; confirmed when a response of the runs has a heading so titled."""
    if has_heading(text, filling.facts):
        filling.confirmed.add(name)
    return json.dumps(filling.take(resolve_heading(text, filling.facts)), ensure_ascii=False)


def _input(name: str, text: str, groups: dict, filling: Filling) -> str | None:
    """One of the eval's input files, as ``input "..."`` names it; None when the eval
    lists no such file (a check naming it would not pass ``referee check``)."""
    found = resolve_input(text, filling.facts)
    return None if found is None else json.dumps(found, ensure_ascii=False)


def _value(name: str, raw: str, groups: dict, filling: Filling) -> str:
    """A quoted value is text; a bare number is a number, unless the runs hold the field as text."""
    text = unquote(raw)
    if text != raw.strip():
        return json.dumps(text, ensure_ascii=False)
    field_name = groups.get("field")
    is_number = ascii_digits(text.lstrip("-").replace(".", "", 1))
    if is_number and not (field_name and field_name in filling.facts.text_fields):
        return text
    return json.dumps(text, ensure_ascii=False)


def _pairs(name: str, raw: str, groups: dict, filling: Filling) -> str | None:
    found = regex.findall(r'([A-Za-z_][A-Za-z0-9_]*) "([^"]*)"', raw)
    if not found:
        return None
    tool = filling.tool()
    obj = {filling.take(resolve_field(key, filling.facts, tool)): value for key, value in found}
    return json.dumps(obj, ensure_ascii=False)


def regex_text(text: str) -> str:
    """``text`` matched literally, written to go between the slashes of ``/.../``."""
    return _REGEX_SPECIAL.sub(r"\\\1", text)


def _json_pair(name: str, raw: str, groups: dict, filling: Filling) -> str | None:
    """``Key: value`` as a regex for that member of a JSON text: ``"Key"\\s*:\\s*value``."""
    found = _JSON_PAIR.fullmatch(raw)
    if found is None:
        return None
    key, value = found.group(1), found.group(2)
    if _JSON_WORD.fullmatch(value):
        said = regex_text(value) + r"\b"
    else:
        said = '"' + regex_text(unquote(value)) + '"'
    return '"' + regex_text(key) + r'"\s*:\s*' + said


_KINDS: dict[str, Callable[[str, str, dict, Filling], Any]] = {
    "ignore": lambda name, text, groups, filling: "",
    "tool": _tool,
    "count": _count,
    "field": _field,
    "return_field": lambda name, text, groups, filling: filling.take(
        resolve_return_field(text, filling.facts, filling.tool())),
    "value": _value,
    "file": lambda name, text, groups, filling: json.dumps(
        filling.take(resolve_file(text, filling.facts)), ensure_ascii=False),
    "pairs": _pairs,
    "text": lambda name, text, groups, filling: json.dumps(text, ensure_ascii=False),
    "regex": lambda name, text, groups, filling: regex_text(text),
    "json_pair": _json_pair,
    "number": _number,
    "verbatim": lambda name, text, groups, filling: text,
    "heading": _heading,
    "input": _input,
}
