"""Turn one sentence into a draft check, and evals.json into a rules file.

The first pattern whose ``match`` covers the whole sentence makes the draft; its
captured parts are converted by kind and resolved against what the runs contain
(``facts.RunFacts``). A draft that does not parse is dropped and the next pattern
is tried, so every draft written passes ``referee check``. A sentence no pattern
covers stays a semantic expectation.

Drafting has a budget that counts characters, not seconds: a sentence longer than
``MAX_SENTENCE`` is not matched at all (real ones are under 250 characters), so the
work per sentence is bounded whatever evals.json holds, and the drafts are the same
on any machine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from referee import dsl
from referee.engine.suggest.facts import (Resolved, RunFacts, resolve_field, resolve_file,
                                          resolve_return_field, resolve_tool, tool_with_field)
from referee.engine.suggest.patterns import SURE, Part, Pattern

COUNT_WORDS = {"once": 1, "exactly once": 1, "one": 1, "twice": 2, "two": 2, "three": 3, "four": 4,
               "five": 5, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
               "八": 8, "九": 9, "十": 10}
QUOTES = {'"': '"', "“": "”", "「": "」", "『": "』", "'": "'", "`": "`"}
MAX_SENTENCE = 1000  # characters, once runs of whitespace are one space


@dataclass(frozen=True)
class Draft:
    """The draft for one expectation: ``check`` is None for a semantic one."""

    index: int
    sentence: str
    check: str | None
    pattern: str | None = None
    sure: str | None = None
    notes: tuple[str, ...] = ()


@dataclass
class _Filling:
    facts: RunFacts
    parts: dict[str, Part]
    notes: list[str] = field(default_factory=list)
    lowered: bool = False
    tools: dict[str, list[str]] = field(default_factory=dict)  # group -> actual tool names

    def take(self, resolved: Resolved) -> str:
        if resolved.note:
            self.notes.append(resolved.note)
        self.lowered = self.lowered or resolved.lowers
        return resolved.text


def draft_sentence(index: int, sentence: str, facts: RunFacts, parts: dict[str, Part],
                   patterns: tuple[Pattern, ...]) -> Draft:
    """The draft of the first pattern that covers ``sentence`` and gives a valid check."""
    text = " ".join(sentence.split())
    if len(text) > MAX_SENTENCE:
        return Draft(index, sentence, None, notes=(f"longer than {MAX_SENTENCE:,} characters: not drafted",))
    for pattern in patterns:
        found = pattern.match.fullmatch(text)
        if found is None:
            continue
        filling = _Filling(facts, parts)
        check = _fill(pattern.check, found, filling)
        if check is None or not _parses(check):
            continue
        sure = SURE[min(len(SURE) - 1, SURE.index(pattern.sure) + (1 if filling.lowered else 0))]
        return Draft(index, sentence, check, pattern.id, sure, tuple(filling.notes))
    return Draft(index, sentence, None)


def _fill(template: str, found: Any, filling: _Filling) -> str | None:
    groups = {name: value for name, value in found.groupdict().items() if value is not None}
    if "{tool}" in template and "tool" not in groups:
        owner = tool_with_field(groups.get("field", ""), filling.facts)
        if owner is None:
            template = template.replace("calls to {tool}", "calls")
        else:
            groups["tool"] = owner
    order = sorted(groups, key=lambda name: _kind(name, filling) != "tool")  # tools first: fields need them
    values = {}
    for name in order:
        converted = _convert(name, groups[name], groups, filling)
        if converted is None:
            return None
        values[name] = converted
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError):
        return None


def _kind(name: str, filling: _Filling) -> str:
    part = filling.parts.get(name)
    return part.kind if part else "text"


def _convert(name: str, raw: str, groups: dict[str, str], filling: _Filling) -> str | None:
    kind = _kind(name, filling)
    if kind == "ignore":
        return ""
    if kind == "tool":
        facts = filling.facts
        filling.tools[name] = sorted(t for t in facts.tools if t == raw or t.endswith(raw))
        return filling.take(resolve_tool(raw, facts))
    if kind == "count":
        word = raw.strip().lower()
        number = COUNT_WORDS.get(word, int(word) if word.isdigit() else None)
        return None if number is None else str(number)
    if kind == "field":
        return filling.take(resolve_field(raw, filling.facts, _single(filling.tools.get("tool"))))
    if kind == "return_field":
        return filling.take(resolve_return_field(raw, filling.facts, _single(filling.tools.get("tool"))))
    if kind == "value":
        return _value(raw, groups.get("field"), filling.facts)
    if kind == "file":
        return json.dumps(filling.take(resolve_file(raw, filling.facts)), ensure_ascii=False)
    if kind == "pairs":
        return _pairs(raw, filling)
    return json.dumps(_unquote(raw), ensure_ascii=False)


def _single(names: list[str] | None) -> str | None:
    return names[0] if names and len(names) == 1 else None


def _unquote(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and QUOTES.get(raw[0]) == raw[-1]:
        return raw[1:-1]
    return raw


def _value(raw: str, field_name: str | None, facts: RunFacts) -> str:
    """A quoted value is text; a bare number is a number, unless the runs hold the field as text."""
    text = _unquote(raw)
    if text != raw.strip():
        return json.dumps(text, ensure_ascii=False)
    is_number = text.lstrip("-").replace(".", "", 1).isdigit()
    if is_number and not (field_name and field_name in facts.text_fields):
        return text
    return json.dumps(text, ensure_ascii=False)


def _pairs(raw: str, filling: _Filling) -> str | None:
    import regex

    found = regex.findall(r'([A-Za-z_][A-Za-z0-9_]*) "([^"]*)"', raw)
    if not found:
        return None
    tool = _single(filling.tools.get("tool"))
    obj = {filling.take(resolve_field(name, filling.facts, tool)): value for name, value in found}
    return json.dumps(obj, ensure_ascii=False)


def _parses(check: str) -> bool:
    try:
        dsl.parse_condition(check)
    except dsl.RulesError:
        return False
    return True
