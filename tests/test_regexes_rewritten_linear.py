"""Scans that read a long run of one character again from each of its characters (a
time growing with the square of its length: 20,000 "<" in a run's text took 17 s to
put into the LLM grader's prompt), and the response's number claims, which read the
line again around each number, were rewritten to read each once. Each must give
exactly what it gave: the old form is kept here as the reference."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from referee.engine.checks import html_headings, textparts
from referee.engine.facts import claims
from referee.engine.report import inert, markdown_text
from referee.llm_adapter import prompt, quotes, verify

OLD_FAKE_MARK = re.compile(r"<{2,}(\s*/?\s*(?:END\s*)?RUN[-_ ]?DATA)", re.IGNORECASE)
OLD_REFERENCE = re.compile(r"([\w./-]*)(#|GH-)(?=\d)", re.IGNORECASE)
OLD_NUMBERING = re.compile(r"\d+[.)]\s+")
OLD_TAG = re.compile(r"<[^>]*>")
OLD_LINE_START_COMMAND = re.compile(r"^(\s*):(?=:)", re.MULTILINE)
OLD_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")
OLD_ADDRESSED = re.compile(
    r"ignore\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|earlier)\s+"
    r"(?:instructions|rules|prompts?)|\"verdict\"\s*:|<\s*<+\s*/?\s*(?:end\s*)?run[-_ ]?data"
    r"|(?:mark|grade|score)\s+(?:every|all|each)\s+(?:expectations?|assertions?)\s+(?:as\s+)?pass"
    r"|(?:every|all|each)\s+(?:expectations?|assertions?)\s+(?:is|are)\s+(?:\w+\s+)?"
    r"(?:pass|passed|satisfied|met)\b|\bverdict\s*[:=]\s*\"?pass\b",
    re.IGNORECASE)


def _texts(alphabet: str, *words: str) -> st.SearchStrategy[str]:
    """Text of these characters and words, runs of them likely."""
    piece = st.sampled_from([*alphabet, *words])
    return st.lists(st.one_of(piece, piece.map(lambda c: c * 3)), max_size=30).map("".join)


BLANKS = st.sampled_from(["", " ", "  ", "\n", "\t "])
# Delimiters and near ones: runs of "<" with blanks between, "/", "END", "RUN", "DATA"
# as the prompt writes them, in either case, or a piece of one missing.
DELIMITER = st.tuples(st.sampled_from(["", "<", "<<", "<<<<"]), BLANKS, st.sampled_from(["", "<", "<<", "<<<"]),
                      BLANKS, st.sampled_from(["", "/"]), BLANKS, st.sampled_from(["", "END", "end ", "End\n"]),
                      st.sampled_from(["RUN", "run", "rn", ""]), st.sampled_from(["", "-", "_", " ", "--"]),
                      st.sampled_from(["DATA", "data", "dat"])).map("".join)
NEAR_DELIMITERS = st.lists(st.one_of(DELIMITER, _texts("< x\n")), max_size=6).map("".join)


@settings(max_examples=400)
@given(NEAR_DELIMITERS)
def test_the_prompts_fake_delimiters_are_defused_as_before(text):
    assert prompt.defuse(text) == OLD_FAKE_MARK.sub(lambda m: "< <" + m.group(1), text)


@settings(max_examples=400)
@given(_texts("aG H-#1/._x@é٣", "GH-", "gh-"))
def test_references_are_found_as_before(text):
    new = markdown_text._REFERENCE
    assert [m.span() + m.groups() for m in new.finditer(text)] == \
        [m.span() + m.groups() for m in OLD_REFERENCE.finditer(text)]


@settings(max_examples=400)
@given(_texts("12٣.) \t\nx"))
def test_a_titles_numbering_is_found_as_before(text):
    assert textparts._NUMBERING.sub("", text, count=1) == OLD_NUMBERING.sub("", text, count=1)


@settings(max_examples=400)
@given(_texts("<>a /\n"))
def test_tags_are_taken_out_as_before(text):
    assert html_headings._without_tags(text) == OLD_TAG.sub("", text)


@settings(max_examples=400)
@given(_texts(": \n\t\r\xa0x#["))
def test_workflow_commands_are_escaped_as_before(text):
    old = OLD_LINE_START_COMMAND.sub(lambda m: m.group(1) + "&#58;", text.replace("##[", "##&#91;"))
    assert inert.log_safe(text, "&#91;", "&#58;") == old


@settings(max_examples=400)
@given(_texts(". …\n\tab\xa0"))
def test_a_quotes_parts_are_split_as_before(quote):
    assert quotes._parts(quote, headed=False) == [p for p in OLD_ELLIPSIS.split(quote.strip()) if p.strip()]


@settings(max_examples=400)
@given(st.one_of(NEAR_DELIMITERS, _texts(" \nx\"", "ignore", "all", "previous", "instructions", "verdict",
                                         ":", "every", "assertion", "is", "pass", "mark", "=")))
def test_text_addressed_to_the_grader_is_found_as_before(text):
    assert (verify.ADDRESSED.search(text) is None) == (OLD_ADDRESSED.search(text) is None)


OLD_MONTH_BEFORE = re.compile(rf"\b{claims._MONTH}\s+$", re.IGNORECASE)


def _old_clause(line: str, offset: int) -> str:
    begin = 0
    for found in claims._CLAUSE_END.finditer(line, 0, offset):
        begin = found.end()
    end = claims._CLAUSE_END.search(line, offset)
    return line[begin: end.start() if end else len(line)]


@settings(max_examples=400)
@given(_texts(" .,;:!?。，\n-x", "May", "sept.", "Mayday", "jun", "12", "1,250", "3.5", "+7", "日", "the total"))
def test_a_numbers_date_and_clause_are_found_as_before(line):
    after_month = {found.end() for found in claims._MONTH_BLANKS.finditer(line)}
    clauses = [found.span() for found in claims._CLAUSE_END.finditer(line)]
    for match, _ in claims._stated(line):
        assert claims._is_date_part(line, match, after_month) == (
            claims._DATE_SUFFIX.match(line, match.end()) is not None
            or claims._MONTH_AFTER.match(line, match.end()) is not None
            or OLD_MONTH_BEFORE.search(line, 0, match.start()) is not None)
        begin, end = claims._clause(match.start(), clauses, len(line))
        assert line[begin:end] == _old_clause(line, match.start())
