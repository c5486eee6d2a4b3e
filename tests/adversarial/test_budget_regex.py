"""A catastrophic regex in any position ends its assertion with the budget's ERROR.

The pattern ``^(a|aa)+$`` backtracks exponentially on a run of ``a`` followed by
one other character. Each test asserts the verdict and that the message names
the budget; none measures time. The rules use a small regex budget so the
suite stays quick; the budget is per assertion, so sixty hostile elements cost
one budget, not sixty.
"""

from __future__ import annotations

import json

import pytest

from budget_corpus import make_run, rules_for, verdicts
from referee.engine.regexes import name_matcher
from referee.engine.verdict import Outcome

EVIL = "^(a|aa)+$"
BAIT = "a" * 60 + "!"
TIMEOUT = 0.05


def _only(workspace, check: str, **run):
    make_run(workspace, **run)
    (verdict,) = verdicts(workspace, rules_for(check), regex_timeout=TIMEOUT)
    return verdict


def _assert_budget_error(verdict) -> None:
    assert verdict.outcome is Outcome.ERROR, verdict
    assert verdict.message.startswith("stopped: this assertion exceeded its budget of 0.05s of regex matching")
    assert "(a|aa)+" in verdict.message


CALL = ("search", json.dumps({"q": BAIT}), '{"ok": true}', "success")


@pytest.mark.parametrize("check", [
    f"any calls to /{EVIL}/",
    f"no calls to /{EVIL}/",
    f"exists calls to /{EVIL}/ with status success",
    f"response matches /{EVIL}/",
    f"response fully matches /(a|aa)+/",
    f"any calls where .args.q matches /{EVIL}/",
    f"all calls have .args.q matches /{EVIL}/",
    f"no calls have .args.q fully matches /(a|aa)+/",
    f'any file "log.txt" as lines where . matches /{EVIL}/',
    f"any calls to \"{BAIT}\" or response matches /{EVIL}/",
    f'any calls to /{EVIL}/ before calls to "search"',
    f"count(calls to /{EVIL}/) == 1",
    f"not (response matches /{EVIL}/)",
], ids=["tool-any", "tool-no", "tool-exists", "matches", "fully-matches", "where-field",
        "have-field", "have-fully", "lines-where", "under-or", "before", "count", "negated"])
def test_catastrophic_regex_is_the_budget_error(tmp_path, check):
    calls = [(BAIT, "{}", "{}", "success"), CALL]
    verdict = _only(tmp_path, check, calls=calls, response=BAIT, files={"log.txt": BAIT + "\n"})
    _assert_budget_error(verdict)


def test_sixty_hostile_elements_cost_one_budget(tmp_path):
    """Per element, the old timeout made an assertion over sixty texts cost sixty
    timeouts and say only that some elements errored."""
    calls = [CALL] * 60
    verdict = _only(tmp_path, f"all calls have .args.q matches /{EVIL}/", calls=calls)
    _assert_budget_error(verdict)
    assert "of 60 calls" not in verdict.message


def test_other_assertions_are_still_graded(tmp_path):
    make_run(tmp_path, calls=[CALL], response="fine")
    rules = rules_for(f"response matches /{EVIL}/ or any calls where .args.q matches /{EVIL}/",
                      'response contains "fine"')
    first, second = verdicts(tmp_path, rules, regex_timeout=TIMEOUT)
    _assert_budget_error(first)
    assert second.outcome is Outcome.PASS


def test_name_matcher_answers_through_the_timed_path():
    evil = name_matcher("regex", EVIL, "", timeout=TIMEOUT)
    assert evil(BAIT) is None  # undecided: the shared time ran out
    assert evil("aaaa") is None  # and stays spent for every later name
    plain = name_matcher("regex", "^save", "i", timeout=TIMEOUT)
    assert plain("SaveDoc") is True and plain("load") is False
    assert name_matcher("glob", "*Doc", timeout=TIMEOUT)("saveDoc") is True
    assert name_matcher("exact", "saveDoc")("saveDoc") is True
    assert name_matcher("regex", "(unclosed", timeout=TIMEOUT)("x") is None


def test_a_catastrophic_tool_pattern_meets_the_agents_notes_under_the_timeout():
    # The trust check matches tool names the agent wrote in its notes against the
    # pattern; that match goes through the timed path too, so it cannot stall a grade.
    import referee
    from referee.engine.run.memory import memory_run

    notes = "## [agent_notes] Step 1: done\nI called " + "a" * 40 + "b successfully.\n"
    run = memory_run({"outputs/transcript.md": notes})
    (result,) = referee.grade('eval 1\nexpect: any calls to /^(a+)+$/\n', run)
    assert result.expectations[0]["outcome"] in ("fail", "error")
