"""Trax bots: `greedy` (one move deep with a safety check), `search` (alpha-beta) and `threat`
(alpha-beta over the threats of every move)."""

from __future__ import annotations

from collections.abc import Sequence
from time import perf_counter
from typing import Any

from referee.games.agent import Bot, MoveInfo
from referee.games.search import WIN, Budget, Deepened, OutOfTime, deepen
from referee.games.trax.rules import (
    COORD_MASK,
    DELTA,
    ILLEGAL,
    NO_WIN,
    SHIFT,
    TraxMove,
    TraxState,
    end_colour,
)
from referee.games.trax.threats import Effect, Move, Probe, Scan, probe, widens

LOOP_WEIGHTS = (0.0, 12.0, 4.0, 1.5, 0.5)
"""By the distance between the two empty spaces a track's ends face: 1 is a loop threat
(whoever owns the colour closes it next move), 2 and 3 are loops in the making."""
LINE_FROM = 4
"""A track whose ends face spaces this many columns (rows) apart starts to count as a line."""
TEMPO = 1.5
"""The side to move turns its own prospects into threats first."""


def evaluate(state: TraxState, seat: int) -> float:
    """Loop and line prospects of `seat`'s colour minus the opponent's.

    Each open track counts by how close its two ends come (a loop needs them to meet) and,
    where lines win, by how far apart they reach across or down (a line needs 8).
    """
    tiles, ends, lines = state.tiles, state.ends, state.lines
    scores = [0.0, 0.0]
    for end, other in ends.items():
        if end > other:
            continue
        first = (end >> 2) + DELTA[end & 3]
        second = (other >> 2) + DELTA[other & 3]
        dx = abs((first & COORD_MASK) - (second & COORD_MASK))
        dy = abs((first >> SHIFT) - (second >> SHIFT))
        distance = dx + dy
        value = LOOP_WEIGHTS[distance] if distance < len(LOOP_WEIGHTS) else 0.0
        if lines:
            reach = max(dx, dy)
            if reach >= LINE_FROM:
                value += (reach - LINE_FROM + 1) ** 2 * 0.5
        scores[end_colour(tiles, end)] += value
    mover = state.seat
    scores[mover] *= TEMPO
    return scores[seat] - scores[1 - seat]


Outlook = tuple[list[tuple[int, int]], list[tuple[int, int]], int]


def outlook(state: TraxState) -> Outlook:
    """The side to move's (winning moves, other non-losing moves, number of legal moves)."""
    seat = state.seat
    wins: list[tuple[int, int]] = []
    quiet: list[tuple[int, int]] = []
    legal = 0
    for key, tile in state.candidates():
        result = state.preview(key, tile)
        if result == ILLEGAL:
            continue
        legal += 1
        if result == seat:
            wins.append((key, tile))
        elif result == NO_WIN:
            quiet.append((key, tile))
    return wins, quiet, legal


def can_win_at_once(state: TraxState) -> bool:
    seat = state.seat
    return any(state.preview(key, tile) == seat for key, tile in state.candidates())


def _opening(bot: Bot[TraxState, TraxMove], state: TraxState) -> TraxMove | None:
    """The first move, which has no neighbours to judge by: either one at random."""
    if state.box is None:
        return bot.rng.choice(state.legal_moves())
    return None


class TraxGreedyBot(Bot[TraxState, TraxMove]):
    """Wins at once if it can, else keeps the opponent from winning at once, else scores."""

    name = "greedy"
    description = (
        "wins at once when it can, else avoids moves that let the opponent win at once, "
        "else the move whose position scores best (loop and line prospects)"
    )

    def choose(self, state: TraxState, history: Sequence[Any] = ()) -> TraxMove:
        first = _opening(self, state)
        if first is not None:
            return first
        seat = state.seat
        wins, quiet, _ = outlook(state)
        if wins:
            return state.move_at(*self.rng.choice(wins))
        if not quiet:
            # Every legal move loses at once: any of them.
            return self.rng.choice(state.legal_moves())
        scored = []
        for key, tile in quiet:
            after = state.play(state.move_at(key, tile))
            scored.append((evaluate(after, seat), (key, tile), after))
        scored.sort(key=lambda item: -item[0])
        # The safety check (a scan of the opponent's moves) is the costly part: walk down
        # from the best score and stop after the first score that has a safe move.
        best: list[tuple[int, int]] = []
        best_score: float = -WIN
        for score, move, after in scored:
            if best and score < best_score:
                break
            if not can_win_at_once(after):
                best.append(move)
                best_score = score
        if not best:
            top = scored[0][0]
            best = [move for score, move, _ in scored if score == top]
        return state.move_at(*self.rng.choice(best))


def _final(score: float, depth: int) -> bool:
    """A win or loss within the plies an iteration of `depth` plays out for sure is final; one
    found further on (after forced replies) may still come sooner in a deeper iteration."""
    return abs(score) >= WIN - depth - 1


def _info(found: Deepened[Move], nodes: int) -> MoveInfo:
    """What a search says about its move; scores in the units of `evaluate`, a float."""
    return MoveInfo(None if found.score is None else float(found.score), found.depth, nodes)


class _TimedSearch(Bot[TraxState, TraxMove]):
    """What both searches share: a depth, a time a move, the deadline and a node count.

    Each reports its score in the units of `evaluate` (loop and line prospects) for the
    mover, a win in n plies scoring 1,000,000 - n, with the depth finished and the nodes.
    """

    def __init__(self, depth: int, time: float) -> None:
        super().__init__()
        if depth < 1 or time < 0:
            raise ValueError("the search needs depth >= 1 and time >= 0 (0: no limit)")
        self.depth = depth
        self.time = time
        self._deadline = 0.0
        """The budget's deadline, read at every node."""
        self.nodes = 0


class TraxSearchBot(_TimedSearch):
    """Iterative deepening alpha-beta; every node first checks for a win at once."""

    name = "search"
    description = (
        "alpha-beta to `depth` moves (iterative deepening, stops at `time` seconds a move); "
        "every node sees the wins at once of its side to move, so depth 2 finds double threats"
    )

    def __init__(self, depth: int = 3, time: float = 1.0) -> None:
        super().__init__(depth, time)
        self._history: dict[tuple[int, int], int] = {}
        self._outlooks: dict[tuple[int, frozenset[tuple[int, int]]], Outlook] = {}

    def choose(self, state: TraxState, history: Sequence[Any] = ()) -> TraxMove:
        first = _opening(self, state)
        if first is not None:
            return first
        self._deadline = Budget(self.seconds_for_move(self.time)).deadline
        self._history = {}
        self._outlooks = {}
        self.nodes = 0
        wins, quiet, _ = outlook(state)
        if wins:
            return state.move_at(*self.rng.choice(wins))
        if not quiet:
            return self.rng.choice(state.legal_moves())
        moves = list(quiet)
        self.rng.shuffle(moves)
        found = deepen(
            moves,
            range(1, self.depth + 1),
            lambda depth, scores: self._root(state, moves, depth, scores),
            sort_all=True,
            final=_final,
        )
        self.info = _info(found, self.nodes)
        return state.move_at(*found.move)

    def score(self, state: TraxState, depth: int) -> float:
        """The score of `state` for its side to move, searched to `depth` moves with no time
        limit (the reference of `referee analyse`, reference.py). The outlooks of the
        positions met are kept from call to call (up to KEPT_OUTLOOKS): an outlook depends on
        its position alone, and the searches of the moves of one position, and of the next
        turns, meet the same positions again and again."""
        self._deadline = float("inf")
        if len(self._outlooks) > KEPT_OUTLOOKS:
            self._outlooks = {}
        # The full window makes the score exact, whatever order the history puts moves in.
        return self._negamax(state, depth, -WIN - 1, WIN + 1, 0)

    def _root(
        self,
        state: TraxState,
        moves: list[tuple[int, int]],
        depth: int,
        scores: dict[tuple[int, int], float],
    ) -> None:
        """Score each root move to `depth` into `scores`, in order, as far as time allows."""
        alpha: float = -WIN - 1
        for move in moves:
            child = state.play(state.move_at(*move))
            score = -self._negamax(child, depth - 1, -WIN - 1, -alpha, 1)
            scores[move] = score
            alpha = max(alpha, score)

    def _negamax(self, state: TraxState, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if perf_counter() > self._deadline:
            raise OutOfTime
        if state.winner is not None:
            return WIN - ply if state.winner == state.seat else -(WIN - ply)
        # Moving X then Y and Y then X give one position (tiles have no owner), so half the
        # nodes two moves deep are met twice; their outlook is the costly part.
        position = (state.seat, frozenset(state.tiles.items()))
        known = self._outlooks.get(position)
        if known is None:
            known = self._outlooks[position] = outlook(state)
        wins, quiet, legal = known
        if wins:
            return WIN - ply
        if not legal:
            return 0.0
        if not quiet:
            return -(WIN - ply - 1)
        if depth == 0:
            return evaluate(state, state.seat)
        history = self._history
        best: float = -WIN - 1
        for move in sorted(quiet, key=lambda move: -history.get(move, 0)):
            child = state.play(state.move_at(*move))
            score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        history[move] = history.get(move, 0) + depth * depth
                        break
        return best


class TraxThreatBot(_TimedSearch):
    """Iterative deepening alpha-beta that reads threats: every node knows the moves that win
    at once for either side (`threats.Scan`), a threatened side plays only the moves that
    stop every threat, and forced replies cost no depth."""

    name = "threat"
    description = (
        "alpha-beta to `depth` moves within `time` seconds a move that sees every move winning "
        "at once for either side: a threatened side plays only real defences, forced replies "
        "cost no depth, so double threats and forcing sequences are read through"
    )

    def __init__(self, depth: int = 8, time: float = 1.0) -> None:
        super().__init__(depth, time)
        self._horizon = 0
        self._history: dict[Move, int] = {}
        self._probes: dict[Move, Probe] = {}
        self._effects: dict[Move, Effect] = {}
        self._kept = 0

    def choose(self, state: TraxState, history: Sequence[Any] = ()) -> TraxMove:
        first = _opening(self, state)
        if first is not None:
            return first
        # A tenth of the time is left for unwinding the search and for a busy machine.
        self._deadline = Budget(self.seconds_for_move(self.time), hard=0.9).deadline
        self._history = {}
        self._probes = {}
        self._effects = {}
        self._kept = 0
        self.nodes = 0
        scan = Scan(state, cache=self._probes)
        seat = state.seat
        if scan.forms[seat]:
            return state.move_at(*self.rng.choice(scan.forms[seat]))
        moves, _ = self._replies(state, scan, keep=True)
        if not moves:
            # Lost whatever it plays: any legal move.
            return self.rng.choice(state.legal_moves())
        self.rng.shuffle(moves)
        if len(moves) == 1:
            return state.move_at(*moves[0])
        found = deepen(
            moves,
            range(1, self.depth + 1),
            lambda depth, scores: self._root(state, scan, moves, depth, scores),
            sort_all=True,
            final=_final,
        )
        self.info = _info(found, self.nodes)
        return state.move_at(*found.move)

    def _replies(
        self, state: TraxState, scan: Scan, keep: bool
    ) -> tuple[list[Move], dict[Move, TraxState]]:
        """The moves worth searching when the side to move cannot win at once, and the
        positions after those it had to play to find them.

        They are the moves that complete nothing (a move completing only the opponent's
        colour loses), and of them, when the opponent threatens, only those that stop every
        threat: a move that writes none of a threat's reads leaves it standing; the others
        are played and the threats probed again after them.
        """
        probes = scan.probes
        quiet = [move for move, found in probes.items() if found.result == 0]
        threats = [(move, probes[move]) for move in scan.forms[1 - state.seat]]
        if not threats:
            return quiet, {}
        touching = [
            move
            for move in quiet
            if all(
                not threat.reads.isdisjoint(probes[move].writes)
                or (threat.lines and widens(state, move[0], place, threat.lines))
                for place, threat in threats
            )
        ]
        attack = 1 << (1 - state.seat)
        stopping = []
        played: dict[Move, TraxState] = {}
        for move in touching:
            known = scan.children.get(move)
            after = known[0] if known is not None else state.play(state.move_at(*move))
            if keep and known is None:
                scan.children[move] = (after, None)
                self._kept += 1
            played[move] = after
            if all(_gone(after, place, attack) for place, _ in threats):
                stopping.append(move)
        return stopping, played

    def _child(
        self,
        state: TraxState,
        scan: Scan,
        grandparent: Scan | None,
        move: Move,
        played: TraxState | None,
        keep: bool,
    ) -> tuple[TraxState, Scan]:
        """The position after `move` and its scan; with `keep`, kept for the next iterations
        and as the transposition of the cousin positions (see `Scan.child`)."""
        known = scan.children.get(move)
        if known is not None:
            if known[1] is not None:
                return known  # type: ignore[return-value]
            played = known[0]
        child = played if played is not None else state.play(state.move_at(*move))
        transposed = grandparent.children.get(move) if grandparent is not None else None
        child_scan = scan.child(
            state, move, child, transposed[1] if transposed else None, self._probes
        )
        if keep:
            scan.children[move] = (child, child_scan)
            self._kept += 1
        return child, child_scan

    def _root(
        self,
        state: TraxState,
        scan: Scan,
        moves: list[Move],
        depth: int,
        scores: dict[Move, float],
    ) -> None:
        """Score each root move to `depth` into `scores`, in order, as far as time allows."""
        alpha: float = -WIN - 1
        self._horizon = depth + EXTENSION
        for move in moves:
            child, child_scan = self._child(state, scan, None, move, None, True)
            writes = scan.probes[move].writes
            if move not in self._effects:
                self._effects[move] = child_scan.effect(writes)
            after = (child, child_scan, scan, depth - 1)
            further = (1, writes, writes)
            if scores:
                # Principal variation search (see _negamax).
                score = -self._negamax(*after, -alpha - NARROW, -alpha, *further)
                if score > alpha:
                    score = -self._negamax(*after, -WIN - 1, -alpha, *further)
            else:
                score = -self._negamax(*after, -WIN - 1, -alpha, *further)
            scores[move] = score
            alpha = max(alpha, score)

    def _negamax(
        self,
        state: TraxState,
        scan: Scan,
        parent: Scan,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        path: frozenset[int],
        came: frozenset[int],
    ) -> float:
        """The score for the side to move. `path`: the spaces the turns since the root wrote;
        `came`: those the last turn wrote, near which the next threats most likely are."""
        self.nodes += 1
        if perf_counter() > self._deadline:
            raise OutOfTime
        seat = state.seat
        if scan.forms[seat]:
            return WIN - ply
        if not scan.legal:
            return 0.0
        threatened = bool(scan.forms[1 - seat])
        if depth <= 0 and not (threatened and ply < self._horizon):
            return evaluate(state, seat)
        keep = ply < KEEP and self._kept < KEPT
        moves, played = self._replies(state, scan, keep)
        if not moves:
            return -(WIN - ply - 1)
        if depth <= 0 and len(moves) > FORCED:
            # Beyond the depth only nearly forced replies are followed.
            return evaluate(state, seat)
        # A forced reply costs no depth, so threat sequences are followed (up to the horizon).
        next_depth = depth if threatened else depth - 1
        history, probes, effects = self._history, scan.probes, self._effects
        mine, theirs = 1 << seat, 2 >> seat
        known: dict[Move, int] = {}
        if next_depth == 0 and not threatened:
            # A move that writes none of the spaces the turns since the root wrote most
            # likely does what it did at the root: if it threatened nothing there, the
            # position after it is a leaf scored without a scan. Those come first: cheap.
            for move in moves:
                effect = effects.get(move)
                if (
                    effect is not None
                    and not effect.made & mine
                    and probes[move].writes.isdisjoint(path)
                ):
                    known[move] = effect.made
        if len(moves) > 1:
            moves.sort(
                key=lambda move: (
                    move not in known,
                    probes[move].reads.isdisjoint(came),
                    -history.get(move, 0),
                )
            )
        best: float = -WIN - 1
        searched = False
        for move in moves:
            made = known.get(move)
            if made is not None:
                if made & theirs:
                    score: float = -(WIN - ply - 1)
                else:
                    if perf_counter() > self._deadline:
                        raise OutOfTime
                    child = played.get(move) or state.play(state.move_at(*move))
                    score = -evaluate(child, 1 - seat)
            else:
                child, child_scan = self._child(state, scan, parent, move, played.get(move), keep)
                writes = probes[move].writes
                after = (child, child_scan, scan, next_depth)
                further = (ply + 1, path | writes, writes)
                if searched:
                    # Principal variation search: after the first move searched, ask only
                    # whether a move beats the best so far; search again the few that do.
                    score = -self._negamax(*after, -alpha - NARROW, -alpha, *further)
                    if alpha < score < beta:
                        score = -self._negamax(*after, -beta, -alpha, *further)
                else:
                    score = -self._negamax(*after, -beta, -alpha, *further)
                    searched = True
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        history[move] = history.get(move, 0) + (depth + 1) ** 2
                        break
        return best


def _gone(after: TraxState, threat: Move, attack: int) -> bool:
    """Whether a move that completed the colour `attack` (a probe bit) no longer does."""
    key, tile = threat
    code = after.codes.get(key)
    if code is None or tile & (code >> 4) != code & 15 or not after.fits(key):
        return True
    return not probe(after, key, tile).result & attack


KEPT_OUTLOOKS = 10_000
"""The most outlooks `score` keeps (some ten kilobytes each) before it starts again."""
EXTENSION = 4
"""Forced replies are followed this many plies beyond the depth of the iteration."""
NARROW = 1e-6
"""The width of the null windows of the principal variation search."""
FORCED = 2
"""Beyond the depth, a threatened side's replies are followed only if it has this many or
fewer."""
KEEP = 3
"""Nodes nearer the root than this keep what follows each of their moves: the next iteration
goes through them again, and their grandchildren's scans are built from them."""
KEPT = 20_000
"""At most this many positions are kept a move (a few kilobytes each)."""

BOTS: dict[str, type[Bot[TraxState, TraxMove]]] = {
    "greedy": TraxGreedyBot,
    "search": TraxSearchBot,
    "threat": TraxThreatBot,
}
