"""--llm-batch-import writes the cassette in place of the path it is given, so that path
must be a regular file (or nothing): a symbolic link would be replaced, not followed."""

from __future__ import annotations

from sharded import fresh
from test_llm_batch import export, import_, provider


def test_importing_into_a_symlinked_cassette_is_refused(tmp_path, monkeypatch, capsys):
    # input: --llm replay:LINK --llm-batch-import RESULTS, LINK a symbolic link to a cassette
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    ws = fresh(tmp_path)
    requests, results = tmp_path / "requests.jsonl", tmp_path / "results.jsonl"
    export(ws, "openai", requests)
    provider(requests, "openai", results)
    cassette, link = tmp_path / "judge.jsonl", tmp_path / "link.jsonl"
    assert import_(ws, "openai", cassette, results) == 1
    before = cassette.read_bytes()
    link.symlink_to(cassette)
    capsys.readouterr()
    assert import_(ws, "openai", link, results) == 2
    assert f"{link} is a symbolic link" in capsys.readouterr().err
    assert link.is_symlink() and cassette.read_bytes() == before


def test_a_dangling_link_is_refused_too(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    ws = fresh(tmp_path)
    requests, results = tmp_path / "requests.jsonl", tmp_path / "results.jsonl"
    export(ws, "openai", requests)
    provider(requests, "openai", results)
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "nowhere.jsonl")
    capsys.readouterr()
    assert import_(ws, "openai", link, results) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert link.is_symlink() and not (tmp_path / "nowhere.jsonl").exists()
