"""``referee import FORMAT SOURCE... --out WORKSPACE``: turn transcripts into runs.

FORMAT is ``claude-code`` (session JSONL), ``openai`` (chat-completions message
lists), ``skill-creator-log`` (the executor's Markdown log) or ``auto``. Each
conversation becomes a run folder under WORKSPACE that ``referee grade`` reads,
with a ``source_map.json`` so evidence names the original file and line.

Exit status: 0 when runs were imported (problems in a source are printed as
warnings and the rest of it imported; a source that gave no run, being empty,
plain text, unrelated JSON or not a regular file, is printed as an error), 2 when
nothing was imported. Nothing a source name holds reaches the terminal as a
control character. (The module is not called ``import``: that is a keyword.)
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from referee.engine.commands.arguments import given_name, response_name
from referee.engine.text import count as plural
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.engine.cli import Subcommands
    from referee.engine.run.importers import Imported


EXIT_CODES = """\
exit codes:
  0  runs were imported (problems in a source are printed as warnings and the
     rest of it imported; a source that gave no run is printed as an error)
  2  nothing was imported, or a usage error
"""


class _Formats:
    """The FORMAT names, asked of the importers only when argparse checks or shows
    them: ``referee --help`` builds this parser and needs none of the importers."""

    def _names(self) -> tuple[str, ...]:
        from referee.engine.run.importers import AUTO, FORMATS

        return FORMATS + (AUTO,)

    def __iter__(self):
        return iter(self._names())

    def __contains__(self, name: object) -> bool:
        return name in self._names()


def add_parser(sub: Subcommands) -> None:
    """Register the ``import`` subcommand on an argparse subparsers object."""
    parser = sub.add_parser(
        "import",
        help="import Claude Code sessions, OpenAI message lists or skill-creator logs as runs",
        description="Write one run folder per imported conversation, ready for referee grade.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("format", metavar="FORMAT", choices=_Formats(), help="one of %(choices)s")
    parser.add_argument("sources", metavar="SOURCE", nargs="+", type=given_name, help="files to import")
    parser.add_argument("--out", metavar="WORKSPACE", required=True, type=given_name,
                        help="folder to write the runs into")
    parser.add_argument("--eval", metavar="ID", dest="eval_id",
                        help="make the conversations the runs of this eval (WORKSPACE/eval-ID/CONFIG/run-k), "
                             "so rules and evals.json for eval ID apply; default: one eval per source, named after it")
    parser.add_argument("--config", metavar="NAME", default="imported",
                        help="the configuration folder with --eval (default: imported)")
    parser.add_argument("--response", metavar="PATH", type=response_name,
                        help="the file the harness delivered as the answer, relative to the run folder "
                             "(the source's folder, or the one above outputs/): it is the response, "
                             "over what the source says last (default: outputs/response.md when present)")
    parser.add_argument("--error-when", metavar="REGEX", dest="error_when",
                        help="openai: a tool message whose text this pattern finds is an error (the format "
                             "has no error flag; is_error, status \"error\" and an error member are read too)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from referee.engine.run.importers import BadPattern, import_sources
    from referee.engine.run.importers.naming import BadName

    paths = [Path(s) for s in args.sources]
    for path in paths:
        if not path.exists():
            raise UsageError(f"{_shown(str(path))}: no such file")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: not a directory")
    if args.error_when is not None and args.format not in ("openai", "auto"):
        raise UsageError(f"--error-when applies to openai sources; {args.format} sources say which calls failed")
    try:
        result = import_sources(args.format, paths, out, args.eval_id, args.config, args.response,
                                args.error_when)
    except (BadPattern, BadName) as exc:
        raise UsageError(str(exc)) from None
    for error in result.errors:
        print(f"referee import: error: {_shown(error)}", file=sys.stderr)
    if not result.written:
        raise UsageError(f"nothing was imported into {args.out}")
    count = len(result.written)
    print(f"imported {count} run{'s' if count != 1 else ''} into {args.out}")
    for note in result.notes:
        print(f"  note: {_shown(note)}")
    for item in result.written:
        _summary(item)
    print(f"grade them with: referee grade {args.out} --rules RULES")
    # A source that gave no run is not in the workspace: a pipeline that grades what
    # was written must not pass over it (grade SOURCE... refuses such a source).
    return 1 if result.errors else 0


def _summary(item: Imported) -> None:
    from referee.engine.report.inert import line_start
    from referee.engine.run.importers import skill_creator
    from referee.engine.run.importers.detect import IMPORTED_LOG

    replies = "response unknown" if item.responded is None else "a response" if item.responded else "no response"
    count = len(item.problems)
    print(f"  {item.name}: {item.format}, {plural(item.calls, 'tool call')}, {replies}, "
          f"{plural(count, 'problem')}")
    for problem in item.problems:  # a problem starts with its source's name, which may start with "::"
        print(line_start(f"    {_shown(str(problem))}"))
    if item.format == skill_creator.FORMAT:  # the warning grade gives this run, said before a grade is tried
        print(f"    warning: {IMPORTED_LOG}")


def _shown(text: str) -> str:
    """``text`` on one line, with no character a terminal would act on."""
    from referee.engine.report.inert import inert

    return inert(text).replace("\n", "\\n").replace("\t", "\\t")
