"""OpenAI-format sources the tests of the OpenAI importer write and grade.

A test writes a JSON value as a source (``json_file``) and grades it as eval 1
(``outcomes``, ``graded`` with the run's problems). Two runs are built by many:
a chat whose assistant writes a call as its text before the user's "done"
(``call_in_text``, graded by ``CALL_IN_TEXT_RULES``), and a mini-swe-agent run
whose agent writes one command in a bash fence (``mini_swe_agent_run``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import referee

# what a call written as text leaves unknown (the calls) and what it does not (no reply is its words)
CALL_IN_TEXT_RULES = ('eval 1\nexpect 1: no calls to "bash"\nexpect 2: count(calls) == 0\n'
                      'expect 3: not response contains "rm"\n')


def json_file(source: Path, value: Any, indent: int | None = None) -> Path:
    """``source``, written to hold ``value`` as JSON."""
    source.write_text(json.dumps(value, indent=indent), encoding="utf-8")
    return source


def graded(rules: str, source: Path) -> tuple[list[str], list[str]]:
    """The outcomes of ``rules`` on the one run of ``source``, graded as eval 1, and
    the problems its grading says."""
    result, = referee.grade(rules, source, as_eval="1")
    return [item["outcome"] for item in result.expectations], result.grading["problems"]


def checks_graded(source: Path, checks: list[str]) -> tuple[list[str], list[str]]:
    """``graded`` of one eval whose assertions are ``checks``, one each."""
    return graded("eval 1\n" + "".join(f"expect: {check}\n" for check in checks), source)


def outcomes(rules: str, source: Path) -> list[str]:
    """The outcomes of ``rules`` on the one run of ``source``, graded as eval 1."""
    return graded(rules, source)[0]


def call_in_text(text: str) -> list[dict]:
    """A chat whose assistant answers "clean up" with ``text`` (a call written as text,
    or words), and "All clean." after the user's "done"."""
    return [{"role": "user", "content": "clean up"}, {"role": "assistant", "content": text},
            {"role": "user", "content": "done"}, {"role": "assistant", "content": "All clean."}]


def call_in_text_outcomes(tmp_path: Path, text: str, rules: str = CALL_IN_TEXT_RULES) -> list[str]:
    """The outcomes of ``rules`` on ``call_in_text(text)`` written as chat.json."""
    return outcomes(rules, json_file(tmp_path / "chat.json", call_in_text(text)))


def mini_swe_agent_run(source: Path, task: str, command: str, answer: Any, last: str) -> Path:
    """``source``, a mini-swe-agent run (``{"messages": [...]}``) whose agent answers
    ``task`` with ``command`` in a bash fence, the harness with ``answer`` (a user
    turn's content), and the agent with ``last``."""
    messages = [{"role": "user", "content": task},
                {"role": "assistant", "content": f"THOUGHT: I will delete them.\n\n```bash\n{command}\n```"},
                {"role": "user", "content": answer},
                {"role": "assistant", "content": last}]
    return json_file(source, {"messages": messages})
