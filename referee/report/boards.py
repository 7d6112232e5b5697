"""The boards of a report's games: drawn by the engines, stored compactly, drawn again in the page.

Every position is drawn by its game's `render_svg`, the one place where a game is drawn, so the
report shows what `referee show --svg` writes. Embedding each position's SVG is far too big
(1,000 THAX games have 43,000 positions, 218 MB of SVG), but a position's SVG repeats almost all
of the one before. So each SVG is cut before every `<` into tokens (one tag and the text after
it), each distinct token is stored once in a dictionary shared by the whole report, and a game
becomes a row of token numbers, 0 closing each position. Deflate then stores what a position
repeats of the one before in a few bytes; each game's deflated numbers go into the page in
base64, and the page inflates them (the browser's DecompressionStream) only when the game is
opened, joining each position's tokens with `<` back into the engine's exact SVG.
docs/report.md has the figures.
"""

from __future__ import annotations

import base64
import sys
import zlib
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from referee.games.base import Game, State

CACHE_SIZE = 1 << 16
"""Positions whose tokens are kept: a position met again (an opening, a short game's end)
costs no second drawing. A THAX position's tokens take about 600 bytes."""


def inline_svg(svg: str) -> str:
    """The SVG element alone, without an XML declaration or doctype before it, which mean
    nothing inside an HTML page."""
    start = svg.find("<svg")
    return svg[start:] if start > 0 else svg


@dataclass(frozen=True)
class Boards:
    """What the page needs to draw every position of every game."""

    tokens: list[str]
    """The distinct SVG tokens; token number n is `tokens[n - 1]`."""
    width: int
    """Bytes per token number (1, 2 or 4, little-endian): the fewest that hold them all."""
    games: list[str]
    """Per game, in the order added: its token numbers, deflated (zlib) and in base64."""


class BoardEncoder:
    """Collects the positions of games, then packs them all into `Boards`."""

    def __init__(self, cache_size: int = CACHE_SIZE) -> None:
        self._numbers: dict[str, int] = {}
        self._games: list[array[int]] = []
        # A cache per encoder, not per module, so that its memory goes with the report.
        self._position = lru_cache(maxsize=cache_size)(self._draw)

    def _draw(self, game: Game, state: State) -> array[int]:
        numbers = self._numbers
        tokens = inline_svg(game.render_svg(state)).split("<")
        # Numbered in order of first use, so that the same games give the same page.
        for token in [token for token in dict.fromkeys(tokens) if token not in numbers]:
            numbers[token] = len(numbers) + 1
        return array("I", map(numbers.__getitem__, tokens))

    def add_game(self, game: Game, states: Iterable[State]) -> int:
        """Draw each position of one game; returns the game's index in `Boards.games`."""
        row = array("I")
        for state in states:
            row.extend(self._position(game, state))
            row.append(0)
        self._games.append(row)
        return len(self._games) - 1

    def finish(self) -> Boards:
        count = len(self._numbers)
        code = "B" if count < 1 << 8 else "H" if count < 1 << 16 else "I"
        games = []
        for row in self._games:
            packed = array(code, row)
            if sys.byteorder == "big":
                packed.byteswap()
            games.append(base64.b64encode(zlib.compress(packed.tobytes(), 9)).decode("ascii"))
        return Boards(list(self._numbers), array(code).itemsize, games)
