"""The filters of `referee select`: which games to keep, each a predicate over one game.

Header filters read only the fields a scan of the record gives (`Entry.view`); the others
(validity, a position, an opening) replay the game and need the full record. The header
filters run first, so a game they drop is never replayed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from referee.archive.entries import Entry
from referee.archive.positions import PositionQuery
from referee.errors import RefereeError
from referee.escaping import quoted
from referee.games import game_names, get_game
from referee.games.base import Game, GameError, IllegalMove, Ruleset, State, chance_children
from referee.records.replay import ReplayError, game_of, replay
from referee.validator.check import validate_record

Predicate = Callable[[Entry], bool]

WINNER_WORDS = ("seat0", "seat1", "draw")


class FilterError(RefereeError, ValueError):
    """A filter given wrong (a bad range, a tag without `=`)."""

    code = "filter"


@dataclass(frozen=True)
class TurnRange:
    """`MIN..MAX` turns, either end open; a single number is an exact count."""

    low: int | None
    high: int | None

    @classmethod
    def parse(cls, text: str) -> TurnRange:
        match = re.fullmatch(r"\s*(\d*)\s*(\.\.)?\s*(\d*)\s*", text)
        if match is None or not (match.group(1) or match.group(3)):
            raise FilterError(f"--turns {quoted(text)}: write MIN..MAX, MIN.., ..MAX or a number")
        low = int(match.group(1)) if match.group(1) else None
        high = int(match.group(3)) if match.group(3) else None
        if match.group(2) is None:
            if match.group(3):
                raise FilterError(
                    f"--turns {quoted(text)}: write MIN..MAX, MIN.., ..MAX or a number"
                )
            high = low
        if low is not None and high is not None and low > high:
            raise FilterError(f"--turns {quoted(text)}: the least count is above the greatest")
        return cls(low, high)

    def holds(self, turns: int) -> bool:
        return (self.low is None or turns >= self.low) and (self.high is None or turns <= self.high)


def parse_tag(text: str) -> tuple[str, str]:
    key, eq, value = text.partition("=")
    if not eq or not key:
        raise FilterError(f"--tag {quoted(text)}: write KEY=VALUE")
    return key, value


def split_plies(text: str, dice: bool) -> list[str]:
    """The plies of an opening: separated by `;` (always in THAX and Takhteh, where a ply has
    several tokens), or else one ply per word, move numbers such as `1.` or `3...` left out."""
    if dice or ";" in text:
        return [ply.strip() for ply in text.split(";") if ply.strip()]
    return [word for word in text.split() if not re.fullmatch(r"\d+\.+", word)]


@dataclass(frozen=True)
class MovesQuery:
    """An opening to look for: its text and the games whose rules allow every ply of it."""

    text: str
    games: frozenset[str]

    def opened_by(self, entry: Entry) -> bool:
        return entry.game in self.games and opens_with(entry, self.text)


def moves_query(text: str, games: Iterable[str] = (), variants: Iterable[str] = ()) -> MovesQuery:
    """The opening `text`, its plies played from the start of each game asked for (every game
    when none is; each variant asked for, else every variant), on every roll in the dice
    games; FilterError naming the first ply that no game allows, and why."""
    names = sorted(games) or list(game_names())
    fits: set[str] = set()
    failures: list[tuple[int, bool, int, str, str, str]] = []
    for name in names:
        game = get_game(name)
        plies = split_plies(text, game.has_dice)
        if not plies:
            raise FilterError(f"--moves {quoted(text)}: no move in it")
        for variant in [v for v in game.variants if v in variants] or game.variants:
            bad = _bad_ply(game, game.ruleset(variant), plies)
            if bad is None:
                fits.add(name)
                break
            index, read, why = bad
            failures.append((index, read, len(plies), game.title, plies[index], why))
    if fits:
        return MovesQuery(text, frozenset(fits))
    # The game whose rules went furthest, a ply read as a move before one that is no move,
    # then the game that reads more plies in the text (its notation is likelier the one).
    index, _, _, title, ply, why = max(failures, key=lambda failure: failure[:3])
    where = f"ply {index + 1} {quoted(ply)} is no legal move: {why}"
    if len(names) == 1:
        raise FilterError(f"--moves {quoted(text)}: {where} ({title})")
    raise FilterError(
        f"--moves {quoted(text)} is the opening of no game; nearest, {title}: {where}"
    )


def _bad_ply(
    game: Game[Any, Any], ruleset: Ruleset, plies: list[str]
) -> tuple[int, bool, str] | None:
    """The first ply that no position reached by the plies before it allows (with every roll
    in a dice game): its index, whether some position read it as a move, and why; None when
    every ply is legal."""
    states: set[State[Any]] = {game.initial_state(ruleset)}
    for index, ply in enumerate(plies):
        states = _rolled(states)
        if not states:
            return index, False, "the game is over before it"
        after: set[State[Any]] = set()
        illegal: set[str] = set()
        unread: set[str] = set()
        for state in states:
            try:
                after.add(game.play_text(state, ply))
            except IllegalMove as error:
                illegal.add(error.message)
            except GameError as error:
                unread.add(error.message)
        if not after:
            # One reason when every roll gives the same (or there is no roll), else none of
            # the rolls' reasons is more to the point than another.
            reasons = sorted(illegal or unread)
            why = reasons[0] if len(reasons) == 1 else "no roll allows it"
            return index, bool(illegal), why
        states = after
    return None


def _rolled(states: Iterable[State[Any]]) -> set[State[Any]]:
    """The positions with a player to move that the states lead to, after any roll; a game
    that is over leads nowhere."""
    found: set[State[Any]] = set()
    waiting = list(states)
    while waiting:
        state = waiting.pop()
        if state.is_terminal():
            continue
        if state.is_chance():
            waiting.extend(chance_children(state))
        else:
            found.add(state)
    return found


def opens_with(entry: Entry, text: str) -> bool:
    """Whether the game's first moves are those of `text`: each ply read in the game's
    position before that turn and compared with the recorded move in canonical notation."""
    record = entry.record()
    game = game_of(record)
    plies = split_plies(text, game.has_dice)
    if len(record.turns) < len(plies):
        return False
    try:
        for step in replay(record, game):
            if step.turn >= len(plies):
                break
            wanted = game.format_move(step.before, game.parse_move(step.before, plies[step.turn]))
            if wanted != game.format_move(step.before, step.move):
                return False
    except (ReplayError, GameError):
        return False
    return True


@dataclass(frozen=True)
class Criteria:
    """What `referee select` keeps; empty fields do not filter. All given filters must hold,
    or one of them with `any_of`. Repeated values of one option are alternatives."""

    games: frozenset[str] = frozenset()
    variants: frozenset[str] = frozenset()
    players: tuple[str, ...] = ()
    seat0: str | None = None
    seat1: str | None = None
    winner: str | None = None
    reasons: frozenset[str] = frozenset()
    details: tuple[str, ...] = ()
    turns: TurnRange | None = None
    events: tuple[str, ...] = ()
    tags: tuple[tuple[str, str], ...] = ()
    valid: bool | None = None
    position: PositionQuery | None = None
    moves: MovesQuery | None = None
    any_of: bool = False

    def player_names(self) -> list[str]:
        """The player names the filters ask for (`--winner`'s seat words are no name)."""
        names = [*self.players, self.seat0, self.seat1]
        if self.winner is not None and self.winner not in WINNER_WORDS:
            names.append(self.winner)
        return [name for name in names if name is not None]

    def needs_turns(self) -> bool:
        return self.turns is not None

    def line_test(self) -> Callable[[bytes], bool] | None:
        """A quick test of a JSONL line before it is decoded: False when the line cannot hold
        a game that passes, because a name, game or value asked for is nowhere in it.

        A line without a backslash has every JSON string written as its plain UTF-8 text, so a
        value asked for is in a string of the line only if `"value"` is in its bytes; a line
        with a backslash (an escape could hide the value) is always decoded.
        """
        if self.any_of:
            return None
        names = self.player_names()
        groups = [
            [_quoted(game) for game in self.games],
            [_quoted(reason) for reason in self.reasons],
            [f"/{variant}@".encode() for variant in self.variants],
            *([_quoted(name)] for name in names),
            *([_quoted(text)] for tag in self.tags for text in tag),
        ]
        # A group with a value that has no quick form (it needs escapes) cannot rule a line out.
        needles = [tuple(group) for group in groups if group and all(group)]
        if not needles:
            return None

        def keep(line: bytes) -> bool:
            if b"\\" in line:
                return True
            return all(any(needle in line for needle in group) for group in needles)

        return keep

    def predicates(self) -> list[Predicate]:
        """The filters given, cheapest first (header fields, then replays)."""
        tests: list[Predicate] = []
        if self.games:
            games = self.games
            tests.append(lambda e: e.view.game in games)
        if self.variants:
            variants = self.variants
            tests.append(lambda e: e.variant in variants)
        for name in self.players:
            tests.append(_plays(name))
        for seat, seated in ((0, self.seat0), (1, self.seat1)):
            if seated is not None:
                tests.append(_seated(seat, seated))
        if self.winner is not None:
            tests.append(_winner_test(self.winner))
        if self.reasons:
            reasons = self.reasons
            tests.append(lambda e: e.view.result is not None and e.view.result.reason in reasons)
        if self.details:
            details = tuple(word.casefold() for word in self.details)
            tests.append(lambda e: _detail_has(e, details))
        if self.turns is not None:
            turns = self.turns
            tests.append(lambda e: turns.holds(len(e.view.turns)))
        if self.events:
            words = tuple(word.casefold() for word in self.events)
            tests.append(lambda e: _event_has(e, words))
        for key, value in self.tags:
            tests.append(_tagged(key, value))
        if self.moves is not None:
            tests.append(self.moves.opened_by)
        if self.position is not None:
            position = self.position
            tests.append(lambda e: position.reached_by(e.record()))
        if self.valid is not None:
            wanted = self.valid
            tests.append(
                lambda e: validate_record(e.record(), e.file, e.number, e.line).valid == wanted
            )
        return tests

    def matcher(self) -> Predicate:
        """One predicate for all the filters (AND, or OR with `any_of`)."""
        tests = self.predicates()
        if not tests:
            return lambda e: True
        if len(tests) == 1:
            return tests[0]
        if self.any_of:
            return lambda e: any(test(e) for test in tests)

        def every(entry: Entry) -> bool:
            # A plain loop: all() over a generator costs a frame per game.
            for test in tests:  # noqa: SIM110
                if not test(entry):
                    return False
            return True

        return every


def _quoted(text: str) -> bytes:
    """`"text"` as JSON writes it when nothing in it is escaped, else b"" (no quick test)."""
    if any(char in text for char in '"\\') or any(ord(char) < 0x20 for char in text):
        return b""
    try:
        return b'"' + text.encode() + b'"'
    except UnicodeEncodeError:  # bytes that are no UTF-8 (from the command line): no record
        return b""  # holds them, which the full test finds


def _plays(name: str) -> Predicate:
    return lambda e: any(player.name == name for player in e.view.players)


def _seated(seat: int, name: str) -> Predicate:
    return lambda e: e.view.players[seat].name == name


def _tagged(key: str, value: str) -> Predicate:
    return lambda e: e.view.tags.get(key) == value


def _winner_test(winner: str) -> Predicate:
    """`seat0`, `seat1`, `draw`, or a player's name (the words win over a player so named)."""
    if winner == "draw":
        return lambda e: e.view.result is not None and e.view.result.winner is None
    if winner in ("seat0", "seat1"):
        seat = int(winner[-1])
        return lambda e: e.view.result is not None and e.view.result.winner == seat

    def named(entry: Entry) -> bool:
        result = entry.view.result
        return (
            result is not None
            and result.winner is not None
            and entry.view.players[result.winner].name == winner
        )

    return named


def _detail_has(entry: Entry, words: tuple[str, ...]) -> bool:
    """The result's detail (`line`, `loop`, what a bot did) contains one of the words."""
    result = entry.view.result
    detail = (result.detail or "").casefold() if result is not None else ""
    return any(word in detail for word in words)


def _event_has(entry: Entry, words: tuple[str, ...]) -> bool:
    """The event's name or the tournament's id contains one of the words (any case)."""
    event = entry.view.event
    texts = [text.casefold() for text in (event.event, event.tournament) if text]
    return any(word in text for word in words for text in texts)
