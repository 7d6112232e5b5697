"""Engine speed on work actually done, beside the anchors in the same run when installed.

Run: taskset -c 0 .venv/bin/python benchmarks/engines.py [--runs 5] [--write]

Every figure is the CPU time of this process (`time.process_time`), median and range of
`--runs` runs. Referee and its anchor take turns within each run, game by game for playouts
and slice by slice (a twentieth of the positions) for legal moves, each on its own clock, so
that both meet the same moments of a loaded machine; their ratio is taken run by run.

- Random playouts: from a start rebuilt for every game, sample the dice by their
  probabilities, list the legal moves, play one at random, to the end of the game or twice its
  turn cap (OpenSpiel's loop over its C++ games from Python, `anchors.spiel_playout`).
- Legal-move generation: the decision positions of random games, each rebuilt from its
  position text (and its dice) before the clock starts, so that no list of moves worked out
  earlier is reused: the clock runs over `legal_moves()` of the new objects only.
- Move-sequence counts (perft) from a fresh start; each node's moves are generated once.

Anchors (`pip install -e '.[bench]'`): OpenSpiel's checkers, legal actions from Python on
states rebuilt from their serialised text, beside Thai checkers; OpenSpiel's backgammon random
playouts, by the same loop, beside Takhteh. The C++ Trax engine peryaudo/trax, built with its
Makefile, when the environment variable TRAX_CPP names its binary: its `--perft
--perft_depth=6` (which counts depths 0 to 6 one after another, each move played) as a
child process, its CPU time beside Trax's perft 6 (issue 34: within 5x); skipped otherwise.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import resource
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from anchors import OPENSPIEL, missing, optional, spiel_playout, spiel_positions
from common import conditions, load_average, report, spread, table

from referee.games import GAME_NAMES, get_game
from referee.games.base import Game, State, perft_counts
from referee.games.thai.fen import ENGLISH_START_FEN

SAMPLE_GAMES = 20
"""Random games whose decision positions make the legal-move generation sample."""


def fresh(game: Game, state: State) -> State:
    """A new object for the position of `state`, built from its position text and dice, so
    that nothing `state` worked out (its list of legal moves) is reused. Thai checkers' text
    leaves out the history the draw rules read: `sample` keeps only positions where that does
    not change the moves."""
    if state.to_move is None:  # the opening roll, which no position text holds
        return game.initial_state(state.ruleset)
    rebuilt = game.parse_position(state.ruleset, game.format_position(state))
    if state.roll is not None:
        rebuilt = rebuilt.apply_chance(state.roll)
    return rebuilt


def playout(state: State, rng: random.Random, cap: int, seen: list[State] | None = None) -> int:
    """Play one random game; the number of actions (moves and rolls). The positions where a
    move was chosen go into `seen` when it is given."""
    actions = 0
    for _ in range(cap):
        if state.is_terminal():
            break
        if state.is_chance():
            outcomes = state.chance_outcomes()
            rolls = [roll for roll, _ in outcomes]
            weights = [p for _, p in outcomes]
            state = state.apply_chance(rng.choices(rolls, weights)[0])
        else:
            if seen is not None:
                seen.append(state)
            state = state.play(rng.choice(state.legal_moves()))
        actions += 1
    return actions


def start_of(game: Game, text: str | None = None) -> State:
    ruleset = game.ruleset()
    start = game.initial_state(ruleset) if text is None else game.parse_position(ruleset, text)
    return fresh(game, start)


def sample(game: Game, games: int, seed: int) -> list[State]:
    """The decision positions of `games` random games whose rebuilt copies list the same
    moves as the positions themselves."""
    rng = random.Random(seed)
    seen: list[State] = []
    for _ in range(games):
        playout(start_of(game), rng, game.turn_cap * 2, seen)
    return [s for s in seen if fresh(game, s).legal_moves() == s.legal_moves()]


Slice = Callable[[], int]
"""A piece of a measurement, timed on its own: returns the work it did (actions, moves)."""

SLICES = 20
"""The pieces a run of legal-move generation is cut into, to alternate with the anchor's."""


@dataclass
class Runs:
    """The CPU seconds of each run of one measurement and the work each run did."""

    seconds: list[float] = field(default_factory=list)
    work: list[int] = field(default_factory=list)

    def rates(self, per_run: list[int] | None = None) -> list[float]:
        counts = self.work if per_run is None else per_run
        return [n / s for n, s in zip(counts, self.seconds, strict=True)]


def run(*sides: tuple[Runs, list[Slice]]) -> None:
    """One run of each side: their slices take turns (the first of each side, then the
    second...), so that referee and an anchor meet the same moments of a loaded machine; the
    CPU time of each slice counts for its own side."""
    totals = [[0.0, 0] for _ in sides]
    for group in itertools.zip_longest(*(slices for _, slices in sides)):
        for total, piece in zip(totals, group, strict=True):
            if piece is not None:
                started = time.process_time()
                total[1] += piece()
                total[0] += time.process_time() - started
    for (runs, _), (seconds, work) in zip(sides, totals, strict=True):
        runs.seconds.append(seconds)
        runs.work.append(int(work))


def cut(items: list[Any], pieces: int) -> list[list[Any]]:
    """`items` in `pieces` consecutive slices of near-equal length."""
    size, extra = divmod(len(items), pieces)
    bounds = [k * size + min(k, extra) for k in range(pieces + 1)]
    return [items[a:b] for a, b in itertools.pairwise(bounds)]


def listing(chunks: list[list[Any]], legal: Callable[[Any], list[Any]]) -> list[Slice]:
    """A slice per chunk of states: list the legal moves of each state of the chunk."""
    return [lambda chunk=chunk: sum(len(legal(s)) for s in chunk) for chunk in chunks]


def ratios(ours: list[float], theirs: list[float]) -> str:
    """Referee's rate over the anchor's, run by run (their slices alternating)."""
    return spread([a / b for a, b in zip(ours, theirs, strict=True)], 2)


def measure(runs: int, games: int) -> tuple[str, str]:
    """The per-game table and the table against the anchors."""
    spiel = optional("pyspiel")
    played = {name: Runs() for name in GAME_NAMES}
    listed = {name: Runs() for name in GAME_NAMES}
    samples = {name: sample(get_game(name), SAMPLE_GAMES, 1) for name in GAME_NAMES}
    backgammon, checkers = Runs(), Runs()
    checkers_sample: list[str] = []
    if spiel is not None:
        checkers_game, backgammon_game = spiel.load_game("checkers"), spiel.load_game("backgammon")
        thai_cap = get_game("thai").turn_cap * 2
        checkers_sample = spiel_positions(checkers_game, SAMPLE_GAMES, 1, thai_cap)

    for number in range(runs):
        for name in GAME_NAMES:
            game = get_game(name)
            cap = game.turn_cap * 2
            ours = random.Random(number)

            def our_game(game: Game = game, rng: random.Random = ours, cap: int = cap) -> int:
                return playout(start_of(game), rng, cap)

            games_of = [(played[name], [our_game] * games)]
            if name == "takhteh" and spiel is not None:
                theirs = random.Random(number)

                def their_game(rng: random.Random = theirs, cap: int = cap) -> int:
                    return spiel_playout(backgammon_game.new_initial_state(), rng, cap)

                games_of.append((backgammon, [their_game] * games))
            run(*games_of)
            states = [fresh(game, s) for s in samples[name]]
            lists = [(listed[name], listing(cut(states, SLICES), lambda s: s.legal_moves()))]
            if name == "thai" and spiel is not None:
                rebuilt = [checkers_game.deserialize_state(text) for text in checkers_sample]
                actions = listing(cut(rebuilt, SLICES), lambda s: s.legal_actions())
                lists.append((checkers, actions))
            run(*lists)

    rows = []
    for name in GAME_NAMES:
        per_game = [games] * runs
        positions = [len(samples[name])] * runs
        rows.append(
            [
                name,
                spread(played[name].rates(per_game)),
                spread(played[name].rates()),
                f"{len(samples[name]):,}",
                spread(listed[name].rates(positions)),
                spread(listed[name].rates()),
            ]
        )
    headers = [
        "game",
        "random games/s",
        "actions/s",
        "fresh positions",
        "legal-move lists/s",
        "moves listed/s",
    ]
    engines = table(headers, rows)
    if spiel is None:
        return engines, missing(OPENSPIEL)
    thai = listed["thai"].rates([len(samples["thai"])] * runs)
    ours = played["takhteh"].rates([games] * runs)
    theirs = backgammon.rates([games] * runs)
    lists = checkers.rates([len(checkers_sample)] * runs)
    anchors = table(
        ["measure", "referee", "anchor", "referee / anchor, run by run", "target"],
        [
            [
                "legal-move lists/s, Thai checkers against OpenSpiel checkers "
                f"({len(checkers_sample):,} fresh positions)",
                spread(thai),
                spread(lists),
                ratios(thai, lists),
                "at least 1.0 (issue 34)",
            ],
            [
                "random games/s, Takhteh against OpenSpiel backgammon",
                spread(ours),
                spread(theirs),
                ratios(ours, theirs),
                "at least 1.5 (issue 34)",
            ],
        ],
    )
    return engines, anchors


PERFTS = [
    # (label, game, position text or None for the start, depth, target)
    ("thax, start", "thax", None, 3, ""),
    ("takhteh, start", "takhteh", None, 2, ""),
    ("trax, empty board", "trax", None, 5, "under 30 s (issue 10)"),
    ("trax, empty board", "trax", None, 6, "under 30 s (issue 18)"),
    ("thai, start", "thai", None, 6, ""),
    ("thai, English 12-man start", "thai", ENGLISH_START_FEN, 7, "under 10 s (issue 10)"),
]


TRAX_CPP_COUNT = 7_209_480
"""Trax perft 6 from the empty board, which the C++ anchor must print to be timed."""


def trax_cpp_perft(binary: str) -> float:
    """The C++ Trax engine's perft 6: the CPU seconds of its process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [binary, "--perft", "--perft_depth=6"], capture_output=True, text=True, check=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if f"leaves: {TRAX_CPP_COUNT} " not in done.stderr:
        raise SystemExit(f"{binary} did not count {TRAX_CPP_COUNT:,} at depth 6")
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def perfts(runs: int, deepest: bool) -> str:
    """Move-sequence counts and their CPU time; the slowest count only with `deepest`, and
    beside it the C++ Trax engine when TRAX_CPP names its binary."""
    cases = [case for case in PERFTS if deepest or case[3] < 6 or case[1] != "trax"]
    timed = [Runs() for _ in cases]
    binary = os.environ.get("TRAX_CPP") if deepest else None
    if binary is not None and not os.access(binary, os.X_OK):
        print(f"TRAX_CPP: {binary} is not an executable; the C++ anchor is skipped")
        binary = None
    anchor: list[float] = []
    for _ in range(runs):
        for (_, name, text, depth, _), runs_of in zip(cases, timed, strict=True):
            start = start_of(get_game(name), text)
            run((runs_of, [lambda start=start, depth=depth: perft_counts(start, depth)[-1]]))
            if binary is not None and (name, depth) == ("trax", 6):
                anchor.append(trax_cpp_perft(binary))
    rows = [
        [label, str(depth), f"{runs_of.work[0]:,}", spread(runs_of.seconds, 2), target]
        for (label, _, _, depth, target), runs_of in zip(cases, timed, strict=True)
    ]
    if anchor:
        ours = next(
            runs_of.seconds
            for (_, name, _, depth, _), runs_of in zip(cases, timed, strict=True)
            if (name, depth) == ("trax", 6)
        )
        rows.append(
            [
                "trax, empty board: C++ peryaudo/trax",
                "6",
                f"{TRAX_CPP_COUNT:,}",
                spread(anchor, 2),
                f"referee / C++: {ratios(ours, anchor)} (issue 34: within 5x)",
            ]
        )
    return table(["position", "depth", "count", "CPU s", "target"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement")
    parser.add_argument("--games", type=int, default=100, help="random playouts per run")
    parser.add_argument(
        "--no-trax-perft-6", action="store_true", help="skip the slowest count (Trax depth 6)"
    )
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    load = load_average()
    engines, anchors = measure(args.runs, args.games)
    counts = perfts(args.runs, not args.no_trax_perft_6)
    text = "\n\n".join(
        [
            conditions(args.runs, load) + f" One core; {args.games} random games a run; "
            f"the decision positions of {SAMPLE_GAMES} random games, rebuilt before each run.",
            engines,
            "Against the anchors, in the same runs:",
            anchors,
            "Move-sequence counts (perft) from a fresh start:",
            counts,
        ]
    )
    report(
        "engines",
        "Engines",
        "taskset -c 0 .venv/bin/python benchmarks/engines.py --write",
        text,
        args.write,
    )


if __name__ == "__main__":
    main()
