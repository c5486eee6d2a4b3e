"""The whole grading pipeline is total and deterministic on arbitrary run content.

Transcript and response text come from the same fragment soup as the parser's own
properties; the rules use every kind of check. Grading must never raise, must give
the same bytes twice, and must produce reports the committed schema accepts.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.grade import grade_all, grader_info
from referee.engine.run.workspace import discover
from test_schema import load, validate
from test_transcript_props import transcript_like

RULES = dsl.parse_rules("""
eval 1
let saved = last(calls to glob "*save*" with status success)
expect 1: count(calls to glob "*save*") == 1
expect 2: any calls with status success have .args includes {"a": 1}
expect 3: saved.args.a == first(calls).return.body
expect 4: not response contains "{fdId}"
expect 5: response matches /fd[A-Z]d=[0-9a-f]+/i
expect 6: in order [calls to "a", calls to glob "*save*"]
expect 7: each of [calls with status error, calls to /s/]
expect 8: all notes have .text is not empty
expect 9: response is not empty
expect 10: first(lines(file "summary.csv")) == "region,total"
expect 11: semantic "Is the reply friendly?"
""", "props.rules")
PROGRAM = compile_rules([RULES])
SCHEMAS = {"grading.json": load("grading.schema.json"), "ground_truth.json": load("ground_truth.schema.json")}


def _grade(root: Path, transcript: str, response: str, csv: str) -> list[tuple[str, str]]:
    outputs = root / "eval-1" / "with_skill" / "run-1" / "outputs"
    outputs.mkdir(parents=True, exist_ok=True)
    (outputs / "transcript.md").write_text(transcript, encoding="utf-8", errors="surrogatepass")
    (outputs / "response.md").write_text(response, encoding="utf-8", errors="surrogatepass")
    (outputs / "summary.csv").write_text(csv, encoding="utf-8", errors="surrogatepass")
    (graded,) = grade_all(PROGRAM, discover(root).runs, None, grader_info())
    return [("grading.json", graded.grading), ("ground_truth.json", graded.truth)]


@settings(max_examples=50, suppress_health_check=[HealthCheck.too_slow])
@given(transcript_like(), st.text(max_size=60), st.text(max_size=40))
def test_grading_any_run_is_total_deterministic_and_schema_valid(transcript, response, csv):
    with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
        once = _grade(Path(first), transcript, response, csv)
        again = _grade(Path(second), transcript, response, csv)
    assert once == again
    for name, text in once:
        errors = validate(json.loads(text), SCHEMAS[name], SCHEMAS[name])
        assert not errors, errors[:3]
