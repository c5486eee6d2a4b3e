"""A long text is put in the form text tests compare it in once per run, not once per check.

Every check that read a response written decomposed (NFD, as macOS writes files) put
it in NFC again: on 2 M decomposed characters, about a second per check, so ten
checks on one response cost ten normalisations. The forms of a run's long texts are
now kept for the run (``checks.folding.kept_in``); a form is a function of its text
alone, so verdicts and evidence are those made without keeping them."""

from __future__ import annotations

from referee import dsl
from referee.engine.checks import folding
from referee.engine.compile import compile_rules
from referee.engine.checks.base import Context
from referee.engine.evaluate import evaluate, evaluate_assertion
from referee.engine.run.memory import memory_run

RESPONSE = "Ana Mu\u0308ller\n" + "Caf" + "e\u0301 " * 3000 + "\nend with STRASSE\n"
CHECKS = ['response contains "Müller"', 'not response contains "xyz"', 'response starts with "Ana Mü"',
          'response ends with "STRASSE\\n"', 'response contains "MÜLLER" ignoring case', 'response != "x"',
          'response contains "end"', 'response contains "é é é"', 'not response contains "q" ignoring case',
          'response > "Ana"', 'response contains "straße" ignoring case', 'response == "ana" ignoring case']


def _program():
    return compile_rules([dsl.parse_rules("eval 1\n" + "".join(f"expect: {c}\n" for c in CHECKS), "c.rules")],
                         None).evals[0]


def _counting(monkeypatch) -> list[tuple[str, bool]]:
    """The long texts put in a form, with whether ignoring case, as they are made."""
    made: list[tuple[str, bool]] = []
    text_form, folded_of = folding._text_form, folding.Folded._of.__func__

    def counted_form(text: str, ignore_case: bool) -> str:
        if len(text) > 1000:
            made.append(("form", ignore_case))
        return text_form(text, ignore_case)

    def counted_of(cls, written: str, ignore_case: bool):
        if len(written) > 1000:
            made.append(("folded", ignore_case))
        return folded_of(cls, written, ignore_case)

    monkeypatch.setattr(folding, "_text_form", counted_form)
    monkeypatch.setattr(folding.Folded, "_of", classmethod(counted_of))
    return made


def test_ten_checks_on_one_response_put_it_in_each_form_once(monkeypatch):
    made = _counting(monkeypatch)
    verdicts = evaluate(_program(), memory_run({"outputs/response.md": RESPONSE}))
    assert [v.outcome.value for v in verdicts] == ["pass"] * 11 + ["fail"], [v.message for v in verdicts]
    assert sorted(set(made)) == sorted(made), made  # each form of the text made once
    assert made.count(("folded", False)) == 1 and made.count(("folded", True)) == 1, made


def test_the_next_run_makes_its_own_forms(monkeypatch):
    made = _counting(monkeypatch)
    program = _program()
    evaluate(program, memory_run({"outputs/response.md": RESPONSE}))
    first = len(made)
    evaluate(program, memory_run({"outputs/response.md": RESPONSE}))
    assert len(made) == 2 * first


def test_kept_forms_give_the_verdicts_made_without_them(monkeypatch):
    program = _program()
    kept = evaluate(program, memory_run({"outputs/response.md": RESPONSE}))
    monkeypatch.setattr(folding, "_LONG", len(RESPONSE) + 1)  # no text long enough to keep
    alone = evaluate(program, memory_run({"outputs/response.md": RESPONSE}))
    assert [(v.outcome, v.message, v.evidence) for v in kept] == [(v.outcome, v.message, v.evidence) for v in alone]


def test_an_assertion_graded_alone_gives_the_verdict_it_gets_with_its_run():
    """``evaluate`` keeps the forms for the whole run; an assertion graded alone on a
    fresh context (as critique grades a mutant) makes them itself, to the same verdict."""
    program = _program()
    together = evaluate(program, memory_run({"outputs/response.md": RESPONSE}))
    alone = [evaluate_assertion(a, Context(memory_run({"outputs/response.md": RESPONSE}), dict(program.lets)))
             for a in program.assertions]
    assert [(v.outcome, v.message, v.evidence) for v in alone] == [(v.outcome, v.message, v.evidence)
                                                                  for v in together]
