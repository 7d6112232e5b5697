"""Counting results by pair of bots, with colour-swapped game pairs kept together.

A tournament plays each pairing as two games with the seats swapped (and, in dice games, the
same dice seen from the seat). The two results of such a pair are not independent: a seat
advantage or lucky dice helps each bot once. So besides the win/draw/loss count of each
pair of bots, the pairs are counted by the score one bot made over both games: 0, 1/2, 1,
3/2 or 2 points, the five outcomes of the *pentanomial*, shown in the crosstable. (The
intervals take the pairs as units from the games themselves: `fit.FitGames.cluster`.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PENTANOMIAL = 5
"""Outcomes of a game pair: the first bot's score over both games, 0 to 2 in half points."""
TRINOMIAL = 3
"""Outcomes of a single game for the first bot: loss, draw, win."""


@dataclass(frozen=True)
class PairCounts:
    """The results of a table counted by pair of bots.

    Bots are numbered 0..n-1. `pairs` lists the pairs of bots that met, as (i, j) with i < j;
    the other arrays have one row per such pair and count from bot i's side.
    """

    n: int
    pairs: np.ndarray
    """(P, 2) the bots of each pair, i < j."""
    outcomes: np.ndarray
    """(P, 3) all games of the pair: i's losses, draws, wins."""
    pentanomial: np.ndarray
    """(P, 5) complete colour-swapped pairs by i's score over both games, in half points."""

    @property
    def games(self) -> np.ndarray:
        """(P,) games played by each pair of bots."""
        return self.outcomes.sum(axis=1)

    @property
    def score(self) -> np.ndarray:
        """(P,) bot i's score against bot j, draws counting half."""
        return self.outcomes @ np.array([0.0, 0.5, 1.0])


def count_pairs(
    n: int,
    seat0: np.ndarray,
    seat1: np.ndarray,
    seat0_half_points: np.ndarray,
    pair_key: np.ndarray | None,
) -> PairCounts:
    """Count the games of a table by pair of bots.

    `seat0` and `seat1` are the bot numbers on seat 0 and seat 1 (never equal),
    `seat0_half_points` seat 0's score in half points (2 win, 1 draw, 0 loss), and `pair_key`
    a number per game naming its colour-swapped pair (-1 for none), or None to count every
    game alone. Two games with the same key form a pair when the bots sit on swapped seats;
    a key held by one game or by more than two leaves its games single.
    """
    seat0 = np.asarray(seat0, dtype=np.int64)
    seat1 = np.asarray(seat1, dtype=np.int64)
    half = np.asarray(seat0_half_points, dtype=np.int64)
    first, second = _complete_pairs(seat0, seat1, pair_key)
    # One index per unordered pair of bots; the counts are made from the lower bot's side.
    low, high = np.minimum(seat0, seat1), np.maximum(seat0, seat1)
    cell = low * n + high
    flipped = seat0 != low
    game_outcome = cell * TRINOMIAL + np.where(flipped, 2 - half, half)
    outcomes = np.bincount(game_outcome, minlength=n * n * TRINOMIAL).reshape(n * n, TRINOMIAL)

    # A pair's score for the player on seat 0 of its first game: that game's score plus the
    # second game's score of the other seat.
    pair_score = half[first] + 2 - half[second]
    pair_outcome = np.where(flipped[first], 4 - pair_score, pair_score)
    pentanomial = np.bincount(
        cell[first] * PENTANOMIAL + pair_outcome, minlength=n * n * PENTANOMIAL
    ).reshape(n * n, PENTANOMIAL)

    met = np.flatnonzero(outcomes.sum(axis=1))
    pairs = np.stack([met // n, met % n], axis=1)
    return PairCounts(n, pairs, outcomes[met], pentanomial[met])


def _complete_pairs(
    seat0: np.ndarray, seat1: np.ndarray, pair_key: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the first and second game of each complete colour-swapped pair."""
    if pair_key is None:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    keyed = np.flatnonzero(np.asarray(pair_key) >= 0)
    order = keyed[np.argsort(pair_key[keyed], kind="stable")]
    keys = pair_key[order]
    _, starts, sizes = np.unique(keys, return_index=True, return_counts=True)
    two = starts[sizes == 2]
    first, second = order[two], order[two + 1]
    swapped = (seat0[first] == seat1[second]) & (seat1[first] == seat0[second])
    return first[swapped], second[swapped]
