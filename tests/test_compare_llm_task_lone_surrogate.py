"""compare --llm shows an eval prompt holding a lone surrogate (the JSON escape "\\ud800"
in evals.json, which is no text) written as that escape: the request is UTF-8, so a
cassette can key it, and a cassette without its reply is an unusable reading, not a crash."""

from __future__ import annotations

import json
from pathlib import Path

from referee.engine.run.memory import memory_run
from referee.llm_adapter.cassette import FORMAT, CassetteBackend
from referee.llm_adapter.holistic import HolisticReader
from test_compare_llm_shown_text import Quoting


def runs():
    return (memory_run({"outputs/response.md": "Your booking LX2084 is confirmed.\n"}),
            memory_run({"outputs/response.md": "Nothing was booked.\n"}, rel="eval-1/without_skill/run-1"))


def test_the_task_is_shown_with_the_escape():
    backend = Quoting("Your booking LX2084 is confirmed.")
    HolisticReader(backend).read("Book LX2084 \ud800 today.", *runs(), [], str)
    assert "Book LX2084 \\ud800 today." in backend.asked[0]
    backend.asked[0].encode("utf-8")


def test_a_cassette_keys_the_request(tmp_path: Path):
    # input: an eval prompt ending in "\ud800", compare --llm replay: of a cassette without the reply
    cassette = tmp_path / "c.jsonl"
    cassette.write_text(json.dumps({"format": FORMAT, "version": 2, "backend": "openai", "model": "m",
                                    "params": {"seed": 0, "temperature": 0}, "judge": "j"}) + "\n", encoding="utf-8")
    reader = HolisticReader(CassetteBackend(cassette, "replay"))
    # was: UnicodeEncodeError out of the cassette's key ("referee: internal error" from referee compare)
    reading = reader.read("Book LX2084 \ud800 today.", *runs(), [], str)
    assert "no recorded grader reply" in reading.error
