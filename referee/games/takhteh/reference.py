"""Takhteh's reference for `referee analyse`: tdnet's network (net.py), as a chance of winning.

The network gives, for a board seen from the player who has just moved, that player's chance
of winning the game (a gammon counts as a win: the ratings score a game 1, 0.5 or 0). That
is the value at `depth=0`. At `depth=1` a board is worth the mean over the opponent's 21 rolls
of what is left after the opponent's best reply by the network, as the `tdnet` bot looks
ahead (without its time limit and its cut to the `top` plays). A position with the dice rolled
is worth its best play; a position to roll, the value of the board its roller faces.

Luck is measured at depth 0 whatever the depth of the errors, the roll's value and the mean
over the rolls alike (a mean at depth 1 would take some 20 looks ahead for each of 21 rolls
a turn): its mean is zero at any depth.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from referee.games.base import Reference
from referee.games.dice import TURN_OUTCOMES
from referee.games.reference import Setting, ValueCache, read_spec, written
from referee.games.takhteh.net import Net
from referee.games.takhteh.rules import (
    Board,
    TakhtehMove,
    TakhtehState,
    apply_legs,
    flip,
    legal_plays,
)

REFERENCES = {"tdnet": {"depth": Setting(0, 0, 1)}}
"""The network, looking ahead 0 or 1 roll."""

ROLL_INDEX = {roll: index for index, (roll, _) in enumerate(TURN_OUTCOMES)}
"""A turn roll as a rolled state holds it (larger die first) -> its place among the rolls."""


@cache
def _net() -> Net:
    return Net.load()


class NetReference(Reference[TakhtehState, TakhtehMove]):
    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.spec = written("tdnet", {"depth": depth})
        self.net = _net()
        self._looked: ValueCache[Board, float] = ValueCache()
        """A board seen from the player who has just moved -> that player's chance at depth
        1 (the network itself is quicker than a look-up: depth 0 keeps nothing)."""
        self._rolls: ValueCache[Board, list[float]] = ValueCache(1 << 14)
        """A board seen from the player to roll -> that player's best chance with each roll,
        at depth 0: the luck of the positions games share (their openings) worked out once."""

    def values(self, states: Sequence[TakhtehState], seat: int) -> list[float]:
        return self._values(states, seat, self.depth)

    def move_values(self, state: TakhtehState, moves: Sequence[TakhtehMove]) -> list[float]:
        board = state.board
        return self._chances([apply_legs(board, move) for move in moves], self.depth)

    def luck(self, state: TakhtehState, rolled: TakhtehState, seat: int) -> float:
        """The luck at depth 0 (the module's note)."""
        roller = state.to_move
        if roller is None:  # the opening roll: who starts
            outcomes = state.chance_outcomes()
            children = [state.apply_chance(roll) for roll, _ in outcomes]
            value, *values = self._values([rolled, *children], seat, 0)
            return value - sum(p * v for (_, p), v in zip(outcomes, values, strict=True))
        bests = self._rolls.get(state.board)
        if bests is None:
            children = [state.apply_chance(roll) for roll, _ in TURN_OUTCOMES]
            bests = self._values(children, roller, 0)
            self._rolls.put(state.board, bests)
        mean = 0.0
        for (_, chance), best in zip(TURN_OUTCOMES, bests, strict=True):
            mean += chance * best
        assert rolled.roll is not None
        luck = bests[ROLL_INDEX[rolled.roll]] - mean
        return luck if seat == roller else -luck

    def _values(self, states: Sequence[TakhtehState], seat: int, depth: int) -> list[float]:
        """`values` at `depth`: the boards every state needs valued at once."""
        boards: list[Board] = []
        spans: list[tuple[int, int, int | None]] = []
        """Each state's boards (from, to) and whose chance they give: the roller's best play
        of a roll, or the chance of the opponent who has just moved of the board it left."""
        fixed: dict[int, float] = {}
        for index, state in enumerate(states):
            start = len(boards)
            roller = state.to_move
            if state.winner is not None:
                fixed[index] = 1.0 if state.winner == seat else 0.0
            elif roller is None:
                # Before the opening roll: the mean over the rolls that decide who starts.
                outcomes = state.chance_outcomes()
                children = [state.apply_chance(roll) for roll, _ in outcomes]
                chances = self._values(children, seat, depth)
                fixed[index] = sum(p * v for (_, p), v in zip(outcomes, chances, strict=True))
            elif state.roll is None:
                boards.append(flip(state.board))
                roller = 1 - roller
            else:
                board = state.board
                boards += [apply_legs(board, play) for play in legal_plays(board, *state.roll)]
            spans.append((start, len(boards), roller))
        chances = self._chances(boards, depth)
        found = []
        for index, (start, end, whose) in enumerate(spans):
            if index in fixed:
                found.append(fixed[index])
                continue
            chance = max(chances[start:end])
            found.append(chance if whose == seat else 1.0 - chance)
        return found

    def _chances(self, boards: list[Board], depth: int) -> list[float]:
        """For boards seen from the player who has just moved: that player's chance of
        winning, at `depth`."""
        if depth == 0:
            return self._network(boards)
        known = self._looked
        found = [known.get(board) for board in boards]
        missing = list(dict.fromkeys(b for b, f in zip(boards, found, strict=True) if f is None))
        if missing:
            worked = self._look_ahead(missing)
            for board, chance in zip(missing, worked, strict=True):
                known.put(board, chance)
            chances = dict(zip(missing, worked, strict=True))
            found = [chances[b] if f is None else f for b, f in zip(boards, found, strict=True)]
        return found  # type: ignore[return-value]  # every None filled in

    def _network(self, boards: list[Board]) -> list[float]:
        """The network's chance of winning, 1 where the player has borne off every checker."""
        playing = [board for board in boards if max(board) > 0]
        wins = iter(self.net.probabilities(playing)[:, 0].tolist() if playing else ())
        return [next(wins) if max(board) > 0 else 1.0 for board in boards]

    def _look_ahead(self, boards: list[Board]) -> list[float]:
        """The mean over the opponent's rolls of what its best reply at depth 0 leaves (1
        where the player has borne off every checker: the game is won)."""
        replies: list[Board] = []
        spans: list[list[tuple[float, int, int]]] = []
        for board in boards:
            other = flip(board)
            rolls = []
            if max(board) > 0:
                for (high, low), chance in TURN_OUTCOMES:
                    start = len(replies)
                    replies += [apply_legs(other, play) for play in legal_plays(other, high, low)]
                    rolls.append((chance, start, len(replies)))
            spans.append(rolls)
        chances = self._chances(replies, 0)
        return [
            sum(chance * (1.0 - max(chances[start:end])) for chance, start, end in rolls)
            if rolls
            else 1.0
            for rolls in spans
        ]


def reference(spec: str | None) -> NetReference:
    _, options = read_spec(spec, REFERENCES, "Takhteh")
    return NetReference(int(options["depth"]))
