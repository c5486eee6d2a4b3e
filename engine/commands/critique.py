"""``referee critique``: mutation testing of the assertions, and what they leave unwatched."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from referee.engine.usage import UsageError

EXIT_CODES = """\
exit codes:
  0  no assertion is weak
  1  some assertion is weak: a mutant that breaks what it says still passes it,
     or it passed only because there was nothing to examine
  2  usage or input error: bad rules, missing workspace, no runs found

Mutants are built in memory; nothing is written to the workspace.
"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register ``critique`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "critique", help="test the assertions: do they fail when their evidence is broken?",
        description="For each run where an assertion passes, derive mutants of the run that "
                    "remove or alter exactly the evidence it relied on, and grade the "
                    "assertion on each. Reports weak assertions and coverage gaps.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workspace", type=Path, metavar="WORKSPACE")
    parser.add_argument("--rules", nargs="+", action="extend", default=[], metavar="FILE")
    parser.add_argument("--evals", metavar="EVALS_JSON", default=None)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from referee.engine.critique.runner import critique_workspace
    from referee.engine.critique.report import document, lines

    critiques, coverage, runs = critique_workspace(args.workspace, list(args.rules), args.evals)
    if args.json:
        print(json.dumps(document(critiques, coverage), ensure_ascii=False, indent=2))
    else:
        mutants = sum(len(c.tried) for c in critiques)
        print(f"critique: {len(critiques)} assertions over {runs} runs, {mutants} mutants graded")
        print("\n".join(lines(critiques, coverage)))
    return 1 if any(c.weak for c in critiques) else 0
