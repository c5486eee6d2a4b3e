"""``shard-i-of-n.json``: what one shard graded, with what, and what it wrote.

Written by ``referee grade --shard i/n`` at the workspace's root once every one
of its runs is written, atomically and never over anything but a regular file
(``report.atomic``). It holds the referee version, digests of the rules, of the
evals' sentences and of the cassette, the options that change a verdict, the
shard's runs in one order (identity, path, the digest of each report written),
the runs of the shard it left out and why, and each eval's critique facts (its
``EvalTally``) for the merge. Pydantic checks it when it is read back: a field
of the wrong type or one it does not know is an error naming the file.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from referee.engine.shards.part import MAX_SHARDS

FORMAT = "referee-shard"
VERSION = 1
MAX_BYTES = 1024 * 1024 * 1024  # a run's entry is about 250 bytes: a million runs fit
# A count of runs in a manifest: no file of at most MAX_BYTES lists more. A larger one
# (edited by hand) would be counted out in the critique the merge makes from it.
Count = Annotated[int, Field(ge=0, le=MAX_BYTES)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class RulesFile(_Model):
    file: str  # the rules file's name, as rules_location gives it
    sha256: str


class RunEntry(_Model):
    """A graded run: its identity, its place, and the digests of the reports written."""

    eval_id: str
    configuration: str
    run_number: int
    path: str
    grading: str
    ground_truth: str


class LeftOut(_Model):
    """A run of the shard that it did not grade: not selected, or no eval matches it."""

    eval_id: str
    configuration: str
    run_number: int
    path: str
    reason: str


class Contents(_Model):
    tools: list[str]
    args: list[str]
    files: list[str]
    timing: list[str]
    metrics: list[str]


SUGGESTION = ("reason", "assertion", "source")  # a critique.json finding, as feedback_suggestions makes it
PER_ASSERTION = ("passed_everywhere", "vacuous", "vacuous_count", "idle", "idle_count")


class Tally(_Model):
    positions: Count
    runs: Count
    tools: list[str]
    tools_certain: bool
    configurations: list[str]
    contents: Contents | None
    passed_everywhere: list[bool]
    vacuous: list[list[str]]
    vacuous_count: list[Count]
    # The runs that made no call, for the critique of a check that only forbids.
    working: Count
    idle: list[list[str]]
    idle_count: list[Count]

    @model_validator(mode="after")
    def _one_entry_per_assertion(self) -> Tally:
        # The merge folds these lists position by position: one of another length
        # (an edited manifest) would be an index out of range, not a refusal.
        for name in PER_ASSERTION:
            found = len(getattr(self, name))
            if found != self.positions:
                raise ValueError(f"{name} holds {found} entr{'y' if found == 1 else 'ies'} for "
                                 f"{self.positions} assertion{'' if self.positions == 1 else 's'}")
        return self


class EvalPart(_Model):
    """One eval's critique facts over the shard's runs, and the suggestions of
    ``referee critique`` it added (the same in every shard)."""

    key: str
    tally: Tally
    extra: list[dict[str, Any]]

    @field_validator("extra")
    @classmethod
    def _suggestions(cls, extra: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # Each goes into eval_feedback as it is, where its assertion and reason are read.
        for item in extra:
            if set(item) != set(SUGGESTION) or not all(isinstance(value, str) for value in item.values()):
                raise ValueError(f"a suggestion is an object of the texts {', '.join(SUGGESTION)}")
        return extra


class Manifest(_Model):
    format: Literal["referee-shard"]
    version: Literal[1]
    referee: str
    shard: int = Field(ge=1, le=MAX_SHARDS)
    shards: int = Field(ge=1, le=MAX_SHARDS)
    rules: list[RulesFile]
    evals: str | None  # "sha256:..." of evals.json, "metadata sha256:..." of eval_metadata.json's sentences
    inputs: dict[str, dict[str, str]]  # eval key -> each input file its rules read -> the digest of its text
    judge: dict[str, Any] | None  # the LLM grader: its spec without paths, the cassette's digest
    options: dict[str, Any]
    runs: list[RunEntry]
    left_out: list[LeftOut]
    feedback: list[EvalPart]

    def settings(self) -> dict[str, Any]:
        """What every shard of one grade must share."""
        return {"referee version": self.referee, "number of shards": self.shards,
                "rules": [f"{r.file}@{r.sha256[:8]}" for r in self.rules], "evals": self.evals,
                "input files": self.inputs,
                "LLM grader": self.judge, "options": self.options}


class BadManifest(ValueError):
    """A manifest that cannot be read or is not one; the message names the file."""


def digest(data: bytes | str) -> str:
    """``sha256:`` and the 64 hex digits of ``data`` (text as UTF-8)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def manifest_text(manifest: dict[str, Any]) -> str:
    """The file's bytes: validated first, so what is written can be read back."""
    Manifest.model_validate(manifest)
    return json.dumps(manifest, ensure_ascii=False, indent=2) + "\n"


def write_manifest(folder: Path, name: str, manifest: dict[str, Any]) -> Path:
    """Write ``folder/name`` atomically; raises ``atomic.NotReplaceable`` (an OSError)
    when something else than a regular file stands there."""
    from referee.engine.report.atomic import write_atomic

    path = folder / name
    write_atomic(path, manifest_text(manifest))
    return path


def read_manifest(path: Path) -> Manifest:
    """The manifest at ``path``; ``BadManifest`` saying what is wrong, and where."""
    from referee.engine.run.safeio import read_named_file

    data, problem = read_named_file(path, path.name, MAX_BYTES)
    if data is None:
        raise BadManifest(f"{path.name}: {problem.message if problem else 'cannot be read'}")
    try:
        value = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadManifest(f"{path.name}: not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise BadManifest(f"{path.name}:{exc.lineno}:{exc.colno}: not JSON ({exc.msg})") from None
    except RecursionError:
        raise BadManifest(f"{path.name}: nested too deeply") from None
    except ValueError:  # the one ValueError left: a number of more digits than Python reads
        raise BadManifest(f"{path.name}: not usable JSON (a number too long to read)") from None
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise BadManifest(f"{path.name}: not a shard manifest (an object with \"format\": \"{FORMAT}\")")
    try:
        return Manifest.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        # A check of the model's own says only its message: not pydantic's "Value error, " before it.
        raise BadManifest(f"{path.name}: {where}: {first['msg'].removeprefix('Value error, ')}") from None
