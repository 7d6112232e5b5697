"""Trax, the tile-laying game of loops and lines (docs/rules/trax.md)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar

from referee.games.base import (
    DemoSetup,
    Game,
    IllegalMove,
    NotationError,
    Reference,
    Ruleset,
    RulesetError,
    TurnText,
)
from referee.games.trax import gamelist, notation, render, symmetry
from referee.games.trax.notation import read_token
from referee.games.trax.rules import TraxMove, TraxState
from referee.games.trax.turns import play_turns

if TYPE_CHECKING:
    # the bot interface, only named in `bots`' type: validation and `moves` load no bots
    from referee.games.agent import Bot

__all__ = ["GAME", "TraxGame", "TraxMove", "TraxState"]


class TraxGame(Game[TraxState, TraxMove]):
    name: ClassVar[str] = "trax"
    title: ClassVar[str] = "Trax"
    variants: ClassVar[tuple[str, ...]] = ("standard", "8x8", "looptrax")
    turn_cap: ClassVar[int] = 400
    # A move is its tile and space in the labels of the position before it: its text is that.
    moves_written_alone: ClassVar[bool] = True
    # Reading a move (`locate`, `check`) asks first whether the game is won or, in a variant
    # with the 8x8 limit, whether any move is left: the ends `is_terminal` knows.
    moves_refused_after_end: ClassVar[bool] = True
    symmetric_positions: ClassVar[bool] = True
    demo: ClassVar[DemoSetup | None] = DemoSetup(
        ("random", "greedy", "threat:time=0.05"), 6, "trax-3ply"
    )

    def initial_state(
        self, ruleset: Ruleset, start: str | None = None, first: int | None = None
    ) -> TraxState:
        if first not in (None, 0):
            raise RulesetError("in Trax White (seat 0) always moves first")
        if start is not None:
            return self.parse_position(ruleset, start)
        return TraxState(ruleset)

    def parse_position(self, ruleset: Ruleset, text: str) -> TraxState:
        """The position after a token list such as `@0+ B1/ A2\\` from the empty board.

        Move numbers (`1. @0+ 2. B1/`) and `#` comments may be given as in a game list.
        """
        try:
            listed = gamelist.parse_block(list(enumerate(text.splitlines() or [""], 1)))
        except gamelist.GameListError as error:
            raise NotationError(error.message) from None
        if listed.resign is not None:
            raise NotationError("Resign ends a game; a position is a list of moves only")
        state = TraxState(ruleset)
        for number, token in enumerate(listed.moves, 1):
            try:
                state = self.read_move(state, token.text)[1]
            except IllegalMove as error:
                raise IllegalMove(f"move {number} {token.text}: {error}", rule=error.rule) from None
            except NotationError as error:
                raise NotationError(f"move {number}: {error}", code=error.rule) from None
        return state

    def format_position(self, state: TraxState) -> str:
        return " ".join(state.tokens())

    def position_key(self, state: TraxState, symmetric: bool = False) -> Hashable:
        """The tiles' shape and the seat to move (the token list depends on the order the
        tiles were laid in; the shape does not), up to rotation and reflection with
        `symmetric`."""
        return symmetry.position_key(state, symmetric)

    def parse_move(self, state: TraxState, text: str) -> TraxMove:
        return state.locate(*notation.split_token(text))[0]

    def read_move(self, state: TraxState, text: str) -> tuple[TraxMove, TraxState]:
        # The space the token names, found once: `play_at` places the tile there.
        return state.read(read_token(text))

    def play_turns(self, state: TraxState, turns: Sequence[TurnText]) -> TraxState | None:
        return play_turns(state, turns)

    def format_move(self, state: TraxState, move: TraxMove) -> str:
        return notation.format_move(move)

    def render_text(self, state: TraxState) -> str:
        return render.render_text(state)

    def render_svg(self, state: TraxState, before: TraxState | None = None) -> str:
        return render.render_svg(state, before)

    def reference(self, spec: str | None = None) -> Reference[TraxState, TraxMove]:
        """`search:depth=1,scale=20`, the search bot's score (trax/reference.py)."""
        from referee.games.trax.reference import reference

        return reference(spec)

    def bots(self) -> dict[str, type[Bot[TraxState, TraxMove]]]:
        # The bots load when a tournament asks for them: the rules serve `moves`, `perft`
        # and the validator without them.
        from referee.games.trax.bots import BOTS

        return BOTS


GAME = TraxGame()
