"""A tool's output too large for the session is kept by Claude Code in a file beside
it (``<session>/tool-results/``); the session's tool_result holds only a preview,
wrapped in ``<persisted-output>``. What the tool returned is then not in the session:
a check that reads that call's return is an ERROR, never a pass or a fail on the
preview. The call itself, its arguments and its status are read as they are."""

from __future__ import annotations

import referee
from claude_session import one_call_session

PERSISTED = ("<persisted-output>\nOutput too large (257.8KB). Full output saved to: "
             "/home/u/.claude/projects/-w/0141fab3/tool-results/bqqw0ykde.txt\n\n"
             "Preview (first 2KB):\n============ test session starts ============\ncollected 2104 items\n"
             "tests/test_a.py ........\n</persisted-output>")


def _session(tmp_path, content: object, is_error: bool = False):
    return one_call_session(tmp_path, "Bash", {"command": "pytest"}, content, is_error=is_error)


RULES = """eval 1
expect 1: no calls to "Bash" have .return contains "FAILED"
expect 2: any calls to "Bash" have .return contains "collected 2104 items"
expect 3: exactly 1 calls to "Bash" with status success where .args.command == "pytest"
"""


def _outcomes(session) -> list[str]:
    return [e["outcome"] for e in referee.grade(RULES, session, as_eval="1")[0].grading["expectations"]]


def test_a_return_kept_in_a_file_beside_the_session_is_not_read(tmp_path):
    assert _outcomes(_session(tmp_path, PERSISTED)) == ["error", "error", "pass"]


def test_a_preview_given_as_a_text_part_is_not_read_either(tmp_path):
    assert _outcomes(_session(tmp_path, [{"type": "text", "text": PERSISTED}])) == ["error", "error", "pass"]


def test_a_return_held_whole_is_read(tmp_path):
    whole = "============ test session starts ============\ncollected 2104 items\n2104 passed"
    assert _outcomes(_session(tmp_path, whole)) == ["pass", "pass", "pass"]
