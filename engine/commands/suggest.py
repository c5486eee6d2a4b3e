"""``referee suggest``: draft a rules file from the sentences of evals.json."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from referee.engine.commands.arguments import given_path
from referee.engine.commands.warnings import warn
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.dsl.evals_json import EvalsFile
    from referee.engine.cli import Subcommands

EXIT_CODES = """\
exit codes:
  0  a draft was written for every sentence (drafted or left semantic)
  1  no sentence matched a pattern: everything is left to the LLM grader
  2  usage or input error: unreadable evals.json, workspace or pattern files
"""


def add_parser(sub: Subcommands) -> None:
    """Register ``suggest`` on the ``referee`` subcommand parser."""
    parser = sub.add_parser(
        "suggest", help="draft a rules file from the sentences of evals.json",
        description="Draft one check per expectation of evals.json from sentence patterns kept "
                    "as data (rules/patterns/*.toml, and your own with --patterns). With "
                    "--workspace, names are resolved against the tools, argument fields and "
                    "files the runs really have.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("evals", type=given_path, metavar="EVALS_JSON",
                        help="skill-creator evals.json: one draft per sentence of its expectations")
    parser.add_argument("--workspace", type=given_path, metavar="WORKSPACE", default=None,
                        help="resolve tool, field and file names against the runs found here")
    parser.add_argument("--patterns", metavar="DIR", action="append", default=[],
                        help="a folder of your own pattern files (and parts.toml), tried before the "
                             "bundled ones; a pattern with a bundled pattern's id replaces it "
                             "(may be given more than once)")
    parser.add_argument("--no-bundled-patterns", action="store_true",
                        help="draft with the --patterns folders only")
    parser.add_argument("-o", "--output", type=given_path, metavar="FILE", default=None,
                        help="write the rules file here instead of printing it")
    parser.add_argument("--json", action="store_true", help="print the drafts as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from referee.dsl.errors import RulesError
    from referee.dsl.evals_json import load_evals
    from referee.engine.report.folders import folder_of_file, not_an_input, not_in_a_run
    from referee.engine.suggest.patterns import PatternError
    from referee.engine.report.stdout import print_document, print_json
    from referee.engine.suggest.rulesfile import draft_evals, drafts_json, rules_text

    if args.output is not None:
        not_in_a_run(not_an_input(folder_of_file(args.output, "-o"), [args.evals], "-o"), "-o")
    try:
        evals = load_evals(args.evals, args.evals.name)
    except RulesError as exc:
        raise UsageError("; ".join(f"{d.path}:{d.line}: {d.message}" for d in exc.diagnostics)) from None
    try:
        if args.no_bundled_patterns and not args.patterns:
            raise UsageError("--no-bundled-patterns needs at least one --patterns folder")
        drafts = draft_evals(evals, _facts(args.workspace), tuple(args.patterns),
                             bundled=not args.no_bundled_patterns)
    except PatternError as exc:
        raise UsageError(str(exc)) from None
    _warn_repeated(evals)
    if args.json:
        print_json(json.dumps({"schema_version": 1, "drafts": drafts_json(drafts)}, ensure_ascii=False, indent=2) + "\n")
    else:
        text = rules_text(evals, drafts, args.evals.name)
        if args.output is None:
            print_document(text)
        else:
            _write(args.output, text)
    drafted = sum(1 for items in drafts.values() for d in items if d.check is not None)
    return 0 if drafted else 1


def _warn_repeated(evals: EvalsFile) -> None:
    """Each sentence evals.json repeats within an eval: the drafts cannot make such an
    eval compile (``duplicate-text``), so the user learns where to fix it."""
    from referee.engine.suggest.rulesfile import repeated_sentences

    for entry in evals.evals:
        for index, earlier in repeated_sentences(entry).items():
            place = entry.places[index - 1].line if index <= len(entry.places) else 0
            warn(f"{evals.path}:{place}: expectation {index} of eval {entry.id} repeats the sentence of "
                 f"expectation {earlier}; skill-creator's viewer would show one verdict for both, so referee "
                 "refuses it (duplicate-text): give it a sentence of its own")


def _write(path: Path, text: str) -> None:
    """The draft into the file the user named: replaced atomically when it is a
    regular file, written through when it is a FIFO, a device or a link (as ``>``)."""
    from referee.engine.report.atomic import write_output

    try:
        write_output(path, text)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}; give another place with -o") from None
    print(f"wrote {path}", file=sys.stderr)


def _facts(workspace: Path | None) -> dict:
    if workspace is None:
        return {}
    from referee.engine.run.workspace import discover
    from referee.engine.suggest.facts import RunFacts

    if not workspace.is_dir():
        raise UsageError(f"workspace not found: {workspace}")
    facts: dict[str, RunFacts] = {}
    for found in discover(workspace).runs:
        facts.setdefault(found.id.eval_id, RunFacts()).add_run(found)
        found.release()
    return facts
