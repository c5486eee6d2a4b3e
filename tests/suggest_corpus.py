"""How well `referee suggest` drafts the real sentences of tests/data/suggest_corpus.yaml.

Each sentence is drafted with the bundled patterns and no runs (names as written),
and the draft is compared with the label:

- a ``rule`` sentence (without ``needs``) is *right* when the draft's canonical text is
  that of the labelled rule (or of one in ``also``) and the draft is sure enough to use
  (``high`` or ``medium``);
- a ``rule+judgement`` sentence may get only the language's one-sentence form, a rule
  part ``and semantic`` the sentence itself, so the grader still decides what needs a
  reader; the draft is *right* when its rule part is the labelled literal half (``rule``,
  or one in ``also``) and it is sure enough to use. A rule alone for such a sentence, or
  a rule part where the label gives no literal half, is counted against the patterns;
- a ``judgement`` sentence must get no check at all: a check for it would decide
  alone what needs a reader.

The sources were read in rounds (``round``, 1 when absent). The patterns were grown
on the rounds before the last; each round was first measured before anything was
tuned on it, so its first figure says how well the patterns carried to sentences
nobody had fitted them to. The last round has never been tuned on.
``python tests/suggest_corpus.py`` prints the figures per language for each round
and lists the sentences missed or wrongly drafted.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "data" / "suggest_corpus.yaml"
USABLE = ("high", "medium")


@dataclass(frozen=True)
class Sentence:
    text: str
    language: str
    label: str
    rules: tuple[str, ...]  # the labelled rule (for rule+judgement, the literal half) and its equals
    needs: str | None
    repo: str
    round: int  # when it was read: the patterns were grown on the rounds before the last


@dataclass
class Tally:
    """Per language: decidable sentences, right drafts, and what went wrong; the same
    for the literal halves of rule+judgement sentences (``halves``, ``halves_right``)."""

    decidable: Counter = field(default_factory=Counter)
    right: Counter = field(default_factory=Counter)
    halves: Counter = field(default_factory=Counter)
    halves_right: Counter = field(default_factory=Counter)
    wrong: list = field(default_factory=list)  # (sentence, draft): a rule or a literal half, wrong
    missed: list = field(default_factory=list)  # rule sentences and literal halves with no usable draft
    overreach: list = field(default_factory=list)  # (sentence, draft) a reader's sentence got a rule
    unsure: list = field(default_factory=list)  # (sentence, draft) drafted though the rule rests on other facts

    def share(self, language: str | None = None) -> float:
        return _share(self.decidable, self.right, language)

    def half_share(self, language: str | None = None) -> float:
        return _share(self.halves, self.halves_right, language)


def _share(total: Counter, right: Counter, language: str | None) -> float:
    keys = [language] if language else list(total)
    count = sum(total[k] for k in keys)
    return sum(right[k] for k in keys) / count if count else 0.0


def load_corpus(path: Path = CORPUS) -> list[Sentence]:
    found = []
    for source in yaml.safe_load(path.read_text(encoding="utf-8")):
        for entry in source["sentences"]:
            rules = ((entry["rule"],) if "rule" in entry else ()) + tuple(entry.get("also", ()))
            found.append(Sentence(entry["text"], entry.get("language", source["language"]),
                                  entry["label"], rules, entry.get("needs"), source["repo"],
                                  int(source.get("round", 1))))
    return found


def canonical(check: str) -> str:
    from referee import dsl

    return dsl.format_condition(dsl.parse_condition(check))


def rule_part(check: str, sentence: str) -> str | None:
    """The rule part of ``<rule> and semantic "<the sentence>"``, canonical; None when
    ``check`` is not that form (a rule alone, or a judgement other than the sentence)."""
    from referee import dsl
    from referee.dsl import ast

    tree = dsl.parse_condition(check)
    if not isinstance(tree, ast.And) or tree.operands[-1] != ast.Semantic(" ".join(sentence.split())):
        return None
    rest = tree.operands[:-1]
    if any(isinstance(node, ast.Semantic) for node in rest):
        return None
    return dsl.format_condition(rest[0] if len(rest) == 1 else ast.And(rest))


def measure(sentences: list[Sentence], folder: str | None = None) -> Tally:
    """Draft every sentence with the patterns of ``folder`` (default: the bundled ones)."""
    from referee.engine.suggest.draft import draft_sentence
    from referee.engine.suggest.facts import RunFacts
    from referee.engine.suggest.patterns import load

    parts, patterns = load(folder)
    tally = Tally()
    for sentence in sentences:
        draft = draft_sentence(1, sentence.text, RunFacts(), parts, patterns)
        if sentence.label == "rule+judgement":
            _half(sentence, draft, tally)
            continue
        if sentence.label != "rule":
            if draft.check is not None:
                tally.overreach.append((sentence, draft))
            continue
        if sentence.needs:
            if draft.check is not None:
                tally.unsure.append((sentence, draft))
            continue
        tally.decidable[sentence.language] += 1
        if draft.check is None or draft.sure not in USABLE:
            tally.missed.append(sentence)
        elif canonical(draft.check) in {canonical(rule) for rule in sentence.rules}:
            tally.right[sentence.language] += 1
        else:
            tally.wrong.append((sentence, draft))
    return tally


def _half(sentence: Sentence, draft, tally: Tally) -> None:
    """A rule+judgement sentence: no draft, or the rule part and the sentence for the grader."""
    if draft.check is None:
        if sentence.rules:
            tally.halves[sentence.language] += 1
            tally.missed.append(sentence)
        return
    part = rule_part(draft.check, sentence.text)
    if part is None:
        tally.overreach.append((sentence, draft))
        return
    if not sentence.rules:
        tally.wrong.append((sentence, draft))
        return
    tally.halves[sentence.language] += 1
    if draft.sure not in USABLE:
        tally.missed.append(sentence)
    elif part in {canonical(rule) for rule in sentence.rules}:
        tally.halves_right[sentence.language] += 1
    else:
        tally.wrong.append((sentence, draft))


def report(tally: Tally) -> str:
    lines = _table("decidable", tally.decidable, tally.right)
    lines += ["", *_table("halves", tally.halves, tally.halves_right)]
    lines += ["", f"wrong drafts: {len(tally.wrong)}"]
    lines += [f"  {s.text}\n    got  {d.check}\n    want {s.rules[0] if s.rules else 'no rule part'}"
              for s, d in tally.wrong]
    lines += ["", f"a rule for a reader's sentence: {len(tally.overreach)}"]
    lines += [f"  [{s.label}] {s.text}\n    got  {d.check}" for s, d in tally.overreach]
    lines += ["", f"drafted though the rule rests on facts the sentence does not give: {len(tally.unsure)}"]
    lines += [f"  {s.text}\n    got  {d.check}" for s, d in tally.unsure]
    lines += ["", f"missed: {len(tally.missed)}"]
    lines += [f"  [{s.label}] {s.text}" for s in tally.missed]
    return "\n".join(lines)


def _table(what: str, total: Counter, right: Counter) -> list[str]:
    """Per language and in all: how many ``what`` there are and how many were drafted right."""
    lines = [f"language  {what:>9}  right  share"]
    for language in sorted(total):
        lines.append(f"{language:<9} {total[language]:>9} {right[language]:>6} "
                     f"{_share(total, right, language):>6.0%}")
    lines.append(f"{'all':<9} {sum(total.values()):>9} {sum(right.values()):>6} "
                 f"{_share(total, right, None):>6.0%}")
    return lines


if __name__ == "__main__":
    folder = sys.argv[1] if len(sys.argv) > 1 else None
    corpus = load_corpus()
    for number in sorted({s.round for s in corpus}):
        print(f"== round {number}\n{report(measure([s for s in corpus if s.round == number], folder))}\n")
    whole = measure(corpus, folder)
    print("== the whole corpus (the floors of tests/test_suggest_corpus.py)")
    print("\n".join(_table("decidable", whole.decidable, whole.right)))
    print("\n".join(["", *_table("halves", whole.halves, whole.halves_right)]))
