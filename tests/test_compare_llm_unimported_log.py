"""compare --llm does not show the model an output whose run's record lies in a session
log nobody imported (``unimported-transcript``): the model would read the raw log, the
agent's whole conversation, as a file the run delivered, where compare shows the
delivered outputs and never a transcript. The reading of such a pair is an error, as
for a response that cannot be read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO

from referee.engine.run.workspace import discover
from referee.llm_adapter.backends import Completion
from referee.llm_adapter.holistic import HolisticReader

SESSION = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"
PREFERS_A = json.dumps({"reasoning": "A answers.", "A": {"strengths": [
    {"point": "answers", "quote": "Your booking LX2084 is confirmed"}]}, "preference": "A"})


class Asked:
    name, model = "fake", "m"

    def __init__(self) -> None:
        self.asked: list[str] = []

    def params(self) -> dict:
        return {}

    def complete(self, request, about: str = "") -> Completion:
        self.asked.append(request.turns[0][1])
        return Completion(PREFERS_A, replayed=True)

    def cancel(self) -> None:
        return None


def _runs(tmp_path: Path, logged: bool):
    for config, text in (("with_skill", "Your booking LX2084 is confirmed.\n"), ("without_skill", "Nothing.\n")):
        outputs = tmp_path / "ws" / "eval-1-x" / config / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text(text, encoding="utf-8")
    if logged:
        shutil.copy(SESSION, tmp_path / "ws" / "eval-1-x" / "without_skill" / "run-1" / "outputs" / "session.jsonl")
    runs = {run.id.rel.split("/")[1]: run for run in discover(tmp_path / "ws").runs}
    return runs["with_skill"], runs["without_skill"]


def test_an_output_holding_an_unimported_log_is_not_compared(tmp_path):
    first, second = _runs(tmp_path, logged=True)
    assert second.unimported_log is not None
    for one, other, letter in ((first, second, "B"), (second, first, "A")):
        backend = Asked()
        reading = HolisticReader(backend).read("Book LX2084.", one, other, [], str)
        assert backend.asked == []
        assert reading.preference is None and f"output {letter}" in (reading.error or "")
        assert "without_skill" not in reading.error and "session.jsonl" not in reading.error


def test_outputs_without_a_log_are_compared(tmp_path):
    first, second = _runs(tmp_path, logged=False)
    backend = Asked()
    reading = HolisticReader(backend).read("Book LX2084.", first, second, [], str)
    assert len(backend.asked) == 1 and reading.error is None and reading.preference == 0
