# The frozen oracle of commit 947957b: a verbatim copy of referee/games/thai/fen.py as it was
# there, imports pointed at this copy. Never edit it: tests/games/thai/test_oracle.py holds
# the engine to it. Bring it up to date only with a deliberate change of the rules.
"""PDN FEN for Thai checkers: `B:W1,2,K9:B25,26` (player to move, then each colour's squares).

Reading is lenient: either colour section first, lower-case letters, spaces, ranges such as
`1-8` (also `K1-4`), a trailing full stop, and a missing section for a colour with no pieces.
Writing is canonical: the player to move, White's section, Black's section, squares in
ascending order, `K` before a king.
"""

from __future__ import annotations

from referee.games.base import NotationError
from tests.games.thai.oracle.geometry import BLACK, COLOURS, FAR_ROW, WHITE, bits

START_FEN = "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32"
"""The standard Thai start: Black's 8 men on 25..32, White's on 1..8, Black to move."""

ENGLISH_START_FEN = "B:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32"
"""The 12-against-12 start of English checkers (men on the three nearest rows) in this
numbering, used with Thai rules for the known move-sequence counts."""

_SEATS = {"B": BLACK, "W": WHITE}


def parse_fen(text: str) -> tuple[int, int, int, int]:
    """(turn, black, white, kings) from a PDN FEN; NotationError says what is wrong."""
    body = text.strip().strip('"').strip()
    if body.endswith("."):
        body = body[:-1]
    fields = [field.strip() for field in body.split(":")]
    turn_text = fields[0].upper()
    if turn_text not in _SEATS:
        raise NotationError(
            f"FEN {text!r}: it starts with the player to move, B or W, not {fields[0]!r}"
        )
    masks = {BLACK: 0, WHITE: 0}
    kings = 0
    seen: set[int] = set()
    for field in fields[1:]:
        if not field:
            continue
        colour = field[0].upper()
        if colour not in _SEATS:
            raise NotationError(
                f"FEN {text!r}: a section starts with its colour, B or W, not {field[0]!r}"
            )
        seat = _SEATS[colour]
        if seat in seen:
            raise NotationError(f"FEN {text!r}: two sections for {COLOURS[seat]}")
        seen.add(seat)
        for item in field[1:].split(","):
            men, crowned = _squares(item.strip(), text)
            for square in (*men, *crowned):
                bit = 1 << (square - 1)
                if (masks[BLACK] | masks[WHITE]) & bit:
                    raise NotationError(f"FEN {text!r}: square {square} is given twice")
                masks[seat] |= bit
            for square in crowned:
                kings |= 1 << (square - 1)
    for seat in (BLACK, WHITE):
        stuck = masks[seat] & ~kings & FAR_ROW[seat]
        if stuck:
            squares = ", ".join(str(i + 1) for i in bits(stuck))
            raise NotationError(
                f"FEN {text!r}: {COLOURS[seat]} men on {squares} stand on the far row, "
                "where they would be kings"
            )
    return _SEATS[turn_text], masks[BLACK], masks[WHITE], kings


def _squares(item: str, text: str) -> tuple[list[int], list[int]]:
    """The men and the kings an item such as `9`, `K9` or `K1-4` names."""
    if not item:
        return [], []
    king = item[0] in "Kk"
    body = item[1:].strip() if king else item
    low, dash, high = body.partition("-")
    numbers = []
    for part in (low, high) if dash else (low,):
        part = part.strip()
        if not (part.isascii() and part.isdigit()):
            raise NotationError(f"FEN {text!r}: {item!r} is not a square (1..32, K for a king)")
        number = int(part)
        if not 1 <= number <= 32:
            raise NotationError(f"FEN {text!r}: there is no square {number} (1..32)")
        numbers.append(number)
    squares = list(range(numbers[0], numbers[-1] + 1))
    if not squares:
        raise NotationError(f"FEN {text!r}: the range {item!r} is empty")
    return ([], squares) if king else (squares, [])


def format_fen(turn: int, black: int, white: int, kings: int) -> str:
    def section(mask: int) -> str:
        return ",".join(("K" if (kings >> i) & 1 else "") + str(i + 1) for i in bits(mask))

    return f"{'BW'[turn]}:W{section(white)}:B{section(black)}"
