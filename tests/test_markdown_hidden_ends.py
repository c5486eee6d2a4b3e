"""A hidden place (an HTML comment, a tag) at a Markdown text's end or start shows
nothing, and neither does the blank between it and the words: ``All done. <!-- x -->``
ends, to its reader, with "All done.", as ``==`` already compares it
(``markdown_equal.compared``). A ``starts with`` or ``ends with`` that misses as written
and hits so shown is an ERROR naming the hidden place, of the check and of its negation."""

from __future__ import annotations

import json

import pytest

from referee import dsl
from referee.engine.compile import compile_rules
from referee.engine.evaluate import evaluate
from referee.engine.run.memory import memory_run


def _response(check: str, text: str) -> str:
    run = memory_run({"outputs/response.md": text})
    program = compile_rules([dsl.parse_rules(f"eval {json.dumps(run.id.eval_id)}\nexpect: {check}\n", "case.rules")])
    (verdict,) = evaluate(program.for_run(run.id, run.metadata), run)
    return f"{verdict.outcome.value}: {verdict.message}"


@pytest.mark.parametrize("check, text", [
    ('trim(response) ends with "done."', "# Report\n\nAll done. <!-- x -->\n"),
    ('not (trim(response) ends with "done.")', "# Report\n\nAll done. <!-- x -->\n"),
    ('section(response, "Report") ends with "done."', "# Report\n\nAll done. <!-- x -->\n"),
    ('response ends with "done.\\n"', "# Report\n\nAll done. <!-- x -->\n"),
    ('not (response starts with "All done.")', "<!-- x --> All done.\n"),
    ('response starts with "All done."', "<span id=\"top\"></span>\n\nAll done.\n"),
])
def test_the_blank_beside_a_hidden_place_at_an_end_is_not_shown(check: str, text: str):
    found = _response(check, text)
    assert found.startswith("error: ") and "only as its Markdown is shown" in found, found
    assert "(an HTML comment, \"<!-- x -->\", at response.md:" in found or "an HTML tag" in found, found


def test_words_other_at_the_end_are_decided():
    text = "# Report\n\nAll done. <!-- x -->\n"
    assert _response('trim(response) ends with "done!"', text).startswith("fail")
    assert _response('trim(response) ends with "-->"', text).startswith("error")  # a hit only where it is hidden
    # the line break at the end is the text's own, with or without the comment; a reader
    # sees none, so without trim() whether it ends so cannot be decided (blank_ends)
    assert _response('response ends with "done."', text).startswith("error")
    assert _response('response ends with "done."', "# Report\n\nAll done.\n").startswith("error")
