"""Trax rules (docs/rules/trax.md): tiles, placement, forced play, loops and lines.

The board is three dicts keyed by packed coordinates (`y << SHIFT | x`, so the neighbours of a
space are a fixed offset away):

- `tiles`: space -> tile, a tile being the 4-bit set of its edges that carry white track;
- `codes`: every empty space that touches a tile -> what its neighbours demand of it, as
  `known << 4 | white` (the edges that face a tile, and which of those are white), so the
  tiles that fit, the forced tile and the illegal space are table look-ups;
- `ends`: every open track end (a tile edge facing an empty space, `space << 2 | edge`) -> the
  other end of the same track, so placing a tile finds a closed loop at once and knows the
  two ends of every track it lengthens.

A turn touches only the spaces next to the tiles it places: the primary tile and the forced
tiles it sets off.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, NamedTuple

from referee.games.base import IllegalMove, Outcome, Ruleset, State
from referee.games.state import builder, field, state_class

N, E, S, W = 0, 1, 2, 3
"""Edges of a space, also the directions to its neighbours."""
WHITE, BLACK = 0, 1
"""Track colours; White is seat 0, Black seat 1, so a seat plays the colour of its number."""
COLOUR_NAMES = ("white", "black")

SHIFT = 20
COORD_MASK = (1 << SHIFT) - 1
ROW = 1 << SHIFT
"""A space's key is `y * ROW + x`, `y << SHIFT | x`: the product is CPython's faster."""
ORIGIN = 1 << (SHIFT - 1)
"""The column of the first tile: room for half a million tiles either way (a board grows at
most one space per tile)."""
ROW_ORIGIN = 1 << 7
"""The row of the first tile, near 0: the keys of the rows near it stay below 2 ** 28, and
their ends below 2 ** 30, one-digit ints, which CPython adds and hashes fastest (a first row
of 2 ** 19 made every key a two-digit int: replaying a game ran 7% more instructions). A row
further than 2 ** 7 away is only slower: rows above 0 have negative keys, from which `&` and
`>>` read both coordinates back all the same, and keys still sort row by row."""
DELTA = (-(1 << SHIFT), 1, 1 << SHIFT, -1)
DIRECTIONS = tuple(enumerate(DELTA))
INCOMING = tuple((delta << 2) + (d ^ 2) for d, delta in DIRECTIONS)
"""From `space << 2`: the open end of the neighbour in direction d that faces the space."""

STRAIGHT_WHITE_NS = 0b0101
STRAIGHT_WHITE_EW = 0b1010
CURVE_WHITE_NW = 0b1001
CURVE_WHITE_SE = 0b0110
CURVE_WHITE_NE = 0b0011
CURVE_WHITE_SW = 0b1100
TILES = (
    STRAIGHT_WHITE_NS,
    STRAIGHT_WHITE_EW,
    CURVE_WHITE_NW,
    CURVE_WHITE_SE,
    CURVE_WHITE_NE,
    CURVE_WHITE_SW,
)
FIRST_TILES = (STRAIGHT_WHITE_NS, CURVE_WHITE_NW)
"""The first tile as `@0+` and `@0/` fix it: the orientation of the notation."""

SYMBOLS = {
    STRAIGHT_WHITE_NS: "+",
    STRAIGHT_WHITE_EW: "+",
    CURVE_WHITE_NW: "/",
    CURVE_WHITE_SE: "/",
    CURVE_WHITE_NE: "\\",
    CURVE_WHITE_SW: "\\",
}
SYMBOL_TILES = {
    "+": (STRAIGHT_WHITE_NS, STRAIGHT_WHITE_EW),
    "/": (CURVE_WHITE_NW, CURVE_WHITE_SE),
    "\\": (CURVE_WHITE_NE, CURVE_WHITE_SW),
}

SYMBOL_FITS: dict[str, tuple[int, ...]] = {
    symbol: tuple(
        next((i for i, t in enumerate(tiles) if t & (code >> 4) == code & 15), -1)
        if code >> 4
        else -1
        for code in range(256)
    )
    for symbol, tiles in SYMBOL_TILES.items()
}
"""Per symbol and code of an empty space that touches a tile: the index in `SYMBOL_TILES` of
the symbol's tile that fits there (as `locate` picks it), -1 for none (and for code 0, no
tile touched, no code of the board)."""

AREA = 8
"""The side of the area the tiles may span in the 8x8 variant."""

NO_FORCE = -1
THREE_EDGES = -2

NO_WIN = -1
ILLEGAL = -2
"""What `TraxState.preview` returns besides a winner's seat."""


def _bits(mask: int) -> tuple[int, ...]:
    return tuple(d for d in range(4) if mask >> d & 1)


def _force(code: int) -> int:
    known, white = code >> 4, code & 15
    black = known & ~white
    whites, blacks = len(_bits(white)), len(_bits(black))
    if whites >= 3 or blacks >= 3:
        return THREE_EDGES
    if whites == 2:
        return white
    if blacks == 2:
        return 15 ^ black
    return NO_FORCE


FITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in TILES if t & (code >> 4) == code & 15) for code in range(256)
)
"""The tiles that match the neighbours' colours of a space with this code."""
FITTING = tuple(len(tiles) for tiles in FITS)
"""How many tiles fit."""
FORCE: tuple[int, ...] = tuple(_force(code) for code in range(256))
"""The tile a space with this code must take, NO_FORCE, or THREE_EDGES (the turn is illegal)."""
CONTRIB: tuple[tuple[int, ...], ...] = tuple(
    tuple((1 << (d ^ 2)) << 4 | ((1 << (d ^ 2)) if t >> d & 1 else 0) for d in range(4))
    for t in range(16)
)
"""What a tile adds to the code of its neighbour in direction d (seen from that neighbour)."""
PAIRS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
    ((1, *_bits(t)), (2, *_bits(15 ^ t))) if len(_bits(t)) == 2 else ((0, 0, 0), (0, 0, 0))
    for t in range(16)
)
"""Per tile: (colour bit, edge, edge) of the white track, then of the black track."""
FORCING: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(
            1 << 8 + 6 * d + i
            for i, t in enumerate(TILES)
            if FORCE[code | CONTRIB[t][d]] != NO_FORCE
        )
        for code in range(256)
    )
    for d in range(4)
)
"""FORCING[d][code]: the tiles that, placed on a space whose neighbour in direction d has this
code, force that neighbour or leave it three edges of one colour: bit 8 + 6d + i for TILES[i],
so that a space's four and its code add up to one int (the mask, above the code's 8 bits)."""
EVERY_DIRECTION = 1 | 1 << 6 | 1 << 12 | 1 << 18
"""`mask >> i & EVERY_DIRECTION` has bit 6d for each direction d in which TILES[i] forces."""
FREE: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((d, DELTA[d]) for d in range(4) if not known >> d & 1) for known in range(16)
)
"""Per set of edges that face a tile: (edge, offset) of the others, whose spaces are empty."""
STEPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((delta, CONTRIB[index & 15][d]) for d, delta in FREE[index >> 4]) for index in range(256)
)
"""Per `known << 4 | tile` of a tile placed on a space whose code knows those edges: (offset,
what the tile adds to that neighbour's code) of each empty neighbour."""


TrackEnds = tuple[int, int | None, int, int | None, int]


def _track_ends(known: int, tile: int) -> tuple[TrackEnds, ...]:
    def end(edge: int) -> tuple[int | None, int]:
        return (INCOMING[edge] if known >> edge & 1 else None), edge

    def track(bit: int, a: int, b: int) -> TrackEnds:
        # The edge that faces a tile first: `walk_turn` then tells a new track by its first
        # edge alone. Which end of a track it keeps for `formed` does not change what
        # `formed` finds (either end leads to the other).
        if not known >> a & 1:
            a, b = b, a
        return (bit, *end(a), *end(b))

    return tuple(track(bit, a, b) for bit, a, b in PAIRS[tile] if bit)


TRACKS: tuple[tuple[TrackEnds, ...], ...] = tuple(
    _track_ends(index >> 4, index & 15) for index in range(256)
)
"""Per `known << 4 | tile`: for the white track, then the black track, of the tile (its colour
bit, then for each of its two edges: the offset from `space << 2` of the neighbour's open end
it meets when that edge faces a tile, else None, and the edge), an edge that faces a tile
first."""


def key_of(x: int, y: int) -> int:
    return y << SHIFT | x


def coords(key: int) -> tuple[int, int]:
    return key & COORD_MASK, key >> SHIFT


def end_colour(tiles: dict[int, int], end: int) -> int:
    """The colour of the track at an open end."""
    return WHITE if tiles[end >> 2] >> (end & 3) & 1 else BLACK


class TraxMove(NamedTuple):
    """A turn's primary tile, in the labels of the position before it (as the notation).

    `col` 0 is the `@` column left of the tiles, 1 is `A`; `row` 0 is the row above them.
    `tile` is the set of edges carrying white track (N=1, E=2, S=4, W=8).
    """

    col: int
    row: int
    tile: int


Token = tuple[int, int, str, tuple[TraxMove, ...], tuple[int, ...]]
"""A move token read (`notation.read_token`): column, row (never negative), symbol, the moves
of the two tiles of the symbol on that space, in the order of `SYMBOL_TILES`, and the
symbol's `SYMBOL_FITS`."""


GONE = -1
"""In the codes a turn changed: a space the turn filled."""

Turn = list[tuple[int, int, int]]
"""(space, tile, edges facing a tile) of each tile of a turn, in the order it is placed."""


def forced_play(codes: dict[int, int], key: int, tile: int) -> tuple[Turn | None, dict[int, int]]:
    """Follow a turn from a primary tile on `key` through every tile it forces, without
    changing `codes`: the walk of forced play, used by `legal_turns` and the bots' probes
    (`threats.probe`), and repeated for speed in `walk_turn`. It reads the codes alone (see
    the module's docstring): forced play does not depend on the tracks.

    Returns the tiles of the turn in the order they are placed, None when the turn is illegal
    (a space entered from three edges by one colour), and the codes the turn changed, in the
    order first met, GONE for the spaces it filled (on an illegal turn, those changed until
    the walk stopped).
    """
    force_of, contribs, free, board = FORCE, CONTRIB, FREE, codes.get
    occupied = board(key, 0) >> 4
    changed = {key: GONE}
    overlay = changed.get
    turn = [(key, tile, occupied)]
    pending: list[int] = []
    space = key
    while True:
        # The space's own code says which of its edges face a tile: no look-up of the four
        # neighbours in the tiles.
        contrib = contribs[tile]
        for d, delta in free[occupied]:
            neighbour = space + delta
            code = overlay(neighbour)
            if code is None:
                code = board(neighbour, 0)
            code |= contrib[d]
            changed[neighbour] = code
            force = force_of[code]
            if force != NO_FORCE:
                if force == THREE_EDGES:
                    return None, changed
                pending.append(neighbour)
        # A forced space is filled when its turn comes, from its code at that time, so every
        # tile placed next to it meanwhile is checked against it. A space once forced stays
        # forced: its code only gains edges, and a third edge of one colour ends the walk.
        while pending:
            space = pending.pop()
            code = changed[space]
            if code != GONE:
                break
        else:
            return turn, changed
        tile = force_of[code]
        changed[space] = GONE
        occupied = code >> 4
        turn.append((space, tile, occupied))


def walk_turn(
    tiles: dict[int, int], codes: dict[int, int], ends: dict[int, int], key: int, tile: int
) -> tuple[int, list[int]]:
    """Place a primary tile and every forced tile after it, on the given (mutable) board.

    Returns the colours the turn closed into loops (bit 0 white, bit 1 black) and one end of
    every track it lengthened. Raises IllegalMove when a space is entered from three edges by
    one colour; the board is then left half-changed, so play on copies. The box of the tiles
    in play and the 8x8 limit are the caller's: only the primary tile can widen the box (a
    space beyond it and the primary touches at most one tile, so it is never forced)."""
    force_of, steps, tracks = FORCE, STEPS, TRACKS
    # Forced play as `forced_play` walks it, again, on the board itself and with the tracks
    # followed tile by tile: the walk's overlay, its list of tiles and a second pass cost
    # replaying a game a fifth of this function's time. tests/games/trax/test_forced_play.py
    # holds the two equal.
    forced: list[int] = []
    grown: list[int] = []
    loops = 0
    while True:
        tiles[key] = tile
        # The space's own code says which of its edges face a tile: no look-up of the four
        # neighbours in `tiles`. The tables are indexed by those edges and the tile.
        # `+` for `|` where the bits are apart, `* 4` for `<< 2`: CPython 3.11 has fast paths
        # for the first, not the second (`|` cost a replay 2% of its instructions). The
        # neighbour's edge that faces the new tile faced none before: its bits are not set.
        index = (codes.pop(key, 0) & 0xF0) + tile
        for delta, contrib in steps[index]:
            neighbour = key + delta
            code = codes.get(neighbour, 0) + contrib
            codes[neighbour] = code
            force = force_of[code]
            if force != NO_FORCE:
                if force == THREE_EDGES:
                    raise IllegalMove(
                        "the turn leaves a space that one colour enters from three edges",
                        rule="trax.three-edges",
                    )
                forced.append(neighbour)
        here = key * 4
        for colour_bit, incoming_a, a, incoming_b, b in tracks[index]:
            if incoming_a is None:
                # Neither edge faces a tile (see TRACKS): a new track.
                far_a = here + a
                far_b = here + b
            else:
                far_a = ends.pop(here + incoming_a)
                if incoming_b is None:
                    far_b = here + b
                else:
                    in_b = here + incoming_b
                    if far_a == in_b:
                        # The track from edge a ends at edge b: this tile closes it.
                        del ends[in_b]
                        loops |= colour_bit
                        continue
                    far_b = ends.pop(in_b)
            ends[far_a] = far_b
            ends[far_b] = far_a
            grown.append(far_a)
        while forced:
            key = forced.pop()
            if key not in tiles:
                break
        else:
            return loops, grown
        # A space once forced stays forced: its code only gains edges, and a third edge of
        # one colour raised already.
        tile = force_of[codes[key]]


def is_line(end: int, other: int, box: Sequence[int]) -> bool:
    """Whether the track with these two open ends joins opposite outermost edges, 8+ apart."""
    d1, d2 = end & 3, other & 3
    if d1 ^ d2 != 2:
        return False
    if d1 & 1:
        west, east = (end, other) if d1 == W else (other, end)
        return (
            box[1] - box[0] >= 7
            and (west >> 2) & COORD_MASK == box[0]
            and (east >> 2) & COORD_MASK == box[1]
        )
    north, south = (end, other) if d1 == N else (other, end)
    return (
        box[3] - box[2] >= 7 and north >> (2 + SHIFT) == box[2] and south >> (2 + SHIFT) == box[3]
    )


def formed(
    tiles: dict[int, int],
    ends: dict[int, int],
    box: Sequence[int],
    loops: int,
    grown: list[int],
    lines: bool,
) -> tuple[str | None, str | None]:
    """What each colour (white, black) formed in the turn: "loop", "line" or None."""
    result: list[str | None] = [
        "loop" if loops & 1 else None,
        "loop" if loops & 2 else None,
    ]
    if lines:
        for end in grown:
            other = ends.get(end)
            # `is_line`'s first test, inline: most ends are not on opposite edges.
            if other is not None and (end ^ other) & 3 == 2 and is_line(end, other, box):
                colour = end_colour(tiles, end)
                if result[colour] is None:
                    result[colour] = "line"
    return result[0], result[1]


def placed(
    box: tuple[int, int, int, int], codes: dict[int, int], token: Token
) -> tuple[TraxMove, int] | None:
    """The move of a token (`notation.read_token`) and the space of its primary tile, on a
    started board whose tiles span `box`, when that space takes one of the symbol's tiles;
    None when it takes none, or the token names no space of the ring around the tiles
    (`TraxState.locate` then says why). The same move and space as `locate`'s, found from the
    token's own moves and fits: replaying a game reads a token a move."""
    col, row, _, moves, fit = token
    # `space_of`, with one bound: a row beyond the ring names a space of no code, and a
    # column beyond it (this test) would name one of the next row.
    if not 0 <= col <= box[1] - box[0] + 2:
        return None
    key = (box[2] - 1 + row) * ROW + box[0] - 1 + col
    which = fit[codes.get(key, 0)]
    if which < 0:
        return None
    return moves[which], key


def advance(
    tiles: dict[int, int],
    codes: dict[int, int],
    ends: dict[int, int],
    box: tuple[int, int, int, int] | None,
    seat: int,
    key: int,
    tile: int,
    limit: int,
    lines: bool,
) -> tuple[tuple[int, int, int, int], int | None, str]:
    """Play a turn of `seat` on the given (mutable) board, its primary tile on `key`, a space
    that takes it: the box widened (IllegalMove beyond the 8x8 `limit`), every forced tile
    placed (`walk_turn`), the loops and, where `lines` win, the lines looked for. Returns the
    box of the tiles after the turn, the winner's seat (None while the game goes on) and how
    they won. On an illegal turn the board is left half-changed: `TraxState.play_at` plays
    on copies, a replay on one board of its own (`turns.play_turns`)."""
    # The box widened from numbers: only the primary tile can widen it (`walk_turn`).
    x, y = key & COORD_MASK, key >> SHIFT
    if box is None:
        minx = maxx = x
        miny = maxy = y
        box = (x, x, y, y)
    else:
        minx, maxx, miny, maxy = box
        if not (minx <= x <= maxx and miny <= y <= maxy):
            if x < minx:
                minx = x
            elif x > maxx:
                maxx = x
            if y < miny:
                miny = y
            elif y > maxy:
                maxy = y
            if limit and (maxx - minx >= limit or maxy - miny >= limit):
                raise IllegalMove(
                    f"the tiles in play would span more than {limit} columns or rows",
                    rule="trax.8x8-limit",
                )
            box = (minx, maxx, miny, maxy)
    loops, grown = walk_turn(tiles, codes, ends, key, tile)
    lines = lines and (maxx - minx >= 7 or maxy - miny >= 7)
    if loops or lines:
        made = formed(tiles, ends, box, loops, grown, lines)
        mine, theirs = made[seat], made[1 - seat]
        if mine is not None:
            return box, seat, mine
        if theirs is not None:
            return box, 1 - seat, theirs
    return box, None, ""


STOPS, BREAKS, BRANCHES, STRAIGHT = 0, 1, 2, 4
"""What a track entering an empty space does there (`Summary`): forces nothing, or a tile that
forces nothing; leaves the space three edges of one colour; forces a tile that forces some
neighbour other than the one straight on, or more than one; forces a tile that forces only
the one straight on (`STRAIGHT | colour bit` of its track leaving there, 1 white)."""

Single = tuple[int, int, int, int]
Several = tuple[int, tuple[tuple[int, int, int, int], ...], tuple[tuple[int, int, int], ...]]
Summary = tuple[int, tuple[Single, ...], tuple[Several, ...]]
"""What `illegal_turns` needs to know of an empty space, found from its code and the tiles that
would force its neighbours (a `FORCING` mask) alone:

- what a track entering it does (`STOPS`.. `STRAIGHT`), 3 bits at 3 * (2 * edge + colour bit)
  for each edge it may be entered by and each colour;
- (tile, offset, shift, shift of the edge) of each fitting tile that forces one neighbour:
  the offset to it, where its entry is read, and where the entry of the next space on is;
- (tile, ((direction, offset, shift, shift of the edge), ...), corners) of each that forces
  two or three: each forced neighbour as above, and (direction, direction, offset) of the
  spaces two of them touch.

A fitting tile that forces nothing is in neither list."""

_SUMMARIES: dict[int, Summary] = {}
"""The summaries by `mask << 8 | code` (see `FORCING`), each made when first met: a neighbour's
code gives one of four masks in each direction, so there are at most 81 codes * 4 ** 4 masks."""


def _summary(code: int, mask: int) -> Summary:
    """The `Summary` of an empty space with this code and these tiles forcing its neighbours."""
    entries = 0
    for edge in range(4):
        if code >> 4 + edge & 1:
            continue
        back = ~(63 << 6 * edge)
        for colour in (0, 1):
            tile = FORCE[code | 1 << 4 + edge | colour << edge]
            entry = STOPS
            if tile == THREE_EDGES:
                entry = BREAKS
            elif tile != NO_FORCE:
                hit = (mask & back) >> TILES.index(tile) & EVERY_DIRECTION
                ahead = edge ^ 2
                if hit == 1 << 6 * ahead:
                    entry = STRAIGHT | tile >> ahead & 1
                elif hit:
                    entry = BRANCHES
            entries |= entry << 3 * (2 * edge + colour)
    singles: list[Single] = []
    severals: list[Several] = []
    for tile in FITS[code]:
        hit = mask >> TILES.index(tile) & EVERY_DIRECTION
        ways = [d for d in range(4) if hit >> 6 * d & 1]
        forced = tuple(
            (d, DELTA[d], 3 * (2 * (d ^ 2) + (tile >> d & 1)), 6 * (d ^ 2)) for d in ways
        )
        if len(ways) == 1:
            singles.append((tile, *forced[0][1:]))
        elif ways:
            corners = tuple(
                (a, b, DELTA[a] + DELTA[b]) for a in ways for b in ways if a < b and (a ^ b) & 1
            )
            severals.append((tile, forced, corners))
    return entries, tuple(singles), tuple(severals)


def illegal_turns(codes: dict[int, int]) -> list[tuple[int, int]]:
    """(space, tile) of every fitting tile on an empty space that touches a tile whose turn is
    illegal: forced play (`forced_play`) enters a space from three edges by one colour. The
    8x8 limit is not asked: forced tiles never widen the tiles in play (see `walk_turn`), so
    it needs no check beyond the primary tile's, which the callers make.

    The walk of `forced_play` again, for speed (this decides `legal_moves` and their count),
    for the turns it settles from the spaces' summaries (`Summary`): one pass gives every
    empty space its own, and a turn is walked only when a forced tile forces a neighbour other
    than the next straight on (one turn in 440 at the last level of perft 6). A primary tile
    that forces nothing is legal. One that forces a single neighbour is followed while each
    forced tile forces only the next space straight on: the neighbours of that space, the
    previous one aside, touch no tile of the turn, so the summaries made before it still hold
    for them. One that forces two or three neighbours follows each so (the chains never
    touch), and is legal when each ends forcing nothing and the spaces two forced neighbours
    touch are left unforced by both their tiles together.
    tests/games/trax/test_forced_play.py holds this to `forced_play`."""
    board, force_of, contribs, known = codes.get, FORCE, CONTRIB, _SUMMARIES
    north, east, south, west = FORCING
    row = DELTA[S]
    summaries: dict[int, Summary] = {}
    for key, code in codes.items():
        # A neighbour that holds a tile is no key of the codes: code 0 forces nothing.
        index = (
            north[board(key - row, 0)]
            | east[board(key + 1, 0)]
            | south[board(key + row, 0)]
            | west[board(key - 1, 0)]
            | code
        )
        summary = known.get(index)
        if summary is None:
            summary = known[index] = _summary(code, index >> 8)
        summaries[key] = summary
    illegal: list[tuple[int, int]] = []
    # The tile forced on the neighbour in each direction, of a primary tile that forces two
    # or three.
    put_at = [0] * 4
    for key, (_, singles, severals) in summaries.items():
        for tile, delta, shift, straight in singles:
            space = key + delta
            entry = summaries[space][0] >> shift & 7
            while entry >= STRAIGHT:
                space += delta
                entry = summaries[space][0] >> straight + 3 * (entry & 1) & 7
            # STOPS: legal; BREAKS: illegal; BRANCHES: walked.
            if entry and (entry == BREAKS or forced_play(codes, key, tile)[0] is None):
                illegal.append((key, tile))
        for tile, forced, corners in severals:
            contrib, walk = contribs[tile], False
            for way, delta, shift, straight in forced:
                space = key + delta
                put_at[way] = force_of[codes[space] | contrib[way]]
                entry = summaries[space][0] >> shift & 7
                # Followed straight on as a single one: its spaces touch no other tile of
                # the turn.
                while entry >= STRAIGHT:
                    space += delta
                    entry = summaries[space][0] >> straight + 3 * (entry & 1) & 7
                if entry == BREAKS:
                    illegal.append((key, tile))
                    break
                walk = walk or entry == BRANCHES
            else:
                # Each forced tile forces nothing through the codes before the turn but the
                # next ones straight on; the space two of them touch gets both (when empty).
                for a, b, delta in corners:
                    if not codes[key + DELTA[a]] >> 4 + b & 1 and (
                        force_of[
                            board(key + delta, 0) | contribs[put_at[a]][b] | contribs[put_at[b]][a]
                        ]
                        != NO_FORCE
                    ):
                        walk = True
                if walk and forced_play(codes, key, tile)[0] is None:
                    illegal.append((key, tile))
    return illegal


def legal_turns(codes: dict[int, int], spaces: Sequence[int]) -> list[tuple[int, int]]:
    """(space, tile) of every legal turn whose primary tile goes on one of `spaces` (empty
    spaces that touch a tile, within the 8x8 limit), in their order, without changing the
    board (see `illegal_turns`)."""
    fits = FITS
    turns = [(key, tile) for key in spaces for tile in fits[codes[key]]]
    illegal = illegal_turns(codes)
    if illegal:
        refused = set(illegal)
        turns = [turn for turn in turns if turn not in refused]
    return turns


def count_legal_turns(codes: dict[int, int], spaces: Collection[int]) -> int:
    """How many turns `legal_turns` gives, without them: `spaces` in any order."""
    fitting = sum(map(FITTING.__getitem__, map(codes.__getitem__, spaces)))
    return fitting - sum(key in spaces for key, _ in illegal_turns(codes))


def column_label(col: int) -> str:
    """`@` for 0, then A..Z, AA.. (bijective base 26)."""
    if col < 0:
        raise ValueError(f"no column label for {col}")
    if col == 0:
        return "@"
    letters = []
    while col:
        col, rest = divmod(col - 1, 26)
        letters.append(chr(ord("A") + rest))
    return "".join(reversed(letters))


def space_label(col: int, row: int) -> str:
    return f"{column_label(col)}{row}"


@state_class
class TraxState(State[TraxMove]):
    """A Trax position: the tiles in play, whose turn it is, and how the game ended.

    A state's dicts are its own copies, never changed after `play` made them; the only
    writes are caches: the hash and the legal turns.

    Equal positions compare equal wherever their tiles lie in the internal coordinates (only
    the shape matters, as in the notation); the moves that led here are kept for
    `format_position` and are not part of the identity.
    """

    ruleset: Ruleset
    tiles: dict[int, int] = field(default_factory=dict)
    codes: dict[int, int] = field(default_factory=dict)
    ends: dict[int, int] = field(default_factory=dict)
    box: tuple[int, int, int, int] | None = None
    """minx, maxx, miny, maxy of the tiles in play; None on the empty board."""
    seat: int = 0
    winner: int | None = None
    detail: str = ""
    history: tuple[Any, ...] | None = None
    """The moves so far as a linked list (move, earlier), newest first."""
    limit: int = field(init=False)
    """The side of the area the tiles may span (8 in the 8x8 variant), 0 for none."""
    lines: bool = field(init=False)
    """Whether a line wins (not in LoopTrax)."""
    _hash: int | None = field(default=None, init=False)
    _turns: list[tuple[int, int]] | None = field(default=None, init=False)
    """What `turns` says; None until asked."""

    def __post_init__(self: Any) -> None:
        # The variant's rules, derived from the ruleset once per state (state.py calls this
        # before the state is frozen, hence the plain writes and `Any`): read four or five
        # times a move, as properties they were a function call each time.
        variant = self.ruleset.variant
        self.limit = AREA if variant == "8x8" else 0
        self.lines = variant != "looptrax"

    def _shape(self) -> frozenset[tuple[int, int]]:
        if self.box is None:
            return frozenset()
        base = self.box[2] << SHIFT | self.box[0]
        return frozenset((key - base, tile) for key, tile in self.tiles.items())

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TraxState)
            and self.seat == other.seat
            and self.winner == other.winner
            and self.ruleset == other.ruleset
            and len(self.tiles) == len(other.tiles)
            and self._shape() == other._shape()
        )

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash((self._shape(), self.seat, self.winner, self.ruleset))
            object.__setattr__(self, "_hash", value)
        return value

    def __repr__(self) -> str:
        return f"TraxState({' '.join(self.tokens())!r}, {self.ruleset.id})"

    @property
    def to_move(self) -> int:
        return self.seat

    def moves(self) -> list[TraxMove]:
        """The moves played from the empty board, oldest first."""
        moves: list[TraxMove] = []
        node = self.history
        while node is not None:
            moves.append(node[0])
            node = node[1]
        moves.reverse()
        return moves

    def tokens(self) -> list[str]:
        return [format_token(move) for move in self.moves()]

    def _no_tile_fits(self, col: int, row: int, key: int | None) -> IllegalMove:
        """Why the space at (col, row) takes no tile: it holds one, or touches none."""
        label = space_label(col, row)
        if key is not None and key in self.tiles:
            return IllegalMove(f"{label} already holds a tile", rule="trax.occupied")
        return IllegalMove(
            f"{label} touches no tile: a tile must join the tiles in play", rule="trax.not-adjacent"
        )

    def space_of(self, col: int, row: int) -> int | None:
        """The space at notation labels (col, row), or None beyond the ring around the tiles."""
        box = self.box
        if box is None:
            return None
        if not (0 <= col <= box[1] - box[0] + 2 and 0 <= row <= box[3] - box[2] + 2):
            return None
        return (box[2] - 1 + row) << SHIFT | (box[0] - 1 + col)

    def locate(self, col: int, row: int, symbol: str) -> tuple[TraxMove, int | None]:
        """The move of a token's space (in labels) and symbol, IllegalMove when none fits,
        and the space of its primary tile, which `play_at` takes without checking the tile
        again; None for the space when the tile would leave the 8x8 area (`play` says so).

        Looks at the space and its neighbours only.
        """
        box = self.box
        if box is None:
            if (col, row) != (0, 0) or symbol == "\\":
                raise IllegalMove(
                    "the first move is @0+ or @0/ (it fixes the orientation of the notation), "
                    f"not {space_label(col, row)}{symbol}",
                    rule="trax.first-move",
                )
            first, second = SYMBOL_TILES[symbol]
            return TraxMove(0, 0, first if first in FIRST_TILES else second), key_of(
                ORIGIN, ROW_ORIGIN
            )
        if self.winner is not None or (self.limit and not self.has_legal_move()):
            raise IllegalMove("the game is over", rule="trax.game-over")
        # space_of, inline: this is the hot path of replaying a game.
        key = None
        if 0 <= col <= box[1] - box[0] + 2 and 0 <= row <= box[3] - box[2] + 2:
            key = (box[2] - 1 + row) << SHIFT | (box[0] - 1 + col)
        if key is None or (code := self.codes.get(key)) is None:
            raise self._no_tile_fits(col, row, key)
        known, white = code >> 4, code & 15
        for tile in SYMBOL_TILES[symbol]:
            if tile & known == white:
                # TraxMove(col, row, tile) without the named tuple's Python-level __new__.
                move = tuple.__new__(TraxMove, (col, row, tile))
                if not self.limit or self._within_limit(key):
                    return move, key
                return move, None
        raise IllegalMove(
            f"no {symbol} tile fits at {space_label(col, row)}: its neighbours' track colours "
            "cannot all be matched",
            rule="trax.colour-mismatch",
        )

    def check(self, move: Any) -> int:
        """The space of a primary tile that may be placed as `move`; raises IllegalMove if not.

        Checks the tile itself (the space, its colours, the 8x8 limit), not forced play.
        """
        if self.winner is not None or self._turns == []:
            raise IllegalMove("the game is over", rule="trax.game-over")
        if not (
            isinstance(move, TraxMove)
            and isinstance(move.col, int)
            and isinstance(move.row, int)
            and isinstance(move.tile, int)
            and move.col >= 0
            and move.row >= 0
            and move.tile in SYMBOLS
        ):
            raise IllegalMove(f"{move!r} is not a Trax move", rule="trax.no-such-move")
        col, row, tile = move
        if self.box is None:
            if (col, row) != (0, 0) or tile not in FIRST_TILES:
                raise IllegalMove(
                    "the first move is @0+ or @0/ (it fixes the orientation of the notation), "
                    f"not {format_token(move)}",
                    rule="trax.first-move",
                )
            return key_of(ORIGIN, ROW_ORIGIN)
        key = self.space_of(col, row)
        if key is None or (code := self.codes.get(key)) is None:
            raise self._no_tile_fits(col, row, key)
        if tile & (code >> 4) != code & 15:
            raise IllegalMove(
                f"{format_token(move)}: the tile's track colours do not match its neighbours'",
                rule="trax.colour-mismatch",
            )
        if self.limit and not self._within_limit(key):
            raise IllegalMove(
                f"{space_label(col, row)} lies outside the {self.limit}x{self.limit} area "
                "the tiles may span",
                rule="trax.8x8-limit",
            )
        return key

    def fits(self, key: int) -> bool:
        """Whether a tile on `key` keeps the tiles within the 8x8 limit (always, without one)."""
        return not self.limit or self._within_limit(key)

    def _within_limit(self, key: int) -> bool:
        """Whether a tile on `key` keeps the tiles within the 8x8 area (asked only there)."""
        box, limit = self.box, AREA
        assert box is not None
        x, y = key & COORD_MASK, key >> SHIFT
        return max(box[1], x) - min(box[0], x) < limit and max(box[3], y) - min(box[2], y) < limit

    def _spaces(self) -> list[int]:
        """The empty spaces that touch a tile, within the 8x8 limit, row by row."""
        spaces = sorted(self.codes)
        if self.limit:
            spaces = [key for key in spaces if self._within_limit(key)]
        return spaces

    def candidates(self) -> list[tuple[int, int]]:
        """(space, tile) of every tile that fits an empty space, row by row.

        These are the moves unless forced play makes them illegal (see `preview`).
        """
        codes = self.codes
        return [(key, tile) for key in self._spaces() for tile in FITS[codes[key]]]

    def move_at(self, key: int, tile: int) -> TraxMove:
        """The move that places `tile` on the space `key` of this position."""
        if self.box is None:
            return TraxMove(0, 0, tile)
        return TraxMove(
            (key & COORD_MASK) - self.box[0] + 1, (key >> SHIFT) - self.box[2] + 1, tile
        )

    def preview(self, key: int, tile: int) -> int:
        """How a turn placing a fitting `tile` on `key` ends: the winner's seat, NO_WIN or ILLEGAL.

        Cheaper than `play` for the bots: without forced play no loop can close (two ends
        of one track facing one empty space would have forced it), and only the two tracks
        through the new tile can become lines, so they are looked up instead of played.
        """
        tiles, codes, box, limit = self.tiles, self.codes, self.box, self.limit
        assert box is not None
        contrib = CONTRIB[tile]
        forcing = False
        for d, delta in DIRECTIONS:
            neighbour = key + delta
            if neighbour not in tiles:
                force = FORCE[codes.get(neighbour, 0) | contrib[d]]
                if force == THREE_EDGES:
                    return ILLEGAL
                forcing = forcing or force >= 0
        x, y = key & COORD_MASK, key >> SHIFT
        new_box = [min(box[0], x), max(box[1], x), min(box[2], y), max(box[3], y)]
        if limit and (new_box[1] - new_box[0] >= limit or new_box[3] - new_box[2] >= limit):
            return ILLEGAL
        lines = self.lines and (new_box[1] - new_box[0] >= 7 or new_box[3] - new_box[2] >= 7)
        if forcing:
            new_tiles, new_ends = tiles.copy(), self.ends.copy()
            try:
                loops, grown = walk_turn(new_tiles, codes.copy(), new_ends, key, tile)
            except IllegalMove:
                return ILLEGAL
            if not (loops or lines):
                return NO_WIN
            made = formed(new_tiles, new_ends, new_box, loops, grown, lines)
        elif not lines:
            return NO_WIN
        else:
            ends, here = self.ends, key << 2
            made_lines: list[str | None] = []
            for _, a, b in PAIRS[tile]:
                far_a = ends[here + INCOMING[a]] if key + DELTA[a] in tiles else here | a
                far_b = ends[here + INCOMING[b]] if key + DELTA[b] in tiles else here | b
                made_lines.append("line" if is_line(far_a, far_b, new_box) else None)
            made = (made_lines[0], made_lines[1])
        seat = self.seat
        if made[seat] is not None:
            return seat
        if made[1 - seat] is not None:
            return 1 - seat
        return NO_WIN

    def legal_moves(self) -> list[TraxMove]:
        if self.winner is not None:
            return []
        box = self.box
        if box is None:
            return [TraxMove(0, 0, tile) for tile in FIRST_TILES]
        minx, miny = box[0] - 1, box[2] - 1
        new = tuple.__new__  # TraxMove(...) without the named tuple's Python-level __new__
        return [
            new(TraxMove, ((key & COORD_MASK) - minx, (key >> SHIFT) - miny, tile))
            for key, tile in self.turns()
        ]

    def count_legal_moves(self) -> int:
        if self.winner is not None:
            return 0
        if self.box is None:
            return len(FIRST_TILES)
        if self._turns is not None:
            return len(self._turns)
        codes = self.codes
        # The count needs the spaces in no order: the codes' own, without the sort.
        spaces = [key for key in codes if self._within_limit(key)] if self.limit else codes
        return count_legal_turns(codes, spaces)

    def turns(self) -> list[tuple[int, int]]:
        """(space, tile) of every legal move of a started game that goes on, in the order of
        `legal_moves`, found once per state: the moves before their labels."""
        turns = self._turns
        if turns is None:
            turns = legal_turns(self.codes, self._spaces())
            object.__setattr__(self, "_turns", turns)
        return turns

    def has_legal_move(self) -> bool:
        """Whether any legal move exists."""
        # No move is legal once the game is won.
        return self.winner is None and (self.box is None or bool(self.turns()))

    def play(self, move: Any) -> TraxState:
        # Any, as `check`'s: a compiled build (README, "Compiled engines") would refuse an
        # object of another type with a TypeError before `check` could name it.
        return self.play_at(move, self.check(move))

    def children(self) -> list[TraxState]:
        if self.box is None or self.winner is not None:
            return [self.play(move) for move in self.legal_moves()]
        # The legal moves come from the turns, in their order: each move's space is its turn's.
        play_at = self.play_at
        return [
            play_at(move, key)
            for move, (key, _) in zip(self.legal_moves(), self.turns(), strict=True)
        ]

    def read(self, token: Token) -> tuple[TraxMove, TraxState]:
        """The move of a token (`notation.read_token`) and the state after it: `locate`, then
        `play_at` (`play` where the tile would leave the 8x8 area), as `TraxGame.read_move`
        reads a move.

        The common case, a game that goes on without the 8x8 limit and a space that takes
        the tile, is `placed`: the same space and tile as `locate`'s, the move the token's
        own. tests/games/trax/test_oracle.py holds this to `locate` and `play_at`."""
        box = self.box
        if box is not None and self.winner is None and not self.limit:
            found = placed(box, self.codes, token)
            if found is not None:
                return found[0], self.play_at(found[0], found[1])
        col, row, symbol, _, _ = token
        located, space = self.locate(col, row, symbol)
        return located, self.play(located) if space is None else self.play_at(located, space)

    def play_at(self, move: TraxMove, key: int) -> TraxState:
        """The state after `move`, its primary tile on the space `key` of this state, found by
        `check` or `locate`: the tile itself is not checked again, forced play is."""
        tiles, codes, ends = self.tiles.copy(), self.codes.copy(), self.ends.copy()
        seat, limit, lines = self.seat, self.limit, self.lines
        box, winner, detail = advance(
            tiles, codes, ends, self.box, seat, key, move[2], limit, lines
        )
        return build_state(
            self.ruleset,
            tiles,
            codes,
            ends,
            box,
            1 - seat,
            winner,
            detail,
            (move, self.history),
            limit,
            lines,
        )

    def outcome(self) -> Outcome | None:
        if self.winner is not None:
            return Outcome(self.winner, 1, "rules", self.detail)
        if self.limit and not self.has_legal_move():
            return Outcome(None, 0, "rules", "no legal move")
        return None

    def is_terminal(self) -> bool:
        return self.winner is not None or (self.limit > 0 and not self.has_legal_move())


build_state = builder(TraxState, derived=True)
"""`TraxState(...)` as a plain function of every field, the variant's `limit` and `lines`
the last: perft, the bots and a replay build a state a move, from the one before (same
ruleset), whose `limit` and `lines` it takes rather than derive them again."""


def format_token(move: TraxMove) -> str:
    return f"{column_label(move.col)}{move.row}{SYMBOLS[move.tile]}"
