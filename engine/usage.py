"""The one error type for mistakes in how referee was called or what it was given.

Commands raise ``UsageError`` instead of printing and returning an exit code
through every caller; ``engine.cli.main`` prints it as ``referee COMMAND: error:
MESSAGE`` and exits with 2. Anything else that escapes is a defect in referee.
"""

from __future__ import annotations


class UsageError(Exception):
    """A bad invocation or unusable input; ``str(error)`` is the whole message."""

    exit_code = 2
