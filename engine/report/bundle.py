"""Writing the HTML report as a page and the folder of its runs' files beside it.

``report.html`` goes with ``report_files/`` (the page's name and ``_files``, as a
browser saves a page "complete"): one ``data-N.js`` per run, which the page loads
when the run is opened. The folder is made whole under a temporary name in the
same directory, then put in place with renames, and the page is written last; so
a reader never meets half a folder. A folder already at that name is replaced
only if referee made it (a real directory holding nothing but ``data-N.js``
files); anything else there (a link, a file, a folder of someone else's) is
refused with ``NotReplaceable`` and left as it is.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Callable, Iterable

from referee.engine.report.atomic import NotReplaceable, encode

RUN_FILE = re.compile(r"data-[0-9]+\.js")


def files_folder(page: Path) -> Path:
    """Where the runs' files of ``page`` go: ``report.html`` -> ``report_files``."""
    return page.with_name(f"{page.stem}_files")


def write_bundle(page: Path, page_text: str, files: Iterable[tuple[str, str]],
                 write_page: Callable[[Path, str], None]) -> None:
    """Write the runs' ``files`` into ``files_folder(page)``, then the page with
    ``write_page`` (which refuses or writes through what stands at ``page``)."""
    folder = files_folder(page)
    _require_ours(folder)
    fresh = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".tmp", dir=page.parent))
    old: Path | None = None
    try:
        for name, text in files:
            with open(fresh / name, "wb") as handle:
                handle.write(encode(text))
        os.chmod(fresh, 0o777 & ~_umask())
        if folder.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".old", dir=page.parent))
            os.replace(folder, old / folder.name)
        os.replace(fresh, folder)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        if old is not None and not folder.exists():
            os.replace(old / folder.name, folder)  # put the old one back
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    write_page(page, page_text)


def _require_ours(folder: Path) -> None:
    try:
        info = folder.lstat()
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(info.st_mode):
        raise NotReplaceable(f"{folder} is not a folder referee wrote (it is a "
                             f"{'symbolic link' if stat.S_ISLNK(info.st_mode) else 'file'}); left as it is")
    strangers = sorted(entry.name for entry in os.scandir(folder)
                       if not (RUN_FILE.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)))
    if strangers:
        raise NotReplaceable(f"{folder} holds what referee did not write ({', '.join(strangers[:3])}); "
                             "left as it is: move it away")  # the command says where else to write


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
