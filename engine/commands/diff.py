"""``referee diff BASE NEW``: what got worse between two graded states."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from referee.engine.commands.arguments import given_path

if TYPE_CHECKING:
    from referee.engine.cli import Subcommands
    from referee.engine.compare.diffing import Diff

EPILOG = """\
exit codes:
  0  no regression of the primary configuration
  1  a regression: an eval of the primary whose majority direction or pass^k fell
     by more than one run's flip could explain; or one that cannot be told: it
     would be a regression were BASE's errored gated assertions passes (an ERROR
     is evidence referee could not read, not a failure of BASE), or were the
     assertions BASE counted that NEW left ungraded failures
  2  usage or input error, or states graded by different rules or referee versions,
     or judged by different LLM graders (without --allow-different-rules /
     --allow-different-versions / --allow-different-judges)

BASE and NEW are each a workspace, one iteration folder of one, or a
benchmark.json (`referee aggregate`'s; a blessed baseline kept in the
repository). One flipped run is never a regression: it is listed as such. An
eval of BASE with no counted run in NEW is judged as if its runs had failed. The
diff lists every assertion whose majority outcome flipped, with a run's evidence
from both sides. `referee aggregate --against FILE --fail-on-regression` runs the
same diff against a blessed benchmark.json as part of the release decision.
"""


def add_parser(sub: Subcommands) -> None:
    """Register ``diff`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "diff", help="regressions between two graded states (workspaces, iterations or benchmark files)",
        description="Compare two graded states eval by eval and list regressions and flipped assertions.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", type=given_path, metavar="BASE",
                        help="the state to compare against: a workspace, an iteration folder or a benchmark.json")
    parser.add_argument("new", type=given_path, metavar="NEW", help="the state to judge, in any of those forms")
    parser.add_argument("--primary", metavar="CONFIG", help="the configuration whose regressions count "
                        "(default: the benchmark's, or from the names)")
    parser.add_argument("--allow-different-rules", action="store_true",
                        help="compare states graded by different rules")
    parser.add_argument("--allow-different-versions", action="store_true",
                        help="compare states graded by different referee versions")
    parser.add_argument("--allow-different-judges", action="store_true",
                        help="compare states whose semantic assertions different LLM graders judged")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from referee.engine.compare import diffing, output, regress
    from referee.engine.report.collect import display_path

    # Named as reports name folders (never absolute), so the same states give the same bytes anywhere.
    base = regress.read(args.base, f"BASE {display_path(args.base)}", args.primary)
    new = regress.read(args.new, f"NEW {display_path(args.new)}", args.primary)
    if args.primary:
        base.primary = new.primary = args.primary
    found = diffing.diff(base, new, allow_rules=args.allow_different_rules,
                         allow_versions=args.allow_different_versions, allow_judges=args.allow_different_judges)
    if args.json:
        output.show_json(found.as_dict())
    else:
        for line in lines(found):
            output.say(line)
    return 1 if found.regressions or found.cannot_tell else 0


def lines(found: Diff) -> list[str]:
    """The diff for the console (and for aggregate's --against)."""
    out = [f"diff: {found.base.label} -> {found.new.label} (primary {found.primary or 'unknown'})"]
    out += [f"  note: {note}" for note in found.notes]
    marks = {"regression": "REGRESSION", "cannot tell": "CANNOT TELL", "improvement": "improved  ",
             "one run": "one run   "}
    for c in found.changes:
        if c.verdict != "same":
            gating = c.verdict in ("regression", "cannot tell")
            counted = "" if c.configuration == found.primary or not gating else " (not the primary)"
            flipped = " (one run flipped: not a regression)" if c.verdict == "one run" else ""
            out.append(f"  {marks[c.verdict]} {c.describe()}{counted}{flipped}")
    for f in found.flips:
        out.append(f"  flipped: eval {f.eval_id} {f.configuration} {f.key} \"{f.text}\" {f.describe()}: "
                   f"{f.base[0]}/{f.base[1]} -> {f.new[0]}/{f.new[1]} passed")
        out.append(f"      before: {f.base[2]}")
        out.append(f"      now:    {f.new[2]}")
    count, unknown = len(found.regressions), len(found.cannot_tell)
    said = f"{count} eval{'s' if count != 1 else ''} of {found.primary or 'the primary'} regressed"
    if unknown:
        said += (f"; {unknown} eval{'s' if unknown != 1 else ''} cannot be told not to have regressed (errors or "
                 f"unread runs in {found.base.label}, or assertions it counted that {found.new.label} did not grade)")
    out.append(f"{'REGRESSION' if count else 'CANNOT TELL' if unknown else 'no regression'}: {said}")
    return out
