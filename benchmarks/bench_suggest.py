"""Benchmark ``referee suggest``'s drafting against the real sentences of the corpus.

The baseline is drafting every sentence of ``tests/data/suggest_corpus.yaml`` (real
sentences of 20 to 220 characters), measured in the same run. Against it, the time
to draft one hostile sentence of 1,000 to 40,000 characters, of shapes that make a
backtracking pattern work hard (one long word, words without a verb, quotes and
brackets that never close). A pattern whose cost grows with the square of the
sentence shows as a ratio that grows fourfold when the length doubles.

``--patterns`` also times each pattern alone on the hostile shapes at two lengths
below the drafting limit and prints the patterns whose time more than triples when
the length doubles. Run by hand:

    python benchmarks/bench_suggest.py
    python benchmarks/bench_suggest.py --patterns
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from suggest_corpus import load_corpus  # noqa: E402

SHAPES = {
    "one word": lambda n: "x" * n,
    "words": lambda n: "the response " + "word " * (n // 5),
    "identifiers": lambda n: "tool_name." * (n // 10) + " is called",
    "open quote": lambda n: 'The response contains "' + "a" * n,
    "open brackets": lambda n: "field is " + "(" * n,
    "pairs": lambda n: "tool is called with " + 'a "b", ' * (n // 7),
    "han": lambda n: "回复包含" + "字" * n,
}


def draft_all(sentences: list[str]) -> None:
    from referee.engine.suggest.draft import draft_sentence
    from referee.engine.suggest.facts import RunFacts
    from referee.engine.suggest.patterns import load

    parts, patterns = load()
    for sentence in sentences:
        draft_sentence(1, sentence, RunFacts(), parts, patterns)


def cpu(action, *args) -> float:
    started = time.process_time()
    action(*args)
    return time.process_time() - started


def drafting(lengths: list[int]) -> None:
    corpus = [s.text for s in load_corpus()]
    draft_all(corpus[:5])  # patterns loaded and compiled before anything is timed
    baseline = cpu(draft_all, corpus) / len(corpus)
    print(f"corpus: {len(corpus)} sentences, {baseline * 1000:.3f} ms CPU per sentence")
    print(f"{'shape':<14}" + "".join(f"{n:>12,}" for n in lengths) + "   (x a corpus sentence)")
    for name, make in SHAPES.items():
        row = [cpu(draft_all, [make(n)]) / baseline for n in lengths]
        print(f"{name:<14}" + "".join(f"{ratio:>12,.1f}" for ratio in row))


def per_pattern(short: int) -> None:
    from referee.engine.suggest.patterns import load

    _, patterns = load()
    worst = []
    for pattern in patterns:
        for name, make in SHAPES.items():
            small, large = make(short), make(2 * short)
            t_small = cpu(pattern.match.fullmatch, small)
            t_large = cpu(pattern.match.fullmatch, large)
            if t_small > 0.001 and t_large > 3 * t_small:
                worst.append((t_large / t_small, pattern.id, name, t_large))
    print(f"patterns whose time more than triples from {short:,} to {2 * short:,} characters:")
    for growth, pattern_id, shape, seconds in sorted(worst, reverse=True):
        print(f"  {pattern_id:<32} {shape:<14} x{growth:5.1f}  ({seconds * 1000:.1f} ms)")
    if not worst:
        print("  none")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[1000, 10000, 40000])
    parser.add_argument("--patterns", action="store_true", help="time each pattern alone")
    args = parser.parse_args()
    drafting(args.lengths)
    if args.patterns:
        per_pattern(500)


if __name__ == "__main__":
    main()
