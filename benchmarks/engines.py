"""Engine speed on work actually done, beside the anchors in the same run when installed.

Run: taskset -c 0 .venv/bin/python benchmarks/engines.py [--runs 5] [--seconds 1] [--write]
     taskset -c 0 .venv/bin/python benchmarks/engines.py --command-perft [--write]: only
     `referee perft --game trax --depth 6` as whole processes beside the C++ engine's.

Every figure is the CPU time of this process (`time.process_time`), median and range of
`--runs` runs. Referee and its anchor take turns within each run, game by game for playouts
and slice by slice (a twentieth of the positions) for legal moves, each on its own clock, so
that both meet the same moments of a loaded machine; their ratio is taken run by run.

Each side's run takes over `--seconds` of CPU (a second by default, as docs/benchmarks.md
asks), so that the clock's grain and a moment's load weigh little in it. One piece of work (a
game, a pass over the positions, a count) takes less, so a run repeats it, in passes, until
the CPU of every side of the run has passed `--seconds`, and the figure is per piece. The
sides of a pair make as many passes, so that they alternate to the end: the quicker side
sets how many, and the slower one runs longer. How many a run made is in the tables. Before
each pass, outside the clock, its states are made and the engines' notation caches emptied
(`common.empty_caches`). The text gives the shortest run of any side, the C++ anchor's among
them.

- Random playouts: from a start rebuilt for every game, sample the dice by their
  probabilities, list the legal moves, play one at random, to the end of the game or twice its
  turn cap (OpenSpiel's loop over its C++ games from Python, `anchors.spiel_playout`). A
  pass is one game of each side.
- Legal-move generation: the decision positions of random games, a pass listing each once.
  Before each pass, outside the clock, every position is rebuilt from its position text (and
  its dice) and the caches are emptied, so that no list of moves worked out earlier, in this
  pass or another, is reused: the clock runs over `legal_moves()` of the new objects only.
  Only the states of the pass under way are held (and the next's while they are built).
- Move-sequence counts (perft) from a fresh start; each node's moves are generated once. A
  pass is one count, from a start rebuilt from its text; the figure is the CPU seconds of
  one count, the mean of the run's passes.

Anchors (`pip install -e '.[bench]'`): OpenSpiel's checkers, legal actions from Python on
states rebuilt from their serialised text, beside Thai checkers; OpenSpiel's backgammon random
playouts, by the same loop, beside Takhteh. The C++ Trax engine peryaudo/trax, built with its
Makefile, when the environment variable TRAX_CPP names its binary: its `--perft
--perft_depth=6` (which counts depths 0 to 6 one after another, each move played) as a
child process once a run (about 1.3 s of CPU, over the second by itself), its CPU time beside
Trax's perft 6 (one count, about 4.5 s: issue 34, within 5x); skipped otherwise.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anchors import OPENSPIEL, missing, optional, spiel_playout, spiel_positions
from common import (
    RUN_SECONDS,
    conditions,
    empty_caches,
    installed_environment,
    load_average,
    measured_run,
    ratios,
    report,
    span,
    spread,
    table,
)

import referee
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

Pass = Callable[[], list[Slice]]
"""Makes the slices of one pass of a measurement, outside the clock (for legal moves, rebuilds
the states they list): called afresh for every pass, so that no pass reuses another's work."""

SLICES = 20
"""The pieces a pass of legal-move generation is cut into, to alternate with the anchor's."""


@dataclass
class Runs:
    """The CPU seconds of each run of one measurement, the passes it made and the work they
    did."""

    seconds: list[float] = field(default_factory=list)
    passes: list[int] = field(default_factory=list)
    work: list[int] = field(default_factory=list)

    def rates(self, per_pass: int | None = None) -> list[float]:
        """Per second, run by run: with `per_pass`, the pieces of work (a game, the positions
        of the sample) a pass did; without it, the work the runs counted (actions, moves)."""
        done = self.work if per_pass is None else [n * per_pass for n in self.passes]
        return [n / s for n, s in zip(done, self.seconds, strict=True)]

    def per_pass(self) -> list[float]:
        """The CPU seconds of a pass, run by run: the mean of the run's passes."""
        return [s / n for s, n in zip(self.seconds, self.passes, strict=True)]


def run(seconds: float, *sides: tuple[Runs, Pass]) -> None:
    """One run of each side: passes until every side's CPU passes `seconds`, as many for each
    side. Before each pass, outside the clock, every side's slices are made and the caches
    emptied; then the slices take turns (the first of each side, then the second...), so that
    referee and an anchor meet the same moments of a loaded machine; the CPU time of each
    slice counts for its own side. The quicker side sets the passes: the slower one, making
    as many to keep alternating to the end, runs longer."""
    totals = [[0.0, 0] for _ in sides]
    passes = 0
    while any(spent <= seconds for spent, _ in totals):
        made = [make() for _, make in sides]
        empty_caches()
        for group in itertools.zip_longest(*made):
            for total, piece in zip(totals, group, strict=True):
                if piece is not None:
                    started = time.process_time()
                    total[1] += piece()
                    total[0] += time.process_time() - started
        passes += 1
    for (runs, _), (spent, work) in zip(sides, totals, strict=True):
        runs.seconds.append(spent)
        runs.passes.append(passes)
        runs.work.append(int(work))


def cut(items: list[Any], pieces: int) -> list[list[Any]]:
    """`items` in `pieces` consecutive slices of near-equal length."""
    size, extra = divmod(len(items), pieces)
    bounds = [k * size + min(k, extra) for k in range(pieces + 1)]
    return [items[a:b] for a, b in itertools.pairwise(bounds)]


def listing(rebuild: Callable[[], list[Any]], legal: Callable[[Any], list[Any]]) -> Pass:
    """A pass of legal-move generation: the states rebuilt by `rebuild`, in SLICES slices,
    each listing the legal moves of each state of its chunk."""

    def make() -> list[Slice]:
        chunks = cut(rebuild(), SLICES)
        return [lambda chunk=chunk: sum(len(legal(s)) for s in chunk) for chunk in chunks]

    return make


def once(piece: Slice) -> Pass:
    """A pass of one piece that has nothing to make outside the clock: a random game, which
    builds its start on the clock."""
    return lambda: [piece]


def measure(runs: int, seconds: float) -> tuple[str, str, float]:
    """The per-game table, the table against the anchors and the shortest run of any side."""
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
        checkers_pass = listing(
            lambda: [checkers_game.deserialize_state(text) for text in checkers_sample],
            lambda s: s.legal_actions(),
        )

    for number in range(runs):
        for name in GAME_NAMES:
            game = get_game(name)
            cap = game.turn_cap * 2
            ours = random.Random(number)

            def our_game(game: Game = game, rng: random.Random = ours, cap: int = cap) -> int:
                return playout(start_of(game), rng, cap)

            games_of = [(played[name], once(our_game))]
            if name == "takhteh" and spiel is not None:
                theirs = random.Random(number)

                def their_game(rng: random.Random = theirs, cap: int = cap) -> int:
                    return spiel_playout(backgammon_game.new_initial_state(), rng, cap)

                games_of.append((backgammon, once(their_game)))
            run(seconds, *games_of)

            def rebuild(game: Game = game, positions: list[State] = samples[name]) -> list[State]:
                return [fresh(game, s) for s in positions]

            lists = [(listed[name], listing(rebuild, lambda s: s.legal_moves()))]
            if name == "thai" and spiel is not None:
                lists.append((checkers, checkers_pass))
            run(seconds, *lists)

    shortest = min(
        min(runs_of.seconds)
        for runs_of in [*played.values(), *listed.values(), backgammon, checkers]
        if runs_of.seconds
    )
    rows = [
        [
            name,
            span(played[name].passes),
            spread(played[name].rates(1)),
            spread(played[name].rates()),
            f"{len(samples[name]):,}",
            span(listed[name].passes),
            spread(listed[name].rates(len(samples[name]))),
            spread(listed[name].rates()),
        ]
        for name in GAME_NAMES
    ]
    headers = [
        "game",
        "games a run",
        "random games/s",
        "actions/s",
        "fresh positions",
        "passes a run",
        "legal-move lists/s",
        "moves listed/s",
    ]
    engines = table(headers, rows)
    if spiel is None:
        return engines, missing(OPENSPIEL), shortest
    thai = listed["thai"].rates(len(samples["thai"]))
    actions = checkers.rates(len(checkers_sample))
    ours = played["takhteh"].rates(1)
    theirs = backgammon.rates(1)
    anchors = table(
        ["measure", "referee", "anchor", "referee / anchor, run by run", "target"],
        [
            [
                "legal-move lists/s, Thai checkers against OpenSpiel checkers "
                f"({len(checkers_sample):,} fresh positions, passes a run: "
                f"{span(checkers.passes)} each)",
                spread(thai),
                spread(actions),
                ratios(thai, actions),
                "at least 1.0 (issue 34)",
            ],
            [
                "random games/s, Takhteh against OpenSpiel backgammon "
                f"(games a run: {span(backgammon.passes)} each)",
                spread(ours),
                spread(theirs),
                ratios(ours, theirs),
                "at least 1.5 (issue 34)",
            ],
        ],
    )
    return engines, anchors, shortest


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


def trax_cpp_binary() -> str | None:
    """The C++ Trax engine that TRAX_CPP names, or None (said on screen)."""
    binary = os.environ.get("TRAX_CPP")
    if binary is not None and not os.access(binary, os.X_OK):
        print(f"TRAX_CPP: {binary} is not an executable; the C++ anchor is skipped")
        return None
    return binary


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


PERFT_COMMAND = ["perft", "--game", "trax", "--depth", "6"]
"""Trax perft 6 through the command line, as issue 34 compares it with the C++ engine."""


def command_perft(runs: int, binary: str | None) -> str:
    """`referee perft --game trax --depth 6` as whole processes, start included (from compiled
    bytecode, as an installed package starts), each run beside the C++ engine's perft 6 when
    `binary` names it: CPU seconds of each, and their ratio run by run. One process takes
    seconds, over the second a run asks, so a run is one of each."""
    environment = installed_environment(Path(referee.__file__).resolve().parents[1])
    command = [sys.executable, "-m", "referee", *PERFT_COMMAND]
    shown = subprocess.run(command, capture_output=True, text=True, check=True, env=environment)
    if f"{TRAX_CPP_COUNT:,}" not in shown.stdout and str(TRAX_CPP_COUNT) not in shown.stdout:
        raise SystemExit(f"`referee {' '.join(PERFT_COMMAND)}` did not count {TRAX_CPP_COUNT:,}")
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(runs):
        code, seconds, _ = measured_run(command, env=environment)
        if code != 0:
            raise SystemExit(f"`referee {' '.join(PERFT_COMMAND)}` exited with {code}")
        ours.append(seconds)
        if binary is not None:
            theirs.append(trax_cpp_perft(binary))
    rows = [[f"`referee {' '.join(PERFT_COMMAND)}`", spread(ours, 2), ""]]
    if theirs:
        rows.append(
            [
                "C++ peryaudo/trax `--perft --perft_depth=6`",
                spread(theirs, 2),
                f"referee / C++: {ratios(ours, theirs)} (issue 34: within 5x)",
            ]
        )
    text = (
        f"Trax perft 6 ({TRAX_CPP_COUNT:,}) through the command line: whole processes, the "
        "start of each included, each run both processes in turn"
        + ("" if theirs else "; the C++ engine not run (TRAX_CPP names no executable)")
        + ":\n\n"
        + table(["command", "CPU s", "target"], rows)
    )
    return text


def perfts(runs: int, seconds: float, deepest: bool) -> tuple[str, float]:
    """Move-sequence counts and the CPU time of one count, with the shortest run; the slowest
    count only with `deepest`, and beside it the C++ Trax engine when TRAX_CPP names its
    binary. A pass is one count, from a start rebuilt from its text outside the clock."""
    cases = [case for case in PERFTS if deepest or case[3] < 6 or case[1] != "trax"]
    timed = [Runs() for _ in cases]
    binary = trax_cpp_binary() if deepest else None
    anchor: list[float] = []
    for _ in range(runs):
        for (_, name, text, depth, _), runs_of in zip(cases, timed, strict=True):

            def one_count(
                name: str = name, text: str | None = text, depth: int = depth
            ) -> list[Slice]:
                start = start_of(get_game(name), text)
                return [lambda: perft_counts(start, depth)[-1]]

            run(seconds, (runs_of, one_count))
            if binary is not None and (name, depth) == ("trax", 6):
                anchor.append(trax_cpp_perft(binary))
    each = [runs_of.per_pass() for runs_of in timed]
    rows = [
        [
            label,
            str(depth),
            f"{runs_of.work[0] // runs_of.passes[0]:,}",  # the count, the same at every pass
            span(runs_of.passes),
            spread(per_count, 2),
            target,
        ]
        for (label, _, _, depth, target), runs_of, per_count in zip(cases, timed, each, strict=True)
    ]
    if anchor:
        ours = next(
            per_count
            for (_, name, _, depth, _), per_count in zip(cases, each, strict=True)
            if (name, depth) == ("trax", 6)
        )
        rows.append(
            [
                "trax, empty board: C++ peryaudo/trax",
                "6",
                f"{TRAX_CPP_COUNT:,}",
                "1 (its process)",
                spread(anchor, 2),
                f"referee / C++: {ratios(ours, anchor)} (issue 34: within 5x)",
            ]
        )
    shortest = min(min(runs_of.seconds) for runs_of in timed)
    headers = ["position", "depth", "count", "repetitions a run", "CPU s a count", "target"]
    return table(headers, rows), min([shortest, *anchor])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement")
    parser.add_argument(
        "--seconds",
        type=float,
        default=RUN_SECONDS,
        help="the least CPU seconds of a run of each side",
    )
    parser.add_argument(
        "--no-trax-perft-6", action="store_true", help="skip the slowest count (Trax depth 6)"
    )
    parser.add_argument(
        "--command-perft",
        action="store_true",
        help="only Trax perft 6 through the command line, beside the C++ engine",
    )
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    load = load_average()
    if args.command_perft:
        text = conditions(args.runs, load, "CPU time of the child processes") + " One core.\n\n"
        report(
            "perft-command",
            "Trax perft through the command line",
            "taskset -c 0 .venv/bin/python benchmarks/engines.py --command-perft --write",
            text + command_perft(args.runs, trax_cpp_binary()),
            args.write,
        )
        return
    engines, anchors, shortest = measure(args.runs, args.seconds)
    counts, shortest_count = perfts(args.runs, args.seconds, not args.no_trax_perft_6)
    shortest = min(shortest, shortest_count)
    text = "\n\n".join(
        [
            conditions(args.runs, load)
            + f" One core. Each run of each side repeats its piece of work until its CPU "
            f"passes {args.seconds:g} s (the shortest run: {shortest:.2f} s), "
            "the two sides of a pair as many times, taking turns; the figures are per piece: "
            "a random game; a pass over the decision positions of "
            f"{SAMPLE_GAMES} random games, each rebuilt from its text and the caches emptied "
            "before each pass; a count, from a fresh start.",
            engines,
            "Against the anchors, in the same runs:",
            anchors,
            "Move-sequence counts (perft) from a fresh start, the CPU seconds of one count "
            "(the mean of a run's repetitions):",
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
