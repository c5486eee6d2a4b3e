"""compare --llm does not ask the model about an output whose files cannot all be
listed (a link to a folder in outputs/, which referee does not follow): the model
would compare what it was shown as all that run delivered. The reading of such a
pair is an error, as for a response referee could not read."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.run.workspace import discover
from referee.llm_adapter.backends import Completion
from referee.llm_adapter.holistic import HolisticReader

PREFERS_A = json.dumps({"reasoning": "A confirms the booking.", "A": {"strengths": [
    {"point": "confirms", "quote": "Your booking LX2084 is confirmed"}]}, "preference": "A"})


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


def _runs(tmp_path: Path, linked: bool):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "ticket.md").write_text("Refund issued.\n", encoding="utf-8")
    for config, text in (("with_skill", "Your booking LX2084 is confirmed.\n"), ("without_skill", "Nothing.\n")):
        outputs = tmp_path / "ws" / "eval-1-x" / config / "run-1" / "outputs"
        outputs.mkdir(parents=True)
        (outputs / "response.md").write_text(text, encoding="utf-8")
    if linked:
        (tmp_path / "ws" / "eval-1-x" / "without_skill" / "run-1" / "outputs" / "kept").symlink_to(
            elsewhere, target_is_directory=True)
    runs = {run.id.rel.split("/")[1]: run for run in discover(tmp_path / "ws").runs}
    return runs["with_skill"], runs["without_skill"]


def test_an_output_with_a_folder_not_listed_is_not_compared(tmp_path):
    first, second = _runs(tmp_path, linked=True)
    for one, other, letter in ((first, second, "B"), (second, first, "A")):
        backend = Asked()
        reading = HolisticReader(backend).read("Book LX2084.", one, other, [], str)
        assert backend.asked == []
        assert reading.preference is None and f"output {letter}" in (reading.error or "")
        assert "without_skill" not in reading.error  # names no configuration


def test_outputs_all_listed_are_compared(tmp_path):
    first, second = _runs(tmp_path, linked=False)
    backend = Asked()
    reading = HolisticReader(backend).read("Book LX2084.", first, second, [], str)
    assert len(backend.asked) == 1 and reading.error is None and reading.preference == 0
