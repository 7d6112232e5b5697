"""Calibration of the fit by simulation, and a cross-check against a direct maximum
likelihood with scipy (issue 19): known ratings, results drawn from the model, a seed."""

from __future__ import annotations

import math

import numpy as np
import pytest

from referee.ratings.fit import FitGames, Interval, fit_ratings
from referee.ratings.pentanomial import count_pairs

ELO = 400 / math.log(10)


def simulate(bots: int, games: int, seed: int, advantage: float = 30.0):
    """True ratings from a normal with sd 200, games between random pairs with a random
    first mover, wins and losses drawn from the model (first mover's chance
    1 / (1 + 10^(-(r_first - r_second + advantage) / 400)))."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(0.0, 200.0, bots)
    first = rng.integers(0, bots, games)
    second = (first + rng.integers(1, bots, games)) % bots
    chance = 1 / (1 + 10 ** (-(truth[first] - truth[second] + advantage) / 400))
    half = np.where(rng.random(games) < chance, 2, 0)
    return truth - truth.mean(), first, second, half


def calibration(
    bots: int, games: int, seed: int, interval: Interval = "robust"
) -> tuple[float, float, bool]:
    """Slope of fitted on true ratings, share of 95% intervals holding the truth, and
    whether the advantage's interval holds its true value."""
    truth, first, second, half = simulate(bots, games, seed)
    counts = count_pairs(bots, first, second, half, None)
    fit = fit_ratings(FitGames.of(bots, first, second, half), counts, interval=interval)
    slope = float(np.polyfit(truth, fit.ratings, 1)[0])
    covered = float(np.mean((fit.low <= truth) & (truth <= fit.high)))
    return slope, covered, fit.advantage_low <= 30.0 <= fit.advantage_high


@pytest.mark.parametrize(("bots", "games"), [(10, 100_000), (100, 100_000)])
def test_calibration(bots, games):
    """Acceptance: the slope of fitted against true ratings is within 0.95-1.05 and the 95%
    intervals hold the truth for 90-98% of the bots (over a few seeds for 10 bots)."""
    seeds = range(5) if bots == 10 else range(1)
    results = [calibration(bots, games, seed) for seed in seeds]
    for slope, _, _ in results:
        assert 0.95 <= slope <= 1.05, results
    coverage = np.mean([covered for _, covered, _ in results])
    assert 0.90 <= coverage <= 0.98, results
    assert sum(held for _, _, held in results) >= len(results) - 1, results


@pytest.mark.slow
@pytest.mark.parametrize("games", [100_000, 1_000_000])
def test_calibration_500_bots(games):
    """Acceptance, the big cases: 500 bots, 0.8 and 8 games per pair."""
    slope, covered, _ = calibration(500, games, seed=1)
    assert 0.95 <= slope <= 1.05
    assert 0.90 <= covered <= 0.98


def test_fit_agrees_with_a_direct_maximum_likelihood():
    """The Newton fit against scipy's minimiser of the same negative log-likelihood, written
    out here game by game: the ratings (average 0), the first-move advantage, and the prior
    of docs/ratings.md (a pair that met gets 2 / (d_i + d_j) virtual draws, half with each
    bot first)."""
    optimize = pytest.importorskip("scipy.optimize")
    bots = 5
    _, first, second, half = simulate(bots, 400, seed=3, advantage=60.0)
    counts = count_pairs(bots, first, second, half, None)
    fit = fit_ratings(FitGames.of(bots, first, second, half), counts, interval="information")

    met = {(min(a, b), max(a, b)) for a, b in zip(first.tolist(), second.tolist(), strict=True)}
    degree = {bot: sum(bot in pair for pair in met) for bot in range(bots)}
    rows = [(a, b, 1.0, h / 2) for a, b, h in zip(first, second, half, strict=True)]
    for i, j in met:
        virtual = 2 / (degree[i] + degree[j])
        rows += [(i, j, virtual / 2, virtual / 4), (j, i, virtual / 2, virtual / 4)]
    a, b, weight, score = (np.array(column) for column in zip(*rows, strict=True))

    def negative_log_likelihood(x: np.ndarray) -> float:
        theta = np.append(x[: bots - 1], -x[: bots - 1].sum())
        d = theta[a] - theta[b] + x[-1]
        return float(np.sum(score * np.logaddexp(0, -d) + (weight - score) * np.logaddexp(0, d)))

    found = optimize.minimize(
        negative_log_likelihood, np.zeros(bots), method="BFGS", options={"gtol": 1e-10}
    )
    theta = np.append(found.x[: bots - 1], -found.x[: bots - 1].sum())
    assert fit.ratings == pytest.approx(ELO * theta, abs=0.01)
    assert fit.advantage == pytest.approx(ELO * found.x[-1], abs=0.01)


@pytest.mark.slow
def test_thax_perfect_self_play_shows_the_solved_first_move_advantage(tmp_path):
    """Acceptance (issue 19): thax-perfect against itself under two names, 2,000 games with
    duplicate dice; the fitted first-move advantage holds, in its 95% interval, the solved
    game's first-player win chance (docs/thax.md: 0.5182474968634) converted to Elo."""
    from typer.testing import CliRunner

    from referee.cli.app import app
    from referee.ratings.results import read_games
    from referee.ratings.table import RatingOptions, build_tables

    out = tmp_path / "selfplay"
    run = ["tournament", "run", "--out", str(out), "--game", "thax", "--seed", "1", "-q"]
    result = CliRunner().invoke(
        app, [*run, "--bots", "thax-perfect,thax-perfect", "--games-per-pair", "2000"]
    )
    assert result.exit_code == 0, result.output
    (table,) = build_tables(read_games([out]), RatingOptions())
    chance = 0.5182474968634
    solved = 400 * math.log10(chance / (1 - chance))
    _, low, high = table.advantage
    assert low <= solved <= high, (solved, table.advantage)
    assert high - low < 60


def test_several_anchors_fix_their_bots_and_fit_the_rest_by_maximum_likelihood():
    """`--anchor A=0 --anchor C=400`: A and C keep their ratings exactly; B (and the
    advantage, fixed at 0 here) is where scipy's one-dimensional minimiser of the written-out
    likelihood puts it."""
    optimize = pytest.importorskip("scipy.optimize")
    from referee.ratings.table import RatingOptions, build_tables
    from tests.ratings.helpers import games_from_records, record

    games = [("A", "B", 0)] * 3 + [("B", "A", 0)] * 5 + [("B", "C", 1)] * 6 + [("C", "B", 1)] * 2
    games += [("A", "C", 1)] * 4 + [("C", "A", 1)]
    records = [record(seat0, seat1, winner) for seat0, seat1, winner in games]
    options = RatingOptions(anchors=(("A", 0.0), ("C", 400.0)), advantage=0.0)
    (table,) = build_tables(games_from_records(records), options)
    rating = dict(zip(table.standings["bot"], table.standings["elo"], strict=True))
    assert rating["A"] == 0.0 and rating["C"] == 400.0
    fixed = {"A": 0.0, "C": 400.0}
    virtual = 2 / (2 + 2)  # every bot met both others

    def negative_log_likelihood(b: float) -> float:
        r = {**fixed, "B": b}
        total = 0.0
        rows = [(w, bl, 1.0, 1.0 if x == 0 else 0.0) for w, bl, x in games]
        rows += [(i, j, virtual, virtual / 2) for i, j in (("A", "B"), ("B", "C"), ("A", "C"))]
        for first, second, weight, score in rows:
            d = (r[first] - r[second]) / ELO
            total += score * np.logaddexp(0, -d) + (weight - score) * np.logaddexp(0, d)
        return float(total)

    found = optimize.minimize_scalar(
        negative_log_likelihood, bounds=(-1000, 1400), method="bounded", options={"xatol": 1e-6}
    )
    assert rating["B"] == pytest.approx(found.x, abs=0.01)
    assert table.anchor == "A = 0, C = 400"


def test_pools_that_never_met_are_named():
    from referee.ratings.table import RatingOptions, build_tables
    from tests.ratings.helpers import games_from_records, record

    records = [record("A", "B", 0), record("B", "A", 0), record("C", "D", 0), record("D", "C", 1)]
    (table,) = build_tables(games_from_records(records), RatingOptions(anchors=(("C", 100.0),)))
    (note,) = [note for note in table.notes if "pools" in note]
    assert "2 pools" in note and "{A, B} (averaged)" in note and "{C, D} (anchored)" in note
