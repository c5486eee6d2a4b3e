"""compare --llm never shows the model a response referee could not read: its reading
of such a pair is an error, and the model's preference decides nothing there."""

from __future__ import annotations

import json

from referee.engine.run.memory import memory_run
from referee.llm_adapter.backends import Completion
from referee.llm_adapter.holistic import HolisticReader

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
