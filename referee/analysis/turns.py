"""One record analysed turn by turn against a reference (`games.base.Reference`).

At each decision the reference values every legal move for the mover; the move played loses
the difference to the best one, its error (0 for the best move, never below). At each chance
node it values every roll for the seat that rolls; the roll rolled gains the difference to
the mean of those values, weighted by the rolls' chances: its luck, whose mean over the rolls
is zero whatever the reference, so that a result less the luck keeps its expectation. The
opening roll of a dice game, which decides who starts, is the luck of the seat it makes
start (a tie, rolled again, changes nothing and is no luck). Book moves (an opening suite's)
are no one's choice: no error is charged for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from referee.games.base import Game, Reference, Roll, State
from referee.records.model import Record
from referee.records.replay import replay, start_state


class TurnAnalysis(NamedTuple):
    """One turn: the roll's luck and the move's error, for the seat that played it (a named
    tuple: made for every turn, it must be cheap to build)."""

    seat: int
    move: str
    """The move as the record writes it."""
    choices: int
    """The legal moves there were; 0 for a book move, which was not the mover's choice."""
    value: float | None
    """The mover's chance of winning before the move (after the roll), with the reference's
    best move; None for a book move."""
    error: float
    """What the move lost against the best move, in chances of winning (0 for a book move)."""
    best: str | None
    """The reference's best move, where the move played is not as good."""
    roll: list[int] | None
    """The dice as the record writes them."""
    luck: float | None
    """What the roll gained against the average roll, for the mover; None without a roll."""


@dataclass(frozen=True, slots=True)
class OpeningLuck:
    """The opening roll that decided who starts."""

    seat: int
    """The seat it made start, whose luck it is."""
    roll: Roll
    luck: float


def opening_luck(
    record: Record, game: Game[Any, Any], reference: Reference[Any, Any], start: State[Any]
) -> OpeningLuck | None:
    """The luck of the opening roll that made `start` (the record's start, after its opening
    rolls) the starter's, or None when no roll decided it; the ties before it were rolled
    again."""
    rolls = record.opening_dice()
    seat = start.to_move
    if not rolls or seat is None:
        return None
    chance = game.initial_state(game.parse_ruleset(record.ruleset), record.start)
    return OpeningLuck(seat, tuple(rolls[-1]), reference.luck(chance, start, seat))


def analyse_turns(
    record: Record, game: Game[Any, Any], reference: Reference[Any, Any]
) -> tuple[OpeningLuck | None, list[TurnAnalysis]]:
    """The opening roll's luck and every turn's analysis; ReplayError where the record does
    not replay."""
    start = start_state(record, game)
    opening = opening_luck(record, game, reference, start)
    turns = []
    chance = start
    format_move = game.format_move
    for step in replay(record, game, start):
        turn = record.turns[step.turn]
        seat = turn.seat
        before = step.before
        rolled = chance.is_chance()
        if turn.book:
            luck = reference.luck(chance, before, seat) if rolled else None
            turns.append(TurnAnalysis(seat, turn.move, 0, None, 0.0, None, turn.roll, luck))
            chance = step.after
            continue
        moves = before.legal_moves()
        # The decision is valued before the roll's luck: a reference may keep its best value
        # for the luck (the value of the position rolled).
        values = reference.move_values(before, moves)
        luck = reference.luck(chance, before, seat) if rolled else None
        value = max(values)
        try:
            played = values[moves.index(step.move)]
        except ValueError:  # a move read as written, not as the engine lists it
            played = reference.values([step.after], seat)[0]
        error = value - played
        best = format_move(before, moves[values.index(value)]) if error else None
        turns.append(TurnAnalysis(seat, turn.move, len(moves), value, error, best, turn.roll, luck))
        chance = step.after
    return opening, turns
