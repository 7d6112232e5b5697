"""`Game.play_turns`, the validator's way through a record (records/replay.py,
`final_state`), held to the replay turn by turn: on random games of every game and variant,
as played and then changed at a random turn, it gives the replay's end, the same position in
everything a caller can ask of it, or None; None wherever the replay stops; never None on a
record that replays (the validator would replay it twice)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import GAME_NAMES, get_game
from referee.games.agent import RandomBot
from referee.games.base import Game, State
from referee.games.trax import TraxState
from referee.games.trax.rules import FITS
from referee.records.io import record_adapter
from referee.records.model import Player
from referee.records.replay import ReplayError, final_state, replay, start_state
from referee.tournament.play import GameSetup, play_game_data

PLAYERS = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]
OWN = [name for name in GAME_NAMES if type(get_game(name)).play_turns is not Game.play_turns]

CHANGES = (
    "none",
    "cut",
    "seat",
    "roll-dropped",
    "roll-added",
    "roll-other",
    "move-other",
    "move-garbled",
    "move-candidate",
    "turn-after-end",
    "prefix",
    "from-position",
)


def test_the_games_that_play_a_record_on_one_board() -> None:
    # The games whose validation needed it; a game that lost its own would pass the tests
    # below by the default's None.
    assert OWN == ["takhteh", "trax"]


def _changed(game: Game[Any, Any], data: dict[str, Any], change: str, rng: random.Random) -> bool:
    """Apply `change` to the record data at a random turn; False when it does not apply."""
    turns = data["turns"]
    if not turns:
        return change == "none"
    index = rng.randrange(len(turns))
    turn = turns[index]
    if change == "cut":
        del turns[index:]
    elif change == "seat":
        turn["seat"] = 1 - turn["seat"]
    elif change == "roll-dropped":
        if "roll" not in turn:
            return False
        del turn["roll"]
    elif change == "roll-added":
        turn["roll"] = [rng.randint(1, 6), rng.randint(1, 6)]
    elif change == "roll-other":
        if "roll" not in turn:
            return False
        turn["roll"] = [rng.randint(1, 6), rng.randint(1, 6)]
    elif change == "move-other":
        turn["move"] = rng.choice(turns)["move"]
    elif change == "move-garbled":
        text = turn["move"]
        at = rng.randrange(len(text) + 1)
        turn["move"] = text[:at] + rng.choice("*/+\\@ 0123456789abx:-") + text[at + 1 :]
    elif change == "turn-after-end":
        last = turns[-1]
        turns.append({**last, "seat": 1 - last["seat"]})
    elif change == "prefix":
        if "roll" not in turn or not turn["move"]:
            return False
        turn["move"] = f"{turn['roll'][0]}{turn['roll'][1]}: {turn['move']}"
    elif change == "move-candidate":
        # Another move of the position before a turn, the game cut after it; in Trax a tile
        # that fits a space, most often one that is not legal (forced play leaves a space
        # three edges of one colour, or the tile leaves the 8x8 area), at a turn that has one.
        refused = [] if game.name != "trax" else _refused_trax_turns(data, game)
        if refused and rng.random() < 0.7:
            index, choices = rng.choice(refused)
            turn = turns[index]
        before = _before(data, index, game)
        if turn.get("roll") is not None:
            before = before.apply_chance(tuple(turn["roll"]))
        if isinstance(before, TraxState) and before.box is not None:
            choices = [before.move_at(key, tile) for key, tile in before.candidates()]
            if refused and index in dict(refused) and rng.random() < 0.7:
                choices = dict(refused)[index]
            moves = choices
        else:
            moves = before.legal_moves()
        turn["move"] = game.format_move(before, rng.choice(moves))
        del turns[index + 1 :]
    elif change == "from-position":
        # The record starts from the position before the turn, written in the game's notation
        # (a Takhteh position is seen from seat 0, and the opening roll decides who starts).
        if game.has_dice:
            return False
        data["start"] = game.format_position(_before(data, index, game))
        data.pop("opening_rolls", None)
        del turns[:index]
    return True


def _refused_trax_turns(data: dict[str, Any], game: Game[Any, Any]) -> list[tuple[int, list[Any]]]:
    """(index, moves) of each turn of a Trax record whose position has moves that a tile
    fits but that are not legal."""
    record = record_adapter().validate_python(data)
    found = []
    for step in replay(record, game):
        before = step.before
        if before.box is None:
            continue
        legal = set(before.turns())
        refused = [turn for turn in before.candidates() if turn not in legal] + [
            (key, FITS[code][0]) for key, code in before.codes.items() if not before.fits(key)
        ]
        if refused:
            found.append((step.turn, [before.move_at(key, tile) for key, tile in refused]))
    return found


def _before(data: dict[str, Any], index: int, game: Game[Any, Any]) -> State[Any]:
    """The position before turn `index` of the record data."""
    record = record_adapter().validate_python({**data, "turns": data["turns"][:index]})
    return final_state(record, game)


def _view(game: Game[Any, Any], state: State[Any]) -> tuple[object, ...]:
    """What a caller can ask of a position: its text, its turn, its moves, its end, and the
    ends of the positions one move on (where a board played on in place would show)."""
    on: list[object] = []
    if not state.is_terminal() and not state.is_chance():
        on = [_end_of(game, state.play(move)) for move in state.legal_moves()]
    return (
        repr(state),
        hash(state),
        game.format_position(state),
        game.render_text(state),
        state.to_move,
        state.is_chance(),
        _end_of(game, state),
        [game.format_move(state, move) for move in state.legal_moves()],
        on,
    )


def _end_of(game: Game[Any, Any], state: State[Any]) -> object:
    return state.outcome(), state.is_terminal(), game.format_position(state)


@pytest.mark.parametrize("name", GAME_NAMES)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), change=st.sampled_from(CHANGES))
def test_play_turns_ends_where_the_replay_ends_or_gives_none(
    name: str, seed: int, change: str
) -> None:
    game = get_game(name)
    rng = random.Random(seed)
    ruleset = game.ruleset(rng.choice(game.variants))
    # A turn after the end needs a game that ended by its rules, not by the turn cap.
    cap = None if change == "turn-after-end" else rng.randint(1, 120)
    setup = GameSetup(game, ruleset, PLAYERS, f"play-turns-{seed}", turn_cap=cap)
    data = play_game_data(setup, [RandomBot(), RandomBot()])
    if change == "move-candidate" and name == "trax":
        # One random game in twenty has a turn with a tile that fits but is not legal.
        for attempt in range(200):
            if _refused_trax_turns(data, game):
                break
            setup = GameSetup(game, ruleset, PLAYERS, f"play-turns-{seed}-{attempt}")
            data = play_game_data(setup, [RandomBot(), RandomBot()])
    if not _changed(game, data, change, rng):
        return
    record = record_adapter().validate_python(copy.deepcopy(data))
    try:
        start = start_state(record, game)
    except ReplayError:
        return
    replayed: State[Any] | ReplayError = start
    try:
        for step in replay(record, game, start):
            replayed = step.after
    except ReplayError as error:
        replayed = error
    played = game.play_turns(start, record.turns)
    if isinstance(replayed, ReplayError):
        assert played is None
        with pytest.raises(ReplayError) as caught:
            final_state(record, game)
        assert (caught.value.code, caught.value.turn, caught.value.pointer) == (
            replayed.code,
            replayed.turn,
            replayed.pointer,
        )
        return
    if name in OWN:
        assert played is not None
    if played is not None:
        assert played == replayed
        assert _view(game, played) == _view(game, replayed)
    assert _view(game, final_state(record, game)) == _view(game, replayed)
