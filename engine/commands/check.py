"""``referee check [FILE...] [--evals evals.json] [--workspace WS]``: validate rules
without grading.

Each file is parsed and compiled statically on its own (names, functions, regexes,
JSONPaths, links to evals.json), so files written for different skills can be
checked in one call; ``referee grade`` combines the files it is given and reports
conflicts between them. With ``--evals`` alone, the rules written inside evals.json
are checked. All errors of all files are printed, each as
``file:line:col: error[code]: message`` with the source line and a caret, then a
summary. With ``--workspace``, clean rules are also compared with the runs found
there: a tool name, an argument field or a file that no run of the eval has is a
warning with the closest name the runs do have, so a misspelling is caught before
it reads as the agent's failure. Exit 0 when clean (warnings included), 1 when
there are errors, 2 when a file cannot be read.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from referee.engine.commands.arguments import given_name
from referee.engine.report.color import add_color_argument
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.dsl import ast
    from referee.dsl.errors import Diagnostic
    from referee.dsl.evals_json import EvalsFile
    from referee.engine.cli import Subcommands


EXIT_CODES = """\
exit codes:
  0  every file is clean (warnings about the workspace included)
  1  some file has errors: each is printed as file:line:col: error[code]
     with the source line, a caret and "did you mean"
  2  usage error: no file named, or a file that cannot be read (missing,
     not a file, not UTF-8 text)
"""


def add_parser(sub: Subcommands) -> None:
    """Register the ``check`` subcommand."""
    parser = sub.add_parser(
        "check", help="validate rules files (syntax, names, regexes, links to evals.json)",
        description="Validate rules files and report every error with its line and column.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="a .rules file (any number)")
    parser.add_argument("--evals", type=given_name, metavar="EVALS_JSON",
                        help="skill-creator evals.json the rules refer to; alone, the rules "
                        "written inside it are checked")
    parser.add_argument("--workspace", metavar="WORKSPACE",
                        help="also warn about tool names, argument fields and files that no "
                        "run of the eval in this workspace has")
    add_color_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Check the files named in ``args``; print the report; return the exit code."""
    # The parser is loaded here, not at the top: ``referee --help`` builds every
    # subcommand's parser and needs none of it.
    from referee.dsl.errors import RulesError, unique
    from referee.dsl.parser import parse_rules_partial

    if not args.files and not args.evals:
        raise UsageError("name a rules file, or --evals evals.json to check the rules "
                         "written inside it")
    texts: dict[str, str] = {}
    for name in list(args.files) + ([args.evals] if args.evals else []):
        texts[name] = _read(name)
    evals: EvalsFile | None = None
    diagnostics: list[Diagnostic] = []
    if args.evals:
        evals, diagnostics = _load_evals(args.evals, texts[args.evals])
    trees = []
    for name in args.files:
        tree, found = parse_rules_partial(texts[name], name)
        trees.append(tree)
        diagnostics += found + _compile([tree], evals, unread=args.evals is not None and evals is None)
    if not args.files and evals is not None:
        diagnostics += _compile([], evals)
    diagnostics = unique(diagnostics)
    warnings: list[Diagnostic] = []
    if args.workspace and not diagnostics:
        from referee.engine.commands.check_workspace import workspace_warnings

        try:
            warnings = workspace_warnings(trees, evals, Path(args.workspace))
        except RulesError as err:  # the files conflict once combined, as grade would say
            diagnostics = list(err.diagnostics)
    return _report(diagnostics, warnings, texts, max(1, len(args.files)), trees, evals, args.color)



def _read(name: str) -> str:
    """The file's text; a ``UsageError`` naming the file when it cannot be read."""
    from referee.dsl.named_file import NotRegular, read_named_text

    try:
        return read_named_text(name, "utf-8-sig")  # a byte order mark is not text
    except FileNotFoundError:
        raise UsageError(f"cannot read {name}: no such file") from None
    except NotRegular:
        raise UsageError(f"cannot read {name}: not a file") from None
    except UnicodeDecodeError as exc:  # NotUtf8: the byte and its line
        raise UsageError(f"cannot read {name}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None


def _load_evals(name: str, text: str) -> tuple[EvalsFile | None, list[Diagnostic]]:
    """evals.json as far as it reads, and its errors: where some of its checks and lets
    do not parse, the others are compiled too, so their errors are not hidden."""
    from referee.dsl.evals_json import loads_evals_partial

    return loads_evals_partial(text, name, str(Path(name).parent))


def _compile(trees: list[ast.RulesFile], evals: EvalsFile | None, unread: bool = False) -> list[Diagnostic]:
    """Static errors of the compiler, over the files that parsed. ``unread``: an evals.json
    was given and could not be read, so which inputs it lists cannot be told (the
    compiler, given none, would say none was given)."""
    # Imported here, not at the top: other subcommands need not load the compiler.
    from referee.engine.checks.inputs import known_inputs
    from referee.engine.compile import check_rules

    return known_inputs(check_rules(trees, evals), unread)


def _report(diagnostics: list[Diagnostic], warnings: list[Diagnostic], texts: dict[str, str], file_count: int,
            trees: list[ast.RulesFile], evals: EvalsFile | None, color_mode: str = "auto") -> int:
    import sys

    from referee.dsl.errors import render_all
    from referee.engine.report.color import paint, use_color

    color = use_color(sys.stdout, color_mode)
    if diagnostics:
        print(render_all(diagnostics, color=color, texts=texts))
        bad_files = len({d.path for d in diagnostics})
        print("\n" + paint(f"{_plural(len(diagnostics), 'error')} in {_plural(bad_files, 'file')}", "FAIL", color))
        return 1
    if warnings:
        print(render_all(warnings, color=color, texts=texts) + "\n")
    count = sum(len(block.expects) for tree in trees for block in tree.evals)
    if evals is not None:
        count += sum(len(e.rules.expects) for e in evals.evals if e.rules is not None)
    said = f", {_plural(len(warnings), 'warning')}" if warnings else ""
    print(paint("ok", "PASS", color) + f": {_plural(file_count, 'file')}, {_plural(count, 'assertion')}{said}")
    return 0


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
