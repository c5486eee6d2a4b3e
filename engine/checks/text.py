"""Text tests: ``contains``, ``starts with``, ``ends with``, ``matches`` (search)
and ``fully matches``. A hit is quoted with the line it is on, so evidence points
at ``response.md:3`` rather than at the whole file; that line is looked up in the
file as written (a note's text is trimmed, a JSON string's newlines are escapes on
one line), so the cited line holds the quote. A miss points at the text that was
searched, without quoting any line of it.

A miss that is a hit once the text's invisible format characters are left out (a
zero-width space, a soft hyphen, a word joiner inside "ve\u200bry") is no miss a reader
would grant, nor a hit the text as written holds: it is an ERROR, never a pass of
``not response contains "very"`` on words the reader of the response sees."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from referee.dsl import ast
from referee.dsl.format import format_value
from referee.engine.checks.access import elements
from referee.engine.checks.base import (CheckCompiler, Context, Expr, Leaf, Polarity, decided,
                                        evidence_of, located, missing_verdict)
from referee.engine.checks.compare import same_kinds
from referee.engine.checks.exprs import ELEMENT_OF
from referee.engine.checks.blank_ends import not_at_blank_ends, without_blank_ends
from referee.engine.checks.folding import UNSEEN, as_seen, find_folded, seen_as
from referee.engine.checks.letter_forms import as_letters, not_other_forms
from referee.engine.checks.json_strings import not_escaped
from referee.engine.checks.markdown_equal import compared, not_equal_as_shown
from referee.engine.checks.markdown_hidden import hidden_in_markdown
from referee.engine.checks.nested_holds import structure_holding
from referee.engine.checks.markdown_seen import HIDING, SHOWN_AS, Shown, is_markdown, markup_of, place_in, shown_form
from referee.engine.checks.shapes import compile_shape_check, shape_operand
from referee.engine.regexes import Pattern
from referee.engine.run.transcript import TRANSCRIPT
from referee.engine.checks.lines_read import LinesRead
from referee.engine.text import line_breaks, line_end
from referee.engine.equality import equal
from referee.engine.values import QUOTE_LIMIT, EvalError, Missing, Prov, Val, fold_case, render, short, type_name
from referee.engine.verdict import Evidence, Verdict

if TYPE_CHECKING:
    from referee.engine.run.workspace import Run

_SLACK = 20  # file lines a value's text may lose when read (blank lines, comments)
_LEAD = 40  # characters a quote of a long line shows before the words it is about
VERBS = {"contains": ("contains", "does not contain", "contain"),
         "starts_with": ("starts with", "does not start with", "start with"),
         "ends_with": ("ends with", "does not end with", "end with"),
         "matches": ("matches", "does not match", "match"),
         "fully_matches": ("fully matches", "does not fully match", "fully match")}


def hit_evidence(subject: Val, start: int, raw: LinesRead | None = None) -> tuple[int | None, Evidence | None]:
    """The line holding offset ``start`` of a text value, and evidence quoting it.

    ``raw`` is the file the value was read from, as lines: when given, the line is
    the one of the file that holds the quoted text (see ``_file_line``)."""
    prov, text = subject.prov, subject.value
    if prov is None:
        return None, None
    head = start - 1 if start and text.startswith("\r\n", start - 1) else start  # a \r\n ends one line
    line_no = line_breaks(text, 0, head)
    first = prov.line or 1
    begin = max(text.rfind("\n", 0, head), text.rfind("\r", 0, head)) + 1
    quote = text[begin: line_end(text, head)]
    line = first + line_no if prov.file else None
    if line is not None and raw is not None:
        line = _file_line(raw, prov.line or 1, text, begin, quote, start) or line
    return line, Evidence(prov.source, prov.file, line, prov.step, around(quote, start - begin))


def words_at(text: str, at: int, width: int = 30) -> str:
    """The text from offset ``at`` to the end of its line, cut after a word once
    ``width`` characters are passed (an ellipsis says so)."""
    rest = text[at: line_end(text, at)]
    if len(rest) <= width:
        return rest
    cut = rest.find(" ", width)
    return rest if cut < 0 else rest[:cut] + "…"


def around(line: str, at: int) -> str:
    """A quote of ``line`` that shows offset ``at``: the line itself when it is short,
    else the part of it from a little before ``at`` (a long paragraph on one line is
    quoted at the words that matched, not at its start)."""
    if len(line) <= QUOTE_LIMIT or at < _LEAD:
        return short(line)
    begin = line.rfind(" ", 0, at - _LEAD // 2) + 1 or at - _LEAD
    begin = max(begin, at - _LEAD)
    return "…" + short(line[begin:], QUOTE_LIMIT - 1)


def _file_line(raw: LinesRead, first: int, text: str, begin: int, quote: str, start: int) -> int | None:
    """The file line, from ``first`` on, holding the quoted line of ``text``: the
    n-th file line holding it when it is the n-th line of ``text`` to hold it.
    None when the file does not hold it as written (then the count stands)."""
    for probe in (quote.strip(), text[start: start + 40].split("\n", 1)[0].strip()):
        if not probe:
            continue
        wanted = text.count(probe, 0, begin) + 1  # occurrences before this line, and this one
        seen = 0
        last = first + line_breaks(text) + _SLACK  # never into a later section
        lines = raw.upto(last)
        for number in range(max(first, 1), min(len(lines), last) + 1):
            seen += lines[number - 1].count(probe)
            if seen >= wanted:
                return number
    return None


def source_lines(ctx: Context, prov: Prov | None) -> LinesRead | None:
    """The lines of the run file ``prov`` points into, read once per run and split
    only as far as a hit asks (``lines_read``); None when the value is not from a
    file of the run."""
    if prov is None or not prov.file:
        return None
    file = prov.file
    return ctx.once(("source lines", file), lambda: _read_lines(ctx.run, file))


def _read_lines(run: Run, file: str) -> LinesRead | None:
    for found in (getattr(run, "transcript_file", None), getattr(run, "response", None)):
        if found is not None and found.path == file:
            return LinesRead(found.text) if found.text else None
    if file in (TRANSCRIPT, "outputs/response.md"):  # the run's own record, read above or not at all
        return None
    if file.startswith("outputs/") and hasattr(run, "read_output"):
        found = run.read_output(file.removeprefix("outputs/"))
        return LinesRead(found.text) if found.text else None
    return None


@dataclass
class TextCheck(Leaf):
    op: str
    subject: Expr
    operand: Expr | Pattern  # a Pattern for the regex operators
    ignore_case: bool
    polarity: Polarity

    def decide(self, ctx: Context) -> Verdict:
        subject = self.subject.eval(ctx)
        if isinstance(subject, Missing):
            return missing_verdict(subject)
        if isinstance(self.operand, Pattern):
            return self._regex(ctx, subject, self.operand)
        operand = self.operand.eval(ctx)
        if isinstance(operand, Missing):
            return missing_verdict(operand)
        if self.op == "contains" and type_name(subject.value) == "list":
            return self._list_contains(subject, operand)
        self._need_text(subject, operand)
        return self._plain(ctx, subject, operand)

    def _need_text(self, subject: Val, operand: Val) -> None:
        for val in (subject, operand):
            if not isinstance(val.value, str):
                verb = VERBS[self.op][0]
                raise EvalError(f"'{verb}' needs text on both sides; {val.label} is "
                                f"{type_name(val.value)} {short(render(val.value), 60)}; use text(...)")

    def _plain(self, ctx: Context, subject: Val, operand: Val) -> Verdict:
        text, part = subject.value, operand.value
        start = find_folded(text, part, self.op, self.ignore_case)
        shown = render(fold_case(part) if self.ignore_case else part)
        if start < 0:
            def hit(seen: str) -> int:
                return find_folded(seen, as_letters(as_seen(part)), self.op, self.ignore_case)

            self._not_unseen(subject, shown, lambda seen: hit(seen) >= 0)
            self._not_shown(subject, shown, hit, " " in part)
            self._not_shown_at_ends(subject, shown, hit)
            def as_written(seen: str) -> int:
                return find_folded(seen, part, self.op, self.ignore_case)

            if self.op in ("starts_with", "ends_with"):
                not_at_blank_ends(subject, VERBS[self.op][0], shown, as_written, self.op == "starts_with")
            not_escaped(subject, VERBS[self.op][0], shown, as_written)
        else:
            self._not_hidden(subject, shown, start, lambda seen: find_folded(seen, part, self.op, self.ignore_case) >= 0)
        return self._verdict(ctx, subject, start >= 0, shown, max(start, 0), operand)

    def _regex(self, ctx: Context, subject: Val, pattern: Pattern) -> Verdict:
        if not isinstance(subject.value, str):
            raise EvalError(f"'{VERBS[self.op][0]}' needs text; {subject.label} is "
                            f"{type_name(subject.value)}")
        where = subject.prov.where() if subject.prov else subject.label
        run = pattern.fullmatch if self.op == "fully_matches" else pattern.search
        found = run(subject.value, where)
        if found is None:
            self._not_unseen(subject, pattern.display, lambda seen: run(seen, where) is not None)
            self._not_shown(subject, pattern.display, lambda seen: _start(run(seen, where)),
                            may_match_space(pattern))
            not_escaped(subject, VERBS[self.op][0], pattern.display, lambda seen: _start(run(seen, where)))
        else:
            self._not_hidden(subject, pattern.display, found.start(), lambda seen: run(seen, where) is not None)
        if found is None or self.op == "fully_matches":
            return self._verdict(ctx, subject, found is not None, pattern.display, 0)
        # Where it matched, in the text's own words, so a long text's offending words are named.
        return self._verdict(ctx, subject, True, pattern.display, found.start(), None,
                             words_at(subject.value, found.start()))

    def _not_unseen(self, subject: Val, shown: str, holds: Callable[[str], bool]) -> None:
        """Raise when the miss is a hit in the text as a reader sees it, its invisible
        format characters left out: which of the two it says cannot be told."""
        text = subject.value
        not_other_forms(subject, VERBS[self.op][0], shown, holds)  # ＡＰＩ for API: another form of a letter
        unseen = UNSEEN.search(text)
        if unseen is None or not holds(as_seen(text)):
            return
        place = place_in(subject, unseen.start())
        raise EvalError(f"{subject.label} {VERBS[self.op][0]} {shown} only with its {seen_as(unseen.group())} "
                        f"(the first, U+{ord(unseen.group()):04X}, at {place}): a reader sees what the text as written does not "
                        "hold, so it cannot be decided")

    def _not_shown(self, subject: Val, shown: str, hit: Callable[[str], int], spaced: bool) -> None:
        """Raise when the miss is a hit in a Markdown text as its reader sees it rendered
        (``markdown_seen``), naming the first markup from where the words start there.
        Only a text holding a character markup starts with is rendered, and its soft
        line breaks are joined only for words that may hold a space (``spaced``): no
        others can hit across one."""
        for joined in (False, True) if spaced else (False,):
            form = shown_form(subject, joined)
            at = hit(form.text) if form is not None else -1
            mark = form.markup_from(at) if form is not None and at >= 0 else None
            if form is not None and mark is not None:
                raise EvalError(f"{subject.label} {VERBS[self.op][0]} {shown} only as its {markup_of(subject.prov)} "
                                f"is shown (the first, {_markup(subject, form, mark, joined)}): a reader sees what "
                                "the text as written does not hold, so it cannot be decided")

    def _not_shown_at_ends(self, subject: Val, shown: str, hit: Callable[[str], int]) -> None:
        """Raise when ``starts with`` or ``ends with`` misses and hits once the blank
        beside a hidden place at the text's start or end is left out too, as ``==``
        compares (``markdown_equal.compared``): ``All done. <!-- x -->`` ends with
        "All done." to its reader. Names the hidden place nearest that end."""
        form = shown_form(subject) if self.op in ("starts_with", "ends_with") else None
        hidden = [i for i, kind in enumerate(form.kind) if kind in HIDING] if form is not None else []
        if form is None or not hidden:
            return
        shown_text = compared(form)
        if hit(shown_text) < 0 and hit(without_blank_ends(shown_text)) < 0:  # the file's final line break too
            return
        piece = hidden[0] if self.op == "starts_with" else hidden[-1]
        markup = subject.value[form.start[piece]:form.end[piece]]
        raise EvalError(f"{subject.label} {VERBS[self.op][0]} {shown} only as its {markup_of(subject.prov)} is shown "
                        f"({HIDING[form.kind[piece]]}, {short(render(markup), 40)}, at "
                        f"{place_in(subject, form.start[piece])}): a reader sees what the text as written does not "
                        "hold, so it cannot be decided")

    def _not_hidden(self, subject: Val, shown: str, start: int, holds: Callable[[str], bool]) -> None:
        """Raise when the hit at ``start`` is no hit in a Markdown text as its reader sees
        it, its HTML comments and tags left out (``markdown_hidden.hidden_in_markdown``):
        the words are written where no reader sees them, so it cannot be decided."""
        text = subject.value
        if "<" not in text or not is_markdown(text, subject.prov):  # no comment or tag starts without "<"
            return
        form = hidden_in_markdown(text, markup_of(subject.prov) == "HTML")
        if form is None or holds(form.text):
            return
        piece = form.piece_near(start)
        place = place_in(subject, form.place_of(piece, start))
        raise EvalError(f"{subject.label} {VERBS[self.op][0]} {shown} only where a reader does not see it "
                        f"({form.named(piece)} at {place}): the text as written holds what its reader is not "
                        "shown, so it cannot be decided")

    def _verdict(self, ctx: Context, subject: Val, ok: bool, shown: str, start: int, operand: Val | None = None,
                 matched: str | None = None) -> Verdict:
        yes, no, infinitive = VERBS[self.op]
        line, hit = hit_evidence(subject, start, source_lines(ctx, subject.prov)) if ok else (None, None)
        place = subject.prov.where() if subject.prov else ""
        if line is not None and subject.prov and subject.prov.file:
            place = Prov(subject.prov.source, "", subject.prov.file, line).where()
        at = f" at {render(matched)}" if matched is not None else ""
        fact = f"{subject.label} {yes if ok else no} {shown}{at}" + (f" ({place})" if place else "")
        # The fact already names the operand ("does not match /x/"): a failure says it
        # once; a negated check that holds adds only that it should not have.
        message = self.polarity.message(ok, fact, f"to {infinitive}") if ok else fact
        evidence = (hit,) if hit else searched(subject)
        extra = evidence_of(operand) if operand is not None else ()
        return decided(ok, message, evidence + extra,
                       expected=shown, observed=short(subject.value))

    def _list_contains(self, subject: Val, operand: Val) -> Verdict:
        for item in elements(subject):
            if equal(item.value, operand.value, self.ignore_case):
                fact = located(f"{subject.label} has {render(operand.value)}", item.prov)
                return decided(True, fact, evidence_of(item, operand))
        # No item equal as written: one a reader sees as the operand (``**Done**``) leaves it undecided.
        for item in elements(subject):
            not_equal_as_shown(item, operand, self.ignore_case)
        self._not_words_of_items(subject, operand)
        self._not_inside_items(subject, operand)
        fact = f"{subject.label} ({len(elements(subject))} items) has no {render(operand.value)}"
        return decided(False, self.polarity.message(False, fact, f"an item {render(operand.value)}"),
                       evidence_of(subject, operand))


    def _not_words_of_items(self, subject: Val, operand: Val) -> None:
        """Raise when no item of a list equals the text asked for, but an item holds it
        as words, or the items do joined by spaces (an argv such as ``["bash", "-lc",
        "rm -rf /"]``): ``contains`` on a list asks for an item, and a rule asking for
        words in the command meant the other; which one cannot be told, and ``no calls
        where .args.command contains "rm -rf"`` passed over that ``rm -rf /``."""
        part = operand.value
        if not isinstance(part, str) or not part:
            return
        texts = [item.value for item in elements(subject) if isinstance(item.value, str)]
        holder = next((text for text in texts if find_folded(text, part, "contains", self.ignore_case) >= 0), None)
        if holder is None and find_folded(" ".join(texts), part, "contains", self.ignore_case) < 0:
            return
        held = f"the item {short(render(holder), 60)} holds" if holder is not None else "its items joined by spaces hold"
        raise EvalError(f"{subject.label} is a list with no item {render(part)}, but {held} that text: 'contains' "
                        "on a list asks for an item equal to it, and whether the rule means that or words inside "
                        f"the items cannot be told; write {render(part)} in <the list> for an item, or any <the list> "
                        f"have . contains {render(part)} for words in one")

    def _not_inside_items(self, subject: Val, operand: Val) -> None:
        """Raise when no item of a list equals the value asked for, but an item that is
        a list or an object holds it (``nested_holds``): ``not (jsonpath(x, "$.tags")
        contains "b")`` passed over the array ``tags`` holding "b"."""
        at = structure_holding([item.value for item in elements(subject)], operand.value, self.ignore_case)
        if at is None:
            return
        raise EvalError(f"{subject.label} is a list with no item {short(render(operand.value), 60)}, but its item "
                        f"{at + 1} holds it: 'contains' on a list asks for an item equal to it, and whether the rule "
                        "means that or what an item holds cannot be told; write any <the list> have <a test of the "
                        "item> for what an item holds")


def _start(found) -> int:
    return -1 if found is None else found.start()


def _markup(subject: Val, form: Shown, mark: int, joined: bool) -> str:
    """The markup an ERROR names, and where: a miss that is a hit only once the soft line
    breaks are joined names the first break from where the words start."""
    if joined:
        mark = next((i for i in range(mark, len(form.kind)) if form.kind[i] == "break"), mark)
    written = subject.value[form.start[mark]:form.end[mark]]
    what = SHOWN_AS.get(form.kind[mark]) or short(render(written), 40)
    return f"{what}, at {place_in(subject, form.start[mark])}"


def may_match_space(pattern: Pattern) -> bool:
    """Whether ``pattern`` may match a space, read from its source without running it:
    it holds a space, an escape, a ``.`` or a negated class. Else it cannot hit across
    a soft line break, which shows as a space."""
    source = pattern.compiled.pattern
    return any(sign in source for sign in (" ", "\\", ".", "[^"))


def searched(subject: Val) -> tuple[Evidence, ...]:
    """Evidence of a miss: the text that was searched, where it starts, quoting
    nothing (its first line would read as the place of a match)."""
    prov = subject.prov
    if prov is None or not prov.file:
        return evidence_of(subject)
    return (Evidence(prov.source, prov.file, prov.line, prov.step, ""),)


def compile_text(c, node: ast.TextTest, scope):
    shape = shape_operand(c, node.operand) if node.op in ("matches", "fully_matches") else None
    if shape is not None:  # `x matches {...}`: a value against an expected shape
        return compile_shape_check(c, node, shape, scope)
    subject = c.value(node.subject, scope)
    if node.op in ("matches", "fully_matches"):
        operand = c.pattern(node.operand, node.ignore_case, VERBS[node.op][0])
    elif isinstance(node.operand, ast.RegexLit):
        c.error("bad-operand", f"'{VERBS[node.op][0]}' takes text, not a regex", node.operand.span,
                f"to search with a regex write `x matches {format_value(node.operand)}`")
        operand = c.value(ast.Literal(None), scope)
    else:
        operand = c.value(node.operand, scope)
        _kinds(c, node, subject.kind, operand.kind)
    return TextCheck(node.op, subject, operand, node.ignore_case, scope.polarity)


def _kinds(c, node: ast.TextTest, subject: str, operand: str) -> None:
    """A text test that no run can make hold: a number looked for in a text
    (``section(x, "Totals") contains 3``, an error on every run), or a text
    looked for among numbers (``numbers(x) contains "12"``, which never holds)."""
    verb = VERBS[node.op][0]
    if subject in ELEMENT_OF and node.op == "contains":
        same_kinds(c, verb, (node.subject, ELEMENT_OF[subject]), (node.operand, operand), "never holds", False)
    elif subject == "text":
        same_kinds(c, verb, (node.subject, subject), (node.operand, operand), convert=False)


CHECK_COMPILERS: dict[type, CheckCompiler] = {ast.TextTest: compile_text}
