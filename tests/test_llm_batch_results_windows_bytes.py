"""A batch's result file saved by a Windows tool (a UTF-8 byte order mark, CRLF line
ends) is imported as its twin without them: the mark and the line ends are how the
file was saved, not what the provider answered."""

from __future__ import annotations

import pytest
from sharded import fresh
from test_llm_batch import export, import_, provider

from referee.llm_adapter.cassette import load


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def test_results_with_a_byte_order_mark_and_crlf_import_as_their_twin(tmp_path, capsys):
    requests, results = tmp_path / "requests.jsonl", tmp_path / "results.jsonl"
    export(fresh(tmp_path / "a"), "openai", requests)
    provider(requests, "openai", results)
    plain = tmp_path / "plain.jsonl"
    assert import_(fresh(tmp_path / "b"), "openai", plain, results) == 1
    windows = tmp_path / "windows-results.jsonl"
    windows.write_bytes(b"\xef\xbb\xbf" + results.read_bytes().replace(b"\n", b"\r\n"))
    marked = tmp_path / "marked.jsonl"
    assert import_(fresh(tmp_path / "c"), "openai", marked, windows) == 1, capsys.readouterr().err
    assert load(marked) == load(plain)
