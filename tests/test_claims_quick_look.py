"""The quick look for a tool's name before the notes' claims are read never drops a
claim: wherever the full reading (``notes_claiming`` over ``claimed_tools``) finds
one, ``may_be_claimed`` says to read. The full reading is the reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dsl import ast
from referee.engine.checks import trust
from referee.engine.checks.trust import claimed_tools, may_be_claimed, notes_claiming, searchable
from referee.engine.run.memory import memory_run

# Names built from letters that differ only in case, separators, and letters a
# case-insensitive match folds to ASCII: the cases the look must not get wrong.
_LETTERS = st.sampled_from(list("aAsSkKrReE_-.:/") + ["\u017f", "\u212a", "\u0131"])
_NAME = st.builds(lambda head, rest: head + "".join(rest), st.sampled_from(list("aAsSkK")),
                  st.lists(_LETTERS, min_size=2, max_size=8))
_PATTERN = st.one_of(
    st.builds(lambda text: ast.NamePattern("exact", text), _NAME),
    st.builds(lambda a, b, wild: ast.NamePattern("glob", a + wild + b), _NAME, _NAME,
              st.sampled_from(["*", "?", "", "[sS]", "*-"])),
    st.builds(lambda a: ast.NamePattern("glob", "*" + a), _NAME),
    st.builds(lambda a: ast.NamePattern("regex", a, "i"), st.sampled_from(["^s.*k$", "ask", "(?i)SAK"])))
_SAYING = st.sampled_from(["I called {} for it.", "Ran {} again.", "{} succeeded.", "已调用 {}",
                           "We used the tool `{}` here.", "I did not call {}."])


def _run(named: list[tuple[str, str]]):
    notes = "".join(f"## [agent_notes] Step {n}: note\n{saying.format(name)}\n\n"
                    for n, (saying, name) in enumerate(named, 2))
    transcript = ("## [tool_calls] Step 1: other\nTool: other_tool\nArgs: {}\nReturn: {}\nStatus: success\n\n"
                  + notes)
    return memory_run({"outputs/transcript.md": transcript, "outputs/response.md": "Done."})


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_SAYING, _NAME), min_size=1, max_size=3), _PATTERN)
def test_the_quick_look_reads_the_notes_wherever_they_claim_the_tool(named, pattern):
    run = _run(named)
    if notes_claiming(claimed_tools(run), pattern):
        assert may_be_claimed(searchable(run), pattern)


def test_a_name_no_note_mentions_is_not_looked_for():
    run = _run([("I called {} for it.", "saveRecord")])
    assert notes_claiming(claimed_tools(run), ast.NamePattern("exact", "svc_saveRecord"))
    assert may_be_claimed(searchable(run), ast.NamePattern("exact", "svc_saveRecord"))
    assert not may_be_claimed(searchable(run), ast.NamePattern("exact", "DeleteRecord"))
    assert not may_be_claimed(searchable(run), ast.NamePattern("glob", "*deleteRecord"))
    assert may_be_claimed(searchable(run), ast.NamePattern("regex", "delete"))  # a regex: always read


# Text as notes hold it: letters in both cases, separators, and letters outside ASCII
# whose cases are not ASCII's (the ones that fold to ASCII make searchable give None).
_TEXT = st.text(alphabet=st.sampled_from(list("aAsSkKiIrR_-. \n") + ["\u00e9", "\u00c9", "\u03c3", "\u03a3", "\u0130", "\u212a", "\u017f"]),
                max_size=40)


@settings(max_examples=200, deadline=None)
@given(_TEXT, st.text(alphabet=st.sampled_from(list("aAsSkKiIrR_-.")), min_size=1, max_size=4))
def test_the_look_finds_a_name_in_any_case_where_the_lower_cased_text_holds_it(text, segment):
    # The reference: the text and the name lower-cased, a substring test.
    found = trust._anycase(segment).search(text) is not None
    if not any(letter in text for letter in trust._FOLDS_TO_ASCII):
        assert found == (segment.lower() in text.lower())
