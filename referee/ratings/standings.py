"""Standings (W/D/L, points, score, forfeits by reason) and the crosstable of a table's games."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from referee.ratings.pentanomial import PENTANOMIAL, PairCounts
from referee.records.reasons import FORFEITS, Reason

FORFEIT_REASONS: tuple[str, ...] = tuple(r.value for r in Reason if r in FORFEITS)
"""The forfeit reasons, each with its own column (`forfeit_time`, ...), in a fixed order."""


def standings(
    n: int,
    seat0: np.ndarray,
    seat1: np.ndarray,
    winner: np.ndarray,
    points: np.ndarray,
    reason: np.ndarray,
) -> pd.DataFrame:
    """One row per bot (bot numbers 0..n-1): games, W/D/L, points, score and forfeits.

    `winner` is 0 or 1 (the winning seat) or -1 (a draw); `points` are the points the winner
    got, so a bot's points add up what its wins were worth (a Takhteh gammon counts 2);
    `reason` is each game's result reason. A forfeit is a game a bot lost by one of the
    forfeit reasons (time, crash, illegal move, protocol error).
    """
    draw = winner < 0
    win_bot = np.where(winner == 0, seat0, seat1)[~draw]
    loss_bot = np.where(winner == 0, seat1, seat0)[~draw]
    wins = np.bincount(win_bot, minlength=n)
    losses = np.bincount(loss_bot, minlength=n)
    draws = np.bincount(seat0[draw], minlength=n) + np.bincount(seat1[draw], minlength=n)
    games = wins + draws + losses
    table = pd.DataFrame(
        {
            "games": games,
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "points": np.bincount(win_bot, weights=points[~draw], minlength=n).astype(np.int64),
            "score_pct": 100 * (wins + draws / 2) / np.maximum(games, 1),
        }
    )
    loss_reason = reason[~draw]
    forfeit_columns = {
        f"forfeit_{name}": np.bincount(loss_bot[loss_reason == name], minlength=n)
        for name in FORFEIT_REASONS
    }
    table["forfeits"] = np.sum(list(forfeit_columns.values()), axis=0)
    for column, values in forfeit_columns.items():
        table[column] = values
    return table


def crosstable(counts: PairCounts, bots: Sequence[str]) -> pd.DataFrame:
    """Each pair's results from both sides: one row per (bot, opponent) that met.

    Columns: bot, opponent, games, wins, draws, losses, score_pct, and `pairs_0` .. `pairs_4`,
    the pentanomial counts of the complete colour-swapped game pairs by the bot's score over
    the pair in half points (0 = lost both, 4 = won both).
    """
    rows = []
    for (i, j), (lost, drawn, won), pentanomial in zip(
        counts.pairs.tolist(), counts.outcomes.tolist(), counts.pentanomial.tolist(), strict=True
    ):
        games = lost + drawn + won
        for bot, opponent, wins, losses, pairs in (
            (i, j, won, lost, pentanomial),
            (j, i, lost, won, pentanomial[::-1]),
        ):
            rows.append(
                {
                    "bot": bots[bot],
                    "opponent": bots[opponent],
                    "games": games,
                    "wins": wins,
                    "draws": drawn,
                    "losses": losses,
                    "score_pct": 100 * (wins + drawn / 2) / games,
                    **{f"pairs_{k}": pairs[k] for k in range(PENTANOMIAL)},
                }
            )
    columns = ["bot", "opponent", "games", "wins", "draws", "losses", "score_pct"]
    return pd.DataFrame(rows, columns=columns + [f"pairs_{k}" for k in range(PENTANOMIAL)])
