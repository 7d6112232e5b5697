"""Trax and Thai checkers analysed against their search bots: in a game where a move throws
away a forced win, the analysis finds that move, a blunder, and the winning move as the best.
Whether the win was there is worked out here by the rules alone (a small exhaustive search),
not by the search the reference runs."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.analysis.summary import BLUNDER
from referee.games.reference import EngineSpecError, search_chance
from referee.games.search import WIN
from referee.games.thai import GAME as THAI
from referee.games.trax import GAME as TRAX
from tests.analysis.helpers import analysed, record

TRAX_MOVES = ["@0/", "B1+", "A0/", "@1\\", "@2/", "C3/", "A3/"]
"""A Trax game after which seat 1 wins at once with B0/ (or C0\\), and A0+ lets seat 0 win."""

THAI_START = "B:W19,K32:BK7,10,14,21,22,25"
"""Black (seat 0) to move wins in three plies with 7-16; 10-6 lets the win go."""


def forced_win(state: Any, winner: int, plies: int) -> bool:
    """Whether `winner` wins from `state` within `plies` plies whatever the other side plays,
    by the rules alone."""
    outcome = state.outcome()
    if outcome is not None:
        return bool(outcome.winner == winner)
    if plies <= 0:
        return False
    children = [state.play(move) for move in state.legal_moves()]
    if state.to_move == winner:
        return any(forced_win(child, winner, plies - 1) for child in children)
    return all(forced_win(child, winner, plies - 1) for child in children)


def test_trax_the_move_that_throws_the_win_away_is_a_blunder() -> None:
    state = TRAX.initial_state(TRAX.ruleset())
    for text in TRAX_MOVES:
        state = TRAX.play_text(state, text)
    assert forced_win(state, 1, 1)
    bad = TRAX.play_text(state, "A0+")
    assert forced_win(bad, 0, 1)  # and it hands the opponent a win at once
    turns = [{"seat": index % 2, "move": move} for index, move in enumerate([*TRAX_MOVES, "A0+"])]
    analysis = analysed(record("trax", turns))
    blunder = analysis.turns[-1]
    assert blunder.error == 1.0 >= BLUNDER
    assert blunder.best is not None and forced_win(TRAX.play_text(state, blunder.best), 1, 0)
    largest = max(analysis.turns[:-1], key=lambda turn: turn.error)
    assert analysis.seats[1].blunders >= 1 and largest.error <= blunder.error


def test_thai_the_move_that_throws_the_win_away_is_a_blunder() -> None:
    state = THAI.parse_position(THAI.ruleset(), THAI_START)
    assert forced_win(state, 0, 3)
    assert not forced_win(THAI.play_text(state, "10-6"), 0, 4)
    analysis = analysed(record("thai", [{"seat": 0, "move": "10-6"}], start=THAI_START))
    (turn,) = analysis.turns
    assert turn.value == 1.0 and turn.error >= BLUNDER
    assert turn.best is not None and forced_win(THAI.play_text(state, turn.best), 0, 2)
    assert analysis.seats[0].blunders == 1 and analysis.seats[0].decisions == 1


def test_thai_a_move_that_keeps_the_win_is_no_error() -> None:
    analysis = analysed(record("thai", [{"seat": 0, "move": "7-16"}], start=THAI_START))
    assert analysis.turns[0].error == 0.0 and analysis.turns[0].best is None


def test_a_search_score_becomes_a_chance_of_winning() -> None:
    assert search_chance(WIN - 3, 150) == 1.0 and search_chance(3 - WIN, 150) == 0.0
    assert search_chance(0, 150) == 0.5
    assert search_chance(150, 150) == pytest.approx(1 / (1 + 2.718281828459045**-1))
    assert search_chance(-40, 20) == pytest.approx(1 - search_chance(40, 20))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:depth=13", "depth must be a whole number from 0 to 12"),
        ("search:depth=2.5", "depth must be a whole number"),
        ("search:scale=nan", "scale must be a number"),
        ("search:scale=0", "scale must be a number from 0.001"),
        ("search:width=3", "no option 'width'"),
        ("search:depth", "'depth' is not key=value"),
        ("exact", "Thai checkers has no reference 'exact'"),
        ("", "Thai checkers has no reference ''"),
    ],
)
def test_a_bad_spec_is_refused(spec: str, message: str) -> None:
    with pytest.raises(EngineSpecError, match=message):
        THAI.reference(spec)


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet="search:depthscale=0123456789.,-+ einfa", max_size=30) | st.text(max_size=20)
)
def test_any_spec_makes_a_reference_or_one_error(spec: str) -> None:
    try:
        reference = THAI.reference(spec)
    except EngineSpecError as error:
        assert "\n" not in str(error)
        return
    assert spec.split(":")[0].strip() == "search"
    assert THAI.reference(reference.spec).spec == reference.spec


def test_the_spec_is_written_out_with_every_option() -> None:
    assert THAI.reference().spec == "search:depth=4,scale=150"
    assert THAI.reference("search:scale=80").spec == "search:depth=4,scale=80"
    assert TRAX.reference().spec == "search:depth=1,scale=20"
