"""'with status success' and 'with status error' read what a status word says.

A transcript may say ``Status: failed``: kept as written, the call was neither a
success nor an error, so 'no calls with status error' passed over a call that
failed. The words that say one thing (``failed``, ``failure``; ``ok``,
``succeeded``, ``completed``) are read so; any other word (``timeout``) may mean
either, and a check that needs to know is an ERROR, unless another filter drops
the call. A status asked for by another word is matched as written, and a call's
``.status`` is the word as written."""

from __future__ import annotations

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _transcript(*calls: tuple[str, str]) -> str:
    return "".join(f"## [tool_calls] Step {n}: {tool}\nTool: {tool}\nArgs: {{}}\nReturn: {{}}\nStatus: {status}\n\n"
                   for n, (tool, status) in enumerate(calls, 1))


def _outcome(check: str, *calls: tuple[str, str]) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/transcript.md": _transcript(*calls)}))
    return f"{verdict.outcome.value}: {verdict.message}"


@pytest.mark.parametrize("word", ["failed", "Failure", "FAILED"])
def test_a_call_whose_status_says_failed_is_an_error(word: str):
    assert _outcome("no calls with status error", ("saveDoc", word)).startswith("fail")
    assert _outcome('exists calls to "saveDoc" with status error', ("saveDoc", word)).startswith("pass")
    assert _outcome("exists calls with status success", ("saveDoc", word)).startswith("fail")


@pytest.mark.parametrize("word", ["ok", "succeeded", "completed"])
def test_a_call_whose_status_says_ok_is_a_success(word: str):
    assert _outcome('exactly 1 calls to "saveDoc" with status success', ("saveDoc", word)).startswith("pass")
    assert _outcome("no calls with status error", ("saveDoc", word)).startswith("pass")


def test_a_status_that_may_mean_either_is_an_error_for_a_check_that_needs_it():
    found = _outcome("no calls with status error", ("Read", "success"), ("saveDoc", "timeout"))
    assert found.startswith("error"), found
    assert "'timeout'" in found and "transcript.md:11" in found, found
    assert _outcome("count(calls with status success) == 1", ("saveDoc", "timeout")).startswith("error")


def test_another_filter_that_drops_the_call_decides_first():
    calls = (("Read", "success"), ("saveDoc", "timeout"))
    assert _outcome('no calls to "Read" with status error', *calls).startswith("pass")
    assert _outcome('no calls with status error to "Read"', *calls).startswith("pass")


def test_another_word_asked_for_is_matched_as_written():
    assert _outcome("exactly 1 calls with status timeout", ("saveDoc", "timeout")).startswith("pass")
    assert _outcome("no calls with status failed", ("saveDoc", "error")).startswith("pass")
    assert _outcome('first(calls).status == "failed"', ("saveDoc", "failed")).startswith("pass")


def test_a_call_never_answered_is_neither_for_certain():
    # the importers' status of a call whose result never came
    assert _outcome("no calls with status error", ("saveDoc", "no_result")).startswith("pass")
    assert _outcome("no calls with status success", ("saveDoc", "no_result")).startswith("pass")
