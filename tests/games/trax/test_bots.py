"""Trax bots: greedy's three rules, the search bot's double threats and time limit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.trax import GAME, TraxState
from referee.games.trax.bots import (
    TraxGreedyBot,
    TraxSearchBot,
    TraxThreatBot,
    can_win_at_once,
    outlook,
)
from referee.players.registry import describe_bots, make_bot
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game
from tests.games.bot_clock import BUSY_MACHINE, timed
from tests.games.trax.helpers import position, random_state

PLAYERS = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]

DOUBLE_THREATS = [
    ("@0+ A0/ A0\\ B3\\ @1+", "A3/"),
    ("@0/ A2+ A0/ A4+ @4/", "A1\\"),
    ("@0+ A2\\ @1/ @2/ B3+ @2/", "A1\\"),
]
"""Positions with no win at once but one move after which every reply leaves a win."""


MIDGAME = "@0+ B1+ C1\\ C2\\ C3+ D2+ E1\\ E0+ E4\\ F2\\ A4/ B5\\ @3+ H2\\"
"""A position with about 90 moves, most of them forcing."""


def started(
    bot: TraxGreedyBot | TraxSearchBot | TraxThreatBot, state: TraxState, seed: str = "s"
) -> None:
    bot.start_game(state.ruleset, state.to_move, seed)


def wins_at_once(state: TraxState, token: str) -> bool:
    return state.play(GAME.parse_move(state, token)).winner == state.to_move


@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_greedy_wins_at_once_when_it_can(seed: str) -> None:
    state = position("@0/ A2\\ A3/")
    bot = TraxGreedyBot()
    started(bot, state, seed)
    assert wins_at_once(state, GAME.format_move(state, bot.choose(state)))


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(GAME.variants), choices=st.lists(st.integers(0, 10**6), max_size=30))
def test_greedy_wins_at_once_else_stays_safe(variant: str, choices: list[int]) -> None:
    """Greedy's contract on random positions: a winning move if there is one, else a move after
    which the opponent cannot win at once, if there is one."""
    state = random_state(variant, choices)
    if state.box is None or state.is_terminal():
        return
    bot = TraxGreedyBot()
    started(bot, state)
    move = bot.choose(state)
    after = state.play(move)
    wins, quiet, _ = outlook(state)
    if wins:
        assert after.winner == state.to_move
        return
    safe_exists = any(
        not can_win_at_once(state.play(state.move_at(key, tile))) for key, tile in quiet
    )
    if safe_exists:
        assert after.winner is None and not can_win_at_once(after)


@pytest.mark.parametrize(("moves", "answer"), DOUBLE_THREATS)
def test_search_finds_the_move_that_wins_in_two(moves: str, answer: str) -> None:
    """Depth 2: after the answer, every reply of the opponent leaves a win at once."""
    state = position(moves)
    assert not outlook(state)[0]
    bot = TraxSearchBot(depth=2, time=60)
    started(bot, state)
    assert GAME.format_move(state, bot.choose(state)) == answer


def test_search_takes_a_win_at_once() -> None:
    state = position("@0/ A2\\ A3/")
    bot = TraxSearchBot(depth=3, time=60)
    started(bot, state)
    assert wins_at_once(state, GAME.format_move(state, bot.choose(state)))


def test_search_answers_within_its_time_limit() -> None:
    """A deep search is cut at the limit and still answers with a legal move."""
    state = position(MIDGAME)
    bot = TraxSearchBot(depth=8, time=0.3)
    started(bot, state)
    move, cpu, wall = timed(lambda: bot.choose(state))
    assert cpu < 0.3 + 0.25
    assert wall < 0.3 + BUSY_MACHINE
    assert move in state.legal_moves()


@pytest.mark.parametrize("spec", ["greedy", "search:depth=2,time=5", "threat:depth=1,time=5"])
def test_bots_replay_the_same_game_from_the_same_seed(spec: str) -> None:
    """Seeded per game: the same seed gives the same game (no time cut at this depth)."""

    def game(seed: str) -> list[str]:
        bots = [make_bot("trax", spec), make_bot("trax", "random")]
        return [
            t.move for t in play_game(GameSetup(GAME, GAME.ruleset(), PLAYERS, seed), bots).turns
        ]

    assert game("x") == game("x")
    assert game("x") != game("y")


def test_bots_are_listed_with_their_options() -> None:
    listed = {info.name: info for info in describe_bots("trax")}
    assert set(listed) == {"random", "greedy", "search", "threat"}
    assert listed["search"].options == {"depth": "3", "time": "1.0"}
    assert listed["threat"].options == {"depth": "8", "time": "1.0"}
    with pytest.raises(ValueError, match="depth"):
        TraxSearchBot(depth=0)
    with pytest.raises(ValueError, match="time"):
        TraxThreatBot(time=-1)


@pytest.mark.parametrize("spec", ["search:depth=2,time=0", "threat:depth=2,time=0"])
def test_time_0_is_no_limit_and_the_search_stops_at_its_depth(spec: str) -> None:
    """With no time limit a search plays the same game whatever the machine's speed (the
    rating tables of docs/bots.md are written by such a command)."""
    bot = make_bot("trax", spec)
    assert bot.time == 0
    state = GAME.initial_state(GAME.ruleset())
    for text in ["@0+", "B1/", "A2\\", "C1+"]:
        state = state.play(GAME.parse_move(state, text))
    bot.start_game(GAME.ruleset(), state.seat, "t")
    move = bot.choose(state)
    assert move in state.legal_moves()
    assert bot.info is not None and bot.info.depth is not None and bot.info.depth <= 2


@pytest.mark.parametrize("variant", GAME.variants)
def test_greedy_beats_random(variant: str) -> None:
    """Ten games with colours alternating: greedy wins at least nine."""
    wins = 0
    for index in range(10):
        greedy_seat = index % 2
        specs = ["random", "random"]
        specs[greedy_seat] = "greedy"
        bots = [make_bot("trax", spec) for spec in specs]
        record = play_game(GameSetup(GAME, GAME.ruleset(variant), PLAYERS, f"g{index}"), bots)
        assert record.result is not None
        wins += record.result.winner == greedy_seat
    assert wins >= 9


def test_threat_takes_a_win_at_once() -> None:
    state = position("@0/ A2\\ A3/")
    bot = TraxThreatBot(time=60)
    started(bot, state)
    assert wins_at_once(state, GAME.format_move(state, bot.choose(state)))


@pytest.mark.parametrize(("moves", "answer"), DOUBLE_THREATS)
def test_threat_finds_the_double_threat(moves: str, answer: str) -> None:
    """One move deep already: after the answer the opponent has no move that stops every
    threat, so no reply needs a search."""
    state = position(moves)
    bot = TraxThreatBot(depth=1, time=60)
    started(bot, state)
    assert GAME.format_move(state, bot.choose(state)) == answer


@settings(max_examples=20, deadline=None)
@given(variant=st.sampled_from(GAME.variants), choices=st.lists(st.integers(0, 10**6), max_size=30))
def test_threat_stops_a_threat_when_it_can(variant: str, choices: list[int]) -> None:
    """The threat bot never leaves the opponent a win at once when some move prevents it."""
    state = random_state(variant, choices)
    if state.box is None or state.is_terminal():
        return
    bot = TraxThreatBot(depth=1, time=60)
    started(bot, state)
    after = state.play(bot.choose(state))
    if after.winner == state.to_move:
        return
    _, quiet, _ = outlook(state)
    safe_exists = any(
        not can_win_at_once(state.play(state.move_at(key, tile))) for key, tile in quiet
    )
    if safe_exists:
        assert after.winner is None and not can_win_at_once(after)


@pytest.mark.parametrize("limit", [0.05, 0.1])
def test_threat_answers_within_its_time_limit(limit: float) -> None:
    """The clock is read at every node and between quiet leaves: moves of a big position come
    within the limit, but for a margin (bot_clock: CPU time bounded tightly)."""
    state = position(MIDGAME)
    spent, walls = [], []
    for seed in "abcdefgh":
        bot = TraxThreatBot(time=limit)
        started(bot, state, seed)
        move, cpu, wall = timed(lambda bot=bot: bot.choose(state))
        spent.append(cpu)
        walls.append(wall)
        assert move in state.legal_moves()
    assert sorted(spent)[len(spent) // 2] < limit + 0.05
    assert max(spent) < limit + 0.25
    assert max(walls) < limit + BUSY_MACHINE
