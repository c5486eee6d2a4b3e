"""A run whose record lies in a session log nobody imported (``unimported-transcript``)
is not shown to the LLM grader: its semantic assertions are errors naming the log, as
every check over its calls and notes is, never a verdict on the raw log read as an
output file (where the agent's own words would count as what the run delivered)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO
from llm_server import verdicts

from referee.engine.grade import RulesSource, grade_all, grader_info
from referee.engine.run.workspace import discover
from referee.llm_adapter.backends import Completion
from referee.llm_adapter.judge import LLMJudge

SESSION = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"
RULES = 'eval 1\nexpect "The agent read the fare rules": semantic "read the fare rules"\n'


class Answer:
    """A backend that passes the assertion on the agent's words in the raw log."""

    name, model = "fake", "m"

    def __init__(self) -> None:
        self.asked = 0

    def params(self) -> dict:
        return {}

    def complete(self, request, about: str = "") -> Completion:
        self.asked += 1
        return Completion(verdicts(("The log shows it.", [("outputs", "I will read the fare rules, then search.")],
                                    "PASS")), replayed=True)

    def cancel(self) -> None:
        return None


def test_a_run_with_an_unimported_session_log_is_not_judged(tmp_path: Path):
    # input: a run with no transcript, a response.md, and a Claude Code session in outputs/
    outputs = tmp_path / "ws" / "eval-1" / "outputs"
    outputs.mkdir(parents=True)
    shutil.copy(SESSION, outputs / "session.jsonl")
    (outputs / "response.md").write_text("ok\n", encoding="utf-8")
    source = RulesSource((("r.rules", RULES),))
    backend = Answer()
    graded = grade_all(source.compile(), discover(tmp_path / "ws").runs, source, grader_info(),
                       judge=LLMJudge(backend))
    [item] = json.loads(graded[0].grading)["expectations"]
    assert item["outcome"] == "error" and "session.jsonl" in item["evidence"]
    assert "referee import claude-code" in item["evidence"]
    assert backend.asked == 0
