"""GNU Backgammon Position IDs as the program reads and shows them (docs/takhteh.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import NotationError
from referee.games.takhteh import GAME, position_id
from referee.games.takhteh.rules import START
from tests.games.takhteh.reference import random_board

RULESET = GAME.ruleset()


def test_start_position_id() -> None:
    assert position_id.encode(START) == "4HPwATDgc/ABMA"
    assert position_id.decode("4HPwATDgc/ABMA") == START
    assert GAME.format_position(GAME.initial_state(RULESET)) == "4HPwATDgc/ABMA"


def test_after_opening_31_with_the_opponent_on_roll() -> None:
    """8/5 6/5 played: the player NOT on roll (who just moved) comes first in the key."""
    state = GAME.parse_position(RULESET, "4HPwATDgc/ABMA").apply_chance((3, 1))
    after = state.play(GAME.parse_move(state, "8/5 6/5"))
    assert GAME.format_position(after) == "sGfwATDgc/ABMA"
    ids = {GAME.format_position(state.play(move)) for move in state.legal_moves()}
    assert "sGfwATDgc/ABMA" in ids and len(ids) == 16


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_encode_decode_round_trip(seed: int) -> None:
    board = random_board(random.Random(seed))
    text = position_id.encode(board)
    assert len(text) == 14
    assert position_id.decode(text) == board
    assert position_id.encode(position_id.decode(text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "4HPwATDgc/ABM",  # too short
        "4HPwATDgc/ABMA=",  # padding
        "4HPwATDgc/AB!A",  # not Base64
        "//////////////",  # more than 15 checkers
        "4HPwATDgc/ABMB",  # bits after the last point
    ],
)
def test_invalid_position_ids(text: str) -> None:
    with pytest.raises(NotationError):
        position_id.decode(text)


def test_parse_position_puts_seat_0_on_roll_waiting_for_the_dice() -> None:
    state = GAME.parse_position(RULESET, "sGfwATDgc/ABMA")
    assert state.is_chance() and state.to_move == 0
    assert GAME.format_position(state) == "sGfwATDgc/ABMA"


def test_position_with_a_player_borne_off_is_that_players_win() -> None:
    board = [0] * 26
    board[20] = -15
    state = GAME.parse_position(RULESET, position_id.encode(tuple(board)))
    outcome = state.outcome()
    assert outcome is not None and (outcome.winner, outcome.points) == (0, 2)
    board[20], board[3] = -14, 1
    assert GAME.parse_position(RULESET, position_id.encode(tuple(board))).outcome() is None
