"""The joint rating fit: Bradley-Terry by maximum likelihood, with intervals and LOS.

The model: bot i scores against bot j with probability 1 / (1 + 10^((r_j - r_i) / 400)),
a draw counting as half a win and half a loss (as in Ordo). All games are fitted at once,
so the order of the games does not matter. The fit works on the pair counts, never on single
games, so a million games cost no more than a hundred once counted.

To keep every rating finite (a bot that won every game has no maximum-likelihood rating) a
weak prior is added, as BayesElo does: `prior` virtual drawn games between every two bots
that met. Which ratings then rest on the prior rather than on the games is found from the
results themselves (`bounds`). docs/ratings.md explains the choices.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from referee.ratings.pentanomial import PENTANOMIAL, TRINOMIAL, PairCounts, score_of

ELO_PER_UNIT = 400 / math.log(10)
"""Elo points per unit of the logistic scale the fit works in."""
Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

Interval = Literal["bootstrap", "information"]
Bound = Literal["", "lower", "upper", "both"]

_MAX_ITERATIONS = 100
_STEP_TOLERANCE = 1e-10
_HALVINGS = 50
_TINY = 1e-9
"""Elo differences below this are rounding error."""
_BATCH_CELLS = 4_000_000
"""Replicates are fitted in batches of at most this many n x n cells, to bound memory."""


@dataclass(frozen=True)
class Fit:
    """Ratings of n bots with their 95% intervals, on the Elo scale."""

    ratings: np.ndarray
    low: np.ndarray
    """Lower ends of the intervals; -inf where the games set no lower limit (`bounds`)."""
    high: np.ndarray
    """Upper ends of the intervals; +inf where the games set no upper limit."""
    covariance: np.ndarray
    """(n, n) covariance of the ratings, from the replicates or the information."""
    pools: np.ndarray
    """Pool number of each bot: bots of different pools never met, even through others."""
    bounds: list[Bound]


def pools_of(n: int, pairs: np.ndarray) -> np.ndarray:
    """The pool of each bot (numbered 0.. in order of their lowest bot): the connected parts
    of the graph of who played whom."""
    parent = list(range(n))

    def root(bot: int) -> int:
        while parent[bot] != bot:
            parent[bot] = parent[parent[bot]]
            bot = parent[bot]
        return bot

    for i, j in pairs.tolist():
        a, b = root(i), root(j)
        parent[max(a, b)] = min(a, b)
    return np.unique([root(bot) for bot in range(n)], return_inverse=True)[1].astype(np.int64)


def _gauge(pools: np.ndarray, anchor: int | None) -> np.ndarray:
    """The matrix that turns fitted strengths into anchored ratings (before the offset).

    In each pool the ratings are measured from the pool's average, or from the anchor bot
    when it is in the pool; only differences within a pool are known from the games.
    """
    n = len(pools)
    gauge = np.eye(n)
    for pool in np.unique(pools):
        members = np.flatnonzero(pools == pool)
        if anchor is not None and pools[anchor] == pool:
            gauge[np.ix_(members, [anchor])] -= 1.0
        else:
            gauge[np.ix_(members, members)] -= 1.0 / len(members)
    return gauge


def _pool_projector(pools: np.ndarray) -> np.ndarray:
    """The sum over pools of u u^T / |pool|, u the pool's indicator vector.

    Added to the information (a Laplacian, singular along each pool's constant vector) it
    makes the Newton system solvable without moving any pool's average.
    """
    same = pools[:, None] == pools[None, :]
    sizes = np.bincount(pools)[pools]
    return same / sizes[:, None]


def _win_probability(difference: np.ndarray) -> np.ndarray:
    # tanh form of the logistic function: no overflow for large differences
    return 0.5 * (1.0 + np.tanh(difference / 2))


def _log_likelihood(theta: np.ndarray, score: np.ndarray) -> np.ndarray:
    difference = theta[:, :, None] - theta[:, None, :]
    return -(score * np.logaddexp(0.0, -difference)).sum(axis=(1, 2))


def _information(theta: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Win probabilities and the Fisher information (a weighted graph Laplacian) per replicate."""
    p = _win_probability(theta[:, :, None] - theta[:, None, :])
    weight = games * p * (1.0 - p)
    laplacian = -weight
    diagonal = np.arange(theta.shape[1])
    laplacian[:, diagonal, diagonal] += weight.sum(axis=2)
    return p, laplacian


def solve_strengths(score: np.ndarray, games: np.ndarray, pools: np.ndarray) -> np.ndarray:
    """Maximise the likelihood for a batch of score matrices sharing one games matrix.

    `score` is (B, n, n) with score[b, i, j] bot i's score against j, `games` is (n, n).
    Newton's method with step halving: the log-likelihood is concave, and strictly so within
    each pool once the prior is in, so it converges in a handful of steps. Returns (B, n)
    strengths on the logistic scale, summing to zero in each pool.
    """
    batch, n = score.shape[0], score.shape[1]
    projector = _pool_projector(pools)
    theta = np.zeros((batch, n))
    likelihood = _log_likelihood(theta, score)
    for _ in range(_MAX_ITERATIONS):
        p, laplacian = _information(theta, games)
        gradient = (score - games * p).sum(axis=2)
        step = np.linalg.solve(laplacian + projector, gradient[:, :, None])[:, :, 0]
        scale = np.ones(batch)
        for _ in range(_HALVINGS):
            candidate = theta + scale[:, None] * step
            new = _log_likelihood(candidate, score)
            worse = new < likelihood - 1e-12 * np.maximum(1.0, np.abs(likelihood))
            if not worse.any():
                break
            scale[worse] /= 2
        theta, likelihood = candidate, new
        if np.abs(scale[:, None] * step).max() < _STEP_TOLERANCE:
            break
    return theta


def _with_prior(
    counts: PairCounts, pair_score: np.ndarray, prior: float
) -> tuple[np.ndarray, np.ndarray]:
    """(n, n) games and (B, n, n) score matrices of a batch of pair scores, prior included."""
    n = counts.n
    i, j = counts.pairs[:, 0], counts.pairs[:, 1]
    pair_games = counts.games + prior
    games = np.zeros((n, n))
    games[i, j] = games[j, i] = pair_games
    score = np.zeros((pair_score.shape[0], n, n))
    score[:, i, j] = pair_score + prior / 2
    score[:, j, i] = pair_games - score[:, i, j]
    return games, score


def bounds(counts: PairCounts, pools: np.ndarray, anchor: int | None = None) -> list[Bound]:
    """Which ratings the games only bound, because a group of bots was never scored against.

    Bot i *reaches* j when a chain of bots, each scoring at least a draw against the next,
    leads from i to j: then j cannot be rated infinitely above i. Bots reaching each other
    form a group with a finite maximum-likelihood rating difference. Measured from a pool's
    average, a group that scored against outsiders but was never scored against by them
    would, without the prior, be rated infinitely high: its rating is a lower bound. A group
    that only lost to outsiders has an upper bound; one that did both (it beat some groups
    outright and lost outright to others) is marked "both". Measured from an `anchor`, a bot
    is bounded below when it reaches the anchor and above when the anchor reaches it.
    """
    n = counts.n
    i, j = counts.pairs[:, 0], counts.pairs[:, 1]
    scored = np.zeros((n, n), dtype=bool)
    scored[i, j] = counts.score > 0
    scored[j, i] = counts.score < counts.games
    reach = scored | np.eye(n, dtype=bool)
    # Transitive closure by repeated squaring: log2(n) matrix products (in floating point,
    # where numpy multiplies fast; the counts of paths only need to be told from zero).
    for _ in range(max(1, math.ceil(math.log2(max(n, 2))))):
        step = reach.astype(np.float64)
        reach = (step @ step) > 0
    group = reach & reach.T
    result: list[Bound] = []
    for bot in range(n):
        if anchor is not None and pools[bot] == pools[anchor]:
            below, above = reach[bot, anchor], reach[anchor, bot]
            result.append(
                "" if below and above else "lower" if below else "upper" if above else "both"
            )
            continue
        inside = group[bot]
        outside = ~inside & (pools == pools[bot])
        scored_out = scored[np.ix_(inside, outside)].any()
        scored_in = scored[np.ix_(outside, inside)].any()
        if scored_out and scored_in:
            result.append("both")
        elif scored_out:
            result.append("lower")
        elif scored_in:
            result.append("upper")
        else:
            result.append("")
    return result


def _bootstrap(
    counts: PairCounts,
    pools: np.ndarray,
    gauge: np.ndarray,
    prior: float,
    samples: int,
    seed: int,
    pairs: bool,
) -> np.ndarray:
    """(samples, n) anchored ratings refitted on resampled games, seeded.

    Each pair of bots keeps its number of games; its games are drawn again with replacement,
    as multinomial draws from its own outcome counts: complete colour-swapped pairs as units
    (pentanomial) and the other games alone (trinomial). With `pairs` False every game is
    drawn alone, as if the two games of a pair were independent.
    """
    rng = np.random.default_rng(seed)
    if pairs:
        trinomial, pentanomial = counts.singles, counts.pentanomial
    else:
        trinomial, pentanomial = counts.outcomes, np.zeros_like(counts.pentanomial)
    n = counts.n
    batch = max(1, _BATCH_CELLS // (n * n))
    ratings = np.empty((samples, n))
    for start in range(0, samples, batch):
        size = min(batch, samples - start)
        drawn_single = _resample(rng, trinomial, size, TRINOMIAL)
        drawn_pairs = _resample(rng, pentanomial, size, PENTANOMIAL)
        games, score = _with_prior(counts, score_of(drawn_single, drawn_pairs), prior)
        theta = solve_strengths(score, games, pools)
        ratings[start : start + size] = ELO_PER_UNIT * theta @ gauge.T
    return ratings


def _resample(rng: np.random.Generator, counts: np.ndarray, size: int, outcomes: int) -> np.ndarray:
    """(size, P, outcomes) multinomial redraws of each row of counts, keeping its total."""
    totals = counts.sum(axis=1)
    share = np.where(totals[:, None] > 0, counts / np.maximum(totals, 1)[:, None], 1 / outcomes)
    return rng.multinomial(totals, share, size=(size, len(totals)))


def fit_ratings(
    counts: PairCounts,
    *,
    rating: float = 0.0,
    anchor: int | None = None,
    prior: float = 1.0,
    interval: Interval = "bootstrap",
    samples: int = 1000,
    seed: int = 0,
    pairs: bool = True,
) -> Fit:
    """Fit the ratings of a table's bots from its pair counts.

    The ratings of each pool average `rating`, or the bot numbered `anchor` has `rating` (in
    its pool). `prior` is the number of virtual drawn games added to every pair that met.
    The 95% intervals come from `samples` bootstrap replicates (percentile intervals, seeded
    with `seed`, colour-swapped pairs resampled as units when `pairs`) or, with
    `interval="information"`, from the observed Fisher information (rating +- 1.96 s.e.).
    """
    n = counts.n
    pools = pools_of(n, counts.pairs)
    gauge = _gauge(pools, anchor)
    offset = np.full(n, float(rating))
    games, score = _with_prior(counts, counts.score[None, :], prior)
    theta = solve_strengths(score, games, pools)
    ratings = ELO_PER_UNIT * theta[0] @ gauge.T + offset
    if interval == "bootstrap":
        replicates = _bootstrap(counts, pools, gauge, prior, samples, seed, pairs) + offset
        low, high = np.percentile(replicates, [2.5, 97.5], axis=0)
        covariance = np.atleast_2d(np.cov(replicates, rowvar=False))
    else:
        _, laplacian = _information(theta, games)
        inverse = np.linalg.inv(laplacian[0] + _pool_projector(pools))
        covariance = ELO_PER_UNIT**2 * gauge @ inverse @ gauge.T
        error = Z95 * np.sqrt(np.clip(np.diag(covariance), 0.0, None))
        low, high = ratings - error, ratings + error
    # Where the games set no limit, neither does the interval: the replicates of a bot that
    # won every game won every game too, and would show a spread that is only the prior's.
    found = bounds(counts, pools, anchor)
    unbounded_above = np.array([bound in ("lower", "both") for bound in found], dtype=bool)
    unbounded_below = np.array([bound in ("upper", "both") for bound in found], dtype=bool)
    high = np.where(unbounded_above, np.inf, high)
    low = np.where(unbounded_below, -np.inf, low)
    return Fit(ratings, low, high, covariance, pools, found)


def los_matrix(fit: Fit) -> np.ndarray:
    """(n, n) likelihood of superiority: the probability that bot i is stronger than bot j.

    From the normal approximation of the rating difference with the fit's covariance, so it
    is smooth even where few bootstrap replicates disagree. NaN on the diagonal and between
    pools (bots never compared).
    """
    ratings, covariance = fit.ratings, fit.covariance
    variance = np.diag(covariance)
    spread = np.sqrt(np.clip(variance[:, None] + variance[None, :] - 2 * covariance, 0.0, None))
    difference = ratings[:, None] - ratings[None, :]
    # Differences and spreads at rounding-error size are zero: equal bots (a perfect cycle)
    # get 50%, not a coin flip of the last bits.
    difference = np.where(np.abs(difference) < _TINY, 0.0, difference)
    spread = np.where(spread < _TINY, 0.0, spread)
    with np.errstate(divide="ignore", invalid="ignore"):
        certain = np.where(difference == 0, 0.0, np.sign(difference) * np.inf)
        z = np.where(spread > 0, difference / spread, certain)
    los = np.vectorize(lambda x: 0.5 * math.erfc(-x / math.sqrt(2)), otypes=[float])(z)
    los[fit.pools[:, None] != fit.pools[None, :]] = np.nan
    np.fill_diagonal(los, np.nan)
    return los
