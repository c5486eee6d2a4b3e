"""``input "FILE"``: a file the eval gives the skill, read as ``file`` reads an output.

evals.json lists an eval's input files (``"files": ["evals/files/article.md"]``),
relative to the skill's root in skill-creator's layout, where evals.json is
``evals/evals.json``. A rule names one of them as listed, or by the end of its path
when only one listed file ends so (``input "article.md"``). The file is looked for
in evals.json's folder, then in the folder above it, through the safe reader (no
path out of those folders, no link out of them, nothing but a regular UTF-8 text
file of bounded size), and read once, when the rules are compiled: an input the
eval does not list, or one that cannot be read, is an error of ``check``, never a
verdict that depends on the machine.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Callable

from referee.dsl import ast
from referee.dsl.errors import Diagnostic, did_you_mean
from referee.dsl.frozen import frozen
from referee.engine.run.model import text_sha256
from referee.engine.run.safeio import read_text, safe_relative
from referee.engine.values import EvalError, Prov


UNKNOWN_INPUT = "unknown-input"


def known_inputs(diagnostics: list[Diagnostic], evals_unread: bool) -> list[Diagnostic]:
    """``diagnostics`` without their unknown-input errors when an evals.json was given
    but could not be read (``evals_unread``): which input files it lists cannot be told
    then, and "no evals.json was given" would be false; its own errors say what is wrong."""
    return [d for d in diagnostics if not (evals_unread and d.code == UNKNOWN_INPUT)]


@frozen
class Inputs:
    """The input files one eval lists, and where evals.json is (None: no evals.json
    was given, or its folder is unknown)."""

    eval_key: str
    listed: tuple[str, ...] = ()
    folder: str | None = None
    given: bool = False  # an evals.json was given at all


def reader(c, src: ast.Source, formats: dict) -> Callable:
    """A source's ``read``: the items of the input file in its format, read now."""
    text = _text(c, src)
    if text is None:
        return lambda ctx: ()
    prov = Prov("input", f"input \"{src.path}\"")
    try:
        items = formats[src.fmt](text, prov)
    except EvalError as err:
        c.error("bad-input", f"input \"{src.path}\": {err.message}", src.span)
        items = ()
    return lambda ctx: items


def _text(c, src: ast.Source) -> str | None:
    """The text of the input ``src`` names; None after reporting why there is none."""
    inputs: Inputs = c.inputs
    path = src.path or ""
    if not inputs.given:
        c.error(UNKNOWN_INPUT, f"input \"{path}\" is a file evals.json lists for the eval; "
                "no evals.json was given", src.span, "pass --evals evals.json")
        return None
    listed = _listed(inputs.listed, path)
    if listed is None:
        names = ", ".join(inputs.listed) or "none"
        hint = did_you_mean(path, [*inputs.listed, *(posixpath.basename(n) for n in inputs.listed)])
        c.error(UNKNOWN_INPUT, f"eval {inputs.eval_key} lists no input file \"{path}\" in "
                f"evals.json (it lists: {names})", src.span, hint)
        return None
    return _read(c, src, inputs, listed)


def _listed(listed: tuple[str, ...], path: str) -> str | None:
    """The listed path ``path`` names: itself, or the one listed path ending in it."""
    wanted = _plain(path)
    exact = [name for name in listed if _plain(name) == wanted]
    ending = [name for name in listed if _plain(name).endswith("/" + wanted)]
    found = exact or ending
    return found[0] if len(found) == 1 else None


def _plain(path: str) -> str:
    return posixpath.normpath(path.replace("\\", "/")).removeprefix("./")


def _read(c, src: ast.Source, inputs: Inputs, listed: str) -> str | None:
    rel = safe_relative(listed)
    if rel is None:
        c.error("bad-input", f"input \"{listed}\" is outside evals.json's folders: inputs are "
                "listed relative to the skill (no '..', no absolute path)", src.span)
        return None
    folders = [Path(inputs.folder)] if inputs.folder is not None else []
    folders += [folder.parent for folder in folders if folder.parent != folder]
    for folder in folders:
        found = read_text(folder, rel, lossy=False)
        if found is None:
            continue
        if found.text is None:
            why = found.problems[0].message if found.problems else "cannot be read"
            c.error("bad-input", f"input \"{listed}\" cannot be used: {why}", src.span)
            return None
        # What was read is part of the rules: shards graded with other inputs are no one grade.
        c.inputs_read[listed] = "sha256:" + text_sha256(found.text)
        return found.text
    where = " or ".join(str(folder) for folder in folders) or "evals.json's folder, which is unknown"
    c.error("bad-input", f"input \"{listed}\" listed in evals.json is not in {where}", src.span)
    return None
