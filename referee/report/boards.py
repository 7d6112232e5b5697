"""The boards of a report's games: drawn by the engines, stored compactly, drawn again in the page.

Every position is drawn by its game's `render_svg`, the one place where a game is drawn, so the
report shows what `referee show --svg` writes. Embedding each position's SVG is far too big
(1,000 THAX games have 43,000 positions, 218 MB of SVG), but a position's SVG repeats almost all
of the one before, and the SVGs of one game repeat each other's pieces. So each SVG is cut before
every `<` into tokens (one tag and the text after it), each distinct token is stored once in a
dictionary shared by the whole report, and a position becomes a list of token numbers.

A game's moves and positions are one small JSON document, deflated (zlib) and put in the page
in base64: deflate stores what a position repeats of the one before in a few bytes. The
dictionary is deflated the same way. The page inflates them (the browser's DecompressionStream)
only when a game is opened, and joins each position's tokens with `<` back into the engine's
exact SVG. docs/report.md has the figures.
"""

from __future__ import annotations

import base64
import json
import zlib
from functools import lru_cache
from typing import Any

from referee.games.base import Game, State

CACHE_SIZE = 1 << 16
"""Positions whose token numbers are kept: a position met again (an opening, the same game
played in both seats) costs no second drawing."""


def inline_svg(svg: str) -> str:
    """The SVG element alone, without an XML declaration or doctype before it, which mean
    nothing inside an HTML page."""
    start = svg.find("<svg")
    return svg[start:] if start > 0 else svg


def pack(value: Any) -> str:
    """JSON, deflated, in base64: what the page's script unpacks."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


class BoardEncoder:
    """Packs games one at a time, numbering the tokens of their boards as they come."""

    def __init__(self, cache_size: int = CACHE_SIZE) -> None:
        self._numbers: dict[str, int] = {}
        # A cache per encoder, not per module, so that its memory goes with the report.
        self._position = lru_cache(maxsize=cache_size)(self._draw)

    def _draw(
        self, game: Game[Any, Any], state: State[Any], before: State[Any] | None
    ) -> list[int]:
        numbers = self._numbers
        tokens = inline_svg(game.render_svg(state, before)).split("<")
        # Numbered in order of first use, so that the same games give the same page.
        for token in [token for token in dict.fromkeys(tokens) if token not in numbers]:
            numbers[token] = len(numbers)
        return [numbers[token] for token in tokens]

    def pack_game(
        self,
        game: Game[Any, Any] | None,
        states: list[State[Any]],
        befores: list[State[Any]],
        turns: list[Any],
        analysis: dict[str, Any] | None = None,
    ) -> str:
        """One game for the viewer: its `turns`, the token numbers of each position of
        `states` (none without an engine) and its `analysis` when it has one, packed.
        `befores[i]` is the position the move that led to `states[i + 1]` was played in: each
        board after the start marks that move."""
        if game is None:
            positions = []
        else:
            previous = [None, *befores]
            positions = [
                self._position(game, state, before)
                for state, before in zip(states, previous, strict=True)
            ]
        game_data: dict[str, Any] = {"turns": turns, "positions": positions}
        if analysis is not None:
            game_data["analysis"] = analysis
        return pack(game_data)

    def pack_tokens(self) -> str:
        """The dictionary, packed: token number n is the n-th string."""
        return pack(list(self._numbers))
