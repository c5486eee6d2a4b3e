"""A cassette saved by a Windows editor (a UTF-8 byte order mark, CRLF line ends)
replays exactly as its twin without them: the mark and the line ends are how the
file was saved, not what it records."""

from __future__ import annotations

from pathlib import Path

from llm_server import SCRIPTED_NOTE, ScriptedServer, reading_judge, small_run

from referee.engine.judging import SemanticItem
from referee.llm_adapter import make_judge
from referee.llm_adapter.cassette import load

RUN = small_run({"transcript.md": "## [tool_calls] Step 1: lookup\nTool: search_flights\n"
                                "Args: {\"to\": \"LIS\"}\nReturn: {\"flight\": \"LX2084\"}\n",
               "response.md": "Booked LX2084 for you.\nHave a good trip!\n"})
ITEMS = (SemanticItem("1#1", "The response names flight LX2084", "names LX2084"),)


def recorded(tmp_path: Path) -> Path:
    cassette = tmp_path / "judge.cassette.jsonl"
    with ScriptedServer(default=reading_judge) as server:
        make_judge(f"record:{cassette}", inner="openai:scripted", base_url=server.url,
                   timeout=5.0, note=SCRIPTED_NOTE).grade(RUN, ITEMS)
    return cassette


def test_a_cassette_with_a_byte_order_mark_and_crlf_replays_as_its_twin(tmp_path):
    plain = recorded(tmp_path)
    windows = tmp_path / "windows.cassette.jsonl"
    windows.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes().replace(b"\n", b"\r\n"))
    assert load(windows) == load(plain)
    assert make_judge(f"replay:{windows}").grade(RUN, ITEMS) == make_judge(f"replay:{plain}").grade(RUN, ITEMS)


def test_a_byte_order_mark_alone_replays_too(tmp_path):
    plain = recorded(tmp_path)
    marked = tmp_path / "marked.cassette.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert load(marked) == load(plain)
