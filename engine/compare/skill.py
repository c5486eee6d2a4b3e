"""The skill under test: its folder, its name, and the evals' prompts.

Given with ``--skill-path DIR``, or found as ``aggregate`` finds it: an evals.json
at ``<skill>/evals/evals.json`` (where skill-creator keeps it) names its skill
folder, and its ``skill_name`` the skill. Only folder names are ever written.
"""

from __future__ import annotations

from pathlib import Path

from referee.dsl.frozen import frozen
from referee.engine.usage import UsageError


@frozen
class Skill:
    folder: Path | None  # the skill's folder, as given
    name: str | None  # evals.json's skill_name, else the folder's name
    prompts: dict[str, str]  # eval id -> prompt, from evals.json

    @property
    def names(self) -> list[str]:
        """What names the skill in text (for blinding)."""
        found = {self.name} if self.name else set()
        if self.folder is not None:
            found.add(self.folder.resolve().name)
        return sorted(found)

    @property
    def shown(self) -> str | None:
        """The folder as written into a document: relative as given, else its name."""
        if self.folder is None:
            return None
        return self.folder.as_posix() if not self.folder.is_absolute() else self.folder.name


def find(skill_path: Path | None, evals: Path | None) -> Skill:
    """The skill from the flags; UsageError for an evals.json that cannot be read."""
    name, prompts, folder = None, {}, skill_path
    if evals is not None:
        data = _evals(evals)
        if isinstance(data.get("skill_name"), str):
            name = data["skill_name"]
        for entry in data.get("evals") or []:
            if isinstance(entry, dict) and isinstance(entry.get("prompt"), str) and "id" in entry:
                prompts[str(entry["id"])] = entry["prompt"]
        parent = evals.resolve().parent
        if folder is None and parent.name == "evals":
            folder = parent.parent
    if folder is not None and not folder.is_dir():
        raise UsageError(f"--skill-path {folder}: not a folder")
    if name is None and folder is not None:
        name = folder.resolve().name
    return Skill(folder, name, prompts)


def _evals(path: Path) -> dict:
    from referee.engine.compare.output import read_object

    return read_object(path, "an evals.json")
