"""THAX, the dice placement game (docs/rules/thax.md)."""

from __future__ import annotations

from collections.abc import Collection, Hashable
from typing import TYPE_CHECKING, ClassVar

from referee.games.base import DemoSetup, Game, NotationError, Reference, Ruleset
from referee.games.thax import notation, render
from referee.games.thax.rules import EMPTY_SIDE, PASS, SPACES, ThaxMove, ThaxState

if TYPE_CHECKING:
    # the bot interface, only named in `bots`' type: validation and `moves` load no bots
    from referee.games.agent import Bot

__all__ = ["GAME", "PASS", "ThaxGame", "ThaxMove", "ThaxState"]


class ThaxGame(Game[ThaxState, ThaxMove]):
    name: ClassVar[str] = "thax"
    title: ClassVar[str] = "THAX"
    has_dice: ClassVar[bool] = True
    turn_cap: ClassVar[int] = 1000
    moves_written_alone: ClassVar[bool] = True
    # `play` refuses a move once a player has won: the game ends no other way.
    moves_refused_after_end: ClassVar[bool] = True
    demo: ClassVar[DemoSetup | None] = DemoSetup(("random", "greedy", "thax-perfect"), 100)

    def initial_state(
        self, ruleset: Ruleset, start: str | None = None, first: int | None = None
    ) -> ThaxState:
        if start is not None:
            raise NotationError("THAX games always start from the empty board")
        return ThaxState(ruleset, seat=first)

    def parse_position(self, ruleset: Ruleset, text: str) -> ThaxState:
        """A position text such as `11200/01000 1` (see `notation.parse_position`), waiting for
        the roll; a side with all fifteen spaces covered has won."""
        sides, seat = notation.parse_position(text)
        full = [s for s in (0, 1) if sum(sides[s]) == SPACES]
        if len(full) == 2:
            raise NotationError(f"{text!r}: both sides cannot have all fifteen spaces covered")
        if full:
            return ThaxState(ruleset, sides, full[0], None, full[0])
        if seat is None and sides != (EMPTY_SIDE, EMPTY_SIDE):
            raise NotationError(f"{text!r}: the opening roll comes before any piece is placed")
        return ThaxState(ruleset, sides, seat)

    def format_position(self, state: ThaxState) -> str:
        """The position text: both sides and the seat to roll (the roll is not part of it)."""
        return notation.format_position(state.sides, state.seat)

    def position_key(self, state: ThaxState, symmetric: bool = False) -> Hashable:
        """The sides and the seat to roll, what the position text says, without writing it."""
        return state.sides, state.seat

    def warm_up(self, bots: Collection[str]) -> str | None:
        """`thax-perfect` solves the game before its first move, once a machine."""
        if "thax-perfect" not in bots:
            return None
        from referee.games.thax.solver import unsolved_table

        table = unsolved_table()
        return None if table is None else f"solving THAX once, about 30 s; cached in {table}"

    def parse_move(self, state: ThaxState, text: str) -> ThaxMove:
        return notation.parse_move(text)

    def read_move(self, state: ThaxState, text: str) -> tuple[ThaxMove, ThaxState]:
        # The default's two steps without its call of `parse_move`: the replay's every move.
        move = notation.parse_move(text)
        return move, state.play(move)

    def format_move(self, state: ThaxState, move: ThaxMove) -> str:
        return notation.format_move(move)

    def render_text(self, state: ThaxState) -> str:
        return render.render_text(state)

    def render_svg(self, state: ThaxState, before: ThaxState | None = None) -> str:
        return render.render_svg(state, before)

    def reference(self, spec: str | None = None) -> Reference[ThaxState, ThaxMove]:
        """`exact`, the solved game (thax/reference.py)."""
        from referee.games.thax.reference import reference

        return reference(spec)

    def bots(self) -> dict[str, type[Bot[ThaxState, ThaxMove]]]:
        # The bots load when a tournament asks for them: the rules serve `moves`, `perft`
        # and the validator without them.
        from referee.games.thax.bots import BOTS

        return BOTS


GAME = ThaxGame()
