"""critique.json: what ``referee critique`` found, kept for ``grade`` and ``aggregate``.

``referee critique WORKSPACE`` writes it into WORKSPACE. ``referee grade`` adds
each weak assertion's reasons to its eval's ``eval_feedback`` (tagged
``"source": "critique"``) and ``referee aggregate`` to its notes, but only while
the rules are the ones critiqued: the file records a digest of the rules texts
(and evals.json) and the response file ``--response`` named (null: none), and a
grade with other rules or another ``--response`` leaves the findings out and says so;
it also names the files as grading.json's ``rules_location`` does (``rules``), and
``aggregate`` leaves the findings out of its notes unless every rules file that
graded the runs is among them.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
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


def write_findings(workspace: Path, document: dict[str, Any], digest: str, response: str | None = None,
                   rules: tuple[str, ...] = ()) -> Path:
    """Write critique.json (atomically) with the digest of the rules it critiqued, their
    names (``name@digest``, ``decision.provenance.rules_name``) and the response file
    ``--response`` named: critiqued on another file than a grade reads, its findings
    are not that grade's."""
    path = workspace / CRITIQUE_FILE
    text = json.dumps({"rules_digest": digest, "rules": sorted(rules), "response": _named(response), **document},
                      ensure_ascii=False, indent=2) + "\n"
    write_atomic(path, text)
    return path


def _named(response: str | None) -> str | None:
    """``--response`` as a grade and a critique compare it (``./outputs/x.md`` is ``outputs/x.md``)."""
    return None if response is None else posixpath.normpath(response)


@dataclass
class Findings:
    digest: str
    rules: tuple[str, ...] | None = None  # the rules files critiqued, ``name@digest``; None: not recorded
    response: str | None = None  # the response file --response named; None: none
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
    named = value.get("rules")
    rules = tuple(str(name) for name in named) if isinstance(named, list) else None
    response = value.get("response")
    findings = Findings(digest, rules, response if isinstance(response, str) else None)
    for item in value["assertions"]:
        if isinstance(item, dict) and item.get("weak") is True and isinstance(item.get("reasons"), list):
            for reason in item["reasons"]:
                findings.weak.setdefault(str(item.get("eval")), []).append((str(item.get("text")), str(reason)))
    return findings


def feedback_for(workspace: Path, files: tuple[tuple[str, str], ...], evals_text: str | None,
                 keys: list[str], response: str | None = None) -> dict[str, list[dict[str, str]]] | None:
    """The findings of ``workspace``'s critique.json as eval_feedback suggestions by
    eval key ({} when it has none); None when they were made with other rules than
    ``files`` and ``evals_text``, or with another response file than ``response``
    (the grade's ``--response``), and so are left out."""
    findings = load_findings(workspace)
    if findings is None:
        return {}
    if findings.digest != rules_digest(files, evals_text) or findings.response != _named(response):
        return None
    return {key: feedback_suggestions(findings, key) for key in keys}


def feedback_suggestions(findings: Findings | None, eval_key: str) -> list[dict[str, str]]:
    """The eval's critique findings as ``eval_feedback`` suggestions."""
    if findings is None:
        return []
    return [{"reason": f"mutation test: {reason}", "assertion": text, "source": "critique"}
            for text, reason in findings.weak.get(eval_key, [])]


def finding_notes(findings: Findings | None, graded_by: tuple[str, ...] = ()) -> list[str]:
    """One note per eval with weak assertions, for the benchmark's notes, when the
    findings are about the rules that graded the runs (``graded_by``, ``name@digest``):
    those of other rules would name weaknesses of assertions the runs were not graded
    by, so they are left out with a note saying so."""
    if findings is None:
        return []
    if findings.rules is None or not set(graded_by) <= set(findings.rules):
        return [f"{CRITIQUE_FILE} was made with other rules ({', '.join(findings.rules or ()) or 'not named'}) "
                f"than graded the runs ({', '.join(graded_by) or 'none named'}): its findings are left out; "
                "run `referee critique` with the rules that graded them"]
    return [f"eval {key}: mutation testing found weak assertions: "
            + "; ".join(f"{text} ({reason})" for text, reason in items)
            for key, items in sorted(findings.weak.items())]
