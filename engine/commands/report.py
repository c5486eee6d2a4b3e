"""``referee report``: render the graded runs of a workspace for people and CI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from referee.engine.commands.arguments import add_workspace, given_name, given_path
from referee.engine.report.color import add_color_argument
from referee.engine.run.select import add_selection_arguments, selection_from_args
from referee.engine.commands.warnings import warn
from referee.engine.text import count
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.engine.cli import Subcommands
    from referee.engine.report.collect import Collection

FORMATS = ("html", "junit", "github", "markdown")
DEFAULT_FILES = {"html": "report.html", "junit": "junit.xml", "markdown": "summary.md"}

EPILOG = """\
formats:
  html      a viewer with no network (default): report.html and, beside it,
            report_files/ (one file per run, loaded when the run is opened);
            each eval with the configurations side by side, failures first, a
            filter by eval, configuration, status and assertion text; each run
            with its prompt, response, timing and tokens, assertions and
            evidence, and its transcript with every cited line highlighted.
            Written to WORKSPACE/report.html unless -o is given; to standard
            output, a FIFO or a device, one page holding every run
  junit     JUnit XML: a test suite per run, a test case per assertion
  github    GitHub Actions workflow commands (::error file=...,line=...::), on stdout
  markdown  a summary for a pull-request comment or $GITHUB_STEP_SUMMARY

Roles: with a primary configuration known (--primary, or the one `referee
aggregate` recorded in benchmark.json), only its runs count: the others (a
baseline that fails by design) are reported as context, never as failures
(JUnit skipped with the reason, no annotation, a line of their own).

GitHub annotations name files from --root (default: the current folder, the
repository root in CI): the cited line of the run's file; for an imported run,
its source file in a --sources folder; else the rules line, when --rules names
the rules file that graded (same name and content). A place that is not a file
there is left out rather than guessed.

-o - prints to stdout. Without -o, html, junit and markdown are written into
WORKSPACE (report.html, junit.xml, summary.md) and github is printed. -o FILE
replaces a regular file atomically and writes through a FIFO, a device or a link
(-o /dev/stdout prints); a link, FIFO or device where the default file goes is
refused, never replaced.

The decision on top is benchmark.json's release decision when `referee aggregate`
wrote one (and no selection flag is given, nor a --primary or --baseline other than
the ones it decided with); otherwise PASS when every gated
assertion of every run passed, as for `referee grade`, and FAIL when a run the
gate counts has a grading.json that cannot be read.

exit codes (the decision's, as `referee aggregate` gives them):
  0  the report was written and the decision is PASS
  1  the report was written and the decision is FAIL
  3  the report was written and the decision is CONDITIONAL PASS
  2  usage or input error: no graded run found, the selection matched none, a
     grade older than its run's files, a benchmark.json older than the grades
     or with a decision aggregate does not make again from them, a
     grading.json whose counts disagree with its expectations, or the file
     cannot be written
"""


def add_parser(sub: Subcommands) -> None:
    """Register ``report`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "report", help="render graded runs as HTML, JUnit XML, GitHub annotations or Markdown",
        description="Read the grading.json files under WORKSPACE (any level: workspace, iteration, "
                    "eval, configuration or run folder) and benchmark.json when present, and "
                    "render them. Run `referee grade` first.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_workspace(parser)
    parser.add_argument("--format", "-f", choices=FORMATS, default="html",
                        help="what to render (default html; see formats below)")
    parser.add_argument("-o", "--output", type=given_name, metavar="FILE", default=None,
                        help="where to write ('-' for stdout)")
    parser.add_argument("--primary", metavar="CONFIG",
                        help="the configuration the gate counts; the others are context "
                             "(default: benchmark.json's primary, else every run counts)")
    parser.add_argument("--baseline", metavar="CONFIG", help="the configuration to show as the baseline")
    parser.add_argument("--no-benchmark", action="store_true",
                        help="leave benchmark.json out: the decision is the gate's, over the primary's runs "
                             "(or every run), as `referee grade --primary` decides")
    parser.add_argument("--root", type=given_path, metavar="DIR", default=Path("."),
                        help="github: annotation paths are relative to this folder (default: the current one)")
    parser.add_argument("--rules", type=given_path, nargs="+", action="extend", default=[], metavar="FILE",
                        help="github: the rules files that graded, to annotate an assertion's rules line")
    parser.add_argument("--sources", type=given_path, action="append", default=[], metavar="DIR",
                        help="github: a folder holding imported runs' source files (repeatable)")
    add_selection_arguments(parser)
    add_color_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Render and write; the exit code follows the decision, as ``grade``'s does."""
    # Loaded here, not at the top: ``referee --help`` builds every subcommand's parser.
    from referee.engine.report.color import paint, use_color
    from referee.engine.report.folders import folder_of_file, not_in_a_run, not_read_from
    from referee.engine.report.lock import WorkspaceBusy, workspace_lock

    if not args.workspace.is_dir():
        raise UsageError(f"workspace not found: {args.workspace}")
    rules = _places_given(args)
    if args.output not in (None, "-"):
        not_in_a_run(not_read_from(folder_of_file(Path(args.output), "-o"), args.workspace, "-o"), "-o")
    try:
        # The grade's writer lock, as aggregate holds it: no grade writes into the
        # workspace while it is read, so the report never shows runs graded by old
        # rules beside runs graded by new ones. The report is written under it too: a
        # page with files reads the runs' files as it is written.
        with workspace_lock(args.workspace):
            collection, target = _report(args, rules)
    except WorkspaceBusy:
        raise UsageError(f"another referee is writing reports into {args.workspace} (it holds the "
                         "workspace's lock); nothing was reported. Run this again when it has "
                         "finished") from None
    if target is not None:
        decision = paint(collection.decision, collection.decision, use_color(sys.stderr, args.color))
        print(f"wrote {target.as_posix()} ({args.format}, {count(len(collection.runs), 'run')}): {decision}",
              file=sys.stderr)
    return {"PASS": 0, "CONDITIONAL PASS": 3}.get(collection.decision, 1)


def _places_given(args: argparse.Namespace) -> dict[Path, str]:
    """The text of each ``--rules`` file, read once here for the github format's places
    (``Places.of``). Refuse a ``--root`` or ``--sources`` that is no folder and a
    ``--rules`` that is no readable file: the annotations would stand on the job, not
    on the file and line the evidence names, and nothing would say a path was mistyped."""
    from referee.dsl.named_file import read_named_text

    for flag, folder in [("--root", args.root)] + [("--sources", path) for path in args.sources]:
        if not folder.is_dir():
            raise UsageError(f"{flag} {folder}: no such folder (nothing was reported)")
    texts = {}
    for path in args.rules:
        try:
            # As grade reads it (line endings kept, UTF-16 decoded), so the digest is
            # the one rules_location records; a FIFO is refused, never waited on.
            texts[path] = read_named_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"--rules {path}: cannot be read ({getattr(exc, 'strerror', None) or exc}); "
                             "nothing was reported") from None
    return texts


def _report(args: argparse.Namespace, rules: dict[Path, str]):
    """The workspace's collection, rendered and printed or written; and the file written
    (None when printed). ``rules``: the text of each ``--rules`` file (``_places_given``)."""
    from referee.engine.report.atomic import write_atomic, write_output
    from referee.engine.report.collect import NothingToReport, NotTrusted, collect
    from referee.engine.report.stdout import print_document
    from referee.engine.shards.verify import require_one_grade

    require_one_grade(args.workspace)  # a sharded grade: its shards checked and merged
    try:
        collection = collect(args.workspace, selection_from_args(args), args.primary, args.baseline,
                             with_benchmark=not args.no_benchmark)
    except (NothingToReport, NotTrusted) as exc:
        # One line that names folders of the workspace (runs, configurations): a line break
        # in a name is written as \n, or the rest of it would start a line of its own (one
        # a CI runner reads as a workflow command).
        raise UsageError(str(exc).replace("\n", "\\n")) from None
    for problem in collection.problems:
        warn(problem)  # names from the workspace: control characters are escaped
    target = _target(args)
    if target is None:
        print_document(render(collection, args.format, args, rules))
        return collection, None
    # A path the user typed is theirs: a FIFO or /dev/stdout there is written
    # through. The default file in the workspace is replaced only if regular.
    write = write_output if args.output is not None else write_atomic
    try:
        if args.format == "html" and _a_page_with_files(target):
            _write_viewer(collection, target, write)
        else:
            write(target, render(collection, args.format, args, rules))
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}; give another place with -o") from None
    return collection, target


def render(collection: Collection, fmt: str, args: argparse.Namespace | None = None,
           rules: dict[Path, str] | None = None) -> str:
    """The text of ``collection`` in format ``fmt`` (one of ``FORMATS``); ``args``
    give the github format its root and source folders, ``rules`` the text of each
    rules file named."""
    if fmt == "github":
        from referee.engine.report.github import render_github
        from referee.engine.report.places import Places

        places = Places.of(args.root, rules or {}, args.sources) if args is not None else None
        return render_github(collection, places)
    if fmt == "html":
        from referee.engine.report.html import render_html as renderer
    elif fmt == "junit":
        from referee.engine.report.junit import render_junit as renderer
    else:
        from referee.engine.report.markdown import render_markdown as renderer
    return renderer(collection)


def _a_page_with_files(target: Path) -> bool:
    """Whether ``target`` takes a page with its runs' folder beside it: a new path or
    a regular file. Through a FIFO, a device or a link, one page holds everything."""
    import stat

    try:
        return stat.S_ISREG(target.lstat().st_mode)
    except FileNotFoundError:
        return True


def _write_viewer(collection: Collection, target: Path, write: Callable[[Path, bytes | str], None]) -> None:
    from referee.engine.report.bundle import files_folder, write_bundle
    from referee.engine.report.html import html_bundle

    bundle = html_bundle(collection, files_folder(target).name)
    write_bundle(target, bundle.page, bundle.files(), write)


def _target(args: argparse.Namespace) -> Path | None:
    if args.output == "-":
        return None
    if args.output is not None:
        return Path(args.output)
    name = DEFAULT_FILES.get(args.format)
    return args.workspace / name if name else None
