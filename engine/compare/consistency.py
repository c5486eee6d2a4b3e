"""Whether ``validity.json`` and ``comparison/summary.json`` decide what their own
figures give.

``aggregate`` takes both files into its release decision. Their digest of the
verdicts (``inputs``) ties them to the runs aggregated, but not their content:
a file a person can edit could say ``can_tell: true`` beside a null run that
passes, or ``primary better`` beside two votes. Each decision in them is
recomputed here from the figures it rests on (and, where aggregate has them,
from the runs themselves), as ``validate`` and ``compare`` computed it; a file
that disagrees with itself was changed after referee wrote it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from referee.engine.compare.signtest import SignTest, vote

VOTES = {1: "primary", -1: "baseline", 0: "tie"}


def validity_problems(validity: dict, eval_ids: Sequence[str]) -> list[str]:
    """How ``validity`` disagrees with itself, or leaves out an eval of ``eval_ids``
    (the evals aggregate has runs of); empty when it agrees."""
    rows = validity.get("evals")
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        return ["its evals are not a list of objects"]
    found: list[str] = []
    for row in rows:
        found += _eval_problems(row)
    found += _tally_problems("judge_flip_rate", validity.get("judge_flip_rate"), "flipped", "asked")
    told = [str(row.get("eval_id")) for row in rows if row.get("can_tell") is not True]
    if validity.get("cannot_tell") != told:
        found.append(f"cannot_tell is {validity.get('cannot_tell')!r}, its evals give {told!r}")
    listed = {str(row.get("eval_id")) for row in rows}
    found += [f"no entry for eval {eval_id}" for eval_id in eval_ids if eval_id not in listed]
    return found


def _eval_problems(row: dict) -> list[str]:
    name = f"eval {row.get('eval_id')}"
    null: Any = row.get("null_run")
    references: Any = row.get("reference") or []
    found = _gate_problems(f"{name}'s null run", null)
    if not isinstance(references, list):
        return found + [f"{name}'s reference is not a list"]
    for i, ref in enumerate(references):
        found += _gate_problems(f"{name}'s reference run {i + 1}", ref)
    found += _tally_problems(f"{name}'s mutation", row.get("mutation"), "killed", "mutants")
    if found:
        return found
    # As ``validity.EvalValidity.can_tell``: a null run fails, every reference run passes.
    can_tell = null["gate"] == "FAIL" and all(ref["gate"] == "PASS" for ref in references)
    if row.get("can_tell") is not can_tell:
        why = (f"its null run's gate is {null['gate']}" if null["gate"] != "FAIL"
               else "a reference run does not pass its gate" if not can_tell
               else "its null run fails and its reference runs pass")
        found.append(f"{name} has can_tell {_json(row.get('can_tell'))}, but {why}")
    return found


def _gate_problems(name: str, gate: Any) -> list[str]:
    """A gate as ``validity.gate_of`` writes it: its status is the one its counts give."""
    if not isinstance(gate, dict):
        return [f"{name} is not an object"]
    passed, total, passing, failing = (gate.get(k) for k in ("passed", "total", "passing", "failing"))
    if type(passed) is not int or type(total) is not int or not isinstance(passing, list) \
            or not isinstance(failing, list):
        return [f"{name} has no counts"]
    status = "EMPTY" if not total else "PASS" if passed == total else "FAIL"
    if (len(passing), len(passing) + len(failing)) != (passed, total):
        return [f"{name} lists {len(passing)} passing and {len(failing)} failing assertions, "
                f"but {passed} of {total} gated passed"]
    if gate.get("gate") != status:
        return [f"{name} has gate {gate.get('gate')}, but {passed} of {total} gated passed"]
    return []


def _tally_problems(name: str, tally: Any, part: str, whole: str) -> list[str]:
    """A count of ``part`` among ``whole`` (mutants killed, verdicts flipped), as
    validate writes it, or nothing (null): the release reason adds these up."""
    if tally is None:
        return []
    if not isinstance(tally, dict):
        return [f"{name} is not an object"]
    some, every = tally.get(part), tally.get(whole)
    if type(some) is int and type(every) is int and 0 <= some <= every:
        return []
    return [f"{name} has {part} {_json(some)} of {whole} {_json(every)}"]


def summary_problems(summary: dict, pairs: dict[str, int]) -> list[str]:
    """How ``summary`` disagrees with itself, or with ``pairs`` (each eval's pairs
    from the runs aggregated: its primary runs times its baseline runs); empty when
    it agrees."""
    rows = summary.get("evals")
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        return ["its evals are not a list of objects"]
    found: list[str] = []
    for row in rows:
        found += _row_problems(row, pairs)
    listed = {str(row.get("eval_id")) for row in rows}
    found += [f"no entry for eval {eval_id}, which has {n} pairs"
              for eval_id, n in pairs.items() if n and eval_id not in listed]
    if found:
        return found
    if summary.get("pairs") != sum(row["pairs"] for row in rows):
        found.append(f"pairs is {summary.get('pairs')!r}, its evals give {sum(row['pairs'] for row in rows)}")
    votes = Counter(row["vote"] for row in rows)
    test = SignTest(votes["primary"], votes["baseline"], votes["tie"],
                    unread=sum(1 for row in rows if row.get("unread_runs")))
    stated = summary.get("sign_test")
    stated = stated if isinstance(stated, dict) else {}
    for key, value in test.as_dict().items():
        # The rounded floats (read back as decimals) are left to their exact fractions.
        if key not in ("alpha", "p_primary", "p_baseline") and stated.get(key) != value:
            found.append(f"sign_test.{key} is {stated.get(key)!r}, its votes give {value!r}")
    described = test.describe(str(summary.get("primary")), str(summary.get("baseline")))
    if summary.get("decision") != described:
        found.append(f"decision is {summary.get('decision')!r}, its votes give {described!r}")
    return found


def _row_problems(row: dict, pairs: dict[str, int]) -> list[str]:
    name = f"eval {row.get('eval_id')}"
    counts = [row.get(k) for k in ("pairs", "wins", "losses", "ties")]
    whole = [c for c in counts if type(c) is int and c >= 0]
    if len(whole) != len(counts):
        return [f"{name} has no counts of pairs, wins, losses and ties"]
    n, wins, losses, ties = whole
    if wins + losses + ties != n:
        return [f"{name} has {wins} wins, {losses} losses and {ties} ties of {n} pairs"]
    if n != pairs.get(str(row.get("eval_id")), 0):
        return [f"{name} has {n} pairs, the runs aggregated give {pairs.get(str(row.get('eval_id')), 0)}"]
    # As ``documents._eval_row``: an eval with a run that cannot be read votes tie.
    expected = VOTES[0 if row.get("unread_runs") else vote(wins, losses)]
    if row.get("vote") != expected:
        return [f"{name} has vote {row.get('vote')!r}, its wins and losses give {expected!r}"]
    return []


def _json(value: Any) -> str:
    return "true" if value is True else "false" if value is False else repr(value)
