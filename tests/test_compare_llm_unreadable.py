"""compare --llm never shows the model an output referee could not read in full: a
response that is not UTF-8, outputs/ holding a link to a folder (not followed, so its
files cannot all be listed), or a session log nobody imported (the model would read the
agent's whole conversation as a file the run delivered). Its reading of such a pair is
an error, and the model's preference decides nothing there."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO

from referee.engine.run.memory import memory_run
from referee.engine.run.workspace import discover
from referee.llm_adapter.backends import Completion
from referee.llm_adapter.holistic import HolisticReader

SESSION = REPO / "tests" / "fixtures" / "import" / "claude-code" / "session.jsonl"
PREFERS_A = json.dumps({"reasoning": "A confirms the booking.", "A": {"strengths": [
    {"point": "confirms", "quote": "Your booking LX2084 is confirmed"}]}, "preference": "A"})


class Asked:
    """A backend that prefers A, and keeps what it was asked."""

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


def test_a_response_that_is_not_utf8_is_not_shown_and_decides_nothing():
    # input: one side's outputs/response.md holds a byte that is not UTF-8
    broken = memory_run({"outputs/response.md": b"Your booking LX2084 is confirmed \xff here\n"})
    other = memory_run({"outputs/response.md": "Nothing was booked.\n"}, rel="eval-1/without_skill/run-1")
    for first, second in ((broken, other), (other, broken)):
        backend = Asked()
        reading = HolisticReader(backend).read("Book LX2084.", first, second, [], str)
        assert backend.asked == []
        assert reading.preference is None and reading.error is not None
        assert "not UTF-8" in reading.error and "with_skill" not in reading.error  # names no configuration


def test_readable_responses_are_still_read():
    one = memory_run({"outputs/response.md": "Your booking LX2084 is confirmed.\n"})
    other = memory_run({"outputs/response.md": "Nothing was booked.\n"}, rel="eval-1/without_skill/run-1")
    backend = Asked()
    reading = HolisticReader(backend).read("Book LX2084.", one, other, [], str)
    assert len(backend.asked) == 1 and reading.error is None and reading.preference == 0


def _runs(tmp_path: Path, spoil=None):
    """Two runs of one eval; ``spoil`` changes the outputs/ of the run without the skill."""
    for config, text in (("with_skill", "Your booking LX2084 is confirmed.\n"), ("without_skill", "Nothing.\n")):
        outputs = tmp_path / "ws" / "eval-1-x" / config / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text(text, encoding="utf-8")
    if spoil is not None:
        spoil(tmp_path, tmp_path / "ws" / "eval-1-x" / "without_skill" / "run-1" / "outputs")
    runs = {run.id.rel.split("/")[1]: run for run in discover(tmp_path / "ws").runs}
    return runs["with_skill"], runs["without_skill"]


def _link_a_folder(tmp_path: Path, outputs: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "ticket.md").write_text("Refund issued.\n", encoding="utf-8")
    (outputs / "kept").symlink_to(elsewhere, target_is_directory=True)


def _leave_a_log(tmp_path: Path, outputs: Path) -> None:
    shutil.copy(SESSION, outputs / "session.jsonl")


def _not_compared(first, second) -> None:
    for one, other, letter in ((first, second, "B"), (second, first, "A")):
        backend = Asked()
        reading = HolisticReader(backend).read("Book LX2084.", one, other, [], str)
        assert backend.asked == []
        assert reading.preference is None and f"output {letter}" in (reading.error or "")
        assert "without_skill" not in reading.error and "session.jsonl" not in reading.error


def test_an_output_with_a_folder_not_listed_is_not_compared(tmp_path):
    _not_compared(*_runs(tmp_path, _link_a_folder))


def test_an_output_holding_an_unimported_log_is_not_compared(tmp_path):
    first, second = _runs(tmp_path, _leave_a_log)
    assert second.unimported_log is not None
    _not_compared(first, second)


def test_outputs_read_in_full_are_compared(tmp_path):
    first, second = _runs(tmp_path)
    backend = Asked()
    reading = HolisticReader(backend).read("Book LX2084.", first, second, [], str)
    assert len(backend.asked) == 1 and reading.error is None and reading.preference == 0
