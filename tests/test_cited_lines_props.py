"""Property (issue 10): every line evidence cites holds the text it quotes.

Generated transcripts hold JSON payloads as a harness writes them: on one line
(a string's newlines are ``\\n`` escapes there), spread over lines, or in a
fenced block, with nested objects and arrays. A check reads one leaf of the
payload (``==`` on it, ``contains`` on a string holding the token) and passes;
each place its evidence cites must be a line of the file that holds the quote,
as written or as JSON writes it inside a string.

A call's own headline (``Tool: name (status s)``, cited at the record's heading)
is a summary of the record, not a quote of a line, and is left out.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run
from referee.engine.verdict import Outcome

TOKEN = "TARGET"
KEYS = st.sampled_from(["a", "b", "items", "note"])
TEXT = st.lists(st.sampled_from(["one", "two", "x y", 'say "hi"', "é", "", TOKEN, "back\\slash", "tab\tin"]),
                min_size=1, max_size=4).map("\n".join)
LEAF = st.one_of(st.integers(-5, 500), TEXT, st.booleans())
VALUE = st.recursive(LEAF, lambda inner: st.one_of(st.lists(inner, min_size=1, max_size=3),
                                                   st.dictionaries(KEYS, inner, min_size=1, max_size=3)),
                     max_leaves=8)
LAYOUTS = st.sampled_from(["one-line", "one-line-ascii", "indented", "fenced", "fenced-ascii"])


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _leaves(item, path + (n,))
    else:
        yield path, value


def _written(value, layout: str) -> str:
    ascii_only = layout.endswith("ascii")
    if layout.startswith("one-line"):
        return " " + json.dumps(value, ensure_ascii=ascii_only)
    text = json.dumps(value, ensure_ascii=ascii_only, indent=2)
    return "\n```json\n" + text + "\n```" if layout.startswith("fenced") else " " + text


@st.composite
def cases(draw):
    args, result = draw(st.dictionaries(KEYS, VALUE, min_size=1, max_size=3)), draw(VALUE)
    layouts = draw(LAYOUTS), draw(LAYOUTS)
    notes = draw(st.lists(TEXT, max_size=2))
    parts = ["## Eval Prompt\n\nGo.\n"]
    for n, note in enumerate(notes):
        parts.append(f"## [agent_notes] Step 0: n{n}\n\n{note.replace('#', '')}\n")
    parts.append(f"## [tool_calls] Step 1: work\nTool: work\nArgs:{_written(args, layouts[0])}\n"
                 f"Return:{_written(result, layouts[1])}\nStatus: success\n")
    text = "\n".join(parts)
    field, payload = draw(st.sampled_from([("args", args), ("return", result)]))
    path, leaf = draw(st.sampled_from(list(_leaves(payload))))
    return text, field, path, leaf


def _path(field: str, path: tuple) -> str:
    return f".{field}" + "".join(f"[{p}]" if isinstance(p, int) else f'["{p}"]' for p in path)


def _holds(line: str, quote: str) -> bool:
    forms = {quote, json.dumps(quote, ensure_ascii=False)[1:-1], json.dumps(quote)[1:-1]}
    try:
        decoded = json.loads(quote)
    except ValueError:
        decoded = None
    if isinstance(decoded, str):
        forms |= {json.dumps(decoded), json.dumps(decoded, ensure_ascii=False)}
    return any(form in line for form in forms)


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_every_cited_line_holds_its_quote(case):
    text, field, path, leaf = case
    checks = [f"first(calls){_path(field, path)} == {json.dumps(leaf)}",
              f"any calls have {_path(field, path)} == {json.dumps(leaf)}"]
    if isinstance(leaf, str) and TOKEN in leaf:
        checks.append(f'first(calls){_path(field, path)} contains "{TOKEN}"')
    if any(TOKEN in line for line in text.split("## [tool_calls]")[0].split("\n")[3:]):
        checks.append(f'any notes have .text contains "{TOKEN}"')
    rules = "eval 1\n" + "".join(f"expect: {check}\n" for check in checks)
    program = compile_rules([dsl.parse_rules(rules, "t.rules")])
    run = memory_run({"outputs/transcript.md": text})
    lines = text.split("\n")
    for check, verdict in zip(checks, evaluate(program.for_run(run.id, run.metadata), run)):
        assert verdict.outcome is Outcome.PASS or verdict.notes_only, (check, verdict.message)
        for item in verdict.evidence:
            if item.line is None or not item.quote or item.quote.startswith("Tool: "):
                continue
            assert _holds(lines[item.line - 1], item.quote), (check, item, lines[item.line - 1])
