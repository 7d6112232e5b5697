"""Which moves of a Trax position complete a loop or a line, kept from position to position.

The bots' costly question is "which moves win at once, for either player?": the side to move
takes such a move, and must stop every such move of the opponent (a threat). A `Scan` answers
it for every candidate move of a position by following each turn in a small overlay (no board
copy), and remembers what each answer read: the spaces the turn fills and the empty spaces
beside them (`reads`). A turn played between two positions changes only the spaces it fills,
the empty spaces beside them and the track ends it lengthens (its `writes`, the ends counted
by the spaces they face); an answer whose reads the turn did not write is still right after
it, so the scan of a child position probes again only the few moves near the turn.

The box of the tiles in play only grows, and a turn's tracks keep their ends while its reads
are unwritten, so a growing box can undo a line (its end is no longer outermost) but never
make one: only the probes that complete a line are checked against the box.

The same records answer "does this move touch that threat?" without playing the move: a move
that writes none of a threat's reads (and does not widen the box across a threatened line)
leaves the threat standing, so it is no defence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from referee.games.trax.rules import (
    COORD_MASK,
    DELTA,
    FITS,
    GONE,
    INCOMING,
    PAIRS,
    SHIFT,
    TraxState,
    forced_play,
    is_line,
)

WHITE_FORMS, BLACK_FORMS, BROKEN = 1, 2, 4
"""Bits of a probe's result: the turn completes a white loop or line, a black one, or is
illegal (a space entered three times by one colour)."""
ACROSS, DOWN = 1, 2
"""Directions of lines: from the left side of the tiles to the right, from top to bottom."""
# GONE (from the rules): also an overlaid track end that the turn covered.

Move = tuple[int, int]
"""(space, tile) in the internal coordinates, which do not change as the board grows."""
Box = tuple[int, int, int, int]

OCCUPIED_EDGES = tuple(tuple(d for d in range(4) if known >> d & 1) for known in range(16))
FACED = tuple(DELTA[d] for d in range(4))


Turn = tuple[tuple[int, int, int], ...]
"""(space, tile, edges facing a tile) of each tile of a turn, in the order it is placed (as
`rules.forced_play` gives them)."""


class Probe(NamedTuple):
    """What a turn placing a tile does, and what the answer depends on."""

    result: int
    """WHITE_FORMS | BLACK_FORMS, or BROKEN."""
    reads: frozenset[int]
    """The spaces the turn fills and the empty spaces beside them."""
    writes: frozenset[int]
    """The reads and the spaces faced by the far ends of the tracks the turn lengthens: what
    playing it changes."""
    lines: int
    """ACROSS | DOWN: the directions of the lines the turn completes, which the box decides."""
    spaces: tuple[int, ...]
    """The reads, in an order `seen` follows."""
    seen: tuple[int | None, ...]
    """The codes of `spaces` the turn was followed from (None: a space with no code)."""
    turn: Turn
    """The tiles of the turn: they follow from `seen` alone."""
    entries: tuple[int, ...]
    """The track ends that face the turn's spaces, whose partners it read..."""
    partners: tuple[int, ...]
    """... and those partners."""
    wide: Box | None
    """The box of the tiles in play after the turn; None where lines do not win."""

    def revised(self, state: TraxState, key: int) -> Probe | None:
        """This probe of `key` brought to `state`, a position elsewhere in the search: itself
        if everything it read is unchanged, its tracks followed again if only they changed
        (the tiles it places depend on the codes alone), None if the codes changed."""
        if tuple(map(state.codes.get, self.spaces)) != self.seen:
            return None
        if self.result == BROKEN:
            return self
        if self.entries and tuple(map(state.ends.get, self.entries)) != self.partners:
            return _finish(state, key, self.turn, self.reads, self.spaces, self.seen, self.entries)
        if self.wide is None:
            return self
        # The box only matters through lines: a grown box makes none (see the module's
        # docstring) and keeps those whose outermost sides it did not move.
        wide = _after(state.box, key)
        if wide == self.wide or (
            wide[0] <= self.wide[0]
            and wide[1] >= self.wide[1]
            and wide[2] <= self.wide[2]
            and wide[3] >= self.wide[3]
            and not _moved(self.wide, wide, self.lines)
        ):
            return self
        return _finish(state, key, self.turn, self.reads, self.spaces, self.seen, self.entries)


def probe(state: TraxState, key: int, tile: int) -> Probe:
    """Follow the turn placing `tile` on `key` (a fitting candidate) without changing `state`.

    The tiles are placed first (forced play only needs the codes); the tracks are followed
    only when the turn may close a loop (some track has both its ends facing spaces the turn
    fills) or complete a line (it reaches both outermost edges of a wide enough box).
    """
    codes = state.codes
    found, changed = forced_play(codes, key, tile)
    reads = frozenset(changed)
    spaces = tuple(changed)
    seen = tuple(map(codes.get, spaces))
    if found is None:
        return Probe(BROKEN, reads, reads, 0, spaces, seen, (), (), (), None)
    turn = tuple(found)
    # The tracks the turn joins are those whose ends face its spaces from tiles in play.
    entries = tuple(
        (space << 2) + INCOMING[d]
        for space, _, occupied in turn
        for d in OCCUPIED_EDGES[occupied]
        if changed.get(space + DELTA[d]) != GONE
    )
    return _finish(state, key, turn, reads, spaces, seen, entries)


def _finish(
    state: TraxState,
    key: int,
    turn: Turn,
    reads: frozenset[int],
    spaces: tuple[int, ...],
    seen: tuple[int | None, ...],
    entries: tuple[int, ...],
) -> Probe:
    """The probe of a turn whose tiles are known: what its tracks complete."""
    ends = state.ends
    partners = tuple(map(ends.__getitem__, entries))
    # The far end of each joined track gets a new partner; a track whose far end faces a
    # space of the turn too may close.
    far = [(other >> 2) + FACED[other & 3] for other in partners]
    if len(turn) == 1:
        closes = False
    else:
        placed = {space for space, _, _ in turn}
        closes = not placed.isdisjoint(far)
    box = _after(state.box, key) if state.lines else None
    wide = box if box is not None and _spans(box) and _may_line(turn, partners, box) else None
    result = lines = 0
    if closes or wide is not None:
        result, lines = _tracks(ends, turn, wide)
    return Probe(
        result,
        reads,
        reads.union(far) if far else reads,
        lines,
        spaces,
        seen,
        turn,
        entries,
        partners,
        box,
    )


def _after(box: Box | None, key: int) -> Box:
    """The box of the tiles in play after a tile on `key`."""
    assert box is not None
    x, y = key & COORD_MASK, key >> SHIFT
    return (min(box[0], x), max(box[1], x), min(box[2], y), max(box[3], y))


def _spans(box: Box) -> bool:
    """Whether a box is wide or tall enough for a line (8 columns or rows)."""
    return box[1] - box[0] >= 7 or box[3] - box[2] >= 7


def _may_line(turn: Turn, joined: tuple[int, ...], wide: Box) -> bool:
    """Whether the turn's tracks may reach two opposite outermost edges of `wide`.

    Their ends are the far ends of the tracks they join and the new ends of the turn's
    tiles; a tile in an outermost column or row has an end on that edge.
    """
    minx, maxx, miny, maxy = wide
    reach = 0
    for space, _, _ in turn:
        x, y = space & COORD_MASK, space >> SHIFT
        if x == minx:
            reach |= 1
        elif x == maxx:
            reach |= 2
        if y == miny:
            reach |= 4
        elif y == maxy:
            reach |= 8
    for end in joined:
        edge = end & 3
        if edge == 3:
            reach |= ((end >> 2) & COORD_MASK == minx) * 1
        elif edge == 1:
            reach |= ((end >> 2) & COORD_MASK == maxx) * 2
        elif edge == 0:
            reach |= (end >> (2 + SHIFT) == miny) * 4
        else:
            reach |= (end >> (2 + SHIFT) == maxy) * 8
    return (reach & 3 == 3 and maxx - minx >= 7) or (reach & 12 == 12 and maxy - miny >= 7)


def _tracks(ends: dict[int, int], turn: Turn, wide: Box | None) -> tuple[int, int]:
    """(colours completed, directions of the lines among them) by following the turn's
    tracks in an overlay of the track ends, tile by tile in the order they were placed."""
    overlay: dict[int, int] = {}
    grown: list[tuple[int, int]] = []
    loops = 0
    for space, put, occupied in turn:
        here = space << 2
        for colour_bit, a, b in PAIRS[put]:
            if occupied >> a & 1:
                end = here + INCOMING[a]
                far_a = overlay.get(end)
                if far_a is None:
                    far_a = ends[end]
                overlay[end] = GONE
            else:
                far_a = here | a
            if occupied >> b & 1:
                end = here + INCOMING[b]
                if far_a == end:
                    overlay[end] = GONE
                    loops |= colour_bit
                    continue
                far_b = overlay.get(end)
                if far_b is None:
                    far_b = ends[end]
                overlay[end] = GONE
            else:
                far_b = here | b
            overlay[far_a] = far_b
            overlay[far_b] = far_a
            grown.append((far_a, colour_bit))
    result, lines = loops, 0
    if wide is not None:
        for end, colour_bit in grown:
            other = overlay[end]
            if other != GONE and is_line(end, other, wide):
                result |= colour_bit
                lines |= ACROSS if end & 1 else DOWN
    return result, lines


def _moved(before: Box, after: Box, lines: int) -> bool:
    """Whether two boxes differ in the outermost sides of lines in the directions `lines`."""
    return bool(
        (lines & ACROSS and (before[0] != after[0] or before[1] != after[1]))
        or (lines & DOWN and (before[2] != after[2] or before[3] != after[3]))
    )


def _widened(before: Box, after: Box, key: int, lines: int) -> bool:
    """Whether the box after a tile on `key` differs between the boxes before and after a
    turn, in the outermost sides of lines in the directions `lines`."""
    return _moved(_after(before, key), _after(after, key), lines)


def widens(state: TraxState, key: int, threat: Move, lines: int) -> bool:
    """Whether a tile on `key` moves the outermost sides a line completed by `threat` needs."""
    return _widened(state.box, _after(state.box, key), threat[0], lines)  # type: ignore[arg-type]


class Effect(NamedTuple):
    """What a turn does to the moves after it, and the spaces this depends on."""

    made: int
    """WHITE_FORMS | BLACK_FORMS: the colours some move completes after the turn, among the
    moves whose probes the turn changed (its new threats and gifts)."""
    reach: frozenset[int]
    """The spaces the turn wrote and those its changed probes read: as long as later turns
    write none of them, the turn does the same."""


class Scan:
    """A probe of every candidate move of a position; `forms[c]`: the moves completing colour c.

    Built from the scan of the position before (`parent`) and the turn between them (its
    `writes`, and the box before it), it probes again only the moves that turn could change:
    the moves on the spaces it wrote (filled, newly touched or newly constrained) and those
    whose reads it wrote. For those it first tries the probes of `hints` (earlier probes of
    the same moves, taken only as far as what they read still holds), and it records the
    probes it ends with into `cache`.
    """

    __slots__ = ("changed", "children", "forms", "legal", "probes")

    probes: dict[Move, Probe]
    forms: tuple[list[Move], list[Move]]
    legal: int
    changed: list[Move]

    def __init__(
        self,
        state: TraxState,
        parent: Scan | None = None,
        writes: frozenset[int] = frozenset(),
        before: Box | None = None,
        hints: Sequence[dict[Move, Probe]] = (),
        cache: dict[Move, Probe] | None = None,
    ) -> None:
        probes: dict[Move, Probe] = {}
        changed: list[Move] = []
        if parent is None:
            redo = state.candidates()
        else:
            after = state.box
            assert after is not None and before is not None
            moved = before != after
            redo = []
            for move, known in parent.probes.items():
                if move[0] in writes:
                    continue
                if not known.reads.isdisjoint(writes) or (
                    known.lines and moved and _widened(before, after, move[0], known.lines)
                ):
                    # Often the turn only lengthened a track this probe joins, so its tiles
                    # stand and only its tracks are followed again.
                    revised = known.revised(state, move[0])
                    if revised is None:
                        redo.append(move)
                    else:
                        probes[move] = revised
                        changed.append(move)
                        if cache is not None:
                            cache[move] = revised
                else:
                    probes[move] = known
            codes = state.codes
            for space in writes:
                code = codes.get(space)
                if code is not None:
                    redo.extend((space, tile) for tile in FITS[code])
            if state.limit:
                # The 8x8 limit: a grown box rules out spaces on its far sides, and new
                # spaces beyond a box 8 wide are out.
                if moved:
                    probes = {move: known for move, known in probes.items() if state.fits(move[0])}
                redo = [move for move in redo if state.fits(move[0])]
        for move in redo:
            redone: Probe | None = None
            for hint in hints:
                found = hint.get(move)
                if found is not None:
                    redone = found.revised(state, move[0])
                    if redone is not None:
                        break
            if redone is None:
                redone = probe(state, *move)
            if cache is not None:
                cache[move] = redone
            probes[move] = redone
        changed.extend(redo)
        white: list[Move] = []
        black: list[Move] = []
        legal = 0
        for move, known in probes.items():
            result = known.result
            if result:
                if result == BROKEN:
                    continue
                if result & WHITE_FORMS:
                    white.append(move)
                if result & BLACK_FORMS:
                    black.append(move)
            legal += 1
        self.probes = probes
        self.forms = (white, black)
        self.legal = legal
        self.changed = changed
        """The moves probed again (or revised) here rather than kept from the parent."""
        self.children: dict[Move, tuple[TraxState, Scan | None]] = {}
        """What follows each move (the position, and its scan once made), kept by the bots
        from one iteration to the next."""

    def effect(self, writes: frozenset[int]) -> Effect:
        """What the turn from the parent (which wrote `writes`) changed: see `Effect`."""
        probes = self.probes
        reach = set(writes)
        made = 0
        for move in self.changed:
            found = probes[move]
            reach.update(found.reads)
            if found.result != BROKEN:
                made |= found.result
        return Effect(made, frozenset(reach))

    def child(
        self,
        state: TraxState,
        move: Move,
        after: TraxState,
        transposed: Scan | None = None,
        cache: dict[Move, Probe] | None = None,
    ) -> Scan:
        """The scan of `after`, the position `state` (this scan's) gives after `move`.

        `transposed` is the scan of the position before `state` after the same `move`: the
        position after both turns is the same whichever comes first, so its probes near
        `move` are the likely answers here. `cache` holds the latest probe of each move.
        """
        hints = [transposed.probes] if transposed is not None else []
        if cache is not None:
            hints.append(cache)
        return Scan(after, self, self.probes[move].writes, state.box, hints, cache)
