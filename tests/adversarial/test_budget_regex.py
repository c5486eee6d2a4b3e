"""A catastrophic regex gets the verdict its meaning gives, the same on any machine.

The pattern ``^(a|aa)+$`` backtracks exponentially on a run of ``a`` followed by
one other character, and it used to end in a timeout that was an ERROR on a
loaded machine and a verdict on an idle one. It now runs on the linear-time
engine: in every position it is decided exactly as its harmless equivalent
``^a+$``. The patterns only the backtracking engine runs meet deterministic
guards instead: a nested shape is refused when the rules are compiled, and a
text past ``BACKTRACK_TEXT_LIMIT`` characters is an ERROR that says so. No test
measures time.
"""

from __future__ import annotations

import json

import pytest

from budget_corpus import make_run, rules_for, verdicts
from referee import dsl
from referee.engine.regexes import BACKTRACK_TEXT_LIMIT, compile_regex, name_matcher
from referee.engine.verdict import Outcome

EVIL = "^(a|aa)+$"
TAME = "^a+$"  # what EVIL means
BAIT = "a" * 60 + "!"
CALL = ("search", json.dumps({"q": BAIT}), '{"ok": true}', "success")
CHECKS = [
    "any calls to /{p}/",
    "no calls to /{p}/",
    "exists calls to /{p}/ with status success",
    "response matches /{p}/",
    "any calls where .args.q matches /{p}/",
    "all calls have .args.q matches /{p}/",
    'any file "log.txt" as lines where . matches /{p}/',
    'any calls to "{bait}" or response matches /{p}/',
    'any calls to /{p}/ before calls to "search"',
    "count(calls to /{p}/) == 1",
    "not (response matches /{p}/)",
]


def _outcomes(workspace, pattern: str, texts: str) -> list:
    checks = [c.format(p=pattern, bait=BAIT) for c in CHECKS]
    make_run(workspace, calls=[(BAIT, "{}", "{}", "success"), CALL, ("aaaa", "{}", "{}", "success")],
             response=texts, files={"log.txt": texts + "\n"})
    return [(v.outcome, v.message.replace(pattern, "P")) for v in verdicts(workspace, rules_for(*checks))]


@pytest.mark.parametrize("texts", [BAIT, "aaaa", "a" * 30_000 + "!"], ids=["bait", "match", "long"])
def test_a_catastrophic_regex_is_decided_as_its_meaning_says(tmp_path, texts):
    evil = _outcomes(tmp_path / "evil", EVIL, texts)
    assert evil == _outcomes(tmp_path / "tame", TAME, texts)
    assert Outcome.ERROR not in {outcome for outcome, _ in evil}


def test_the_tool_name_matcher_decides_a_catastrophic_pattern():
    evil = name_matcher("regex", EVIL)
    assert evil(BAIT) is False and evil("aaaa") is True
    plain = name_matcher("regex", "^save", "i")
    assert plain("SaveDoc") is True and plain("load") is False
    assert name_matcher("glob", "*Doc")("saveDoc") is True
    assert name_matcher("exact", "saveDoc")("saveDoc") is True
    assert name_matcher("regex", "(unclosed")("x") is None


def test_a_catastrophic_tool_pattern_meets_the_agents_notes_with_a_verdict():
    import referee
    from referee.engine.run.memory import memory_run

    notes = "## [agent_notes] Step 1: done\nI called " + "a" * 40 + "b successfully.\n"
    run = memory_run({"outputs/transcript.md": notes})
    (result,) = referee.grade("eval 1\nexpect: any calls to /^(a+)+$/\n", run)
    assert result.expectations[0]["outcome"] == "fail"


@pytest.mark.parametrize("pattern", ["(?=a)(a+)+$", r"(\w)(\1|a)+!", r"(?<!x)(a|aa)*b"])
def test_a_nested_shape_the_linear_engine_cannot_run_is_refused_at_compile(pattern):
    with pytest.raises(dsl.RulesError) as caught:
        from referee.engine.compile import compile_rules

        compile_rules([dsl.parse_rules(rules_for(f"response matches /{pattern}/"), "r.rules")])
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "bad-regex"
    assert "needs the backtracking engine" in diagnostic.message
    assert "exponential time" in diagnostic.message


def test_a_backtracking_pattern_reads_a_bounded_text(tmp_path):
    near = "x" * (BACKTRACK_TEXT_LIMIT - 4) + "done"
    make_run(tmp_path, response=near + "!", files={"log.txt": near})
    rules = rules_for(r"response matches /(?<=x)done/", r'file "log.txt" matches /(?<=x)done/')
    over, within = verdicts(tmp_path, rules)
    assert over.outcome is Outcome.ERROR
    assert over.message == (f"regex /(?<=x)done/ needs the backtracking engine (it uses a lookaround), "
                            f"which scans at most {BACKTRACK_TEXT_LIMIT:,} characters; response.md has "
                            f"{BACKTRACK_TEXT_LIMIT + 1:,}")
    assert within.outcome is Outcome.PASS


def test_word_boundaries_next_to_non_ascii_letters_are_exact(tmp_path):
    make_run(tmp_path, response="Straße ist fertig.\nsaïd ok\n")
    rules = rules_for(r"response matches /\bfertig\b/", r"response matches /\bid\b/",
                      r"response matches /\bsa/", r"not (response matches /(\bï|x)+d/)")
    assert [v.outcome for v in verdicts(tmp_path, rules)] == [Outcome.PASS, Outcome.FAIL, Outcome.PASS,
                                                              Outcome.ERROR]


def test_an_unsafe_boundary_pattern_is_an_error_only_where_it_needs_backtracking(tmp_path):
    make_run(tmp_path, response="plain ascii words\n")
    (verdict,) = verdicts(tmp_path, rules_for(r"response matches /(\bw|o)+rds/"))
    assert verdict.outcome is Outcome.PASS
    pattern = compile_regex(r"(\bw|o)+rds", "")
    with pytest.raises(Exception, match="needs the backtracking engine on the text"):
        pattern.search("wörds", "the text")
