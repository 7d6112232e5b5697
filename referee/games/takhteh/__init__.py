"""Takhteh (Tavla), backgammon with the Takhteh rules (docs/rules/takhteh.md)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from referee.games.base import (
    DemoSetup,
    Game,
    NotationError,
    Reference,
    Ruleset,
    RulesetError,
    TurnText,
)
from referee.games.takhteh import notation, position_id, render
from referee.games.takhteh.rules import (
    NO_MOVE,
    START,
    TakhtehMove,
    TakhtehState,
)
from referee.games.takhteh.turns import play_turns

if TYPE_CHECKING:
    # the bot interface, only named in `bots`' type: validation and `moves` load no bots
    from referee.games.agent import Bot

__all__ = ["GAME", "NO_MOVE", "TakhtehGame", "TakhtehMove", "TakhtehState"]


LONGEST_MATCH = 2**53 - 1
"""The largest integer a record holds (records/model.py), so a match's length and score fit."""


class TakhtehGame(Game[TakhtehState, TakhtehMove]):
    name: ClassVar[str] = "takhteh"
    title: ClassVar[str] = "Takhteh"
    has_dice: ClassVar[bool] = True
    turn_cap: ClassVar[int] = 1000
    # A won game has no roll to play and `play` refuses a move without one.
    moves_refused_after_end: ClassVar[bool] = True
    demo: ClassVar[DemoSetup | None] = DemoSetup(("random", "greedy", "tdnet:time=0.2"), 6)

    def ruleset(self, variant: str = "standard", **options: Any) -> Ruleset:
        """`match=N` plays a match to N points (default 1, a single game, left out of the id)."""
        unknown = set(options) - {"match"}
        if unknown:
            raise RulesetError(f"takhteh takes only the option 'match', got {sorted(unknown)}")
        length = options.get("match", 1)
        if type(length) is not int or not 1 <= length <= LONGEST_MATCH:
            raise RulesetError(
                f"match length must be a whole number of points from 1 to {LONGEST_MATCH}: "
                f"{length!r}"
            )
        return super().ruleset(variant, **({"match": length} if length != 1 else {}))

    def coerce_options(self, options: dict[str, str]) -> dict[str, Any]:
        coerced: dict[str, Any] = dict(options)
        if "match" in options:
            text = options["match"]
            if not text.isdigit():
                raise RulesetError(f"match length must be a whole number of points: {text!r}")
            coerced["match"] = int(text)
        return coerced

    def match_length(self, ruleset: Ruleset) -> int:
        """Points needed to win the match the ruleset describes (1 for a single game)."""
        return int(ruleset.option("match", 1))

    def win_points(self, state: TakhtehState, winner: int) -> tuple[int, ...]:
        """A single game, or a gammon (2) while the loser has borne off no checker."""
        return (1, 2) if state.checkers(1 - winner)[2] == 0 else (1,)

    def initial_state(
        self, ruleset: Ruleset, start: str | None = None, first: int | None = None
    ) -> TakhtehState:
        """The start; `start` is a Position ID with seat `first` (or seat 0) on roll.

        With `first` (a later game of a match) that seat rolls two dice at once; without it
        the opening roll decides who starts.
        """
        if first not in (None, 0, 1):
            raise RulesetError(f"the first player is seat 0 or 1, not {first!r}")
        board = START
        if start is not None:
            board = position_id.decode(start)
            if max(board) <= 0 or min(board) >= 0:
                raise NotationError(f"start {start!r}: both players need checkers on the board")
        if first is None:
            return TakhtehState(ruleset, board)
        return TakhtehState(ruleset, board, first)

    def parse_position(self, ruleset: Ruleset, text: str) -> TakhtehState:
        """A Position ID with seat 0 on roll, waiting for its roll.

        A position where one player has borne off every checker is that player's win.
        """
        board = position_id.decode(text)
        if max(board) <= 0 and min(board) >= 0:
            raise NotationError(f"{text!r}: a position needs checkers of one player at least")
        if max(board) <= 0:
            return TakhtehState(ruleset, board, 0, None, 0, 2 if sum(board) == -15 else 1)
        if min(board) >= 0:
            return TakhtehState(ruleset, board, 0, None, 1, 2 if sum(board) == 15 else 1)
        return TakhtehState(ruleset, board, 0)

    def format_position(self, state: TakhtehState) -> str:
        """The Position ID with the player on roll (seat 0 before the opening roll)."""
        return position_id.encode(state.board)

    def position_key(self, state: TakhtehState, symmetric: bool = False) -> Hashable:
        """The board seen from the player on roll, what the Position ID encodes."""
        return state.board

    def parse_move(self, state: TakhtehState, text: str) -> TakhtehMove:
        """The play `text` denotes in `state` (its legality is checked by `state.play`)."""
        return notation.parse_move(state, text)

    read_move = staticmethod(notation.read_move)  # parsing and playing in one call

    def play_turns(self, state: TakhtehState, turns: Sequence[TurnText]) -> TakhtehState | None:
        return play_turns(state, turns)

    def format_move(self, state: TakhtehState, move: TakhtehMove) -> str:
        return notation.format_move(state, move)

    def render_text(self, state: TakhtehState) -> str:
        return render.render_text(state)

    def render_svg(self, state: TakhtehState, before: TakhtehState | None = None) -> str:
        return render.render_svg(state, before)

    def reference(self, spec: str | None = None) -> Reference[TakhtehState, TakhtehMove]:
        """`tdnet:depth=0`, the network's chance of winning (takhteh/reference.py)."""
        from referee.games.takhteh.reference import reference

        return reference(spec)

    def bots(self) -> dict[str, type[Bot[TakhtehState, TakhtehMove]]]:
        # The bots load when a tournament asks for them: the rules serve `moves`, `perft`
        # and the validator without them.
        from referee.games.takhteh.bots import BOTS

        return BOTS


GAME = TakhtehGame()
