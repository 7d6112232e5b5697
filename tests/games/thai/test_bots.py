"""The bots: legal, reproducible from the seed, and the search sees what it should."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings

from referee.games.thai.bots import AlphaBetaBot, evaluate, material
from referee.games.thai.search import EVALUATIONS
from referee.players.registry import BotSpecError, describe_bots, make_bot
from tests.games.bot_clock import BUSY_MACHINE, timed
from tests.games.thai.helpers import GAME, RULESET, moves, position, positions


def test_bots_are_listed_with_their_options() -> None:
    bots = {info.name: info.options for info in describe_bots("thai")}
    assert bots == {
        "random": {},
        "greedy": {},
        "alphabeta": {
            "depth": "6",
            "time": "1.0",
            "table": "0",
            "quiescence": "8",
            "weights": "'plain'",
            "draws": "'rules'",
        },
        "search": {
            "depth": "40",
            "time": "1.0",
            "table": "1",
            "quiescence": "0",
            "weights": "'tuned'",
            "draws": "'early'",
        },
    }
    bot = make_bot("thai", "alphabeta:depth=3,time=0.5")
    assert isinstance(bot, AlphaBetaBot)
    assert (bot.depth, bot.time) == (3, 0.5)


@pytest.mark.parametrize("spec", ["random", "greedy", "alphabeta:depth=2,time=0"])
def test_bots_play_legal_moves_reproducibly(spec: str) -> None:
    state = GAME.initial_state(RULESET)
    chosen = []
    for _ in range(2):
        bot = make_bot("thai", spec)
        bot.start_game(RULESET, 0, "seed-1")
        chosen.append(bot.choose(state))
    assert chosen[0] == chosen[1]
    assert chosen[0] in state.legal_moves()


def test_evaluation_is_symmetric() -> None:
    state = position("B:W1,2,K14:B30,K32")
    assert evaluate(state, 0) == -evaluate(state, 1)
    assert material(state, 0) == -100  # a king each; White has one man more


def test_greedy_takes_the_line_that_wins_more_material() -> None:
    state = position("B:W22,14,27,1:B26,32")
    bot = make_bot("thai", "greedy")
    bot.start_game(RULESET, 0, "s")
    assert GAME.format_move(state, bot.choose(state)) == "26x17x10"


def test_alphabeta_sees_a_shot_one_ply_cannot() -> None:
    """15-10 gives a man and wins more back; the other three moves lose material. One ply
    sees four equal quiet moves."""
    state = position("B:W6,8,22,24:B13,15,18")
    assert moves(state) == {"13-9", "15-10", "15-11", "18-14"}
    assert {material(state.play(m), 0) for m in state.legal_moves()} == {material(state, 0)}
    for seed in ("a", "b", "c"):
        bot = AlphaBetaBot(depth=4, time=0)
        bot.start_game(RULESET, 0, seed)
        assert GAME.format_move(state, bot.choose(state)) == "15-10"


def test_alphabeta_finds_a_win_in_one() -> None:
    state = position("B:W22:B26,30")
    bot = AlphaBetaBot(depth=3, time=0)
    bot.start_game(RULESET, 0, "s")
    assert GAME.format_move(state, bot.choose(state)) == "26x17"


def test_alphabeta_answers_within_its_time_limit() -> None:
    state = position("B:W1,2,3,5,6,7,K9,10:B21,22,K23,25,26,27,29,30")
    bot = AlphaBetaBot(depth=0, time=0.2)
    bot.start_game(RULESET, 0, "s")
    move, cpu, wall = timed(lambda: bot.choose(state))
    assert cpu < 1.0
    assert wall < 0.2 + BUSY_MACHINE
    assert move in state.legal_moves()


def test_alphabeta_needs_some_limit() -> None:
    with pytest.raises(ValueError):
        AlphaBetaBot(depth=0, time=0)


@settings(max_examples=300, deadline=None)
@given(positions(max_pieces=20))
def test_the_plain_weights_are_the_former_alphabeta_evaluation(fen: str) -> None:
    """`alphabeta` (now `search` with `weights=plain`) judges as the bot it replaced did:
    material and four points a row advanced, here `bots.evaluate`, written separately."""
    state = position(fen)
    assert EVALUATIONS["plain"](state) == evaluate(state, state.turn)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:weights=strong", "weights is one of tuned, plain, not 'strong'"),
        ("alphabeta:draws=never", "draws is one of early, rules, not 'never'"),
        ("search:table=2", "table is 1 (a transposition table) or 0 (none)"),
    ],
)
def test_unknown_search_options_are_refused(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=re.escape(message)):
        make_bot("thai", spec)


@pytest.mark.parametrize(
    "spec",
    ["search:table=0,quiescence=2,depth=3,time=0", "alphabeta:table=1,draws=early,depth=3,time=0"],
)
def test_any_mix_of_the_two_bots_options_plays_legal_moves_reproducibly(spec: str) -> None:
    state = position("B:W1,3,6,8,22,24:B13,15,18,27,30")
    chosen = []
    for _ in range(2):
        bot = make_bot("thai", spec)
        bot.start_game(RULESET, 0, "seed-2")
        chosen.append(bot.choose(state))
    assert chosen[0] == chosen[1] and chosen[0] in state.legal_moves()
