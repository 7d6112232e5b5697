"""The luck-adjusted mean is an unbiased estimate of the expected score, with an honest interval:
over many tournaments of THAX's greedy against thax-perfect, each its own seed, played and
analysed through the library, the 95% interval of greedy's mean score per game holds the
exact expected score (policy evaluation, tests/games/thax/policy.py) about 95% of the time,
luck-adjusted as plain."""

from __future__ import annotations

import pytest
from luck_sprt import covered, repetitions

from tests.games.thax.policy import expected_score

TOURNAMENTS = 300
PAIRS = 50


@pytest.mark.slow
def test_both_means_intervals_hold_the_exact_score_95_percent_of_the_time() -> None:
    """The interval: mean +- 1.96 sd / sqrt(N) over a tournament's N pair scores."""
    exact = expected_score("greedy", "thax-perfect")
    plain, adjusted = repetitions(TOURNAMENTS, PAIRS)
    coverage = [float(covered(scores, exact).mean()) for scores in (plain, adjusted)]
    assert 0.92 <= coverage[0] <= 0.98, coverage
    assert 0.92 <= coverage[1] <= 0.98, coverage
