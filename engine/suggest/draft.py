"""Turn one sentence into a draft check.

The first pattern whose ``match`` covers the whole sentence makes the draft; its
captured parts are converted by kind (``convert``) and resolved against what the
runs contain (``facts.RunFacts``). A pattern with a list part writes its ``each``
check once per item and joins them. A draft that does not parse is dropped and the
next pattern is tried, so every draft written passes ``referee check``. A sentence
no pattern covers stays a semantic expectation.

Drafting has a budget that counts characters, not seconds: a sentence longer than
``MAX_SENTENCE`` is not matched at all (real ones are under 250 characters), so the
work per sentence is bounded whatever evals.json holds, and the drafts are the same
on any machine.
"""

from __future__ import annotations

import json
from typing import Any

from referee import dsl
from referee.dsl.frozen import frozen
from referee.engine.suggest.convert import Filling, convert
from referee.engine.suggest.facts import RunFacts, tool_with_field
from referee.engine.suggest.patterns import SURE, Part, Pattern, part_of, split

MAX_SENTENCE = 1000  # characters, once runs of whitespace are one space


@frozen
class Draft:
    """The draft for one expectation: ``check`` is None for a semantic one."""

    index: int
    sentence: str
    check: str | None
    pattern: str | None = None
    sure: str | None = None
    notes: tuple[str, ...] = ()


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
        filling = Filling(facts)
        check = _fill(pattern, found, parts, filling)
        if check is None or not _parses(check):
            continue
        sure = SURE[min(len(SURE) - 1, SURE.index(pattern.sure) + (1 if filling.lowered else 0))]
        notes = ((pattern.note,) if pattern.note else ()) + tuple(filling.notes)
        return Draft(index, sentence, check, pattern.id, sure, notes)
    return Draft(index, sentence, None)


def _fill(pattern: Pattern, found: Any, parts: dict[str, Part], filling: Filling) -> str | None:
    captured = {name: value for name, value in found.groupdict().items() if value is not None}
    groups = pattern.defaults | captured
    template = pattern.check
    if "{tool}" in template and "tool" not in groups:
        owner = tool_with_field(groups.get("field", ""), filling.facts)
        if owner is None:
            template = template.replace("calls to {tool}", "calls")
        else:
            groups["tool"] = owner
    lists = {name: part for name in groups if (part := part_of(name, parts)) and part.kind == "list"}
    values = {}
    for name in sorted(set(groups) - set(lists), key=lambda n: _kind(n, parts) != "tool"):  # tools first
        converted = convert(part_of(name, parts) or _TEXT, name, groups[name], groups, filling)
        if converted is None:
            return None
        values[name] = converted
    for name, part in lists.items():
        joined = _each(pattern, name, part, groups, values, filling)
        if joined is None:
            return None
        values[name] = joined
    if any(name not in filling.confirmed for name in pattern.known):
        return None  # the pattern guesses too much unless the runs show the name
    values.setdefault("sentence", json.dumps(found.string, ensure_ascii=False))
    return _format(template, values)


def _each(pattern: Pattern, name: str, part: Part, groups: dict[str, str], values: dict[str, str],
          filling: Filling) -> str | None:
    """The list's items, each written into the pattern's ``each`` check, joined."""
    items = split(part, groups[name])
    if not items or part.item is None:
        return None
    checks = []
    for item in items:
        converted = convert(part.item, name, item, groups, filling)
        if converted is None:
            return None
        one = _format(pattern.each or "{" + name + "}", values | {name: converted})
        if one is None:
            return None
        checks.append(one)
    return (f" {pattern.join} " if pattern.join in ("and", "or") else pattern.join).join(checks)


def _kind(name: str, parts: dict[str, Part]) -> str:
    part = part_of(name, parts)
    return part.kind if part else "text"


def _format(template: str, values: dict[str, str]) -> str | None:
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError):
        return None


def _parses(check: str) -> bool:
    try:
        dsl.parse_condition(check)
    except dsl.RulesError:
        return False
    return True


_TEXT = Part("text", "text", "")
