"""``referee validate WORKSPACE --rules FILE...``: can each eval tell?

A command of its own rather than part of ``critique``: critique asks whether each
assertion fails when its evidence is broken, on copies of real runs; validate asks
whether each eval as a whole tells a run that did the work from one that did not
(a null run must fail, a reference run pass) and whether it tells the
configurations apart, and its result joins the release decision. It reads
critique's mutation score as one of its measures.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from referee.engine.commands.arguments import add_rules, add_workspace, given_path
from referee.dsl.named_file import read_named_text
from referee.engine.commands.llm_flags import add_llm_arguments, refuse_writes_under_check
from referee.engine.commands.warnings import warn_all
from referee.engine.compare.output import say
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from pathlib import Path

    from referee.engine.cli import Subcommands
    from referee.engine.compare.load import Loaded
    from referee.engine.compare.validity import EvalValidity
    from referee.engine.compile import Program

VALIDITY = "validity.json"
EPILOG = """\
exit codes:
  0  every eval can tell: a null run fails its gate and every reference run passes it
  1  some eval cannot tell (each is listed with the reason)
  2  usage or input error: bad rules, missing workspace

Per eval: the null run's gate (no tool calls, no response, no outputs: it must
FAIL), reference runs' gates (--reference DIR: each must PASS), per-assertion
discrimination between the configurations, the pairs `referee compare` gets,
the mutation score of `referee critique`, and with --llm the judge's flip rate
(every semantic assertion asked twice). Writes WORKSPACE/validity.json (not with
--check); `referee aggregate` adds its findings to the release decision, which
cannot be PASS while an eval a null run passes is graded.
"""


def add_parser(sub: Subcommands) -> None:
    """Register ``validate`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "validate", help="can each eval tell? a null run must fail it, a reference run pass it",
        description="Test each eval of the rules: a run that did nothing must fail its gate, runs "
                    "known to be right must pass it, and its assertions should tell the "
                    "configurations apart.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_workspace(parser)
    add_rules(parser)
    parser.add_argument("--reference", type=given_path, metavar="DIR",
                        help="runs known to be right, laid out like a workspace; each must pass")
    parser.add_argument("--primary", metavar="CONFIG", help="the configuration under test (default from the names)")
    parser.add_argument("--baseline", metavar="CONFIG", help="the configuration to compare with")
    parser.add_argument("--iteration", type=int, metavar="N", help="with several iterations, the one to read")
    parser.add_argument("--no-critique", action="store_true", help="leave out the mutation score (faster)")
    parser.add_argument("--json", action="store_true", help="print validity.json on stdout")
    parser.add_argument("--check", action="store_true", help="validate and print; write nothing")
    add_llm_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from referee.engine.compare import load, output, validity
    from referee.engine.run.reading import response_files

    refuse_writes_under_check(args)
    if not args.workspace.is_dir():
        raise UsageError(f"workspace not found: {args.workspace}")
    program, given = _program(args.rules, args.evals)
    graded, roles, warnings = _graded(args, given)
    mutation = None if args.no_critique else _mutation(args)
    judged = _judged(args, program, graded)
    results = validity.check(program, args.reference, graded, roles, mutation, judged,
                             response_files(None, args.evals))
    inputs = None if graded is None else {"runs": len(graded.runs), "digest": load.digest_of(graded.runs)}
    document = _document(results, validity.power(graded, roles), roles, inputs)
    written = None if args.check else output.write_documents(args.workspace, {VALIDITY: document})
    warn_all([f"warning: {line}" for line in warnings])
    if args.json:
        output.show_json(document)
    else:
        _print(document, written)
    return 0 if not document["cannot_tell"] else 1


def _program(rules: list[str], evals: str | None):
    """The compiled rules, and the files given as grading.json names them (``name@digest``)."""
    from referee.dsl.errors import RulesError, erring_files, render_all
    from referee.engine.decision.provenance import rules_name
    from referee.engine.grade import RulesSource
    from referee.engine.rules_files import read_rules_files

    if not rules and evals is None:
        raise UsageError("nothing to validate: give --rules FILE..., or --evals evals.json")
    files = read_rules_files(rules)
    given = tuple(rules_name(name, text) for name, text in files)
    if evals is not None:
        given += (rules_name(evals, _read(evals)),)
    try:
        return RulesSource(tuple(files), evals).compile(), given
    except RulesError as exc:
        shown = render_all(exc.diagnostics, color=False, texts=dict(files))
        raise UsageError(f"{erring_files(exc.diagnostics)}; nothing was validated\n{shown}") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot load the evals: {exc}") from None


def _read(path: str) -> str:
    try:
        return read_named_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def _graded(args: argparse.Namespace, given: tuple[str, ...]):
    """The graded runs and the roles, when the workspace has runs graded by the rules
    ``given``; else why not. Runs graded by other rules are not about these: the null
    run would be graded by one set of rules and the runs by another, and aggregate
    would take the result as about its runs."""
    from referee.engine.compare.load import load
    from referee.engine.decision.configurations import choose

    try:
        graded = load(args.workspace, args.iteration)
    except UsageError as exc:
        return None, None, [f"{exc}: discrimination and power not measured"]
    other = sorted({name for run in graded.runs for name in run.rules} - set(given))
    if other:
        return None, None, [f"the runs were graded by {', '.join(other)}, not by the rules given "
                            f"({', '.join(given)}): discrimination and power not measured, and aggregate "
                            "leaves validity.json out; grade with these rules, then validate again"]
    choice = choose(graded.configurations, args.primary, args.baseline)
    roles = (choice.primary, choice.baseline) if choice.baseline else None
    note = [] if roles else [f"one configuration ({choice.primary}): discrimination not measured"]
    return graded, roles, graded.warnings + note


def _mutation(args: argparse.Namespace):
    from referee.engine.compare.validity import mutation_scores
    from referee.engine.critique.runner import critique_workspace

    try:
        return mutation_scores(critique_workspace(args.workspace, list(args.rules), args.evals).critiques)
    except UsageError:
        return None  # no run an eval of the rules matches: nothing to mutate


def _judged(args: argparse.Namespace, program: Program, graded: Loaded | None):
    if not args.llm or graded is None:
        return None
    from referee.engine.compare.validity import flip_rates
    from referee.llm_adapter.cli import judge_from_args
    from referee.llm_adapter.reread import second

    try:
        judge = judge_from_args(args)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return flip_rates(program, [run.source for run in graded.runs], (judge, second(judge)))


def _document(results: list[EvalValidity], power: dict, roles: tuple[str, str] | None,
              inputs: dict[str, object] | None) -> dict:
    judged = [r.judge for r in results if r.judge]
    asked, flipped = sum(j["asked"] for j in judged), sum(j["flipped"] for j in judged)
    unusable = sum(j["unusable"] for j in judged)
    return {
        "primary": roles[0] if roles else None, "baseline": roles[1] if roles else None,
        "evals": [{"eval_id": r.eval_id, "eval_name": r.eval_name, "can_tell": r.can_tell,
                   "null_run": r.null_run, "reference": r.reference, "pairs": r.pairs,
                   "discrimination": r.discrimination, "mutation": r.mutation, "judge": r.judge,
                   "findings": r.findings} for r in results],
        "cannot_tell": [r.eval_id for r in results if not r.can_tell],
        "power": power,
        "judge_flip_rate": None if not judged else {"asked": asked, "flipped": flipped, "unusable": unusable,
                                                    "rate": round(flipped / asked, 4) if asked else None},
        "inputs": inputs,
    }


def _print(document: dict, written: list[Path] | None) -> None:
    for row in document["evals"]:
        mark = "ok  " if row["can_tell"] else "FAIL"
        null = row["null_run"]
        mutation = row["mutation"]
        extra = f", mutation score {mutation['killed']}/{mutation['mutants']}" if mutation and mutation["mutants"] else ""
        say(f"{mark} eval {row['eval_id']}: null run {null.get('gate')} "
              f"({null.get('passed')}/{null.get('total')} gated passed){extra}")
        for finding in row["findings"]:
            say(f"      - {finding}")
    power = document["power"]
    say(f"power: {power['evals_with_both']} evals with both configurations; the sign test needs at least "
          f"{power['min_non_tie']} that are not ties")
    if document["judge_flip_rate"]:
        flips = document["judge_flip_rate"]
        unusable = (f"; {flips['unusable']} not compared: a reading was an error (a reply the cassette "
                    "lacks, or a grader that failed)") if flips["unusable"] else ""
        say(f"judge: {flips['flipped']} of {flips['asked']} semantic verdicts changed when asked again{unusable}")
    say(f"wrote {written[0]}" if written else "nothing was written (--check)")
