"""Reading files of a run without trusting them.

Every reader here returns data plus a list of ``engine.run.model.Problem`` and never
raises on what it finds on disk: a file may be missing, huge, binary, not UTF-8,
broken JSON, a symlink out of the run directory, or a symlink loop. The rest of a
run must still load, so each defect becomes a warning that names the path (and
the line, when there is one).

Text decoding policy: undecodable bytes are reported (``not-utf8``, with the line
of the first bad byte) and, when ``lossy`` is true, the text is still returned,
decoded with U+FFFD replacement characters, so the run keeps loading. Readers of
task artifacts (``Run.read_output``) pass ``lossy=False``: there the text is None,
so a check on it becomes an error instead of matching replacement characters.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import unicodedata
from pathlib import Path

from referee.dsl.frozen import frozen
from referee.dsl.named_file import LIMIT, UTF16_BOMS, NotRegular, TooLarge, byte_line, named_bytes
from referee.engine.run.model import JsonFile, Problem, TextFile
from referee.engine.run.safejson import parse_json
from referee.engine.text import line_breaks

MAX_TEXT_BYTES = LIMIT  # 32 MiB: beyond this a file is reported `too-large` and not read

_UTF8_BOM = b"\xef\xbb\xbf"
# How a run's file is opened once found (``_read_capped``): never through a link (its
# path is resolved already), never blocking on a FIFO swapped in.
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_BINARY", 0))
_DRIVE = re.compile(r"[A-Za-z]:")


def join_report(base: str, rel: str) -> str:
    """The path to report: ``rel`` under ``base`` (both POSIX), or ``rel`` alone."""
    return f"{base}/{rel}" if base not in ("", ".") else rel


def safe_relative(rel: str) -> str | None:
    """Normalise a user-given path inside a directory; None when it could escape.

    Absolute paths, drive letters and any ``..`` segment are refused; backslashes
    count as separators so a Windows-style ``..\\x`` is refused too.
    """
    if not rel or "\x00" in rel:
        return None
    unified = rel.replace("\\", "/")
    if unified.startswith("/") or _DRIVE.match(unified):
        return None
    # the parts PurePosixPath finds in a relative path, without building one
    parts = [p for p in unified.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    return "/".join(parts)


def windows_name(rel: str) -> str:
    """``rel`` as Windows compares names (macOS too, but for the dots and spaces): in
    any case, without the trailing dots and spaces Windows drops; and as macOS compares
    them, in any Unicode normalization (a name made on macOS may spell "é" as "e" and a
    combining accent, which a rule typed elsewhere does not)."""
    return unicodedata.normalize("NFC", "/".join(part.rstrip(". ") for part in rel.split("/")).casefold())


def other_name(rel: str, names: list[str]) -> str | None:
    """The first of ``names`` that Windows takes for ``rel``, when ``rel`` itself is
    not among them: on the machine that made the run they were one file."""
    if rel in names:
        return None
    key = windows_name(rel)
    return next((name for name in names if windows_name(name) == key), None)


@frozen
class Located:
    """Where a file under a root really is: ``real`` is None when it cannot be read."""

    real: str | None
    exists: bool
    size: int
    problems: tuple[Problem, ...] = ()


def locate(root: Path, rel: str, report: str) -> Located:
    """Resolve ``root/rel`` and check it is a regular file that stays inside ``root``.

    Symlinks are resolved; one that lands outside ``root`` is never followed
    (``symlink-escape``), a loop is ``symlink-loop``, a dangling link
    ``broken-symlink``, a directory or device ``not-a-file`` (a FIFO would block
    a read forever), and a file above the size cap ``too-large``. A name that climbs
    out (a ``..`` part), is absolute or holds a NUL names no file under ``root``: most
    names are referee's own, but a report's evidence names the file it cites, and a
    grading.json is any file a workspace holds.
    """
    if not _below(rel):
        return Located(None, False, 0)
    try:
        found = _plain_lstat(os.fspath(root), rel)
    except OSError:
        # Missing (or unreadable) somewhere on the way, below components that are
        # no symlinks: an lstat of the whole path walks the same way and fails too,
        # so the file is not there and there is no link to follow.
        return Located(None, False, 0)
    if found is not None:
        return _checked(*found, report)
    target = Path(root) / rel
    if not os.path.lexists(target):
        return Located(None, False, 0)
    return _slow_locate(Path(root), target, report)


def _below(rel: str) -> bool:
    """Whether ``rel``, joined to a folder, names a place in it (or the folder itself)."""
    if "\0" in rel or os.path.isabs(rel):
        return False
    if os.altsep is not None:  # Windows: a backslash parts names too, and "C:x" leaves the folder
        if _DRIVE.match(rel):
            return False
        rel = rel.replace(os.sep, os.altsep)
    return ".." not in rel.split("/")


def _plain_lstat(root: str, rel: str) -> tuple[str, os.stat_result] | None:
    """The path and ``lstat`` of ``root/rel`` when no component below ``root`` is a symlink.

    None when one is. ``rel`` holds no ``..`` (``locate`` refuses one), so a path
    without symlinks below ``root`` cannot leave it: the common case needs one
    ``lstat`` per component and no ``realpath``.
    """
    path = root
    for part in rel.split("/"):  # at least one: split never gives an empty list
        path = os.path.join(path, part)
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            return None
    return path, info


def _slow_locate(root: Path, target: Path, report: str) -> Located:
    """Follow symlinks to their end and refuse what leaves ``root`` or loops."""
    try:
        real = target.resolve(strict=True)
    except RuntimeError:  # Python 3.11 reports a loop this way
        return _refused(report, "symlink-loop", "symlink loop; not followed")
    except OSError as exc:
        return _resolve_error(root, target, report, exc)
    if not _inside(real, root):
        return _refused(report, "symlink-escape", "symlink points outside the run directory; not followed")
    try:
        info = real.stat()
    except OSError as exc:
        return _refused(report, "unreadable", f"cannot stat: {exc.strerror or exc}")
    return _checked(os.fspath(real), info, report)


def _checked(real: str, info: os.stat_result, report: str) -> Located:
    if not stat.S_ISREG(info.st_mode):
        return _refused(report, "not-a-file", "not a regular file")
    if info.st_size > MAX_TEXT_BYTES:
        return Located(None, True, info.st_size, (_too_large(report, info.st_size),))
    return Located(real, True, info.st_size)


def _too_large(report: str, size: int) -> Problem:
    return Problem("too-large", report, f"{size} bytes is over the {MAX_TEXT_BYTES}-byte limit; not read")


def _refused(report: str, code: str, message: str) -> Located:
    return Located(None, True, 0, (Problem(code, report, message),))


def _resolve_error(root: Path, target: Path, report: str, exc: OSError) -> Located:
    if exc.errno == errno.ELOOP:
        return _refused(report, "symlink-loop", "symlink loop; not followed")
    if isinstance(exc, FileNotFoundError):
        if not _inside(Path(os.path.realpath(target)), root):
            return _refused(report, "symlink-escape", "symlink points outside the run directory; not followed")
        return _refused(report, "broken-symlink", "symlink points to nothing")
    return _refused(report, "unreadable", f"cannot resolve: {exc.strerror or exc}")


def _inside(real: Path, root: Path) -> bool:
    try:
        return real.is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return False


def read_bytes(root: Path, rel: str, report: str) -> tuple[bytes | None, Located]:
    """The bytes of ``root/rel`` (None when missing or refused) and where it was found."""
    where = locate(root, rel, report)
    if where.real is None:
        return None, where
    try:
        data = _read_capped(where.real, where.size)
    except OSError as exc:
        problem = Problem("unreadable", report, f"cannot read: {exc.strerror or exc}")
        return None, Located(None, True, where.size, (problem,))
    if len(data) > MAX_TEXT_BYTES:
        problem = Problem("too-large", report, f"over the {MAX_TEXT_BYTES}-byte limit; not read")
        return None, Located(None, True, len(data), (problem,))
    return data, Located(where.real, True, len(data))


def _read_capped(path: str, size: int) -> bytes:
    """At most ``MAX_TEXT_BYTES + 1`` bytes of ``path``, whose ``stat`` said ``size``.

    Asking for the stat size plus one byte first spares allocating a buffer of the
    whole cap for every small file; a file that grew since is read on, to the cap.
    It is opened without following a link and without blocking, and checked on the
    open file: what ``locate`` checked may have been swapped since, and a FIFO would
    block the read forever, a link lead out of the run (an ``OSError`` says so).
    """
    fd = os.open(path, _OPEN_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "no longer a regular file (it changed since it was found)")
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        data = handle.read(size + 1)
        if len(data) > size:
            data += handle.read(MAX_TEXT_BYTES + 1 - len(data))
    return data


def read_named_file(path: Path, report: str, limit: int, *, head: bool = False) -> tuple[bytes | None, Problem | None]:
    """The bytes of a file the user named (anywhere, not under a run), at most ``limit``.

    It is opened without blocking and checked on the open file itself, so a FIFO
    cannot stall the read and a device (a symlink to ``/dev/zero``) cannot fill
    memory, and nothing can be swapped in between a check and the read: anything but
    a regular file is refused (``not-a-file``), a larger one is ``too-large``, or,
    with ``head``, read up to ``limit`` bytes (the start of the file).
    """
    try:
        return named_bytes(path, limit, head=head), None
    except NotRegular:
        return None, Problem("not-a-file", report, "not a regular file (a FIFO, a device or a folder); not read")
    except TooLarge as exc:
        return None, Problem("too-large", report, exc.strerror or "too large")
    except OSError as exc:
        return None, Problem("unreadable", report, f"cannot read: {exc.strerror or exc}")


# Documents whose words a reader sees otherwise than they are written, though no NUL
# byte marks them binary: a PDF cuts them into placed pieces (``[(An er) 20 (ror)] TJ``,
# or hex ``<416e>``), RTF splits them with control words (``er\\b ror``). Read as
# text, a miss there would pass ``not (file "report.pdf" contains "error")``.
_DOCUMENTS = ((b"%PDF-", "a PDF document"), (b"{\\rtf", "an RTF document"))


def decode(data: bytes, report: str, *, lossy: bool = True) -> tuple[str | None, list[Problem]]:
    """Bytes to text: BOM stripped, NUL bytes refused as ``binary``, bad UTF-8 reported,
    line ends made ``\n`` (see ``_one_line_end``).

    A UTF-16 file with its BOM (what some Windows shells write) is decoded as such,
    strictly (see ``_utf16``): nothing is ever read as text it is not.
    """
    text, problems = _decoded(data, report, lossy)
    return (None if text is None else _one_line_end(text)), problems


def _one_line_end(text: str) -> str:
    """``text`` with each ``\r\n`` and lone ``\r`` written ``\n``, as a text-mode read
    gives it. Every reader counts those as line ends (``engine.text.file_lines``), so a
    file from a Windows or classic Mac editor is the same text as its twin with LF:
    kept as written, ``$`` and ``^`` (m flag) never met a line's end before a CR, and
    ``not response matches /^DENIED$/m`` passed on a response showing that line."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _decoded(data: bytes, report: str, lossy: bool) -> tuple[str | None, list[Problem]]:
    """``decode`` but for the line ends."""
    if data.startswith(UTF16_BOMS):
        return _utf16(data, report)
    if b"\x00" in data:
        line = byte_line(data, data.index(b"\x00"))
        return None, [Problem("binary", report, "contains NUL bytes: a binary file, not text", line)]
    data = data.removeprefix(_UTF8_BOM)
    document = next((name for mark, name in _DOCUMENTS if data.lstrip().startswith(mark)), None)
    if document is not None:
        return None, [Problem("document", report, f"{document}, whose words a reader sees laid out otherwise "
                                                  "than they are written: not read as text", 1)]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = byte_line(data, exc.start)
        bad = data[exc.start]
        kept = "kept with replacement characters" if lossy else "not used"
        problem = Problem("not-utf8", report, f"byte 0x{bad:02x} is not UTF-8; text {kept}", line)
        return (data.decode("utf-8", errors="replace") if lossy else None), [problem]


def _utf16(data: bytes, report: str) -> tuple[str | None, list[Problem]]:
    """Text behind a UTF-16 byte order mark, or None and ``not-utf16``/``binary``.

    Any text with a line break or an ASCII character has NUL bytes in UTF-16, so a
    mark followed by bytes with none (or an odd number of bytes) is some other
    encoding behind two stray bytes: it is refused, never decoded into noise that
    would read as a text holding nothing. A NUL character makes it binary.
    """
    body = data[2:]
    if body and (len(body) % 2 or b"\x00" not in body):
        return None, [Problem("not-utf16", report, "starts with a UTF-16 byte order mark but is not UTF-16 "
                                                   "text; not read")]
    try:
        text = data.decode("utf-16")
    except UnicodeDecodeError as exc:
        return None, [Problem("not-utf16", report, f"not valid UTF-16 at byte {exc.start}; not read")]
    if "\x00" in text:
        line = line_breaks(text, 0, text.index("\x00")) + 1
        return None, [Problem("binary", report, "contains NUL characters: a binary file, not text", line)]
    return text, []


def read_text(root: Path, rel: str, base: str = "", *, lossy: bool = True) -> TextFile | None:
    """Read ``root/rel`` as text; None when the file does not exist.

    ``base`` prefixes problem paths (the run's place in its workspace). The returned
    ``TextFile.path`` is ``rel``; ``text`` is None when the file cannot be used.
    """
    report = join_report(base, rel)
    data, where = read_bytes(root, rel, report)
    if not where.exists:
        return None
    if data is None:
        return TextFile(rel, None, where.size, where.problems)
    return text_file(data, rel, base, lossy=lossy)


def held_text_file(data: bytes, rel: str, base: str = "", *, lossy: bool = True) -> TextFile:
    """The bytes of ``rel`` held in memory (a run imported in memory), read as ``read_text``
    reads the file ``rel`` of a folder: over ``MAX_TEXT_BYTES`` they are ``too-large`` and
    not read, so a run graded in memory can read no more than its folder written out."""
    if len(data) > MAX_TEXT_BYTES:
        return TextFile(rel, None, len(data), (_too_large(join_report(base, rel), len(data)),))
    return text_file(data, rel, base, lossy=lossy)


def text_file(data: bytes, rel: str, base: str = "", *, lossy: bool = True) -> TextFile:
    """Bytes read from ``rel`` as a ``TextFile``, decoded as ``read_text`` decodes a file."""
    text, problems = decode(data, join_report(base, rel), lossy=lossy)
    return TextFile(rel, text, len(data), tuple(problems))


def read_json(root: Path, rel: str, base: str = "") -> JsonFile | None:
    """Read ``root/rel`` as JSON; None when the file does not exist.

    Text that is not UTF-8 is reported and still parsed from its lossy decoding.
    """
    return json_file(read_text(root, rel, base), base)


def json_file(found: TextFile | None, base: str = "") -> JsonFile | None:
    """A file already read as text, parsed as JSON; None when there was no file."""
    if found is None:
        return None
    if found.text is None:
        return JsonFile(found.path, None, found.problems)
    result = parse_json(found.text, join_report(base, found.path))
    problems = found.problems + ((result.problem,) if result.problem else ())
    return JsonFile(found.path, result.value if result.ok else None, problems)
