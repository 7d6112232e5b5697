"""The joint rating fit: Bradley-Terry by maximum likelihood, with a first-move advantage,
intervals and LOS.

The model: in a game where bot i moves first against bot j, i's expected score is
1 / (1 + 10^(-(r_i - r_j + a) / 400)), `a` the first-move (seat) advantage of the table; a
draw counts as half a win and half a loss (as in Ordo). All games are fitted at once, so the
order of the games does not matter. Newton's method works on the counts of each (first
mover, second mover) cell, never on single games, so a million games cost little more than
a hundred once counted; only the robust intervals go over the games once more.

To keep every rating finite (a bot that won every game has no maximum-likelihood rating) a
weak prior is added: `prior` virtual drawn games per bot, spread over the pairs of bots that
met (`prior_weights`), so that it weighs as much with 500 bots as with 5 and fades as games
grow. Which ratings then rest on the prior rather than on the games is found from the
results themselves (`bounds`). docs/ratings.md explains the choices.

Luck-adjusted ratings fit each game's luck-adjusted result, a float that may leave [0, 1],
by the same equations: sum(score - expected) = 0 is the estimating equation of the
quasi-likelihood y*d - log(1 + e^d), concave in d for any y, so Newton's method holds as it
is. Only the robust intervals then apply: the games' spread, the colour-swapped (duplicate
dice) pairs as units, without the floor of the win-loss model's variance, and no bounds
(`fit_ratings`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from referee.ratings.pentanomial import PairCounts

ELO_PER_UNIT = 400 / math.log(10)
"""Elo points per unit of the logistic scale the fit works in."""
Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

Interval = Literal["robust", "information", "bootstrap"]
Bound = Literal["", "lower", "upper", "both"]

_MAX_ITERATIONS = 100
_STEP_TOLERANCE = 1e-10
_HALVINGS = 50
_TINY = 1e-9
"""Elo differences below this are rounding error."""


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
    advantage: float
    """The first-move advantage in Elo (fitted, or as given)."""
    advantage_low: float
    advantage_high: float
    """Its 95% interval (a single point when given, not fitted)."""


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


@dataclass(frozen=True)
class FitGames:
    """The games of a table as the fit needs them, one entry per game.

    `first` and `second` are the bots (0..n-1) that moved first and second, `half` the first
    mover's score in half points (2 win, 1 draw, 0 loss), `cluster` a number per game naming
    its colour-swapped pair (-1 for a game alone): the two games of a pair are not
    independent, and the robust intervals and the bootstrap treat a pair as one unit.
    `adjusted`, when given, is the first mover's luck-adjusted result of each game, a float
    that may leave [0, 1]: the fit then scores it instead of `half` (docs/ratings.md).
    """

    n: int
    first: np.ndarray
    second: np.ndarray
    half: np.ndarray
    cluster: np.ndarray
    adjusted: np.ndarray | None = None

    @staticmethod
    def of(
        n: int,
        first: object,
        second: object,
        half: object,
        cluster: object = None,
        adjusted: object = None,
    ) -> FitGames:
        first_ = np.asarray(first, dtype=np.int64)
        cluster_ = np.full(len(first_), -1) if cluster is None else np.asarray(cluster)
        return FitGames(
            n,
            first_,
            np.asarray(second, dtype=np.int64),
            np.asarray(half, dtype=np.int64),
            cluster_.astype(np.int64),
            None if adjusted is None else np.asarray(adjusted, dtype=np.float64),
        )

    @property
    def score(self) -> np.ndarray:
        """The first mover's score of each game as the fit counts it: its luck-adjusted
        result, or its result (1, 0.5, 0)."""
        return self.half / 2 if self.adjusted is None else self.adjusted


def prior_weights(counts: PairCounts, prior: float) -> np.ndarray:
    """Virtual drawn games for each pair of bots that met: 2 * prior / (d_i + d_j), d a
    bot's number of opponents, so that each bot gets about `prior` virtual games in all."""
    degree = np.bincount(counts.pairs.ravel(), minlength=counts.n).astype(np.float64)
    i, j = counts.pairs[:, 0], counts.pairs[:, 1]
    return 2.0 * prior / np.maximum(degree[i] + degree[j], 1.0)


@dataclass(frozen=True)
class _Cells:
    """Games counted by (first mover, second mover), prior included: `games` and the first
    mover's `score` per cell."""

    first: np.ndarray
    second: np.ndarray
    games: np.ndarray
    score: np.ndarray


def _cells(
    games: FitGames, counts: PairCounts, prior: float, weight: np.ndarray | None = None
) -> _Cells:
    n = games.n
    key = games.first * n + games.second
    w = np.ones(len(key)) if weight is None else weight
    played = np.bincount(key, weights=w, minlength=n * n)
    scored = np.bincount(key, weights=w * games.score, minlength=n * n)
    met = np.flatnonzero(played)
    # The virtual draws of a pair, half with each bot moving first: they pull the
    # first-move advantage towards 0 as weakly as they pull the ratings together.
    half = prior_weights(counts, prior) / 2
    i, j = counts.pairs[:, 0], counts.pairs[:, 1]
    return _Cells(
        first=np.concatenate([met // n, i, j]),
        second=np.concatenate([met % n, j, i]),
        games=np.concatenate([played[met], half, half]),
        score=np.concatenate([scored[met], half / 2, half / 2]),
    )


def _expected(theta: np.ndarray, advantage: float, cells: _Cells) -> np.ndarray:
    difference = theta[cells.first] - theta[cells.second] + advantage
    # tanh form of the logistic function: no overflow for large differences
    return 0.5 * (1.0 + np.tanh(difference / 2))


def _log_likelihood(theta: np.ndarray, advantage: float, cells: _Cells) -> float:
    difference = theta[cells.first] - theta[cells.second] + advantage
    lost = cells.games - cells.score
    return -float(
        (cells.score * np.logaddexp(0.0, -difference) + lost * np.logaddexp(0.0, difference)).sum()
    )


def _design(n: int, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices and signs of each game's (or cell's) derivative vector over (theta_0..n-1,
    advantage): +1 at its first mover, -1 at its second mover, +1 at the advantage."""
    index = np.stack([first, second, np.full(len(first), n)], axis=1)
    sign = np.tile(np.array([1.0, -1.0, 1.0]), (len(first), 1))
    return index, sign


def _outer_sum(size: int, index: np.ndarray, sign: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Sum over rows of weight * v v^T, v the sparse vector (index, sign) of each row."""
    rows = (index[:, :, None] * size + index[:, None, :]).reshape(len(index), -1)
    values = (sign[:, :, None] * sign[:, None, :]).reshape(len(index), -1) * weight[:, None]
    return np.bincount(rows.ravel(), weights=values.ravel(), minlength=size * size).reshape(
        size, size
    )


def _hessian(theta: np.ndarray, advantage: float, cells: _Cells) -> tuple[np.ndarray, np.ndarray]:
    """The gradient and the Fisher information over (theta, advantage)."""
    n = len(theta)
    expected = _expected(theta, advantage, cells)
    residual = cells.score - cells.games * expected
    index, sign = _design(n, cells.first, cells.second)
    gradient = np.bincount(
        index.ravel(), weights=(sign * residual[:, None]).ravel(), minlength=n + 1
    )
    information = _outer_sum(n + 1, index, sign, cells.games * expected * (1 - expected))
    return gradient, information


@dataclass(frozen=True)
class _Constraints:
    """Which parameters are free, and the gauge of the pools without an anchor."""

    free: np.ndarray
    """Boolean over (theta, advantage)."""
    projector: np.ndarray
    """Added to the free block of the information: fixes each unanchored pool's mean."""


def _constraints(
    pools: np.ndarray, anchored: dict[int, float], fit_advantage: bool
) -> _Constraints:
    n = len(pools)
    free = np.ones(n + 1, dtype=bool)
    free[list(anchored)] = False
    free[n] = fit_advantage
    projector = np.zeros((n + 1, n + 1))
    anchored_pools = {int(pools[bot]) for bot in anchored}
    for pool in np.unique(pools):
        if int(pool) in anchored_pools:
            continue
        members = np.flatnonzero(pools == pool)
        projector[np.ix_(members, members)] = 1.0 / len(members)
    keep = np.flatnonzero(free)
    return _Constraints(free, projector[np.ix_(keep, keep)])


def _solve(
    cells: _Cells,
    n: int,
    start: np.ndarray,
    constraints: _Constraints,
) -> np.ndarray:
    """Maximise the likelihood over the free parameters from `start` (theta, advantage).

    Newton's method with step halving: the log-likelihood is concave, and strictly so in
    the free directions once the prior and the gauge are in."""
    params = start.copy()
    free = np.flatnonzero(constraints.free)
    likelihood = _log_likelihood(params[:n], params[n], cells)
    for _ in range(_MAX_ITERATIONS):
        gradient, information = _hessian(params[:n], params[n], cells)
        block = information[np.ix_(free, free)] + constraints.projector
        step = np.zeros(n + 1)
        try:
            step[free] = np.linalg.solve(block, gradient[free])
        except np.linalg.LinAlgError:
            # Far from the data (a profile end) some chances round to 0 or 1 and their
            # information to 0: the least-squares step still climbs.
            step[free] = np.linalg.lstsq(block, gradient[free], rcond=None)[0]
        scale = 1.0
        for _ in range(_HALVINGS):
            candidate = params + scale * step
            new = _log_likelihood(candidate[:n], candidate[n], cells)
            if new >= likelihood - 1e-12 * max(1.0, abs(likelihood)):
                break
            scale /= 2
        params, likelihood = candidate, new
        if np.abs(scale * step).max() < _STEP_TOLERANCE:
            break
    return params


def _centre(
    params: np.ndarray, pools: np.ndarray, anchored: dict[int, float], rating: float
) -> np.ndarray:
    """Elo ratings: each pool without an anchor averages `rating`; anchored pools as fitted."""
    n = len(pools)
    ratings = ELO_PER_UNIT * params[:n]
    for bot, value in anchored.items():
        ratings[bot] = value  # exactly, not through the logistic scale and back
    anchored_pools = {int(pools[bot]) for bot in anchored}
    for pool in np.unique(pools):
        if int(pool) not in anchored_pools:
            members = pools == pool
            ratings[members] += rating - ratings[members].mean()
    return ratings


def _gauge(pools: np.ndarray, anchored: dict[int, float]) -> np.ndarray:
    """The linear map from fitted strengths to ratings before the offset: centred in each
    pool without an anchor, as fitted where anchors fix the level."""
    n = len(pools)
    gauge = np.eye(n)
    anchored_pools = {int(pools[bot]) for bot in anchored}
    for pool in np.unique(pools):
        if int(pool) not in anchored_pools:
            members = np.flatnonzero(pools == pool)
            gauge[np.ix_(members, members)] -= 1.0 / len(members)
    return gauge


def _clustered_meat(games: FitGames, theta: np.ndarray, advantage: float) -> np.ndarray:
    """Sum over independent units (a colour-swapped pair, or a game alone) of g g^T, g the
    unit's score vector over (theta, advantage): the middle of the sandwich.

    A game's score vector is its residual times the vector of its seats (`_design`), so the
    sums are taken by seats first (a million games sit on a hundred seatings) and the outer
    products made once per seating, or per two seatings for the cross terms of a pair."""
    n = games.n
    cells = _Cells(games.first, games.second, np.ones(len(games.first)), games.score)
    residual = cells.score - _expected(theta, advantage, cells)
    seatings, seating = np.unique(games.first * n + games.second, return_inverse=True)
    index, sign = _design(n, seatings // n, seatings % n)
    squares = np.bincount(seating, weights=residual**2, minlength=len(seatings))
    meat = _outer_sum(n + 1, index, sign, squares)
    # The cross terms of the two games of each pair, both ways.
    order = np.argsort(games.cluster, kind="stable")
    keyed = order[games.cluster[order] >= 0]
    same = np.flatnonzero(games.cluster[keyed][1:] == games.cluster[keyed][:-1])
    a, b = keyed[same], keyed[same + 1]
    if len(a):
        both, which = np.unique(seating[a] * len(seatings) + seating[b], return_inverse=True)
        products = np.bincount(which, weights=residual[a] * residual[b], minlength=len(both))
        sa, sb = both // len(seatings), both % len(seatings)
        rows = (index[sa][:, :, None] * (n + 1) + index[sb][:, None, :]).reshape(len(both), -1)
        values = (sign[sa][:, :, None] * sign[sb][:, None, :]).reshape(len(both), -1)
        values = values * products[:, None]
        cross = np.bincount(rows.ravel(), weights=values.ravel(), minlength=(n + 1) ** 2)
        cross = cross.reshape(n + 1, n + 1)
        meat += cross + cross.T
    return meat


def fit_ratings(
    games: FitGames,
    counts: PairCounts,
    *,
    rating: float = 0.0,
    anchors: dict[int, float] | None = None,
    advantage: float | None = None,
    prior: float = 1.0,
    interval: Interval = "robust",
    samples: int = 1000,
    seed: int = 0,
) -> Fit:
    """Fit the ratings of a table's bots, and the first-move advantage.

    The ratings of each pool average `rating`, unless the pool holds bots of `anchors`
    (bot number -> Elo), whose ratings are then fixed. `advantage` fixes the first-move
    advantage (Elo) instead of fitting it. `prior` is the number of virtual drawn games per
    bot (`prior_weights`). The 95% intervals come from robust standard errors (`robust`:
    the sandwich of the information and the spread of the scores, colour-swapped pairs
    taken as units), from the information alone (`information`), or from `samples`
    bootstrap replicates that redraw whole pairs (`bootstrap`, seeded with `seed`).

    Luck-adjusted games (`FitGames.adjusted`) take the robust intervals only, without the
    floor of the model's variance and without `bounds` (the module's note): ValueError for
    another interval.
    """
    adjusted = games.adjusted is not None
    if adjusted and interval != "robust":
        raise ValueError("luck-adjusted scores take robust intervals only")
    n = counts.n
    anchored = dict(anchors or {})
    pools = pools_of(n, counts.pairs)
    constraints = _constraints(pools, anchored, advantage is None)
    cells = _cells(games, counts, prior)
    start = np.zeros(n + 1)
    for bot, value in anchored.items():
        start[bot] = value / ELO_PER_UNIT
    # The free bots of an anchored pool start at its anchors' mean: started at 0 beside an
    # anchor at 100,000 Elo, every chance would round to 0 or 1 and Newton could not climb.
    for pool in {int(pools[bot]) for bot in anchored}:
        members = [bot for bot in anchored if pools[bot] == pool]
        free_members = (pools == pool) & constraints.free[:n]
        start[:n][free_members] = np.mean([start[bot] for bot in members])
    start[n] = 0.0 if advantage is None else advantage / ELO_PER_UNIT
    params = _solve(cells, n, start, constraints)
    ratings = _centre(params, pools, anchored, rating)
    gauge = _gauge(pools, anchored)
    fitted_advantage = ELO_PER_UNIT * params[n]
    free = np.flatnonzero(constraints.free)
    if interval == "bootstrap":
        replicates = _bootstrap(
            games, counts, prior, params, constraints, pools, anchored, rating, samples, seed
        )
        low, high = np.percentile(replicates[:, :n], [2.5, 97.5], axis=0)
        covariance = np.atleast_2d(np.cov(replicates[:, :n], rowvar=False))
        adv_low, adv_high = np.percentile(replicates[:, n], [2.5, 97.5])
    else:
        _, information = _hessian(params[:n], params[n], cells)
        inverse = np.linalg.inv(information[np.ix_(free, free)] + constraints.projector)
        covariance, advantage_variance = _rating_covariance(inverse, free, gauge, n)
        if interval == "robust":
            meat = _clustered_meat(games, params[:n], params[n])[np.ix_(free, free)]
            robust, robust_advantage = _rating_covariance(inverse @ meat @ inverse, free, gauge, n)
            if adjusted:
                # The model's variance is that of wins and losses, which the luck taken out
                # makes much larger than the adjusted scores' own: the sandwich alone.
                covariance, advantage_variance = robust, robust_advantage
            else:
                # Never below half the model's variance: where the fitted chances are near 0
                # or 1 every residual is near 0 and the sandwich alone would claim certainty;
                # half, because two games of a pair that always split still leave the pair's
                # count.
                floor = np.diag(covariance) / 2
                covariance = robust + np.diag(np.clip(floor - np.diag(robust), 0.0, None))
                advantage_variance = max(robust_advantage, advantage_variance / 2)
        error = Z95 * np.sqrt(np.clip(np.diag(covariance), 0.0, None))
        low, high = ratings - error, ratings + error
        adv_error = Z95 * math.sqrt(max(advantage_variance, 0.0))
        adv_low, adv_high = fitted_advantage - adv_error, fitted_advantage + adv_error
    # Where the games set no limit, neither does the interval. Adjusted scores are never
    # all of one kind (a win's adjusted result is rarely 1), so no count of wins and
    # losses says where they set none.
    found: list[Bound] = [""] * n if adjusted else bounds(counts, pools, set(anchored))
    unbounded_above = np.array([bound in ("lower", "both") for bound in found], dtype=bool)
    unbounded_below = np.array([bound in ("upper", "both") for bound in found], dtype=bool)
    high = np.where(unbounded_above, np.inf, high)
    low = np.where(unbounded_below, -np.inf, low)
    if interval != "bootstrap" and n <= _PROFILE_BOTS:
        # The finite end of a bound from the likelihood itself: near a perfect score the
        # information (a Wald interval) says little, and the end would fall anywhere.
        # Only where anchors set the level: measured from a pool's average, a bound's group
        # moves with the bot, and the profile would not change.
        problem = _Profile(cells, n, params, pools, anchored, rating, advantage is None)
        anchored_pools = {int(pools[bot]) for bot in anchored}
        for bot, bound in enumerate(found):
            if int(pools[bot]) not in anchored_pools:
                continue
            if bound == "lower":
                low[bot] = problem.end(bot, -1.0)
            elif bound == "upper":
                high[bot] = problem.end(bot, 1.0)
    return Fit(
        ratings, low, high, covariance, pools, found,
        float(fitted_advantage), float(adv_low), float(adv_high),
    )  # fmt: skip


_PROFILE_BOTS = 100
"""Up to this many bots, the finite end of a bound comes from the profile likelihood."""
_PROFILE_DROP = 1.920729410347062
"""Half the 95% quantile of chi-square with one degree of freedom."""


@dataclass(frozen=True)
class _Profile:
    """The profile likelihood of one bot's rating: the bot fixed, everything else refitted."""

    cells: _Cells
    n: int
    params: np.ndarray
    pools: np.ndarray
    anchored: dict[int, float]
    rating: float
    fit_advantage: bool

    def _at(self, bot: int, value: float) -> tuple[float, float]:
        """The log-likelihood with the bot's strength fixed at `value`, and its rating then
        (on the table's scale: from its pool's average or anchors)."""
        anchored = {**self.anchored, bot: 0.0}
        start = self.params.copy()
        start[bot] = value
        constraints = _constraints(self.pools, anchored, self.fit_advantage)
        fitted = _solve(self.cells, self.n, start, constraints)
        likelihood = _log_likelihood(fitted[: self.n], fitted[self.n], self.cells)
        return likelihood, _centre(fitted, self.pools, self.anchored, self.rating)[bot]

    def end(self, bot: int, direction: float) -> float:
        """The end of the 95% profile-likelihood interval on `direction`'s side (-1 below)."""
        best = _log_likelihood(self.params[: self.n], self.params[self.n], self.cells)
        target = best - _PROFILE_DROP
        inside, step = float(self.params[bot]), 1.0
        outside = inside + direction * step
        while self._at(bot, outside)[0] > target and step < 16:
            inside, step = outside, step * 2
            outside = inside + direction * step
        for _ in range(40):
            middle = (inside + outside) / 2
            if self._at(bot, middle)[0] > target:
                inside = middle
            else:
                outside = middle
        return float(self._at(bot, (inside + outside) / 2)[1])


def _rating_covariance(
    inverse: np.ndarray, free: np.ndarray, gauge: np.ndarray, n: int
) -> tuple[np.ndarray, float]:
    """The (n, n) covariance of the ratings and the variance of the advantage, in Elo^2,
    from a covariance over the free parameters."""
    full = np.zeros((n + 1, n + 1))
    full[np.ix_(free, free)] = inverse
    return ELO_PER_UNIT**2 * gauge @ full[:n, :n] @ gauge.T, ELO_PER_UNIT**2 * full[n, n]


def _bootstrap(
    games: FitGames,
    counts: PairCounts,
    prior: float,
    params: np.ndarray,
    constraints: _Constraints,
    pools: np.ndarray,
    anchored: dict[int, float],
    rating: float,
    samples: int,
    seed: int,
) -> np.ndarray:
    """(samples, n + 1) ratings and advantage (Elo) refitted on redrawn games, seeded.

    Each unit (a colour-swapped pair, or a game alone) is drawn a Poisson(1) number of
    times (the Poisson bootstrap: the same as drawing units with replacement, up to the
    total varying a little), so the pairs keep their two games together. Units alike (the
    same bots on the same seats with the same results) are drawn together, as the pair
    table: a sum of m Poisson(1) draws is one Poisson(m) draw, so a million games of ten
    bots cost a few hundred draws a replicate, not half a million.
    """
    rng = np.random.default_rng(seed)
    n = games.n
    kinds, multiplicity = _unit_kinds(games)
    keys, cell = np.unique(kinds.first * n + kinds.second, return_inverse=True)
    first, second = keys // n, keys % n
    half = prior_weights(counts, prior) / 2
    i, j = counts.pairs[:, 0], counts.pairs[:, 1]
    table = _Cells(
        np.concatenate([first, i, j]),
        np.concatenate([second, j, i]),
        np.concatenate([np.zeros(len(keys)), half, half]),
        np.concatenate([np.zeros(len(keys)), half / 2, half / 2]),
    )
    _, information = _hessian(params[:n], params[n], _cells(games, counts, prior))
    free = np.flatnonzero(constraints.free)
    inverse = np.linalg.inv(information[np.ix_(free, free)] + constraints.projector)
    by_cell = np.argsort(cell, kind="stable")
    kind_of, half_of = kinds.unit[by_cell], kinds.half[by_cell]
    cell_starts = np.flatnonzero(np.r_[True, np.diff(cell[by_cell]) != 0])
    replicates = np.empty((samples, n + 1))
    block = max(1, _BLOCK // max(len(kind_of), len(table.first), 1))
    for start in range(0, samples, block):
        size = min(block, samples - start)
        # np.take, not drawn[:, kind_of]: that comes out column by column in memory, and
        # every pass over it (the sums in runs above all) would be several times slower.
        drawn = np.take(rng.poisson(multiplicity, size=(size, len(multiplicity))), kind_of, axis=1)
        played = np.add.reduceat(drawn, cell_starts, axis=1).astype(np.float64)
        scored = np.add.reduceat(drawn * half_of, cell_starts, axis=1) / 2
        fitted = _solve_many(table, played, scored, n, params, constraints, free, inverse)
        for row, values in enumerate(fitted, start):
            replicates[row, :n] = _centre(values, pools, anchored, rating)
            replicates[row, n] = ELO_PER_UNIT * values[n]
    return replicates


_BLOCK = 4_000_000
"""Cells times replicates refitted at once: bounds the memory of the bootstrap."""
_FIXED_STEPS = 200
"""Steps with the full games' information before a replicate is solved on its own."""


@dataclass(frozen=True)
class _Kinds:
    """The games of one unit of each kind: `unit` its kind, and each game's first and
    second mover and first mover's score in half points."""

    unit: np.ndarray
    first: np.ndarray
    second: np.ndarray
    half: np.ndarray


def _unit_kinds(games: FitGames) -> tuple[_Kinds, np.ndarray]:
    """The kinds of units among the games (a unit: a colour-swapped pair, or a game alone;
    a kind: the same games, seats and results) and how many units are of each kind."""
    n = games.n
    single = games.cluster < 0
    unit = np.where(
        single, np.arange(len(single)) + games.cluster.max(initial=-1) + 1, games.cluster
    )
    _, unit = np.unique(unit, return_inverse=True)
    code = (games.first * n + games.second) * 3 + games.half
    order = np.lexsort((code, unit))
    unit, code = unit[order], code[order]
    starts = np.flatnonzero(np.r_[True, unit[1:] != unit[:-1]])
    place = np.arange(len(unit)) - np.repeat(starts, np.diff(np.r_[starts, len(unit)]))
    width = int(place.max(initial=0)) + 1
    signature = np.full((len(starts), width), -1, dtype=np.int64)
    signature[unit, place] = code
    kinds, multiplicity = np.unique(signature, axis=0, return_counts=True)
    held = kinds >= 0
    codes = kinds[held]
    return _Kinds(np.nonzero(held)[0], codes // 3 // n, codes // 3 % n, codes % 3), multiplicity


def _solve_many(
    table: _Cells,
    played: np.ndarray,
    scored: np.ndarray,
    n: int,
    start: np.ndarray,
    constraints: _Constraints,
    free: np.ndarray,
    inverse: np.ndarray,
) -> np.ndarray:
    """(samples, n + 1) the fits of several replicates at once: `played` and `scored` the
    games and first mover's score of each replicate in each cell of `table`, whose own
    counts (the prior's) are added.

    Newton steps with the information of all the games, the same for every replicate and
    inverted once: a replicate's own information differs little, so the steps still
    converge, fast. A replicate that has not after `_FIXED_STEPS` is solved on its own."""
    extra = len(table.first) - played.shape[1]
    samples = len(played)
    # The prior's cells added to the played cells of the same (first, second), sorted by
    # first mover: summing them in runs gives each bot's part of the gradient in order
    # (every bot moves first and second in some cell: the prior's go both ways).
    keys, cell = np.unique(table.first * n + table.second, return_inverse=True)
    order = np.argsort(cell, kind="stable")
    runs = np.flatnonzero(np.r_[True, np.diff(cell[order]) != 0])
    first, second = keys // n, keys % n
    cell_games, cell_score = (
        np.add.reduceat(
            np.take(
                np.hstack([counts, np.broadcast_to(prior[-extra:], (samples, extra))]),
                order,
                axis=1,
            ),
            runs,
            axis=1,
        )
        for counts, prior in ((played, table.games), (scored, table.score))
    )
    params = np.tile(start, (samples, 1))
    active = np.arange(samples)
    games, score = cell_games, cell_score  # of the active replicates
    by_second = np.argsort(second, kind="stable")
    first_starts = np.searchsorted(first, np.arange(n))
    second_starts = np.searchsorted(second[by_second], np.arange(n))
    # Each cell's chance from strengths exp(theta - start), one exponential a bot rather than
    # one a cell (the exponential was most of a step's time): 1 / (1 + strength_second *
    # odds / (strength_first * exp(advantage))), with the second mover's odds at the start
    # computed once. The strengths stay near 1, so none overflows; the odds of two anchors
    # set absurdly far apart may, and infinite odds still give a chance of exactly 0.
    with np.errstate(over="ignore"):
        odds = np.exp(start[second] - start[first])
    for _ in range(_FIXED_STEPS):
        if not len(active):
            break
        theta = params[active]
        strength = np.exp(theta[:, :n] - start[:n])
        ahead = strength * np.exp(theta[:, n : n + 1])
        against = np.take(strength, second, axis=1) * odds / np.take(ahead, first, axis=1)
        residual = score - games / (1.0 + against)
        gradient = np.empty((len(active), n + 1))
        gradient[:, :n] = np.add.reduceat(residual, first_starts, axis=1)
        gradient[:, :n] -= np.add.reduceat(
            np.take(residual, by_second, axis=1), second_starts, axis=1
        )
        gradient[:, n] = residual.sum(axis=1)
        step = gradient[:, free] @ inverse
        params[active[:, None], free] += step
        going = np.abs(step).max(axis=1, initial=0.0) >= _STEP_TOLERANCE
        if not going.all():
            active, games, score = active[going], games[going], score[going]
    for sample in active:  # rare: a replicate far from the games' fit
        cells = _Cells(first, second, cell_games[sample], cell_score[sample])
        params[sample] = _solve(cells, n, params[sample], constraints)
    return params


def bounds(counts: PairCounts, pools: np.ndarray, anchors: set[int] | None = None) -> list[Bound]:
    """Which ratings the games only bound, because a group of bots was never scored against.

    Bot i *reaches* j when a chain of bots, each scoring at least a draw against the next,
    leads from i to j: then j cannot be rated infinitely above i. Bots reaching each other
    form a group with a finite maximum-likelihood rating difference. Measured from a pool's
    average, a group that scored against outsiders but was never scored against by them
    would, without the prior, be rated infinitely high: its rating is a lower bound. A group
    that only lost to outsiders has an upper bound; one that did both (it beat some groups
    outright and lost outright to others) is marked "both". In a pool with `anchors` (bot
    numbers), which set the level: a bot is exact when it reaches an anchor and an anchor
    reaches it, has a lower bound when it only reaches one, an upper bound when it is only
    reached by one, and "both" when neither.
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
    anchor_list = sorted(anchors or ())
    for bot in range(n):
        here = [a for a in anchor_list if pools[a] == pools[bot]]
        if here:
            below, above = bool(reach[bot, here].any()), bool(reach[here, bot].any())
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
