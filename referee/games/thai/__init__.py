"""Thai checkers (Makhos), docs/rules/thai.md."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, ClassVar

from referee.games.base import DemoSetup, Game, GameError, NotationError, Reference, Ruleset
from referee.games.thai import fen, notation, render
from referee.games.thai.geometry import BLACK, WHITE
from referee.games.thai.rules import ThaiMove, ThaiState, check_position

if TYPE_CHECKING:
    # the bot interface, only named in `bots`' type: validation and `moves` load no bots
    from referee.games.agent import Bot

__all__ = ["BLACK", "GAME", "WHITE", "ThaiGame", "ThaiMove", "ThaiState"]


class ThaiGame(Game[ThaiState, ThaiMove]):
    name: ClassVar[str] = "thai"
    title: ClassVar[str] = "Thai checkers"
    turn_cap: ClassVar[int] = 400
    moves_written_alone: ClassVar[bool] = True
    # `play` finds the end itself: no legal move, or a draw rule it checks before playing.
    moves_refused_after_end: ClassVar[bool] = True
    demo: ClassVar[DemoSetup | None] = DemoSetup(
        ("random", "greedy", "search:time=0.05"), 10, "thai-3ply"
    )
    _starts: ClassVar[dict[Ruleset, ThaiState]] = {}

    def initial_state(
        self, ruleset: Ruleset, start: str | None = None, first: int | None = None
    ) -> ThaiState:
        """The standard start, or the PDN FEN `start` (which says who moves; `first` is unused)."""
        if start is None:
            # States are immutable, so one start serves every game of a ruleset.
            state = self._starts.get(ruleset)
            if state is None:
                state = self._starts[ruleset] = ThaiState(ruleset)
            return state
        return self.parse_position(ruleset, start)

    def parse_position(self, ruleset: Ruleset, text: str) -> ThaiState:
        turn, black, white, kings = fen.parse_fen(text)
        try:
            check_position(black, white, kings, turn)
        except GameError as error:
            raise NotationError(f"FEN {text!r}: {error}") from None
        return ThaiState(ruleset, black, white, kings, turn)

    def format_position(self, state: ThaiState) -> str:
        return fen.format_fen(state.turn, state.black, state.white, state.kings)

    def position_key(self, state: ThaiState, symmetric: bool = False) -> Hashable:
        """The pieces and the player to move, what the FEN says (not the draw counters)."""
        return state.turn, state.black, state.white, state.kings

    def parse_move(self, state: ThaiState, text: str) -> ThaiMove:
        # The common case first, one lookup: a step between neighbouring squares.
        step = notation.STEPS.get(text)
        if step is not None:
            return step
        return notation.parse_move(state, text)

    def read_move(self, state: ThaiState, text: str) -> tuple[ThaiMove, ThaiState]:
        step = notation.STEPS.get(text)
        if step is not None:
            return step, state.play(step)
        return notation.read_move(state, text)

    def format_move(self, state: ThaiState, move: ThaiMove) -> str:
        return notation.format_move(move)

    def render_text(self, state: ThaiState) -> str:
        return render.render_text(state)

    def render_svg(self, state: ThaiState, before: ThaiState | None = None) -> str:
        return render.render_svg(state, before)

    def reference(self, spec: str | None = None) -> Reference[ThaiState, ThaiMove]:
        """`search:depth=4,scale=150`, the search bot's score (thai/reference.py)."""
        from referee.games.thai.reference import reference

        return reference(spec)

    def bots(self) -> dict[str, type[Bot[ThaiState, ThaiMove]]]:
        # The bots load when a tournament asks for them: the rules serve `moves`, `perft`
        # and the validator without them.
        from referee.games.thai.bots import BOTS

        return BOTS


GAME = ThaiGame()
