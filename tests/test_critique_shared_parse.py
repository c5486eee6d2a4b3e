"""The critique's mutants take the identity's parse when their transcript text is its.

A mutant that keeps the run's calls and notes (one that rewrites the response or
an output file) writes the same transcript text as the identity and takes the
file and parse read there; one that changes a call writes other text and is read
and parsed on its own. Which is which is told by the run and its text, not by the mutant.
"""

from __future__ import annotations

from referee.engine.critique.assess import critique_run
from referee.engine.critique.image import image_of, to_run, with_call
from referee.engine.grade import RulesSource
from referee.engine.run import workspace
from referee.engine.run.memory import memory_run

TRANSCRIPT = """## [tool_calls] Step 1: save
Tool: save
Args: {"id": 7}
Return: {"ok": true}
Status: success

## [agent_notes] Step 1
Saved it.
"""
RULES = """eval 1 "x"
expect 1: any calls to "save" have .args.id == 7
expect 2: response contains "Saved"
"""


def _run():
    return memory_run({"outputs/transcript.md": TRANSCRIPT, "outputs/response.md": "Saved record 7."})


def test_the_same_text_takes_the_parse_made_of_it_and_other_text_is_parsed_anew():
    run = _run()
    image = image_of(run)
    identity = to_run(image, run)
    other_reply = image.copy()
    other_reply.response = "Something else."
    same_text = to_run(other_reply, run, parsed_like=identity)
    assert same_text.transcript is identity.transcript and same_text.transcript_file is identity.transcript_file
    assert same_text.response is not None and same_text.response.text == "Something else."
    elsewhere = to_run(image, memory_run(dict(run.files), run_number=2), parsed_like=identity)
    assert elsewhere.transcript is not identity.transcript  # another run's: its problems name its own path
    changed = to_run(with_call(image, 0, args={"id": 8}), run, parsed_like=identity)
    assert changed.transcript is not identity.transcript
    assert changed.transcript.calls[0].args.value == {"id": 8}  # its own text, its own parse


def test_a_critique_parses_each_transcript_text_once(monkeypatch):
    parsed: list[str] = []
    real = workspace.parse_transcript

    def counting(text, *args, **kwargs):
        parsed.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(workspace, "parse_transcript", counting)
    ev = RulesSource((("x.rules", RULES),)).compile().evals[0]
    found: dict = {}
    verdicts = critique_run(ev, _run(), {}, found)
    assert [v.outcome.value for v in verdicts] == ["pass", "pass"]
    assert sum(len(c.tried) for c in found.values()) > 3  # mutants of the response and of the call were graded
    # the run's own text, the identity's (the same calls written anew) and one per
    # mutant that changed the calls: none parsed twice, whatever the response mutants
    assert len(parsed) == len(set(parsed)) >= 3
