"""The pieces of benchmarks/luck_sprt.py: the tilted weights are a distribution whose means are
the targets and whose log is affine in the values (the maximum-entropy form), the pentanomial
probabilities are the weights by outcome, the coverage check is the interval it says, the
simulated luck-adjusted tests decide as the evidence points and stop at the cap, and the
Wilson interval holds its proportion."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luck_sprt import covered, pentanomial_probabilities, simulate_adjusted, tilt, wilson

from referee.ratings.sprt import MIN_NORMAL_PAIRS, PENTANOMIAL_SCORES, SprtSpec, logistic_score


def pool(seed: int, size: int) -> np.ndarray:
    """Pairs as the benchmark has them: a plain score of 0, 1/2 or 1 per game and an adjusted
    score near it."""
    rng = np.random.default_rng(seed)
    plain = rng.choice([0.0, 0.5, 1.0], size=size, p=[0.4, 0.4, 0.2])
    return np.column_stack([plain, 0.4 + 0.1 * (plain - 0.4) + rng.normal(0, 0.05, size)])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(8, 400), mix=st.floats(0.05, 0.95))
def test_the_tilted_weights_are_a_distribution_with_the_targets_as_means(
    seed: int, size: int, mix: float
) -> None:
    values = pool(seed, size)
    # A target inside the pool's range: the means under some positive weights.
    other = np.random.default_rng(seed + 1).random(size) + 0.01
    targets = mix * values.mean(axis=0) + (1 - mix) * (other / other.sum()) @ values
    weights = tilt(values, targets)
    assert weights.sum() == pytest.approx(1, abs=1e-12)
    assert (weights > 0).all()
    assert weights @ values == pytest.approx(targets, abs=1e-9)
    # The maximum-entropy weights: their log an affine function of the values.
    design = np.column_stack([np.ones(size), values])
    fit, *_ = np.linalg.lstsq(design, np.log(weights), rcond=None)
    assert np.abs(design @ fit - np.log(weights)).max() < 1e-6


def test_uniform_weights_for_the_pools_own_means_and_none_beyond_its_range() -> None:
    values = pool(3, 200)
    assert tilt(values, values.mean(axis=0)) == pytest.approx(np.full(200, 1 / 200), rel=1e-9)
    with pytest.raises(ValueError, match="outside"):
        tilt(values, np.array([1.2, 0.4]))


def test_the_pentanomial_probabilities_are_the_weights_by_outcome() -> None:
    plain = np.array([0.0, 0.5, 1.0, 0.25, 0.5, 0.75])
    weights = np.array([0.1, 0.2, 0.3, 0.05, 0.15, 0.2])
    probabilities = pentanomial_probabilities(plain, weights)
    assert probabilities == pytest.approx([0.1, 0.05, 0.35, 0.2, 0.3])
    assert probabilities @ PENTANOMIAL_SCORES == pytest.approx(weights @ plain)


def test_an_interval_is_the_mean_plus_or_minus_its_standard_errors() -> None:
    # Mean 0.5, sd sqrt(1/2), two scores: a half-width of 1.96 * 0.5.
    scores = np.array([[0.0, 1.0], [0.0, 1.0]])
    assert covered(scores, 0.5 + 0.97).tolist() == [True, True]
    assert covered(scores, 0.5 - 0.99).tolist() == [False, False]


@pytest.mark.parametrize(("shift", "decision"), [(0.2, 1), (-0.2, 0)])
def test_simulated_tests_decide_as_the_scores_point(shift: float, decision: int) -> None:
    spec = SprtSpec(0, 20)
    middle = (float(logistic_score(0)) + float(logistic_score(20))) / 2
    scores = middle + shift + np.array([-0.1, 0.0, 0.1])
    sim = simulate_adjusted(
        spec, scores, np.array([0.3, 0.4, 0.3]), 200, 1000, np.random.default_rng(1)
    )
    assert (sim.decisions == decision).all()
    assert (sim.pairs >= MIN_NORMAL_PAIRS).all()
    assert (sim.pairs < 1000).all()


def test_a_simulated_test_stops_undecided_at_the_cap() -> None:
    spec = SprtSpec(0, 5)
    middle = (float(logistic_score(0)) + float(logistic_score(5))) / 2
    scores = middle + np.array([-0.5, 0.5])
    sim = simulate_adjusted(spec, scores, np.array([0.5, 0.5]), 50, 12, np.random.default_rng(2))
    assert (sim.decisions == -1).all()
    assert (sim.pairs == 12).all()


@given(trials=st.integers(1, 10_000), share=st.floats(0, 1))
def test_the_wilson_interval_holds_its_proportion(trials: int, share: float) -> None:
    hits = round(share * trials)
    low, high = wilson(hits, trials)
    assert 0 <= low <= hits / trials <= high <= 1
    assert high - low <= 2 * 1.96 * math.sqrt(0.25 / trials) + 1e-12


def test_the_wilson_interval_of_no_success_in_ten() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
