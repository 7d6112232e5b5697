"""Takhteh rules (docs/rules/takhteh.md): the position, the dice, legal plays and their check.

A position is a tuple of 26 ints seen from the player on roll ("the mover"): index p in
1..24 holds the mover's checkers on the mover's point p (positive) or the opponent's checkers
on that point (negative); index 25 is the mover's bar (>= 0) and index 0 the opponent's bar
(<= 0, the opponent's point 25 seen from the mover). Checkers borne off are not stored: each
side has 15 minus what is on the board and bar. Turning the board round for the other player is
`flip`: index i becomes minus index 25 - i.

A move is a whole play: the checker moves ("legs") of one turn, each (from, to) with from 25
for the bar and to 0 for off. Plays are judged by the position they reach, so the Takhteh
restrictions are checked leg by leg and the "as many dice as possible / the larger die" rules
are judged on the set of positions that legal leg sequences reach.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from referee.games.base import IllegalMove, Outcome, Roll, Ruleset, State
from referee.games.dice import OPENING_OUTCOMES, SORTED_ROLLS, TURN_OUTCOMES
from referee.games.state import builder, field, state_class

Board = tuple[int, ...]
Leg = tuple[int, int]

BAR = 25
OFF = 0
CHECKERS = 15
HOME = 6
"""The mover's home board is points 1..HOME."""


def _start() -> Board:
    board = [0] * 26
    for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        board[point] = count
        board[25 - point] = -count
    return tuple(board)


START: Board = _start()


TakhtehMove = tuple[Leg, ...]
"""A play: its legs (from, to), highest first; the empty play is the turn with no move.

Two plays that reach the same position are the same move for legality; `play` accepts
either. Legs as a player writes them may span several dice (`24/13` with 6-5) and are then
split by the engine.
"""

NO_MOVE: TakhtehMove = ()


def flip(board: Board | list[int]) -> Board:
    """The same position seen from the other player."""
    # Unpacked and written out: twice as fast as negating with `map` (every turn flips).
    # fmt: off
    (b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12,
     b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24, b25) = board
    return (-b25, -b24, -b23, -b22, -b21, -b20, -b19, -b18, -b17, -b16, -b15, -b14, -b13,
            -b12, -b11, -b10, -b9, -b8, -b7, -b6, -b5, -b4, -b3, -b2, -b1, -b0)
    # fmt: on


def point_name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def legs_text(legs: Iterable[Leg]) -> str:
    """Plain `from/to` text of legs, for messages."""
    return " ".join(f"{point_name(s)}/{point_name(d)}" for s, d in legs)


def outside_count(board: Board | list[int]) -> int:
    """The mover's checkers on the bar or outside the home board (bearing off needs none)."""
    # A loop: `sum(filter((0).__lt__, ...))` calls its method for each point, slower.
    count = 0
    for n in board[HOME + 1 :]:
        if n > 0:
            count += n
    return count


# --- legal plays -------------------------------------------------------------------------
#
# The generators walk the legs of a turn on a mutable copy `c` of the board, with `outside`
# (the mover's checkers on the bar or on 7..24) and `frozen` (a bit for each home point where
# a checker hit a blot this turn: that checker may not move again). Each point is hit at most
# once a turn, so one frozen checker per point is all there can be. `sources` lists, highest
# first, the points that can hold a checker of the mover during the turn (held at the start,
# or reached by a die or by two or three equal dice); no other point needs looking at.


_BEYOND = (0,) * 18
"""Empty points past the bar: a board followed by these is read at p + 18 without a check."""


def _sources(c: Board | list[int], steps: tuple[int, ...]) -> list[int]:
    """Points (highest first) a checker of the mover can be on this turn, given the steps
    one checker can make (each die; or d, 2d, 3d for doubles): a point held, or a step
    below a point held or the bar."""
    pad = [*c, *_BEYOND]
    if len(steps) == 2:
        a, b = steps
        return [p for p in range(24, 0, -1) if pad[p] > 0 or pad[p + a] > 0 or pad[p + b] > 0]
    a, b, e = steps
    return [
        p
        for p in range(24, 0, -1)
        if pad[p] > 0 or pad[p + a] > 0 or pad[p + b] > 0 or pad[p + e] > 0
    ]


_DOWN = range(24, 0, -1)


def _steps(c: list[int], d: int, outside: int, frozen: int, sources: list[int]) -> list[Leg]:
    """Every single leg the die `d` can play now, the Takhteh restrictions included."""
    if c[25] > 0:
        dst = 25 - d
        return [(25, dst)] if c[dst] >= -1 else []
    if outside:
        return [
            (s, s - d) for s in sources if s > d and c[s] > (frozen >> s & 1) and c[s - d] >= -1
        ]
    # Bearing off. No wasted pips: a movable checker on point d must be borne off by d.
    if c[d] > (frozen >> d & 1):
        return [(d, 0)]
    top = HOME
    while top and c[top] <= 0:
        top -= 1
    legs = [(s, s - d) for s in range(top, d, -1) if c[s] > (frozen >> s & 1) and c[s - d] >= -1]
    if 0 < top < d and c[top] > (frozen >> top & 1):
        legs.append((top, 0))
    return legs


def _move_checker(c: list[int], src: int, dst: int) -> bool:
    """Move one of the mover's checkers on the working board `c` (hitting a blot on `dst`
    sends it to the opponent's bar); whether it hit. The generators that run for every
    position do this inline."""
    c[src] -= 1
    if dst and c[dst] == -1:
        c[dst] = 1
        c[0] -= 1
        return True
    if dst:
        c[dst] += 1
    return False


def _take_back(c: list[int], src: int, dst: int, hit: bool) -> None:
    """Undo `_move_checker(c, src, dst)`, which returned `hit`."""
    if hit:
        c[dst] = -1
        c[0] += 1
    elif dst:
        c[dst] -= 1
    c[src] += 1


def _generate(board: Board, high: int, low: int) -> dict[Board, tuple[Leg, ...]]:
    """Each position a legal play reaches, with the legs (highest first) of one way there.

    The general way, used where bearing off can start or go on during the turn: every
    sequence of legs allowed by the Takhteh restrictions, compared by the positions they
    reach; then the most dice, then the larger die. No legal play gives {board: ()}.
    """
    c = list(board)
    outside = outside_count(board)
    if high == low:
        found = _generate_double(c, high, outside)
    else:
        found = _generate_pair(c, high, low, outside)
    return found or {board: ()}


def _generate_pair(c: list[int], high: int, low: int, outside: int) -> dict[Board, tuple[Leg, ...]]:
    both: dict[Board, tuple[Leg, ...]] = {}
    single_high: dict[Board, tuple[Leg, ...]] = {}
    single_low: dict[Board, tuple[Leg, ...]] = {}
    # Only legs from outside the home board read the sources (`_steps`), and none is left
    # once bearing off has begun.
    sources = _sources(c, (high, low)) if outside else []
    for first, second, singles in ((high, low, single_high), (low, high, single_low)):
        for leg in _steps(c, first, outside, 0, sources):
            src, dst = leg
            hit = _move_checker(c, src, dst)
            frozen = 1 << dst if hit and dst <= HOME else 0
            after = outside - 1 if src > HOME >= dst else outside
            nexts = _steps(c, second, after, frozen, sources)
            if nexts:
                for leg2 in nexts:
                    s2, d2 = leg2
                    c[s2] -= 1
                    if d2 and c[d2] == -1:
                        c[d2] = 1
                        c[0] -= 1
                        key = tuple(c)
                        c[d2] = -1
                        c[0] += 1
                    elif d2:
                        c[d2] += 1
                        key = tuple(c)
                        c[d2] -= 1
                    else:
                        key = tuple(c)
                    c[s2] += 1
                    if key not in both:
                        both[key] = (leg, leg2) if leg >= leg2 else (leg2, leg)
            elif not both:
                singles.setdefault(tuple(c), (leg,))
            _take_back(c, src, dst, hit)
    return both or single_high or single_low


def _generate_double(c: list[int], d: int, outside: int) -> dict[Board, tuple[Leg, ...]]:
    found: dict[Board, tuple[Leg, ...]] = {}
    seen: set[Board] = set()
    best = 0
    sources = _sources(c, (d, 2 * d, 3 * d)) if outside else []  # as in `_generate_pair`

    def walk(depth: int, legs: tuple[Leg, ...], outside: int, frozen: int) -> None:
        nonlocal best, found
        steps = _steps(c, d, outside, frozen, sources) if depth < 4 else ()
        if not steps:
            if depth >= best:
                if depth > best:
                    best, found = depth, {}
                key = tuple(c)
                if key not in found:
                    found[key] = tuple(sorted(legs, reverse=True))
            return
        for leg in steps:
            src, dst = leg
            hit = _move_checker(c, src, dst)
            key = tuple(c)
            # The position fixes everything else (frozen points, checkers outside, and the
            # number of legs played: each point has one way forward with one die).
            if key not in seen:
                seen.add(key)
                walk(
                    depth + 1,
                    (*legs, leg),
                    outside - 1 if src > HOME >= dst else outside,
                    frozen | (1 << dst) if hit and dst <= HOME else frozen,
                )
            _take_back(c, src, dst, hit)

    walk(0, (), outside, 0)
    return found if best else {}


# The fast paths below list each play once without comparing positions, where no bearing off
# can happen during the turn (so "no wasted pips" never applies and the order of the legs
# matters only through what each leg checks). The tests hold them, and `_generate`, against a
# plain reference generator.


def legal_plays(board: Board, high: int, low: int) -> list[tuple[Leg, ...]]:
    """The legs (highest first) of each legal play, one play per position it reaches."""
    if high == low:
        if outside_count(board) > 4 or not _may_bear_off(board, high):
            return _double_plays(list(board), high)
        return list(_generate(board, high, low).values())
    bar = board[BAR]
    if bar >= 2:
        return _entry_plays(board, high, low)
    if bar:
        return _bar_pair_plays(board, high, low)
    return _pair_plays(board, high, low)


def _may_bear_off(board: Board, d: int) -> bool:
    """Whether four legs of `d` could bring every checker home, so bearing off could start."""
    legs = -(-(BAR - HOME) // d) * board[BAR]
    for p in range(HOME + 1, BAR):
        if board[p] > 0:
            legs += -(-(p - HOME) // d) * board[p]
    return legs <= 4


def _entry_plays(board: Board, high: int, low: int) -> list[tuple[Leg, ...]]:
    """Two or more checkers on the bar: the dice can only enter them."""
    enter_high = board[25 - high] >= -1
    enter_low = board[25 - low] >= -1
    if enter_high and enter_low:
        return [((25, 25 - high), (25, 25 - low))]
    if enter_high:
        return [((25, 25 - high),)]
    if enter_low:
        return [((25, 25 - low),)]
    return [()]


def _bar_pair_plays(c: Board, a: int, b: int) -> list[tuple[Leg, ...]]:
    """One checker on the bar and two different dice: enter it, then play the other die.

    The entered checker stays outside the home board, so no bearing off is possible. Two
    plays reach the same position only when the checker enters and moves on with both dice,
    passing no blot either way; that one is listed entering with the larger die.
    """
    # One loop over the points, not comprehensions (see `_pair_plays`): the plays entering
    # with a, then those entering with b, each list in the order of the points.
    ea, eb = 25 - a, 25 - b
    open_a = c[ea] >= -1
    open_b = c[eb] >= -1
    chain_a = open_a and c[ea - b] >= -1
    twice = chain_a and c[ea] != -1 and c[eb] != -1
    enter_a = (25, ea)
    enter_b = (25, eb)
    plays: list[tuple[Leg, ...]] = []
    after_b: list[tuple[Leg, ...]] = []
    for s in _DOWN:
        if c[s] > 0:
            if open_a and s > b and c[s - b] >= -1:
                plays.append((enter_a, (s, s - b)))
            if open_b and s > a and c[s - a] >= -1 and not (twice and s == eb):
                after_b.append((enter_b, (s, s - a)))
    if chain_a and c[ea] <= 0:
        plays.append((enter_a, (ea, ea - b)))
    plays += after_b
    if open_b and c[eb] <= 0 and c[eb - a] >= -1 and not twice:
        plays.append((enter_b, (eb, eb - a)))
    if plays:
        return plays
    if open_a:
        return [(enter_a,)]
    if open_b:
        return [(enter_b,)]
    return [()]


def _pair_plays(c: Board, a: int, b: int) -> list[tuple[Leg, ...]]:
    """Two different dice, nothing on the bar. Where bearing off is possible this turn (one
    checker at most outside the home board) the plays are `_generate`'s; else:

    A play of both dice either moves two checkers (or two from one point), landing on no
    point it leaves, and each such pair reaches its own position; or it moves one checker on
    by a + b, through s - a or s - b (a checker already there may be the one moving on, which
    comes to the same). Both ways reach the same position unless one of them hits a blot on
    the way, so each start point gives one play, or two when a way hits.
    """
    # Loops, not comprehensions: these run for almost half of all rolls, and a comprehension
    # costs a function call and turns the names it reads into slower closure cells.
    held: list[int] = []
    legs_a: list[Leg] = []
    legs_b: list[Leg] = []
    outside = 0  # `outside_count`, counted in this loop
    for s in _DOWN:
        n = c[s]
        if n > 0:
            held.append(s)
            if s > HOME:
                outside += n
            if s > a and c[s - a] >= -1:
                legs_a.append((s, s - a))
            if s > b and c[s - b] >= -1:
                legs_b.append((s, s - b))
    if outside <= 1:
        return list(_generate(c, a, b).values())
    plays: list[tuple[Leg, ...]] = []
    append = plays.append
    for leg_a in legs_a:
        sa, ta = leg_a
        single = c[sa] == 1
        for leg_b in legs_b:
            sb, tb = leg_b
            if sb > sa:
                # Landing on sa, it would be the checker moving on by a, listed below.
                if tb != sa:
                    append((leg_b, leg_a))
            elif sb != ta and not (single and sb == sa):
                append((leg_a, leg_b))
    # One checker moving a + b: only from points above a + b (`held` is highest first).
    for s in held:
        if s <= a + b:
            break
        m = s - a
        cm = c[m]
        by_a = cm >= -1 and c[m - b] >= -1 and not (cm == -1 and m <= HOME)
        n = s - b
        cn = c[n]
        by_b = cn >= -1 and c[n - a] >= -1 and not (cn == -1 and n <= HOME)
        if by_a:
            append(((s, m), (m, m - b)))
        if by_b and not (by_a and cm != -1 and cn != -1):
            append(((s, n), (n, n - a)))
    if plays:
        return plays
    if legs_a:
        return [(leg_a,) for leg_a in legs_a]
    if legs_b:
        return [(leg_b,) for leg_b in legs_b]
    return [()]


def _double_plays(c: list[int], d: int) -> list[tuple[Leg, ...]]:
    """Doubles when no bearing off can happen during the turn.

    Legs are taken from non-increasing points: every legal set of legs can be played in that
    order (arrivals on a point come before departures from it), and each set of legs reaches
    its own position (each point has one way forward), so nothing is listed twice.

    In that order every checker that arrives on a point does so before any leaves it, so
    whether a leg may go needs no board: only how many checkers the point still has free to
    leave (`free`, by point): those it holds, and one more with each arrival, less one on a
    home point whose blot the first arrival hits (that checker is frozen: no hit-and-run).
    A checker on the bar is the row before every point, and enters first.
    """
    # Each point that can send a checker on (its landing is not blocked, which never changes
    # this turn) and may have one to send (it holds one, or the point a die above is a row
    # or the bar with a checker, so one can come), highest first, the bar before them, as a
    # row: (its index, the point, its leg, its landing).
    entry = BAR - d
    if c[BAR] > 0 and c[entry] < -1:
        return [()]  # nothing can enter, and nothing else may move
    # Only the rows' counts are read (a landing that is no row is never left again).
    free = list(c)
    enter = (BAR, entry)
    rows = [(0, BAR, enter, entry)]
    lasts = [(BAR, enter)]
    sends = [False] * (BAR + 7)  # by point: a row (the bar: a checker on it)
    sends[BAR] = c[BAR] > 0
    i = 0
    for s in range(24, d, -1):
        t = s - d
        n = c[s]
        if n >= -1 and c[t] >= -1 and (n > 0 or sends[s + d]):
            sends[s] = True
            i += 1
            leg = (s, t)
            rows.append((i, s, leg, t))
            lasts.append((s, leg))
            if s > HOME and n == -1:
                free[s] = 0  # a blot there, hit by the first arrival, which stays free
    if c[BAR] > 2:
        # The entries leave one leg at most for the points.
        return _double_walk(c, d, [s for _, s, _, _ in rows[1:]])
    bar = rows[:1]
    # The four legs as nested loops: doubles are a sixth of all rolls and this is more than
    # twice as fast as the recursion (`_double_walk`, which the tests hold it to). No
    # comprehension here: one would make the names it reads closure cells, slower at every
    # level, and cost a function call per use.
    plays: list[tuple[Leg, ...]] = []
    append = plays.append
    for i1, s1, l1, t1 in bar if free[BAR] > 0 else rows[1:]:
        if free[s1] <= 0:
            continue
        free[s1] -= 1
        free[t1] += 1
        for i2, s2, l2, t2 in bar if free[BAR] > 0 else rows[i1:]:
            if free[s2] <= 0:
                continue
            free[s2] -= 1
            free[t2] += 1
            # Two checkers at most on the bar (see above): the last two legs are the
            # points' own. The third leg's checker has left its point only for the fourth leg
            # from that point, asked first.
            for i3, s3, l3, t3 in rows[i2:]:
                n = free[s3]
                if n <= 0:
                    continue
                if n > 1:
                    append((l1, l2, l3, l3))
                free[t3] += 1
                for s4, l4 in lasts[i3 + 1 :]:
                    if free[s4] > 0:
                        append((l1, l2, l3, l4))
                free[t3] -= 1
            free[s2] += 1
            free[t2] -= 1
        free[s1] += 1
        free[t1] -= 1
    return plays or _double_walk(c, d, [s for _, s, _, _ in rows[1:]])


def _double_walk(c: list[int], d: int, points: list[int]) -> list[tuple[Leg, ...]]:
    """`_double_plays` leg by leg: with checkers on the bar, or when fewer than four legs fit."""
    plays: list[tuple[Leg, ...]] = []
    best = 0
    entry = 25 - d
    # As in `_double_plays`: each point with its index, its leg and where it lands; a leg
    # from the bar is followed by legs from any point (index 0 on).
    steps = [(i, s, (s, s - d), s - d) for i, s in enumerate(points)]
    enter = ((0, BAR, (BAR, entry), entry),)

    def walk(depth: int, start: int, legs: tuple[Leg, ...], frozen: int) -> None:
        nonlocal best, plays
        if depth < 4:
            # A checker on the bar enters first, or nothing moves when the entry is blocked.
            options = steps[start:] if c[BAR] <= 0 else enter if c[entry] >= -1 else ()
            moved = False
            for i, s, leg, dst in options:
                if c[s] <= (frozen >> s & 1):
                    continue
                moved = True
                c[s] -= 1
                if c[dst] == -1:
                    c[dst] = 1
                    c[0] -= 1
                    walk(depth + 1, i, (*legs, leg), frozen | (1 << dst) if dst <= HOME else frozen)
                    c[dst] = -1
                    c[0] += 1
                else:
                    c[dst] += 1
                    walk(depth + 1, i, (*legs, leg), frozen)
                    c[dst] -= 1
                c[s] += 1
            if moved:
                return
        if depth > best:
            best, plays = depth, [legs]
        elif depth == best:
            plays.append(legs)

    walk(0, 0, (), 0)
    return plays


def apply_legs(board: Board, legs: Iterable[Leg]) -> Board:
    """The board (still seen from the mover) after legs taken highest first."""
    c = list(board)
    for src, dst in legs:
        c[src] -= 1
        if dst:
            if c[dst] == -1:
                c[dst] = 1
                c[0] -= 1
            else:
                c[dst] += 1
    return tuple(c)


# --- checking a play without generating every play ----------------------------------------


def _leg_error(
    c: list[int], src: int, dst: int, d: int, outside: int, frozen: int
) -> IllegalMove | None:
    """Why the die `d` may not move a checker from `src` to `dst` now, or None.

    `outside` counts the mover's checkers on the bar or outside the home board; only whether
    it is 0 matters. The tests come before any message is built. `_read_straight` has the
    same conditions written into its loop, for speed.
    """
    if c[25] > 0 and src != BAR:
        return IllegalMove(
            f"{point_name(src)}/{point_name(dst)}: a checker on the bar must enter first",
            rule="takhteh.bar-first",
        )
    if c[src] <= (frozen >> src & 1):
        where = point_name(src)
        if c[src] <= 0:
            return IllegalMove(
                f"there is no checker of yours on {where}", rule="takhteh.no-checker"
            )
        return IllegalMove(
            f"the checker on {where} hit a blot in your home board this turn and may not "
            "move again (no hit-and-run)",
            rule="takhteh.hit-and-run",
        )
    if dst == OFF:
        if outside:
            return IllegalMove(
                f"{point_name(src)}/off: bearing off needs all your checkers in your home board",
                rule="takhteh.bear-off-not-home",
            )
        if d > src and any(c[p] > 0 for p in range(src + 1, HOME + 1)):
            return IllegalMove(
                f"{point_name(src)}/off with a {d}: a checker on a higher point must move first",
                rule="takhteh.bear-off-higher",
            )
    elif c[dst] <= -2:
        return IllegalMove(f"point {dst} is held by your opponent", rule="takhteh.blocked")
    if not outside and d != src and c[d] > (frozen >> d & 1):
        return IllegalMove(
            f"{point_name(src)}/{point_name(dst)}: the {d} must bear off your checker on the "
            f"{d}-point (no wasted pips)",
            rule="takhteh.wasted-pips",
        )
    return None


_RANK = {"takhteh.dice": 0}
"""Which failure to report when no reading of a play works: a broken rule beats a die that
does not fit, since trying each die on each leg produces many of the latter."""


def check_play(
    board: Board,
    roll: tuple[int, int],
    segments: tuple[Leg, ...],
    legal_play: Callable[[Board], tuple[Leg, ...] | None],
) -> tuple[Board, tuple[Leg, ...]]:
    """The position a play reaches and its legs, one die each; raises IllegalMove.

    `segments` are the checker moves as written, each spanning one or more dice. They are
    played in any order and split over the dice in any way. Only when the play uses fewer dice
    than the roll gives, or cannot be played as written, is `legal_play(after)` asked for the
    legal play reaching a position (it lists every legal play): a play is legal when the
    position it reaches is, so `5/2 2/off` stands for `5/3 3/off` when the 3 must bear a
    checker off the 3-point. Passing over an unwritten point where a blot stands (`24/13`
    through a blot on 18) is a hit, taken only when the play has no reading without it.
    """
    high, low = roll
    # 1. The usual play, read without search (TakhtehState.play takes this step itself).
    straight = _read_straight(board, high, low, segments)
    if straight is not None:
        reached, played, settled, _ = straight
        after = tuple(reached)
        if settled or legal_play(after) is not None:
            return after, played
    # 2. Written moves that no reading can fit.
    _check_written(high, low, segments)
    # 3. Every reading of the written moves over the dice, hitting nothing on the way.
    search = _PlaySearch(board, roll, segments, legal_play)
    found = search.run(hits_on_the_way=False)
    if found is not None:
        return found
    # 4. The position it stands for (each checker straight to its written point, hitting
    # nothing on the way) may still be legal, reached in another order or by other checkers
    # (2/1 8/2 is written 8/1).
    transferred = _transfer(board, segments)
    if transferred is not None:
        same = legal_play(transferred)
        if same is not None:
            return transferred, same
    # 5. Every reading again, now hitting blots on unwritten points passed on the way.
    found = search.run(hits_on_the_way=True)
    if found is not None:
        return found
    raise search.failure()


def _check_written(high: int, low: int, segments: tuple[Leg, ...]) -> None:
    """Raises IllegalMove when a written move goes backwards or off the board, or when the
    moves need more dice, or other distances, than the roll gives."""
    full = 4 if high == low else 2
    for src, dst in segments:
        if not (0 < src <= BAR and OFF <= dst < BAR and dst < src):
            raise IllegalMove(
                f"{point_name(src)}/{point_name(dst)} is not a move forward on the board",
                rule="takhteh.direction",
            )
    if len(segments) > full:
        raise IllegalMove(
            f"{len(segments)} checker moves, but the roll gives {full} dice", rule="takhteh.dice"
        )
    # Dice each written move needs at least (bearing off may take any die that is enough).
    needed = 0
    for src, dst in segments:
        distance = src - dst
        if dst == OFF:
            needed += 1
        elif high == low and distance % high == 0 and distance <= 4 * high:
            needed += distance // high
        elif distance in (high, low):
            needed += 1
        elif distance == high + low and high != low:
            needed += 2
        else:
            raise IllegalMove(
                f"{point_name(src)}/{point_name(dst)} is {distance} pips, which the dice "
                f"{high}-{low} cannot make",
                rule="takhteh.dice",
            )
    if needed > full:
        raise IllegalMove(
            f"{_segs_text(segments)} needs more dice than the roll {high}-{low} gives",
            rule="takhteh.dice",
        )


class _PlaySearch:
    """A depth-first search for a reading of written moves: each step moves the checker of a
    written move that has not reached its point yet by one unused die, on a working copy of
    the board that every step undoes when it backs out. It remembers, over all its runs, the
    failure to report when no reading is legal."""

    def __init__(
        self,
        board: Board,
        roll: tuple[int, int],
        segments: tuple[Leg, ...],
        legal_play: Callable[[Board], tuple[Leg, ...] | None],
    ) -> None:
        high, low = roll
        self.board, self.roll, self.segments, self.legal_play = board, roll, segments, legal_play
        self.dice = [high] * 4 if high == low else [high, low]
        self.full = len(self.dice)
        self.c = list(board)
        # Each written move as [where its checker is now, where it goes].
        self.segs = [list(seg) for seg in sorted(segments, reverse=True)]
        self.legs: list[Leg] = []
        self.error: IllegalMove | None = None
        self.max_error: IllegalMove | None = None
        self.hits_on_the_way = False

    def run(self, hits_on_the_way: bool) -> tuple[Board, tuple[Leg, ...]] | None:
        """The position and legs of the first legal reading, or None."""
        self.hits_on_the_way = hits_on_the_way
        if self._search(outside_count(self.board), 0):
            return tuple(self.c), tuple(sorted(self.legs, reverse=True))
        return None

    def failure(self) -> IllegalMove:
        """What to report when no run found a reading."""
        if self.max_error is not None:
            return self.max_error
        if self.error is not None:
            return self.error
        return IllegalMove(
            f"{_segs_text(self.segments)} does not fit the dice", rule="takhteh.dice"
        )

    def _note(self, error: IllegalMove) -> None:
        if self.error is None or _RANK.get(self.error.rule, 1) < _RANK.get(error.rule, 1):
            self.error = error

    def _complete(self) -> bool:
        """Every written move played: legal when every die is used or the position is that
        of a legal play."""
        if len(self.legs) == self.full or self.legal_play(tuple(self.c)) is not None:
            return True
        if self.max_error is None:
            self.max_error = _max_dice_error(self.board, self.roll, len(self.legs))
        return False

    def _search(self, outside: int, frozen: int) -> bool:
        pending = [seg for seg in self.segs if seg[0] != seg[1]]
        if not pending:
            return self._complete()
        dice = self.dice
        if not dice:
            self._note(
                IllegalMove(f"{_segs_text(self.segments)} needs more dice", rule="takhteh.dice")
            )
            return False
        tried: set[tuple[int, int, int]] = set()
        for seg in pending:
            cur, target = seg
            for d in sorted(set(dice), reverse=True):
                if (cur, target, d) in tried:
                    continue
                tried.add((cur, target, d))
                dst = self._landing(cur, target, d, outside, frozen)
                if dst is not None and self._step(seg, cur, dst, d, outside, frozen):
                    return True
        return False

    def _landing(self, cur: int, target: int, d: int, outside: int, frozen: int) -> int | None:
        """Where the die `d` takes the checker on `cur` bound for `target`, if it may go."""
        if target and cur - d < target:
            high, low = self.roll
            self._note(
                IllegalMove(
                    f"{point_name(cur)}/{point_name(target)} does not fit the dice {high}-{low}",
                    rule="takhteh.dice",
                )
            )
            return None
        dst = max(cur - d, 0)
        if dst != target and dst and self.c[dst] == -1 and not self.hits_on_the_way:
            return None
        error = _leg_error(self.c, cur, dst, d, outside, frozen)
        if error is not None:
            self._note(error)
            return None
        return dst

    def _step(self, seg: list[int], cur: int, dst: int, d: int, outside: int, frozen: int) -> bool:
        """Play the leg, search on from there, and undo it unless that found a reading."""
        c, dice, legs = self.c, self.dice, self.legs
        hit = _move_checker(c, cur, dst)
        seg[0] = dst
        dice.remove(d)
        legs.append((cur, dst))
        if self._search(
            outside - 1 if cur > HOME >= dst else outside,
            frozen | (1 << dst) if hit and dst <= HOME else frozen,
        ):
            return True
        legs.pop()
        dice.append(d)
        dice.sort(reverse=True)
        seg[0] = cur
        _take_back(c, cur, dst, hit)
        return False


def _read_straight(
    board: Board, high: int, low: int, segments: tuple[Leg, ...]
) -> tuple[list[int], tuple[Leg, ...], bool, bool] | None:
    """The first step of check_play (and of TakhtehState.play, which takes it itself): the
    usual plays, without search: each written move one die (bearing off with a die that is
    enough), or one checker passing only points no opposing checker holds; legal leg by leg
    when played highest first. Returns the position (a new list), the legs, whether the play
    is settled legal (every die used, or `_nothing_more` says no die could be) and whether a
    checker was borne off; None when the play is not of that kind (check_play then looks
    further).

    Each leg is checked by `_leg_error`'s conditions, written again below without the
    messages: this runs for nearly every play read, and a call per leg slowed every replay.
    tests/games/takhteh/test_generation.py holds this function to `_split_segments` and
    `_leg_error`."""
    legs: list[tuple[int, int, int]] | tuple[tuple[int, int, int], ...]
    played: tuple[Leg, ...] | None = None
    every_die = True
    count = len(segments)
    if high != low and count == 2:
        # Most plays of two different dice: one die each, taken highest first.
        (s1, t1), (s2, t2) = segments
        if s1 < s2 or (s1 == s2 and t1 < t2):
            s1, t1, s2, t2 = s2, t2, s1, t1
        d1 = s1 - t1
        d2 = s2 - t2
        if ((d1 == high and d2 == low) or (d1 == low and d2 == high)) and (
            s1 <= BAR and t1 >= OFF and t2 >= OFF
        ):
            # Two thirds of all plays: the loop below written out for these two legs, each
            # taking its distance as its die (so a leg off the board bears off exactly and
            # `die != src` holds for a leg to a point), the first on the board as it is.
            c = list(board)
            home = None
            bore_off = False
            if (c[BAR] > 0 and s1 != BAR) or c[s1] <= 0:
                return None  # bar-first; no-checker
            if s1 > HOME:
                if c[t1] <= -2:
                    return None  # blocked
            elif t1:
                if c[t1] <= -2:
                    return None  # blocked
                if c[d1] > 0:
                    home = max(c[HOME + 1 :]) <= 0
                    if home:
                        return None  # wasted-pips
            else:
                home = max(c[HOME + 1 :]) <= 0
                if not home:
                    return None  # bear-off-not-home
                bore_off = True
            c[s1] -= 1
            frozen = 0
            if t1:
                if c[t1] == -1:
                    c[t1] = 1
                    c[0] -= 1
                    if t1 <= HOME:
                        frozen = 1 << t1
                else:
                    c[t1] += 1
            if (c[BAR] > 0 and s2 != BAR) or c[s2] <= (frozen >> s2 & 1):
                return None  # bar-first; no-checker or hit-and-run
            if s2 > HOME:
                if c[t2] <= -2:
                    return None  # blocked
            elif t2:
                if c[t2] <= -2:
                    return None  # blocked
                if c[d2] > (frozen >> d2 & 1):
                    if home is None:
                        home = max(c[HOME + 1 :]) <= 0
                    if home:
                        return None  # wasted-pips
            else:
                if home is None:
                    home = max(c[HOME + 1 :]) <= 0
                if not home:
                    return None  # bear-off-not-home
                bore_off = True
            c[s2] -= 1
            if t2:
                if c[t2] == -1:
                    c[t2] = 1
                    c[0] -= 1
                else:
                    c[t2] += 1
            return c, ((s1, t1), (s2, t2)), True, bore_off
    elif high != low and count == 1:
        # One checker moved by both dice, as the canonical notation joins them (24/13).
        ((src, dst),) = segments
        if src - dst == high + low and src <= BAR and dst > OFF:
            if board[src - high] >= 0:
                mid = src - high
                legs = ((src, mid, high), (mid, dst, low))
            elif board[src - low] >= 0:
                mid = src - low
                legs = ((src, mid, low), (mid, dst, high))
            else:
                return None
            played = ((src, mid), (mid, dst))
    if played is None:
        if high == low:
            # `_split_segments` for doubles, written out: every die is `high`, so the pool of
            # dice is a count, and a move bearing off takes a die when its distance is no more.
            legs = []
            left = 4
            for src, dst in segments:
                distance = src - dst
                if distance <= 0 or not 0 < src <= BAR or dst < OFF or not left:
                    return None
                if distance == high or (dst == OFF and distance < high):
                    legs.append((src, dst, high))
                    left -= 1
                    continue
                if dst == OFF:
                    return None
                steps, rest = divmod(distance, high)
                if rest or steps > left:
                    return None
                legs.append((src, src - high, high))
                point = src
                for _ in range(steps - 1):
                    point -= high
                    if board[point] < 0:
                        return None
                    legs.append((point, point - high, high))
                left -= steps
            legs.sort(reverse=True)
            every_die = not left
        else:
            found = _split_segments(board, high, low, segments)
            if found is None:
                return None
            legs, every_die = found
    c = list(board)
    # Whether every checker of the mover is home matters only for legs from the home board,
    # which come after the others (highest first), and only for some of them: it is found at
    # the first leg that asks (a `max` over 19 points, the dearest step here) and does not
    # change afterwards (after the first leg from the home board nothing moves on 7..25: its
    # checkers stay home or bear off, and a hit sends a checker to index 0).
    home = None
    bore_off = False
    frozen = 0
    for src, dst, die in legs:
        if (c[BAR] > 0 and src != BAR) or c[src] <= (frozen >> src & 1):
            return None  # bar-first; no-checker or hit-and-run
        if src > HOME:
            # No die reaches off from outside the home board, so `dst` is a point.
            if c[dst] <= -2:
                return None  # blocked
        elif dst:
            if c[dst] <= -2:
                return None  # blocked
            # `die != src` holds here (a leg to a point takes its distance as its die).
            if c[die] > (frozen >> die & 1):
                if home is None:
                    home = max(c[HOME + 1 :]) <= 0
                if home:
                    return None  # wasted-pips
        else:
            if home is None:
                home = max(c[HOME + 1 :]) <= 0
            if not home or (
                die != src
                and (
                    c[die] > (frozen >> die & 1)
                    or (die > src and any(c[p] > 0 for p in range(src + 1, HOME + 1)))
                )
            ):
                return None  # bear-off-not-home; wasted-pips or bear-off-higher
            bore_off = True
        c[src] -= 1
        if dst:
            if c[dst] == -1:
                c[dst] = 1
                c[0] -= 1
                if dst <= HOME:
                    frozen |= 1 << dst
            else:
                c[dst] += 1
    if played is None:
        played = tuple([(src, dst) for src, dst, _ in legs])
    settled = every_die or _nothing_more(board, tuple(c), high, low, played)
    return c, played, settled, bore_off


def _split_segments(
    board: Board, high: int, low: int, segments: tuple[Leg, ...]
) -> tuple[list[tuple[int, int, int]], bool] | None:
    """The legs (from, to, die), highest first, of written moves that each take one die, or
    several equal dice, or both dice for one checker passing a point no opposing checker
    holds; and whether every die is used. None for a play of another kind."""
    pool = [high] * 4 if high == low else [high, low]
    legs: list[tuple[int, int, int]] = []
    for src, dst in segments:
        distance = src - dst
        if distance <= 0 or not 0 < src <= BAR or dst < OFF:
            return None
        if distance in pool:
            pool.remove(distance)
            legs.append((src, dst, distance))
        elif dst == OFF:
            enough = [d for d in pool if d > distance]
            if not enough:
                return None
            pool.remove(enough[-1])
            legs.append((src, dst, enough[-1]))
        elif high == low:
            steps, rest = divmod(distance, high)
            if rest or steps > len(pool):
                return None
            for step in range(steps):
                point = src - step * high
                if step and board[point] < 0:
                    return None
                legs.append((point, point - high, high))
            del pool[:steps]
        elif distance == high + low and len(pool) == 2:
            for mid in (src - high, src - low):
                if board[mid] >= 0:
                    legs += [(src, mid, src - mid), (mid, dst, mid - dst)]
                    break
            else:
                return None
            pool.clear()
        else:
            return None
    legs.sort(reverse=True)
    return legs, not pool


def _nothing_more(board: Board, after: Board, high: int, low: int, played: tuple[Leg, ...]) -> bool:
    """Whether a play that is legal leg by leg but leaves dice unused is legal for the dice
    too, in the cases that are quick to settle: the mover has borne off the last checker; or
    checkers are left on the bar that no unused die can enter (entering never opens another
    entry point); or one checker entered from the bar and no order of the two dice plays
    both, the larger die going first when it can. Else False (the caller then compares the
    position with those of the legal plays)."""
    if max(after) <= 0:
        return True
    if after[BAR] > 0:
        if high == low:
            return after[BAR - high] <= -2
        used = [BAR - dst for _, dst in played]
        return all(after[BAR - d] <= -2 for d in (high, low) if d not in used)
    if board[BAR] != 1 or high == low or len(played) != 1:
        return False
    entered = BAR - played[0][1]
    other = low if entered == high else high
    if _has_step(after, other):
        return False
    if board[BAR - other] >= -1:
        if other == high:
            return False
        first = list(board)
        first[BAR] = 0
        first[BAR - other] = 1 if first[BAR - other] == -1 else first[BAR - other] + 1
        return not _has_step(first, entered)
    return True


def _has_step(c: Board | list[int], d: int) -> bool:
    """Whether a die `d` moves some checker, with none on the bar and one outside the home
    board at least (so no bearing off, and no home point frozen by a hit)."""
    return any(c[s] > 0 and c[s - d] >= -1 for s in range(d + 1, BAR))


def _transfer(board: Board, segments: tuple[Leg, ...]) -> Board | None:
    """The position after moving each checker straight to where it is written to go."""
    c = list(board)
    for src, dst in sorted(segments, reverse=True):
        if c[src] <= 0 or (dst and c[dst] <= -2):
            return None
        c[src] -= 1
        if dst:
            if c[dst] == -1:
                c[dst] = 1
                c[0] -= 1
            else:
                c[dst] += 1
    return tuple(c)


def _segs_text(segments: tuple[Leg, ...]) -> str:
    return legs_text(segments) if segments else "no move"


def _max_dice_error(board: Board, roll: tuple[int, int], used: int) -> IllegalMove:
    high, low = roll
    plays = _generate(board, high, low)
    example = next(iter(plays.values()))
    most = len(example)
    if most > used:
        what = "no die" if used == 0 else f"{used} of the dice"
        return IllegalMove(
            f"the play uses {what}, but {most} can be played, e.g. {legs_text(example)} "
            "(play as many dice as possible)",
            rule="takhteh.max-dice",
        )
    return IllegalMove(
        f"only one die of {high}-{low} can be played and the {high} can: it must be "
        f"(e.g. {legs_text(example)})",
        rule="takhteh.larger-die",
    )


# --- the state ------------------------------------------------------------------------------


_last_listed: tuple[Board, tuple[int, int] | None, list[TakhtehMove]] = ((), None, [])
"""The plays `legal_moves` listed last and the position (board and dice) they are for: a cache
of one entry, keyed by position and kept outside the states, for `play` of a listed move (a
caller lists the moves, then plays one of them), so that such a play is not read and checked
again. It is looked up by the board's identity (a state and the states it rolls share their
board) and the dice; any other play is checked in full. Replaced as one tuple, so that a
reader never sees one position's board with another's plays."""


def _listed(board: Board, roll: tuple[int, int]) -> list[TakhtehMove] | None:
    """The legal plays of the position if `legal_moves` listed them last, else None."""
    listed_board, listed_roll, plays = _last_listed
    if listed_board is board and listed_roll == roll:
        return plays
    return None


def _legal_play_lookup(
    board: Board, roll: tuple[int, int]
) -> Callable[[Board], tuple[Leg, ...] | None]:
    """For `check_play`: the legal play that reaches a position, from a table of the legal
    plays' positions made at the first question (most plays never ask)."""
    afters: dict[Board, tuple[Leg, ...]] = {}

    def legal_play(after: Board) -> tuple[Leg, ...] | None:
        if not afters:
            afters.update((apply_legs(board, play), play) for play in legal_plays(board, *roll))
        return afters.get(after)

    return legal_play


_TURN_ROLLS: dict[Roll, Roll] = {
    rolled: next(roll for roll, _ in TURN_OUTCOMES if roll == ordered)
    for rolled, ordered in SORTED_ROLLS.items()
}
"""`SORTED_ROLLS` with the rolls of a turn's `chance_outcomes` themselves as its values: a roll
that is its own value is one of them, two ints (True == 1 as a key: any other roll found must
have its dice checked)."""


def turn_roll(dice: Sequence[int]) -> tuple[int, int] | None:
    """A turn's roll as `chance_outcomes` gives it (`TakhtehState.apply_chance` plays it so),
    None unless `dice` are two ints of 1..6."""
    if len(dice) != 2 or type(dice[0]) is not int or type(dice[1]) is not int:
        return None
    return SORTED_ROLLS.get((dice[0], dice[1]))


def won_points(after: Board) -> int:
    """The points a play that reached `after` (seen from its mover) wins: 0 while the mover
    has a checker left, 2 for a gammon (the loser has borne off none of 15), else 1."""
    if max(after) > 0:
        return 0
    return 2 if sum(after) == -CHECKERS else 1


def play_on(board: Board, roll: tuple[int, int], move: TakhtehMove) -> tuple[Board, int]:
    """The board after `move` with `roll` on `board`, turned round for the other player, and
    the points the mover wins with it (`won_points`); IllegalMove if the move is not legal.
    How `TakhtehState.play` plays a move it has not just listed, and a replay each move
    (`turns.play_turns`)."""
    # check_play's first step (_read_straight), taken here: most plays need nothing more,
    # and a game that goes on needs no board tuple before the turn round. The dice as two
    # arguments: a call with `*roll` builds a list and a tuple first.
    straight = _read_straight(board, roll[0], roll[1], move)
    if straight is not None and straight[2]:
        reached = straight[0]
        if not straight[3]:
            return flip(reached), 0
        after = tuple(reached)
    else:
        after = check_play(board, roll, move, _legal_play_lookup(board, roll))[0]
    return flip(after), won_points(after)


@state_class
class TakhtehState(State[TakhtehMove]):
    """A Takhteh position with who is on roll, the dice once rolled, and the winner if over.

    `board` is seen from `to_move`, the seat on roll (seat 0 during the opening roll, when
    `to_move` is None). A finished game keeps the loser as `to_move`, as the player who
    would be on roll next. `to_move` is a field here, where the interface has a property:
    a replay reads it twice a turn, and a field is read at a slot's speed.
    """

    ruleset: Ruleset
    board: Board = START
    to_move: int | None = None
    roll: tuple[int, int] | None = None
    winner: int | None = None
    points: int = 0
    _hash: int | None = field(default=None, init=False)

    def _key(self) -> tuple[Board, int | None, tuple[int, int] | None, int | None]:
        return (self.board, self.to_move, self.roll, self.winner)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TakhtehState) and self._key() == other._key()

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash(self._key())
            object.__setattr__(self, "_hash", value)
        return value

    def __repr__(self) -> str:
        return f"TakhtehState(board={self.board}, to_move={self.to_move}, roll={self.roll})"

    def is_chance(self) -> bool:
        return self.roll is None and self.winner is None

    def chance_outcomes(self) -> tuple[tuple[Roll, float], ...]:
        # `not self.is_chance()`, inline: asked before every roll of a random playout.
        if self.roll is not None or self.winner is not None:
            return ()
        return OPENING_OUTCOMES if self.to_move is None else TURN_OUTCOMES

    def apply_chance(self, roll: Roll) -> TakhtehState:
        if self.roll is not None or self.winner is not None:
            raise IllegalMove("no dice roll is expected here", rule="takhteh.no-roll-expected")
        to_move = self.to_move
        if to_move is not None:
            # A turn's roll as a tuple, as a random game (one of `chance_outcomes`' own rolls,
            # nothing to check) and a replay give it, in one look-up; anything else is checked
            # below, as is a roll found whose dice are not ints.
            try:
                ordered = _TURN_ROLLS.get(roll) if type(roll) is tuple else None
            except TypeError:
                ordered = None
            if ordered is roll or (
                ordered is not None and type(roll[0]) is int and type(roll[1]) is int
            ):
                return build_state(self.ruleset, self.board, to_move, ordered)
        try:
            ordered = SORTED_ROLLS[roll if type(roll) is tuple else tuple(roll)]
        except (KeyError, TypeError):
            ordered = None
        # True == 1 as a key: the dice must be ints themselves.
        if ordered is None or type(roll[0]) is not int or type(roll[1]) is not int:
            raise IllegalMove(f"a roll is two dice of 1..6, not {list(roll)}", rule="roll.values")
        if self.to_move is None:
            a, b = roll
            if a == b:
                return self
            if a > b:
                return build_state(self.ruleset, self.board, 0)
            return build_state(self.ruleset, flip(self.board), 1)
        return build_state(self.ruleset, self.board, self.to_move, ordered)

    def legal_moves(self) -> list[TakhtehMove]:
        global _last_listed
        roll = self.roll
        if roll is None or self.winner is not None:
            return []
        board = self.board
        # The dice as two arguments: a call with `*roll` builds a tuple first.
        plays = legal_plays(board, roll[0], roll[1])
        _last_listed = (board, roll, plays)
        return list(plays)

    def _no_play(self) -> IllegalMove:
        """Why no play can be made here: the game is over, or the dice are not rolled yet."""
        if self.winner is not None:
            return IllegalMove("the game is over", rule="game-over")
        return IllegalMove("the dice must be rolled first", rule="roll-expected")

    def resolve(self, move: TakhtehMove) -> tuple[Board, tuple[Leg, ...]]:
        """The position `move` reaches (seen from the mover) and its legs one die each."""
        roll = self.roll
        if roll is None:
            raise self._no_play()
        board = self.board
        listed = _listed(board, roll)
        if listed is not None and move in listed:
            return apply_legs(board, move), move
        return check_play(board, roll, move, _legal_play_lookup(board, roll))

    def legs(self, move: TakhtehMove) -> tuple[Leg, ...]:
        """The legs one die each of `move` (IllegalMove if it is not legal); a move of the
        legal list just listed is its own legs, so writing out that list builds no boards."""
        roll = self.roll
        if roll is not None:
            listed = _listed(self.board, roll)
            if listed is not None and move in listed:
                return move
        return self.resolve(move)[1]

    def play(self, move: TakhtehMove) -> TakhtehState:
        roll = self.roll
        if roll is None:
            raise self._no_play()
        seat = self.to_move
        assert seat is not None
        board = self.board
        # `_listed`, inline: a random playout plays a listed play every turn.
        listed_board, listed_roll, plays = _last_listed
        if listed_board is board and listed_roll == roll and move in plays:
            # `apply_legs`, inline, on a list that is then turned round as it is: a game goes
            # on (no board tuple needed before the turn round) unless a checker is borne off.
            c = list(board)
            bore_off = False
            for src, dst in move:
                c[src] -= 1
                if not dst:
                    bore_off = True
                elif c[dst] == -1:
                    c[dst] = 1
                    c[0] -= 1
                else:
                    c[dst] += 1
            if not bore_off:
                return build_state(self.ruleset, flip(c), 1 - seat)
            after = tuple(c)
            reached, points = flip(after), won_points(after)
        else:
            reached, points = play_on(board, roll, move)
        if points:
            return build_state(self.ruleset, reached, 1 - seat, None, seat, points)
        return build_state(self.ruleset, reached, 1 - seat)

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(
            self.winner, self.points, "rules", "gammon" if self.points == 2 else "single"
        )

    def is_terminal(self) -> bool:
        return self.winner is not None

    def board_of(self, seat: int) -> Board:
        """The position seen from `seat`."""
        seen_from = 0 if self.to_move is None else self.to_move
        return self.board if seat == seen_from else flip(self.board)

    def checkers(self, seat: int) -> tuple[int, int, int]:
        """(on the points, on the bar, borne off) for `seat`."""
        board = self.board_of(seat)
        on_points = sum(n for n in board[1:25] if n > 0)
        bar = board[BAR]
        return on_points, bar, CHECKERS - on_points - bar


build_state = builder(TakhtehState)
"""`TakhtehState(...)` as a plain function: a replay builds two states a turn."""
