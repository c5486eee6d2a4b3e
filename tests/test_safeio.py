"""Bad inputs: each becomes a Problem naming the path (and line), and the run still loads."""

from __future__ import annotations

import json
import os
from decimal import Decimal
from pathlib import Path

import pytest

from referee.engine.run import safeio, safejson
from referee.engine.run.workspace import load_run
from referee.engine.run.safeio import read_json, read_text, safe_relative
from referee.engine.run.safejson import parse_json

GOOD_TRANSCRIPT = "## [tool_calls] Step 1: ping\nTool: ping\nArgs: {\"n\": 1.50}\nReturn: \"pong\"\nStatus: success\n"


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    run = tmp_path / "ws" / "eval-1-x" / "with_skill" / "run-1"
    (run / "outputs").mkdir(parents=True)
    (run / "outputs" / "transcript.md").write_text(GOOD_TRANSCRIPT, encoding="utf-8")
    return run


def _codes(problems):
    return [(p.code, p.path, p.line) for p in problems]


def _workspace_run(run_dir: Path):
    return load_run(run_dir, run_dir.parents[2])


REL = "eval-1-x/with_skill/run-1"


def test_undecodable_bytes_are_reported_with_line_and_text_is_kept(run_dir):
    (run_dir / "outputs" / "response.md").write_bytes("line one\nzwei: caf\xe9\n".encode("latin-1"))
    run = _workspace_run(run_dir)
    assert run.response.text == "line one\nzwei: caf\ufffd\n"
    assert _codes(run.problems) == [("not-utf8", f"{REL}/outputs/response.md", 2)]
    assert run.transcript.calls[0].tool == "ping"


def test_undecodable_output_file_gives_no_text(run_dir):
    (run_dir / "outputs" / "data.txt").write_bytes(b"ok\n\xff\xfe bad")
    run = _workspace_run(run_dir)
    got = run.read_output("data.txt")
    assert got.text is None and _codes(got.problems) == [("not-utf8", f"{REL}/outputs/data.txt", 2)]
    assert _codes(run.problems) == [("not-utf8", f"{REL}/outputs/data.txt", 2)]


def test_nul_bytes_are_binary(run_dir):
    (run_dir / "outputs" / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (run_dir / "outputs" / "transcript.md").write_bytes(b"## x\n\x00\x01\x02")
    run = _workspace_run(run_dir)
    assert run.read_output("image.png").text is None
    assert run.transcript.calls == () and run.transcript.notes == ()
    assert _codes(run.problems) == [
        ("binary", f"{REL}/outputs/image.png", 3),
        ("binary", f"{REL}/outputs/transcript.md", 2),
    ]
    assert run.output_files() == ["image.png", "transcript.md"]


def test_truncated_and_invalid_json(run_dir):
    (run_dir / "outputs" / "metrics.json").write_text('{"total_tool_calls": 3,\n "tool_calls": {"a": 1')
    (run_dir / "timing.json").write_text("{'single': 'quotes'}")
    run = _workspace_run(run_dir)
    assert run.metrics.value is None and run.timing.value is None
    assert _codes(run.problems) == [
        ("bad-json", f"{REL}/outputs/metrics.json", 2),
        ("bad-json", f"{REL}/timing.json", 1),
    ]
    assert "column" in run.metrics.problems[0].message
    assert run.transcript.calls[0].args.value == {"n": Decimal("1.50")}


def test_json_nested_100000_deep_is_refused_without_recursion(run_dir):
    deep = "[" * 100_000 + "]" * 100_000
    (run_dir / "outputs" / "metrics.json").write_text(deep)
    (run_dir / "outputs" / "transcript.md").write_text(
        "## [tool_calls] Step 1: deep\nTool: t\nArgs: " + deep + "\nStatus: success\n")
    run = _workspace_run(run_dir)
    assert run.metrics.value is None
    call = run.transcript.calls[0]
    assert call.args.is_json is False and call.status == "success"
    assert _codes(run.problems) == [
        ("too-deep", f"{REL}/outputs/metrics.json", 1),
        ("too-deep", f"{REL}/outputs/transcript.md", 3),
    ]


def test_nesting_within_the_limit_parses():
    text = "[" * safejson.MAX_JSON_DEPTH + "]" * safejson.MAX_JSON_DEPTH
    assert parse_json(text, "x").ok
    assert parse_json("[" + text + "]", "x").problem.code == "too-deep"
    # brackets inside strings do not count toward the depth
    assert parse_json(json.dumps(["[" * 5000]), "x").ok


def test_json_numbers_and_edge_values():
    result = parse_json('{"a": 1, "b": 2.50, "c": null}', "x")
    assert result.ok and result.value == {"a": 1, "b": Decimal("2.50"), "c": None}
    assert isinstance(result.value["a"], int)
    assert parse_json("null", "x").ok
    assert parse_json("", "x").problem.code == "bad-json"
    assert parse_json("9" * 5000, "x").problem.code == "bad-json"  # too many digits for int()


def test_symlink_outside_the_run_is_never_followed(run_dir, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read")
    (run_dir / "outputs" / "leak.txt").symlink_to(secret)
    (run_dir / "outputs" / "response.md").symlink_to(secret)
    (run_dir / "outputs" / "inside.txt").symlink_to(run_dir / "outputs" / "transcript.md")
    run = _workspace_run(run_dir)
    leak = run.read_output("leak.txt")
    assert leak.text is None and _codes(leak.problems) == [("symlink-escape", f"{REL}/outputs/leak.txt", None)]
    assert run.response.text is None
    assert run.read_output("inside.txt").text == GOOD_TRANSCRIPT
    # the links are there, whatever they point at: listed by name, never read
    assert run.output_files() == ["inside.txt", "leak.txt", "response.md", "transcript.md"]
    assert not run.exists_output("leak.txt") and run.exists_output("inside.txt")
    assert ("symlink-escape", f"{REL}/outputs/response.md", None) in _codes(run.problems)


def test_symlinked_outputs_folder_outside_the_run(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "transcript.md").write_text(GOOD_TRANSCRIPT)
    run_dir = tmp_path / "eval-1" / "cfg"
    run_dir.mkdir(parents=True)
    (run_dir / "outputs").symlink_to(elsewhere, target_is_directory=True)
    run = load_run(run_dir).load()
    assert run.transcript.calls == ()
    assert _codes(run.problems) == [
        ("symlink-escape", "outputs/transcript.md", None),
    ]


def test_symlink_loop_is_reported(run_dir):
    out = run_dir / "outputs"
    (out / "a").symlink_to(out / "b")
    (out / "b").symlink_to(out / "a")
    (out / "response.md").symlink_to(out / "response.md")
    run = _workspace_run(run_dir)
    assert run.read_output("a").text is None
    assert run.response.text is None
    assert run.output_files() == ["a", "b", "response.md", "transcript.md"]
    codes = _codes(run.problems)
    assert ("symlink-loop", f"{REL}/outputs/a", None) in codes
    assert ("symlink-loop", f"{REL}/outputs/response.md", None) in codes
    assert run.transcript.calls[0].tool == "ping"


def test_path_escape_in_read_output(run_dir):
    run = _workspace_run(run_dir)
    for bad in ("../timing.json", "/etc/passwd", "a/../../x", "..\\x", "C:/x", ""):
        got = run.read_output(bad)
        assert got.text is None and got.problems[0].code == "path-escape", bad
        assert not run.exists_output(bad)
    assert run.read_output("./transcript.md").text == GOOD_TRANSCRIPT


def test_missing_output_is_not_a_run_problem(run_dir):
    run = _workspace_run(run_dir)
    got = run.read_output("nope.csv")
    assert got.text is None and got.problems[0].code == "missing"
    assert run.problems == []


def test_too_large_is_not_read(run_dir, monkeypatch):
    monkeypatch.setattr(safeio, "MAX_TEXT_BYTES", 1024)
    (run_dir / "outputs" / "big.log").write_bytes(b"x" * 2048)
    run = _workspace_run(run_dir)
    got = run.read_output("big.log")
    assert got.text is None and got.size == 2048
    assert _codes(got.problems) == [("too-large", f"{REL}/outputs/big.log", None)]
    assert run.exists_output("big.log") and "big.log" in run.output_files()


def test_fifo_is_not_opened(run_dir):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    os.mkfifo(run_dir / "outputs" / "pipe")
    run = _workspace_run(run_dir)
    assert run.read_output("pipe").problems[0].code == "not-a-file"


def test_bom_and_utf16(tmp_path):
    (tmp_path / "a.md").write_bytes(b"\xef\xbb\xbfhello")
    (tmp_path / "b.md").write_bytes("hé".encode("utf-16"))
    assert read_text(tmp_path, "a.md").text == "hello"
    assert read_text(tmp_path, "b.md").text == "hé"
    assert read_text(tmp_path, "c.md") is None
    assert read_json(tmp_path, "c.json") is None


def test_empty_files(run_dir):
    for name in ("transcript.md", "response.md", "metrics.json", "user_notes.md"):
        (run_dir / "outputs" / name).write_bytes(b"")
    run = _workspace_run(run_dir).load()
    assert run.response.text == "" and run.transcript.calls == ()
    assert _codes(run.problems) == [("bad-json", f"{REL}/outputs/metrics.json", 1)]


def test_safe_relative():
    assert safe_relative("a/./b.txt") == "a/b.txt"
    assert safe_relative("a//b") == "a/b"
    assert safe_relative("../a") is None and safe_relative("/a") is None and safe_relative("\x00") is None


def test_a_multi_megabyte_transcript_loads_whole(run_dir):
    block = ("## [tool_calls] Step {s}: step\nTool: t{m}\nArgs: {{\"i\": {n}, \"pad\": \"" + "y" * 200
             + "\"}}\nReturn: {{\"ok\": true}}\nStatus: success\n\n## [agent_notes] Step {n}: note\ntext {n}\n\n")
    parts, size, n = [], 0, 0
    while size < 3 * 1024 * 1024:  # the 32 MiB cap's scale is benchmarks' business
        part = block.format(n=n, s=n + 1, m=n % 7)
        parts.append(part)
        size += len(part)
        n += 1
    (run_dir / "outputs" / "transcript.md").write_text("".join(parts))
    run = _workspace_run(run_dir)
    calls = run.transcript.calls
    assert len(calls) == n and len(run.transcript.notes) == n
    assert calls[-1].args.value["i"] == n - 1 and run.problems == []
