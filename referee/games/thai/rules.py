"""Thai checkers rules (docs/rules/thai.md): the position, the legal moves and their effects.

A position is three 32-bit masks (Black's pieces, White's pieces, kings; bit i is square i+1)
and the seat to move. For the project's draw rules a state also carries the keys of the
positions since the last capture or man move: nothing before such a move can recur (men never
go back and captured pieces never return), so that short tuple is all the history that
threefold repetition needs, and its length is the count of plies for the 60-ply rule.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Final, NamedTuple

from referee.games.base import GameError, IllegalMove, NotationError, Outcome, Ruleset, State
from referee.games.state import field, state_class
from referee.games.thai.fen import format_fen
from referee.games.thai.geometry import (
    ALL,
    BETWEEN,
    BLACK,
    COLOURS,
    DIRECTION,
    DIRECTIONS,
    FAR_ROW,
    FORWARD,
    INCREASING,
    JUMP_ALIGN,
    OPPOSITE,
    RAY,
    RAY_MASK,
    STEP,
    STEP_ALIGN,
    WHITE,
    bits,
)

QUIET_PLY_LIMIT = 60
"""[project rule] Plies in a row with no capture and no man move after which the game is drawn."""

REPETITIONS = 3
"""[project rule] The occurrence of one position (same player to move) that draws the game."""

START_WHITE = 0x000000FF
START_BLACK = 0xFF000000
"""The standard start: White's men on squares 1..8, Black's on 25..32."""


class ThaiMove(NamedTuple):
    """A move: the start square, then every landing square of a capture (or the destination).

    Squares are numbered 1..32. A capture's landing squares identify it completely: each
    captured piece is the one directly before its landing square, so two different capture
    lines never have the same path.
    """

    path: tuple[int, ...]
    capture: bool = False

    @property
    def origin(self) -> int:
        return self.path[0]

    @property
    def destination(self) -> int:
        return self.path[-1]


QUIET_MOVES: tuple[dict[int, ThaiMove], ...] = tuple(
    {
        target + 1: ThaiMove((origin + 1, target + 1))
        for d in DIRECTIONS
        for target in RAY[d][origin]
    }
    for origin in range(32)
)
"""QUIET_MOVES[i][t]: the one move object for a quiet move from bit i to square t, built once."""

_INDEX = {square: square - 1 for square in range(1, 33)}
"""Square number to bit index; anything else is no square."""

MAN_STEPS = tuple(
    tuple(sum(1 << STEP[d][i] for d in FORWARD[seat] if STEP[d][i] >= 0) for i in range(32))
    for seat in (BLACK, WHITE)
)
"""MAN_STEPS[seat][i]: the squares a man of `seat` on bit i may step to."""

_STEPS = tuple(tuple(value for pair in STEP_ALIGN[seat] for value in pair) for seat in (0, 1))
_JUMPS = tuple(
    tuple(
        value
        for jump, pairs in JUMP_ALIGN[seat]
        for value in (jump, *(v for pair in pairs for v in pair))
    )
    for seat in (0, 1)
)
"""The (shift, mask) tables of geometry flattened, so a test unpacks them in one go."""


def _men_can_step(seat: int, men: int, empty: int) -> bool:
    """Whether a man of `men` has an empty square diagonally ahead (ahead for `seat`)."""
    s1, m1, s2, m2, s3, m3 = _STEPS[seat]
    if seat == BLACK:
        return bool(men & (((empty << s1) & m1) | ((empty << s2) & m2) | ((empty << s3) & m3)))
    return bool(men & (((empty >> s1) & m1) | ((empty >> s2) & m2) | ((empty >> s3) & m3)))


def _first(blockers: int, direction: int) -> int:
    """The nearest occupied square of a ray's occupied squares `blockers` (non-empty)."""
    if INCREASING[direction]:
        return (blockers & -blockers).bit_length() - 1
    return blockers.bit_length() - 1


_KING_RAYS = tuple(
    tuple((RAY_MASK[d][i], INCREASING[d], STEP[d]) for d in DIRECTIONS if RAY[d][i])
    for i in range(32)
)
"""Per square: (ray mask, whether it runs to higher bits, step table) of each diagonal ray."""

_BEHIND = tuple(
    tuple(STEP[OPPOSITE[DIRECTION[a][b]]][b] if DIRECTION[a][b] >= 0 else -1 for b in range(32))
    for a in range(32)
)
"""_BEHIND[a][b]: the square just before b on the diagonal from a: what a capture leg from a
to b jumps."""

_JUMPABLE = tuple(sum(1 << s for d in DIRECTIONS for s in RAY[d][i][:-1]) for i in range(32))
"""Per square: where a piece a king there could jump may stand (not on a ray's last square)."""


def _king_can_capture(square: int, occupied: int, opponent: int) -> bool:
    if not opponent & _JUMPABLE[square]:
        return False
    for mask, increasing, step in _KING_RAYS[square]:
        blockers = mask & occupied
        if blockers:
            if increasing:
                first = (blockers & -blockers).bit_length() - 1
            else:
                first = blockers.bit_length() - 1
            if (opponent >> first) & 1:
                land = step[first]
                if land >= 0 and not (occupied >> land) & 1:
                    return True
    return False


_MAN_JUMPS = tuple(
    tuple(
        tuple(
            (STEP[d][i], STEP[d][STEP[d][i]])
            for d in FORWARD[seat]
            if STEP[d][i] >= 0 and STEP[d][STEP[d][i]] >= 0
        )
        for i in range(32)
    )
    for seat in (BLACK, WHITE)
)
"""_MAN_JUMPS[seat][i]: (jumped square, landing square) of each forward jump from bit i."""


def _man_on_can_capture(square: int, seat: int, occupied: int, opponent: int) -> bool:
    """Whether the man on bit `square` can jump forward (during a capture line)."""
    for middle, land in _MAN_JUMPS[seat][square]:
        if (opponent >> middle) & 1 and not (occupied >> land) & 1:
            return True
    return False


def _men_capture_test(seat: int) -> Callable[[int, int, int], int]:
    """For `seat`: (men, opponent, empty) -> the men that can capture: the square next to one
    ahead holds an opposing piece and the square two steps on is empty, both conditions
    shifted onto the men (shifts and masks bound once, as this runs for every position)."""
    j1, s1, m1, s2, m2, j2, s3, m3, s4, m4 = _JUMPS[seat]
    if seat == BLACK:  # up the board: neighbours have lower bits, shift them left

        def capturing(men: int, opponent: int, empty: int) -> int:
            return men & (
                ((opponent << s1) & m1 | (opponent << s2) & m2) & (empty << j1)
                | ((opponent << s3) & m3 | (opponent << s4) & m4) & (empty << j2)
            )

    else:

        def capturing(men: int, opponent: int, empty: int) -> int:
            return men & (
                ((opponent >> s1) & m1 | (opponent >> s2) & m2) & (empty >> j1)
                | ((opponent >> s3) & m3 | (opponent >> s4) & m4) & (empty >> j2)
            )

    return capturing


CAPTURING_MEN = (_men_capture_test(BLACK), _men_capture_test(WHITE))
"""CAPTURING_MEN[seat](men, opponent, empty): the men of `seat` that can capture."""


def _any_capture(seat: int, own: int, opponent: int, kings: int) -> bool:
    """Whether the side with pieces `own` can capture; bitboard test for men, rays for kings."""
    occupied = own | opponent
    return bool(CAPTURING_MEN[seat](own & ~kings, opponent, ~occupied & ALL)) or (
        _kings_can_capture(own & kings, occupied, opponent)
    )


def _kings_can_capture(own_kings: int, occupied: int, opponent: int) -> bool:
    """Whether one of the kings `own_kings` can capture."""
    while own_kings:
        low = own_kings & -own_kings
        own_kings ^= low
        if _king_can_capture(low.bit_length() - 1, occupied, opponent):
            return True
    return False


def _king_lines(
    square: int, occupied: int, opponent: int, path: tuple[int, ...], out: list[tuple[int, ...]]
) -> None:
    """Every maximal capture line of a king from `square` (`occupied` without the king)."""
    extended = False
    for mask, increasing, step in _KING_RAYS[square]:
        blockers = mask & occupied
        if not blockers:
            continue
        # The nearest occupied square: the lowest bit up the ray, else the highest.
        first = (blockers & -blockers if increasing else blockers).bit_length() - 1
        if not (opponent >> first) & 1:
            continue
        land = step[first]
        if land < 0 or (occupied >> land) & 1:
            continue
        extended = True
        gone = ~(1 << first)
        _king_lines(land, occupied & gone, opponent & gone, (*path, land + 1), out)
    if not extended and len(path) > 1:
        out.append(path)


def _man_lines(
    square: int,
    seat: int,
    occupied: int,
    opponent: int,
    path: tuple[int, ...],
    out: list[tuple[int, ...]],
) -> None:
    """Every capture line of a man from `square`; a man reaching the far row stops there."""
    extended = False
    far = FAR_ROW[seat]
    for middle, land in _MAN_JUMPS[seat][square]:
        if not (opponent >> middle) & 1 or (occupied >> land) & 1:
            continue
        extended = True
        if (far >> land) & 1:
            out.append((*path, land + 1))
            continue
        gone = ~(1 << middle)
        _man_lines(land, seat, occupied & gone, opponent & gone, (*path, land + 1), out)
    if not extended and len(path) > 1:
        out.append(path)


def capture_lines(seat: int, own: int, opponent: int, kings: int) -> list[tuple[int, ...]]:
    """The paths (squares 1..32) of every maximal capture line of the pieces `own`, by start
    square."""
    occupied = own | opponent
    # Only men the bitboard test finds can start a line; every king is tried.
    starts = CAPTURING_MEN[seat](own & ~kings, opponent, ~occupied & ALL) | (own & kings)
    return [move.path for move in _capture_moves(starts, seat, occupied, opponent, kings)]


_MAN_JUMP_MOVES = tuple(
    tuple(
        tuple(
            (middle, land, ThaiMove((i + 1, land + 1), True))
            for middle, land in _MAN_JUMPS[seat][i]
        )
        for i in range(32)
    )
    for seat in (BLACK, WHITE)
)
"""_MAN_JUMP_MOVES[seat][i]: per forward jump from bit i, (jumped square, landing square, the
move of that single jump), the move built once."""


def _capture_moves(
    starts: int, seat: int, occupied: int, opponent: int, kings: int
) -> list[ThaiMove]:
    """The capture moves of the pieces on `starts` (a piece that cannot capture adds none):
    every line of `_king_lines` and `_man_lines`, in their order. A man's jump that cannot go
    on is the single-jump move built once, without a call of `_man_lines` for its landing
    square (most captures are such jumps)."""
    moves: list[ThaiMove] = []
    jumps_of, far = _MAN_JUMP_MOVES[seat], FAR_ROW[seat]
    while starts:
        low = starts & -starts
        starts ^= low
        square = low.bit_length() - 1
        free = occupied ^ low
        lines: list[tuple[int, ...]] = []
        if kings & low:
            _king_lines(square, free, opponent, (square + 1,), lines)
            moves += [_new_move(ThaiMove, (path, True)) for path in lines]
            continue
        for middle, land, single in jumps_of[square]:
            if not (opponent >> middle) & 1 or (free >> land) & 1:
                continue
            if not (far >> land) & 1:
                gone = ~(1 << middle)
                if _man_on_can_capture(land, seat, free & gone, opponent & gone):
                    lines = []
                    _man_lines(land, seat, free & gone, opponent & gone, single.path, lines)
                    moves += [_new_move(ThaiMove, (path, True)) for path in lines]
                    continue
            moves.append(single)
    return moves


_new_move = tuple.__new__


def _king_quiet_rays(
    square: int,
) -> tuple[tuple[int, bool, tuple[int, ...], tuple[tuple[ThaiMove, ...], ...]], ...]:
    """Per diagonal ray from `square`: its mask, whether it runs to higher bits, its step
    table, and by the first occupied square on it (32 for none) the moves along it up to that
    square."""
    rays = []
    for d in DIRECTIONS:
        ray = RAY[d][square]
        if ray:
            moves = tuple(QUIET_MOVES[square][target + 1] for target in ray)
            upto = [moves] * 33
            for n, target in enumerate(ray):
                upto[target] = moves[:n]
            rays.append((RAY_MASK[d][square], INCREASING[d], STEP[d], tuple(upto)))
    return tuple(rays)


_KING_QUIET = tuple(_king_quiet_rays(square) for square in range(32))

_MAN_STEP_MOVES = tuple(
    tuple(
        tuple(
            (1 << STEP[d][square], QUIET_MOVES[square][STEP[d][square] + 1])
            for d in FORWARD[seat]
            if STEP[d][square] >= 0
        )
        for square in range(32)
    )
    for seat in (BLACK, WHITE)
)
"""_MAN_STEP_MOVES[seat][i]: per forward step of a man of `seat` on bit i, in direction order,
(the target square's bit, the move)."""


def _quiet_moves(
    turn: int, own: int, occupied: int, kings: int, opponent: int
) -> list[ThaiMove] | None:
    """Every move without a capture: a man one square forward, a king any distance along a
    free diagonal. None as soon as a king turns out able to capture (the test of
    `_king_can_capture`, made on the way along the king's rays): the captures are the moves
    then. The men's captures are for the caller to rule out first."""
    moves: list[ThaiMove] = []
    steps = _MAN_STEP_MOVES[turn]
    while own:
        low = own & -own
        own ^= low
        square = low.bit_length() - 1
        if kings & low:
            for mask, increasing, step, upto in _KING_QUIET[square]:
                blockers = mask & occupied
                if not blockers:
                    moves += upto[32]
                    continue
                first = (blockers & -blockers if increasing else blockers).bit_length() - 1
                if (opponent >> first) & 1:
                    land = step[first]
                    if land >= 0 and not (occupied >> land) & 1:
                        return None
                moves += upto[first]
        else:
            for target, move in steps[square]:
                if not occupied & target:
                    moves.append(move)
    return moves


_EVEN_ROWS: Final = 0x0F0F0F0F
_ODD_ROWS: Final = 0xF0F0F0F0
"""The squares of rows 0, 2, 4, 6 and of rows 1, 3, 5, 7 (four bits a row)."""


def _men_row_table(seat: int, row: int) -> tuple[tuple[ThaiMove, ...], ...]:
    """The quiet moves of `seat`'s men on `row`, by an 8-bit key: the row and the row ahead
    (the men on one, the empty squares of the other), lower row in the low four bits.

    Each entry is what `_quiet_moves` lists for those men and empty squares, so the table
    holds the same moves in the same order; it is built from that function. Equal entries
    are one tuple: the fewer objects a lookup may meet, the more of them stay in the cache
    of a processor that runs other work between calls.
    """
    ahead = row - 1 if seat == BLACK else row + 1
    if not 0 <= ahead < 8:
        return ((),) * 256
    low = min(row, ahead)
    men_row, ahead_row = 15 << 4 * row, 15 << 4 * ahead
    table = []
    entries: dict[tuple[ThaiMove, ...], tuple[ThaiMove, ...]] = {}
    for key in range(256):
        word = key << 4 * low
        men, occupied = word & men_row, ALL & ~(word & ahead_row)
        moves = tuple(_quiet_moves(seat, men, occupied, 0, 0) or ())
        table.append(entries.setdefault(moves, moves))
    return tuple(table)


_MEN_ROWS = tuple(tuple(_men_row_table(seat, row) for row in range(8)) for seat in (BLACK, WHITE))


class _Unset(Enum):
    """The type of `_UNSET`, so that the type checker narrows `is _UNSET` away."""

    TOKEN = 0


_UNSET: Final = _Unset.TOKEN
"""A state's outcome not yet computed (None is an outcome: the game goes on)."""


def check_position(black: int, white: int, kings: int, turn: int) -> None:
    """Raises GameError unless the masks and the turn make a Thai checkers position: for a
    position read from outside (a FEN); the engine's own states are right by construction."""
    for name, mask in (("black", black), ("white", white), ("kings", kings)):
        if not 0 <= mask <= ALL:
            raise GameError(f"{name} is not a set of squares 1..32")
    if black & white:
        raise GameError(f"squares {_names(black & white)} hold pieces of both colours")
    if kings & ~(black | white):
        raise GameError(f"kings on empty squares {_names(kings & ~(black | white))}")
    for seat, men in ((BLACK, black & ~kings), (WHITE, white & ~kings)):
        if men & FAR_ROW[seat]:
            raise GameError(
                f"{COLOURS[seat]} men on {_names(men & FAR_ROW[seat])} would be kings "
                "(a man is crowned on reaching the far row)"
            )
    if turn not in (BLACK, WHITE):
        raise GameError(f"turn must be 0 (Black) or 1 (White), not {turn!r}")


@state_class
class ThaiState(State[ThaiMove]):
    """A Thai checkers position with the player to move and the history the draw rules need."""

    ruleset: Ruleset
    black: int = START_BLACK
    white: int = START_WHITE
    kings: int = 0
    turn: int = BLACK
    history: tuple[int, ...] = ()
    """Keys of the earlier positions since the last capture or man move, oldest first."""
    _outcome: Outcome | _Unset | None = field(default=_UNSET, init=False)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ThaiState) and self.key == other.key and self.history == other.history
        )

    def __hash__(self) -> int:
        return hash((self.key, self.history))

    def __repr__(self) -> str:
        fen = format_fen(self.turn, self.black, self.white, self.kings)
        return f"ThaiState({fen!r}, quiet_plies={len(self.history)})"

    @property
    def key(self) -> int:
        """The position as one int (pieces, kings, player to move): equal keys, same position."""
        return self.black | self.white << 32 | self.kings << 64 | self.turn << 96

    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def quiet_plies(self) -> int:
        """Plies in a row with no capture and no man move."""
        return len(self.history)

    def sides(self) -> tuple[int, int]:
        """The pieces of the player to move and of the opponent."""
        if self.turn == BLACK:
            return self.black, self.white
        return self.white, self.black

    def repetitions(self) -> int:
        """How often this position (with this player to move) has occurred, this time included."""
        return 1 + self.history.count(self.key)

    def has_capture(self) -> bool:
        own, opponent = self.sides()
        return _any_capture(self.turn, own, opponent, self.kings)

    # -- moves -------------------------------------------------------------------------------

    def legal_moves(self) -> list[ThaiMove]:
        # Worked out on each call, not kept: a caller asks once per position. Every capture
        # line when there is one, else every quiet move; by start square.
        #
        # The common case, a side of men only that cannot capture, runs without a call: the
        # men's capture test of `CAPTURING_MEN` (the same expression, written out for each
        # seat; tests/games/thai/test_oracle.py holds the engine to the rules), then the quiet
        # moves a table lookup a row, rows in order, so that they come in the order of
        # `_quiet_moves`, which built the tables. The key of a row is cut from a word holding
        # the men on rows of its parity and the empty squares on the others; row r's key
        # starts at row r - 1 for Black (moving up the board, to lower bits), at row r for
        # White.
        if self.history and self._draw() is not None:
            return []
        kings, turn = self.kings, self.turn
        if turn:  # White
            own, opponent = self.white, self.black
            if not own & kings:
                empty = ~(own | opponent) & ALL
                capturing = own & (
                    (opponent >> 3 & 0x00E0E0E0 | opponent >> 4 & 0x000E0E0E) & empty >> 7
                    | (opponent >> 4 & 0x00707070 | opponent >> 5 & 0x00070707) & empty >> 9
                )
                if capturing:
                    return _capture_moves(capturing, WHITE, own | opponent, opponent, kings)
                even = own & _EVEN_ROWS | empty & _ODD_ROWS
                odd = own & _ODD_ROWS | empty & _EVEN_ROWS
                w0, w1, w2, w3, w4, w5, w6, _ = _MEN_ROWS[WHITE]
                return [
                    *w0[even & 255],
                    *w1[odd >> 4 & 255],
                    *w2[even >> 8 & 255],
                    *w3[odd >> 12 & 255],
                    *w4[even >> 16 & 255],
                    *w5[odd >> 20 & 255],
                    *w6[even >> 24 & 255],
                ]
        else:
            own, opponent = self.black, self.white
            if not own & kings:
                empty = ~(own | opponent) & ALL
                capturing = own & (
                    (opponent << 4 & 0x0E0E0E00 | opponent << 5 & 0xE0E0E000) & empty << 9
                    | (opponent << 3 & 0x07070700 | opponent << 4 & 0x70707000) & empty << 7
                )
                if capturing:
                    return _capture_moves(capturing, BLACK, own | opponent, opponent, kings)
                even = own & _EVEN_ROWS | empty & _ODD_ROWS
                odd = own & _ODD_ROWS | empty & _EVEN_ROWS
                _, b1, b2, b3, b4, b5, b6, b7 = _MEN_ROWS[BLACK]
                return [
                    *b1[odd & 255],
                    *b2[even >> 4 & 255],
                    *b3[odd >> 8 & 255],
                    *b4[even >> 12 & 255],
                    *b5[odd >> 16 & 255],
                    *b6[even >> 20 & 255],
                    *b7[odd >> 24 & 255],
                ]
        occupied = own | opponent
        capturing = CAPTURING_MEN[turn](own & ~kings, opponent, ~occupied & ALL)
        if not capturing:
            listed = _quiet_moves(turn, own, occupied, kings, opponent)
            if listed is not None:
                return listed
        return _capture_moves(capturing | own & kings, turn, occupied, opponent, kings)

    def successors(self) -> list[tuple[ThaiMove, ThaiState]]:
        """Every move the pieces allow, each with the position it leads to, for a search.

        The moves are those of `legal_moves()`, in the same order, and the positions those of
        `play`, built without checking the moves again. Unlike `legal_moves()` this ignores
        the draw rules: a search applies them itself (see `outcome()`).
        """
        turn, kings, child = self.turn, self.kings, self._child
        own, opponent = (self.black, self.white) if turn == BLACK else (self.white, self.black)
        far = FAR_ROW[turn]
        out: list[tuple[ThaiMove, ThaiState]] = []
        moves = self.legal_moves()
        if not moves and self.history:
            # Drawn: the pieces allow what they allow in the same position without its history.
            moves = ThaiState(self.ruleset, self.black, self.white, kings, turn).legal_moves()
        if moves and moves[0].capture:
            for move in moves:
                path = move.path
                origin = position = path[0] - 1
                taken = 0
                for square in path[1:]:
                    taken |= 1 << _BEHIND[position][square - 1]
                    position = square - 1
                after = child(
                    own ^ (1 << origin) ^ (1 << position),
                    opponent & ~taken,
                    _kings_after(kings, origin, position, taken, far),
                    (),
                )
                out.append((move, after))
            return out
        after_king = (*self.history, self.key) if own & kings else ()
        for move in moves:
            origin, target = move.path[0] - 1, move.path[1] - 1
            after = child(
                own ^ (1 << origin) ^ (1 << target),
                opponent,
                _kings_after(kings, origin, target, 0, far),
                after_king if (kings >> origin) & 1 else (),
            )
            out.append((move, after))
        return out

    def has_move(self) -> bool:
        """Whether the player to move has any move on the board (the draw rules aside)."""
        return self._has_move()

    def _has_move(self) -> bool:
        turn, kings = self.turn, self.kings
        own, opponent = (self.black, self.white) if turn == BLACK else (self.white, self.black)
        empty = ~(own | opponent) & ALL
        men = own & ~kings
        s1, m1, s2, m2, s3, m3 = _STEPS[turn]
        if turn == BLACK:
            ahead = ((empty << s1) & m1) | ((empty << s2) & m2) | ((empty << s3) & m3)
        else:
            ahead = ((empty >> s1) & m1) | ((empty >> s2) & m2) | ((empty >> s3) & m3)
        if men & ahead:
            return True
        own_kings = own & kings
        if _men_can_step(BLACK, own_kings, empty) or _men_can_step(WHITE, own_kings, empty):
            return True
        return _any_capture(turn, own, opponent, kings)

    def play(self, move: ThaiMove) -> ThaiState:
        try:
            return self._play(move)
        except IllegalMove:
            outcome = self.outcome()
            if outcome is not None:
                raise IllegalMove(
                    f"the game is over ({outcome.detail})", rule="thai.game-over"
                ) from None
            raise

    def _play(self, move: ThaiMove) -> ThaiState:
        if not isinstance(move, ThaiMove):
            raise IllegalMove(f"{move!r} is not a Thai checkers move", rule="thai.not-a-move")
        # A position already known not to be over (the replay asks first) needs no draw check.
        if self.history and self._outcome is not None:
            draw = self._draw()
            if draw is not None:
                raise IllegalMove(f"the game is over ({draw})", rule="thai.game-over")
        path, capture = move
        if not capture and len(path) == 2:
            origin, target = _INDEX.get(path[0]), _INDEX.get(path[1])
            if origin is not None and target is not None:
                return self._quiet(origin, target)
        if len(path) < 2:
            raise IllegalMove("a move names its start and its destination", rule="thai.incomplete")
        indices = [_INDEX.get(square) for square in path]
        if None in indices:
            bad = path[indices.index(None)]
            raise IllegalMove(f"there is no square {bad!r} (1..32)", rule="thai.no-such-square")
        if not capture:
            raise IllegalMove(
                "a move that captures nothing goes from one square to another",
                rule="thai.quiet-path",
            )
        return self._capture(indices)  # type: ignore[arg-type]

    def _own_piece_error(self, origin: int) -> IllegalMove:
        turn = self.turn
        opponent = self.white if turn == BLACK else self.black
        if (opponent >> origin) & 1:
            return IllegalMove(
                f"the piece on {origin + 1} is {COLOURS[1 - turn]}'s, "
                f"and {COLOURS[turn]} is to move",
                rule="thai.not-own-piece",
            )
        return IllegalMove(f"there is no piece on {origin + 1}", rule="thai.no-piece")

    def _quiet(self, origin: int, target: int) -> ThaiState:
        turn, kings = self.turn, self.kings
        own, opponent = (self.black, self.white) if turn == BLACK else (self.white, self.black)
        if not (own >> origin) & 1:
            raise self._own_piece_error(origin)
        occupied = own | opponent
        if (occupied >> target) & 1:
            raise IllegalMove(f"square {target + 1} is occupied", rule="thai.occupied")
        king = (kings >> origin) & 1
        if king:
            d = DIRECTION[origin][target]
            if d < 0:
                raise IllegalMove(
                    f"{target + 1} is not on a diagonal through {origin + 1}",
                    rule="thai.not-diagonal",
                )
            blocked = BETWEEN[origin][target] & occupied
            if blocked:
                raise IllegalMove(
                    f"the way from {origin + 1} to {target + 1} is blocked "
                    f"on {_first(blocked, d) + 1}",
                    rule="thai.blocked",
                )
        elif not (MAN_STEPS[turn][origin] >> target) & 1:
            if (MAN_STEPS[1 - turn][origin] >> target) & 1:
                raise IllegalMove("a man moves forward only, never back", rule="thai.man-backward")
            raise IllegalMove(
                f"a man moves one square diagonally forward; {origin + 1}-{target + 1} "
                "is not such a step",
                rule="thai.man-step",
            )
        if _any_capture(turn, own, opponent, kings):
            example = capture_lines(turn, own, opponent, kings)[0]
            raise IllegalMove(
                f"capturing is compulsory and a capture is possible ({_line_text(example)})",
                rule="thai.capture-compulsory",
            )
        own ^= (1 << origin) | (1 << target)
        kings = _kings_after(kings, origin, target, 0, FAR_ROW[turn])
        # Only a king move can repeat a position: a man move is never undone.
        return self._child(own, opponent, kings, (*self.history, self.key) if king else ())

    def _capture(self, path: list[int]) -> ThaiState:
        """A capture along `path` (bit indices); every rule of capturing is checked."""
        turn, kings = self.turn, self.kings
        own, opponent = (self.black, self.white) if turn == BLACK else (self.white, self.black)
        origin = path[0]
        if not (own >> origin) & 1:
            raise self._own_piece_error(origin)
        king = (kings >> origin) & 1
        occupied = (own | opponent) & ~(1 << origin)
        taken = 0
        position = origin
        last = len(path) - 1
        far = FAR_ROW[turn]
        for index in range(1, last + 1):
            land = path[index]
            middle = _jumped_square(turn, king, position, land, occupied, opponent)
            error = _capture_leg_error(turn, position, land, middle, occupied, opponent, taken)
            if error is not None:
                raise error
            gone = ~(1 << middle)
            occupied &= gone
            opponent &= gone
            taken |= 1 << middle
            position = land
            if not king and (far >> land) & 1 and index < last:
                raise IllegalMove(
                    f"a man that reaches the far row while capturing stops there ({land + 1}); "
                    "it is crowned at the end of the move",
                    rule="thai.promotion-stops",
                )
        error = _unfinished_capture_error(turn, king, position, occupied, opponent)
        if error is not None:
            raise error
        if position != origin:
            own ^= (1 << origin) | (1 << position)
        return self._child(own, opponent, _kings_after(kings, origin, position, taken, far), ())

    def _child(self, own: int, opponent: int, kings: int, history: tuple[int, ...]) -> ThaiState:
        if self.turn == BLACK:
            return ThaiState(self.ruleset, own, opponent, kings, WHITE, history)
        return ThaiState(self.ruleset, opponent, own, kings, BLACK, history)

    # -- reading moves -----------------------------------------------------------------------

    def reads_as_capture(self, origin: int, target: int) -> bool:
        """Whether `origin-target` (squares 1..32) jumps an opposing piece just before `target`.

        A quiet move can never end right behind a piece, so this decides how a move written
        with `-` (as GameType 31 writes captures too) is to be read.
        """
        a, b = origin - 1, target - 1
        d = DIRECTION[a][b]
        if d < 0:
            return False
        before = STEP[OPPOSITE[d]][b]
        if before == a:
            return False
        return bool((self.sides()[1] >> before) & 1)

    def resolve_capture(self, move: ThaiMove) -> tuple[ThaiMove, ThaiState | None]:
        """The capture that `move` denotes, reading a short path as the full line it abbreviates,
        with the state it leads to (found on the way: the line is played to be read).

        A capture written with fewer landing squares than it has (`26x10` for `26x17x10`, as
        PDN allows) is read as the legal line that starts and ends on the same squares and
        passes the given ones in order, when every such line leads to the same position.
        Otherwise the move is returned as written, with None for the state: `play` says what
        is wrong with it.
        """
        try:
            return move, self._play(move)
        except IllegalMove:
            pass
        inner = move.path[1:-1]
        matches = [
            m
            for m in self.legal_moves()
            if m.capture
            and m.path[0] == move.path[0]
            and m.path[-1] == move.path[-1]
            and _is_subsequence(inner, m.path[1:-1])
        ]
        if not matches:
            return move, None
        afters = {self._play(m) for m in matches}
        if len(afters) > 1:
            written = "x".join(map(str, move.path))
            options = " or ".join(_line_text(m.path) for m in matches)
            raise NotationError(
                f"{written} is ambiguous: it can be {options}; write every landing square"
            )
        return matches[0], afters.pop()

    # -- end of the game ---------------------------------------------------------------------

    def _draw(self) -> str | None:
        history = self.history
        if not history:
            return None
        if history.count(self.key) >= REPETITIONS - 1:
            return "threefold repetition"
        if len(history) >= QUIET_PLY_LIMIT:
            return f"{QUIET_PLY_LIMIT} plies without a capture or a man move"
        return None

    def outcome(self) -> Outcome | None:
        outcome = self._outcome
        if outcome is _UNSET:
            outcome = self._compute_outcome()
            object.__setattr__(self, "_outcome", outcome)
        return outcome

    def _compute_outcome(self) -> Outcome | None:
        # A player left without a move has lost even when the same ply also completes a
        # repetition or the 60 plies: the board decides first, as in chess.
        if not self._has_move():
            own = self.sides()[0]
            detail = "no pieces left" if not own else "no legal move"
            return Outcome(1 - self.turn, 1, "rules", f"{COLOURS[self.turn]} has {detail}")
        if self.history:
            draw = self._draw()
            if draw is not None:
                return Outcome(None, 0, "rules", draw)
        return None

    def is_terminal(self) -> bool:
        outcome = self._outcome
        if outcome is _UNSET:
            outcome = self._compute_outcome()
            object.__setattr__(self, "_outcome", outcome)
        return outcome is not None


def _jumped_square(
    turn: int, king: int, position: int, land: int, occupied: int, opponent: int
) -> int:
    """The square a capture leg from `position` to `land` jumps, by the leg's shape: a king
    lands directly behind the first piece on its line, a man jumps an adjacent square
    forward. Raises IllegalMove for a leg of neither shape (what is jumped is not looked at)."""
    d = DIRECTION[position][land]
    if d < 0:
        raise IllegalMove(
            f"{land + 1} is not on a diagonal through {position + 1}", rule="thai.capture-shape"
        )
    middle = STEP[OPPOSITE[d]][land]
    if king:
        if middle == position:
            raise IllegalMove(
                f"{position + 1}-{land + 1} jumps no piece: a king lands on the "
                "square directly behind the piece it captures",
                rule="thai.capture-nothing",
            )
        blocked = BETWEEN[position][middle] & occupied
        if blocked:
            first = _first(blocked, d)
            what = "an opposing piece" if (opponent >> first) & 1 else "a piece"
            raise IllegalMove(
                f"a king captures the first piece on its line and lands directly "
                f"behind it: from {position + 1} it meets {what} on {first + 1} "
                f"before {middle + 1}, so it cannot land on {land + 1}",
                rule="thai.king-landing",
            )
    elif STEP[d][position] != middle:
        raise IllegalMove(
            f"a man captures by jumping an adjacent piece; {position + 1}x{land + 1} "
            "is not such a jump",
            rule="thai.capture-shape",
        )
    elif d not in FORWARD[turn]:
        raise IllegalMove(
            "a man captures forward only, never back", rule="thai.man-capture-backward"
        )
    return middle


def _capture_leg_error(
    turn: int, position: int, land: int, middle: int, occupied: int, opponent: int, taken: int
) -> IllegalMove | None:
    """Why the leg from `position` over `middle` to `land` captures nothing or lands on a
    piece (`taken`: the pieces this move captured so far), or None."""
    if not (opponent >> middle) & 1:
        if (taken >> middle) & 1:
            reason = f"the piece on {middle + 1} was already captured in this move"
        elif (occupied >> middle) & 1:
            reason = f"the piece on {middle + 1} is {COLOURS[turn]}'s own"
        else:
            reason = f"there is no piece on {middle + 1} to capture"
        return IllegalMove(f"{position + 1}x{land + 1}: {reason}", rule="thai.capture-nothing")
    if (occupied >> land) & 1:
        return IllegalMove(
            f"{position + 1}x{land + 1}: the landing square {land + 1} is occupied",
            rule="thai.occupied",
        )
    return None


def _unfinished_capture_error(
    turn: int, king: int, position: int, occupied: int, opponent: int
) -> IllegalMove | None:
    """The error for a capture line stopping on `position` while its piece can capture on
    (a man on the far row stops there), or None."""
    if king:
        if not _king_can_capture(position, occupied, opponent):
            return None
        rest: list[tuple[int, ...]] = []
        _king_lines(position, occupied, opponent, (position + 1,), rest)
    else:
        if (FAR_ROW[turn] >> position) & 1 or not _man_on_can_capture(
            position, turn, occupied, opponent
        ):
            return None
        rest = []
        _man_lines(position, turn, occupied, opponent, (position + 1,), rest)
    return IllegalMove(
        f"the capture may not stop on {position + 1} while the piece can still "
        f"capture (it can go on {_line_text(rest[0])})",
        rule="thai.capture-incomplete",
    )


def _kings_after(kings: int, origin: int, target: int, taken: int, far: int) -> int:
    """The kings after the piece on `origin` moves to `target` capturing `taken`: a king
    takes its crown along, a man is crowned on the far row `far`, captured kings are gone."""
    if (kings >> origin) & 1:
        return (kings & ~taken & ~(1 << origin)) | (1 << target)
    return (kings & ~taken) | ((1 << target) & far)


def _names(mask: int) -> str:
    return ", ".join(str(i + 1) for i in bits(mask))


def _line_text(path: tuple[int, ...]) -> str:
    return "x".join(map(str, path))


def _is_subsequence(needle: tuple[int, ...], haystack: tuple[int, ...]) -> bool:
    it = iter(haystack)
    return all(square in it for square in needle)
