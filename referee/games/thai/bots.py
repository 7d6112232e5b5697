"""Thai checkers bots: `greedy` (one ply) and `alphabeta` (iterative deepening)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from referee.games.base import State
from referee.games.bot import Bot, GreedyBot, MoveInfo
from referee.games.thai.rules import BLACK, ThaiMove, ThaiState
from referee.games.thai.search import SearchBot

MAN = 100
KING = 250
"""A flying king outweighs a man by far, but it must land right behind what it takes, which
keeps it weaker than an international draughts king."""

ADVANCE = 4
"""Per row a man has advanced: men near the far row are close to being crowned."""

WIN = 1_000_000
"""The score of a won position; a win in fewer plies scores higher."""

_ROWS = tuple(0xF << (4 * row) for row in range(8))


def material(state: State, seat: int) -> float:
    """Men and kings, weighted, of `seat` minus the opponent's."""
    assert isinstance(state, ThaiState)
    kings = state.kings
    own, other = (state.black, state.white) if seat == BLACK else (state.white, state.black)
    return MAN * ((own & ~kings).bit_count() - (other & ~kings).bit_count()) + KING * (
        (own & kings).bit_count() - (other & kings).bit_count()
    )


def evaluate(state: ThaiState, seat: int) -> int:
    """Material plus how far the men have come, for `seat`."""
    kings = state.kings
    black_men, white_men = state.black & ~kings, state.white & ~kings
    # Black's men move up (towards row 0), White's down; a man's start rows count 0 and 1.
    advance = 0
    for row, mask in enumerate(_ROWS):
        advance += (7 - row) * (black_men & mask).bit_count() - row * (white_men & mask).bit_count()
    score = int(material(state, BLACK)) + ADVANCE * advance
    return score if seat == BLACK else -score


def exposed(state: State, seat: int) -> float:
    """`evaluate` less the most the opponent, to move, can capture at once.

    Capturing is compulsory, so a piece left en prise is usually lost: counting the
    opponent's best immediate capture keeps a one-ply bot from walking into it.
    """
    assert isinstance(state, ThaiState)
    score = evaluate(state, seat)
    if state.turn != seat and state.has_capture():
        before = material(state, seat)
        score -= max(before - material(state.play(move), seat) for move in state.legal_moves())
    return score


class ThaiGreedyBot(GreedyBot):
    description = (
        "one ply: the move after which material and advancement, less the opponent's best "
        "immediate capture, score best"
    )

    def __init__(self) -> None:
        super().__init__(exposed)


class _OutOfTime(Exception):
    """The time limit ran out in the middle of a search."""


class AlphaBetaBot(Bot):
    """Negamax with alpha-beta pruning, deepened one ply at a time.

    It stops at `depth` plies or when `time` seconds are used up, whichever comes first
    (0 turns a limit off; at least depth 1 is always finished), and plays the best move of
    the deepest search it finished. Captures pending at the horizon are searched on (they are
    compulsory, so a position in the middle of an exchange is never evaluated). Moves are
    shuffled with the bot's seeded generator first, so equal moves are chosen at random but
    reproducibly.
    """

    name = "alphabeta"
    description = "alpha-beta search with iterative deepening to a depth or time limit"

    QUIESCENCE = 8
    """Plies of pending captures searched past the nominal depth."""

    def __init__(self, depth: int = 6, time: float = 1.0) -> None:
        super().__init__()
        if depth < 0 or time < 0:
            raise ValueError("depth and time are 0 (no limit) or positive")
        if depth == 0 and time == 0:
            raise ValueError("give a depth or a time limit")
        self.depth = depth
        self.time = time
        self.nodes = 0
        self._deadline: float | None = None

    def choose(self, state: State, history: Sequence[Any] = ()) -> ThaiMove:
        assert isinstance(state, ThaiState)
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        self.rng.shuffle(moves)
        moves = self.order(moves)
        self.nodes = 0
        budget = self.seconds_for_move(self.time)
        self._deadline = time.perf_counter() + budget if budget else None
        best = moves[0]
        depth = 1
        while not self.depth or depth <= self.depth:
            try:
                score, move = self._root(state, moves, depth)
            except _OutOfTime:
                break
            best = move
            # Scores in hundredths of a man, for the mover.
            self.info = MoveInfo(score, depth, self.nodes)
            moves.remove(move)
            moves.insert(0, move)
            if abs(score) >= WIN - 1000:
                break
            depth += 1
        return best

    def order(self, moves: list[ThaiMove]) -> list[ThaiMove]:
        """Longer capture lines first; the sort is stable, so ties keep their order."""
        return sorted(moves, key=lambda move: -len(move.path) if move.capture else 0)

    def _root(self, state: ThaiState, moves: list[ThaiMove], depth: int) -> tuple[int, ThaiMove]:
        alpha, beta = -WIN - 1, WIN + 1
        best_move = moves[0]
        for move in moves:
            score = -self._search(state.play(move), depth - 1, -beta, -alpha, 1, depth > 1)
            if score > alpha:
                alpha, best_move = score, move
        return alpha, best_move

    def _search(
        self, state: ThaiState, depth: int, alpha: int, beta: int, ply: int, timed: bool
    ) -> int:
        self.nodes += 1
        deadline = self._deadline
        checking = timed and deadline is not None and not self.nodes & 255
        if checking and time.perf_counter() > deadline:  # type: ignore[operator]
            raise _OutOfTime
        outcome = state.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0
            return WIN - ply if outcome.winner == state.turn else ply - WIN
        moves = state.legal_moves()
        if depth <= 0 and (not moves[0].capture or depth <= -self.QUIESCENCE):
            return evaluate(state, state.turn)
        best = -WIN - 1
        for move in self.order(moves):
            score = -self._search(state.play(move), depth - 1, -beta, -alpha, ply + 1, timed)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


BOTS: dict[str, type[Bot]] = {
    "greedy": ThaiGreedyBot,
    "alphabeta": AlphaBetaBot,
    "search": SearchBot,
}
