"""Colour-swapped game pairs: their pentanomial counts and their use in the intervals."""

from __future__ import annotations

import numpy as np
import pytest

from referee.ratings.pentanomial import count_pairs
from referee.ratings.table import RatingOptions, build_tables
from tests.ratings.helpers import by_bot, games_from_records, record, widths


def test_pentanomial_counts_a_pair_by_the_first_bots_score_over_both_games():
    """Protects the pentanomial: pairs scored 2, 1 (win + loss), 1 (two draws), 1/2 and 0
    from A's side land in outcomes 4, 2, 2, 1 and 0; the outcome counts keep W-D-L apart."""
    games = [
        ("A", "B", 0, "B", "A", 1),  # A wins both
        ("A", "B", 0, "B", "A", 0),  # A wins one, loses one
        ("A", "B", None, "B", "A", None),  # two draws
        ("B", "A", 0, "A", "B", None),  # A loses, then draws
        ("B", "A", 0, "A", "B", 1),  # A loses both
    ]
    records = []
    for pairing, (w1, b1, r1, w2, b2, r2) in enumerate(games):
        records.append(record(w1, b1, r1, tournament="t", pairing=pairing))
        records.append(record(w2, b2, r2, tournament="t", pairing=pairing))
    (table,) = build_tables(games_from_records(records))
    row = table.crosstable.set_index("bot").loc["A"]
    assert [row[f"pairs_{k}"] for k in range(5)] == [1, 1, 2, 0, 1]
    assert (row["wins"], row["draws"], row["losses"]) == (3, 3, 4)
    mirrored = table.crosstable.set_index("bot").loc["B"]
    assert [mirrored[f"pairs_{k}"] for k in range(5)] == [1, 0, 2, 1, 1]


def test_games_that_do_not_form_a_colour_swapped_pair_stay_single():
    """Protects pair detection: same seats twice, a key held by three games, a lone game,
    and the same pairing index in two tournaments are no pairs; a real pair is one."""
    names = {"A": 0, "B": 1}
    rows = [
        ("A", "B", "t", 0),
        ("A", "B", "t", 0),  # same seats: not swapped
        ("A", "B", "t", 1),
        ("B", "A", "t", 1),
        ("A", "B", "t", 1),  # three games on one key
        ("A", "B", "t", 2),  # alone
        ("A", "B", "t", 3),
        ("B", "A", "u", 3),  # same index, other tournament
        ("A", "B", "t", 4),
        ("B", "A", "t", 4),  # the one real pair
    ]
    white = np.array([names[r[0]] for r in rows])
    black = np.array([names[r[1]] for r in rows])
    tournaments = {"t": 0, "u": 1}
    key = np.array([tournaments[r[2]] * 100 + r[3] for r in rows])
    counts = count_pairs(2, white, black, np.full(len(rows), 2), key)
    assert counts.pentanomial.sum() == 1
    assert counts.games.tolist() == [len(rows)]


@pytest.mark.parametrize("interval", ["robust", "bootstrap"])
def test_pairs_as_units_narrow_the_intervals_when_the_shared_dice_decide(interval):
    """Protects the use of the colour-swapped pairs: when the dice both games of a pair
    share decide most games (the seat that gets the good dice wins both), each pair is one
    win each and the pair scores hardly vary. Taking pairs as units sees that (in the robust
    errors and in the bootstrap), taking single games does not. (A seat that decides is now
    the fitted first-move advantage, which the model itself explains.)"""
    rng = np.random.default_rng(1)
    records = []
    pairing = 0
    for a, b in (("A", "B"), ("A", "C"), ("B", "C")):
        for _ in range(100):
            lucky = int(rng.integers(2))
            decided = rng.random() < 0.9
            for white, black in ((a, b), (b, a)):
                winner = lucky if decided else int(rng.integers(2))
                records.append(record(white, black, winner, tournament="t", pairing=pairing))
            pairing += 1
    games = games_from_records(records)
    (paired,) = build_tables(games, RatingOptions(interval=interval, samples=300))
    (single,) = build_tables(games, RatingOptions(interval=interval, samples=300, pairs=False))
    assert by_bot(paired, "elo") == pytest.approx(by_bot(single, "elo"))
    for bot, width in widths(paired).items():
        assert width < 0.8 * widths(single)[bot], (bot, width, widths(single)[bot])
    assert "300 colour-swapped game pairs" in paired.interval
    assert "pairs" not in single.interval
