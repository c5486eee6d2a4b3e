"""The corpus of real sentences and what `referee suggest` makes of it."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from referee import dsl
from referee.engine.compile import check_rules
from suggest_corpus import CORPUS, load_corpus

SENTENCES = load_corpus()
LABELS = ("rule", "rule+judgement", "judgement")
# What a source's repository declares: an SPDX identifier or "none declared", then, in
# parentheses, where the license is stated when that is not a license file (or, when none
# is declared, what else the repository says about reuse).
LICENSE = re.compile(r"(none declared|[A-Za-z0-9][A-Za-z0-9.+-]*)( \(.+\))?")


def test_the_corpus_is_real_and_large_enough():
    import yaml

    sources = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    assert len(SENTENCES) >= 300
    assert len({s["repo"] for s in sources}) >= 15
    for source in sources:
        named = {"repo", "path", "commit", "license", "field", "language", "sentences"}
        assert named <= source.keys(), source["repo"]
        assert len(source["commit"]) == 40
        assert LICENSE.fullmatch(source["license"]), (source["repo"], source["license"])
    texts = Counter((s.repo, s.text) for s in SENTENCES)
    assert [key for key, seen in texts.items() if seen > 1] == []


def test_every_sentence_has_a_label_and_every_rule_passes_check():
    for sentence in SENTENCES:
        assert sentence.label in LABELS, sentence.text
        if sentence.label == "rule" and not sentence.needs:
            assert sentence.rules, sentence.text
        if sentence.label == "judgement":
            assert not sentence.rules, sentence.text
        if sentence.label != "rule":
            assert not sentence.needs, sentence.text  # a literal half is labelled only when decidable
    problems = {}
    for sentence in SENTENCES:
        for rule in sentence.rules:
            try:
                tree = dsl.parse_rules(f"eval 1\nexpect: {rule}\n", "corpus.rules")
                found = check_rules([tree])
            except dsl.RulesError as err:
                found = err.diagnostics
            if found:
                problems[sentence.text] = [d.message for d in found]
    assert problems == {}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_each_language_has_decidable_sentences(language):
    decidable = [s for s in SENTENCES if s.language == language and s.label == "rule" and not s.needs]
    assert len(decidable) >= 10


# The share of decidable sentences that get a right draft, sure enough to use, per
# language and in all, over the whole corpus (85 of 117 when these were set; none
# before the patterns were grown). A change to the patterns may raise these, never
# lower them; the last round was never tuned on, so its share is measured apart.
FLOORS = {"en": 0.67, "zh": 0.77, "ko": 0.91, "all": 0.72}
# The same for the literal halves of rule+judgement sentences, drafted as the rule part
# and the sentence for the grader (47 of 77 when these were set: en 17 of 35, zh 30 of
# 38, ko 0 of 4; none before the language could say both in one sentence).
HALF_FLOORS = {"en": 0.48, "zh": 0.78, "ko": 0.0, "all": 0.61}


def test_the_drafts_reach_the_floor_on_real_sentences():
    from suggest_corpus import measure

    tally = measure(SENTENCES)
    shares = {language: tally.share(language) for language in tally.decidable} | {"all": tally.share()}
    assert {k: round(v, 2) for k, v in shares.items() if v < FLOORS[k]} == {}
    halves = {language: tally.half_share(language) for language in tally.halves} | {"all": tally.half_share()}
    assert {k: round(v, 2) for k, v in halves.items() if v < HALF_FLOORS[k]} == {}
    assert [(s.text, d.check) for s, d in tally.wrong] == []


def test_no_sentence_that_needs_a_reader_gets_a_rule_alone():
    from suggest_corpus import measure

    tally = measure(SENTENCES)
    assert [(s.label, s.text, d.check) for s, d in tally.overreach] == []


def test_a_literal_half_is_right_only_with_the_sentence_for_the_grader():
    from suggest_corpus import Sentence, measure

    def sentence(text: str, label: str, *rules: str) -> Sentence:
        return Sentence(text, "en", label, rules, None, "x/y", 1)

    removes = "Output removes 'Certainly!' and closing help offers."
    half = 'not response contains "Certainly!"'
    tally = measure([
        sentence(removes, "rule+judgement", half),  # the half, with the sentence: right
        sentence(removes, "rule+judgement"),  # a half the label does not give: wrong
        sentence(removes, "rule+judgement", 'not response contains "certainly"'),  # another half: wrong
        sentence("Mentions --dry-run", "rule+judgement", 'response contains "--dry-run"'),  # a rule alone
        sentence(removes, "judgement"),  # a judgement gets no rule part at all
    ])
    assert (tally.halves["en"], tally.halves_right["en"]) == (2, 1)
    assert len(tally.wrong) == 2
    assert [s.label for s, _ in tally.overreach] == ["rule+judgement", "judgement"]
