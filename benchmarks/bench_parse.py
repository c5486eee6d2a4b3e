"""How long rules take to parse, warm and in a whole ``referee check``, with the
lark that is installed.

Writes a rules file of ``--copies`` copies of the example's rules (default 12:
180 statements, lets and expects of every kind the example holds), then measures:

- warm, in this process: ``dsl.parse_rules`` per statement (syntax tree
  included), against lark's own LALR parser, built from the same grammar,
  parsing the same statements to its parse trees; best of ``--repeat``;
- cold: ``referee check`` on the file as a whole process (its CPU time, as the
  operating system counts it), against ``python -c pass``; median of ``--runs``.

Prints the times and their ratios. Run by hand, once with each lark version
that ``pyproject.toml`` allows (each in its own virtual environment):

    python benchmarks/bench_parse.py
    python benchmarks/bench_parse.py --copies 60 --runs 11
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO.parent))

EXAMPLE = REPO / "examples" / "booking-skill" / "booking.rules"


def rules_text(copies: int) -> str:
    """The example's rules (two evals, 15 statements), ``copies`` times over, each
    copy's evals numbered apart."""
    text = EXAMPLE.read_text(encoding="utf-8")
    return "\n".join(re.sub(r"^eval (\d+)", lambda m: f"eval {n * 100 + int(m.group(1))}", text, flags=re.M)
                     for n in range(1, copies + 1))


def best(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def warm(text: str, repeat: int) -> tuple[int, float, float]:
    """(statements, seconds per statement by referee, by lark's parser)."""
    from referee.dsl import parser

    fragments = [(fragment, parser._START_OF[word]) for word, _, fragment in parser.split_statements(text)]
    lark = parser.build_parser()
    parser.parse_rules(text)  # the tables loaded, the lexers of each state made
    ours = best(repeat, lambda: parser.parse_rules(text))
    theirs = best(repeat, lambda: [lark.parse(fragment, start=start) for fragment, start in fragments])
    return len(fragments), ours / len(fragments), theirs / len(fragments)


def cpu_of(command: list[str], runs: int) -> float:
    """Median CPU seconds (user + system) of ``command`` as a whole process. A run that
    fails stops the benchmark: a command that stops at its first error (a dependency
    missing from the environment) would otherwise be timed as if it had checked."""
    spent = []
    for _ in range(runs + 1):  # the first warms the file cache and is not counted
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False,
                              env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            said = done.stderr.decode(errors="replace").strip()[-2000:]
            raise SystemExit(f"bench_parse: {' '.join(command)} exited {done.returncode}, so it is not timed: {said}")
        spent.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(spent[1:])


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--copies", type=int, default=12)
    options.add_argument("--repeat", type=int, default=7, help="warm measurements (best is kept)")
    options.add_argument("--runs", type=int, default=7, help="whole processes (median is kept)")
    args = options.parse_args()

    import lark

    text = rules_text(args.copies)
    count, ours, theirs = warm(text, args.repeat)
    print(f"lark {lark.__version__}, Python {sys.version.split()[0]}, {count} statements")
    print(f"warm: parse_rules {ours * 1e6:.0f} us per statement; lark's parser alone "
          f"{theirs * 1e6:.0f} us; ratio {ours / theirs:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        rules = Path(folder) / "bench.rules"
        rules.write_text(text, encoding="utf-8")
        check = cpu_of([sys.executable, "-m", "referee.engine.cli", "check", str(rules)], args.runs)
        floor = cpu_of([sys.executable, "-c", "pass"], args.runs)
    print(f"cold: referee check {check * 1000:.0f} ms CPU; python -c pass {floor * 1000:.0f} ms; "
          f"ratio {check / floor:.2f}")


if __name__ == "__main__":
    main()
