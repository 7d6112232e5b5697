"""The bootstrap at scale: units alike drawn together, replicates refitted in blocks."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.ratings.fit import (
    FitGames,
    _Cells,
    _cells,
    _constraints,
    _hessian,
    _solve,
    _solve_many,
    _unit_kinds,
    pools_of,
)
from referee.ratings.pentanomial import count_pairs


@st.composite
def tables(draw: st.DrawFn) -> FitGames:
    """Games of 2 to 5 bots, some in colour-swapped pairs (cluster ids), every bot playing."""
    n = draw(st.integers(2, 5))
    count = draw(st.integers(n, 40))
    first, second, half, cluster = [], [], [], []
    for number in range(count):
        a = number % n  # every bot plays
        b = (a + draw(st.integers(1, n - 1))) % n
        first.append(a)
        second.append(b)
        half.append(draw(st.integers(0, 2)))
        cluster.append(draw(st.one_of(st.just(-1), st.integers(0, count // 2))))
    return FitGames.of(n, first, second, half, cluster)


@settings(max_examples=60, deadline=None)
@given(tables())
def test_kinds_hold_every_unit_once(games):
    """Protects the pair table: expanding each kind of unit by its number of units gives back
    the games, counted by (first mover, second mover, score), and the units, counted."""
    kinds, multiplicity = _unit_kinds(games)
    expanded: Counter[tuple[int, int, int]] = Counter()
    for kind, first, second, half in zip(
        kinds.unit.tolist(),
        kinds.first.tolist(),
        kinds.second.tolist(),
        kinds.half.tolist(),
        strict=True,
    ):
        expanded[first, second, half] += int(multiplicity[kind])
    played = Counter(
        zip(games.first.tolist(), games.second.tolist(), games.half.tolist(), strict=True)
    )
    assert expanded == played
    units = len(set(games.cluster[games.cluster >= 0].tolist())) + int((games.cluster < 0).sum())
    assert int(multiplicity.sum()) == units


@settings(max_examples=40, deadline=None)
@given(tables(), st.integers(0, 2**32 - 1), st.booleans(), st.sampled_from([None, 3.0]))
def test_replicates_refitted_together_equal_each_fitted_alone(games, seed, fit_advantage, apart):
    """Protects `_solve_many`: replicates refitted in one block by steps with the full
    games' information reach the maximum of each replicate's own likelihood, as Newton's
    method on that replicate alone finds it; also with bots 0 and 1 anchored `apart`
    (logistic units: 3 is 521 Elo), the start then far from 0."""
    n = games.n
    counts = count_pairs(n, games.first, games.second, games.half, None)
    pools = pools_of(n, counts.pairs)
    anchors = {} if apart is None else {0: 0.0, 1: apart}
    constraints = _constraints(pools, anchors, fit_advantage)
    full = _cells(games, counts, 1.0)
    start = np.zeros(n + 1)
    start[1] = apart or 0.0
    start = _solve(full, n, start, constraints)
    free = np.flatnonzero(constraints.free)
    _, information = _hessian(start[:n], start[n], full)
    inverse = np.linalg.inv(information[np.ix_(free, free)] + constraints.projector)
    rng = np.random.default_rng(seed)
    samples = 6
    weights = rng.poisson(1.0, size=(samples, len(games.first))).astype(np.float64)
    replicates = [_cells(games, counts, 1.0, weight) for weight in weights]
    # One table of cells for all replicates: every (first, second) of the games, then the
    # prior's cells; each replicate's counts put in the same places.
    keys = np.unique(games.first * n + games.second)
    played = np.zeros((samples, len(keys)))
    scored = np.zeros((samples, len(keys)))
    for row, weight in enumerate(weights):
        place = np.searchsorted(keys, games.first * n + games.second)
        np.add.at(played[row], place, weight)
        np.add.at(scored[row], place, weight * games.half / 2)
    prior = full.first.size - np.count_nonzero(np.bincount(games.first * n + games.second))
    table = _Cells(
        np.concatenate([keys // n, full.first[-prior:]]),
        np.concatenate([keys % n, full.second[-prior:]]),
        np.concatenate([np.zeros(len(keys)), full.games[-prior:]]),
        np.concatenate([np.zeros(len(keys)), full.score[-prior:]]),
    )
    together = _solve_many(table, played, scored, n, start, constraints, free, inverse)
    for row, cells in enumerate(replicates):
        alone = _solve(cells, n, start, constraints)
        # the same up to the gauge: compare differences to bot 0, and the advantage
        centred = together[row, :n] - together[row, 0]
        assert np.allclose(centred, alone[:n] - alone[0], atol=1e-7), (together[row], alone)
        assert abs(together[row, n] - alone[n]) < 1e-7
