"""The replay of a record: a turn after the end of the game is reported as such, whether the
replay asks before every turn or, for a game whose engine refuses moves after the end itself
(`Game.moves_refused_after_end`), only when a turn fails."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import GAME_NAMES, get_game
from referee.games.agent import RandomBot
from referee.games.base import Game, IllegalMove, NotationError
from referee.games.thai import ThaiState
from referee.games.thai.rules import QUIET_PLY_LIMIT
from referee.records.io import record_to_dict
from referee.records.model import Player, Record
from referee.records.replay import ReplayError, replay
from referee.tournament.play import GameSetup, play_game
from referee.validator.check import validate_record

PLAYERS = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]
REFUSING = [name for name in GAME_NAMES if get_game(name).moves_refused_after_end]


def test_every_built_in_game_says_its_engine_refuses_moves_after_the_end() -> None:
    # The flag is what makes the replay skip the check of the end before each turn (costly
    # in Thai checkers and in Trax's 8x8 variant): a test that no longer covered a game
    # would pass for nothing.
    assert list(GAME_NAMES) == REFUSING


def _finished_game(game: Game, seed: int) -> tuple[list[object], object]:
    """A random game played on the engine to its end: the positions before each move, and
    the end."""
    rng = random.Random(seed)
    ruleset = game.ruleset(rng.choice(game.variants))
    state = game.initial_state(ruleset)
    seen = []
    while not state.is_terminal():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state = state.apply_chance(rng.choices(*zip(*outcomes, strict=True))[0])
            continue
        seen.append(state)
        state = state.play(rng.choice(state.legal_moves()))
    return seen, state


@pytest.mark.parametrize("name", REFUSING)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_move_is_read_after_the_end(name: str, seed: int) -> None:
    """Every legal move of the game's positions is refused in the position that ends it (a
    random game's end: nearly always a player without a move)."""
    game = get_game(name)
    seen, end = _finished_game(game, seed)
    texts = {game.format_move(state, move) for state in seen for move in state.legal_moves()}
    assert texts
    for text in sorted(texts):
        with pytest.raises((IllegalMove, NotationError)):
            game.read_move(end, text)


def _thai_draws() -> list[tuple[ThaiState, ThaiState]]:
    """Thai checkers positions drawn by the rules, each with the same board not drawn: by
    threefold repetition, and by plies without a capture or a man move."""
    game = get_game("thai")
    ruleset = game.ruleset()
    start = game.initial_state(ruleset, "B:WK1:BK32")
    repeated = start
    for text in ("32-27", "1-6", "27-32", "6-1") * 2:
        repeated = game.play_text(repeated, text)
    quiet = game.initial_state(ruleset, "B:WK1,K4:BK29,K32")
    long_quiet = ThaiState(
        ruleset, quiet.black, quiet.white, quiet.kings, quiet.turn, tuple(range(QUIET_PLY_LIMIT))
    )
    return [(repeated, start), (long_quiet, quiet)]


@pytest.mark.parametrize(("drawn", "open_board"), _thai_draws())
def test_no_move_is_read_after_a_draw_by_the_rules(drawn: ThaiState, open_board: ThaiState) -> None:
    game = get_game("thai")
    assert drawn.is_terminal()
    assert not open_board.is_terminal()
    texts = [game.format_move(open_board, move) for move in open_board.legal_moves()]
    assert texts
    for text in texts:
        with pytest.raises(IllegalMove):
            game.read_move(drawn, text)


def _with_turn_after_the_end(record: Record) -> Record:
    data = record_to_dict(record)
    last = data["turns"][-1]
    data["turns"].append({**last, "seat": 1 - last["seat"]})
    return type(record).model_validate(data)


@pytest.mark.parametrize("refused", [True, False], ids=["when-a-turn-fails", "before-each-turn"])
@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_turn_after_the_end_is_reported_as_such(name: str, refused: bool, seed: int) -> None:
    """Both ways of the replay: asking whether the game has ended when a turn fails (the
    built-in games), and before each turn (a plugin's game that does not say)."""
    game = get_game(name)
    if not refused:
        game = copy.copy(game)
        game.moves_refused_after_end = False  # type: ignore[misc]
    setup = GameSetup(game, game.ruleset(), PLAYERS, f"after-end-{seed}")
    record = play_game(setup, [RandomBot(), RandomBot()])
    assert record.result is not None
    if record.result.reason.value != "rules":
        return  # stopped by the turn cap: the game goes on, a further turn is no error of this kind
    longer = _with_turn_after_the_end(record)
    with pytest.raises(ReplayError) as caught:
        list(replay(longer, game))
    assert (caught.value.code, caught.value.turn) == ("after-end", len(record.turns))
    assert caught.value.pointer == f"/turns/{len(record.turns)}"
    if refused:
        # The validator's report, through the registry's game, says the same.
        report = validate_record(longer, "x", 1)
        assert [d.code for d in report.diagnostics] == ["after-end"]
        assert report.diagnostics[0].turn == len(record.turns) + 1
