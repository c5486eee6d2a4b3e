"""The ``referee`` command line: dispatches to one module per subcommand.

Exit codes: 0 success, 1 a check or assertion failed, 2 usage or input error,
130 interrupted, 141 standard output closed before all of it was written.
No traceback reaches the user: a ``UsageError`` or an ``OSError`` (a full disk)
is printed as one line, and an unexpected exception as a one-line report, with
its traceback only under ``--debug`` or ``REFEREE_DEBUG=1``.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module
from typing import Any, Protocol

from referee.engine import __version__
from referee.engine.usage import UsageError

COMMANDS = ("import_cmd", "show", "check", "suggest", "grade", "merge", "critique", "aggregate", "report",
            "compare", "analyze", "validate", "diff")  # in the order of the work; import_cmd registers "import"
# The word that calls each command module's subcommand.
WORDS = {("import" if name == "import_cmd" else name): name for name in COMMANDS}
# Each command's line in ``referee --help``: the help its module registers, written
# here too so that listing the commands imports none of them (a test keeps the two
# equal).
SUMMARIES = {
    "import": "import Claude Code sessions, OpenAI message lists or skill-creator logs as runs",
    "show": "show how referee reads a run (or every run of a workspace)",
    "check": "validate rules files (syntax, names, regexes, links to evals.json)",
    "suggest": "draft a rules file from the sentences of evals.json",
    "grade": "grade every run of a workspace and write grading.json",
    "merge": "check the shards of a sharded grade and merge them into one grade",
    "critique": "test the assertions: do they fail when their evidence is broken?",
    "aggregate": "benchmark graded runs and decide PASS / CONDITIONAL PASS / FAIL",
    "report": "render graded runs as HTML, JUnit XML, GitHub annotations or Markdown",
    "compare": "blind A/B comparison of two configurations, decided by the rules",
    "analyze": "explain a comparison from facts: assertions, claims, tool calls, the skill's text",
    "validate": "can each eval tell? a null run must fail it, a reference run pass it",
    "diff": "regressions between two graded states (workspaces, iterations or benchmark files)",
}


class Subcommands(Protocol):
    """What a command module's ``add_parser(sub)`` is handed: the ``add_subparsers``
    of ``build_parser``, on which it registers its subcommand."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def build_parser(*loaded: str) -> argparse.ArgumentParser:
    """The command line, with the subcommands named in ``loaded`` registered in full
    by their modules (imported here) and every other one as a stand-in that only
    lists it, with its line of ``SUMMARIES``. ``referee check`` then loads neither
    the grader nor the report code behind the other commands, and ``referee --help``
    prints exactly what a parser holding every subcommand prints."""
    parser = argparse.ArgumentParser(
        prog="referee",
        description="Offline, deterministic grading of agent and skill evaluations.",
    )
    parser.add_argument("--version", action="version", version=f"referee {__version__}")
    parser.add_argument("--debug", action="store_true",
                        help="show the traceback of an internal error (also REFEREE_DEBUG=1)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for word, module in WORDS.items():
        if word in loaded:
            import_module(f"referee.engine.commands.{module}").add_parser(sub)
        else:  # takes no option, not even --help: what follows the word is not read
            sub.add_parser(word, help=SUMMARIES[word], add_help=False)
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """``argv`` read in two passes: the first, with every subcommand a stand-in,
    finds the command (and answers ``--help``, ``--version`` and a word that is no
    command); the second reads the whole line with that command loaded."""
    found, _ = build_parser().parse_known_args(argv)
    return build_parser(found.command).parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    try:  # Ctrl-C while the streams are set up or the commands load is no traceback either
        _tolerant_streams()
        args = parse_args(argv)
    except KeyboardInterrupt:
        print("referee: interrupted; nothing was done", file=sys.stderr)
        return 130
    debug = args.debug or os.environ.get("REFEREE_DEBUG", "") not in ("", "0")
    from referee.engine.terminate import sigterm_as_ctrl_c

    try:
        with sigterm_as_ctrl_c():
            return int(args.handler(args) or 0)
    except UsageError as exc:
        from referee.engine.report.inert import inert  # escapes what the message quotes

        print(f"referee {args.command}: error: {inert(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("referee: interrupted; nothing was left half-written", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of standard output went away (``| head``): the command stopped at
        # that line, so what it had left to print, grade or write was not done, and 0
        # would pass a CI gate (``set -o pipefail``) over a grade that failed. 141 is
        # what a shell reports of a program that SIGPIPE stopped, as 130 is for Ctrl-C.
        _quiet_stdout()
        return 141
    except OSError as exc:  # the system's answer (a full disk ...), not a defect
        from referee.engine.report.inert import inert
        from referee.engine.usage import system_error

        _debug_traceback(debug)
        print(f"referee {args.command}: error: {inert(system_error(exc))}", file=sys.stderr)
        return 2
    except Exception as exc:  # the last line of defence: never a traceback unless asked
        _debug_traceback(debug)
        print(f"referee: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        print("referee: please report this with the command that caused it "
              "(run it again with --debug for the traceback)", file=sys.stderr)
        return 2


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that Python's flush of it at exit
    does not report the closed pipe again as an ignored exception."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):  # a stream put in its place has none
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def _debug_traceback(debug: bool) -> None:
    if debug:
        import traceback  # only for this report, so not loaded by every call

        traceback.print_exc()


def _tolerant_streams() -> None:
    """Print what the console cannot encode as escapes (``PYTHONIOENCODING=latin-1``,
    a file name that is not UTF-8) instead of failing half-way through a summary."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # a replaced stream may lack it
        if reconfigure is None:
            continue
        try:
            reconfigure(errors="backslashreplace")
        except ValueError:
            pass


if __name__ == "__main__":
    sys.exit(main())
