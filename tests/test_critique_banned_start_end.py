"""A rule that forbids the response (or a section) to start or end with some words
is tested by a response that starts or ends with them: the banned words go where
the rule looks, not at the end of the response whatever the rule says."""

from __future__ import annotations

import pytest

import critique_one

REPLY = "# Answer\n\nDone.\n\n## Notes\n\nAll good.\n\n## Sources\n\nnone\n"


def critique(check: str):
    return critique_one.critique(check, {"outputs/response.md": REPLY})


@pytest.mark.parametrize("check, said", [
    ('not response starts with "Sorry"', "starts with 'Sorry'"),
    ('not response ends with "Sorry"', "ends with 'Sorry'"),
    ('not response contains "Sorry"', "contains 'Sorry'"),
    ('not (section(response, "Notes") starts with "TODO")', "starts with 'TODO' under \"Notes\""),
    ('not (section(response, "Notes") ends with "TODO")', "ends with 'TODO' under \"Notes\""),
    ('not (section(response, "Sources") ends with "TODO")', "ends with 'TODO' under \"Sources\""),
])
def test_the_banned_words_stand_where_the_rule_looks(check, said):
    found = critique(check)
    (injected,) = [t for t in found.tried if t.mutant == "inject-text"]
    assert injected.must_fail and not injected.passed, injected.reason
    assert injected.reason == f"passes even when the response {said}"
    assert not found.weak
