"""The JSON files of ``compare``, ``analyze``, ``validate`` and ``diff``: read and written.

What they read besides graded runs (an evals.json, a benchmark.json) is a JSON
object of bounded size, or a usage error naming the file and, for bad JSON, the
line. What they write is JSON in the order the code builds its fields, UTF-8,
two-space indents and a final newline: byte-identical for the same inputs. A
command's files are replaced together (all new or all old), a name taken by
anything but a regular file is refused, and so is a link standing as
WORKSPACE/comparison; when ``compare`` writes, comparison files left from an
earlier, larger comparison are removed, so a folder never mixes two runs of it.
``analyze`` and ``validate`` write beside those files and leave them alone.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from referee.dsl.named_file import read_named_text
from referee.engine.usage import UsageError

_OURS = re.compile(r"comparison-\d+\.json")


def read_object(path: Path, what: str, max_bytes: int = 64 * 1024 * 1024) -> dict:
    """The JSON object in ``path``; UsageError saying why not (``what`` names the kind)."""
    try:
        value = json.loads(read_named_text(path, "utf-8-sig", max_bytes))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    except ValueError as exc:
        raise UsageError(f"{path}: not valid JSON ({exc})") from None
    except RecursionError:  # nested deeper than the decoder's stack
        raise UsageError(f"{path}: not valid JSON (nested too deeply)") from None
    if not isinstance(value, dict):
        raise UsageError(f"{path}: not {what} (not a JSON object)")
    return value


def json_text(document: dict | list) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def say(line: str = "") -> None:
    """One line on standard output, made inert: run texts never act on the terminal.
    A line break inside it (an eval name can hold one) is written as ``\\n``: text
    that began a line of its own could pass for referee's, or for a workflow command
    (``::add-mask::...``) in a CI log."""
    from referee.engine.report.inert import inert

    print(inert(line).replace("\n", "\\n"))


def show_json(document: dict | list) -> None:
    """A document on standard output (``--json``, ``--check``), every string made inert."""
    from referee.engine.report.inert import inert_data
    from referee.engine.report.stdout import print_document

    print_document(json_text(inert_data(document)))


def own_folder(folder: Path) -> Path:
    """``folder``, the one referee picks in the workspace when no ``--out`` is given:
    ``UsageError`` when a symbolic link stands there, which would carry the files
    out of the workspace (a folder named with ``--out`` is followed, as the shell would)."""
    if folder.is_symlink():
        raise UsageError(f"{folder} is a symbolic link, not a folder; referee writes into a real folder "
                         "only and left it as it is; give another place with --out")
    return folder


def write_documents(folder: Path, documents: dict[str, dict | list], comparisons: bool = False) -> list[Path]:
    """Write ``{file name: document}`` into ``folder``; returns the paths written.
    ``comparisons``: the documents are a whole comparison, so comparison files of
    an earlier one that they do not replace are removed."""
    from referee.engine.report.atomic import replace_together

    files: dict[Path, bytes | str] = {folder / name: json_text(doc) for name, doc in documents.items()}
    for path in files:
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise UsageError(f"{path} exists and is not a regular file; nothing was written")
    try:
        folder.mkdir(exist_ok=True)  # a folder named with --out is there already (report.folders)
        replace_together(files)
    except OSError as exc:
        raise UsageError(f"cannot write into {folder}: {exc.strerror or exc}; nothing was changed") from None
    if comparisons:
        _remove_leftovers(folder, set(documents))
    return list(files)


def _remove_leftovers(folder: Path, kept: set[str]) -> None:
    """Earlier comparison files this run did not write: only regular files that
    hold a comparison referee wrote (a ``referee`` block with an ``assignment``)."""
    for path in sorted(folder.iterdir()):
        if path.name in kept or not _OURS.fullmatch(path.name) or path.is_symlink() or not path.is_file():
            continue
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):  # not one referee wrote: kept as it is
            continue
        if isinstance(document, dict) and isinstance(document.get("referee"), dict) \
                and "assignment" in document["referee"]:
            path.unlink(missing_ok=True)
