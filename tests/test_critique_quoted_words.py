"""What an assertion reads of a call (its arguments, what it returned, whether it
succeeded) is read off the rule, not off the words it quotes: a note that must
contain "status success" or "x.return" does not make the rule about the call's
status or its return, and failing the call or changing its return need not fail it."""

from __future__ import annotations

import pytest

import critique_one
from critique_one import transcript

NOTE = "read it when status success or status error is shown, see x.return and .args"
RUN = {"outputs/transcript.md": transcript(("Read", {"note": NOTE}), ("Write", {"path": "b.md"})),
       "outputs/response.md": "Done.\n"}


def critique(check: str):
    return critique_one.critique(check, RUN)


def must_fail(result) -> dict[str, bool]:
    return {t.mutant: t.must_fail for t in result.tried}


@pytest.mark.parametrize("quoted", ["status success", "x.return", "status error"])
def test_quoted_words_claim_nothing_about_the_call(quoted):
    found = critique(f'any calls to "Read" have .args.note contains "{quoted}"')
    assert not found.weak, found.reasons()
    assert must_fail(found)["alter-args"] is True
    assert must_fail(found).get("alter-return") is False
    assert must_fail(found).get("status-error") is False


def test_what_the_rule_reads_is_still_tested():
    found = critique('any calls to "Read" with status success have .return == "ok"')
    assert must_fail(found)["alter-return"] is True and must_fail(found)["status-error"] is True
