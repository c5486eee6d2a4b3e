"""compare --llm shows an output file whose name is not UTF-8 (a Latin-1 byte, read as a
lone surrogate) under the name referee writes everywhere else, ``caf\\udce9.txt``: the
request is text, and the outputs are compared."""

from __future__ import annotations

from referee.engine.run.memory import memory_run
from referee.llm_adapter.holistic import HolisticReader
from test_compare_llm_shown_text import Quoting

CONFIRMED = "Your booking LX2084 is confirmed."


def test_an_output_named_in_latin1_is_shown_and_read():
    # input: output A holds outputs/caf<0xE9>.txt beside its response
    first = memory_run({"outputs/response.md": CONFIRMED + "\n", "outputs/caf\udce9.txt": "Menu of the day.\n"})
    second = memory_run({"outputs/response.md": "Nothing was booked.\n"}, rel="eval-1/without_skill/run-1")
    backend = Quoting(CONFIRMED)
    # was: UnicodeEncodeError out of render ("referee: internal error" from referee compare)
    reading = HolisticReader(backend).read("Book LX2084.", first, second, [], str)
    assert "--- outputs/caf\\udce9.txt ---\nMenu of the day." in backend.asked[0]
    assert [p.quote for p in reading.strengths[0]] == [CONFIRMED]
