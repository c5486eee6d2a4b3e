"""``referee grade SOURCE...``: sessions and message lists graded without a workspace.

Given files instead of a workspace folder, ``grade`` reads them as ``referee
import`` does (Claude Code sessions, OpenAI message lists, skill-creator logs; the
format of each is detected) and grades the runs in memory
(``engine.run.importers.in_memory``): the same verdicts, evidence and reports as
``referee import`` then ``referee grade``, and nothing is written. ``referee show
SOURCE...`` reads them so too, and shows the runs as ``show`` of that workspace does.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from referee.engine.commands.arguments import given_path
from referee.engine.commands.warnings import warn
from referee.engine.usage import UsageError


def add_arguments(parser: argparse.ArgumentParser, done: str = "graded in memory") -> None:
    """The second and later sources (``done`` with them, the help says), and how the
    sources are read."""
    parser.add_argument("more_sources", nargs="*", type=given_path, metavar="SOURCE",
                        help="Claude Code sessions (*.jsonl), OpenAI message lists or skill-creator logs "
                             f"instead of a workspace: {done}, nothing is written")
    group = parser.add_argument_group("sources (files given instead of a workspace)")
    group.add_argument("--as-eval", metavar="ID", dest="as_eval",
                       help="the conversations are the runs of eval ID, as referee import --eval ID makes them "
                            "(default: each source is its own eval, named after it)")
    group.add_argument("--error-when", metavar="REGEX", dest="error_when",
                       help="openai: a tool message whose text this pattern finds is an error "
                            "(as referee import openai --error-when)")


def given_sources(first: Path, args: argparse.Namespace) -> list[Path] | None:
    """The source files given (``first`` and the more sources), or None when ``first``
    is a folder (a workspace, or a run of ``show``) and nothing else is given."""
    if not args.more_sources and (first.is_dir() or not first.exists()):
        if args.as_eval is not None or args.error_when is not None:
            raise UsageError("--as-eval and --error-when apply to source files, not to a workspace folder")
        return None
    paths = [first, *args.more_sources]
    for path in paths:
        if path.is_dir():
            raise UsageError(f"{path} is a folder: give one folder, or source files")
        if not path.exists():
            raise UsageError(f"{path}: no such file")
    return paths


def discover_sources(paths: list[Path], args: argparse.Namespace, done: str = "graded"):
    """The runs of ``paths`` as a discovery of the workspace ``import`` would write
    (``engine.run.discovery.Discovery``); a source that gave none is an input error
    (nothing is ``done``)."""
    from referee.engine.run.discovery import Discovery
    from referee.engine.run.importers import BadPattern
    from referee.engine.run.importers.in_memory import source_runs
    from referee.engine.run.importers.naming import BadName
    from referee.engine.run.reading import response_files

    try:
        found = source_runs(paths, args.as_eval, response=args.response, error_when=args.error_when,
                            responses=response_files(None, args.evals))
    except (BadPattern, BadName) as exc:
        raise UsageError(str(exc)) from None
    if found.errors:
        # A source named and not read gives no run: graded without it, the gate would
        # pass over what could not be read (referee.grade refuses it too).
        raise UsageError("; ".join(found.errors) + f"; nothing {done}: every source given must be read")
    for note in found.notes:
        warn(note)
    return Discovery(list(found.runs))
