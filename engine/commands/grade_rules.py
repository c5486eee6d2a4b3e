"""The rules ``referee grade`` (and ``referee merge``) grade by: the files the user
named, read and compiled, with messages that name each file as the user gave it;
and the findings of ``referee critique`` made with these very rules."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from referee.engine.commands.warnings import warn
from referee.engine.usage import UsageError

if TYPE_CHECKING:
    from referee.dsl.errors import RulesError
    from referee.engine.compile import Program
    from referee.engine.grade import RulesSource

# rules_location name -> the path as the user gave it, for messages
_SHOWN: dict[str, str] = {}


def critique_feedback(workspace: Path, source: RulesSource, keys: list[str], response: str | None = None) -> dict:
    """The findings of ``referee critique`` (WORKSPACE/critique.json) as eval_feedback
    suggestions by eval key, when they were made with these very rules and the same
    ``--response``."""
    from referee.dsl.named_file import read_named_text
    from referee.engine.critique.findings import CRITIQUE_FILE, feedback_for

    evals_text = read_named_text(source.evals_path) if source.evals_path else None
    found = feedback_for(workspace, source.files, evals_text, keys, response)
    if found is None:
        warn(f"{CRITIQUE_FILE} was made with other rules, or another --response; its findings are left out "
             "of eval_feedback (run referee critique again)")
        return {}
    return found


def rules_source(args: argparse.Namespace) -> RulesSource:
    """The rules files (``--rules``) and evals.json (``--evals``) of ``args``, read;
    ``UsageError`` naming the file that cannot be read."""
    from referee.dsl.named_file import read_named_text
    from referee.engine.decision.provenance import rules_name
    from referee.engine.grade import RulesSource
    from referee.engine.rules_files import read_rules_files, require_evals_file

    files = []
    for given, text in read_rules_files(args.rules):
        shown = rules_name(given, text)
        files.append((shown, text))
        _SHOWN[shown] = given
    evals_shown = None
    if args.evals is not None:
        require_evals_file(args.evals)
        try:
            evals_shown = rules_name(args.evals, read_named_text(args.evals))
            _SHOWN[evals_shown] = args.evals
        except (OSError, UnicodeDecodeError):
            evals_shown = None  # load_evals reports it, naming the file as given
    return RulesSource(tuple(files), args.evals, evals_shown=evals_shown)


def compile_source(source: RulesSource, color: bool) -> Program:
    """``source`` compiled; every diagnostic printed to stderr and ``UsageError``
    when the rules do not compile."""
    from referee.dsl.errors import RulesError

    try:
        return source.compile()
    except RulesError as exc:
        _refuse(exc, source, color)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot load the evals: {exc}") from None


def check_evals(source: RulesSource, color: bool) -> None:
    """``UsageError`` after printing every problem of the evals.json of ``source``, as
    ``compile_source`` does; run before the runs are found, which reads the
    ``response_file`` each eval names in it."""
    if source.evals_path is None:
        return
    from referee.dsl.errors import RulesError
    from referee.dsl.evals_json import load_evals  # here: rules without --evals never load it

    try:
        load_evals(Path(source.evals_path), source.evals_shown)
    except RulesError as exc:
        try:  # the compiler's errors too, of what did parse: one bad string hides none
            source.compile()
        except RulesError as every:
            exc = every
        _refuse(exc, source, color)


def _refuse(exc: RulesError, source: RulesSource, color: bool) -> NoReturn:
    """Print the diagnostics of a ``RulesError`` and raise ``UsageError`` counting them."""
    from referee.dsl.errors import render_all

    # Messages name each file as the user gave it, not by its rules_location name.
    texts = {_SHOWN.get(path, path): text for path, text in source.files}
    found = [replace(d, path=_SHOWN.get(d.path, d.path)) for d in exc.diagnostics]
    print(render_all(found, color=color, texts=texts), file=sys.stderr)
    count = len(exc.diagnostics)
    raise UsageError(f"{count} error{'s' if count != 1 else ''} in the rules; nothing was graded") from None
