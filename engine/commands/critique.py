"""``referee critique``: mutation testing of the assertions, and what they leave unwatched."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.engine.cli import Subcommands

from referee.engine.commands.arguments import add_rules, add_workspace, response_name
from referee.engine.report.color import add_color_argument
from referee.engine.text import count
from referee.engine.usage import UsageError

EXIT_CODES = """\
exit codes:
  0  no assertion is weak
  1  some assertion is weak: a mutant that breaks what it says still passes it,
     or it passed only because there was nothing to examine
  2  usage or input error: bad rules, missing workspace, no runs found, or the
     critique's budget of work (--budget) was spent

Mutants are built in memory, never in the workspace. The findings go to
WORKSPACE/critique.json (not with --check); `referee grade` adds them to each
eval's eval_feedback and `referee aggregate` to its notes while the rules are
the same.
"""


def add_parser(sub: Subcommands) -> None:
    """Register ``critique`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "critique", help="test the assertions: do they fail when their evidence is broken?",
        description="For each run where an assertion passes, derive mutants of the run that "
                    "remove or alter exactly the evidence it relied on, and grade the "
                    "assertion on each. Reports weak assertions and coverage gaps.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_workspace(parser)
    add_rules(parser)
    parser.add_argument("--response", metavar="PATH", type=response_name,
                        help="the file the harness delivered as the answer, relative to each run folder "
                             "(outputs/result.md): it is the response, as in referee grade")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument("--check", action="store_true",
                        help="critique and report; do not write critique.json")
    parser.add_argument("--budget", type=_units, default=None, metavar="UNITS",
                        help="units of work the critique may spend: a mutant costs one per call "
                             "and per note of its run, and per 1,000 characters (default 500,000); "
                             "past it the critique stops and writes nothing")
    add_color_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from referee.engine.critique.findings import write_findings
    from referee.engine.critique.report import document, lines
    from referee.engine.critique.runner import critique_workspace
    from referee.engine.report.stdout import print_json

    budget = {} if args.budget is None else {"units": args.budget}
    result = critique_workspace(args.workspace, list(args.rules), args.evals, response=args.response, **budget)
    found = document(result.critiques, result.coverage)
    try:
        written = None if args.check else write_findings(args.workspace, found, result.digest, args.response,
                                                         _named(args.rules, args.evals))
    except OSError as exc:  # a full disk, or critique.json a link or a FIFO (never replaced)
        raise UsageError(f"cannot write critique.json into {args.workspace}: {exc.strerror or exc}") from None
    if args.json:
        print_json(json.dumps(found, ensure_ascii=False, indent=2) + "\n")
    else:
        mutants = sum(len(c.tried) for c in result.critiques)
        print(f"critique: {count(len(result.critiques), 'assertion')} over {count(result.runs, 'run')}, "
              f"{count(mutants, 'mutant')} graded")
        print("\n".join(lines(result.critiques, result.coverage, _color(args.color))))
        print(f"wrote {written}" if written else "nothing was written (--check)")
    return 1 if any(c.weak for c in result.critiques) else 0


def _named(rules: list[str], evals: str | None) -> tuple[str, ...]:
    """The rules critiqued as grading.json's ``rules_location`` names them (``name@digest``),
    so that ``aggregate`` can tell findings about the rules that graded its runs."""
    from referee.dsl.named_file import read_named_text
    from referee.engine.decision.provenance import rules_name
    from referee.engine.rules_files import read_rules_files

    named = tuple(rules_name(name, text) for name, text in read_rules_files(rules))
    if evals is None:
        return named
    try:
        return named + (rules_name(evals, read_named_text(evals)),)
    except (OSError, UnicodeDecodeError):  # gone since it was critiqued: findings for no grade by it
        return named


def _color(mode: str) -> bool:
    import sys

    from referee.engine.report.color import use_color

    return use_color(sys.stdout, mode)


def _units(text: str) -> int:
    try:
        units = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        units = 0
    if units < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number of units, got {text!r}")
    return units
