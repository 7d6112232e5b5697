"""THAX rules (docs/rules/thax.md): the position, the options of a roll and their effects."""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.games.base import IllegalMove, Outcome, Roll, Ruleset, State
from referee.games.dice import OPENING_OUTCOMES, SORTED_ROLLS, TURN_OUTCOMES
from referee.games.state import state_class

NUMBERS = (1, 2, 3, 4, 5)
SPACES = 15
"""Each side has n spaces numbered n, for n = 1..5."""

Side = tuple[int, int, int, int, int]
"""How many spaces of each number 1..5 are covered on one side."""

EMPTY_SIDE: Side = (0, 0, 0, 0, 0)


class ThaxMove(NamedTuple):
    """One turn's effect: own spaces covered, the opponent's space taken, own space cleared.

    Moves are compared by effect, so `P3 P5` and `P5 P3` are one move, and `P5` from a sum is
    the same move as `P5` from one die.
    """

    place: tuple[int, ...] = ()
    take: int = 0
    remove: int = 0


PASS = ThaxMove()
WELL_FORMED = frozenset(
    [PASS]
    + [ThaxMove(place=(n,)) for n in NUMBERS]
    + [ThaxMove(place=(m, n)) for m in NUMBERS for n in NUMBERS if m <= n]
    + [ThaxMove(place=(y,), take=x) for x in NUMBERS for y in NUMBERS]
    + [ThaxMove(remove=n) for n in NUMBERS]
)
"""Every move of the shape of a THAX option (the rules decide which are legal)."""


def _uncovered(side: Side, n: int) -> int:
    return n - side[n - 1]


def options(own: Side, opponent: Side, roll: Roll) -> list[ThaxMove]:
    """Every distinct legal move with `roll`; [PASS] when no option is possible."""
    a, b = SORTED_ROLLS[roll]
    moves: list[ThaxMove] = []
    if a == 6 and b == 6:
        moves = [ThaxMove(remove=n) for n in NUMBERS if own[n - 1] > 0]
    elif a == 6:
        if _uncovered(own, b) > 0:
            moves = [ThaxMove(place=(b,))]
    else:
        place = _placements(own, a, b)
        if place:
            moves.append(ThaxMove(place=place))
        for x, y in ((a, b), (b, a)) if a != b else ((a, a),):
            if opponent[x - 1] > 0 and _uncovered(own, y) > 0:
                moves.append(ThaxMove(place=(y,), take=x))
        total = a + b
        if total <= 5 and _uncovered(own, total) > 0:
            sum_move = ThaxMove(place=(total,))
            if sum_move not in moves:
                moves.append(sum_move)
    return moves or [PASS]


def _placements(own: Side, a: int, b: int) -> tuple[int, ...]:
    """The Place option: as many of the two dice as can be placed (b <= a)."""
    if a == b:
        return (a,) * min(2, _uncovered(own, a))
    return tuple(n for n in (b, a) if _uncovered(own, n) > 0)


def check(own: Side, opponent: Side, roll: Roll, move: ThaxMove) -> IllegalMove | None:
    """Why `move` is illegal with `roll`, or None when it is legal; no move list needed."""
    if move not in WELL_FORMED:
        return _shape_error(move)
    a, b = SORTED_ROLLS[roll]
    # The roll's text only in the messages: a legal move, the common case, needs none.
    if move.remove:
        if (a, b) != (6, 6):
            return IllegalMove(
                f"only a 6-6 (thax) removes a piece, not {a}-{b}", rule="thax.remove-needs-thax"
            )
        if own[move.remove - 1] == 0:
            return IllegalMove(
                f"no own {move.remove}-space is covered", rule="thax.remove-uncovered"
            )
        return None
    if (a, b) == (6, 6):
        if move == PASS and own == EMPTY_SIDE:
            return None
        return IllegalMove("a 6-6 (thax) must remove one own piece", rule="thax.thax-must-remove")
    if move.take:
        x, (y,) = move.take, move.place
        if a == 6 or {x, y} != {a, b}:
            return IllegalMove(
                f"a take from {x} to {y} needs the dice {x} and {y}, the roll is {a}-{b}",
                rule="thax.take-dice",
            )
        if opponent[x - 1] == 0:
            return IllegalMove(f"the opponent has no covered {x}-space", rule="thax.take-uncovered")
        if _uncovered(own, y) == 0:
            return IllegalMove(f"every own {y}-space is covered", rule="thax.space-covered")
        return None
    if move == PASS:
        legal = options(own, opponent, roll)
        if legal != [PASS]:
            return IllegalMove(
                f"a pass with {a}-{b}, but a move exists (must play one option)",
                rule="thax.must-move",
            )
        return None
    return _check_place(own, move.place, a, b)


def _shape_error(move: ThaxMove) -> IllegalMove:
    numbers = (*move.place, move.take or 1, move.remove or 1)
    if any(n not in NUMBERS for n in numbers):
        return IllegalMove("spaces are numbered 1 to 5", rule="thax.no-such-space")
    if move.remove and (move.place or move.take):
        return IllegalMove("a removal is the whole turn", rule="thax.one-option")
    if move.take and len(move.place) != 1:
        return IllegalMove("a take places exactly the one piece taken", rule="thax.one-option")
    if len(move.place) > 2:
        return IllegalMove("a turn places at most two pieces", rule="thax.one-option")
    return IllegalMove("placements are listed in increasing order", rule="thax.one-option")


def _check_place(own: Side, place: tuple[int, ...], a: int, b: int) -> IllegalMove | None:
    for n in set(place):
        if place.count(n) > _uncovered(own, n):
            return IllegalMove(f"not enough uncovered own {n}-spaces", rule="thax.space-covered")
    if a == 6:
        if place != (b,):
            return IllegalMove(
                f"with {a}-{b} the 6 is dead: only one piece on a {b}-space", rule="thax.half-thax"
            )
        return None
    if len(place) == 1 and place[0] == a + b:
        return None
    if len(place) == 2 and place != (b, a):  # the dice in increasing order (a >= b)
        return IllegalMove(
            f"placing {place} does not match the roll {a}-{b}", rule="thax.place-dice"
        )
    if len(place) == 1 and place[0] not in (a, b):
        reason = f"{place[0]} is neither a die of {a}-{b} nor their sum"
        if a + b > 5:
            reason += f" (the sum {a + b} is above 5)"
        return IllegalMove(reason, rule="thax.place-dice")
    if len(place) < len(_placements(own, a, b)):
        return IllegalMove(
            f"both dice of {a}-{b} can be placed, so both must be (as many as possible)",
            rule="thax.place-both",
        )
    return None


@state_class
class ThaxState(State[ThaxMove]):
    """A THAX position: both sides, whose turn, and the dice once rolled."""

    ruleset: Ruleset
    sides: tuple[Side, Side] = (EMPTY_SIDE, EMPTY_SIDE)
    seat: int | None = None
    roll: Roll | None = None
    winner: int | None = None

    def _key(self) -> tuple[Any, ...]:
        return (self.ruleset, self.sides, self.seat, self.roll, self.winner)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ThaxState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"ThaxState(sides={self.sides}, seat={self.seat}, roll={self.roll})"

    @property
    def to_move(self) -> int | None:
        return self.seat

    def is_chance(self) -> bool:
        return self.winner is None and self.roll is None

    def chance_outcomes(self) -> tuple[tuple[Roll, float], ...]:
        if not self.is_chance():
            return ()
        return OPENING_OUTCOMES if self.seat is None else TURN_OUTCOMES

    def apply_chance(self, roll: Roll) -> ThaxState:
        if not self.is_chance():
            raise IllegalMove("no dice roll is expected here", rule="thax.no-roll-expected")
        dice = SORTED_ROLLS.get(tuple(roll))
        if dice is None:
            raise IllegalMove(f"a roll is two dice of 1..6, not {list(roll)}", rule="roll.values")
        if self.seat is None:
            if roll[0] == roll[1]:
                return self
            return ThaxState(self.ruleset, self.sides, 0 if roll[0] > roll[1] else 1)
        return ThaxState(self.ruleset, self.sides, self.seat, dice)

    def legal_moves(self) -> list[ThaxMove]:
        if self.roll is None or self.winner is not None:
            return []
        seat = self.seat
        assert seat is not None
        return options(self.sides[seat], self.sides[1 - seat], self.roll)

    def play(self, move: ThaxMove) -> ThaxState:
        if self.winner is not None:
            raise IllegalMove("the game is over", rule="game-over")
        if self.roll is None:
            raise IllegalMove("the dice must be rolled first", rule="roll-expected")
        seat = self.seat
        assert seat is not None
        own, opponent = self.sides[seat], self.sides[1 - seat]
        error = check(own, opponent, self.roll, move)
        if error is not None:
            raise error
        return self._after(seat, own, opponent, move)

    def _after(self, seat: int, own: Side, opponent: Side, move: ThaxMove) -> ThaxState:
        counts = list(own)
        for n in move.place:
            counts[n - 1] += 1
        if move.remove:
            counts[move.remove - 1] -= 1
        new_own: Side = tuple(counts)  # type: ignore[assignment]
        if move.take:
            taken = list(opponent)
            taken[move.take - 1] -= 1
            opponent = tuple(taken)  # type: ignore[assignment]
        sides = (new_own, opponent) if seat == 0 else (opponent, new_own)
        if sum(new_own) == SPACES:
            return ThaxState(self.ruleset, sides, seat, None, seat)
        a, b = self.roll  # type: ignore[misc]
        extra_turn = a == b and a != 6
        return ThaxState(self.ruleset, sides, seat if extra_turn else 1 - seat)

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.winner, 1, "rules", "all fifteen spaces covered")

    def is_terminal(self) -> bool:
        return self.winner is not None
