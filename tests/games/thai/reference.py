"""A slow, plain reading of docs/rules/thai.md on an 8x8 array, to check the engine against.

It shares no code with referee.games.thai: rows and columns instead of bitboards, a dict
for the board, each capture line followed square by square with the captured piece taken
off the board before the next jump.
"""

from __future__ import annotations

import itertools

Board = dict[tuple[int, int], str]
"""(row, col) -> 'b', 'B' (Black man, king), 'w', 'W'; row 0 is the top as Black sees it."""

DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def square(row: int, col: int) -> int:
    return row * 4 + col // 2 + 1


def coordinates(number: int) -> tuple[int, int]:
    row = (number - 1) // 4
    return row, 2 * ((number - 1) % 4) + (1 if row % 2 == 0 else 0)


def on_board(row: int, col: int) -> bool:
    return 0 <= row < 8 and 0 <= col < 8


def board_from_fen(fen: str) -> tuple[Board, str]:
    turn, *sections = fen.split(":")
    board: Board = {}
    for section in sections:
        colour = section[0].lower()
        for item in filter(None, section[1:].split(",")):
            king = item.startswith("K")
            board[coordinates(int(item.lstrip("K")))] = colour.upper() if king else colour
    return board, turn.lower()


def fen_of(board: Board, turn: str) -> str:
    def section(colour: str) -> str:
        items = sorted(
            (square(*place), piece) for place, piece in board.items() if piece.lower() == colour
        )
        return ",".join(("K" if piece.isupper() else "") + str(number) for number, piece in items)

    return f"{turn.upper()}:W{section('w')}:B{section('b')}"


def _forward(colour: str) -> int:
    return -1 if colour == "b" else 1


def _far_row(colour: str) -> int:
    return 0 if colour == "b" else 7


def _lines(board: Board, start: tuple[int, int], colour: str) -> list[list[tuple[int, int]]]:
    """Every capture line of the piece on `start`, each a list of the squares it stands on."""
    piece = board[start]
    king = piece.isupper()
    found: list[list[tuple[int, int]]] = []

    def follow(position: tuple[int, int], pieces: Board, path: list[tuple[int, int]]) -> None:
        went_on = False
        for dr, dc in DIAGONALS:
            if not king and dr != _forward(colour):
                continue
            row, col = position[0] + dr, position[1] + dc
            if king:
                while on_board(row, col) and (row, col) not in pieces:
                    row, col = row + dr, col + dc
            if not on_board(row, col) or (row, col) not in pieces:
                continue
            if pieces[(row, col)].lower() == colour:
                continue
            landing = (row + dr, col + dc)
            if not on_board(*landing) or landing in pieces:
                continue
            went_on = True
            rest = dict(pieces)
            del rest[(row, col)]
            if not king and landing[0] == _far_row(colour):
                found.append([*path, landing])
                continue
            follow(landing, rest, [*path, landing])
        if not went_on and len(path) > 1:
            found.append(path)

    pieces = dict(board)
    del pieces[start]
    follow(start, pieces, [start])
    return found


def legal_moves(board: Board, turn: str) -> set[str]:
    own = [place for place, piece in board.items() if piece.lower() == turn]
    captures = {
        "x".join(str(square(*place)) for place in line)
        for start in own
        for line in _lines(board, start, turn)
    }
    if captures:
        return captures
    moves = set()
    for start in own:
        king = board[start].isupper()
        for dr, dc in DIAGONALS:
            if not king and dr != _forward(turn):
                continue
            row, col = start[0] + dr, start[1] + dc
            while on_board(row, col) and (row, col) not in board:
                moves.add(f"{square(*start)}-{square(row, col)}")
                if not king:
                    break
                row, col = row + dr, col + dc
    return moves


def play(board: Board, turn: str, move: str) -> tuple[Board, str]:
    """The board after a move from `legal_moves`, and the colour to move next."""
    capture = "x" in move
    places = [coordinates(int(n)) for n in move.replace("x", "-").split("-")]
    after = dict(board)
    piece = after.pop(places[0])
    if capture:
        for (r0, c0), (r1, c1) in itertools.pairwise(places):
            dr, dc = (1 if r1 > r0 else -1), (1 if c1 > c0 else -1)
            del after[(r1 - dr, c1 - dc)]
    end = places[-1]
    if piece.islower() and end[0] == _far_row(turn):
        piece = piece.upper()
    after[end] = piece
    return after, "w" if turn == "b" else "b"
