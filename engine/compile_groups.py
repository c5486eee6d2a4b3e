"""Which eval each block of rules is for: the blocks of the rules files and of
evals.json gathered into one ``EvalGroup`` per eval (``group_blocks``), with the
errors of gathering them: ``unknown-eval``, ``ambiguous-eval``, ``duplicate-let``,
``duplicate-expect``, ``bad-index``. Compiling each group is ``engine.compile``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from referee.dsl import ast
from referee.dsl.errors import Diagnostic, did_you_mean
from referee.engine.checks.inputs import Inputs

if TYPE_CHECKING:
    from referee.dsl.evals_json import EvalsFile


@dataclass
class EvalGroup:
    """The blocks (from all files) that describe one eval."""

    key: str
    name: str | None
    sentences: tuple[str, ...] = ()
    lets: dict[str, tuple[str, ast.Let]] = field(default_factory=dict)  # name -> (path, let)
    expects: list[tuple[str, ast.Expect]] = field(default_factory=list)  # (path, expect)
    inputs: Inputs | None = None  # the input files evals.json lists for the eval
    sentences_path: str = ""  # the file the sentences are in, and where each stands in it
    sentence_places: tuple[ast.Span, ...] = ()


def _blocks(files: Sequence[ast.RulesFile],
            evals: EvalsFile | None) -> list[tuple[str, ast.EvalBlock]]:
    found = [(f.path, block) for f in files for block in f.evals]
    if evals is not None:
        found += [(str(evals.path), e.rules) for e in evals.evals if e.rules is not None]
    return found


def group_blocks(files: Sequence[ast.RulesFile], evals: EvalsFile | None,
                 diagnostics: list[Diagnostic]) -> list[EvalGroup]:
    """One group per eval: evals.json's evals first, then each block of rules added to
    the eval it names; each error of naming and merging is added to ``diagnostics``."""
    groups: dict[str, EvalGroup] = {}
    if evals is not None:
        for entry in evals.evals:
            groups[entry.id] = EvalGroup(entry.id, entry.name, tuple(entry.expectations), {}, [],
                                      Inputs(entry.id, entry.files, evals.folder, True),
                                      entry.source or str(evals.path), entry.places)
    for path, block in _blocks(files, evals):
        # A block inside evals.json is its own eval's, whatever other evals are named.
        embedded = evals is not None and any(block is e.rules for e in evals.evals)
        key = block.key if embedded else _resolve(block, evals, path, diagnostics)
        if key is None:
            continue
        group = groups.setdefault(key, EvalGroup(key, block.name, (), {}, []))
        group.name = group.name or block.name
        _merge(group, path, block, diagnostics)
    return list(groups.values())


def _resolve(block: ast.EvalBlock, evals: EvalsFile | None, path: str,
             diagnostics: list[Diagnostic]) -> str | None:
    if evals is None:
        return block.key
    # (an id given twice is evals.json's own error, reported there)
    by_name = list(dict.fromkeys(e.id for e in evals.evals if block.key == e.name and e.id != block.key))
    if any(block.key == e.id for e in evals.evals):
        if by_name:  # `eval 1` and `eval "1"` are one key: which eval is meant cannot be told
            _ambiguous(block, path, ["the id of an eval"] + [f"the name of the eval with id {i}" for i in by_name],
                       diagnostics)
            return None
        return block.key
    if len(by_name) > 1:
        _ambiguous(block, path, [f"the name of the eval with id {i}" for i in by_name], diagnostics)
        return None
    if by_name:
        return by_name[0]
    known = [e.id for e in evals.evals] + [e.name for e in evals.evals if e.name]
    diagnostics.append(diagnostic("unknown-eval", f"evals.json has no eval '{block.key}'", path,
                             block.span, did_you_mean(block.key, known)))
    return None


def _ambiguous(block: ast.EvalBlock, path: str, said: list[str], diagnostics: list[Diagnostic]) -> None:
    diagnostics.append(diagnostic("ambiguous-eval", f"'{block.key}' names more than one eval of evals.json: "
                             f"{' and '.join(said)}", path, block.span.head(len("eval")),
                             "give those evals names and ids of their own in evals.json"))


def _merge(group: EvalGroup, path: str, block: ast.EvalBlock, diagnostics: list[Diagnostic]) -> None:
    for let in block.lets:
        if let.name in group.lets:
            diagnostics.append(diagnostic("duplicate-let", f"'{let.name}' is already defined for "
                                     f"eval {group.key}", path, let.span.head(len("let"))))
            continue
        group.lets[let.name] = (path, let)
    taken: set[int | None] = {e.index for _, e in group.expects if e.index is not None}
    for expect in block.expects:
        if expect.index is not None and expect.index in taken:
            diagnostics.append(diagnostic("duplicate-expect", f"expectation {expect.index} of eval "
                                     f"{group.key} already has a rule", path,
                                     expect.span.head(len("expect"))))
            continue
        if group.sentences and expect.index is not None and expect.index > len(group.sentences):
            diagnostics.append(diagnostic("bad-index", f"eval {group.key} has {len(group.sentences)} "
                                     f"expectations; there is no expectation {expect.index}",
                                     path, expect.span.head(len("expect"))))
            continue
        taken.add(expect.index)
        group.expects.append((path, expect))


def diagnostic(code: str, message: str, path: str, span: ast.Span,
               hint: str | None = None) -> Diagnostic:
    """A compile error at ``span`` of the file ``path``, its caret as ``Span.caret_end`` draws it."""
    end = span.caret_end()
    return Diagnostic(code, message, path, span.line, span.column, end, hint)
