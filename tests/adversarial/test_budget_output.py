"""What a verdict copies from a hostile run is bounded, and says it was cut.

A tool name of megabytes used to be copied into every message, quote and report
(a 20 MB name made a 100 MB grading.json); thousands of calls made a list of
thousands of places. Sizes are asserted, never times.
"""

from __future__ import annotations

import json
import subprocess
import sys

from budget_corpus import make_run, rules_for, verdicts
from hypothesis import given
from hypothesis import strategies as st
from referee.engine.caps import DETAIL_LIMIT, EVIDENCE_KEPT, MESSAGE_LIMIT, QUOTE_LIMIT, capped, cut
from referee.engine.verdict import Evidence, Outcome, Verdict

NAME = "A" * (4 * 1024 * 1024)
CHECKS = ('first(calls).tool == "y"', 'no calls have .args.a == 1',
          'count(calls to glob "A*") == 2', 'all calls have .status == "success"')


def test_a_huge_tool_name_is_cut_in_every_verdict(tmp_path):
    make_run(tmp_path, calls=[(NAME, '{"a": 1}', "{}", "success"), ("ok", '{"a": 1}', "{}", "error")])
    got = verdicts(tmp_path, rules_for(*CHECKS))
    assert [v.outcome for v in got] == [Outcome.FAIL] * 4
    for verdict in got:
        assert len(verdict.message) < MESSAGE_LIMIT + 100
        assert all(len(e.quote) < QUOTE_LIMIT + 100 for e in verdict.evidence)
    assert got[0].message.endswith("characters in all]")


def test_reports_stay_small_with_a_huge_tool_name(tmp_path):
    run = make_run(tmp_path / "ws", calls=[(NAME, '{"a": 1}', "{}", "success")])
    rules = tmp_path / "r.rules"
    rules.write_text(rules_for(*CHECKS), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee.engine.cli", "grade", str(tmp_path / "ws"),
                           "--rules", str(rules)], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr[-2000:]
    truth = json.loads((run / "ground_truth.json").read_text(encoding="utf-8"))
    assert (run / "ground_truth.json").stat().st_size < 30_000
    for check in truth["checks"]:
        assert len(check["evidence"]) < MESSAGE_LIMIT + 2 * QUOTE_LIMIT + 500


def test_thousands_of_places_are_cut_to_the_first(tmp_path):
    make_run(tmp_path, calls=[("save", '{"n": 1}', "{}", "success")] * 2_000)
    (verdict,) = verdicts(tmp_path, rules_for('all calls have .status == "success"'))
    assert verdict.outcome is Outcome.PASS
    assert len(verdict.evidence) == EVIDENCE_KEPT
    assert verdict.message.endswith(f"(evidence: the first {EVIDENCE_KEPT} of 4,000 places)")


def test_cutting_places_never_leaves_notes_alone():
    notes = tuple(Evidence("agent_notes", "outputs/transcript.md", n) for n in range(1, 80))
    call = Evidence("tool_calls", "outputs/transcript.md", 200, 3)
    verdict = capped(Verdict(Outcome.PASS, "ok", notes + (call,)))
    assert len(verdict.evidence) == EVIDENCE_KEPT
    assert call in verdict.evidence


def test_small_verdicts_are_untouched():
    verdict = Verdict(Outcome.FAIL, "x is 1, expected 2", (Evidence("response", quote="q"),))
    assert capped(verdict) is verdict
    assert cut("short", 10) == "short"
    note = "… [cut: 200 characters in all]"
    assert cut("x" * 200, 100) == "x" * (100 - len(note)) + note


@given(st.text(max_size=3000), st.sampled_from([MESSAGE_LIMIT, QUOTE_LIMIT, DETAIL_LIMIT]))
def test_a_cut_text_fits_its_limit_and_cutting_again_changes_nothing(text, limit):
    once = cut(text, limit)
    assert len(once) <= limit and cut(once, limit) == once
    assert once == text or once.endswith(f"[cut: {len(text):,} characters in all]")


def test_a_verdict_bounded_twice_still_says_how_long_its_message_was():
    # Bounded where it is made and again in its report: the second must not count the first's text.
    verdict = Verdict(Outcome.FAIL, "x" * 3000, tuple(Evidence("response", quote="q" * 900) for _ in range(60)))
    once = capped(verdict)
    assert capped(once) == once
    assert len(once.message) == MESSAGE_LIMIT and once.message.endswith("… [cut: 3,038 characters in all]")
    assert once.evidence[0].quote.endswith("[cut: 900 characters in all]")
