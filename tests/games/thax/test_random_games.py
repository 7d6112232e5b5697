"""500 random THAX games: the invariants of docs/rules/thax.md after every turn."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.agent import RandomBot
from referee.games.thax import GAME, PASS, ThaxState
from referee.records.io import parse_record_json, record_to_json
from referee.records.model import Player
from referee.records.replay import replay
from referee.tournament.play import GameSetup, play_game
from referee.validator.check import validate_record

PLAYERS = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_keep_the_invariants_and_validate(seed: int) -> None:
    record = play_game(
        GameSetup(GAME, GAME.ruleset(), PLAYERS, str(seed)), [RandomBot(), RandomBot()]
    )
    steps = list(replay(record))
    assert len(steps) == len(record.turns)
    for step, turn, following in zip(steps, record.turns, [*record.turns[1:], None], strict=True):
        before, after = step.before, step.after
        assert isinstance(before, ThaxState) and isinstance(after, ThaxState)
        for side in after.sides:
            assert all(0 <= covered <= n for n, covered in zip(range(1, 6), side, strict=True))
        if step.move == PASS:
            assert before.legal_moves() == [PASS]  # a pass only when no option exists
        a, b = turn.roll or (0, 0)
        if following is not None:
            extra_turn = a == b and a != 6
            assert (following.seat == turn.seat) == extra_turn
    assert validate_record(parse_record_json(record_to_json(record)), "random", 1).valid
