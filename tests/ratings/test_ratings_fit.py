"""The joint fit: it finds known ratings, is blind to game order, and stays finite."""

from __future__ import annotations

import math
import random

import elo
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.ratings.fit import ELO_PER_UNIT, FitGames, fit_ratings, los_matrix
from referee.ratings.incremental import incremental_elo
from referee.ratings.output import render
from referee.ratings.pentanomial import count_pairs
from referee.ratings.results import read_games
from referee.ratings.table import RatingOptions, build_tables
from tests.ratings.helpers import (
    by_bot,
    games_from_records,
    record,
    synthetic_tournament,
    tables_from,
    widths,
)
from tests.records.helpers import write_jsonl

TRUE_RATINGS = [-300.0, -150.0, -50.0, 50.0, 150.0, 300.0]


@pytest.mark.parametrize("interval", ["bootstrap", "information"])
def test_fitted_ratings_lie_within_their_intervals_of_the_truth(tmp_path, interval):
    """Protects the fit and the intervals together: on games drawn from known ratings (6 bots,
    200 games per pair), the truth lies inside the 95% interval for at least 5 of 6 bots."""
    records = synthetic_tournament(TRUE_RATINGS, 200, seed=11)
    (table,) = tables_from(tmp_path, records, interval=interval)
    low, high = by_bot(table, "elo_low"), by_bot(table, "elo_high")
    covered = [low[f"bot{i}"] <= truth <= high[f"bot{i}"] for i, truth in enumerate(TRUE_RATINGS)]
    assert sum(covered) >= 5, (covered, low, high)
    # and the estimates are close, not just covered by wide intervals
    assert max(widths(table).values()) < 100


def test_intervals_shrink_as_games_grow(tmp_path):
    """Protects the intervals' meaning: four times the games gives every bot a narrower one."""
    few = tables_from(tmp_path, synthetic_tournament(TRUE_RATINGS, 50, seed=3), "few.jsonl")[0]
    many = tables_from(tmp_path, synthetic_tournament(TRUE_RATINGS, 200, seed=4), "many.jsonl")[0]
    width_few, width_many = widths(few), widths(many)
    for bot, width in width_many.items():
        assert width < width_few[bot], (bot, width, width_few[bot])


SHUFFLE_RECORDS = synthetic_tournament([-100.0, 0.0, 40.0, 120.0], 6, seed=5)


@settings(max_examples=15, deadline=None)
@given(st.permutations(range(len(SHUFFLE_RECORDS))))
def test_shuffled_input_gives_the_same_table(order):
    """Protects order independence: the same games in any order give the same table, the
    incremental Elo column included (it follows the schedule, not the order read)."""
    reference = build_tables(games_from_records(SHUFFLE_RECORDS))
    shuffled = build_tables(games_from_records([SHUFFLE_RECORDS[i] for i in order]))
    assert render(shuffled, "markdown") == render(reference, "markdown")
    assert render(shuffled, "csv") == render(reference, "csv")


def test_files_in_another_order_give_the_same_table(tmp_path):
    """Protects order independence at the file level: the games split over two JSONL files,
    each shuffled, read in either order, give the table of the single file in order."""
    records = list(SHUFFLE_RECORDS)
    write_jsonl(tmp_path / "all.jsonl", records)
    random.Random(1).shuffle(records)
    half = len(records) // 2
    write_jsonl(tmp_path / "a.jsonl", records[:half])
    write_jsonl(tmp_path / "b.jsonl", records[half:])
    reference = render(build_tables(read_games([tmp_path / "all.jsonl"])), "markdown")
    for paths in (["a.jsonl", "b.jsonl"], ["b.jsonl", "a.jsonl"]):
        tables = build_tables(read_games([tmp_path / name for name in paths]))
        assert render(tables, "markdown") == reference


def test_perfect_cycle_gives_equal_ratings():
    """Protects the fit's symmetry: A beats B, B beats C, C beats A, always: all equal."""
    records = []
    for seat0, seat1 in (("A", "B"), ("B", "C"), ("C", "A")):
        records += [record(seat0, seat1, 0) for _ in range(10)]
    (table,) = build_tables(games_from_records(records))
    ratings = table.standings["elo"].tolist()
    assert ratings == pytest.approx([0.0, 0.0, 0.0], abs=1e-6)
    assert list(table.standings["bound"]) == ["", "", ""]
    assert table.standings["los_next_pct"].iloc[0] == pytest.approx(50.0)


def test_bot_that_won_every_game_gets_a_finite_lower_bound(tmp_path):
    """Protects the prior and the bound flag: a perfect score stays finite, and the table
    says the rating is a lower bound (the loser of every game gets an upper bound)."""
    records = [record("champ", "mid", 0) for _ in range(5)]
    records += [record("mid", "champ", 1) for _ in range(5)]
    records += [record("champ", "weak", 0) for _ in range(5)]
    records += [record("mid", "weak", 0) for _ in range(4)] + [record("weak", "mid", 0)]
    (table,) = tables_from(tmp_path, records)
    rating, bound = by_bot(table, "elo"), by_bot(table, "bound")
    assert math.isfinite(rating["champ"])
    assert rating["champ"] > rating["mid"] > rating["weak"]
    assert bound == {"champ": "lower", "mid": "upper", "weak": "upper"}
    assert by_bot(table, "elo_high")["champ"] == math.inf
    markdown = render([table], "markdown")
    assert f"≥ {rating['champ']:.1f}" in markdown
    assert "a lower bound" in markdown


def test_group_between_two_outright_results_is_marked_both():
    """Protects the bound analysis on chains: A beat B outright, B beat C outright."""
    records = [record("A", "B", 0)] * 3 + [record("B", "C", 0)] * 3 + [record("A", "C", 0)]
    (table,) = build_tables(games_from_records(records))
    assert by_bot(table, "bound") == {"A": "lower", "B": "both", "C": "upper"}


def test_bounds_are_measured_from_the_anchor():
    """Protects the bound analysis with an anchor: A beat B outright and B beat C outright.
    From the average every rating is open-ended; from B, A has only a lower bound, C only an
    upper bound, and B itself is exact (its interval is the single point of the anchor).
    With 10 wins each, on both seats, the finite ends (from the profile likelihood) stay
    clear of the anchor; 3 wins leave a chance of 1/8 that equal bots did it, and the
    interval rightly reaches past the anchor."""
    records = [record("A", "B", 0), record("B", "A", 1)] * 5
    records += [record("B", "C", 0), record("C", "B", 1)] * 5
    (table,) = build_tables(games_from_records(records), RatingOptions(anchor="B", rating=100))
    assert by_bot(table, "bound") == {"A": "lower", "B": "", "C": "upper"}
    assert by_bot(table, "elo_low")["B"] == by_bot(table, "elo_high")["B"] == 100
    assert by_bot(table, "elo_low")["A"] > 100 > by_bot(table, "elo_high")["C"]
    assert by_bot(table, "elo_high")["A"] == math.inf
    assert by_bot(table, "elo_low")["C"] == -math.inf


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda n: st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from([0, 1, 2])),
            min_size=1,
            max_size=40,
        ).map(lambda games: (n, games))
    ),
    st.floats(-3000, 3000),
)
def test_fit_solves_the_likelihood_equations(data, average):
    """Protects the maximum-likelihood solution on any results: each bot's expected score
    (the prior's virtual draws included) equals its actual score, so does the first movers'
    (which fixes the advantage), ratings are finite, and each pool averages the given value.
    The prior is written out here from its definition in docs/ratings.md: a pair (i, j)
    that met gets 2 / (d_i + d_j) virtual draws, d a bot's number of opponents, half with
    each bot moving first."""
    n, games = data
    games = [(w, b, h) for w, b, h in games if w != b]
    if not games:
        return
    seat0, seat1, half = (np.array(column) for column in zip(*games, strict=True))
    counts = count_pairs(n, seat0, seat1, half, None)
    fit = fit_ratings(
        FitGames.of(n, seat0, seat1, half), counts, rating=average, interval="information"
    )
    played = np.unique(counts.pairs)
    assert np.all(np.isfinite(fit.ratings[played]))
    met = {(min(w, b), max(w, b)) for w, b, _ in games}
    opponents = {bot: sum(bot in pair for pair in met) for bot in range(n)}
    cells = [(w, b, 1.0, h / 2) for w, b, h in games]
    for i, j in met:
        virtual = 2 / (opponents[i] + opponents[j])
        cells += [(i, j, virtual / 2, virtual / 4), (j, i, virtual / 2, virtual / 4)]
    theta = fit.ratings / ELO_PER_UNIT
    advantage = fit.advantage / ELO_PER_UNIT
    expected, actual = np.zeros(n), np.zeros(n)
    first_expected = first_actual = 0.0
    for w, b, weight, score in cells:
        p = 1 / (1 + math.exp(-(theta[w] - theta[b] + advantage)))
        expected[w] += weight * p
        expected[b] += weight * (1 - p)
        actual[w] += score
        actual[b] += weight - score
        first_expected += weight * p
        first_actual += score
    assert expected[played] == pytest.approx(actual[played], abs=1e-6)
    assert first_expected == pytest.approx(first_actual, abs=1e-6)
    for pool in np.unique(fit.pools[played]):
        members = [bot for bot in played if fit.pools[bot] == pool]
        assert np.mean(fit.ratings[members]) == pytest.approx(average, abs=1e-6)


def test_anchor_bot_gets_the_chosen_rating_and_differences_stay():
    """Protects anchoring: naming a bot fixes its rating and moves all others with it."""
    records = synthetic_tournament([-80.0, 0.0, 90.0], 30, seed=9)
    (average,) = build_tables(games_from_records(records))
    (anchored,) = build_tables(
        games_from_records(records), RatingOptions(anchor="bot1", rating=1500)
    )
    a, b = by_bot(average, "elo"), by_bot(anchored, "elo")
    assert b["bot1"] == pytest.approx(1500)
    for bot in a:
        assert b[bot] - b["bot1"] == pytest.approx(a[bot] - a["bot1"])
    assert by_bot(anchored, "elo_low")["bot1"] == pytest.approx(1500)
    assert anchored.anchor == "bot1 = 1500"


def test_los_matrix_is_complementary_and_gives_the_neighbour_column():
    """Protects LOS: P(i > j) + P(j > i) = 100%, and 'LOS next' is the matrix entry of each
    bot against the one ranked below it."""
    records = synthetic_tournament([-40.0, 0.0, 10.0, 60.0], 40, seed=2)
    (table,) = build_tables(games_from_records(records))
    los = table.los.to_numpy()
    off = ~np.eye(len(los), dtype=bool)
    assert (los + los.T)[off] == pytest.approx(100.0)
    names = list(table.standings["bot"])
    for rank, bot in enumerate(names[:-1]):
        assert table.standings["los_next_pct"].iloc[rank] == pytest.approx(
            table.los.loc[bot, names[rank + 1]]
        )
    assert math.isnan(table.standings["los_next_pct"].iloc[-1])


def test_los_matrix_is_nan_between_pools():
    """Protects separate pools: bots that never met, even through others, get no LOS, and
    each pool averages the anchor value."""
    records = [record("A", "B", 0), record("B", "A", None), record("C", "D", 1)]
    records += [record("D", "C", 1)]
    (table,) = build_tables(games_from_records(records), RatingOptions(rating=100))
    assert math.isnan(table.los.loc["A", "C"])
    rating = by_bot(table, "elo")
    assert (rating["A"] + rating["B"]) / 2 == pytest.approx(100)
    assert (rating["C"] + rating["D"]) / 2 == pytest.approx(100)
    assert any("2 pools" in note for note in table.notes)


def test_same_seed_gives_the_same_intervals_and_another_seed_other_ones():
    """Protects the seeded bootstrap: a table is reproducible, and the seed is really used."""
    games = games_from_records(synthetic_tournament([-50.0, 0.0, 50.0], 40, seed=1))
    first = build_tables(games, RatingOptions(seed=1, interval="bootstrap"))[0].standings
    again = build_tables(games, RatingOptions(seed=1, interval="bootstrap"))[0].standings
    other = build_tables(games, RatingOptions(seed=2, interval="bootstrap"))[0].standings
    assert first.equals(again)
    assert not first["elo_low"].equals(other["elo_low"])
    assert first["elo"].equals(other["elo"])


def test_incremental_elo_is_the_elo_packages_game_by_game():
    """Protects the incremental column: the same numbers as elo.rate_1vs1 applied in turn."""
    rng = random.Random(4)
    games = [(rng.randrange(4), rng.randrange(4), rng.choice([0.0, 0.5, 1.0])) for _ in range(500)]
    games = [(w, b, s) for w, b, s in games if w != b]
    env = elo.Elo(k_factor=16, initial=1200)
    reference = [1200.0] * 4
    for seat0, seat1, score in games:
        if score == 0.5:
            reference[seat0], reference[seat1] = env.rate_1vs1(
                reference[seat0], reference[seat1], drawn=True
            )
        elif score == 1.0:
            reference[seat0], reference[seat1] = env.rate_1vs1(reference[seat0], reference[seat1])
        else:
            reference[seat1], reference[seat0] = env.rate_1vs1(reference[seat1], reference[seat0])
    seat0, seat1, score = (np.array(column) for column in zip(*games, strict=True))
    ours = incremental_elo(4, seat0, seat1, score, initial=1200, k_factor=16)
    assert ours == pytest.approx(reference, abs=1e-9)


def test_incremental_elo_depends_on_the_schedule_not_the_fit():
    """Protects the separation of the two columns: reversing the schedule changes the
    incremental Elo but not the joint fit."""
    records = synthetic_tournament([-100.0, 0.0, 100.0], 20, seed=8)
    forward = build_tables(games_from_records(records))[0]
    last = len(records) - 1
    backward_records = [
        r.model_copy(update={"event": r.event.model_copy(update={"game_number": last - i})})
        for i, r in enumerate(records)
    ]
    backward = build_tables(games_from_records(backward_records))[0]
    assert by_bot(forward, "elo") == pytest.approx(by_bot(backward, "elo"))
    assert by_bot(forward, "incremental_elo") != pytest.approx(by_bot(backward, "incremental_elo"))


def test_fit_of_one_million_games_in_pair_counts_has_no_overflow():
    """Protects the fit at scale: the counts of a million games of equal bots (large weights
    in every Newton step) fit to finite ratings near the truth, all equal."""
    rng = np.random.default_rng(0)
    n = 5
    seat0 = rng.integers(0, n, 1_000_000)
    seat1 = (seat0 + rng.integers(1, n, 1_000_000)) % n
    half = rng.integers(0, 3, 1_000_000)
    counts = count_pairs(n, seat0, seat1, half, None)
    fit = fit_ratings(FitGames.of(n, seat0, seat1, half), counts, interval="information")
    assert np.all(np.isfinite(fit.ratings))
    assert np.all(np.abs(fit.ratings) < 5)
    assert los_matrix(fit).shape == (n, n)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda n: st.lists(
            st.tuples(
                st.integers(0, n - 1),
                st.integers(1, n - 1),
                st.sampled_from([0, 1, 2]),
                st.booleans(),
            ),
            min_size=1,
            max_size=30,
        ).map(lambda games: (n, games))
    ),
    st.lists(st.floats(-3, 3), min_size=6, max_size=6),
)
def test_the_robust_middle_sums_each_units_score_vector(data, parameters):
    """Protects `_clustered_meat` (summed by seatings, not game by game): the sum over units
    of g g^T, each unit a colour-swapped pair or a game alone, g the sum of its games'
    residual times (+1 first mover, -1 second mover, +1 advantage), written out here with
    dense vectors."""
    from referee.ratings.fit import _clustered_meat

    n, drawn = data
    games, cluster, units = [], [], 0
    for first, step, half, paired in drawn:
        second = (first + step) % n
        games.append((first, second, half))
        cluster.append(units if paired else -1)
        if paired:  # its colour-swapped twin, with the other seats
            games.append((second, first, 2 - half))
            cluster.append(units)
            units += 1
    first, second, half = (np.array(column) for column in zip(*games, strict=True))
    theta, advantage = np.array(parameters[:n]), parameters[5]
    fit_games = FitGames.of(n, first, second, half, cluster)
    vectors: dict[object, np.ndarray] = {}
    for number, (w, b, h) in enumerate(games):
        residual = h / 2 - 1 / (1 + math.exp(-(theta[w] - theta[b] + advantage)))
        vector = np.zeros(n + 1)
        vector[w] += residual
        vector[b] -= residual
        vector[n] += residual
        unit = ("pair", cluster[number]) if cluster[number] >= 0 else ("game", number)
        vectors[unit] = vectors.get(unit, np.zeros(n + 1)) + vector
    expected = sum(np.outer(g, g) for g in vectors.values())
    assert _clustered_meat(fit_games, theta, advantage) == pytest.approx(expected, abs=1e-9)
