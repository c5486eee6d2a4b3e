"""compare --llm keeps a strength or weakness only when its quote is in what the model
was shown of that output: each output is shown up to 40,000 characters."""

from __future__ import annotations

import json

from referee.engine.run.memory import memory_run
from referee.llm_adapter.backends import Completion
from referee.llm_adapter.holistic import HolisticReader

LATE = "Your booking LX2084 is confirmed."
FILLER = "filler line of text\n" * 2500  # 50,000 characters


class Quoting:
    """A backend that gives output A a strength quoting ``quote``."""

    name, model = "fake", "m"

    def __init__(self, quote: str) -> None:
        self.quote = quote
        self.asked: list[str] = []

    def params(self) -> dict:
        return {}

    def complete(self, request, about: str = "") -> Completion:
        self.asked.append(request.turns[0][1])
        return Completion(json.dumps({"reasoning": "r", "A": {"strengths": [{"point": "confirms", "quote": self.quote}]},
                                      "preference": "A"}), replayed=True)

    def cancel(self) -> None:
        return None


def read(files: dict[str, str], quote: str):
    first = memory_run(files)
    second = memory_run({"outputs/response.md": "Nothing was booked.\n"}, rel="eval-1/without_skill/run-1")
    backend = Quoting(quote)
    return HolisticReader(backend).read("Book LX2084.", first, second, [], str), backend.asked[0]


def test_a_quote_past_what_the_model_was_shown_is_rejected():
    reading, asked = read({"outputs/response.md": FILLER + LATE + "\n"}, LATE)
    assert LATE not in asked
    assert reading.strengths[0] == () and "is not in the output" in reading.rejected[0]


def test_a_quote_from_a_file_shown_after_the_cut_is_rejected():
    reading, asked = read({"outputs/response.md": FILLER, "outputs/notes.md": LATE + "\n"}, LATE)
    assert LATE not in asked
    assert reading.strengths[0] == ()


def test_a_quote_that_was_shown_is_kept():
    reading, asked = read({"outputs/response.md": LATE + "\n" + FILLER}, LATE)
    assert LATE in asked and [p.quote for p in reading.strengths[0]] == [LATE]
