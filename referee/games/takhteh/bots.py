"""Takhteh bots: a one-ply greedy player, an expectimax player over the dice, and `tdnet`,
which weighs its plays with the learned network of `net.py`.

The first two use `evaluate_board`, a hand-made evaluation of a position seen from the
player who has just moved (the opponent is about to roll), in pips: the race (pip counts and
checkers off), points made (weighted by where they are), primes, checkers on the bar against
closed home points, and blots weighted by the rolls that hit them and the pips a hit costs.
It is antisymmetric: a position is worth to one player minus what it is worth to the other.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from referee.games.agent import Bot, MoveInfo
from referee.games.dice import TURN_OUTCOMES
from referee.games.search import Budget, OutOfTime
from referee.games.takhteh.net import Net, equity
from referee.games.takhteh.rules import (
    Board,
    TakhtehMove,
    TakhtehState,
    apply_legs,
    flip,
    legal_plays,
)

GAME_POINT = 1000.0
"""A point won, in the evaluation's units (pips): a game won scores this times its points, far
above any position's evaluation. The look-ahead averages won games with evaluated positions
over the dice, so this is a value, not a search's win score (`referee.games.search.WIN`)."""

# How much a made point (two or more checkers) is worth by where it is, for the player whose
# points they are: the home board and the bar point block the opponent's way home, and points
# in the opponent's home board are anchors.
_POINT_VALUE = (0.0, 2, 3, 5, 8, 10, 9, 8, 5, 3, 2, 1.5, 1, 1, 1, 1, 1, 1, 3, 4, 5, 5, 3, 2, 1)
# Rolls out of 36 that let one opposing checker at distance k hit a blot, blocks ignored.
_SHOTS = (0, 11, 12, 14, 15, 15, 17, 6, 6, 5, 3, 2, 3, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1)


def _side(b: Board) -> float:
    """The positional part of the evaluation for the player the board is seen from."""
    score = 0.0
    run = longest = 0
    for p in range(1, 25):
        n = b[p]
        if n >= 2:
            score += _POINT_VALUE[p]
            if n > 4:
                score -= 0.5 * (n - 4)
            run += 1
            if run > longest:
                longest = run
        else:
            run = 0
            if n == 1:
                # A blot: the opposing checkers behind it (their bar is index 0) shoot at it.
                shots = 0
                for x in range(max(0, p - 24), p):
                    if b[x] < 0:
                        shots += _SHOTS[p - x]
                if shots:
                    score -= min(shots, 36) / 36 * (25 - p + 6)
    if longest >= 3:
        score += 2.5 * longest * longest
    closed = sum(1 for p in range(1, 7) if b[p] >= 2)
    return score + 2.0 * closed * closed


def _bar_pressure(b: Board) -> float:
    """Opposing checkers on the bar against the mover's closed home points."""
    waiting = -b[0]
    if not waiting:
        return 0.0
    closed = sum(1 for p in range(1, 7) if b[p] >= 2)
    return waiting * (4.0 + 2.0 * closed + (20.0 if closed == 6 else 0.0))


def evaluate_board(b: Board) -> float:
    """How good `b` is, in pips, for the player it is seen from (who has just moved)."""
    mine_pips = their_pips = 0
    mine_on = their_on = 0
    mine_back = 0
    their_back = 25
    for p in range(26):
        n = b[p]
        if n > 0:
            mine_pips += p * n
            mine_on += n
            mine_back = p
        elif n < 0:
            their_pips -= (25 - p) * n
            their_on -= n
            if p < their_back:
                their_back = p
    race = their_pips - mine_pips + 3.0 * (their_on - mine_on)
    if mine_back < their_back:
        # No contact left: a pure race.
        return race
    other = flip(b)
    return race + _side(b) - _side(other) + _bar_pressure(b) - _bar_pressure(other)


def terminal_value(after: Board) -> float | None:
    """The value of a play that bears off the mover's last checker, else None."""
    if max(after) > 0:
        return None
    return GAME_POINT * (2 if sum(after) == -15 else 1)


def evaluate(state: TakhtehState, seat: int) -> float:
    """`evaluate_board` for `seat` in any state (the interface GreedyBot-style bots use)."""
    outcome = state.outcome()
    if outcome is not None:
        value = GAME_POINT * outcome.points
        return value if outcome.winner == seat else -value
    return evaluate_board(state.board_of(seat))


def _scored(board: Board, plays: list[TakhtehMove]) -> list[tuple[float, TakhtehMove, Board]]:
    scored = []
    for play in plays:
        after = apply_legs(board, play)
        value = terminal_value(after)
        scored.append((evaluate_board(after) if value is None else value, play, after))
    return scored


class TakhtehGreedyBot(Bot[TakhtehState, TakhtehMove]):
    name = "greedy"
    description = "the play whose position evaluates best (pips, points, primes, blots), one ply"

    def choose(self, state: TakhtehState, history: Sequence[Any] = ()) -> TakhtehMove:
        scored = _scored(state.board, state.legal_moves())
        best = max(score for score, _, _ in scored)
        return self.rng.choice([play for score, play, _ in scored if score == best])


class ExpectimaxBot(Bot[TakhtehState, TakhtehMove]):
    name = "expectimax"
    description = (
        "looks ahead over all 21 rolls of the opponent (and more plies with depth > 1), "
        "keeping the `top` plays of the evaluation at each decision"
    )

    def __init__(self, depth: int = 1, top: int = 6, time: float = 0.0) -> None:
        super().__init__()
        self.depth = max(1, int(depth))
        self.top = max(1, int(top))
        self.time = float(time)
        """Seconds per move; 0 for no limit. Plays are weighed best-first and a look-ahead cut
        by the limit is dropped, so the answer is the best play fully weighed by then."""
        self._budget = Budget(0)
        self.nodes = 0

    def choose(self, state: TakhtehState, history: Sequence[Any] = ()) -> TakhtehMove:
        """The play, and as `info` its value in pips for the mover (a game won scores
        1000 a point), the plies looked ahead and the positions evaluated."""
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        self._budget = Budget(self.seconds_for_move(self.time))
        scored = _scored(state.board, moves)
        self.nodes = len(scored)
        scored.sort(key=lambda item: -item[0])
        best_value = -float("inf")
        best: list[TakhtehMove] = [scored[0][1]]
        for score, play, after in scored[: self.top]:
            try:
                value = score if score >= GAME_POINT else self._after_value(after, self.depth)
            except OutOfTime:
                break
            if value > best_value:
                best_value, best = value, [play]
            elif value == best_value:
                best.append(play)
        if best_value == -float("inf"):
            self.info = MoveInfo(scored[0][0], 0, self.nodes)
        else:
            self.info = MoveInfo(best_value, self.depth, self.nodes)
        return self.rng.choice(best)

    def _after_value(self, board: Board, depth: int) -> float:
        """Expected value of `board` (seen from the player who just moved) over the next roll."""
        other = flip(board)
        total = 0.0
        for (high, low), chance in TURN_OUTCOMES:
            self._budget.check()
            replies = _scored(other, legal_plays(other, high, low))
            self.nodes += len(replies)
            if depth > 1:
                replies.sort(key=lambda item: -item[0])
                reply_value = -float("inf")
                for score, _, after in replies[: self.top]:
                    value = score if score >= GAME_POINT else self._after_value(after, depth - 1)
                    reply_value = max(reply_value, value)
            else:
                reply_value = max(score for score, _, _ in replies)
            total -= chance * reply_value
        return total


REPORTED_DECIMALS = 4
"""The decimals of the equity tdnet reports (a ten-thousandth of a point): the network's inputs
are rounded by a few millionths (`net.py`), so the digits beyond carry nothing. The plays are
compared at full precision, which is the same on every machine."""


@functools.cache
def _net() -> Net:
    """The shipped network, loaded on first use."""
    return Net.load()


class TDNetBot(Bot[TakhtehState, TakhtehMove]):
    name = "tdnet"
    description = (
        "a network evaluation learned by self-play (TD); weighs its `top` plays over the "
        "opponent's 21 rolls and best replies (depth=1), within `time` seconds a move"
    )

    def __init__(self, depth: int = 1, top: int = 8, time: float = 1.0) -> None:
        super().__init__()
        self.depth = min(1, max(0, int(depth)))
        self.top = max(1, int(top))
        self.time = float(time)
        """Seconds per move; 0 for no limit. Plays are weighed best-first by the network and
        one whose look-ahead the limit cuts is dropped: the answer is the best fully weighed."""
        self.nodes = 0

    def choose(self, state: TakhtehState, history: Sequence[Any] = ()) -> TakhtehMove:
        """The play, and as `info` its equity (expected points for the mover, a gammon
        counting 2), the plies looked ahead (0 or 1) and the positions the network rated."""
        moves = state.legal_moves()
        budget = Budget(self.seconds_for_move(self.time))
        board = state.board
        afters = [apply_legs(board, move) for move in moves]
        for move, after in zip(moves, afters, strict=True):
            value = terminal_value(after)
            if value is not None:
                self.info = MoveInfo(value / GAME_POINT, 0, 0)
                return move
        values = equity(_net().probabilities(afters))
        self.nodes = len(afters)
        if len(moves) == 1:
            self.info = MoveInfo(round(float(values[0]), REPORTED_DECIMALS), 0, self.nodes)
            return moves[0]
        order = sorted(range(len(moves)), key=lambda i: -values[i])
        if self.depth == 0:
            return self._pick(moves, [(float(values[i]), i) for i in order], 0)
        weighed = [(float(values[order[0]]), order[0])]
        looked: list[tuple[float, int]] = []
        for i in order[: self.top]:
            value = self._look_ahead(afters[i], budget)
            if value is None:
                break
            looked.append((value, i))
        return self._pick(moves, looked or weighed, 1 if looked else 0)

    def _pick(
        self, moves: list[TakhtehMove], scored: list[tuple[float, int]], depth: int
    ) -> TakhtehMove:
        best = max(value for value, _ in scored)
        self.info = MoveInfo(round(best, REPORTED_DECIMALS), depth, self.nodes)
        return self.rng.choice([moves[i] for value, i in scored if value == best])

    def _look_ahead(self, after: Board, budget: Budget) -> float | None:
        """Expected points of `after` (seen from the player who just moved) over the
        opponent's rolls, each answered by the reply the network rates best; None when the
        budget runs out first."""
        other = flip(after)
        # A turn bears off four checkers at most: with more left no reply ends the game.
        may_finish = sum([n for n in other if n > 0]) <= 4
        replies: list[Board] = []
        spans: list[tuple[float, int, int, float | None]] = []
        for (high, low), chance in TURN_OUTCOMES:
            if budget.passed():
                return None
            start = len(replies)
            won: float | None = None
            plays = legal_plays(other, high, low)
            if may_finish:
                for play in plays:
                    reply = apply_legs(other, play)
                    value = terminal_value(reply)
                    if value is not None:
                        won = value / GAME_POINT
                        break
                    replies.append(reply)
                if won is not None:
                    del replies[start:]
            else:
                replies += [apply_legs(other, play) for play in plays]
            spans.append((chance, start, len(replies), won))
        values = equity(_net().probabilities(replies)) if replies else None
        self.nodes += len(replies)
        total = 0.0
        for chance, start, end, won in spans:
            best = won if won is not None else float(values[start:end].max())  # type: ignore[index]
            total -= chance * best
        return total


BOTS: dict[str, type[Bot[TakhtehState, TakhtehMove]]] = {
    "greedy": TakhtehGreedyBot,
    "expectimax": ExpectimaxBot,
    "tdnet": TDNetBot,
}
