"""grading.json as the agent under test, or whatever sits in its place, would attack it.

A tool name or a metrics key that closes skill-creator's ``<script>`` element; a
FIFO where a run's earlier grading.json should be (read by the carry-over of LLM
verdicts, by the writer's guard, by ``report`` and ``aggregate``); and two run
folders that differ but would hash the same, or differ only in a file the LLM
grader read through a symlink or was shown as the response. Each test asserts what
is written or read, never how long anything took (a subprocess's timeout is only a
net under a hang).
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

from budget_corpus import make_run, rules_for
from referee.engine.report.carry import run_digest
from referee.engine.report.run_report import Unread, read_report
from referee.engine.run.reading import ResponseFiles
from referee.engine.run.workspace import load_run

SCRIPT_BREAKERS = re.compile(rb"</script|<!--", re.IGNORECASE)
SEMANTIC = rules_for('any calls to "save"') + 'expect 2 "The reply is friendly"\n'


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.engine.cli", *args], capture_output=True, text=True,
                          timeout=120)


def _rules(tmp_path: Path, text: str) -> str:
    path = tmp_path / "r.rules"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_keys_cannot_close_the_viewers_script_element(tmp_path):
    hostile = "</script><script>alert(1)</script><!--"
    run = make_run(tmp_path / "ws", calls=[(hostile, '{"n": 1}', '{"ok": true}', "success")])
    (run / "timing.json").write_text(json.dumps({hostile: 1, "total_tokens": 5}), encoding="utf-8")
    done = _cli("grade", str(tmp_path / "ws"), "--rules", _rules(tmp_path, rules_for('any calls to "save"')))
    assert done.returncode == 1, done.stderr
    data = (run / "grading.json").read_bytes()
    assert SCRIPT_BREAKERS.search(data) is None
    report = json.loads(data)  # still JSON, and it reads back as the values do
    safe = "<\\/script><script>alert(1)<\\/script><\\!--"
    assert report["execution_metrics"]["tool_calls"] == {safe: 1} and report["timing"][safe] == 1


def test_a_fifo_in_place_of_grading_json_stalls_nothing(tmp_path):
    run = make_run(tmp_path / "ws", calls=[("save", '{"n": 1}', '{"ok": true}', "success")])
    os.mkfifo(run / "grading.json")
    rules = _rules(tmp_path, SEMANTIC)
    checked = _cli("grade", str(tmp_path / "ws"), "--rules", rules, "--check")  # carry-over reads it
    assert checked.returncode == 0, checked.stderr
    written = _cli("grade", str(tmp_path / "ws"), "--rules", rules)  # the writer's guard reads it
    assert written.returncode == 2 and "grading.json was not written by referee" in written.stderr
    assert _cli("report", str(tmp_path / "ws"), "--format", "markdown").returncode == 2
    assert stat.S_ISFIFO(os.lstat(run / "grading.json").st_mode)
    assert read_report(run) == Unread("not-a-file", "not a regular file")


def test_every_reader_refuses_what_is_not_a_report_file(tmp_path):
    run = make_run(tmp_path / "ws")
    assert read_report(run).code == "missing"
    (run / "elsewhere.json").write_text(json.dumps({"grader": {"name": "referee"}}), encoding="utf-8")
    (run / "grading.json").symlink_to(run / "elsewhere.json")
    assert read_report(run).code == "not-a-file"
    (run / "grading.json").unlink()
    for text, code in (("[1]", "not-an-object"), ("{", "bad-json"), ("[" * 100_000, "bad-json"),
                       ('{"grader": {"name": "other"}}', "foreign")):
        (run / "grading.json").write_text(text, encoding="utf-8")
        assert read_report(run).code == code
    (run / "grading.json").write_text('{"grader": {"name": "referee"}, "n": 1}', encoding="utf-8")
    assert read_report(run) == {"grader": {"name": "referee"}, "n": 1}


def test_two_different_output_folders_never_hash_the_same(tmp_path):
    # Without framing, "a" holding "X\0outputs/b\0Y" read the same as "a" holding "X"
    # beside "b" holding "Y"; with it, the names and lengths tell them apart.
    one, two = make_run(tmp_path / "one"), make_run(tmp_path / "two")
    for run in (one, two):
        (run / "outputs" / "transcript.md").unlink()
        (run / "outputs" / "response.md").unlink()
    (one / "outputs" / "a").write_bytes(b"X\0outputs/b\0Y")
    (two / "outputs" / "a").write_bytes(b"X")
    (two / "outputs" / "b").write_bytes(b"Y")
    assert run_digest(_At(one)) != run_digest(_At(two))
    (one / "outputs" / "a").write_bytes(b"")
    (two / "outputs" / "a").unlink()
    (two / "outputs" / "b").unlink()
    (two / "outputs" / "a").write_bytes(b"unreadable: x")  # what an unreadable file once hashed as
    assert run_digest(_At(one)) != run_digest(_At(two))


def test_files_over_the_read_cap_differ_in_the_digest(tmp_path, monkeypatch):
    from referee.engine.run import safeio

    monkeypatch.setattr(safeio, "MAX_TEXT_BYTES", 8)  # files of a few bytes stand for huge ones
    one, two = make_run(tmp_path / "one"), make_run(tmp_path / "two")
    (one / "outputs" / "big.txt").write_bytes(b"0123456789A")
    (two / "outputs" / "big.txt").write_bytes(b"0123456789B")
    assert run_digest(_At(one)) != run_digest(_At(two))


def test_a_file_the_grader_read_through_a_symlink_is_in_the_digest(tmp_path):
    run = make_run(tmp_path / "ws")
    (run / "data.txt").write_text("first", encoding="utf-8")
    (run / "outputs" / "result.txt").symlink_to(run / "data.txt")
    before = run_digest(_At(run))
    (run / "data.txt").write_text("second", encoding="utf-8")
    assert run_digest(_At(run)) != before


def test_the_response_the_grader_was_shown_is_in_the_digest(tmp_path):
    # --response may name a file outside outputs/, or make an output file the response:
    # either way the grader judged other text, so an earlier verdict must not carry over.
    run = make_run(tmp_path / "ws")
    (run / "answer.md").write_text("Your flight is booked.", encoding="utf-8")
    named = ResponseFiles(default="answer.md")
    before = run_digest(load_run(run, tmp_path / "ws", named))
    assert run_digest(load_run(run, tmp_path / "ws", named)) == before
    (run / "answer.md").write_text("Go away.", encoding="utf-8")
    assert run_digest(load_run(run, tmp_path / "ws", named)) != before
    shown = {run_digest(load_run(run, tmp_path / "ws", ResponseFiles(default=name)))
             for name in ("outputs/response.md", "outputs/transcript.md")}
    assert len(shown) == 2


class _At:
    def __init__(self, path: Path) -> None:
        self.path = path


def test_a_number_too_long_and_a_stack_run_out_are_each_said_as_what_they_are(tmp_path, monkeypatch):
    # A RecursionError of the decoder (within the depth checked first, the stack left at
    # the call ran out) was said to be "a number too long to read".
    from referee.engine.report import run_report

    digits = '{"grader": {"name": "referee"}, "n": ' + "7" * 5000 + "}"
    (tmp_path / "grading.json").write_text(digits, encoding="utf-8")
    assert read_report(tmp_path) == Unread("bad-json", "a number too long to read")

    def stack_ran_out(text):
        raise RecursionError("maximum recursion depth exceeded while decoding a JSON object")

    (tmp_path / "grading.json").write_text('{"grader": {"name": "referee"}}', encoding="utf-8")
    monkeypatch.setattr(run_report.json, "loads", stack_ran_out)
    assert read_report(tmp_path) == Unread("bad-json", "nested too deeply to read (the interpreter's stack ran out)")
