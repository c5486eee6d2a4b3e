"""A session log holding no request of the user and nothing of the agent, only Claude
Code's records of commands the user ran, gives no run: it is an error for its source,
never an empty run whose negative checks pass. Claude Code 2.1 starts a new session
when the user runs ``/clear``, and writes that command's records (and ``/exit``'s, when
the user then quits) into the new log, whose work the old one keeps
(tests/fixtures/real/claude-code/clear-command-two-sessions, a real pair). Taken for a
run, as the newest log of a project folder is, it passed ``no calls to "Bash"`` and
``not response contains "error"`` on a session in which the agent was never asked
anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee
from referee.engine.run.importers import import_sources, read_sources

PAIR = Path(__file__).parent / "fixtures" / "real" / "claude-code" / "clear-command-two-sessions"
AFTER_CLEAR = PAIR / "b8b14e62-252c-439c-88ad-18098b56d6c1.jsonl"
BEFORE_CLEAR = PAIR / "fd129add-ce1a-4256-a00b-4173def02b54.jsonl"
RULES = 'eval "1"\nexpect 1: no calls to "Bash"\nexpect 2: not response contains "error"\n'


def test_the_session_clear_started_gives_no_run_but_an_error(tmp_path: Path):
    # Before, it was imported as a run with no call and no reply, and no warning.
    result = import_sources("claude-code", [AFTER_CLEAR], tmp_path / "ws")
    assert result.written == ()
    (error,) = result.errors
    assert error.startswith(f"{AFTER_CLEAR}: ") and "no request of the user and nothing of the agent" in error


def test_grading_it_is_refused_never_a_pass():
    with pytest.raises(ValueError):
        referee.grade(referee.compile(RULES), AFTER_CLEAR, as_eval="1")


def test_the_session_before_clear_is_still_its_run():
    read = read_sources("claude-code", [BEFORE_CLEAR, AFTER_CLEAR])
    assert [path.name for path, _, _ in read.found] == [BEFORE_CLEAR.name]
    assert len(read.errors) == 1 and AFTER_CLEAR.name in read.errors[0]


def _session(tmp_path: Path, *records: dict) -> Path:
    base = {"sessionId": "s1", "cwd": "/w", "version": "2.1.37", "isSidechain": False, "userType": "external"}
    path = tmp_path / "s1.jsonl"
    path.write_text("".join(json.dumps({**base, **r}) + "\n" for r in records), encoding="utf-8")
    return path


def _user(uuid: str, parent: str | None, text: str, **more) -> dict:
    return {"type": "user", "uuid": uuid, "parentUuid": parent, "message": {"role": "user", "content": text}, **more}


def test_a_custom_command_may_ask_the_agent_so_its_session_stays_a_run(tmp_path: Path):
    # a slash command of the project's own may be a prompt the agent owes an answer to
    source = _session(tmp_path, _user("c1", None, "<command-name>/review</command-name>\n"
                                                  "<command-args>src</command-args>"))
    (found,) = read_sources("claude-code", [source]).found
    assert any("no-reply" in p.code for p in found[2].problems)


def test_a_session_that_continues_another_file_stays_a_run_with_its_calls_unknown(tmp_path: Path):
    # its first record names a parent this file does not hold: the work is elsewhere, unknown
    source = _session(tmp_path, _user("c1", "elsewhere", "<command-name>/exit</command-name>\n"
                                                         "<command-args></command-args>"))
    (found,) = read_sources("claude-code", [source]).found
    assert any(p.code == "calls-may-be-missing" for p in found[2].problems)
