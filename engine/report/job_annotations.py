"""GitHub's limit of 50 annotations per job, over the action's steps.

GitHub shows 10 annotations of each level per step (``engine.report.github`` keeps
within those) and 50 per job, summed over its steps; past 50 it drops the rest,
silently. A job can run the action more than once (a workspace per skill), and each
run annotates in a step of its own, so no one step can know what the job has
annotated already. The action keeps that count in a file of ``$RUNNER_TEMP``, which
the runner empties at the start of each job, and puts every annotation it prints
through ``python -m referee.engine.report.job_annotations COUNT_FILE``: the commands
on standard input are printed as long as the job has room, the rest counted in one
annotation in the place of the first left out, and the decision (the last command)
is kept. Annotations of other actions in the job are not counted: they are not known.
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.engine.report.atomic import write_atomic
from referee.engine.text import ascii_digits

# GitHub shows 50 annotations per job, over all its steps.
MAX_PER_JOB = 50
LEVELS = ("error", "warning", "notice")


def level_of(line: str) -> str | None:
    """The annotation level of a workflow command line, or None for any other line."""
    for level in LEVELS:
        if line.startswith(f"::{level} ") or line.startswith(f"::{level}::"):
            return level
    return None


def within_job(lines: list[str], used: int) -> list[str]:
    """``lines`` with at most ``MAX_PER_JOB - used`` annotations: past the room, the
    last annotation (the decision) is kept and the others left out are counted in an
    annotation of the level of the first of them, where it stood. Lines that are not
    annotations pass through."""
    kinds = [level_of(line) for line in lines]
    room = max(MAX_PER_JOB - used, 0)
    annotations = [index for index, kind in enumerate(kinds) if kind is not None]
    if len(annotations) <= room:
        return list(lines)
    # the first room - 2 and the decision, with one for the count; only the decision
    # with room for one; none with none
    kept = set(annotations[:max(room - 2, 0)]) | set(annotations[-1:] if room else [])
    dropped = [index for index in annotations if index not in kept]
    first = dropped[0]
    count = (_left_out(kinds[first] or "notice", len(dropped)) if room >= 2 else
             f"referee: {len(dropped)} annotations not shown: GitHub shows {MAX_PER_JOB} per job")
    return [count if index == first else line for index, line in enumerate(lines)
            if kinds[index] is None or index in kept or index == first]


def _left_out(level: str, left: int) -> str:
    return (f"::{level} title=referee annotations left out::{left} more annotations not shown: GitHub "
            f"shows {MAX_PER_JOB} annotations per job; the HTML report and the JUnit file hold every one")


def main(argv: list[str]) -> int:
    """Filter standard input into standard output, within the room ``argv[0]`` (the
    count file) says the job has left, and add what was printed to the count."""
    if len(argv) != 1:
        print("usage: python -m referee.engine.report.job_annotations COUNT_FILE", file=sys.stderr)
        return 2
    count_file = Path(argv[0])
    used = _read_count(count_file)
    out = within_job(sys.stdin.read().splitlines(), used)
    sys.stdout.write("".join(line + "\n" for line in out))
    sys.stdout.flush()
    write_atomic(count_file, f"{used + sum(level_of(line) is not None for line in out)}\n")
    return 0


def _read_count(count_file: Path) -> int:
    """The annotations the job printed so far: none when the file is missing; a file
    that does not hold a count is taken as a job with no room left, never as an empty one."""
    try:
        text = count_file.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return 0
    except (OSError, UnicodeDecodeError):
        return MAX_PER_JOB
    return int(text) if ascii_digits(text, most=9) else MAX_PER_JOB


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
