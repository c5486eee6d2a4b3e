"""Property: the line a call's evidence cites holds what it quotes."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

import referee
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

RULES = 'eval 1\nexpect: all calls have .status == "success"\nexpect: count(calls to "save") == 1\n' \
        'expect: any calls to "read" before calls to "save"\n'
PROGRAM = referee.compile(RULES)

records = st.lists(st.tuples(st.sampled_from(["read", "save", "x"]), st.sampled_from(["success", "error"]),
                             st.dictionaries(st.sampled_from(["a", "b"]), st.integers(), max_size=2),
                             st.booleans()), min_size=1, max_size=5)


def _transcript(items) -> str:
    blocks = []
    for step, (tool, status, args, spread) in enumerate(items, 1):
        shown = json.dumps(args, indent=2 if spread else None)
        blocks.append(f"## [tool_calls] Step {step}: {tool}\nTool: {tool}\nArgs: {shown}\n"
                      f"Return: {{}}\nStatus: {status}\n")
    return "\n".join(blocks)


@settings(max_examples=80)
@given(records)
def test_every_cited_call_line_holds_its_quote(items):
    text = _transcript(items)
    lines = text.split("\n")
    (ev,) = PROGRAM.evals
    for verdict in evaluate(ev, memory_run({"outputs/transcript.md": text})):
        for evidence in verdict.evidence:
            if evidence.source == "tool_calls" and evidence.quote.startswith("Tool: "):
                assert evidence.quote in lines[evidence.line - 1], (evidence, lines[evidence.line - 1])
