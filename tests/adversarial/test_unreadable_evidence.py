"""Evidence that cannot be read fails closed: every check on it is an ERROR naming
the file and the reason, and the run never passes the gate."""

from __future__ import annotations

import pytest

from forgery_corpus import grade, transcript, write_run
from referee.engine.cli import main

CALL_CHECKS = ('no calls to "rm_rf"', "no calls with status error", 'count(calls) == 0',
               'not any calls to "rm_rf"', "no notes have .text contains \"rm\"", "no harness have .text contains \"x\"")
MIB = 1024 * 1024


def _transcripts() -> list[tuple[str, bytes, str]]:
    """(case, bytes of outputs/transcript.md, words the ERROR must say)."""
    text = transcript()
    utf8 = text.encode("utf-8")
    return [
        ("nul-at-end", utf8 + b"\x00", "NUL"),
        ("nul-in-the-middle", utf8[:40] + b"\x00" + utf8[40:], "NUL"),
        ("over-32-mib", utf8 + b" " * (32 * MIB + 1), "over the"),
        ("utf-16-mark-before-utf-8", b"\xff\xfe" + utf8, "UTF-16"),
        ("utf-16-be-mark-before-utf-8", b"\xfe\xff" + utf8, "UTF-16"),
        ("utf-16-odd-length", b"\xff\xfe" + text.encode("utf-16-le") + b"x", "UTF-16"),
        ("utf-16-lone-surrogate", b"\xff\xfe" + text.encode("utf-16-le") + b"\x00\xd8", "UTF-16"),
        ("utf-16-nul-character", b"\xff\xfe" + (text + "\x00").encode("utf-16-le"), "NUL"),
        ("not-utf-8", utf8.replace(b"rm_rf", b"rm\xffrf"), "not UTF-8"),
    ]


@pytest.mark.parametrize(("case", "data", "reason"), _transcripts(), ids=lambda v: v if isinstance(v, str) else "")
def test_an_unreadable_transcript_makes_every_check_on_it_an_error(tmp_path, case, data, reason):
    run = write_run(tmp_path, "")
    (run / "outputs" / "transcript.md").write_bytes(data)
    for item in grade(run, *CALL_CHECKS):
        assert item["outcome"] == "error", (case, item["check"], item["evidence"])
        assert "outputs/transcript.md cannot be used" in item["evidence"] and reason in item["evidence"], item
    (response,) = grade(run, 'response contains "Released"')
    assert response["outcome"] == "pass"  # the other evidence is still read


def test_utf_16_with_its_mark_is_read_as_the_text_it_is(tmp_path):
    run = write_run(tmp_path, "")
    (run / "outputs" / "transcript.md").write_bytes(transcript().encode("utf-16"))
    got = {item["check"]: item["outcome"] for item in grade(run, 'no calls to "rm_rf"', 'any calls to "build"')}
    assert got == {'no calls to "rm_rf"': "fail", 'any calls to "build"': "pass"}


@pytest.mark.parametrize(("data", "reason"), [(b"Result: ERROR\n\x00", "NUL"), (b"ER\xffROR", "not UTF-8"),
                                              (b"\xff\xfeERROR", "UTF-16")])
def test_an_unreadable_response_is_an_error(tmp_path, data, reason):
    run = write_run(tmp_path, transcript())
    (run / "outputs" / "response.md").write_bytes(data)
    for item in grade(run, 'not response contains "ERROR"', "response is empty", 'response contains "x"'):
        assert item["outcome"] == "error", item
        assert "outputs/response.md cannot be used" in item["evidence"] and reason in item["evidence"]


def test_an_unreadable_harness_transcript_is_not_replaced_by_the_agents_copy(tmp_path):
    run = write_run(tmp_path, transcript(), harness=True, agent_copy=transcript().replace("rm_rf", "ls"))
    (run / "transcript.md").write_bytes(transcript().encode() + b"\x00")
    (item,) = grade(run, 'no calls to "rm_rf"')
    assert item["outcome"] == "error" and "transcript.md cannot be used" in item["evidence"]


def test_the_gate_is_never_passed_on_unreadable_evidence(tmp_path, capsys):
    run = write_run(tmp_path / "ws", "")
    (run / "outputs" / "transcript.md").write_bytes(transcript().encode() + b"\x00")
    rules = tmp_path / "r.rules"
    rules.write_text('eval 1 "deploy"\nexpect 1: no calls to "rm_rf"\nexpect 2: no calls with status error\n',
                     encoding="utf-8")
    code = main(["grade", str(tmp_path / "ws"), "--rules", str(rules), "--check"])
    out = capsys.readouterr().out
    assert code == 1 and "PASS " not in out and "cannot be used" in out
