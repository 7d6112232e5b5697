"""Whole games and matches: random play never raises, checkers are conserved, and every
record replays and validates."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.takhteh import GAME
from referee.players.registry import make_bot
from referee.records.model import Player
from referee.records.replay import final_state
from referee.tournament.play import GameSetup, play_game
from referee.validator.check import validate_record
from tests.games.takhteh.helpers import random_game, random_match

seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_random_games_never_raise_and_every_record_replays(seed: int) -> None:
    record = random_game(random.Random(seed))
    report = validate_record(record, "random", 1)
    assert report.valid, [d.one_line() for d in report.diagnostics]
    outcome = final_state(record).outcome()
    assert outcome is not None and outcome.points in (1, 2)


@settings(max_examples=10, deadline=None)
@given(seeds, st.integers(2, 5))
def test_random_matches_never_raise_and_each_game_replays(seed: int, length: int) -> None:
    """The winner of each game starts the next, rolling two dice (no opening roll)."""
    records = random_match(random.Random(seed), length)
    for number, record in enumerate(records, 1):
        assert record.match is not None and record.match.game == number
        if number > 1:
            assert record.opening_rolls == [] and record.match.first is not None
            previous = records[number - 2].result
            assert previous is not None and record.match.first == previous.winner
            assert record.turns[0].seat == record.match.first
        assert validate_record(record, "match", number).valid
    final = records[-1].match
    assert final is not None and records[-1].result is not None
    assert final.score[records[-1].result.winner] + records[-1].result.points >= length


def test_game_loop_plays_bots_to_the_end() -> None:
    bots = [make_bot("takhteh", "greedy"), make_bot("takhteh", "random")]
    players = [Player(name="greedy", kind="bot"), Player(name="random", kind="bot")]
    record = play_game(GameSetup(GAME, GAME.ruleset(), players, "loop"), bots)
    assert record.result is not None and record.result.reason == "rules"
    assert record.opening_rolls and record.opening_rolls[-1][0] != record.opening_rolls[-1][1]
    assert validate_record(record, "loop", 1).valid


def test_a_wrong_move_in_a_record_is_reported_with_its_rule() -> None:
    record = random_game(random.Random(7))
    turns = list(record.turns)
    turns[0] = turns[0].model_copy(update={"move": "24/10"})
    report = validate_record(record.model_copy(update={"turns": turns}), "bad", 1)
    assert not report.valid
    assert report.diagnostics[0].code.startswith("takhteh.") and report.diagnostics[0].turn == 1
    assert report.diagnostics[0].legal
