"""The game loop: two bots, a seeded dice source, a finished record."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, overload

from referee.games.agent import NO_INFO, Bot, Forfeit, MoveInfo
from referee.games.base import Game, GameError, Outcome, Roll, Ruleset, State
from referee.records.model import (
    FORMAT,
    VERSION,
    EventInfo,
    MatchInfo,
    Player,
    Reason,
    Record,
    Result,
    Turn,
    record_adapter,
)
from referee.records.replay import result_of
from referee.tournament.adjudication import Adjudication, Adjudicator
from referee.tournament.clock import GameClocks, OutOfTime, TimeControl
from referee.tournament.openings import Opening

if TYPE_CHECKING:
    from referee.records.scan import ScanResult


class Scored(Protocol):
    """How a game ended, as far as a match score or a test counts it: a record's `Result`,
    or the `Ending` a worker sends back."""

    @property
    def winner(self) -> int | None: ...

    @property
    def points(self) -> int: ...


class Ending(NamedTuple):
    """A finished game's result without its detail: what the runner keeps of a game once it
    is written (a few dozen bytes, where the record is kilobytes)."""

    winner: int | None
    points: int
    reason: str

    @classmethod
    def of(cls, result: Result | ScanResult | None) -> Ending | None:
        return None if result is None else cls(result.winner, result.points, result.reason.value)

    @classmethod
    def of_data(cls, data: dict[str, Any]) -> Ending:
        """The ending of a record as JSON data (`record_data`: it always has a result)."""
        result = data["result"]
        return cls(result["winner"], result["points"], result["reason"])


class DiceSource:
    """Seeded dice with one stream per seat and one for the opening.

    Each seat's k-th roll is the same whatever happened before, so two games with the same
    seed give each seat the same dice (duplicate dice) even when the games go apart.
    """

    def __init__(self, seed: str) -> None:
        self._seed = seed
        # Each stream is seeded when first rolled: seeding one costs a few moves of a random
        # game, and a game without an opening roll (a match's later games) never uses that.
        self._streams: dict[int | None, Callable[[int], int]] = {}

    def roll(self, seat: int | None) -> Roll:
        bits = self._streams.get(seat)
        if bits is None:
            name = "opening" if seat is None else f"seat{seat}"
            bits = self._streams[seat] = random.Random(f"{self._seed}/{name}").getrandbits
        # Two `randint(1, 6)` as CPython draws them (`_randbelow`: 3 bits until they make
        # less than 6), without its three calls a die; tests/tournament/test_dice.py holds
        # the two equal.
        first = bits(3)
        while first >= 6:
            first = bits(3)
        second = bits(3)
        while second >= 6:
            second = bits(3)
        return (first + 1, second + 1)


def bot_seed(seed: str, name: str) -> str:
    """The seed of the bot called `name` in the game of `seed`: it follows the bot, not its
    seat. Both games of a seat-swapped pair share the pair's seed (for the dice); were the
    bots' seeds the seat's, two random bots of a game without dice would play the second game
    as the first, move for move. (`bot/` keeps a bot's stream apart from the dice streams,
    `seat0` or `opening`, whatever its name.)"""
    return f"{seed}/bot/{name}"


class History(Sequence[Turn]):
    """The turns of a game in play, as the bots see them: kept as plain dicts, each made a
    `Turn` (and checked) only when a bot looks at it. Random and engine bots never do, and a
    `Turn` a move costs about as much as a random bot's move."""

    def __init__(self) -> None:
        self.fields: list[dict[str, Any]] = []
        """Each turn's fields, those at their default left out."""
        self._turns: list[Turn] = []

    def append(self, fields: dict[str, Any]) -> None:
        self.fields.append(fields)

    def __len__(self) -> int:
        return len(self.fields)

    @overload
    def __getitem__(self, index: int) -> Turn: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Turn]: ...

    def __getitem__(self, index: int | slice) -> Turn | Sequence[Turn]:
        for fields in self.fields[len(self._turns) :]:
            self._turns.append(Turn(**fields))
        return self._turns[index]


@dataclass(frozen=True)
class GameControl:
    """What the referee enforces beyond the rules: each seat's clock and the adjudication."""

    clocks: tuple[TimeControl | None, TimeControl | None] = (None, None)
    adjudication: Adjudication = field(default_factory=Adjudication)


class GameSetup(NamedTuple):
    """What a game is played under, apart from its bots: the rules, who plays which seat, the
    seed of its dice and bots, and what the referee adds (the turn cap, clocks, adjudication,
    the opening played from, the event the record names). A named tuple: a worker makes one a
    game, and a frozen dataclass sets each field through `object.__setattr__`, several times
    the cost."""

    game: Game[Any, Any]
    ruleset: Ruleset
    players: Sequence[Player]
    seed: str
    turn_cap: int | None = None
    """None: the game's own."""
    event: EventInfo | None = None
    control: GameControl = GameControl()
    book: Opening | None = None


def play_game(
    setup: GameSetup,
    bots: Sequence[Bot[Any, Any]],
    *,
    match: MatchInfo | None = None,
) -> Record:
    """`play_game_data` as a record."""
    data = play_game_data(setup, bots, match=match)
    record: Record = record_adapter().validate_python(data)
    return record


def play_game_data(
    setup: GameSetup,
    bots: Sequence[Bot[Any, Any]],
    *,
    match: MatchInfo | None = None,
) -> dict[str, Any]:
    """Play one game to its end, a forfeit, the turn cap or an adjudication, and return its
    record as JSON data (`record_data`).

    In a match, `match.first` (the last game's winner) starts without an opening roll. Each
    move is timed from asking the bot to having played its move; with clocks, that time is
    charged to the mover's clock, and a move that takes more than is left loses on time.

    With `setup.book`, the game starts from the opening's position and its moves are played for the
    bots, kept as turns marked `book`.
    """
    game, ruleset, players, seed, book = (
        setup.game,
        setup.ruleset,
        setup.players,
        setup.seed,
        setup.book,
    )
    # Seeding the dice streams costs a short game's move: only the dice games have any.
    dice = DiceSource(seed) if game.has_dice else None
    clocks = GameClocks(setup.control.clocks)
    judge = Adjudicator(setup.control.adjudication)
    cap = game.turn_cap if setup.turn_cap is None else setup.turn_cap
    first = match.first if match is not None else None
    start = book.start if book is not None else None
    state: State[Any] = game.initial_state(ruleset, start, first)
    opening_rolls: list[list[int]] = []
    while state.is_opening_roll():
        assert dice is not None  # only dice games have chance states
        opening = dice.roll(None)
        opening_rolls.append(list(opening))
        state = state.apply_chance(opening)
    turns = History()
    for text in book.moves if book is not None else ():
        seat = state.to_move
        assert seat is not None  # book moves are for games without dice
        state = state.play(game.parse_move(state, text))
        turns.append({"seat": seat, "move": text, "book": True})
    result: Result | None = None
    for seat, bot in enumerate(bots):
        try:
            bot.start_game(ruleset, seat, bot_seed(seed, players[seat].name))
        except Forfeit as forfeit:
            result = _forfeit(seat, Reason(forfeit.reason), forfeit.detail)
            break
    timed = clocks.running
    # The loop runs once a move: what it does beyond asking the bot and playing the move
    # (timing, the clock, the turn's fields) is written out here, not in calls, as it costs
    # a good part of a random bot's move.
    played = turns.fields
    perf_counter = time.perf_counter
    format_move = game.format_move
    texts = _move_texts(game)
    has_dice, judging = game.has_dice, judge.active
    while result is None:
        outcome = state.outcome()
        if outcome is not None:
            result = _ending(outcome)
            break
        if len(played) >= cap:
            result = Result(
                winner=None, points=0, reason=Reason.ADJUDICATED, detail=f"turn cap {cap}"
            )
            break
        roll: Roll | None = None
        if has_dice and state.is_chance():
            assert dice is not None
            roll = dice.roll(state.to_move)
            state = state.apply_chance(roll)
        seat = state.to_move
        assert seat is not None
        started = perf_counter()
        try:
            move, info = bots[seat].think(state, turns, clocks.reading() if timed else None)
            if texts is None:
                text = format_move(state, move)
            else:
                known = texts.get(move)
                text = (
                    known
                    if known is not None
                    else _keep_text(texts, move, format_move(state, move))
                )
            after = state.play(move)
        except Forfeit as forfeit:
            detail = forfeit.detail
            if forfeit.reason == Reason.TIME:
                out = clocks.overrun(seat, _milliseconds_since(started))
                detail = detail if out is None else out.detail
            result = _forfeit(seat, Reason(forfeit.reason), detail)
            break
        except GameError as error:
            result = _forfeit(seat, Reason.ILLEGAL_MOVE, str(error))
            break
        except Exception as error:  # a built-in bot that breaks loses its game, as a program would
            result = _forfeit(seat, Reason.CRASH, f"{type(error).__name__}: {error}")
            break
        elapsed = round((perf_counter() - started) * 1000)
        # The fields that are there, in the order of `Turn`'s.
        turn: dict[str, Any] = (
            {"seat": seat, "roll": list(roll), "move": text, "time_ms": elapsed}
            if roll
            else {"seat": seat, "move": text, "time_ms": elapsed}
        )
        if timed:
            try:
                clock = clocks.charge(seat, elapsed)
            except OutOfTime as out:
                result = _forfeit(seat, Reason.TIME, out.detail)
                break
            if clock is not None:
                turn["clock_ms"] = clock
        if info is not NO_INFO:
            _engine_output(turn, info)
        played.append(turn)
        state = after
        if judging and state.outcome() is None:
            result = judge.after_turn(len(played), seat, info.score)
    for bot in bots:
        bot.end_game(result.winner, result.reason.value)
    return record_data(setup, turns, result, opening_rolls, match)


MOVE_TEXTS_KEPT = 4096
"""How many move texts `_move_texts` keeps of a game (all of them but a search's long
captures)."""

_texts: dict[str, dict[Any, str]] = {}


def _move_texts(game: Game[Any, Any]) -> dict[Any, str] | None:
    """The texts of the moves played so far in this process, by move, for a game whose
    moves are written without their position (`Game.moves_written_alone`), else None.

    A dictionary lookup where `format_move` is two calls and the same lookup or more: about
    0.2 us of a random Thai checkers move's 5 us, a fortieth of a tournament's time."""
    if not game.moves_written_alone:
        return None
    return _texts.setdefault(game.name, {})


def _keep_text(texts: dict[Any, str], move: Any, text: str) -> str:
    if len(texts) >= MOVE_TEXTS_KEPT:
        texts.clear()
    texts[move] = text
    return text


def record_data(
    setup: GameSetup,
    turns: History,
    result: Result,
    opening_rolls: list[list[int]],
    match: MatchInfo | None,
) -> dict[str, Any]:
    """The record as JSON data, exactly as `record_to_dict` writes the record (the envelope,
    then the fields in the model's order, those at their default left out), built from the
    turns' plain fields: checking a few thousand values with pydantic and dumping them again
    would cost a random game's time again. tests/tournament/test_pipeline.py holds the two
    equal."""

    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": setup.game.name}
    data["ruleset"] = setup.ruleset.id
    data["players"] = [dict(_flat_data(player)) for player in setup.players]
    event = setup.event
    if event is not None and (header := _header_data(event)):
        data["event"] = header
    if setup.book is not None and setup.book.start is not None:
        data["start"] = setup.book.start
    if turns:
        data["turns"] = turns.fields
    data["result"] = dict(_flat_data(result))
    if opening_rolls:
        data["opening_rolls"] = opening_rolls
    if match is not None:
        data["match"] = _header_data(match)
    return data


def _header_data(model: Player | EventInfo | Result | MatchInfo) -> dict[str, Any]:
    """A header model's JSON data, as `record_to_dict` writes it."""
    return model.model_dump(mode="json", exclude_defaults=True)


@functools.lru_cache(maxsize=256)
def _ending(outcome: Outcome) -> Result:
    """`result_of`, made once for each way a game ends by its rules (a few dozen in a
    tournament): building the model costs about as much as a few moves of a random game."""
    return result_of(outcome)


@functools.lru_cache(maxsize=256)
def _flat_data(model: Player | Result) -> dict[str, Any]:
    """`_header_data` of a model that comes back game after game (a batch's players, the common
    results), made once; flat, so the caller's copy of it is its own."""
    return _header_data(model)


def play_match(
    setup: GameSetup,
    bots: Callable[[], Sequence[Bot[Any, Any]]],
    played: Sequence[Scored | None] = (),
) -> Iterator[dict[str, Any]]:
    """Play the games of a match to `game.match_length(ruleset)` points that are not in
    `played` (the results of the match's games already stored, when a tournament resumes);
    their records as JSON data, each as soon as its game ends.

    `bots` gives the two bots for each game. Each game has a seed of its own, so a resumed
    match plays as it would have at once. The winner of a game starts the next; after a draw
    (the turn cap) the opening roll decides.
    """
    length = setup.game.match_length(setup.ruleset)
    score, first = match_score(played)
    results: list[Scored | None] = list(played)
    number = len(played) + 1
    while max(score) < length:
        match = MatchInfo(length=length, game=number, score=list(score), first=first)
        game_setup = setup._replace(seed=f"{setup.seed}/game{number}")
        record = play_game_data(game_setup, bots(), match=match)
        yield record
        results.append(Ending.of_data(record))
        score, first = match_score(results)
        number += 1


def match_score(results: Sequence[Scored | None]) -> tuple[list[int], int | None]:
    """The score after games with these results (None: a game stored without one) and who
    starts the next game (the last winner)."""
    score = [0, 0]
    first = None
    for result in results:
        first = None if result is None else result.winner
        if result is not None and result.winner is not None:
            score[result.winner] += result.points
    return score, first


def job_finished(results: Sequence[Scored | None], match_length: int) -> bool:
    """Whether a scheduled job's stored games (their results) finish it: a game once stored,
    a match once a player has reached its length."""
    if match_length == 1:
        return bool(results)
    score, _ = match_score(results)
    return max(score) >= match_length


def _milliseconds_since(started: float) -> int:
    return round((time.perf_counter() - started) * 1000)


def _engine_output(turn: dict[str, Any], info: MoveInfo) -> None:
    """Add what a bot said about its move to the turn's fields, those it gave."""
    output = (info.score, info.depth, info.nodes, None if info.pv is None else list(info.pv))
    for name, value in zip(ENGINE_FIELDS, output, strict=True):
        if value is not None:
            turn[name] = value


ENGINE_FIELDS = ("score", "depth", "nodes", "pv")


def _forfeit(seat: int, reason: Reason, detail: str) -> Result:
    return Result(winner=1 - seat, points=1, reason=reason, detail=f"seat {seat}: {detail}")
