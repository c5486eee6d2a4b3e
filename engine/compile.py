"""Compile rules (and evals.json) into a ``Program``: one check per assertion.

Everything static is checked here, and every error is reported, not the first:
unknown functions and names (with "did you mean"), arity, let cycles, regexes
and JSONPath queries (compiled once, here), impossible operands and steps.

Static error codes of the compiler: ``unknown-function``, ``wrong-arity``,
``unknown-name``, ``name-cycle``, ``unknown-field``, ``bad-regex``,
``bad-jsonpath``, ``jsonpath-regex``, ``bad-operand``, ``bad-step``, ``bad-path``, and when
an evals.json is given ``unknown-eval``, ``ambiguous-eval``, ``bad-index``, ``duplicate-let``,
``duplicate-expect`` (for blocks merged from several files; gathering the blocks of
each eval is ``compile_groups``').
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Sequence

from referee.dsl import ast
from referee.dsl.errors import Diagnostic, RulesError
from referee.dsl.frozen import frozen
from referee.engine.caps import cut
from referee.engine.checks import static
from referee.engine.checks.base import Check, Expr
from referee.engine.checks.compiler import Compiler, Scope
from referee.engine.checks.inputs import Inputs
from referee.engine.checks.logic import LiteralAndJudgement
from referee.engine.compile_groups import EvalGroup, diagnostic, group_blocks
from referee.engine.run.model import RunId
from referee.engine.run.kept_apart import SHARED_ID
from referee.engine.usage import UsageError
from referee.engine.regexes import Pattern
from referee.engine.text import ascii_digits
from referee.engine.verdict import Precision

if TYPE_CHECKING:  # loading evals.json is the caller's business, not the compiler's
    from referee.dsl.evals_json import EvalsFile
    from referee.engine.grade import RulesSource


@frozen
class CompiledAssertion:
    """One assertion of one eval, ready to evaluate on any run of that eval."""

    key: str  # "<eval key>#<n>", n = 1-based position in eval order
    eval_key: str
    index: int | None  # the expectation's 1-based index in evals.json, when linked
    text: str
    check_source: str
    precision: Precision
    evidence_source: str
    gated: bool  # counts toward the release decision (not existence)
    semantic_rubric: str | None
    rules_location: str  # "rules/expense-draft.rules:12:9"
    check: Check | None  # None for a plain semantic sentence
    tool_patterns: tuple[ast.NamePattern, ...] = ()  # the `to ...` filters it selects by
    # The compiled pattern of each tool pattern (same order), the objects its
    # selections match with; None where the pattern did not compile.
    tool_matchers: tuple[Pattern | None, ...] = ()
    reads: tuple[static.Read, ...] = ()  # tools, fields and files it reads (lets followed)
    condition: ast.Condition | None = None  # the check as written (what the critique reads)


@frozen
class CompiledEval:
    key: str
    name: str | None
    assertions: tuple[CompiledAssertion, ...]
    lets: tuple[tuple[str, Expr], ...] = ()  # each let compiled once, by name
    let_nodes: tuple[ast.Let, ...] = ()  # the lets as written
    inputs: tuple[tuple[str, str], ...] = ()  # the input files its rules read: (name as listed, digest of the text)


@frozen
class Program:
    evals: tuple[CompiledEval, ...]
    # The texts it was compiled from, when it was compiled from texts: graded over a
    # workspace without evals.json, they are compiled again with the sentences of its
    # eval_metadata.json (engine.api.grade), as ``referee grade`` compiles them.
    source: RulesSource | None = field(default=None, compare=False, repr=False)

    def for_run(self, run_id: RunId, metadata: dict) -> CompiledEval | None:
        """The eval a run belongs to: by its id (or a block keyed by its name, ``eval
        "book-flight"``), else by its name; two evals claiming it are an ``AmbiguousEval``
        (``eval 2 "bench"`` has an id of its own: it claims no run of eval 1 named bench).
        A run whose eval id names evals in other folders too is found by its qualified id
        alone (``eval-1-book/1``, ``engine.run.kept_apart``): by the id it shares, two
        evals would be graded by one eval's rules again."""
        if SHARED_ID in run_id.extra:
            return next((ev for ev in self.evals if ev.key == run_id.eval_id), None)
        ids = {run_id.eval_id, _text(metadata.get("eval_id"))} - {None, ""}
        names = {run_id.eval_name, _text(metadata.get("eval_name"))} - {None, ""}
        if not ascii_digits(run_id.eval_id):
            # A folder that names its eval by name (eval-expense-draft, or a descriptive
            # sales-summary) gives that name as the run's id: the name the rules give it.
            names.add(run_id.eval_id)
        keyed = [ev for ev in self.evals if ev.key in ids or ev.key in names]
        claiming = keyed if any(ev.key in ids for ev in keyed) else \
            [ev for ev in self.evals if ev.key in names or ev.name in names]
        if len(claiming) > 1:  # one eval's rules would be dropped without a word
            raise _claimed_twice(run_id, claiming)
        return claiming[0] if claiming else None


class AmbiguousEval(UsageError):
    """A run two evals of the rules claim: graded by either, the other's assertions would
    be left out unseen. Its message is all its state (it crosses from worker processes)."""


def _claimed_twice(run_id: RunId, claiming: list[CompiledEval]) -> AmbiguousEval:
    shown = " and ".join(f"eval {ev.key!r}" + (f" (named {ev.name!r})" if ev.name else "") for ev in claiming)
    named = f", named {run_id.eval_name!r}" if run_id.eval_name else ""
    return AmbiguousEval(f"{run_id.rel}: {shown} of the rules both claim this run (eval {run_id.eval_id!r}{named}); "
                         "give its assertions under one of them")


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def compile_rules(files: Sequence[ast.RulesFile], evals: EvalsFile | None = None) -> Program:
    """Compile rules files (and the ``referee`` blocks and sentences of an
    evals.json) into a Program. Raises ``RulesError`` with every static error."""
    diagnostics: list[Diagnostic] = []
    program = _build(files, evals, diagnostics)
    if diagnostics:
        raise RulesError(diagnostics)
    return program


def check_rules(files: Sequence[ast.RulesFile], evals: EvalsFile | None = None) -> list[Diagnostic]:
    """Every static error of the rules, in file order; [] when they compile."""
    diagnostics: list[Diagnostic] = []
    _build(files, evals, diagnostics)
    return RulesError(diagnostics).diagnostics if diagnostics else []


def statements(files: Sequence[ast.RulesFile], evals: EvalsFile | None = None,
               ) -> dict[str, list[tuple[str, ast.Value | ast.RegexLit | ast.Condition]]]:
    """Per eval key, ``(path, node)`` for each let value and each check written for
    it, in file order; for tools that look at what the rules read."""
    found: dict[str, list[tuple[str, ast.Value | ast.RegexLit | ast.Condition]]] = {}
    for group in group_blocks(files, evals, []):
        nodes: list[tuple[str, ast.Value | ast.RegexLit | ast.Condition]] = [
            (path, let.value) for path, let in group.lets.values()]
        nodes += [(path, e.check) for path, e in group.expects if e.check is not None]
        found[group.key] = nodes
    return found


def _build(files: Sequence[ast.RulesFile], evals: EvalsFile | None,
           diagnostics: list[Diagnostic]) -> Program:
    groups = group_blocks(files, evals, diagnostics)
    return Program(tuple(_compile_group(g, diagnostics) for g in groups))


_Written = tuple[str, ast.Expect]  # an expect statement and the rules file it is in


def _ordered(group: EvalGroup) -> list[tuple[_Written | None, int | None]]:
    """(written, index) in eval order: linked expectations by index (a sentence of
    evals.json without a rule, ``written`` None, becomes a semantic assertion), then
    the rest."""
    linked = {e.index: (p, e) for p, e in group.expects if e.index is not None}
    order: list[tuple[_Written | None, int | None]] = []
    indexes = range(1, len(group.sentences) + 1) if group.sentences else sorted(linked)
    for index in indexes:
        order.append((linked.get(index), index))
    order += [((p, e), None) for p, e in group.expects if e.index is None]
    return order


def _compile_group(group: EvalGroup, diagnostics: list[Diagnostic]) -> CompiledEval:
    let_nodes = {name: node for name, (_, node) in group.lets.items()}
    extents = static.let_extents(let_nodes)
    compiler = Compiler(group.lets, diagnostics, group.inputs or Inputs(group.key))
    _refuse_oversized(compiler, group, let_nodes, extents)
    lets = compiler.compile_lets()
    assertions = []
    order = _ordered(group)
    for n, (written, index) in enumerate(order, start=1):
        sentence = group.sentences[index - 1] if index and index <= len(group.sentences) else None
        assertions.append(_assertion(compiler, group.key, n, written, index, sentence, let_nodes, extents,
                                     _sentence_location(group, index) if written is None else ""))
    _refuse_same_texts(group, order, assertions, diagnostics)
    return CompiledEval(group.key, group.name, tuple(assertions), tuple(sorted(lets.items())),
                        tuple(let_nodes.values()), tuple(sorted(compiler.inputs_read.items())))


def _refuse_same_texts(group: EvalGroup, order: list[tuple[_Written | None, int | None]],
                       assertions: list[CompiledAssertion], diagnostics: list[Diagnostic]) -> None:
    """``duplicate-text`` at each assertion whose text an earlier assertion of the eval
    has, wherever either text comes from: skill-creator's viewer matches an eval's
    verdicts by their text and shows the first one's for both, so a failed check would
    read as passed. An evals.json sentence graded on its own and a standalone ``expect``
    with its text are two such assertions (the rule was meant to check the sentence:
    ``expect N:`` links it); so are two equal sentences of evals.json."""
    first: dict[str, tuple[str, int | None]] = {}  # text -> the assertion that has it first, its sentence
    for (written, index), assertion in zip(order, assertions):
        earlier = first.setdefault(assertion.text, (assertion.key, _sentence_of(group, written, index)))
        if earlier[0] == assertion.key:
            continue
        key, sentence = earlier
        said = f"expectation {sentence} of {_file_name(group.sentences_path)}" if sentence is not None else key
        message = f"assertion {assertion.key} has the same text as {said}, \"{cut(assertion.text, 60)}\""
        own = _sentence_of(group, written, index)
        if written is None or own is not None:  # a sentence of evals.json repeats an earlier one: fix it there
            diagnostics.append(diagnostic("duplicate-text", message, group.sentences_path, _sentence_place(group, own),
                                     "give each expectation of an eval a sentence of its own: skill-creator's "
                                     "viewer matches verdicts by their text"))
            continue
        path, expect = written
        hint = (f"to check that sentence, link the rule to it: expect {sentence}: CHECK" if sentence is not None
                else "give it a sentence of its own: skill-creator's viewer matches verdicts by their text")
        diagnostics.append(diagnostic("duplicate-text", message, path, expect.span.head(len("expect")), hint))


def _sentence_place(group: EvalGroup, number: int | None) -> ast.Span:
    """Where sentence ``number`` stands in its file (evals.json, or the eval's
    eval_metadata.json); line 0 when unknown."""
    if number is None or not 0 < number <= len(group.sentence_places):
        return ast.Span(0, 0, 0, 0)
    return group.sentence_places[number - 1]


def _sentence_location(group: EvalGroup, number: int | None) -> str:
    """Where sentence ``number`` of evals.json (or of the eval's eval_metadata.json) is
    written, as ``rules_location`` names a place (``evals.json@1a2b3c4d:5:7``): an
    assertion that is that sentence alone, with no rule written for it, was written
    there, and a report reader looks for it there; "" when its place is unknown."""
    place = _sentence_place(group, number)
    if not group.sentences_path or place.line == 0:
        return ""
    return f"{group.sentences_path}:{place.line}:{place.column}"


def _file_name(path: str) -> str:
    """evals.json, or eval_metadata.json, as a message names the sentences' file."""
    return path.replace("\\", "/").rpartition("/")[2] or "evals.json"


def _sentence_of(group: EvalGroup, written: _Written | None, index: int | None) -> int | None:
    """The number of the evals.json sentence an assertion's text is, or None when the
    rules wrote it (a standalone ``expect``, one that gives its own sentence, or one
    whose ``INDEX`` has no sentence to take: no evals.json was given)."""
    if index is None or index > len(group.sentences) or (written is not None and written[1].sentence is not None):
        return None
    return index


# The hint of ``too-large``: what such a rule comes to is not what anyone means to write.
_SPLIT = "a let name stands for its whole value wherever it is used: write the check without the chain of lets"


def _refuse_oversized(compiler: Compiler, group: EvalGroup, let_nodes: dict[str, ast.Let],
                      extents: dict[str, static.Extent]) -> None:
    """Have the compiler compile no let too large to compile (``static.Extent.too_large``),
    reporting each at its definition when no let it names is too large already (a
    chain is reported once, where it crosses the limit)."""
    compiler.oversized.update(name for name in group.lets if extents[name].too_large())
    for name, (path, node) in group.lets.items():
        why = extents[name].too_large()
        if why is not None and compiler.oversized.isdisjoint(static.let_names(node.value, let_nodes)):
            compiler.at_path(path, lambda: compiler.error(
                "too-large", f"let '{name}', its let names written out, {why}", node.span, _SPLIT))


def _assertion(compiler: Compiler, eval_key: str, n: int, written: _Written | None,
               index: int | None, sentence: str | None,
               let_nodes: dict[str, ast.Let], extents: dict[str, static.Extent],
               sentence_location: str = "") -> CompiledAssertion:
    condition: ast.Condition | None = None
    check: Check | None = None
    source, location = "", sentence_location
    text = sentence
    if written is not None:
        path, expect = written
        condition, source = expect.check, expect.source
        text = expect.sentence or sentence or source
        location = f"{path}:{expect.span.line}:{expect.span.column}"
        why = None if condition is None else static.extent(condition, let_nodes, extents).too_large()
        compiler.path = path
        if why is not None:  # neither compiled nor walked: either would cost what it is refused for
            compiler.error("too-large", f"this check, its let names written out, {why}", expect.span, _SPLIT)
            condition = None
        elif condition is not None:
            check = compiler.cond(condition, Scope())
    found = static.properties(condition, let_nodes)
    precision, patterns = found.precision, found.tool_patterns
    rubric = static.rubric(condition, text or "") if precision is Precision.SEMANTIC else None
    if check is not None and rubric is not None and not isinstance(condition, ast.Semantic):
        check = LiteralAndJudgement(check, rubric)  # a rule part decides without the grader
    return CompiledAssertion(
        key=f"{eval_key}#{n}", eval_key=eval_key, index=index, text=text or "",
        check_source=source, precision=precision,
        evidence_source=found.evidence_source,
        gated=precision is not Precision.EXISTENCE,
        semantic_rubric=rubric,
        rules_location=location, check=check,
        tool_patterns=patterns, tool_matchers=tuple(compiler.name_patterns.get(
            (p.kind, p.text, p.flags)) for p in patterns),
        reads=found.reads, condition=condition,
    )
