"""The one error type for mistakes in how referee was called or what it was given.

Commands raise ``UsageError`` instead of printing and returning an exit code
through every caller; ``engine.cli.main`` prints it as ``referee COMMAND: error:
MESSAGE`` and exits with 2. An ``OSError`` that escapes a command (a full disk,
a file-size limit, an I/O error) is the system's answer, not a defect:
``system_error`` says it in one sentence, and the command exits with 2 too.
Anything else that escapes is a defect in referee.
"""

from __future__ import annotations

import errno


class UsageError(Exception):
    """A bad invocation or unusable input; ``str(error)`` is the whole message."""

    exit_code = 2


# What the system said, where it means that there is no room to write.
_NO_ROOM = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
            errno.EFBIG: "a file grew past the size this process may write"}


def system_error(exc: OSError) -> str:
    """An ``OSError`` that reached the command line, as one sentence: what went wrong,
    the file when the system named it, and, when it is room, what to do."""
    said = exc.strerror or str(exc) or type(exc).__name__
    where = f" ({exc.filename})" if exc.filename else ""
    room = _NO_ROOM.get(exc.errno or 0)
    if room:
        return (f"{room} ({said}){where}; free some space (or raise the limit) and run it again. "
                "The files referee replaces are replaced whole or not at all")
    return f"{said}{where}"
