"""A file a rule names that the run keeps beside ``outputs/``, not in it.

Some harnesses leave the task's own tree in the run folder next to ``outputs/``
(``with_skill/repo/slugify.py`` beside ``with_skill/outputs/final_response.md``).
A file check reads under ``outputs/`` alone, so such a file is not read; said to
"not exist", a check on it would fail on a file the run holds, and its negation
would pass on text nobody read. Whether it is the file the rule means cannot be
told: the check is an ERROR naming where the file is.
"""

from __future__ import annotations

from pathlib import Path

from referee.engine.run.identity import METADATA, SOURCE_MAP
from referee.engine.run.safeio import locate, safe_relative

# The run folder's own files, which referee or the harness writes there and which
# are no deliverable: a check on one of these names keeps meaning a file of
# outputs/, and grading again (which writes grading.json) gives the same verdict.
# The eval's metadata and the import's source map are named where a run folder is
# told (``identity``).
_OWN = frozenset({"grading.json", "ground_truth.json", "timing.json", "transcript.md", METADATA,
                  SOURCE_MAP, "critique.json", "validity.json"})
_OWN_FOLDERS = frozenset({"outputs", "subagents"})


def held_beside_outputs(run_folder: Path, path: str) -> str | None:
    """``path`` as the run folder holds it (a regular file inside the run, outside
    ``outputs/``), or None when it holds none, or the name is one of its own files."""
    rel = safe_relative(path)
    if rel is None:
        return None
    top = rel.split("/", 1)[0]
    if top in _OWN or top in _OWN_FOLDERS or top.endswith(".bak"):
        return None
    found = locate(run_folder, rel, rel)
    return rel if found.exists and all(p.code == "too-large" for p in found.problems) else None
