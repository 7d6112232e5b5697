"""The engine interface every game implements.

Modelled on OpenSpiel's Game/State: a `Game` object knows its rulesets, notation and
rendering; a `State` is immutable and hashable, says whether a chance event (a dice roll) or
a player comes next, lists legal moves and returns the next state from `play`.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from referee.errors import RefereeError
from referee.escaping import quoted

Roll = tuple[int, ...]
"""The dice of one chance event: the opening (one die per seat) or a turn roll (two dice)."""

M = TypeVar("M")
"""A game's move (ThaxMove, TakhtehMove, ...)."""
S = TypeVar("S", bound="State[Any]")
"""A game's state class."""


class TurnText(Protocol):
    """A turn as a record writes it (`records.model.Turn`), as `Game.play_turns` reads it."""

    @property
    def seat(self) -> int: ...
    @property
    def roll(self) -> Sequence[int] | None: ...
    @property
    def move(self) -> str: ...


class GameError(RefereeError, ValueError):
    """Base of the errors an engine raises on bad input."""

    code = "game"

    @property
    def rule(self) -> str:
        """The rule broken: the error's `code`, under the name the engines give it."""
        return self.code


class IllegalMove(GameError):
    """A move that the rules forbid; `code` is a stable code naming the rule broken."""

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(message, code=rule)


class NotationError(GameError):
    """Text that is not a move (or position) in the game's notation."""

    code = "notation"


class RulesetError(GameError):
    """An unknown game, variant, version or option."""

    code = "ruleset"


class ParseError(GameError):
    """Text of a game's file format (PDN, `.mat`, a Trax game list) that cannot be read, at a
    1-based `line` and `column`. A reader that goes on to the next game keeps it on the game
    it could not read instead of raising it."""

    code = "syntax"
    line: int

    def __init__(
        self, message: str, *, line: int, column: int = 1, code: str | None = None
    ) -> None:
        super().__init__(message, code=code, line=line)
        self.column = column


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended by its rules: the winner's seat (None for a draw) and the points."""

    winner: int | None
    points: int = 1
    reason: str = "rules"
    detail: str = ""


@dataclass(frozen=True, slots=True)
class DemoSetup:
    """What a game plays in `referee demo`: its bots' specs, the games of each pairing and
    the shipped opening suite its games start from (None: the standard start, or the dice)."""

    bots: tuple[str, ...]
    games_per_pair: int
    openings: str | None = None


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A game, a variant and its options; `id` is written into every record."""

    game: str
    variant: str
    version: int = 1
    options: tuple[tuple[str, Any], ...] = field(default=())

    @property
    def id(self) -> str:
        base = f"{self.game}/{self.variant}@{self.version}"
        if not self.options:
            return base
        return base + "?" + "&".join(f"{k}={v}" for k, v in self.options)

    def option(self, name: str, default: Any = None) -> Any:
        for key, value in self.options:
            if key == name:
                return value
        return default


_VERSION = re.compile(r"[1-9][0-9]*")
"""A ruleset version as written: a plain positive number (not `01`, not other digits)."""


def parse_ruleset_id(text: str) -> tuple[str, str, int, dict[str, str]]:
    """Split `game/variant@version?k=v&k=v` into its parts (no semantic check)."""
    head, _, query = text.partition("?")
    path, at, version = head.partition("@")
    game, slash, variant = path.partition("/")
    if not slash or not at or not game or not variant or not _VERSION.fullmatch(version):
        raise RulesetError(f"ruleset id {text!r} is not of the form game/variant@version")
    options: dict[str, str] = {}
    if query:
        for pair in query.split("&"):
            key, eq, value = pair.partition("=")
            if not eq or not key:
                raise RulesetError(f"ruleset id {text!r}: option {pair!r} is not key=value")
            options[key] = value
    return game, variant, int(version), options


def ruleset_variant(text: str) -> str:
    """The variant named in a ruleset id (`thax/standard@1` -> `standard`), without checking
    the rest: for summaries of records that may not be valid."""
    return text.partition("/")[2].partition("@")[0]


class State(ABC, Generic[M]):
    """An immutable position, with whose turn it is or the chance event that comes next;
    `M` is the game's move."""

    __slots__ = ()

    ruleset: Ruleset

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to decide, or whose dice are rolled next; None for the opening roll."""

    def is_chance(self) -> bool:
        """True when a dice roll comes next instead of a decision."""
        return False

    def chance_outcomes(self) -> Sequence[tuple[Roll, float]]:
        """The distinct outcomes of the next chance event and their probabilities."""
        return ()

    def is_opening_roll(self) -> bool:
        """True before the opening roll of a dice game, which decides who plays first."""
        return self.to_move is None and self.is_chance()

    def apply_chance(self, roll: Roll) -> Self:
        """The state after the dice show `roll` (as rolled, in any order)."""
        raise IllegalMove("no dice roll is expected here", rule="no-roll-expected")

    @property
    def roll(self) -> Roll | None:
        """The dice the player to move is playing, if any."""
        return None

    @abstractmethod
    def legal_moves(self) -> list[M]:
        """Every legal move, each distinct move once."""

    def count_legal_moves(self) -> int:
        """len(legal_moves()); a game may count them without making the moves."""
        return len(self.legal_moves())

    @abstractmethod
    def play(self, move: M) -> Self:
        """The state after `move`; raises IllegalMove naming the rule broken."""

    def children(self) -> list[Self]:
        """The state after each legal move, in the order of `legal_moves`; a game may make
        them without checking again the moves it has just listed."""
        return [self.play(move) for move in self.legal_moves()]

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended by its rules, or None while it goes on."""

    def is_terminal(self) -> bool:
        return self.outcome() is not None


class Reference(ABC, Generic[S, M]):
    """A yardstick of play: how likely a seat is to win a position, a draw counting half, by
    some engine (the solved game, a network, a search). `referee analyse` measures each move
    by what it loses against the best move and each roll by what it gains against the average
    roll (docs/analysis.md); a game gives its references through `Game.reference`."""

    spec: str
    """The reference as a spec that names it again, every option written out
    (`search:depth=2,scale=20`)."""

    @abstractmethod
    def values(self, states: Sequence[S], seat: int) -> list[float]:
        """`seat`'s chance of winning from each of `states`, from 0 to 1 (a draw counting
        half), whatever comes next: a roll, a decision (worth its best move's value by
        `move_values`, the one the analysis takes as the best) or nothing (the game is over,
        worth its outcome)."""

    def move_values(self, state: S, moves: Sequence[M]) -> list[float]:
        """The mover's chance after each of `moves` of the decision `state`."""
        mover = state.to_move
        assert mover is not None
        return self.values([state.play(move) for move in moves], mover)

    def roll_values(self, state: S, seat: int) -> list[float]:
        """`seat`'s chance after each roll of the chance node `state`, in the order of
        `state.chance_outcomes()`."""
        return self.values([state.apply_chance(roll) for roll, _ in state.chance_outcomes()], seat)

    def roll_mean(self, state: S, seat: int) -> float:
        """The mean of `roll_values`, each weighted by its roll's chance."""
        mean = 0.0
        outcomes = state.chance_outcomes()
        for (_, chance), value in zip(outcomes, self.roll_values(state, seat), strict=True):
            mean += chance * value
        return mean

    def luck(self, state: S, rolled: S, seat: int) -> float:
        """What the roll that made `rolled` of the chance node `state` gains `seat`: the
        value of `rolled` less the mean of every roll's (so the luck's own mean is zero,
        whatever the values)."""
        return self.values([rolled], seat)[0] - self.roll_mean(state, seat)


RULESETS_KEPT = 1024
"""The most rulesets `Game.parse_ruleset` keeps read (a file names a few)."""
_RULESETS: dict[tuple[int, str], tuple[Game[Any, Any], Ruleset]] = {}
"""The rulesets read, by the game's id and the text. Keyed by identity, not by the game
itself: a plug-in game may compare by value and have no hash; the game is kept with its
ruleset, so that its id is no other object's while the entry lasts."""


class Game(ABC, Generic[S, M]):
    """One game: its rulesets, start positions, notation and rendering; `S` is its state
    class and `M` its move. Code that finds a game by name (`get_game`) holds a
    `Game[Any, Any]`: the types meet again inside each game's own modules."""

    name: ClassVar[str]
    title: ClassVar[str]
    variants: ClassVar[tuple[str, ...]] = ("standard",)
    has_dice: ClassVar[bool] = False
    turn_cap: ClassVar[int]
    """Turns after which a tournament adjudicates a draw unless configured otherwise."""

    def ruleset(self, variant: str = "standard", **options: Any) -> Ruleset:
        if variant not in self.variants:
            known = ", ".join(self.variants)
            raise RulesetError(f"{self.name} has no variant {quoted(variant)} (known: {known})")
        return Ruleset(self.name, variant, 1, tuple(sorted(options.items())))

    def parse_ruleset(self, text: str) -> Ruleset:
        # Every record names its ruleset, mostly the same few texts: each is read once (a
        # ruleset is immutable, so one serves every record that names it).
        known = _RULESETS.get((id(self), text))
        if known is not None:
            return known[1]
        game, variant, version, options = parse_ruleset_id(text)
        if game != self.name:
            raise RulesetError(f"ruleset {text!r} is not a {self.name} ruleset")
        if version != 1:
            raise RulesetError(f"ruleset {text!r}: version {version} is unknown (known: 1)")
        ruleset = self.ruleset_from(variant, options)
        if len(_RULESETS) >= RULESETS_KEPT:
            _RULESETS.clear()
        _RULESETS[id(self), text] = (self, ruleset)
        return ruleset

    def ruleset_from(self, variant: str, options: Mapping[str, object]) -> Ruleset:
        """The ruleset of `variant` with `options` as written (in an id or a configuration),
        each checked and converted by the game."""
        written = {key: str(value) for key, value in options.items()}
        return self.ruleset(variant, **self.coerce_options(written))

    def match_length(self, ruleset: Ruleset) -> int:
        """Points that win a match under `ruleset`; 1 means single games."""
        return 1

    def win_points(self, state: S, winner: int) -> tuple[int, ...]:
        """The points a win that the rules did not decide (a resignation, a forfeit, an
        adjudication) may score when the game stops at `state`: a single game, unless the game
        scores more for a win the position still allows (a Takhteh gammon)."""
        return (1,)

    def coerce_options(self, options: dict[str, str]) -> dict[str, Any]:
        if options:
            raise RulesetError(f"{self.name} takes no ruleset options, got {sorted(options)}")
        return {}

    @abstractmethod
    def initial_state(
        self, ruleset: Ruleset, start: str | None = None, first: int | None = None
    ) -> S:
        """The start of a game: the standard start, or the position string `start`.

        `first` is the seat that starts when no opening roll decides it (a later game of a
        Takhteh match).
        """

    def parse_position(self, ruleset: Ruleset, text: str) -> S:
        """A state from the game's own position text (FEN, Position ID, token list)."""
        raise NotationError(f"{self.title} has no position notation")

    def format_position(self, state: S) -> str:
        """The game's own position text for `state`."""
        raise NotationError(f"{self.title} has no position notation")

    @abstractmethod
    def parse_move(self, state: S, text: str) -> M:
        """The move that `text` denotes in `state`; NotationError if it is not notation."""

    @abstractmethod
    def format_move(self, state: S, move: M) -> str:
        """The canonical notation of `move` in `state`."""

    moves_written_alone: ClassVar[bool] = False
    """Whether `format_move` writes a move from the move alone, the same in every state: a
    tournament's game loop then keeps each move's text (play.py)."""

    @abstractmethod
    def render_text(self, state: S) -> str:
        """A compact board for the terminal."""

    @abstractmethod
    def render_svg(self, state: S, before: S | None = None) -> str:
        """A standalone SVG picture of the position. With `before`, the position the last
        move was played in (its dice rolled), the picture marks that move (`games/marks.py`)
        and shows its dice."""

    def bots(self) -> Mapping[str, type[Any]]:
        """Game-specific bot classes by name, each a `games.agent.Bot` (a game's own method
        says `Bot[S, M]`; the bot interface is built on this module, which does not import
        it); `random` is added for every game."""
        return {}

    symmetric_positions: ClassVar[bool] = False
    """Whether `position_key` can take a position's rotations and reflections for the
    position (`--symmetric`)."""

    def position_key(self, state: S, symmetric: bool = False) -> Hashable:
        """What makes two positions the same, whatever moves reached them: one opening of a
        suite, one position searched for in records. The position text by default; a game
        may read it from the state instead (quicker), and with `symmetric` (when
        `symmetric_positions`) give one key to a position and its rotations and reflections."""
        return self.format_position(state)

    def warm_up(self, bots: Collection[str]) -> str | None:
        """The line for the terminal when the bots named `bots` (by their registry names)
        make the first game of a tournament wait for work done once (a table solved once a
        machine); None when nothing waits."""
        return None

    demo: ClassVar[DemoSetup | None] = None
    """The game's round robin in `referee demo`; None leaves the game out of it."""

    def read_move(self, state: S, text: str) -> tuple[M, S]:
        """The move `text` denotes in `state` and the state it leads to; NotationError or
        IllegalMove as `parse_move` and `play` raise them. A game whose reading of a move
        already does part of playing it (Trax finds the tile's space, Thai checkers plays a
        capture to read it) does that work once here: the replay of a record calls this."""
        move = self.parse_move(state, text)
        return move, state.play(move)

    moves_refused_after_end: ClassVar[bool] = False
    """Whether `read_move` refuses every move in a position where the game has ended by its
    rules (the engine's own legality check sees the end): the replay of a record then asks
    whether the game has ended only when a turn fails, not before every turn (replay.py).
    tests/records/test_replay.py holds each game that says so to it."""

    def play_text(self, state: S, text: str) -> S:
        return self.read_move(state, text)[1]

    def play_turns(self, state: S, turns: Sequence[TurnText]) -> S | None:
        """The state after `turns`, each its seat's roll and move, played from `state` on one
        board that the engine changes in place, without a state a turn; None as soon as a
        turn does not simply play (a seat out of turn, a roll missing or out of place, a move
        refused, a turn after the end), or when the game has no such way (this default).
        The validator plays each record so, and replays it turn by turn (records/replay.py,
        `replay`) only when this gives None, to say where and why.
        tests/records/test_play_turns.py holds every game's to `replay`."""
        return None

    def reference(self, spec: str | None = None) -> Reference[S, M] | None:
        """The reference `referee analyse` measures play by, from its spec (`name:key=value,
        ...`; None: the game's default); None when the game has none. A spec the game does not
        know raises a GameError."""
        return None


def chance_children(state: S) -> list[S]:
    """The distinct states a chance event leads to (an opening roll has two: who starts)."""
    return list(dict.fromkeys(state.apply_chance(roll) for roll, _ in state.chance_outcomes()))


def perft_counts(state: State[Any], depth: int) -> list[int]:
    """The move-sequence counts of depths 1..`depth` from one walk of the tree."""
    counts = [0] * (depth + 1)

    def walk(node: State[Any], level: int) -> None:
        if node.is_terminal():
            return
        if node.is_chance():
            for child in chance_children(node):
                walk(child, level)
            return
        if level + 1 == depth:
            counts[depth] += node.count_legal_moves()
            return
        children = node.children()
        counts[level + 1] += len(children)
        for child in children:
            walk(child, level + 1)

    if depth > 0:
        walk(state, 0)
    return counts[1:]


def perft(state: State[Any], depth: int) -> int:
    """Count the move sequences of `depth` decisions from `state`.

    As in chess perft, a finished position has no moves: it ends sequences, it does not
    count as a leaf of a deeper one. A chance node is expanded over its distinct results
    without using depth, so in dice games each roll is a branch.
    """
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if state.is_chance():
        return sum(perft(child, depth) for child in chance_children(state))
    if depth == 1:
        return state.count_legal_moves()
    return sum(perft(child, depth - 1) for child in state.children())
