"""The ``referee`` command line: dispatches to one module per subcommand.

Exit codes: 0 success, 1 a check or assertion failed, 2 usage or input error.
No traceback reaches the user: unexpected exceptions become a one-line message.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

COMMANDS = ("show", "check", "grade")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee",
        description="Offline, deterministic grading of agent and skill evaluations.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        import_module(f"referee.engine.commands.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        print("referee: interrupted; nothing was left half-written", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # the last line of defence: never a traceback
        print(f"referee: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        print("referee: please report this with the command that caused it", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
