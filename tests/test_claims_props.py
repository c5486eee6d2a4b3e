"""Property: every claim cites a line of its file that holds what it quotes, and a
line inside a code block is never cited."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.facts.claims import find_claims
from referee.engine.run.memory import memory_run

LINES = ["Saved with docStatus=10.", "I called saveDoc.", "cancelDoc was not called.", "", "plain words",
         "   indented status is 10", "<!-- a comment docStatus=20 -->", "Ran the script with Bash."]
CALL = "## [tool_calls] Step {n}: saveDoc\nTool: svc-mcp_saveDoc\nArgs: {{\"docStatus\": \"10\"}}\nReturn: {{}}\nStatus: success\n\n"
_SAID = re.compile(r'^(?P<file>[^:]+):(?P<line>\d+) \([^)]*\) says "(?P<quote>.*?)"; ')


def section(step: int, lines: list[str], fenced: list[str]) -> str:
    fence = ["```", *fenced, "```"] if fenced else []
    return f"## [agent_notes] Step {step}: n\n" + "\n".join([*lines, *fence]) + "\n\n"


@settings(max_examples=80)
@given(st.lists(st.tuples(st.lists(st.sampled_from(LINES), max_size=6),
                          st.lists(st.sampled_from(LINES), max_size=3)), min_size=1, max_size=4),
       st.lists(st.sampled_from(LINES), max_size=5))
def test_each_claim_cites_a_line_holding_its_quote(notes, response):
    text = CALL.format(n=1) + "".join(section(i + 2, lines, fenced) for i, (lines, fenced) in enumerate(notes))
    body = "\n".join(response) + "\n"
    run = memory_run({"outputs/transcript.md": text, "outputs/response.md": body})
    files = {"outputs/transcript.md": text.split("\n"), "outputs/response.md": body.split("\n")}
    fenced_lines = _fenced(files["outputs/transcript.md"])
    for claim in find_claims(run):
        said = _SAID.match(claim.evidence)
        assert said, claim.evidence
        line = int(said.group("line"))
        assert said.group("quote") in " ".join(files[said.group("file")][line - 1].split()), claim
        assert line not in fenced_lines, claim


def _fenced(lines: list[str]) -> set[int]:
    inside, found = False, set()
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            inside = not inside
            found.add(number)
        elif inside:
            found.add(number)
    return found
