"""THAX's built-in bots as exact policies, and the chance of winning of one against another.

The solver (referee/games/thax/solver.py) finds the values of perfect play. Here the choices
are fixed instead: each bot's choice at every position and roll is written as a probability
over the options (uniform over the moves the bot's random tie-break picks from), and the
chance that the player about to roll wins is evaluated for two such policies facing each
other, from the rules' option table, not from games.

The policies copy the bots' choices over the solver's option table, for all positions at once:
`random` is referee.games.agent.RandomBot, `greedy` is bots.ThaxGreedyBot (a win first, else
own covered spaces minus the opponent's) and `thax-perfect` is bots.PerfectBot (the best
solved value, ties within 1e-12). test_policy.py holds each copy to its bot, and the
evaluation of perfect play against itself to the solver's values.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from referee.games.thax import solver
from referee.games.thax.rules import EMPTY_SIDE
from referee.games.thax.solver import FULL, POSITIONS, RADIX, SIDES, STRIDE

Choice = list[np.ndarray]
"""For each roll of the solver's table: the probability of each option (rows) at each position
(columns); 0 for an option that does not exist."""

TIE = 1e-12
"""PerfectBot's tolerance between two moves' chances of winning."""
TOLERANCE = 1e-13
"""The evaluation stops when no value changes by more than this in a sweep."""

_COVERED = sum(
    ((np.arange(SIDES) // STRIDE[i]) % RADIX[i] for i in range(len(RADIX))),
    start=np.zeros(SIDES, dtype=np.int64),
)
"""How many spaces a side covers, by side index."""


def _sides(rows: np.ndarray, again: bool) -> tuple[np.ndarray, np.ndarray]:
    """The mover's side and the opponent's after each option (a row of the solver's table holds
    the index of the position of the player then to roll); 0 where there is no option."""
    target = np.where(rows < POSITIONS, rows, 0)
    first, second = target // SIDES, target % SIDES
    return (first, second) if again else (second, first)


def _uniform_over_best(scores: np.ndarray, exists: np.ndarray, tie: float) -> np.ndarray:
    """A probability per option: uniform over the existing options scoring within `tie` of
    the best, as a bot's `rng.choice` among its best moves."""
    scores = np.where(exists, scores, -np.inf)
    best = scores.max(axis=0)
    chosen = exists & (scores >= best - tie)
    weights: np.ndarray = chosen / chosen.sum(axis=0)
    return weights


def random_policy(table: solver.Successors) -> Choice:
    """Every legal move alike."""
    return [_uniform_over_best(np.zeros(rows.shape), rows < POSITIONS, 0) for _, _, rows in table]


def greedy_policy(table: solver.Successors) -> Choice:
    """A win first; else the most own covered spaces minus the opponent's after the move."""
    choice = []
    for _, again, rows in table:
        own, other = _sides(rows, again)
        scores = (_COVERED[own] - _COVERED[other]).astype(float)
        scores[own == FULL] = np.inf
        choice.append(_uniform_over_best(scores, rows < POSITIONS, 0))
    return choice


def perfect_policy(table: solver.Successors) -> Choice:
    """The highest chance of winning under perfect play from then on."""
    values = np.append(solver.values(), -1.0)
    choice = []
    for _, again, rows in table:
        # A win leads to a full side: its value is 1 (0 for the opponent), as PerfectBot has it.
        chance = values[rows] if again else 1.0 - values[rows]
        choice.append(_uniform_over_best(chance, rows < POSITIONS, TIE))
    return choice


POLICIES: dict[str, Callable[[solver.Successors], Choice]] = {
    "random": random_policy,
    "greedy": greedy_policy,
    "thax-perfect": perfect_policy,
}
"""The built-in bots (by their names in a bot spec) whose play is a fixed policy."""


def win_chances(first: Choice, second: Choice, table: solver.Successors) -> np.ndarray:
    """For each position index: the chance that the player about to roll wins when that player
    plays `first` and the opponent `second` (row 0), and the same with the policies swapped
    (row 1).

    Policy evaluation: W_p(s) = sum over rolls r of p(r) * sum over options m of
    choice_p(s, r, m) * (W_p(s') after a double below 6-6, else 1 - W_q(s')), iterated from
    0.5 until no value moves by more than TOLERANCE. Every game ends with probability 1 (a
    roll that covers a space comes with positive probability in every position), so the
    iteration converges to the one solution. The equations are kept as one sparse system over
    both players' values (an option's weight, signed, and where it leads), so that a sweep
    is a gather and a sum.
    """
    index = np.arange(POSITIONS)
    own, other = index // SIDES, index % SIDES
    won, lost = own == FULL, other == FULL
    playing = ~(won | lost)
    sources, targets, weights = [], [], []
    constant = np.zeros(2 * POSITIONS)
    for player, policy in enumerate((first, second)):
        for (probability, again, rows), choice in zip(table, policy, strict=True):
            option, position = np.nonzero((choice > 0) & playing)
            weight = probability * choice[option, position]
            # The mover's own value after a double, else one minus the opponent's.
            to = rows[option, position] + POSITIONS * (player if again else 1 - player)
            sources.append(position + POSITIONS * player)
            targets.append(to)
            weights.append(weight if again else -weight)
            if not again:
                constant += np.bincount(
                    position + POSITIONS * player, weights=weight, minlength=2 * POSITIONS
                )
    source, target = np.concatenate(sources), np.concatenate(targets)
    weight = np.concatenate(weights)
    # As the solver has it: a position where both sides are full (never reached) counts lost.
    constant[np.concatenate([won & ~lost, won & ~lost])] = 1.0
    chances = np.where(np.concatenate([playing, playing]), 0.5, constant)
    fixed = ~np.concatenate([playing, playing])
    while True:
        updated = constant + np.bincount(
            source, weights=weight * chances[target], minlength=2 * POSITIONS
        )
        updated[fixed] = chances[fixed]
        change = np.abs(updated - chances).max()
        chances = updated
        if change < TOLERANCE:
            return chances.reshape(2, POSITIONS)


def expected_score(first: str, second: str) -> float:
    """The exact expected score per game of the bot `first` against `second` (names of
    POLICIES), from the empty board: the opening roll makes either player the first to roll
    with chance 1/2, whichever seat each sits in, so the score is the mean of `first`'s chance
    of winning when it rolls first and when `second` does."""
    table = solver.successors()
    chances = win_chances(POLICIES[first](table), POLICIES[second](table), table)
    start = solver.position_index(EMPTY_SIDE, EMPTY_SIDE)
    return float((chances[0, start] + 1 - chances[1, start]) / 2)
