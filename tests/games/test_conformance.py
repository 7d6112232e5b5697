"""The conformance suite every game passes, built-in or plug-in (OpenSpiel's `random_sim_test`):
seeded random walks from the start of each variant, chance outcomes drawn by their
probabilities, and at every state visited the interface of `games/base.py` holds.

Each property is checked on every registered game and on the tic-tac-toe plug-in of
tests/plugins, registered here as a program would register it. A game needs no test code of
its own to be held to them; what its position text leaves out (`DESCRIBED`) and whether its
moves read from text are the listed moves themselves (`WRITTEN_AS_PLAYED`) are all that is
said per game. The default run is short; the long one:
    .venv/bin/python -m pytest tests/games/test_conformance.py -m slow
"""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
import random
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee.games
from referee.games import game_names, get_game, register_game
from referee.games.base import (
    Game,
    GameError,
    IllegalMove,
    NotationError,
    Roll,
    Ruleset,
    State,
    perft,
    perft_counts,
)
from tests.plugins.test_plugin_game import GAME as TIC_TAC_TOE

NAMES = tuple(dict.fromkeys((*game_names(), TIC_TAC_TOE.name)))
"""Every registered game, and the plug-in (registered by `plug_in_registered`)."""


@pytest.fixture(autouse=True, scope="module")
def plug_in_registered() -> Iterator[None]:
    """The plug-in is known while this module's tests run, on a copy of the registry."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(referee.games, "_plugins", dict(referee.games._plugins))
        register_game(TIC_TAC_TOE)
        yield


def _variants() -> list[tuple[str, str]]:
    # The plug-in is not registered yet while tests are collected: its object is at hand.
    games = {name: TIC_TAC_TOE if name == TIC_TAC_TOE.name else get_game(name) for name in NAMES}
    return [(name, variant) for name, game in games.items() for variant in game.variants]


VARIANTS = _variants()


@dataclass(frozen=True)
class Effort:
    """How many walks a property is checked on, how long they are (in plies and rolls), and
    how many positions a level of the perft count may list the moves of (a dice game's level
    is some 21 rolls times the moves of the level before)."""

    walks: int
    longest: int
    positions: int


QUICK = Effort(walks=6, longest=40, positions=400)
LONG = Effort(walks=150, longest=400, positions=2000)
EFFORTS = [pytest.param(QUICK, id="quick"), pytest.param(LONG, id="long", marks=pytest.mark.slow)]

RULE_CODE = re.compile(r"[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*")
"""The shape of every rule code (`game-over`, `roll.values`, `thax.must-move`)."""

DESCRIBED: dict[str, Callable[[Any], bool]] = {
    # The roll is not part of the text: a position waiting for its roll, or finished.
    "thax": lambda state: state.roll is None,
    # A Position ID is the board seen from the player on roll, who is seat 0 once read back.
    "takhteh": lambda state: state.to_move == 0 and state.roll is None,
    # A FEN has no history: the draw rules' count starts again from the position read.
    "thai": lambda state: not state.history,
}
"""The states a game's position text names in full (read back, the same state); of a game
not listed, every state. Of the other states the text read back gives the same text."""


WRITTEN_AS_PLAYED = {"takhteh"}
"""Games whose move read from its text is the checker moves as written (`24/13`), where the
legal list has one leg a die (`24/18 18/13`): the same move for the rules, which play either;
of the others a move's text reads back as the very move."""


@dataclass(frozen=True)
class Visit:
    """A state of a walk and how it was reached: `move` played in `before`, or `roll`."""

    state: State[Any]
    before: State[Any] | None = None
    move: Any = None
    roll: Roll | None = None


def walk(
    game: Game[Any, Any], ruleset: Ruleset, rng: random.Random, length: float, moves: float
) -> list[Visit]:
    """The states of a random game from the start, `length` plies and rolls and `moves`
    plies at most; a chance event is drawn by its outcomes' probabilities, a move uniformly."""
    state = game.initial_state(ruleset)
    visits = [Visit(state)]
    while len(visits) <= length and moves > 0 and state.outcome() is None:
        if state.is_chance():
            rolls, weights = zip(*state.chance_outcomes(), strict=True)
            roll = rng.choices(rolls, weights)[0]
            visits.append(Visit(state.apply_chance(roll), roll=roll))
        else:
            move = rng.choice(state.legal_moves())
            visits.append(Visit(state.play(move), state, move))
            moves -= 1
        state = visits[-1].state
    return visits


def explore(
    name: str, variant: str, effort: Effort, check: Callable[[Game[Any, Any], list[Visit]], None]
) -> None:
    """`check` on walks of `name`'s `variant` that hypothesis draws (a seed, a length): uniform
    random walks, which a random of hypothesis's own is not (it leans to the first choice)."""
    game = get_game(name)
    ruleset = game.ruleset(variant)

    @settings(
        max_examples=effort.walks,
        deadline=None,
        derandomize=effort is QUICK,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(st.integers(0, 2**64 - 1), st.integers(0, effort.longest))
    def run(seed: int, length: int) -> None:
        check(game, walk(game, ruleset, random.Random(seed), length, math.inf))

    run()


def distinct(items: list[Any]) -> bool:
    """No two items equal, found by `==` alone (not by hashing, which is under test)."""
    return all(a != b for i, a in enumerate(items) for b in items[i + 1 :])


def refused(error: GameError) -> None:
    """A refusal names its rule by a code and says why in one line."""
    assert isinstance(error, NotationError | IllegalMove), repr(error)
    assert RULE_CODE.fullmatch(error.rule), repr(error.rule)
    assert str(error).strip() and "\n" not in str(error), repr(str(error))


def answer(call: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """What `call` gives, or the class and text of the game error it raises."""
    try:
        return "ok", call(*args)
    except GameError as error:
        refused(error)
        return type(error).__name__, str(error)


def parse_then_play(game: Game[Any, Any], state: State[Any], text: str) -> tuple[Any, Any]:
    move = game.parse_move(state, text)
    return move, state.play(move)


# --- moves and their notation --------------------------------------------------------------


@pytest.mark.parametrize("effort", EFFORTS)
@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_every_legal_move_reads_back_as_itself(name: str, variant: str, effort: Effort) -> None:
    """Legal moves are distinct, each written distinctly; its text parses back to the move,
    and `read_move` of it is parse then play; `children` are the states after them."""

    def check(game: Game[Any, Any], visits: list[Visit]) -> None:
        for visit in visits:
            state = visit.state
            moves = state.legal_moves()
            assert distinct(moves), state
            assert state.count_legal_moves() == len(moves), state
            assert state.children() == [state.play(move) for move in moves], state
            texts = [game.format_move(state, move) for move in moves]
            assert len(set(texts)) == len(texts), (state, texts)
            for move, text in zip(moves, texts, strict=True):
                assert isinstance(text, str) and text.strip() == text, (state, text)
                after = state.play(move)
                parsed = game.parse_move(state, text)
                if name in WRITTEN_AS_PLAYED:
                    assert state.play(parsed) == after, (state, text)
                    assert game.format_move(state, parsed) == text, (state, text)
                else:
                    assert parsed == move, (state, text)
                assert game.read_move(state, text) == (parsed, after), (state, text)

    explore(name, variant, effort, check)


@pytest.mark.parametrize("effort", EFFORTS)
@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_a_move_said_to_be_written_alone_has_one_text(
    name: str, variant: str, effort: Effort
) -> None:
    """A game whose moves are written without their position (`moves_written_alone`: a
    tournament keeps each move's text and looks it up) writes every legal move of the states
    of a walk, wherever the move comes back, as the same text."""
    if not get_game(name).moves_written_alone:
        pytest.skip(f"{name} writes a move with its position")

    def check(game: Game[Any, Any], visits: list[Visit]) -> None:
        texts: dict[Any, str] = {}
        for visit in visits:
            for move in visit.state.legal_moves():
                text = game.format_move(visit.state, move)
                assert texts.setdefault(move, text) == text, (visit.state, move)

    explore(name, variant, effort, check)


def has_position_text(game: Game[Any, Any]) -> bool:
    try:
        game.format_position(game.initial_state(game.ruleset()))
    except NotationError:
        return False
    return True


@cache
def foreign_texts() -> tuple[str, ...]:
    """Texts of every game's opening moves and start positions: another game's notation, or
    the same game's from another position."""
    texts: list[str] = ["", " ", "-", "0", "pass", "resign", "a1-a1", "24/13*", "@0+", "1-5"]
    for name in NAMES:
        game = get_game(name)
        state = game.initial_state(game.ruleset())
        while state.is_chance():
            state = state.apply_chance(state.chance_outcomes()[0][0])
        texts += (game.format_move(state, move) for move in state.legal_moves()[:6])
        if has_position_text(game):
            texts.append(game.format_position(state))
    return tuple(dict.fromkeys(texts))


def near_misses(text: str, rng: random.Random) -> list[str]:
    """`text` cut short, with a character dropped, changed or added, and doubled."""
    where = rng.randrange(len(text) + 1)
    other = rng.choice("abcdefgh0123456789/*-x+@\\ .")
    return [
        text[:where],
        text[:where] + text[where + 1 :],
        text[:where] + other + text[where + 1 :],
        text[:where] + other + text[where:],
        f"{text} {text}",
    ]


@pytest.mark.parametrize("effort", EFFORTS)
@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_other_text_is_refused_with_a_rule_code(name: str, variant: str, effort: Effort) -> None:
    """Any text `read_move` takes is parse then play and leads where a legal move leads;
    any other text is refused, by both ways alike, with a NotationError or an IllegalMove
    that carries a rule code. So is a move of the position before, played here: a finished
    position and one waiting for dice take none."""
    rng = random.Random(f"{name}/{variant}")

    def check(game: Game[Any, Any], visits: list[Visit]) -> None:
        for visit in visits:
            state = visit.state
            reached = [state.play(move) for move in state.legal_moves()]
            texts = list(foreign_texts())
            for move in state.legal_moves()[:3] or [None]:
                texts += near_misses("" if move is None else game.format_move(state, move), rng)
            if visit.before is not None:
                texts += (game.format_move(visit.before, m) for m in visit.before.legal_moves())
            for text in texts:
                read = answer(game.read_move, state, text)
                assert read == answer(parse_then_play, game, state, text), (state, text)
                if read[0] == "ok":
                    assert read[1][1] in reached, (state, text)
            for move in [] if visit.before is None else visit.before.legal_moves():
                played = answer(state.play, move)
                if played[0] == "ok":
                    assert played[1] in reached, (state, move)
                else:
                    assert played[0] == "IllegalMove", (state, move, played)

    explore(name, variant, effort, check)


# --- position text ---------------------------------------------------------------------------


@pytest.mark.parametrize("effort", EFFORTS)
@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_position_text_reads_back(name: str, variant: str, effort: Effort) -> None:
    """A state's position text read back is a state of the same text; of the states the text
    names in full (`DESCRIBED`), the same state with the same hash."""
    game = get_game(name)
    if not has_position_text(game):
        pytest.skip(f"{name} has no position text")
    described = DESCRIBED.get(name, lambda state: True)
    seen = {True: 0, False: 0}

    def check(game: Game[Any, Any], visits: list[Visit]) -> None:
        for visit in visits:
            state = visit.state
            text = game.format_position(state)
            again = game.parse_position(state.ruleset, text)
            assert game.format_position(again) == text, (state, text)
            seen[described(state)] += 1
            if described(state):
                assert again == state, (state, text, again)
                assert hash(again) == hash(state), (state, text)

    explore(name, variant, effort, check)
    assert seen[True] > 0  # the walks reach states the text names in full


# --- chance ----------------------------------------------------------------------------------


@pytest.mark.parametrize("effort", EFFORTS)
@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_chance_outcomes_are_a_distribution(name: str, variant: str, effort: Effort) -> None:
    """A chance node lists distinct rolls of positive probabilities summing to 1 and takes no
    move; each roll leads to a state of a known seat, the same seat that was to roll, and the
    dice it plays are the roll's. A decision or a finished state lists no roll and takes none."""

    def check(game: Game[Any, Any], visits: list[Visit]) -> None:
        for visit in visits:
            state = visit.state
            if not state.is_chance():
                assert tuple(state.chance_outcomes()) == (), state
                rolled(state, (1, 2))
                continue
            for roll in NO_ROLLS:
                rolled(state, roll)
            assert game.has_dice, state
            assert state.outcome() is None and state.legal_moves() == [], state
            assert state.is_opening_roll() == (state.to_move is None), state
            outcomes = list(state.chance_outcomes())
            rolls = [roll for roll, _ in outcomes]
            assert outcomes and distinct(rolls), state
            assert all(probability > 0 for _, probability in outcomes), outcomes
            assert math.isclose(sum(p for _, p in outcomes), 1, rel_tol=0, abs_tol=1e-12)
            for roll in rolls:
                child = state.apply_chance(roll)
                assert child.to_move in (0, 1), (state, roll)
                assert child.outcome() is None, (state, roll)
                if state.to_move is not None:
                    assert child.to_move == state.to_move, (state, roll)
                    assert not child.is_chance() and child.roll is not None, (state, roll)
                    # The dice as rolled, in any order: the same roll.
                    assert state.apply_chance(roll[::-1]) == child, (state, roll)
                if child.roll is not None:
                    assert sorted(child.roll) == sorted(roll), (state, roll, child)
                if not child.is_chance():
                    assert child.legal_moves(), (state, roll)

    explore(name, variant, effort, check)


NO_ROLLS: tuple[Roll, ...] = ((), (3,), (1, 2, 3), (0, 4), (7, 1), (-1, 2), (2, 12))
"""Dice no roll shows."""


def rolled(state: State[Any], roll: Roll) -> None:
    """`roll` is refused with a rule code."""
    with pytest.raises(IllegalMove) as error:
        state.apply_chance(roll)
    refused(error.value)


# --- states ----------------------------------------------------------------------------------


def replayed(game: Game[Any, Any], visits: list[Visit]) -> list[State[Any]]:
    """The walk's states again by another path: each move read from its text, each roll
    given with its dice the other way round (but the opening's, whose order says who starts),
    from a start made anew."""
    state = game.initial_state(visits[0].state.ruleset)
    states = [state]
    for visit in visits[1:]:
        if visit.roll is not None:
            roll = visit.roll if state.to_move is None else visit.roll[::-1]
            state = state.apply_chance(roll)
        else:
            state = game.read_move(state, game.format_move(state, visit.move))[1]
        states.append(state)
    return states


def frozen(state: State[Any]) -> None:
    """No field of a state can be set or deleted, nor any other attribute added."""
    names: list[str] = []
    if dataclasses.is_dataclass(state):
        names = [f.name for f in dataclasses.fields(state)]
    for name in [*names, "ruleset"]:
        with pytest.raises(AttributeError):
            setattr(state, name, getattr(state, name))
        with pytest.raises(AttributeError):
            delattr(state, name)
    # TypeError from Python 3.11's frozen slotted dataclasses (their `__setattr__` calls
    # `super()` with the class before slots were added); AttributeError from later ones.
    with pytest.raises((AttributeError, TypeError)):
        state.conformance = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("effort", EFFORTS)
@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_states_are_values(name: str, variant: str, effort: Effort) -> None:
    """A state reached by two paths is equal, with the same hash; a pickle or a copy of it
    is equal and behaves the same; it cannot be changed. Equal states hash alike and are
    the same position (the same player, moves, outcome)."""

    def check(game: Game[Any, Any], visits: list[Visit]) -> None:
        states = [visit.state for visit in visits]
        for state, again in zip(states, replayed(game, visits), strict=True):
            assert again == state and hash(again) == hash(state), (state, again)
            for twin in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state)):
                assert type(twin) is type(state), state
                assert twin == state and state == twin and hash(twin) == hash(state), state
                same_position(twin, state)
            frozen(state)
        hash_agrees_with_eq(states + successors(states[-1]))

    explore(name, variant, effort, check)


def successors(state: State[Any]) -> list[State[Any]]:
    if state.is_chance():
        return [state.apply_chance(roll) for roll, _ in state.chance_outcomes()]
    return [state.play(move) for move in state.legal_moves()]


def same_position(a: State[Any], b: State[Any]) -> None:
    assert (a.to_move, a.is_chance(), a.outcome(), a.roll) == (
        b.to_move,
        b.is_chance(),
        b.outcome(),
        b.roll,
    ), (a, b)
    assert a.legal_moves() == b.legal_moves(), (a, b)
    assert list(a.chance_outcomes()) == list(b.chance_outcomes()), (a, b)


def hash_agrees_with_eq(states: list[State[Any]]) -> None:
    """Every pair of equal states (found by `==`) has one hash and is one position."""
    for i, a in enumerate(states):
        for b in states[i + 1 :]:
            if a == b:
                assert b == a and hash(a) == hash(b), (a, b)
                same_position(a, b)


# --- perft -------------------------------------------------------------------------------------


def counted(state: State[Any], deepest: int, positions: int) -> tuple[list[int], list[State[Any]]]:
    """The move sequences of each depth from `state`, counted level by level (not by the
    engine's recursion), and the positions of the last level counted: a chance node stands
    for its distinct results (told apart by `==`) and uses no depth, a finished state ends
    its sequences. Stops at `deepest`, or before a level of more than `positions` positions."""
    counts: list[int] = []
    level = [state]
    while len(counts) < deepest:
        while any(node.is_chance() for node in level):
            level = [
                result
                for node in level
                for result in (results(node) if node.is_chance() else [node])
            ]
        level = [node for node in level if node.outcome() is None]
        if len(level) > positions:
            break
        moves = [(node, move) for node in level for move in node.legal_moves()]
        counts.append(len(moves))
        level = [node.play(move) for node, move in moves]
    return counts, level


def results(node: State[Any]) -> list[State[Any]]:
    found: list[State[Any]] = []
    for roll, _ in node.chance_outcomes():
        result = node.apply_chance(roll)
        if all(result != other for other in found):
            found.append(result)
    return found


@pytest.mark.parametrize("effort", EFFORTS)
@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_perft_agrees_with_a_count_level_by_level(name: str, variant: str, effort: Effort) -> None:
    """`perft` and `perft_counts` agree with the count made here, from the start, from where
    the walks end and from their last decision. Of the positions the count reaches, those
    equal (reached by different sequences) hash alike."""
    rng = random.Random(f"{name}/{variant}")

    def check(game: Game[Any, Any], visits: list[Visit]) -> None:
        decided = [visit.before for visit in visits if visit.before is not None]
        for state in dict.fromkeys([visits[0].state, visits[-1].state, *decided[-1:]]):
            counts, reached = counted(state, 4 if effort is QUICK else 5, effort.positions)
            deepest = len(counts)
            assert perft_counts(state, deepest) == counts, state
            assert perft(state, 0) == 1
            for depth in sorted({1, deepest} & set(range(1, deepest + 1))):
                assert perft(state, depth) == counts[depth - 1], (state, depth)
            hash_agrees_with_eq(rng.sample(reached, min(len(reached), 60)))

    explore(name, variant, effort, check)


# --- the end of a game -------------------------------------------------------------------------


def points_allowed(game: Game[Any, Any], state: State[Any]) -> None:
    """Whose turn it is and how the game ended agree with the moves left."""
    outcome = state.outcome()
    assert state.is_terminal() == (outcome is not None), state
    if outcome is None:
        assert state.to_move in (0, 1) or state.is_opening_roll(), state
        assert state.is_chance() or state.legal_moves(), state
        return
    assert not state.is_chance() and state.legal_moves() == [], state
    assert outcome.winner in (None, 0, 1), outcome
    assert isinstance(outcome.points, int) and outcome.points >= 0, outcome
    if outcome.winner is not None:
        # A win the rules decide scores as much as a win ending the game there may.
        assert 1 <= outcome.points <= max(game.win_points(state, outcome.winner)), outcome


@pytest.mark.parametrize("effort", EFFORTS)
@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_random_games_end_by_the_rules(name: str, variant: str, effort: Effort) -> None:
    """Played at random to the end, or cut at the game's turn cap, every state says whose
    turn it is, or how the game ended, in agreement with the moves it lists."""
    game = get_game(name)
    ruleset = game.ruleset(variant)

    @settings(
        max_examples=2 if effort is QUICK else 50,
        deadline=None,
        derandomize=effort is QUICK,
        database=None,
    )
    @given(st.integers(0, 2**64 - 1))
    def run(seed: int) -> None:
        visits = walk(game, ruleset, random.Random(seed), math.inf, game.turn_cap)
        for visit in visits:
            points_allowed(game, visit.state)

    run()


# --- rendering ---------------------------------------------------------------------------------


@pytest.mark.parametrize("effort", EFFORTS)
@pytest.mark.parametrize(("name", "variant"), VARIANTS)
def test_every_state_renders(name: str, variant: str, effort: Effort) -> None:
    """The terminal board and the SVG picture (plain, and marking the move that led there) of
    every state visited: text that is not empty, and an SVG document."""

    def check(game: Game[Any, Any], visits: list[Visit]) -> None:
        for visit in visits:
            text = game.render_text(visit.state)
            assert isinstance(text, str) and text.strip(), visit.state
            pictures = [game.render_svg(visit.state)]
            if visit.before is not None:
                pictures.append(game.render_svg(visit.state, visit.before))
            for picture in pictures:
                root = ElementTree.fromstring(picture)
                assert root.tag in ("svg", "{http://www.w3.org/2000/svg}svg"), visit.state

    explore(name, variant, effort, check)
