"""``referee compare WORKSPACE``: blind pairwise comparison of two configurations,
decided by the rules, and a sign test across evals."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from referee.engine.commands.arguments import add_roles, add_workspace, given_path
from referee.engine.commands.llm_flags import add_llm_arguments, refuse_writes_under_check
from referee.engine.commands.warnings import warn_all
from referee.engine.compare.output import say
from referee.engine.text import count
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from pathlib import Path

    from referee.engine.cli import Subcommands

OUT = "comparison"
EPILOG = """\
exit codes:
  0  the primary is better: the one-sided sign test over the evals' votes
     passes at 0.05 (at least 5 evals that are not ties)
  1  anything else: underpowered, no significant difference, the baseline better,
     or cannot tell (evals with runs whose grading.json cannot be read could undo it)
  2  usage or input error: no workspace, no graded run, unknown configurations

Every primary run is paired with every baseline run of the same eval. Which one
is shown as A is decided per pair by a hash of --seed, the eval and the runs; the
mapping is written only into each file's referee.assignment. A pair's winner is
decided by the rules (docs/compare.md): a side with an errored or ungraded gated
assertion cannot win, then the rules' rubric score, then the gated pass rate,
then (with --llm only) the model, asked in both orders; otherwise TIE.

Writes comparison-N.json (skill-creator's comparator schema, with a referee
block) and summary.json into --out (default WORKSPACE/comparison); `referee
aggregate` adds the summary's result to its release decision.
"""


def add_parser(sub: Subcommands) -> None:
    """Register ``compare`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "compare", help="blind A/B comparison of two configurations, decided by the rules",
        description="Pair every run of the primary configuration with every run of the baseline "
                    "in the same eval, blind each pair, decide its winner from the graded "
                    "assertions, and decide across evals with a sign test.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_workspace(parser)
    add_roles(parser)
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="shuffles which side is shown as A (never who wins); default 0")
    parser.add_argument("--out", type=given_path, metavar="DIR", help="the folder to write into, which must be there already "
                        "(default WORKSPACE/comparison)")
    parser.add_argument("--rubric", type=given_path, metavar="FILE",
                        help="TOML naming the criterion of assertions (\"1#4\" = \"accuracy\"); "
                             "the others are inferred from their rules")
    parser.add_argument("--skill-path", type=given_path, metavar="DIR", help="the skill under test (its name is hidden)")
    parser.add_argument("--evals", type=given_path, metavar="EVALS_JSON", help="evals.json: the skill's name and prompts")
    parser.add_argument("--iteration", type=int, metavar="N", help="with several iterations, the one to read")
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="pairs asked of the model at once (--llm)")
    parser.add_argument("--check", action="store_true", help="compare and print; write nothing")
    add_llm_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Compare, write, print; returns the exit code documented in ``--help``."""
    from referee.engine.compare import output, procedure
    from referee.engine.compare.signtest import PRIMARY
    from referee.engine.report.folders import named_folder

    refuse_writes_under_check(args)
    if args.out is not None and not args.check:
        named_folder(args.out, "--out", ("summary.json", "comparison-1.json"))
    found = procedure.setup_from(args)
    warn_all([f"warning: {line}" for line in found.loaded.warnings])
    done = procedure.compare(found, args.seed, _holistic(args), args.jobs)
    written = None if args.check else output.write_documents(
        args.out or output.own_folder(args.workspace / OUT), {**done.documents, "summary.json": done.summary}, comparisons=True)
    _print(done.summary, written)
    return 0 if done.summary["sign_test"]["result"] == PRIMARY else 1


def _holistic(args: argparse.Namespace):
    """The model reader for --llm (imported only then), or None."""
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if not args.llm:
        return None
    from referee.llm_adapter.holistic import reader_from_args

    try:
        return reader_from_args(args)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _print(summary: dict, written: list[Path] | None) -> None:
    say(f"compare: {summary['primary']} against {summary['baseline']}, {count(summary['pairs'], 'pair')}, "
          f"seed {summary['seed']}")
    for row in summary["evals"]:
        name = f" ({row['eval_name']})" if row["eval_name"] else ""
        say(f"  eval {row['eval_id']}{name}: {row['wins']} won, {row['losses']} lost, {row['ties']} tied "
              f"of {count(row['pairs'], 'pair')}: vote {row['vote']}"
              + (f" ({count(len(row['unread_runs']), 'run')} whose grading.json cannot be read: "
                 f"{', '.join(row['unread_runs'])})" if row.get("unread_runs") else ""))
        for config, keys in row.get("graded_on_one_side", {}).items():
            say(f"    graded in {config} alone, left out of the rules' score: {', '.join(keys)}")
    for row in summary["left_out_evals"]:
        name = f" ({row['eval_name']})" if row["eval_name"] else ""
        say(f"  eval {row['eval_id']}{name}: runs of {row['runs_of']} only, no pair: left out")
    flips = summary["flip_rate"]
    if flips is not None:
        say(f"  model: {flips['flipped']} of {count(flips['pairs'], 'pair')} flipped with the order "
              f"(counted as ties)" + (f"; {flips['unusable']} unusable" if flips["unusable"] else ""))
    say(f"{summary['sign_test']['result'].upper()}: {summary['decision']}")
    if written is None:
        say("nothing was written (--check)")
    else:
        say(f"wrote {count(len(written) - 1, 'comparison file')} and {written[-1]}")
