"""Shared helpers of the Thai checkers tests: positions from FEN, move lists as text, random
positions for hypothesis."""

from __future__ import annotations

from hypothesis import strategies as st

from referee.games import get_game
from referee.games.thai import ThaiGame, ThaiState

GAME = get_game("thai")
assert isinstance(GAME, ThaiGame)
RULESET = GAME.ruleset()


def position(fen: str) -> ThaiState:
    return GAME.parse_position(RULESET, fen)


def moves(state: ThaiState) -> set[str]:
    return {GAME.format_move(state, move) for move in state.legal_moves()}


def play(state: ThaiState, *texts: str) -> ThaiState:
    for text in texts:
        state = state.play(GAME.parse_move(state, text))
    return state


@st.composite
def positions(draw: st.DrawFn, max_pieces: int = 14) -> str:
    """A FEN of a legal-looking position: no man on its own far row, kings anywhere."""
    count = draw(st.integers(min_value=1, max_value=max_pieces))
    squares = draw(st.lists(st.integers(1, 32), min_size=count, max_size=count, unique=True))
    white, black = [], []
    for number in squares:
        colour = draw(st.sampled_from("wb"))
        far = number <= 4 if colour == "b" else number >= 29
        king = far or draw(st.integers(0, 3)) == 0
        item = ("K" if king else "") + str(number)
        (white if colour == "w" else black).append((number, item))
    turn = draw(st.sampled_from("BW"))
    section = {
        name: ",".join(item for _, item in sorted(items))
        for name, items in (("W", white), ("B", black))
    }
    return f"{turn}:W{section['W']}:B{section['B']}"
