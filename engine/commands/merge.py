"""``referee merge WORKSPACE``: check the shards of a sharded grade and make them one grade."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from referee.engine.commands.arguments import given_name, given_path
from referee.engine.report.color import add_color_argument
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.engine.cli import Subcommands
    from referee.engine.grade import RulesSource
    from referee.engine.shards.manifest import Manifest
    from referee.engine.shards.merge import Merged
    from referee.engine.shards.verify import Shards

EPILOG = """\
Each `referee grade WORKSPACE --shard I/N` wrote its runs' reports and
shard-I-of-N.json. Copy every shard's files into one workspace (CI artifacts, a
shared file system), then merge: the manifests are checked against each other
and the workspace (mixed versions, rules, evals, input files, LLM grader or
options; missing, duplicate or foreign shards; reports changed since; runs no
shard graded; critique facts the reports of their runs contradict), and
each run gets the eval critique (eval_feedback) of all its eval's runs, which no
single shard could make. The reports are then the ones one unsharded grade
writes, byte for byte; shard-merge.json records them, and `referee aggregate`
and `referee report` read the workspace as one grade.

Give the rules the shards graded with (--rules, --evals): the merge makes each
eval's critique from them, and checks that they are the same.

exit codes:
  0  merged, and every assertion that counts toward the gate passed in every
     run of every shard (the rule of `referee grade`; shards graded with
     --primary C: in every run of configuration C)
  1  merged, and some counted assertion failed or errored, or nothing counted
  2  the shards do not make one grade (each problem is listed), other rules
     than the shards', or a usage or input error; nothing was written
"""


def add_parser(sub: Subcommands) -> None:
    """Register ``merge`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "merge", help="check the shards of a sharded grade and merge them into one grade",
        description="Check the shard manifests (shard-I-of-N.json) in WORKSPACE and make the "
                    "shards' reports one grade.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workspace", type=given_path, metavar="WORKSPACE",
                        help="the workspace holding every shard's reports and shard-I-of-N.json")
    parser.add_argument("--rules", type=given_name, nargs="+", action="extend", default=[], metavar="FILE",
                        help="the rules files the shards graded with")
    parser.add_argument("--evals", type=given_name, metavar="EVALS_JSON", default=None,
                        help="the evals.json the shards graded with")
    parser.add_argument("--check", action="store_true", help="check and decide; write nothing")
    add_color_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Check, merge, decide; returns the exit code documented in ``--help``."""
    from dataclasses import replace

    from referee.engine.commands.grade_rules import compile_source, rules_source
    from referee.engine.report.color import use_color
    from referee.engine.report.lock import WorkspaceBusy, workspace_lock
    from referee.engine.run.discovery import holds_evals
    from referee.engine.run.workspace import discover
    from referee.engine.shards import merge, verify
    from referee.engine.report import render  # noqa: F401  (before a report is rendered: its first call imports)

    if not args.workspace.is_dir():
        raise UsageError(f"workspace not found: {args.workspace}")
    discovery = discover(args.workspace)
    try:
        shards = verify.check(args.workspace, discovery.runs, merge.read_record(args.workspace))
    except verify.MergeRefused as refused:
        raise UsageError(f"the shards under {args.workspace} do not make one grade; nothing was merged:\n"
                         f"{refused}") from None
    source = rules_source(args)
    if args.evals is None:
        source = replace(source, sentences=discovery.expectations)
    _same_rules(source, shards.first)
    _primary_graded(shards)
    program = compile_source(source, use_color(sys.stderr, args.color))
    forged = verify.selection_problems(shards, discovery.runs, program)
    if forged:
        raise UsageError(f"the shards under {args.workspace} do not make one grade; nothing was merged:\n"
                         f"{verify.describe(forged)}")
    try:
        with workspace_lock(args.workspace):
            merged = merge.merge(args.workspace, shards, program, write=not args.check)
    except WorkspaceBusy as busy:
        raise UsageError(str(busy)) from None
    except verify.MergeRefused as refused:
        raise UsageError(f"the shards under {args.workspace} cannot be merged:\n{refused}") from None
    merged = replace(merged, unread=verify.unread_counted(shards, discovery.unread),
                     no_runs=verify.evals_without_runs(shards, program, merged.graded_evals)
                     if holds_evals(args.workspace) else ())
    _print(args, shards.count, merged)
    return merged.exit_code


def _same_rules(source: RulesSource, manifest: Manifest) -> None:
    from referee.engine.shards.grading import rules_settings

    rules, evals = rules_settings(source)
    if [r["sha256"] for r in rules] == [r.sha256 for r in manifest.rules] and evals == manifest.evals:
        return
    shown = ", ".join(f"{r.file}@{r.sha256.removeprefix('sha256:')[:8]}" for r in manifest.rules) or "no rules file"
    raise UsageError(f"the shards graded with {shown} and evals {manifest.evals or 'none'}; the rules given "
                     "differ. Give the rules and evals the shards graded with")


def _primary_graded(shards: Shards) -> None:
    """The shards' ``--primary`` names the configuration of some graded run, as
    ``referee grade --primary`` requires (a shard alone may hold none of its runs)."""
    primary = shards.first.options.get("primary")
    if primary is None:
        return
    configs = sorted({entry.configuration for _, m in shards.manifests.values() for entry in m.runs})
    if primary not in configs:
        # Folder names may hold a line break: written as \n, so the message stays on its line.
        shown = ", ".join(configs).replace("\n", "\\n") or "none"
        raise UsageError(f"--primary {primary}: no run of that configuration among the runs the shards graded "
                         f"({shown}); grade the shards with the configuration to gate on")


def _print(args: argparse.Namespace, count: int, merged: Merged) -> None:
    from referee.engine.commands.warnings import warn

    # Counted as `referee grade` counts them: a run in which nothing counted did not fail.
    failed = merged.runs - merged.passed_runs - merged.empty_runs
    empty = f", {merged.empty_runs} with nothing counted" if merged.empty_runs else ""
    decision = "PASS" if merged.exit_code == 0 else "FAIL"
    print(f"{decision}  {count} shard{'s' if count != 1 else ''}, {merged.runs} run{'s' if merged.runs != 1 else ''} "
          f"({merged.passed_runs} passed, {failed} failed{empty}); gated assertions {merged.gate_passed}/"
          f"{merged.gate_total} passed" + (f" (gate: {merged.primary} alone)" if merged.primary else ""))
    if merged.unread:
        from referee.engine.report.terminal import unread_line

        print(unread_line(merged.unread))
    if merged.no_runs:
        from referee.engine.report.terminal import no_runs_line

        print(no_runs_line(merged.no_runs))
    if merged.gate_total == 0:
        warn("nothing counted toward the gate (only existence or not-graded semantic assertions"
             + (f" in the runs of {merged.primary}" if merged.primary else "") + "); this is not a pass")
    if args.check:
        print(f"nothing was written (--check); {merged.rewritten} reports would get the merged eval critique")
    else:
        print(f"merged: {merged.rewritten} reports got the eval critique of every shard's runs; wrote "
              f"{(args.workspace / 'shard-merge.json').as_posix()}")
