"""THAX, the dice placement game (RULES.md section 1)."""

from __future__ import annotations

from typing import Any, ClassVar

from referee.games.base import Game, NotationError, Ruleset, State
from referee.games.thax import notation, render
from referee.games.thax.rules import PASS, ThaxMove, ThaxState

__all__ = ["GAME", "PASS", "ThaxGame", "ThaxMove", "ThaxState"]


class ThaxGame(Game):
    name: ClassVar[str] = "thax"
    title: ClassVar[str] = "THAX"
    has_dice: ClassVar[bool] = True
    turn_cap: ClassVar[int] = 1000

    def initial_state(
        self, ruleset: Ruleset, start: str | None = None, first: int | None = None
    ) -> ThaxState:
        if start is not None:
            raise NotationError("THAX games always start from the empty board")
        return ThaxState(ruleset, seat=first)

    def parse_move(self, state: State, text: str) -> ThaxMove:
        return notation.parse_move(text)

    def format_move(self, state: State, move: Any) -> str:
        return notation.format_move(move)

    def render_text(self, state: State) -> str:
        assert isinstance(state, ThaxState)
        return render.render_text(state)

    def render_svg(self, state: State, before: State | None = None) -> str:
        assert isinstance(state, ThaxState)
        assert before is None or isinstance(before, ThaxState)
        return render.render_svg(state, before)

    def bots(self) -> dict[str, type]:
        from referee.games.thax.bots import BOTS

        return BOTS


GAME = ThaxGame()
