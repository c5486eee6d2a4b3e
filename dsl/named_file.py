"""Reading a file the user named: a rules file, evals.json, a configuration, a source.

One reading for all of them, so no input type can stall a command or fill its
memory: the file is opened without blocking and checked on the open file itself
(nothing can be swapped in between), so a FIFO is refused instead of waiting for a
writer, a device (a symlink to ``/dev/zero``) or a folder is refused instead of
read, and a file over the reader's limit is not read. ``engine.run.safeio`` builds
its readers of runs and import sources on this one.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

# The limit of a file the user names, as of a run's files (engine.run.safeio.MAX_TEXT_BYTES).
LIMIT = 32 * 1024 * 1024
_UTF8 = ("utf-8", "utf-8-sig")
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # what opens UTF-16 text (little-, big-endian)


class NotRegular(OSError):
    """A named path that is not a regular file (a FIFO, a device, a folder)."""


class TooLarge(OSError):
    """A named file over the size limit of its reader."""


class NotUtf8(UnicodeDecodeError):
    """A named file that is not UTF-8 text: ``str`` names the first byte that is not
    and its line (``line``), where ``UnicodeDecodeError`` gives an offset into the file."""

    @property
    def line(self) -> int:
        return byte_line(self.object, self.start)

    def __str__(self) -> str:
        return f"byte 0x{self.object[self.start]:02x} on line {self.line} is not UTF-8"


def byte_line(data: bytes, offset: int) -> int:
    """The line of ``data`` holding byte ``offset``: a line ends at LF, CRLF or a lone CR
    (a classic Mac OS editor), as the parsers and every citation count lines."""
    return data.count(b"\n", 0, offset) + data.count(b"\r", 0, offset) - data.count(b"\r\n", 0, offset) + 1


def named_bytes(path: Path, limit: int = LIMIT, *, head: bool = False) -> bytes:
    """The bytes of ``path``, at most ``limit`` (with ``head``, its first ``limit``
    bytes, however large it is). Raises ``NotRegular``, ``TooLarge`` or the
    ``OSError`` of opening or reading, each with a ``strerror`` that says why."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # before fdopen, which refuses a folder with an error of its own
            raise NotRegular(errno.EINVAL, "not a regular file (a FIFO, a device or a folder); not read", str(path))
        if info.st_size > limit and not head:
            raise TooLarge(errno.EFBIG, f"{info.st_size} bytes is over the {limit}-byte limit; not read", str(path))
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        if head:
            return handle.read(limit)
        data = handle.read(info.st_size + 1)
        if len(data) > info.st_size:  # grew since: read on, to the limit
            data += handle.read(limit + 1 - len(data))
    if len(data) > limit:
        raise TooLarge(errno.EFBIG, f"over the {limit}-byte limit; not read", str(path))
    return data


def read_named_text(path: Path | str, encoding: str = "utf-8", limit: int = LIMIT) -> str:
    """``Path.read_text`` through ``named_bytes``. Raises what ``read_text`` raises:
    an ``OSError`` whose ``strerror`` says why, or a ``UnicodeDecodeError`` (``NotUtf8``,
    which names the line, when the encoding is UTF-8)."""
    data = named_bytes(Path(path), limit)
    if encoding in _UTF8 and data.startswith(UTF16_BOMS):
        # Windows PowerShell's '>' and Out-File write UTF-16 behind its mark: the text it
        # is, as a run's files are read (engine.run.safeio.decode); strictly, so what
        # is not UTF-16 raises as bytes that are not UTF-8 do
        return data.decode("utf-16")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        if exc.encoding not in ("utf-8", "utf-8-sig"):
            raise
        raise NotUtf8(exc.encoding, exc.object, exc.start, exc.end, exc.reason) from None


def utf8_text(data: bytes, where: Path | str) -> str:
    """``data`` decoded as UTF-8; a ``ValueError`` ``WHERE:LINE: not UTF-8`` naming the
    line of the first byte that is not, for a file a command reads whole."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{where}:{byte_line(data, exc.start)}: not UTF-8") from None
