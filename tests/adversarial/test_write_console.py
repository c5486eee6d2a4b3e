"""What the agent wrote reaches the terminal inert: escape sequences are shown, not obeyed.

A tool name or file name can hold ``ESC [2J`` (clear the screen), ``ESC ]0;...``
(set the window title), a carriage return that overwrites a FAIL with a PASS,
or a bidi override. ``grade`` and ``show`` print each as a visible escape.
"""

from __future__ import annotations

import os
import subprocess
import sys

from hypothesis import example, given, strategies as st

from budget_corpus import make_run, rules_for
from referee.engine.report.inert import inert, inert_data

HOSTILE = "save\x1b[2J\x1b]0;owned\x07 \u202eevil\x9b31m"
ARGS = '{"q": "\\u001b[1A\\rPASS"}'  # JSON escapes: the value holds ESC and a carriage return
CONTROL = [chr(c) for c in (*range(0x00, 0x09), *range(0x0b, 0x20), *range(0x7f, 0xa0))] + ["\u202e", "\u2066"]


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "FORCE_COLOR": "1"}  # colour on: referee's own codes must still pass
    return subprocess.run([sys.executable, "-m", "referee.engine.cli", *args], capture_output=True,
                          text=True, env=env)


def _assert_inert(text: str) -> None:
    for char in CONTROL:
        if char == "\x1b":
            # the only escape sequences left are referee's own colours
            stripped = text
            for code in ("\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[35m", "\x1b[2m", "\x1b[0m", "\x1b[1m"):
                stripped = stripped.replace(code, "")
            assert "\x1b" not in stripped, repr(text)
        else:
            assert char not in text, (hex(ord(char)), repr(text))


def test_grade_prints_hostile_names_inert(tmp_path):
    run = make_run(tmp_path / "ws", calls=[(HOSTILE, ARGS, "{}", "success")])
    (run / "outputs" / "note\x1b[31m.txt").write_text("x")
    rules = tmp_path / "r.rules"
    rules.write_text(rules_for('first(calls).tool == "save"', 'first(calls).args.q == "x"',
                               'no outputs where . contains "note"'), encoding="utf-8")
    done = _cli("grade", str(tmp_path / "ws"), "--rules", str(rules))
    assert done.returncode == 1, done.stderr
    _assert_inert(done.stdout)
    _assert_inert(done.stderr)
    assert "save\\x1b[2J\\x1b]0;owned\\x07 \\u202eevil\\x9b31m" in done.stdout


def test_show_prints_hostile_names_inert(tmp_path):
    run = make_run(tmp_path / "ws", calls=[(HOSTILE, "{}", "{}", "success")])
    (run / "outputs" / "file\x1b]0;t\x07.txt").write_text("x")
    done = _cli("show", str(run))
    assert done.returncode == 0, done.stderr
    _assert_inert(done.stdout)
    assert "\\x1b]0;owned\\x07" in done.stdout and "file\\x1b]0;t\\x07.txt" in done.stdout


@given(st.text())
@example("##[")
def test_inert_text_has_no_control_characters(text):
    shown = inert(text)
    assert not any(char in shown for char in CONTROL)
    assert inert(shown) == shown  # already inert stays as it is
    kept = text.replace("##[", "##")  # the [ of a legacy workflow command is written \x5b
    assert all(char in shown for char in kept if char in "\n\t" or char.isprintable())


def test_inert_data_reaches_keys_and_nested_values():
    assert inert_data({"a\x1b": ["b\r", ("c\x07",)], "n": 1}) == {"a\\x1b": ["b\\r", ("c\\x07",)], "n": 1}
