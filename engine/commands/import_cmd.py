"""``referee import FORMAT SOURCE... --out WORKSPACE``: turn transcripts into runs.

FORMAT is ``claude-code`` (session JSONL), ``openai`` (chat-completions message
lists), ``skill-creator-log`` (the executor's Markdown log) or ``auto``. Each
conversation becomes a run folder under WORKSPACE that ``referee grade`` reads,
with a ``source_map.json`` so evidence names the original file and line.

Exit status: 0 when every source was imported (problems in a source are printed
as warnings and the rest of it imported), 2 when a source is missing or not in a
format referee imports. (The module is not called ``import``: that is a keyword.)
"""

from __future__ import annotations

from pathlib import Path

from referee.engine.usage import UsageError


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


def add_parser(sub) -> None:
    """Register the ``import`` subcommand on an argparse subparsers object."""
    parser = sub.add_parser(
        "import",
        help="import Claude Code sessions, OpenAI message lists or skill-creator logs as runs",
        description="Write one run folder per imported conversation, ready for referee grade.",
    )
    parser.add_argument("format", metavar="FORMAT", choices=_Formats(), help="one of %(choices)s")
    parser.add_argument("sources", metavar="SOURCE", nargs="+", help="files to import")
    parser.add_argument("--out", metavar="WORKSPACE", required=True, help="folder to write the runs into")
    parser.add_argument("--eval", metavar="ID", dest="eval_id",
                        help="make the conversations the runs of this eval (WORKSPACE/eval-ID/CONFIG/run-k), "
                             "so rules and evals.json for eval ID apply; default: one eval per source, named after it")
    parser.add_argument("--config", metavar="NAME", default="imported",
                        help="the configuration folder with --eval (default: imported)")
    parser.add_argument("--response", metavar="PATH",
                        help="the file the harness delivered as the answer, relative to the run folder "
                             "(the source's folder, or the one above outputs/): it is the response, "
                             "over what the source says last (default: outputs/response.md when present)")
    parser.set_defaults(handler=run)


def run(args) -> int:
    from referee.engine.run.importers import UnknownFormat, import_sources
    from referee.engine.run.importers.writer import RESPONSE, TRANSCRIPT

    paths = [Path(s) for s in args.sources]
    for path in paths:
        if not path.is_file():
            raise UsageError(f"{path}: no such file")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: not a directory")
    try:
        written = import_sources(args.format, paths, out, args.eval_id, args.config, args.response)
    except UnknownFormat as exc:
        raise UsageError(str(exc)) from None
    print(f"imported {len(written)} run{'s' if len(written) != 1 else ''} into {args.out}")
    for item in written:
        files = item.files
        calls = files.files[TRANSCRIPT].count("\n## [tool_calls] ") + files.files[TRANSCRIPT].startswith("## [tool_calls] ")
        replies = "a response" if files.files[RESPONSE].strip() else "no response"
        print(f"  {item.name}: {item.conversation.format}, {calls} tool calls, {replies}, "
              f"{len(files.problems)} problem{'s' if len(files.problems) != 1 else ''}")
        for problem in files.problems:
            print(f"    {problem}")
    print(f"grade them with: referee grade {args.out} --rules RULES")
    return 0
