"""A record without a Status line does not say whether its call failed.

'no calls with status error' passed over a call whose record gives no Status
line at all, as if it could not have failed. A check that needs such a call's
status is now an ERROR naming it, unless another filter drops the call first."""

from __future__ import annotations

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run

TRANSCRIPT = ('## [tool_calls] Step 1: shop\nTool: shop\nArgs: {}\nReturn: {"a": 1}\n\n'
              "## [tool_calls] Step 2: other\nTool: other\nArgs: {}\nReturn: {}\nStatus: success\n")


def _outcome(check: str) -> str:
    program = compile_rules([dsl.parse_rules(f"eval 1\nexpect: {check}\n", "case.rules")], None)
    (verdict,) = evaluate(program.evals[0], memory_run({"outputs/transcript.md": TRANSCRIPT}))
    return f"{verdict.outcome.value}: {verdict.message}"


def test_a_check_that_needs_the_status_is_an_error():
    for check in ("no calls with status error", 'exactly 1 calls to "shop" with status success'):
        found = _outcome(check)
        assert found.startswith("error") and "step 1 shop" in found and "no Status line" in found, found


def test_a_call_another_filter_drops_is_not_asked():
    assert _outcome('no calls to "other" with status error').startswith("pass")
    assert _outcome('exactly 1 calls with status success to "other"').startswith("pass")
    assert _outcome('count(calls to "shop") == 1').startswith("pass")
