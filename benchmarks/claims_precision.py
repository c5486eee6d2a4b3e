"""List every claim referee extracts from a few workspaces, and its precision.

The workspaces are the bundled examples and, imported first (into a temporary
folder named ``real-imports``), the real public sessions and trajectories of
``tests/fixtures/real`` (each with its SOURCE.md). Two kinds of claim are listed: the ``claims`` of grading.json (``engine.facts.claims``)
and the "agent notes claim X was called" sentences a failing check adds when it
finds no call of X (``engine.checks.trust.notes_claiming``, reached through the
rules given with the workspace).

Each claim is printed with a key; ``claims_judged.txt`` (beside this script) holds
the keys a person read and judged, one per line, prefixed ``real`` or ``not``.
The precision is the share of extracted claims judged real; a claim with no
judgement is counted apart and listed, so the figure can be repeated after a
change and any new claim gets read. Run from the checkout's parent directory or
anywhere (paths are resolved from this file):

    python benchmarks/claims_precision.py
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "examples"
JUDGED = Path(__file__).with_name("claims_judged.txt")

# (workspace, rules file or None, evals.json or None)
WORKSPACES = (
    (REPO / "examples" / "booking-skill-workspace", REPO / "examples" / "booking-skill" / "booking.rules",
     REPO / "examples" / "booking-skill" / "evals" / "evals.json"),
    (SHARED / "expense-skill-workspace", REPO / "rules" / "expense-draft.rules",
     SHARED / "expense-skill" / "evals" / "evals.json"),
    (REPO / "tests" / "fixtures" / "claims-workspace", REPO / "tests" / "fixtures" / "claims-workspace.rules",
     None),
)


REAL = REPO / "tests" / "fixtures" / "real"
# (format, sources under tests/fixtures/real, --error-when): imported as they would be by a user
REAL_SOURCES = (
    ("claude-code", ("claude-code/coverage-test-fix/transcript.jsonl",
                     "claude-code/hello-world-script/transcript.jsonl"), None),
    ("openai", ("openai/tau-bench-retail/grok-3-retail-task-0.json",), "^Error:"),
)


def real_imports(folder: Path) -> Path:
    """The real fixtures imported into ``folder/real-imports`` (one run per source)."""
    from referee.engine.run.importers import import_sources

    workspace = folder / "real-imports"
    for fmt, sources, error_when in REAL_SOURCES:
        import_sources(fmt, [REAL / s for s in sources], workspace, error_when=error_when)
    return workspace


def extracted(workspace: Path, rules: Path | None, evals: Path | None) -> list[str]:
    """One key per extracted claim: ``run | claim | where it was said``."""
    from referee.engine.facts.claims import find_claims
    from referee.engine.run.workspace import discover

    program = _program(rules, evals) if rules is not None else None
    keys: list[str] = []
    for run in discover(workspace).runs:
        rel = f"{workspace.name}/{run.id.rel}"
        for claim in find_claims(run):
            said = claim.evidence.split('"; ', 1)[0] + '"'
            keys.append(f"{rel} | grading {claim.claim} | {said}")
        if program is not None:
            keys.extend(f"{rel} | notes {message}" for message in _note_claims(program, run))
        run.release()
    return _numbered(keys)


def _numbered(keys: list[str]) -> list[str]:
    """The same claim extracted twice is two claims: the second gets " #2"."""
    seen: dict[str, int] = {}
    out = []
    for key in keys:
        seen[key] = seen.get(key, 0) + 1
        out.append(key if seen[key] == 1 else f"{key} #{seen[key]}")
    return out


def _program(rules: Path, evals: Path | None):
    from referee.engine.grade import RulesSource

    return RulesSource(((rules.name, rules.read_text(encoding="utf-8")),),
                       str(evals) if evals is not None else None).compile()


def _note_claims(program, run) -> list[str]:
    from referee.engine.evaluate import evaluate

    compiled = program.for_run(run.id, run.metadata)
    if compiled is None:
        return []
    found: dict[str, None] = {}
    for verdict in evaluate(compiled, run):
        for detail in verdict.details:
            if " claims " in detail:
                found[detail.split("; no [tool_calls]", 1)[0]] = None
    return list(found)


def judgements() -> dict[str, bool]:
    table = {}
    if JUDGED.exists():
        for line in JUDGED.read_text(encoding="utf-8").splitlines():
            verdict, _, key = line.partition(" ")
            if verdict in ("real", "not"):
                table[key] = verdict == "real"
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quiet", action="store_true", help="print the figures only")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO.parent))
    judged = judgements()
    real = wrong = unjudged = 0
    folder = tempfile.TemporaryDirectory()
    workspaces = WORKSPACES + ((real_imports(Path(folder.name)), None, None),)
    for workspace, rules, evals in workspaces:
        if not workspace.is_dir():
            print(f"skipped (not found): {workspace}")
            continue
        for key in extracted(workspace, rules, evals):
            verdict = judged.get(key)
            mark = {True: "real", False: "not", None: "????"}[verdict]
            real += verdict is True
            wrong += verdict is False
            unjudged += verdict is None
            if not args.quiet or verdict is None:
                print(f"{mark} {key}")
    total = real + wrong + unjudged
    share = f"{real / (real + wrong):.0%}" if real + wrong else "n/a"
    print(f"\n{total} claims extracted: {real} real, {wrong} not claims, {unjudged} not judged; "
          f"precision {real}/{real + wrong} = {share}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
