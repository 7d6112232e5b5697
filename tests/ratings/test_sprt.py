"""The SPRT's statistics: error rates by simulation, the LLR against a direct constrained
maximum likelihood, the bounds, the specification text."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from referee.ratings.sprt import (
    MIN_NORMAL_PAIRS,
    PairMoments,
    SprtError,
    SprtSpec,
    elo_estimate,
    llr,
    logistic_score,
    normal_llr,
    simulate,
    sprt_state,
)


def expected_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def pair_model(elo: float, draw: float, correlation: float) -> np.ndarray:
    """Pentanomial probabilities of a pair whose games each score `expected_score(elo)` with
    draw rate `draw`; with probability `correlation` the second game repeats the first's
    result (as a shared opening or shared dice would make it), else it is independent."""
    s = expected_score(elo)
    game = np.array([1 - s - draw / 2, draw, s - draw / 2])  # loss, draw, win
    assert (game > 0).all()
    independent = np.convolve(game, game)
    same = np.zeros(5)
    same[[0, 2, 4]] = game
    return (1 - correlation) * independent + correlation * same


SPEC = SprtSpec(elo0=0, elo1=40, alpha=0.05, beta=0.05)


@pytest.mark.parametrize(("draw", "correlation"), [(0.3, 0.0), (0.1, 0.4)])
def test_error_rates_by_simulation(draw: float, correlation: float) -> None:
    rng = np.random.default_rng(20261201)
    at_elo0 = simulate(SPEC, pair_model(SPEC.elo0, draw, correlation), 2000, 20_000, rng)
    at_elo1 = simulate(SPEC, pair_model(SPEC.elo1, draw, correlation), 2000, 20_000, rng)
    assert at_elo0.rate("H1") <= SPEC.alpha + 0.02
    assert at_elo1.rate("H1") >= 1 - SPEC.beta - 0.02
    # Every test decided before the cap, and the LLR alone stopped it.
    assert (at_elo0.decisions >= 0).all() and (at_elo1.decisions >= 0).all()


def direct_log_likelihood(counts: np.ndarray, values: np.ndarray, score: float) -> float:
    """The largest log-likelihood of `counts` over outcome probabilities whose mean is
    `score`, by a general constrained optimiser (no Lagrange formula)."""
    filled = np.maximum(counts, 1e-3)  # the empty-cell rule of the SPRT (fishtest's)

    def negative(p: np.ndarray) -> float:
        return -float(filled @ np.log(np.clip(p, 1e-300, None)))

    constraints = [
        {"type": "eq", "fun": lambda p: p.sum() - 1},
        {"type": "eq", "fun": lambda p: p @ values - score},
    ]
    start = np.full(values.size, 1 / values.size)
    start = start + (score - start @ values) * (values - values.mean()) / (
        (values - values.mean()) @ (values - values.mean())
    )
    result = minimize(
        negative,
        start,
        method="SLSQP",
        bounds=[(1e-12, 1)] * values.size,
        constraints=constraints,
        options={"ftol": 1e-14, "maxiter": 500},
    )
    assert result.success
    return -result.fun


def test_llr_of_a_fixed_sequence_matches_a_direct_maximum() -> None:
    pentanomial = np.array([3, 21, 60, 30, 6], dtype=float)
    trinomial = np.array([2, 1, 4], dtype=float)
    spec = SprtSpec(elo0=-5, elo1=15)
    s0, s1 = expected_score(-5), expected_score(15)
    pair_values = np.array([0, 0.25, 0.5, 0.75, 1])
    game_values = np.array([0, 0.5, 1])
    expected = (
        direct_log_likelihood(pentanomial, pair_values, s1)
        - direct_log_likelihood(pentanomial, pair_values, s0)
        + direct_log_likelihood(trinomial, game_values, s1)
        - direct_log_likelihood(trinomial, game_values, s0)
    )
    assert float(llr(spec, pentanomial, trinomial)) == pytest.approx(expected, abs=1e-5)


def test_llr_with_unseen_outcomes_matches_a_direct_maximum() -> None:
    pentanomial = np.array([0, 0, 5, 9, 0], dtype=float)
    values = np.array([0, 0.25, 0.5, 0.75, 1])
    spec = SprtSpec(elo0=0, elo1=10)
    expected = direct_log_likelihood(pentanomial, values, expected_score(10)) - (
        direct_log_likelihood(pentanomial, values, expected_score(0))
    )
    assert float(llr(spec, pentanomial)) == pytest.approx(expected, abs=1e-5)


def test_bounds_and_decision() -> None:
    spec = SprtSpec(elo0=0, elo1=5, alpha=0.05, beta=0.1)
    assert spec.lower == pytest.approx(math.log(0.1 / 0.95))
    assert spec.upper == pytest.approx(math.log(0.9 / 0.05))
    strong = sprt_state(spec, [0, 0, 10, 200, 300])
    assert strong.decision == "H1" and strong.games == 1020 and strong.pairs == 510
    weak = sprt_state(spec, [300, 200, 10, 0, 0])
    assert weak.decision == "H0"
    assert sprt_state(spec, [0, 1, 2, 1, 0]).decision is None


def test_elo_estimate_matches_the_pair_formula() -> None:
    pentanomial = np.array([5, 20, 50, 30, 10], dtype=float)
    values = np.array([0, 0.25, 0.5, 0.75, 1])
    n = pentanomial.sum()
    mean = pentanomial @ values / n
    sd = math.sqrt(pentanomial @ (values - mean) ** 2 / n)
    se = sd / math.sqrt(n)

    def elo(score: float) -> float:
        return -400 * math.log10(1 / score - 1)

    estimate = elo_estimate(pentanomial)
    assert estimate.elo == pytest.approx(elo(mean))
    assert estimate.lower == pytest.approx(elo(mean - 1.959964 * se))
    assert estimate.upper == pytest.approx(elo(mean + 1.959964 * se))


numbers = st.floats(min_value=-500, max_value=500, allow_nan=False).map(lambda x: round(x, 2))


@given(numbers, numbers, st.floats(0.001, 0.49), st.floats(0.001, 0.49))
@settings(max_examples=200)
def test_spec_text_round_trips(elo0: float, elo1: float, alpha: float, beta: float) -> None:
    if not elo0 < elo1:
        with pytest.raises(SprtError):
            SprtSpec(elo0, elo1, alpha, beta)
        return
    spec = SprtSpec(elo0, elo1, round(alpha, 4), round(beta, 4))
    assert SprtSpec.parse(spec.text()) == spec


@pytest.mark.parametrize(
    "text",
    [
        "",
        "elo0=0",
        "elo1=5",
        "elo0=5,elo1=0",
        "elo0=0,elo1=5,alpha=0",
        "elo0=0,elo1=5,beta=0.7",
        "elo0=a,elo1=5",
        "elo0=0,elo1=nan",
        "elo0=0,elo1=inf",
        "elo0=0,elo1=5,gamma=1",
        "elo0=0,elo0=1,elo1=5",
        "elo0=0,elo1=5000",
        "elo0 0,elo1=5",
    ],
)
def test_bad_specs_are_refused_with_a_message(text: str) -> None:
    with pytest.raises(SprtError, match="SPRT"):
        SprtSpec.parse(text)


@given(st.lists(st.integers(0, 60), min_size=5, max_size=5), numbers, numbers)
@settings(max_examples=100)
def test_the_llr_is_the_same_seen_from_the_other_bot(
    counts: list[int], elo0: float, elo1: float
) -> None:
    """B's test of the mirrored hypotheses on the mirrored counts weighs the same evidence
    the other way: A's score s is B's 1 - s, A's elo is B's -elo."""
    if not elo0 < elo1:
        return
    forward = float(llr(SprtSpec(elo0, elo1), np.array(counts)))
    mirrored = float(llr(SprtSpec(-elo1, -elo0), np.array(counts[::-1])))
    assert mirrored == pytest.approx(-forward, abs=1e-6)


# The luck-adjusted test's normal model (normal_llr).


def test_normal_llr_of_symmetric_scores_is_the_normal_likelihood_ratio() -> None:
    """Without skew the corrected deviations are the plain ones: (n/2) log(V0/V1), Vk the
    mean square about sk, as written out here."""
    spec = SprtSpec(0, 20)
    base = np.array([0.40, 0.45, 0.50, 0.55, 0.60])
    scores = np.concatenate([base + 0.01 * k for k in range(-2, 3)])  # 25 scores, no skew
    s0, s1 = float(logistic_score(0)), float(logistic_score(20))
    v0 = float(((scores - s0) ** 2).mean())
    v1 = float(((scores - s1) ** 2).mean())
    assert float(normal_llr(spec, PairMoments.of(scores))) == pytest.approx(
        len(scores) / 2 * math.log(v0 / v1), rel=1e-9
    )


def test_normal_llr_counts_nothing_before_its_minimum_of_pairs() -> None:
    spec = SprtSpec(0, 20)
    few = np.linspace(0.7, 0.9, MIN_NORMAL_PAIRS - 1)
    assert float(normal_llr(spec, PairMoments.of(few))) == 0.0
    assert float(normal_llr(spec, PairMoments.of(np.append(few, 0.8)))) > 0


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=MIN_NORMAL_PAIRS, max_value=80),
    st.floats(min_value=0.5, max_value=5.0),
    st.floats(min_value=0.01, max_value=0.3),
    st.floats(min_value=0.001, max_value=1.0),
    st.booleans(),
)
def test_normal_llr_says_h1_for_scores_above_both_hypotheses_whatever_their_skew(
    n: int, bend: float, spread: float, above: float, lower_tail: bool
) -> None:
    """Hall's transformation is monotone, so a mean above s1 always counts for H1 however
    skewed the scores (Johnson's quadratic correction alone can turn it into evidence for
    H0): scores with a long tail, their mean `above` over s1."""
    spec = SprtSpec(-20, 20)
    tail = np.exp(bend * np.linspace(0, 1, n))
    data = spread * (tail - tail.mean()) / tail.std() * (-1 if lower_tail else 1)
    data = data + float(logistic_score(20)) + above
    assert float(normal_llr(spec, PairMoments.of(data))) > 0
