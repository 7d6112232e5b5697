"""Thai checkers bots: `greedy` (one ply); `search` and its former name `alphabeta`, with
lighter defaults, live in `search.py`."""

from __future__ import annotations

from referee.games.agent import Bot, GreedyBot
from referee.games.thai.geometry import BLACK
from referee.games.thai.rules import ThaiMove, ThaiState
from referee.games.thai.search import AlphaBetaBot, SearchBot

MAN = 100
KING = 250
"""A flying king outweighs a man by far, but it must land right behind what it takes, which
keeps it weaker than an international draughts king."""

ADVANCE = 4
"""Per row a man has advanced: men near the far row are close to being crowned."""

_ROWS = tuple(0xF << (4 * row) for row in range(8))


def material(state: ThaiState, seat: int) -> float:
    """Men and kings, weighted, of `seat` minus the opponent's."""
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


def exposed(state: ThaiState, seat: int) -> float:
    """`evaluate` less the most the opponent, to move, can capture at once.

    Capturing is compulsory, so a piece left en prise is usually lost: counting the
    opponent's best immediate capture keeps a one-ply bot from walking into it.
    """
    score: float = evaluate(state, seat)
    if state.turn != seat and state.has_capture():
        before = material(state, seat)
        score -= max(before - material(state.play(move), seat) for move in state.legal_moves())
    return score


class ThaiGreedyBot(GreedyBot[ThaiState, ThaiMove]):
    description = (
        "one ply: the move after which material and advancement, less the opponent's best "
        "immediate capture, score best"
    )

    def __init__(self) -> None:
        super().__init__(exposed)


BOTS: dict[str, type[Bot[ThaiState, ThaiMove]]] = {
    "greedy": ThaiGreedyBot,
    "alphabeta": AlphaBetaBot,
    "search": SearchBot,
}
