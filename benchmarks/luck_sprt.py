"""The luck-adjusted SPRT against the pentanomial SPRT where the truth is known: error rates and
games to a decision, and the coverage of the 95% intervals of both mean scores.

Run: .venv/bin/python benchmarks/luck_sprt.py [--repetitions 600] [--pairs 50] [--tests 1000]
     [--delta 10] [--write]
THAX's greedy against thax-perfect, whose expected score per game is known exactly: policy
evaluation of the two bots' choices (tests/games/thax/policy.py), E as logistic Elo.

Coverage: `--repetitions` tournaments of `--pairs` seat-swapped pairs, each its own seed,
played and analysed through the library (benchmarks/luck_variance.py's `play_pairs`); in how
many of them the 95% interval of greedy's mean score per game, mean +- 1.96 sd / sqrt(N) over
the N pair scores, holds the exact score, plain and luck-adjusted.

SPRTs: the pairs of all those tournaments make a pool, each pair with its pentanomial outcome
(its plain pair score) and its adjusted pair score. The pool's pairs get resampling weights:
the maximum-entropy ones (closest to uniform) under which both the plain and the adjusted mean
equal the exact score (`tilt`). Drawing pairs i.i.d. by those weights, both tests meet one
distribution whose score is exactly E. Each test is run `--tests` times with the truth at
elo0 (elo0 = E, elo1 = E + delta) and as many with it at elo1 (elo0 = E - delta, elo1 = E),
alpha = beta = 0.05, every test looking at its LLR after every pair, up to a cap: the
pentanomial test by the library's `simulate` on the weighted pool's outcome probabilities, the
luck-adjusted one by `simulate_adjusted` on its drawn pairs' adjusted scores (`normal_llr`).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

import numpy as np
from common import load_average, machine, report, table
from luck_variance import Z, play_pairs

from referee.ratings.sprt import (
    PENTANOMIAL_SCORES,
    PairMoments,
    Simulation,
    SprtSpec,
    logistic_elo,
    normal_llr,
    simulate,
)

sys.path.insert(0, str(Path(__file__).parents[1]))

from tests.games.thax.policy import expected_score

BOTS = ("greedy", "thax-perfect")
"""The first is the bot whose scores are measured."""
SEED = "luck-sprt"
ALPHA = BETA = 0.05
SLACK = 0.02
"""The acceptance: an error rate within alpha + SLACK, a power of at least 1 - beta - SLACK."""
TARGET_RATIO = 3.0
"""The acceptance: the pentanomial test's mean games over the luck-adjusted test's."""
CONTROL = 200_000
"""Normal scores drawn for the control."""
_NEWTON_STEPS = 100


def repetitions(count: int, pairs: int, first: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Greedy's plain and adjusted scores per game of each pair (rows: `count` tournaments,
    seeds `luck-sprt-<first>`... onwards; columns: their `pairs` pairs)."""
    plain, adjusted = [], []
    for number in range(first, first + count):
        played = play_pairs("thax", BOTS, pairs, f"{SEED}-{number}")
        assert played.engines == {"exact"}
        plain.append(played.plain / 2)
        adjusted.append(played.adjusted / 2)
    return np.array(plain), np.array(adjusted)


def covered(scores: np.ndarray, truth: float) -> np.ndarray:
    """For each row of scores: whether mean +- Z sd / sqrt(n) over the row holds `truth`."""
    n = scores.shape[-1]
    half = Z * scores.std(axis=-1, ddof=1) / math.sqrt(n)
    return np.abs(scores.mean(axis=-1) - truth) <= half


def tilt(values: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Weights on the rows of `values` (rows: items, columns: quantities) that sum to 1, give
    each column's weighted mean its target, and are of all such weights the closest to uniform
    (the least Kullback-Leibler divergence from it: the most entropy).

    They are w_i proportional to exp(lam . (v_i - t)), lam minimising the convex
    log sum_i exp(lam . (v_i - t)), whose gradient is the weighted mean of v - t and whose
    Hessian their weighted covariance: Newton's method, halving a step that lowers neither the
    objective nor the gradient. ValueError if the targets lie outside the interior of the
    values' convex hull (no such weights exist) or the values' columns are linearly dependent.
    """
    shifted = np.asarray(values, dtype=float) - np.asarray(targets, dtype=float)
    scale = max(float(np.abs(shifted).max()), 1e-300)

    def objective(lam: np.ndarray) -> tuple[float, np.ndarray]:
        exponent = shifted @ lam
        top = exponent.max()
        weights = np.exp(exponent - top)
        total = weights.sum()
        return float(top + math.log(total)), weights / total

    lam = np.zeros(shifted.shape[1])
    value, weights = objective(lam)
    for _ in range(_NEWTON_STEPS):
        gradient = weights @ shifted
        if np.abs(gradient).max() <= 1e-12 * scale:
            return weights
        centred = shifted - gradient
        hessian = (centred * weights[:, None]).T @ centred
        try:
            step = np.linalg.solve(hessian, -gradient)
        except np.linalg.LinAlgError:
            raise ValueError("the values' columns are linearly dependent") from None
        # Near the minimum the objective's fall is below its rounding: a step that lowers
        # the gradient is then taken as well.
        size = 1.0
        while True:
            trial, trial_weights = objective(lam + size * step)
            lower = trial < value or np.abs(trial_weights @ shifted).max() < np.abs(gradient).max()
            if lower or size < 1e-12:
                break
            size /= 2
        if not lower:
            break
        lam, value, weights = lam + size * step, trial, trial_weights
    gradient = weights @ shifted
    if np.abs(gradient).max() <= 1e-9 * scale:
        return weights
    raise ValueError("the targets lie outside the values' range: no weights give them")


def pentanomial_probabilities(plain: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The five pentanomial outcomes' probabilities under the weights, from the pairs' plain
    scores per game (0, 1/4, ... 1)."""
    outcome = np.rint(np.asarray(plain) * 4).astype(int)
    assert np.allclose(PENTANOMIAL_SCORES[outcome], plain)
    return np.bincount(outcome, weights=weights, minlength=PENTANOMIAL_SCORES.size)


def simulate_adjusted(
    spec: SprtSpec,
    scores: np.ndarray,
    weights: np.ndarray,
    tests: int,
    cap_pairs: int,
    rng: np.random.Generator,
) -> Simulation:
    """Run `tests` independent luck-adjusted SPRTs on pair scores (per game) drawn from
    `scores` with probabilities `weights`, each until a bound or `cap_pairs`, looking at
    `normal_llr` after every pair: `simulate` with the normal model's pair scores."""
    cumulative = np.cumsum(weights)
    cumulative /= cumulative[-1]
    count, total, squares, cubes = (np.zeros(tests) for _ in range(4))
    decisions = np.full(tests, -1)
    pairs = np.full(tests, cap_pairs)
    active = np.arange(tests)
    played = 0
    while played < cap_pairs and active.size:
        drawn = scores[
            np.minimum(np.searchsorted(cumulative, rng.random(active.size)), len(scores) - 1)
        ]
        count[active] += 1
        total[active] += drawn
        squares[active] += drawn * drawn
        cubes[active] += drawn**3
        played += 1
        moments = PairMoments(count[active], total[active], squares[active], cubes[active])
        ratio = normal_llr(spec, moments)
        done = (ratio >= spec.upper) | (ratio <= spec.lower)
        decisions[active[done]] = np.where(ratio[done] >= spec.upper, 1, 0)
        pairs[active[done]] = played
        active = active[~done]
    return Simulation(decisions, pairs)


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a binomial proportion."""
    p = successes / trials
    centre = (p + Z * Z / (2 * trials)) / (1 + Z * Z / trials)
    half = (
        Z * math.sqrt(p * (1 - p) / trials + Z * Z / (4 * trials * trials)) / (1 + Z * Z / trials)
    )
    # At 0 or all successes one end is the proportion itself, up to rounding.
    return min(max(centre - half, 0.0), p), max(min(centre + half, 1.0), p)


def rate(hits: int, trials: int) -> str:
    low, high = wilson(hits, trials)
    return f"{hits / trials:.3f} ({low:.3f}-{high:.3f})"


def run_tests(
    method: str,
    spec: SprtSpec,
    plain: np.ndarray,
    adjusted: np.ndarray,
    weights: np.ndarray,
    tests: int,
    cap: int,
    seed: int,
) -> Simulation:
    """`tests` tests of one method, seeded."""
    rng = np.random.default_rng(seed)
    if method == "pentanomial":
        return simulate(spec, pentanomial_probabilities(plain, weights), tests, cap, rng)
    return simulate_adjusted(spec, adjusted, weights, tests, cap, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repetitions", type=int, default=600, help="tournaments played")
    parser.add_argument("--pairs", type=int, default=50, help="pairs per tournament")
    parser.add_argument("--tests", type=int, default=1000, help="SPRTs per method and truth")
    parser.add_argument("--delta", type=float, default=10.0, help="elo1 - elo0")
    parser.add_argument("--cap", type=int, default=100_000, help="pairs at most per test")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    before = load_average()

    exact = expected_score(*BOTS)
    elo = float(logistic_elo(exact))
    plain, adjusted = repetitions(args.repetitions, args.pairs)
    coverage = [
        rate(int(covered(scores, exact).sum()), args.repetitions) for scores in (plain, adjusted)
    ]

    plain, adjusted = plain.ravel(), adjusted.ravel()
    size = len(plain)
    offsets = [
        (scores.mean() - exact) / (scores.std(ddof=1) / math.sqrt(size))
        for scores in (plain, adjusted)
    ]
    weights = tilt(np.column_stack([plain, adjusted]), np.array([exact, exact]))
    divergence = float((weights * np.log(weights * size)).sum())
    centred = adjusted - exact
    variance = float(weights @ centred**2)
    skewness = float(weights @ centred**3) / variance**1.5
    # The control: normal scores of the weighted pool's mean and variance, so that what the
    # luck-adjusted test does on the pool and not on them is the scores' shape's doing.
    normal = np.random.default_rng(CONTROL).normal(0, 1, CONTROL)
    normal = exact + (normal - normal.mean()) / normal.std() * math.sqrt(variance)
    uniform = np.full(CONTROL, 1 / CONTROL)

    rows, ratios = [], []
    cases = (
        ("elo0", SprtSpec(elo, elo + args.delta, ALPHA, BETA)),
        ("elo1", SprtSpec(elo - args.delta, elo, ALPHA, BETA)),
    )
    for seed, (truth, spec) in enumerate(cases):
        games = {}
        methods = (
            ("pentanomial", "pentanomial", adjusted, weights),
            ("luck-adjusted", "luck-adjusted", adjusted, weights),
            ("control: normal scores", "luck-adjusted", normal, uniform),
        )
        for number, (method, kind, scores, chances) in enumerate(methods):
            sim = run_tests(
                kind, spec, plain, scores, chances, args.tests, args.cap, 3 * seed + number
            )
            accepted = int((sim.decisions == 1).sum())
            decided = int((sim.decisions >= 0).sum())
            games[method] = 2 * sim.pairs.mean()
            share = accepted / args.tests
            if truth == "elo0":
                bound, held = f"≤ {ALPHA + SLACK:.2f}", share <= ALPHA + SLACK
            else:
                bound, held = f"≥ {1 - BETA - SLACK:.2f}", share >= 1 - BETA - SLACK
            acceptance = f"H1 {bound}: {'met' if held else '**missed**'}"
            rows.append(
                [
                    f"at {truth} ({spec.elo0:+.1f}, {spec.elo1:+.1f})",
                    method,
                    rate(accepted, args.tests),
                    acceptance,
                    f"{2 * sim.pairs.mean():,.0f}",
                    f"{2 * statistics.median(sim.pairs.tolist()):,.0f}",
                    f"{2 * np.percentile(sim.pairs, 90):,.0f}",
                    f"{decided:,}/{args.tests:,}",
                ]
            )
        ratios.append(games["pentanomial"] / games["luck-adjusted"])

    met = "met" if min(ratios) >= TARGET_RATIO else "**missed**"
    text = (
        f"Machine: {machine()}; load average {before} before the run, {load_average()} after."
        f" Greedy against thax-perfect; the exact score {exact:.7f} (logistic Elo {elo:+.2f})"
        f" by policy evaluation. {args.repetitions:,} tournaments of {args.pairs} seat-swapped"
        f" pairs, seeds `{SEED}-0` onwards, one worker. The figures are statistics of these"
        " games and of seeded simulations, not timings.\n\n"
        f"Coverage: the tournaments whose 95% interval of greedy's mean score per game (mean"
        f" ± 1.96 sd / √{args.pairs} over its pair scores) holds the exact score, with a"
        f" Wilson 95% interval: plain {coverage[0]}, luck-adjusted {coverage[1]}.\n\n"
        f"The pool: those {size:,} pairs. Its unweighted means are off the exact score by"
        f" {offsets[0]:+.2f} standard errors (plain) and {offsets[1]:+.2f} (adjusted); the"
        " tilted weights that make both exact are"
        f" {divergence:.5f} nats from uniform (Kullback-Leibler); under them the adjusted"
        f" scores' skewness is {skewness:+.2f}. SPRTs, alpha = beta ="
        f" {ALPHA:g}, elo1 - elo0 ="
        f" {args.delta:g}, {args.tests:,} tests per row, pairs drawn i.i.d. from the weighted"
        f" pool, the LLR looked at after every pair, cap {args.cap:,} pairs; seeded, so every"
        " run on these games gives these figures. The control runs the luck-adjusted test on"
        f" {CONTROL:,} normal scores of the weighted pool's adjusted mean and variance instead."
        " H1 accepted with a Wilson 95% interval;"
        " games are two per pair:\n\n"
        + table(
            [
                "truth (elo0, elo1)",
                "test",
                "H1 accepted",
                "acceptance",
                "mean games",
                "median games",
                "90th percentile",
                "decided",
            ],
            rows,
        )
        + "\n\nMean games, pentanomial over luck-adjusted: "
        + ", ".join(
            f"{ratio:.1f}x at {truth}" for ratio, (truth, _) in zip(ratios, cases, strict=True)
        )
        + f" (target {TARGET_RATIO:g}x: {met})."
    )
    report(
        "luck-sprt",
        "Luck-adjusted SPRT: error rates and games to a decision",
        ".venv/bin/python benchmarks/luck_sprt.py --write",
        text,
        args.write,
    )


if __name__ == "__main__":
    main()
