"""The Thai checkers alpha-beta bot: `search`, and `alphabeta`, the same bot with lighter
defaults under the name of the plain negamax it replaced.

`search` runs principal-variation alpha-beta, deepened one ply at a time until its time or
depth limit (`referee.games.search.deepen`), with captures searched to the end at the horizon
(they are compulsory, so a position in the middle of an exchange is never judged), the moves
ordered best first (the transposition table's move, then longer captures, the killer moves of
the ply and the history heuristic), and a transposition table keyed by `ThaiState.key`.
`Evaluation` scores a quiet position; its weights were chosen by matches (docs/thai.md,
`benchmarks/thai_tune.py`). Options turn the table off, bound the capture search, choose the
plain weights and the rules' draws: with all four, as `alphabeta` has by default, it chooses
the moves the plain negamax chose (principal-variation windows and ordering change the nodes
visited, not the move chosen or its score).

Draws in the search (`draws=early`; `draws=rules` scores only what the rules call a draw):

- A position that occurred before, since the last capture or man move (`ThaiState.history`),
  scores as a draw at once: the side that likes a draw can repeat it again, and the engine
  calls the third occurrence a draw.
- A position after 60 quiet plies is a draw unless its player has no move (the engine's
  order: the board decides first).
- Both depend on the way a position was reached, not only on the position, so a score is
  stored in the table only when no such draw was met below it (a counter of draws met tells),
  and a stored score is used only where the 60-ply rule cannot be reached within the depth it
  was searched to (quiet plies so far plus that depth under 60). A stored move is always used
  for ordering: a wrong guess there costs time, never a wrong score.
"""

from __future__ import annotations

from collections.abc import Sequence
from time import perf_counter
from typing import Any, NamedTuple

from referee.games.agent import Bot, MoveInfo
from referee.games.search import DECIDED, MAX_PLY, WIN, Budget, OutOfTime, deepen, lost_in
from referee.games.thai.geometry import BLACK, FORWARD, SQUARES, STEP
from referee.games.thai.rules import QUIET_PLY_LIMIT, ThaiMove, ThaiState

EXACT, LOWER, UPPER = 0, 1, 2
"""What a stored score is: the value, a lower bound (a cut-off) or an upper bound."""


class Weights(NamedTuple):
    """The terms of the evaluation, in hundredths of a man."""

    man: int = 100
    king: int = 300
    advance: tuple[int, ...] = (0, 2, 4, 6, 9, 12, 16)
    """A man's bonus by rows advanced from its own back row (0..6)."""
    back_row: int = 8
    """A man still on its own back row, guarding the squares where the opponent crowns."""
    centre: int = 4
    """A man on one of the eight middle squares."""
    king_diagonal: int = 10
    """A king on the long diagonal (29 to 4), which crosses the whole board."""
    mobility: int = 2
    """Each step a man or a king could make."""
    tempo: int = 4
    """Having the move."""
    exchange: int = 100
    """Trading down when ahead: the material lead times this over all material on the board."""


DEFAULT_WEIGHTS = Weights()

_CENTRE = frozenset({13, 14, 17, 18, 9, 10, 21, 22})
"""Bit indices of the middle squares (rows 2..5, the inner columns)."""

_LONG_DIAGONAL = frozenset({28, 24, 21, 17, 14, 10, 7, 3})
"""Bit indices of squares 29, 25, 22, 18, 15, 11, 8, 4."""


def _byte_tables(values: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Four tables, one per byte of a 32-bit mask: the sum of `values` over its set bits."""
    tables = []
    for byte in range(4):
        table = []
        for pattern in range(256):
            table.append(sum(values[8 * byte + b] for b in range(8) if (pattern >> b) & 1))
        tables.append(tuple(table))
    return tuple(tables)


def _step_pairs(directions: Sequence[int]) -> tuple[tuple[int, int, bool], ...]:
    """(shift, mask of source squares, whether the neighbour has the higher bit) groups: a
    piece on `mask` steps to the bit `shift` away."""
    groups: dict[tuple[int, bool], int] = {}
    for d in directions:
        for i in range(SQUARES):
            target = STEP[d][i]
            if target >= 0:
                key = (abs(target - i), target > i)
                groups[key] = groups.get(key, 0) | (1 << i)
    return tuple((shift, mask, up) for (shift, up), mask in sorted(groups.items()))


_MAN_STEPS = (_step_pairs(FORWARD[0]), _step_pairs(FORWARD[1]))
_KING_STEPS = _step_pairs((*FORWARD[0], *FORWARD[1]))


def _steps(pieces: int, empty: int, pairs: tuple[tuple[int, int, bool], ...]) -> int:
    """How many single diagonal steps `pieces` can make into `empty`."""
    count = 0
    for shift, mask, up in pairs:
        count += (pieces & mask & ((empty >> shift) if up else (empty << shift))).bit_count()
    return count


class Evaluation:
    """A quiet position's score for the player to move, from `Weights`.

    Square terms are summed by table lookups, one per byte of each piece mask; mobility counts
    steps with a few shifts of the masks.
    """

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights
        black_man = []
        for i in range(SQUARES):
            row = i >> 2
            value = weights.man + weights.advance[min(7 - row, len(weights.advance) - 1)]
            if row == 7:
                value += weights.back_row
            if i in _CENTRE:
                value += weights.centre
            black_man.append(value)
        # White's squares are Black's turned half a turn: bit i <-> bit 31 - i.
        white_man = [black_man[31 - i] for i in range(SQUARES)]
        king = [
            weights.king + (weights.king_diagonal if i in _LONG_DIAGONAL else 0)
            for i in range(SQUARES)
        ]
        self._black_man = _byte_tables(black_man)
        self._white_man = _byte_tables(white_man)
        self._king = _byte_tables(king)

    def __call__(self, state: ThaiState) -> int:
        black, white, kings = state.black, state.white, state.kings
        bm, wm, bk, wk = black & ~kings, white & ~kings, black & kings, white & kings
        t0, t1, t2, t3 = self._black_man
        black_score = t0[bm & 255] + t1[(bm >> 8) & 255] + t2[(bm >> 16) & 255] + t3[bm >> 24]
        t0, t1, t2, t3 = self._white_man
        white_score = t0[wm & 255] + t1[(wm >> 8) & 255] + t2[(wm >> 16) & 255] + t3[wm >> 24]
        t0, t1, t2, t3 = self._king
        black_score += t0[bk & 255] + t1[(bk >> 8) & 255] + t2[(bk >> 16) & 255] + t3[bk >> 24]
        white_score += t0[wk & 255] + t1[(wk >> 8) & 255] + t2[(wk >> 16) & 255] + t3[wk >> 24]
        weights = self.weights
        score = black_score - white_score
        if weights.exchange and score:
            trade = abs(score) * weights.exchange // (black_score + white_score)
            score += trade if score > 0 else -trade
        if weights.mobility:
            empty = ~(black | white) & 0xFFFFFFFF
            steps = _steps(bm, empty, _MAN_STEPS[0]) + _steps(bk, empty, _KING_STEPS)
            steps -= _steps(wm, empty, _MAN_STEPS[1]) + _steps(wk, empty, _KING_STEPS)
            score += weights.mobility * steps
        return (score if state.turn == BLACK else -score) + weights.tempo


DEFAULT_EVALUATION = Evaluation()


PLAIN_WEIGHTS = Weights(
    man=100,
    king=250,
    advance=(0, 4, 8, 12, 16, 20, 24),
    back_row=0,
    centre=0,
    king_diagonal=0,
    mobility=0,
    tempo=0,
    exchange=0,
)
"""Material and four points a row a man has advanced: the evaluation of the former
`alphabeta` bot, kept for its configurations."""

EVALUATIONS = {"tuned": DEFAULT_EVALUATION, "plain": Evaluation(PLAIN_WEIGHTS)}
"""The evaluations the `weights` option names."""

DRAWS = ("early", "rules")
"""How a search scores repetitions: a position met before as a draw at once (`early`), or
only the draws the rules call (`rules`: the third occurrence, the 60 plies)."""


class SearchBot(Bot[ThaiState, ThaiMove]):
    """Principal-variation alpha-beta, deepened one ply at a time to a depth or time limit.

    It stops at `depth` plies or when `time` seconds are used (0 turns a limit off), playing
    the best move of the deepest search it finished, or a better one found in the search the
    limit cut short. The clock is read at every node, so it answers within its time. Moves are
    shuffled with the bot's seeded generator, so equal moves are chosen at random but
    reproducibly (unless the time limit cuts a search).

    Options beyond the limits: `table` 1 keeps a transposition table, killer moves and the
    history heuristic (0: none, captures ordered longest first and nothing else);
    `quiescence` bounds the plies of pending captures searched past the depth (0: to the
    end); `weights` names the evaluation (`EVALUATIONS`); `draws` how repetitions score
    (`DRAWS`). The defaults are the strongest; `alphabeta` is this bot with the lighter
    defaults it had as a bot of its own.
    """

    name = "search"
    description = (
        "alpha-beta with a transposition table, move ordering and capture search, deepened "
        "to a depth or time limit"
    )

    TABLE_SIZE = 1 << 18
    """Entries of each of the two generations of the transposition table."""

    SOFT_LIMIT = 0.5
    """A new iteration starts only while less than this share of the time is used."""

    HARD_LIMIT = 0.9
    """The share of the time after which a search in progress is stopped."""

    evaluation: Evaluation = DEFAULT_EVALUATION

    def __init__(
        self,
        depth: int = 40,
        time: float = 1.0,
        table: int = 1,
        quiescence: int = 0,
        weights: str = "tuned",
        draws: str = "early",
    ) -> None:
        super().__init__()
        if depth < 0 or time < 0:
            raise ValueError("depth and time are 0 (no limit) or positive")
        if depth == 0 and time == 0:
            raise ValueError("give a depth or a time limit")
        if table not in (0, 1):
            raise ValueError("table is 1 (a transposition table) or 0 (none)")
        if weights not in EVALUATIONS:
            raise ValueError(f"weights is one of {', '.join(EVALUATIONS)}, not {weights!r}")
        if draws not in DRAWS:
            raise ValueError(f"draws is one of {', '.join(DRAWS)}, not {draws!r}")
        self.depth = min(depth, MAX_PLY // 2) if depth else MAX_PLY // 2
        self.time = time
        self.table = bool(table)
        self.quiescence = quiescence or MAX_PLY
        if weights != "tuned":
            self.evaluation = EVALUATIONS[weights]
        self.early_draws = draws == "early"
        self.nodes = 0
        self.reached = 0
        """The depth of the last search finished (for tests and tuning)."""
        self._deadline = float("inf")
        """The budget's deadline, read at every node."""
        self._draws = 0
        self._table: dict[int, tuple[int, int, int, ThaiMove | None]] = {}
        self._old_table: dict[int, tuple[int, int, int, ThaiMove | None]] = {}
        self._killers: list[list[ThaiMove | None]] = [[None, None] for _ in range(MAX_PLY + 1)]
        self._history: tuple[dict[ThaiMove, int], dict[ThaiMove, int]] = ({}, {})

    def start_game(self, ruleset: Any, seat: int, seed: str) -> None:
        super().start_game(ruleset, seat, seed)
        self._table, self._old_table = {}, {}
        self._history = ({}, {})

    def choose(self, state: ThaiState, history: Sequence[Any] = ()) -> ThaiMove:
        """The move, and as `info` its score (hundredths of a man for the mover; a win in
        n plies is 1,000,000 - n), the depth finished and the nodes searched."""
        kids = state.successors()
        if len(kids) == 1:
            return kids[0][0]
        self.rng.shuffle(kids)
        self.nodes = 0
        budget = Budget(
            self.seconds_for_move(self.time), hard=self.HARD_LIMIT, soft=self.SOFT_LIMIT
        )
        self._deadline = budget.deadline
        self._killers = [[None, None] for _ in range(MAX_PLY + 1)]
        for table in self._history:
            for move in table:
                table[move] //= 8
        kids = self._ordered(state, kids, self._stored_move(state.key), 0)
        children = dict(kids)
        moves = [move for move, _ in kids]
        found = deepen(
            moves,
            range(1, self.depth + 1),
            lambda depth, scores: self._root(state, moves, children, depth, scores),
            budget,
        )
        self.reached = found.depth
        self.info = MoveInfo(found.score, found.depth, self.nodes)
        return found.move

    def score(self, state: ThaiState, depth: int) -> int:
        """The score of `state` for its player to move, searched to `depth` plies with no time
        limit and tables of its own: the same for a position however often it is asked (the
        reference of `referee analyse`, reference.py)."""
        self._deadline = float("inf")
        self._draws = 0
        self._table, self._old_table = {}, {}
        self._killers = [[None, None] for _ in range(MAX_PLY + 1)]
        self._history = ({}, {})
        return self._search(state, depth, -WIN - 1, WIN + 1, 0)

    def _root(
        self,
        state: ThaiState,
        moves: list[ThaiMove],
        children: dict[ThaiMove, ThaiState],
        depth: int,
        scores: dict[ThaiMove, float],
    ) -> None:
        alpha, beta = -WIN - 1, WIN + 1
        draws = self._draws
        for index, move in enumerate(moves):
            child = children[move]
            if index == 0:
                score = -self._search(child, depth - 1, -beta, -alpha, 1)
            else:
                score = -self._search(child, depth - 1, -alpha - 1, -alpha, 1)
                if score > alpha:
                    score = -self._search(child, depth - 1, -beta, -alpha, 1)
            scores[move] = score
            if score > alpha:
                alpha = score
        best = max(scores, key=scores.__getitem__)
        self._store(state.key, depth if self._draws == draws else -1, EXACT, alpha, best, 0)

    def _stored_move(self, key: int) -> ThaiMove | None:
        entry = self._table.get(key) or self._old_table.get(key)
        return entry[3] if entry is not None else None

    def _store(
        self, key: int, depth: int, flag: int, score: int, move: ThaiMove | None, ply: int
    ) -> None:
        if not self.table:
            return
        # Wins are stored as distances from this position, not from the root.
        if score >= DECIDED:
            score += ply
        elif score <= -DECIDED:
            score -= ply
        table = self._table
        if len(table) >= self.TABLE_SIZE and key not in table:
            self._old_table, self._table = table, {}
            table = self._table
        table[key] = (depth, flag, score, move)

    def _ordered(
        self,
        state: ThaiState,
        kids: list[tuple[ThaiMove, ThaiState]],
        first: ThaiMove | None,
        ply: int,
    ) -> list[tuple[ThaiMove, ThaiState]]:
        """The stored move, then longer captures, the killers, and by the history heuristic
        (without the table: longer captures first, the rest as they are)."""
        if kids[0][0].capture:

            def key(kid: tuple[ThaiMove, ThaiState]) -> int:
                return -len(kid[0].path)

        elif not self.table:
            return kids
        else:
            history = self._history[state.turn]
            killer, second = self._killers[ply]

            def key(kid: tuple[ThaiMove, ThaiState]) -> int:
                move = kid[0]
                if move == killer:
                    return -1_000_000_000
                if move == second:
                    return -999_999_999
                return -history.get(move, 0)

        kids = sorted(kids, key=key)
        if first is not None:
            for index, kid in enumerate(kids):
                if kid[0] == first:
                    if index:
                        kids.insert(0, kids.pop(index))
                    break
        return kids

    def _drawn(self, state: ThaiState, ply: int) -> int | None:
        """The score of a position the draw rules (or `draws`) end, else None."""
        history = state.history
        if self.early_draws:
            if state.key in history:
                self._draws += 1
                return 0
            if len(history) >= QUIET_PLY_LIMIT:
                if state.has_move():
                    self._draws += 1
                    return 0
                return lost_in(ply)
            return None
        outcome = state.outcome()
        if outcome is None:
            return None
        if outcome.winner is None:
            self._draws += 1
            return 0
        # The only win a position can have is over the player to move, who has no move.
        return lost_in(ply)

    def _search(self, state: ThaiState, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if perf_counter() > self._deadline:
            raise OutOfTime
        if state.history:
            drawn = self._drawn(state, ply)
            if drawn is not None:
                return drawn
        if depth <= 0:
            if not state.has_capture():
                if state.has_move():
                    return self.evaluation(state)
                return lost_in(ply)
            if depth <= -self.quiescence:
                return self.evaluation(state)
            return self._captures(state, depth, alpha, beta, ply)
        key = state.key
        table = self.table
        entry = (self._table.get(key) or self._old_table.get(key)) if table else None
        first = None
        if entry is not None:
            stored_depth, flag, score, first = entry
            if stored_depth >= depth and len(state.history) + stored_depth < QUIET_PLY_LIMIT:
                if score >= DECIDED:
                    score -= ply
                elif score <= -DECIDED:
                    score += ply
                if flag == EXACT:
                    return score
                if flag == LOWER:
                    if score >= beta:
                        return score
                elif score <= alpha:
                    return score
        kids = state.successors()
        if not kids:
            return lost_in(ply)
        if len(kids) > 1:
            kids = self._ordered(state, kids, first, ply)
        draws = self._draws
        original_alpha = alpha
        best = -WIN - 1
        best_move = kids[0][0]
        search = self._search
        for index, (move, child) in enumerate(kids):
            if index == 0:
                score = -search(child, depth - 1, -beta, -alpha, ply + 1)
            else:
                score = -search(child, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -search(child, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if table and not move.capture:
                            killers = self._killers[ply]
                            if killers[0] != move:
                                killers[1] = killers[0]
                                killers[0] = move
                            counts = self._history[state.turn]
                            counts[move] = counts.get(move, 0) + depth * depth
                        break
        if self._draws != draws:
            # The score depends on the way here: keep only the move, for ordering.
            self._store(key, -1, UPPER, best, best_move, ply)
        elif best >= beta:
            self._store(key, depth, LOWER, best, best_move, ply)
        elif best > original_alpha:
            self._store(key, depth, EXACT, best, best_move, ply)
        else:
            self._store(key, depth, UPPER, best, best_move, ply)
        return best

    def _captures(self, state: ThaiState, depth: int, alpha: int, beta: int, ply: int) -> int:
        """A position at the horizon with a capture pending: search the captures out (up to
        `quiescence` plies past the depth)."""
        kids = state.successors()
        if len(kids) > 1:
            kids.sort(key=lambda kid: -len(kid[0].path))
        best = -WIN - 1
        for _, child in kids:
            score = -self._search(child, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


class AlphaBetaBot(SearchBot):
    """`alphabeta`: the search under its former name, with that bot's defaults: depth 6,
    no transposition table, 8 plies of captures past the depth, the plain evaluation and
    the rules' draws. Its configurations choose the moves they chose as a bot of its own."""

    name = "alphabeta"
    description = (
        "alpha-beta search with iterative deepening to a depth or time limit (the `search` "
        "bot with lighter defaults)"
    )

    def __init__(
        self,
        depth: int = 6,
        time: float = 1.0,
        table: int = 0,
        quiescence: int = 8,
        weights: str = "plain",
        draws: str = "rules",
    ) -> None:
        super().__init__(depth, time, table, quiescence, weights, draws)
