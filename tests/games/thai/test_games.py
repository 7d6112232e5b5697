"""Whole games: random play never raises and ends by a rule or the cap; rendering."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.thai import ThaiState
from referee.players.registry import make_bot
from referee.records.model import Player, Reason
from referee.tournament.play import GameSetup, play_game
from tests.games.thai.helpers import GAME, RULESET, position, positions


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), positions(max_pieces=16) | st.none())
def test_random_games_never_raise_and_end_by_a_rule_or_the_cap(
    seed: int, start: str | None
) -> None:
    rng = random.Random(seed)
    state: ThaiState = GAME.initial_state(RULESET, start)
    plies = 0
    while state.outcome() is None and plies < GAME.turn_cap:
        legal = state.legal_moves()
        assert legal
        move = rng.choice(legal)
        text = GAME.format_move(state, move)
        assert GAME.parse_move(state, text) == move
        state = state.play(move)
        plies += 1
    outcome = state.outcome()
    if outcome is None:
        assert plies == GAME.turn_cap
    else:
        assert not state.legal_moves()
        assert outcome.reason == "rules"
        assert (outcome.winner is None) == (outcome.points == 0)
        assert outcome.detail


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_the_game_loop_plays_thai_to_an_end(seed: int) -> None:
    players = [Player(name="a", kind="bot", spec="random"), Player(name="b", kind="bot")]
    bots = [make_bot("thai", "random"), make_bot("thai", "greedy")]
    record = play_game(GameSetup(GAME, RULESET, players, str(seed)), bots)
    assert record.result is not None
    assert record.result.reason in (Reason.RULES, Reason.ADJUDICATED)
    assert len(record.turns) <= GAME.turn_cap


def test_text_board() -> None:
    text = GAME.render_text(position("B:W1,K14:B30,K32"))
    lines = text.splitlines()
    assert lines[1] == "   1 |   w   .   .   . | 4"
    assert lines[4] == "  13 | .   W   .   .   | 16"
    assert lines[8] == "  29 | .   b   .   B   | 32"
    assert lines[-1] == "Black to move"
    assert GAME.render_text(position("W:W28:B32")).splitlines()[-1] == (
        "Black has won: White has no legal move"
    )


def test_svg_board_is_standalone_xml() -> None:
    svg = GAME.render_svg(position("B:W1,K14:B30,K32"))
    root = ElementTree.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    circles = root.findall("{http://www.w3.org/2000/svg}circle")
    assert len(circles) == 6  # four pieces, two of them kings with a crown ring
