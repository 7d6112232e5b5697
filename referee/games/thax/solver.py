"""THAX solved: the probability that the player about to roll wins, for every position, under
perfect play by both sides (issue 9).

A side is five counts, so it has 2*3*4*5*6 = 720 states and a position (the roller's side, the
other side) one of 518,400. The values satisfy the Bellman equations

    V(s) = sum over rolls r of p(r) * max over options m of W(s, r, m)

where W is 1 for a win, V(s') after a double other than 6-6 (the same player rolls again), and
1 - V(s') seen from the opponent otherwise; a pass is the option when no other exists. The game
has cycles (takes, removals, passes), so the equations are solved by modified policy iteration:
a full sweep fixes the best option of every position and roll, then cheaper sweeps evaluate that
policy. It converges in about 10 rounds to a change below 1e-11.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np

from referee.cache import cache_folder
from referee.games.dice import TURN_OUTCOMES
from referee.games.thax.rules import NUMBERS, Side

RADIX = (2, 3, 4, 5, 6)
STRIDE = (1, 2, 6, 24, 120)
SIDES = 720
POSITIONS = SIDES * SIDES
FULL = SIDES - 1
"""The index of a side with all fifteen spaces covered."""
TOLERANCE = 1e-11
EVALUATIONS = 15
CACHE_NAME = "thax-values-v1.npy"


def side_index(side: Side) -> int:
    return sum(count * stride for count, stride in zip(side, STRIDE, strict=True))


def position_index(roller: Side, other: Side) -> int:
    return side_index(roller) * SIDES + side_index(other)


Successors = list[tuple[float, bool, np.ndarray]]
"""For each roll: its probability, whether the roller rolls again, and the index of the value
each option leads to (rows: options; POSITIONS where the option does not exist)."""


def successors() -> Successors:
    """Every option of every position and roll, computed for all positions at once."""
    index = np.arange(POSITIONS, dtype=np.int64)
    own, other = index // SIDES, index % SIDES
    own_counts = [(own // STRIDE[i]) % RADIX[i] for i in range(5)]
    other_counts = [(other // STRIDE[i]) % RADIX[i] for i in range(5)]
    uncovered = [n - own_counts[n - 1] for n in NUMBERS]
    table: Successors = []
    for roll, probability in TURN_OUTCOMES:
        a, b = roll
        again = a == b != 6
        moves: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        if (a, b) == (6, 6):
            for n in NUMBERS:
                moves.append((own - STRIDE[n - 1], other, own_counts[n - 1] > 0))
        elif a == 6:
            moves.append((own + STRIDE[b - 1], other, uncovered[b - 1] > 0))
        else:
            if a == b:
                placed = np.minimum(2, uncovered[a - 1])
                moves.append((own + placed * STRIDE[a - 1], other, placed > 0))
            else:
                fits_a, fits_b = uncovered[a - 1] > 0, uncovered[b - 1] > 0
                placed = own + fits_a * STRIDE[a - 1] + fits_b * STRIDE[b - 1]
                moves.append((placed, other, fits_a | fits_b))
            for x, y in {(a, b), (b, a)}:
                valid = (other_counts[x - 1] > 0) & (uncovered[y - 1] > 0)
                moves.append((own + STRIDE[y - 1], other - STRIDE[x - 1], valid))
            if a + b <= 5:
                moves.append((own + STRIDE[a + b - 1], other, uncovered[a + b - 1] > 0))
        moves.append((own, other, ~np.logical_or.reduce([valid for _, _, valid in moves])))
        rows = np.stack(
            [_row(new_own, new_other, valid, again) for new_own, new_other, valid in moves]
        )
        table.append((probability, again, rows))
    return table


def _row(new_own: np.ndarray, new_other: np.ndarray, valid: np.ndarray, again: bool) -> np.ndarray:
    """Where an option leads, as the index of the value of the player then to roll: the mover
    after an extra turn, otherwise the opponent (whose value the sweep turns into 1 - V)."""
    target = new_own * SIDES + new_other if again else new_other * SIDES + new_own
    return np.where(valid, target, POSITIONS).astype(np.int32)


def solve() -> np.ndarray:
    """V by position index: 1 where the roller's side is full, 0 where the other side is."""
    index = np.arange(POSITIONS)
    own, other = index // SIDES, index % SIDES
    ended = (own == FULL) | (other == FULL)
    values = np.full(POSITIONS, 0.5)
    values[own == FULL], values[other == FULL] = 1.0, 0.0
    table = successors()
    same = np.empty(POSITIONS + 1)
    flipped = np.empty(POSITIONS + 1)
    columns = np.arange(POSITIONS)

    def extend(current: np.ndarray) -> None:
        # One slot past the end stands for "no such option": -1 loses to every real option.
        same[:POSITIONS], same[POSITIONS] = current, -1.0
        flipped[:POSITIONS], flipped[POSITIONS] = 1.0 - current, -1.0

    while True:
        extend(values)
        improved = np.zeros(POSITIONS)
        policy = []
        for probability, again, rows in table:
            options = (same if again else flipped)[rows]
            best = options.argmax(axis=0)
            policy.append((probability, again, rows[best, columns]))
            improved += probability * options[best, columns]
        improved[ended] = values[ended]
        change = np.abs(improved - values).max()
        values = improved
        if change < TOLERANCE:
            return values
        for _ in range(EVALUATIONS):
            extend(values)
            evaluated = np.zeros(POSITIONS)
            for probability, again, chosen in policy:
                evaluated += probability * (same if again else flipped)[chosen]
            evaluated[ended] = values[ended]
            values = evaluated


def unsolved_table() -> Path | None:
    """Where `values` will keep the solved table when it is not there yet; None when it is
    there, or when there is no cache folder to keep it in."""
    folder = cache_folder()
    if folder is None:
        return None
    path = folder / CACHE_NAME
    return None if path.exists() else path


@cache
def values() -> np.ndarray:
    """The solved values, computed once (about half a minute) and kept in the cache folder
    (computed at every start when there is none: no home folder to find one in)."""
    return kept(CACHE_NAME, solve)


def kept(name: str, compute: Callable[[], np.ndarray]) -> np.ndarray:
    """The table `compute` gives, kept in the cache folder as `name`: read from there when it
    is there, else computed and written (computed at every call without a cache folder)."""
    folder = cache_folder()
    if folder is None:
        return compute()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    # Tournament workers may all ask at once: one computes, the others wait for its file.
    with (folder / (name + ".lock")).open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            table: np.ndarray = np.load(path)
            if table.shape == (POSITIONS,):
                return table
        table = compute()
        temporary = path.with_suffix(".tmp.npy")
        np.save(temporary, table)
        os.replace(temporary, path)
        return table


def win_probability(roller: Side, other: Side) -> float:
    """The chance that the player about to roll wins from this position under perfect play."""
    return float(values()[position_index(roller, other)])
