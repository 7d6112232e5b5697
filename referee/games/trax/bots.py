"""Trax bots: `greedy` (one move deep with a safety check) and `search` (alpha-beta)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from referee.games.base import State
from referee.games.bot import Bot
from referee.games.trax.rules import (
    COORD_MASK,
    DELTA,
    ILLEGAL,
    NO_WIN,
    SHIFT,
    TraxMove,
    TraxState,
    end_colour,
)

WIN = 1_000_000.0
"""The value of a won position; wins sooner score higher (WIN minus the plies to it)."""

LOOP_WEIGHTS = (0.0, 12.0, 4.0, 1.5, 0.5)
"""By the distance between the two empty spaces a track's ends face: 1 is a loop threat
(whoever owns the colour closes it next move), 2 and 3 are loops in the making."""
LINE_FROM = 4
"""A track whose ends face spaces this many columns (rows) apart starts to count as a line."""
TEMPO = 1.5
"""The side to move turns its own prospects into threats first."""


def evaluate(state: TraxState, seat: int) -> float:
    """Loop and line prospects of `seat`'s colour minus the opponent's.

    Each open track counts by how close its two ends come (a loop needs them to meet) and,
    where lines win, by how far apart they reach across or down (a line needs 8).
    """
    tiles, ends, lines = state.tiles, state.ends, state.lines
    scores = [0.0, 0.0]
    for end, other in ends.items():
        if end > other:
            continue
        first = (end >> 2) + DELTA[end & 3]
        second = (other >> 2) + DELTA[other & 3]
        dx = abs((first & COORD_MASK) - (second & COORD_MASK))
        dy = abs((first >> SHIFT) - (second >> SHIFT))
        distance = dx + dy
        value = LOOP_WEIGHTS[distance] if distance < len(LOOP_WEIGHTS) else 0.0
        if lines:
            reach = max(dx, dy)
            if reach >= LINE_FROM:
                value += (reach - LINE_FROM + 1) ** 2 * 0.5
        scores[end_colour(tiles, end)] += value
    mover = state.seat
    scores[mover] *= TEMPO
    return scores[seat] - scores[1 - seat]


Outlook = tuple[list[tuple[int, int]], list[tuple[int, int]], int]


def outlook(state: TraxState) -> Outlook:
    """The side to move's (winning moves, other non-losing moves, number of legal moves)."""
    seat = state.seat
    wins: list[tuple[int, int]] = []
    quiet: list[tuple[int, int]] = []
    legal = 0
    for key, tile in state.candidates():
        result = state.preview(key, tile)
        if result == ILLEGAL:
            continue
        legal += 1
        if result == seat:
            wins.append((key, tile))
        elif result == NO_WIN:
            quiet.append((key, tile))
    return wins, quiet, legal


def can_win_at_once(state: TraxState) -> bool:
    seat = state.seat
    return any(state.preview(key, tile) == seat for key, tile in state.candidates())


def _opening(bot: Bot, state: TraxState) -> TraxMove | None:
    """The first move, which has no neighbours to judge by: either one at random."""
    if state.box is None:
        return bot.rng.choice(state.legal_moves())
    return None


class TraxGreedyBot(Bot):
    """Wins at once if it can, else keeps the opponent from winning at once, else scores."""

    name = "greedy"
    description = (
        "wins at once when it can, else avoids moves that let the opponent win at once, "
        "else the move whose position scores best (loop and line prospects)"
    )

    def choose(self, state: State, history: Sequence[Any] = ()) -> TraxMove:
        assert isinstance(state, TraxState)
        first = _opening(self, state)
        if first is not None:
            return first
        seat = state.seat
        wins, quiet, _ = outlook(state)
        if wins:
            return state.move_at(*self.rng.choice(wins))
        if not quiet:
            # Every legal move loses at once: any of them.
            return self.rng.choice(state.legal_moves())
        scored = []
        for key, tile in quiet:
            after = state.play(state.move_at(key, tile))
            scored.append((evaluate(after, seat), (key, tile), after))
        scored.sort(key=lambda item: -item[0])
        # The safety check (a scan of the opponent's moves) is the costly part: walk down
        # from the best score and stop after the first score that has a safe move.
        best: list[tuple[int, int]] = []
        best_score = -WIN
        for score, move, after in scored:
            if best and score < best_score:
                break
            if not can_win_at_once(after):
                best.append(move)
                best_score = score
        if not best:
            top = scored[0][0]
            best = [move for score, move, _ in scored if score == top]
        return state.move_at(*self.rng.choice(best))


class _OutOfTime(Exception):
    """The search ran past its deadline."""


class TraxSearchBot(Bot):
    """Iterative deepening alpha-beta; every node first checks for a win at once."""

    name = "search"
    description = (
        "alpha-beta to `depth` moves (iterative deepening, stops at `time` seconds a move); "
        "every node sees the wins at once of its side to move, so depth 2 finds double threats"
    )

    def __init__(self, depth: int = 3, time: float = 1.0) -> None:
        super().__init__()
        if depth < 1 or time <= 0:
            raise ValueError("the search needs depth >= 1 and time > 0")
        self.depth = depth
        self.time = time
        self._deadline = 0.0
        self._history: dict[tuple[int, int], int] = {}
        self._outlooks: dict[tuple[int, frozenset[tuple[int, int]]], Outlook] = {}
        self.nodes = 0

    def choose(self, state: State, history: Sequence[Any] = ()) -> TraxMove:
        assert isinstance(state, TraxState)
        first = _opening(self, state)
        if first is not None:
            return first
        self._deadline = time.perf_counter() + self.time
        self._history = {}
        self._outlooks = {}
        self.nodes = 0
        wins, quiet, _ = outlook(state)
        if wins:
            return state.move_at(*self.rng.choice(wins))
        if not quiet:
            return self.rng.choice(state.legal_moves())
        moves = list(quiet)
        self.rng.shuffle(moves)
        best = moves[0]
        for depth in range(1, self.depth + 1):
            scores: dict[tuple[int, int], float] = {}
            try:
                self._root(state, moves, depth, scores)
            except _OutOfTime:
                # Moves are searched best first: a finished one that beats the previous
                # best is better than it even though the iteration did not finish.
                if scores and max(scores.values()) > scores.get(best, -WIN - 1):
                    best = max(scores, key=lambda move: scores[move])
                break
            top = max(scores.values())
            best = next(move for move in moves if scores[move] == top)
            moves.sort(key=lambda move: -scores[move])
            if abs(top) >= WIN - depth - 1:
                break
        return state.move_at(*best)

    def _root(
        self,
        state: TraxState,
        moves: list[tuple[int, int]],
        depth: int,
        scores: dict[tuple[int, int], float],
    ) -> None:
        """Score each root move to `depth` into `scores`, in order, as far as time allows."""
        alpha = -WIN - 1
        for move in moves:
            child = state.play(state.move_at(*move))
            score = -self._negamax(child, depth - 1, -WIN - 1, -alpha, 1)
            scores[move] = score
            alpha = max(alpha, score)

    def _negamax(self, state: TraxState, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if time.perf_counter() > self._deadline:
            raise _OutOfTime
        if state.winner is not None:
            return WIN - ply if state.winner == state.seat else -(WIN - ply)
        # Moving X then Y and Y then X give one position (tiles have no owner), so half the
        # nodes two moves deep are met twice; their outlook is the costly part.
        position = (state.seat, frozenset(state.tiles.items()))
        known = self._outlooks.get(position)
        if known is None:
            known = self._outlooks[position] = outlook(state)
        wins, quiet, legal = known
        if wins:
            return WIN - ply
        if not legal:
            return 0.0
        if not quiet:
            return -(WIN - ply - 1)
        if depth == 0:
            return evaluate(state, state.seat)
        history = self._history
        best = -WIN - 1
        for move in sorted(quiet, key=lambda move: -history.get(move, 0)):
            child = state.play(state.move_at(*move))
            score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        history[move] = history.get(move, 0) + depth * depth
                        break
        return best


BOTS: dict[str, type] = {"greedy": TraxGreedyBot, "search": TraxSearchBot}
