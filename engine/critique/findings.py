"""critique.json: what ``referee critique`` found, kept for ``grade`` and ``aggregate``.

``referee critique WORKSPACE`` writes it into WORKSPACE. ``referee grade`` adds
each weak assertion's reasons to its eval's ``eval_feedback`` (tagged
``"source": "critique"``) and ``referee aggregate`` to its notes, but only while
the rules are the ones critiqued: the file records a digest of the rules texts
(and evals.json), and a grade with other rules leaves the findings out and says so.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.engine.report.atomic import write_atomic
from referee.engine.run.safeio import read_json

CRITIQUE_FILE = "critique.json"


def rules_digest(files: tuple[tuple[str, str], ...], evals_text: str | None) -> str:
    """A digest of the rules texts (names left out, so the same rules anywhere agree)."""
    digest = hashlib.sha256()
    for _, text in sorted(files, key=lambda f: f[1]):
        digest.update(text.encode("utf-8") + b"\0")
    digest.update((evals_text or "").encode("utf-8"))
    return digest.hexdigest()[:16]


def write_findings(workspace: Path, document: dict[str, Any], digest: str) -> Path:
    """Write critique.json (atomically) with the digest of the rules it critiqued."""
    path = workspace / CRITIQUE_FILE
    text = json.dumps({"rules_digest": digest, **document}, ensure_ascii=False, indent=2) + "\n"
    write_atomic(path, text)
    return path


@dataclass
class Findings:
    digest: str
    weak: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # eval -> (assertion, reason)


def load_findings(workspace: Path) -> Findings | None:
    """critique.json of ``workspace``, or None when there is none or it is not usable."""
    found = read_json(workspace, CRITIQUE_FILE)
    if found is None or not isinstance(found.value, dict):
        return None
    value = found.value
    digest = value.get("rules_digest")
    if not isinstance(digest, str) or not isinstance(value.get("assertions"), list):
        return None
    findings = Findings(digest)
    for item in value["assertions"]:
        if isinstance(item, dict) and item.get("weak") is True and isinstance(item.get("reasons"), list):
            for reason in item["reasons"]:
                findings.weak.setdefault(str(item.get("eval")), []).append((str(item.get("text")), str(reason)))
    return findings


def feedback_for(workspace: Path, files: tuple[tuple[str, str], ...], evals_text: str | None,
                 keys: list[str]) -> dict[str, list[dict[str, str]]] | None:
    """The findings of ``workspace``'s critique.json as eval_feedback suggestions by
    eval key ({} when it has none); None when they were made with other rules than
    ``files`` and ``evals_text``, and so are left out."""
    findings = load_findings(workspace)
    if findings is None:
        return {}
    if findings.digest != rules_digest(files, evals_text):
        return None
    return {key: feedback_suggestions(findings, key) for key in keys}


def feedback_suggestions(findings: Findings | None, eval_key: str) -> list[dict[str, str]]:
    """The eval's critique findings as ``eval_feedback`` suggestions."""
    if findings is None:
        return []
    return [{"reason": f"mutation test: {reason}", "assertion": text, "source": "critique"}
            for text, reason in findings.weak.get(eval_key, [])]


def finding_notes(findings: Findings | None) -> list[str]:
    """One note per eval with weak assertions, for the benchmark's notes."""
    if findings is None:
        return []
    return [f"eval {key}: mutation testing found weak assertions: "
            + "; ".join(f"{text} ({reason})" for text, reason in items)
            for key, items in sorted(findings.weak.items())]
