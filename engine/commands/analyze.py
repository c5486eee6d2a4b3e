"""``referee analyze WORKSPACE``: why one configuration beat the other, from facts."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from referee.engine.commands.arguments import add_workspace, given_path
from referee.engine.commands.warnings import warn_all
from referee.engine.compare.output import say
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.engine.cli import Subcommands

EPILOG = """\
exit codes:
  0  analysis.json written (or printed with --check)
  2  usage or input error: no workspace, no graded run, unknown configurations,
     no skill to read (--skill-path, or --evals inside <skill>/evals/)

analysis.json keeps skill-creator's analyzer schema (comparison_summary,
winner_strengths, loser_weaknesses, instruction_following,
improvement_suggestions, transcript_insights) with a referee block; A is the
primary, B the baseline. Every sentence is counted over runs and cites its run:
assertions that pass on one side only, claims the record does not bear out,
tool calls that ended in error, contaminated runs (and runs whose calls may be
incomplete, which are not shown clean: unchecked_runs), and the scripts, references
and tools SKILL.md names against those the transcripts used (by line), with a
coverage report across all runs.
"""


def add_parser(sub: Subcommands) -> None:
    """Register ``analyze`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "analyze", help="explain a comparison from facts: assertions, claims, tool calls, the skill's text",
        description="Explain why the primary configuration won or lost against the baseline, from "
                    "the graded runs, their transcripts and the skill's SKILL.md.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_workspace(parser)
    parser.add_argument("--primary", metavar="CONFIG", help="the configuration under test (default from the names)")
    parser.add_argument("--baseline", metavar="CONFIG", help="the configuration to compare with")
    parser.add_argument("--skill-path", type=given_path, metavar="DIR", help="the primary's skill (holds SKILL.md)")
    parser.add_argument("--baseline-skill-path", type=given_path, metavar="DIR",
                        help="the baseline's skill, when it ran with one (old_skill against new_skill)")
    parser.add_argument("--evals", type=given_path, metavar="EVALS_JSON",
                        help="evals.json; inside <skill>/evals/ it also names the skill")
    parser.add_argument("--rubric", type=given_path, metavar="FILE", help="TOML naming assertions' criteria")
    parser.add_argument("--iteration", type=int, metavar="N", help="with several iterations, the one to read")
    parser.add_argument("--out", type=given_path, metavar="DIR", help="the folder to write analysis.json into, "
                        "which must be there already (default WORKSPACE/comparison)")
    parser.add_argument("--check", action="store_true", help="print analysis.json; write nothing")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from referee.engine.commands.compare import OUT
    from referee.engine.compare import analysis, output, procedure, skilltext
    from referee.engine.compare.skill import find
    from referee.engine.report.folders import named_folder

    if args.out is not None and not args.check:
        named_folder(args.out, "--out", ("analysis.json",))
    found = procedure.setup_from(args)
    warn_all([f"warning: {line}" for line in found.loaded.warnings])
    if found.skill.folder is None:
        raise UsageError("analyze reads the skill's SKILL.md: give --skill-path DIR (or --evals "
                         "<skill>/evals/evals.json)")
    done = procedure.compare(found, seed=0)
    seen = {c.tool for run in found.loaded.runs for c in run.source.transcript.calls if c.tool}
    text = skilltext.read(found.skill.folder, _shown(found.skill.folder), seen)
    other = find(args.baseline_skill_path, None) if args.baseline_skill_path else None
    other_text = skilltext.read(other.folder, _shown(other.folder), seen) if other and other.folder else None
    sides = analysis.Sides(found.primary, found.baseline, found.skill.shown or found.primary,
                           other.shown if other and other.shown else f"{found.baseline} (no skill)")
    document = analysis.document(found.loaded, sides, done.summary, text, other_text, found.tags,
                                 [str(found.skill.folder)])
    if args.check:
        output.show_json(document)
        return 0
    written = output.write_documents(args.out or output.own_folder(args.workspace / OUT), {"analysis.json": document})
    _print(document, written[0])
    return 0


def _shown(folder: Path) -> str:
    """A skill folder as documents name it: its own name, never an absolute path."""
    return folder.resolve().name


def _print(document: dict, written: Path) -> None:
    summary = document["comparison_summary"]
    say(f"analyze: winner {summary['winner']} ({summary['winner_skill']}); {summary['comparator_reasoning']}")
    for title, key in (("strengths", "winner_strengths"), ("weaknesses of the loser", "loser_weaknesses")):
        say(f"  {title}:")
        for line in document[key][:5] or ["(none found)"]:
            say(f"    - {line}")
    for row in document["referee"]["skill_coverage"]:
        say(f"  skill: {row['summary']}")
    for row in document["referee"]["unchecked_runs"]:
        say(f"  not shown clean: {row['path']}: {row['reason']}")
    say(f"  {len(document['improvement_suggestions'])} improvement suggestions")
    say(f"wrote {written}")
