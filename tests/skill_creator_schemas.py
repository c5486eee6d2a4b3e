"""skill-creator's comparator and analyzer output schemas, as their documentation
states them (skills/skill-creator/agents/comparator.md, agents/analyzer.md and
references/schemas.md in anthropics/skills), restated as checks field by field.

Each check returns the list of violations, each naming the field's path, so a test
shows every difference at once. What the documentation leaves open stays open
(criteria names: "adapt criteria to the specific task"); what it fixes is checked
(the winner's three values, 1-5 criteria, 1-10 scores, the dimension scores as
averages of their criteria, the overall score as their combination, pass rates as
fractions of passed over total, the suggestion priorities and categories).
``referee`` blocks are ours and are not checked here.
"""

from __future__ import annotations

from typing import Any

WINNERS = ("A", "B", "TIE")
PRIORITIES = ("high", "medium", "low")
CATEGORIES = ("instructions", "tools", "examples", "error_handling", "structure", "references")


class _Found(list):
    def need(self, ok: bool, where: str, what: str) -> bool:
        if not ok:
            self.append(f"{where}: {what}")
        return ok

    def object(self, value: Any, where: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> bool:
        if not self.need(isinstance(value, dict), where, "must be an object"):
            return False
        present = all([self.need(key in value, where, f"lacks {key!r}") for key in keys])
        extra = set(value) - set(keys) - set(optional) - {"referee"}
        self.need(not extra, where, f"has fields the schema does not name: {sorted(extra)}")
        return present

    def text(self, value: Any, where: str) -> None:
        self.need(isinstance(value, str) and value.strip() != "", where, "must be a non-empty string")

    def texts(self, value: Any, where: str) -> None:
        if self.need(isinstance(value, list), where, "must be a list of strings"):
            for n, entry in enumerate(value):
                self.text(entry, f"{where}[{n}]")

    def number(self, value: Any, where: str, low: float, high: float, whole: bool = False) -> bool:
        kinds = (int,) if whole else (int, float)
        return self.need(isinstance(value, kinds) and not isinstance(value, bool) and low <= value <= high,
                         where, f"must be a {'whole ' if whole else ''}number from {low} to {high}, not {value!r}")


def comparison_problems(doc: Any) -> list[str]:
    """comparison-N.json: the blind comparator's output."""
    found = _Found()
    if not found.object(doc, "$", ("winner", "reasoning", "rubric", "output_quality"), ("expectation_results",)):
        return found
    found.need(doc["winner"] in WINNERS, "$.winner", f"must be one of {WINNERS}")
    found.text(doc["reasoning"], "$.reasoning")
    if found.object(doc["rubric"], "$.rubric", ("A", "B")):
        for side in ("A", "B"):
            _rubric(found, doc["rubric"][side], f"$.rubric.{side}")
    if found.object(doc["output_quality"], "$.output_quality", ("A", "B")):
        for side in ("A", "B"):
            _quality(found, doc["output_quality"][side], f"$.output_quality.{side}", doc["rubric"].get(side))
    if "expectation_results" in doc and found.object(doc["expectation_results"], "$.expectation_results", ("A", "B")):
        for side in ("A", "B"):
            _expectations(found, doc["expectation_results"][side], f"$.expectation_results.{side}")
    return found


def _rubric(found: _Found, value: Any, where: str) -> None:
    keys = ("content", "structure", "content_score", "structure_score", "overall_score")
    if not found.object(value, where, keys):
        return
    means = {}
    for dimension in ("content", "structure"):
        criteria = value[dimension]
        if found.need(isinstance(criteria, dict), f"{where}.{dimension}", "must map criteria to scores"):
            for name, score in criteria.items():
                found.number(score, f"{where}.{dimension}.{name}", 1, 5, whole=True)
            scores = [s for s in criteria.values() if isinstance(s, int)]
            means[dimension] = sum(scores) / len(scores) if scores else None
    for dimension in ("content", "structure"):
        score = value[f"{dimension}_score"]
        if found.number(score, f"{where}.{dimension}_score", 1, 5) and means.get(dimension) is not None:
            found.need(abs(score - means[dimension]) < 0.051, f"{where}.{dimension}_score",
                       f"must be the average of its criteria ({means[dimension]:.2f}), not {score}")
    overall = value["overall_score"]
    if found.number(overall, f"{where}.overall_score", 1, 10) and all(
            isinstance(value[k], (int, float)) for k in ("content_score", "structure_score")):
        combined = value["content_score"] + value["structure_score"]
        found.need(abs(overall - combined) < 0.11, f"{where}.overall_score",
                   f"must combine the dimension scores on 1-10 ({combined}), not {overall}")


def _quality(found: _Found, value: Any, where: str, rubric: Any) -> None:
    if not found.object(value, where, ("score", "strengths", "weaknesses")):
        return
    if found.number(value["score"], f"{where}.score", 1, 10, whole=True) and isinstance(rubric, dict) \
            and isinstance(rubric.get("overall_score"), (int, float)):
        found.need(abs(value["score"] - rubric["overall_score"]) <= 0.5, f"{where}.score",
                   "should match the rubric's overall_score")
    found.texts(value["strengths"], f"{where}.strengths")
    found.texts(value["weaknesses"], f"{where}.weaknesses")


def _expectations(found: _Found, value: Any, where: str) -> None:
    if not found.object(value, where, ("passed", "total", "pass_rate", "details")):
        return
    passed, total = value["passed"], value["total"]
    found.number(passed, f"{where}.passed", 0, 10 ** 9, whole=True)
    found.number(total, f"{where}.total", 0, 10 ** 9, whole=True)
    if found.number(value["pass_rate"], f"{where}.pass_rate", 0, 1) and isinstance(total, int) and total:
        found.need(abs(value["pass_rate"] - passed / total) < 0.0001, f"{where}.pass_rate", "must be passed / total")
    details = value["details"]
    if found.need(isinstance(details, list), f"{where}.details", "must be a list"):
        for n, entry in enumerate(details):
            if found.object(entry, f"{where}.details[{n}]", ("text", "passed")):
                found.text(entry["text"], f"{where}.details[{n}].text")
                found.need(isinstance(entry["passed"], bool), f"{where}.details[{n}].passed", "must be true or false")
        found.need(len(details) == total, f"{where}.details", "must list each of the total expectations")
        found.need(sum(1 for e in details if isinstance(e, dict) and e.get("passed") is True) == passed,
                   f"{where}.details", "must agree with passed")


def analysis_problems(doc: Any) -> list[str]:
    """analysis.json: the post-hoc analyzer's output."""
    found = _Found()
    keys = ("comparison_summary", "winner_strengths", "loser_weaknesses", "instruction_following",
            "improvement_suggestions", "transcript_insights")
    if not found.object(doc, "$", keys):
        return found
    summary = doc["comparison_summary"]
    if found.object(summary, "$.comparison_summary", ("winner", "winner_skill", "loser_skill", "comparator_reasoning")):
        found.need(summary["winner"] in WINNERS, "$.comparison_summary.winner", f"must be one of {WINNERS}")
        for key in ("winner_skill", "loser_skill", "comparator_reasoning"):
            found.text(summary[key], f"$.comparison_summary.{key}")
    found.texts(doc["winner_strengths"], "$.winner_strengths")
    found.texts(doc["loser_weaknesses"], "$.loser_weaknesses")
    following = doc["instruction_following"]
    if found.object(following, "$.instruction_following", ("winner", "loser")):
        for side in ("winner", "loser"):
            where = f"$.instruction_following.{side}"
            if found.object(following[side], where, ("score", "issues")):
                found.number(following[side]["score"], f"{where}.score", 1, 10, whole=True)
                found.texts(following[side]["issues"], f"{where}.issues")
    if found.need(isinstance(doc["improvement_suggestions"], list), "$.improvement_suggestions", "must be a list"):
        for n, entry in enumerate(doc["improvement_suggestions"]):
            where = f"$.improvement_suggestions[{n}]"
            if found.object(entry, where, ("priority", "category", "suggestion", "expected_impact")):
                found.need(entry["priority"] in PRIORITIES, f"{where}.priority", f"must be one of {PRIORITIES}")
                found.need(entry["category"] in CATEGORIES, f"{where}.category", f"must be one of {CATEGORIES}")
                found.text(entry["suggestion"], f"{where}.suggestion")
                found.text(entry["expected_impact"], f"{where}.expected_impact")
    insights = doc["transcript_insights"]
    if found.object(insights, "$.transcript_insights", ("winner_execution_pattern", "loser_execution_pattern")):
        found.text(insights["winner_execution_pattern"], "$.transcript_insights.winner_execution_pattern")
        found.text(insights["loser_execution_pattern"], "$.transcript_insights.loser_execution_pattern")
    return found
