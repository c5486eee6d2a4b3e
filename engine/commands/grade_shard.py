"""``referee grade --shard i/n``: the flag, and the manifest written once the shard's
runs are (``engine.shards``)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from referee.engine.commands.warnings import warn
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.engine.compile import Program
    from referee.engine.grade import RulesSource
    from referee.engine.report.stored import Stored
    from referee.engine.report.write import WriteResult
    from referee.engine.shards.grading import ShardPart
    from referee.engine.shards.tally import EvalTally


def add_shard_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--shard", type=_shard, default=None, metavar="I/N",
                        help="grade only shard I of N (a hash of each run's eval id, configuration and "
                             "run number); writes shard-I-of-N.json for `referee merge` (docs/scale.md)")


def _shard(text: str):
    from referee.engine.shards.part import parse_shard

    try:
        return parse_shard(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def options(args: argparse.Namespace) -> dict[str, Any]:
    """The options besides the rules that change what a shard writes, or the merge's
    decision (``--primary``): every shard of one grade must share them."""
    from referee.engine.run.safeio import safe_relative
    from referee.engine.run.select import Selection, selection_from_args

    # The file a run's response is read from, as reading names it: ./outputs//x.md
    # reads outputs/x.md, the same reports; one that no run could hold stays as given.
    response = args.response if args.response is None else safe_relative(args.response) or args.response
    # Each flag's values as a set (--eval 2 --eval 1 selects what --eval 1 --eval 2 does).
    given = selection_from_args(args)
    selection = Selection(tuple(sorted(set(given.evals))), tuple(sorted(set(given.configs))),
                          tuple(sorted(set(given.runs))))
    return {"response": response, "selection": selection.describe() or None, "primary": args.primary}


def warn_leftover_manifests(args: argparse.Namespace) -> None:
    """A grade without ``--shard`` that wrote reports where shard manifests lie: the
    readers of the grade check those reports against the manifests and refuse them
    (unless the grade wrote the very reports the merge did), so the user hears now
    what they will be told then (``verify.leftover_advice``)."""
    if args.shard is not None or args.check or args.sources is not None \
            or not any(args.workspace.glob("shard-*-of-*.json")):
        return  # and the shards' code (which loads pydantic) is not loaded: a plain grade never needs it
    from referee.engine.shards.verify import require_one_grade, shard_files

    try:
        require_one_grade(args.workspace)  # nothing to say where no manifest is (a stray name the glob took)
        return
    except UsageError:
        pass
    named = ", ".join(shard_files(args.workspace))
    warn(f"{args.workspace} holds the files of a sharded grade ({named}): aggregate, report, "
         "compare, analyze, validate and diff check these reports against them and refuse what the "
         f"shards did not write; to read this grade, move those files out of {args.workspace}")


def write_manifest(args: argparse.Namespace, part: ShardPart, program: Program, source: RulesSource,
                   stored: Sequence[Stored | None], results: Sequence[WriteResult], tallies: Mapping[str, EvalTally],
                   extra: Mapping[str, Sequence[dict]]) -> None:
    """``shard-i-of-n.json`` in the workspace, when every graded run was written;
    otherwise nothing, with a warning (the merge will find those runs unaccounted
    for). ``stored`` holds each run of the shard's, in order: its ``Stored``, or None
    where no eval matched; ``results`` what the writer did with each graded one."""
    from referee.engine.shards import grading, manifest

    if any(not r.written for r in results):
        warn(f"{part.shard.file_name} was not written: some runs of this shard were not written "
             "(see the warnings); grade the shard again")
        return
    found = grading.manifest(part, source, grading.judge_settings(args), options(args), stored, tallies, extra,
                             grading.inputs_settings(program))
    try:
        path = manifest.write_manifest(args.workspace, part.shard.file_name, found)
    except OSError as exc:
        raise UsageError(f"cannot write {args.workspace / part.shard.file_name}: {exc.strerror or exc}; "
                         "the shard's reports were written, but the merge needs this file") from None
    print(f"shard {part.shard}: wrote {path.as_posix()} ({len(found['runs'])} runs graded); the decision "
          "comes from `referee merge` over every shard", file=sys.stderr)

