"""``--llm-timeout`` above what a timer can wait for (1e300 seconds) was taken: each
request's deadline timer died in its thread with an OverflowError traceback on
stderr, and every semantic assertion became an ERROR ('malformed (OverflowError)').
A deadline is at most a day: beyond that it is a usage error naming the flag."""

from __future__ import annotations

import pytest

from referee.llm_adapter import make_judge


@pytest.mark.parametrize("seconds", [1e300, 86400.5, 1e10])
def test_a_deadline_beyond_a_day_is_refused(seconds):
    with pytest.raises(ValueError, match=r"--llm-timeout must be at most 86400 seconds"):
        make_judge("openai:m", base_url="http://127.0.0.1:9/v1", timeout=seconds)


@pytest.mark.parametrize("seconds", [0.5, 60.0, 86400.0])
def test_a_deadline_up_to_a_day_is_taken(seconds):
    assert make_judge("openai:m", base_url="http://127.0.0.1:9/v1", timeout=seconds).backend.transport.timeout == seconds
