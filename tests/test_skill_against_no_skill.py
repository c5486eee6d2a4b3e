"""``with_skill`` (or ``has_skill``) against ``no_skill``.

Harnesses name the run without any skill ``no_skill``: one's design retires
``old_skill`` for ``with_skill`` against ``no_skill``, another writes
``has_skill/`` beside ``no_skill/``. aggregate, compare and report refused both
pairs ("cannot tell which configuration is the skill under test"); ``no_X`` is now
the baseline of ``with_X`` or ``has_X`` when no other pair is there. Names that pair
two ways are still asked for.
"""

from __future__ import annotations

import pytest

from referee.engine.decision.configurations import choose
from referee.engine.usage import UsageError


@pytest.mark.parametrize("names, roles", [
    (["no_skill", "with_skill"], ("with_skill", "no_skill")),
    (["has_skill", "no_skill"], ("has_skill", "no_skill")),
    (["with-skill", "no-skill"], ("with-skill", "no-skill")),
    (["with_skill", "without_skill", "no_skill"], ("with_skill", "without_skill")),
])
def test_no_x_is_the_baseline(names, roles):
    choice = choose(names)
    assert (choice.primary, choice.baseline) == roles


@pytest.mark.parametrize("names", [
    ["with_skill", "old_skill", "no_skill"],
    ["with_skill", "has_skill", "no_skill"],
    ["no_skill", "nothing"],
])
def test_two_ways_or_none_are_asked(names):
    with pytest.raises(UsageError, match="--primary NAME --baseline NAME"):
        choose(names)
