"""The official Trax notation: one token per turn, `<column><row><symbol>`, e.g. `B1/`.

A token names the primary tile only, in the labels of the position before the move; its
symbol names two tiles that differ by their colours, and the neighbours' colours pick one.
Reading a token looks at its space and neighbours only, never at the list of legal moves.
"""

from __future__ import annotations

import functools
import re

from referee.escaping import quoted
from referee.games.base import NotationError
from referee.games.trax.rules import SYMBOL_FITS, SYMBOL_TILES, Token, TraxMove, format_token

TOKEN = re.compile(r"(@|[A-Z]+)(\d+)([+/\\])")
"""A move token; letters are read in either case."""


def column_number(letters: str) -> int:
    """0 for `@`, then A=1 .. Z=26, AA=27 (bijective base 26)."""
    if letters == "@":
        return 0
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


@functools.lru_cache(maxsize=4096)
def split_token(text: str) -> tuple[int, int, str]:
    """(column, row, symbol) of a token; NotationError if it is not one."""
    match = TOKEN.fullmatch(text.strip().upper())
    if match is None:
        raise NotationError(
            f"{quoted(text)} is not a Trax move: write column, row and tile, e.g. @0+, B1/ or "
            "AA12\\"
        )
    letters, digits, symbol = match.groups()
    return column_number(letters), int(digits), symbol


@functools.lru_cache(maxsize=4096)
def read_token(text: str) -> Token:
    """`split_token`'s (column, row, symbol), the moves of the symbol's two tiles there and
    which fits a code (`TraxState.read`), made once per token: tokens recur from game to
    game."""
    col, row, symbol = split_token(text)
    moves = tuple(TraxMove(col, row, tile) for tile in SYMBOL_TILES[symbol])
    return col, row, symbol, moves, SYMBOL_FITS[symbol]


def format_move(move: TraxMove) -> str:
    return format_token(move)
