"""Incremental Elo, game after game, with the `elo` package: shown beside the joint fit.

After each game both bots move by K (S - E), where E is the package's expected score. The
result depends on the order of the games (the same games in another order give other
ratings) and has no error bars, which is why the table's main column is the joint fit. The
games are taken in schedule order (tournament, then game number) where the records carry
it, so that a concurrent run whose games finished in another order gives the same column.
"""

from __future__ import annotations

import elo
import numpy as np

DEFAULT_K = 10.0
"""The `elo` package's default K-factor."""


def incremental_elo(
    n: int,
    seat0: np.ndarray,
    seat1: np.ndarray,
    seat0_score: np.ndarray,
    initial: float,
    k_factor: float = DEFAULT_K,
) -> np.ndarray:
    """The ratings of n bots after rating each game in turn, everyone starting at `initial`.

    `seat0` and `seat1` are the bot numbers on seat 0 and seat 1 of each game, in the order
    to rate them, `seat0_score` seat 0's score (1, 0.5 or 0). The numbers are those of
    `elo.Elo.rate_1vs1` (the test holds them together): the loop writes out the package's
    `Elo.expect` (1 / (1 + 10 ** ((other - rating) / (2 beta)))) with the same operations in
    the same order, because calling it costs twice the rest of the loop, and this loop is the
    one part of the table that grows with the number of games.
    """
    scale = 2 * elo.Elo(k_factor=k_factor, initial=initial).beta  # as in Elo.expect
    ratings = [float(initial)] * n
    for a, b, score in zip(seat0.tolist(), seat1.tolist(), seat0_score.tolist(), strict=True):
        rating, other = ratings[a], ratings[b]
        change = k_factor * (score - 1.0 / (1 + 10 ** ((other - rating) / scale)))
        ratings[a] = rating + change
        ratings[b] = other - change
    return np.array(ratings)
