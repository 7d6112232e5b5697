"""Validation speed against python-chess reading PGN, per game, paired run by run: in process
(moves per CPU second on one core) and as whole processes (`referee validate -q FILE` against
`python benchmarks/anchors.py FILE.pgn`, their CPU time start-up included); memory on a 50 MB
file; --jobs 1 against --jobs 2 on many files.

Run: .venv/bin/python benchmarks/validate.py [--runs 5] [--moves 200000] [--seconds 1]
[--write] (not under `taskset`: the --jobs part wants both cores; the rest runs in one thread
and counts its own CPU time).

The records are distinct random games of each game's `random` bot, as many as make `--moves`
moves or more, made once into a temporary folder, and random chess games of up to 200 plies
as PGN, as many as make as many moves.

Every run takes over `--seconds` of the CPU it measures, so that the clock's resolution and the
scheduler's noise stay small beside it. In process (referee validating, python-chess replaying
the PGN, and the reading alone), a run is whole passes over the file, as many as take that much
CPU (one pass of referee's validation takes about 0.4 s to 2 s at 200,000 moves, by build and
game; the reading alone a few tenths), and its figure is the moves of all its passes over their
CPU seconds. Each pass of referee's reads the file again (python-chess's reads the PGN text
held in memory, game by game) and replays every game from its start, and meets the engines'
notation caches emptied, as a fresh `referee validate` process would; the imports and what they
load stay, start-up that the whole-process rows count. The file is read in ten slices of
consecutive games (the caches emptied before a pass's first only), which take turns with tenths
of the PGN games, so that both sides meet the same moments of a machine whose speed drifts (see
`paired`). As whole processes, a run is one process reading the whole file, start-up included,
which is what a user waits for; the default of 200,000 moves makes it take over a second even
on the compiled build (about 122,000 moves/s), and each game's command is followed at once by
the anchor's. The ratio is taken run by run.
"""

from __future__ import annotations

import argparse
import functools
import math
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from anchors import CHESS, chess_games, chess_read_file, chess_replay, missing, optional
from common import (
    RUN_SECONDS,
    conditions,
    empty_caches,
    installed_environment,
    load_average,
    measured_run,
    report,
    span,
    spread,
    table,
)

import referee
from referee.games import GAME_NAMES, get_game
from referee.games.agent import RandomBot
from referee.records.io import iter_jsonl, record_to_json
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game
from referee.validator.check import validate_file

PLAYERS = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]
REFEREE = [sys.executable, "-m", "referee"]
HOME = Path(referee.__file__).resolve().parents[1]
"""The folder holding the referee this script imports; the commands run from it, so that
`python -m referee` imports the same one (the pure package, or the compiled build)."""


@functools.cache
def environment() -> dict[str, str]:
    """The commands' environment: they start from compiled bytecode, as an installed package
    does (python-chess's modules, from site-packages, are compiled too)."""
    return installed_environment(HOME)


def random_games(name: str, count: int, seed: str = "bench") -> list[str]:
    game = get_game(name)
    ruleset = game.ruleset()
    return [
        record_to_json(
            play_game(GameSetup(game, ruleset, PLAYERS, f"{seed}{i}"), [RandomBot(), RandomBot()])
        )
        for i in range(count)
    ]


def games_of_moves(name: str, moves: int) -> tuple[list[str], int]:
    """Random games of `name` making `moves` moves or more, and their number of moves."""
    game = get_game(name)
    ruleset = game.ruleset()
    lines: list[str] = []
    made = 0
    while made < moves:
        setup = GameSetup(game, ruleset, PLAYERS, f"bench{len(lines)}")
        record = play_game(setup, [RandomBot(), RandomBot()])
        lines.append(record_to_json(record))
        made += len(record.turns)
    return lines, made


SLICES = 10
"""The parts of each game's file and of the PGN that take turns in a run (see `paired`)."""


def validate(path: Path) -> int:
    """Validate every game of the file: the moves replayed. The engines' caches are kept: a
    slice after the first of a pass goes on from where the one before left them (`Passes`)."""
    reports = list(validate_file(path))
    assert all(r.valid for r in reports), next(r for r in reports if not r.valid)
    return sum(r.turns for r in reports)


def slice_file(path: Path, folder: Path) -> list[Path]:
    """The file's lines in SLICES files of consecutive games, in order."""
    lines = path.read_text().splitlines()
    count = len(lines)
    parts = []
    for index in range(SLICES):
        part = folder / f"{path.stem}.{index}.jsonl"
        chosen = lines[index * count // SLICES : (index + 1) * count // SLICES]
        part.write_text("".join(line + "\n" for line in chosen))
        parts.append(part)
    return parts


class Passes:
    """One side's run in process: whole passes over its pieces (a file's slices, in order),
    piece by piece, until the run has taken `seconds` of CPU, so that a short pass is not
    measured alone. `fresh` runs before each pass, off the clock: what a fresh process would
    not have is emptied there, not between the pieces of a pass, which make one file."""

    def __init__(
        self,
        work: Callable[[Any], int],
        pieces: Sequence[Any],
        seconds: float,
        fresh: Callable[[], None] | None = None,
    ) -> None:
        self.work = work
        self.pieces = pieces
        self.seconds = seconds
        self.fresh = fresh
        self.steps = 0
        self.moves = 0
        self.cpu = 0.0

    @property
    def passes(self) -> int:
        """The passes made whole."""
        return self.steps // len(self.pieces)

    @property
    def done(self) -> bool:
        """Whether the run is over: a pass ended, with the run's CPU past `seconds`."""
        return self.steps > 0 and self.steps % len(self.pieces) == 0 and self.cpu >= self.seconds

    def share(self) -> float:
        """The part of its run made so far, its length foreseen from its pace so far: as many
        passes as take `seconds` at that pace, and at least those begun."""
        if not self.steps or not self.cpu:
            return 0.0
        begun = -(-self.steps // len(self.pieces))
        pass_cpu = self.cpu / self.steps * len(self.pieces)
        passes = max(begun, math.ceil(self.seconds / pass_cpu))
        return self.steps / (passes * len(self.pieces))

    def step(self) -> None:
        """Work through the next piece, a pass's first after `fresh`."""
        index = self.steps % len(self.pieces)
        if index == 0 and self.fresh is not None:
            self.fresh()
        started = time.process_time()
        self.moves += self.work(self.pieces[index])
        self.cpu += time.process_time() - started
        self.steps += 1

    def run(self) -> Passes:
        """The run alone, to its end."""
        while not self.done:
            self.step()
        return self

    def rate(self) -> float:
        """Moves per CPU second over all the run's passes."""
        return self.moves / self.cpu


def paired(ours: Passes, theirs: Passes) -> None:
    """Both runs to their ends, taking turns piece by piece: the side that has made the smaller
    share of its run goes next (referee's on a tie), so that on a shared machine whose speed
    drifts from second to second, both spread over the same moments although their runs hold
    different numbers of passes (one pass of python-chess at 200,000 moves is several of
    referee's seconds, while a compiled referee's run may need two passes)."""
    while not (ours.done and theirs.done):
        if ours.done or (not theirs.done and theirs.share() < ours.share()):
            theirs.step()
        else:
            ours.step()


def read_only(path: Path) -> int:
    """Read the file's records (parsed and checked against the record model), no replay."""
    with path.open("rb") as stream:
        return sum(len(loaded.record.turns) for loaded in iter_jsonl(stream) if loaded.record)


def process_cpu(args: list[str]) -> float:
    """The CPU seconds (user + system) of a command run to its end, start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, cwd=HOME, env=environment())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def speed(folder: Path, moves_wanted: int, runs: int, seconds: float) -> str:
    paths, moves, games = {}, {}, {}
    for name in GAME_NAMES:
        lines, moves[name] = games_of_moves(name, moves_wanted)
        games[name] = len(lines)
        paths[name] = folder / f"{name}.jsonl"
        paths[name].write_text("\n".join(lines) + "\n")
        assert read_only(paths[name]) == moves[name]
    chess = optional("chess")
    if chess is None:
        return missing(CHESS)
    pgn: list[str] = []
    chess_moves = 0
    while chess_moves < moves_wanted:
        # Only the new games are replayed to count their moves: replaying the whole list
        # after each batch grew with the square of the moves (minutes at 200,000).
        batch = chess_games(chess, 20, len(pgn))
        pgn += batch
        chess_moves += chess_replay(batch)
    pgn_path = folder / "chess.pgn"
    pgn_path.write_text("\n\n".join(pgn) + "\n")
    assert chess_read_file(str(pgn_path)) == chess_moves
    anchor_command = [sys.executable, str(Path(__file__).parent / "anchors.py"), str(pgn_path)]

    slices = {name: slice_file(paths[name], folder) for name in GAME_NAMES}
    pgn_slices = [pgn[i::SLICES] for i in range(SLICES)]
    rates: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    read: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    ratios: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    passes: dict[str, list[int]] = {name: [] for name in GAME_NAMES}
    read_passes: dict[str, list[int]] = {name: [] for name in GAME_NAMES}
    chess_rates: list[float] = []
    chess_passes: list[int] = []
    cli: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    cli_ratios: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    chess_cli: list[float] = []
    cli_cpu: list[float] = []
    chess_cli_cpu: list[float] = []
    for _ in range(runs):
        for name in GAME_NAMES:
            ours = Passes(validate, slices[name], seconds, empty_caches)
            theirs = Passes(chess_replay, pgn_slices, seconds)
            paired(ours, theirs)
            rates[name].append(ours.rate())
            chess_rates.append(theirs.rate())
            ratios[name].append(ours.rate() / theirs.rate())
            passes[name].append(ours.passes)
            chess_passes.append(theirs.passes)
            reading = Passes(read_only, [paths[name]], seconds, empty_caches).run()
            read[name].append(reading.rate())
            read_passes[name].append(reading.passes)
            cli_cpu.append(process_cpu([*REFEREE, "validate", "-q", str(paths[name])]))
            chess_cli_cpu.append(process_cpu(anchor_command))
            command = moves[name] / cli_cpu[-1]
            anchor = chess_moves / chess_cli_cpu[-1]
            cli[name].append(command)
            chess_cli.append(anchor)
            cli_ratios[name].append(command / anchor)
    rows = [
        [
            name,
            f"{games[name]:,}",
            f"{moves[name]:,}",
            spread(rates[name]),
            spread(ratios[name], 2),
            spread(cli[name]),
            spread(cli_ratios[name], 2),
            spread(read[name]),
            f"{span(passes[name])} / {span(read_passes[name])}",
        ]
        for name in GAME_NAMES
    ]
    headers = [
        "game",
        "games",
        "moves",
        "in process, moves/s",
        "over python-chess",
        "`referee validate -q`, moves/s",
        "over python-chess",
        "reading alone, moves/s",
        "passes a run, in process / reading",
    ]
    anchor_rows = [
        [
            f"{len(pgn):,}",
            f"{chess_moves:,}",
            spread(chess_rates),
            span(chess_passes),
            spread(chess_cli),
        ]
    ]
    return (
        f"A run in process (validating, reading alone, python-chess's replay) is whole passes"
        f" over the games, as many as take {seconds:g} s of CPU or more, each of referee's"
        " passes reading the file again and meeting the engines' notation caches empty"
        " (python-chess's reads the PGN text from memory); its figure is the moves of all its"
        " passes over their CPU seconds. A run as a whole process is one process over"
        " the whole file, start-up included; the shortest took"
        f" {min(cli_cpu):.2f} s of CPU (`referee validate -q`), {min(chess_cli_cpu):.2f} s"
        " (python-chess).\n\n"
        + table(headers, rows)
        + "\n\nThe anchor, in process taking turns slice by slice with referee's passes over"
        f" the {SLICES} slices of each game's file (the side behind in its run going next), as"
        " a whole process right after each game's command: random chess games of up to 200"
        " plies as PGN text, read by `chess.pgn.read_game` (each SAN move parsed against its"
        " position's legal moves and played), in process and as a whole process (`python"
        f" benchmarks/anchors.py FILE.pgn`), {len(GAME_NAMES) * runs} runs of each:\n\n"
        + table(
            [
                "games",
                "moves",
                "in process, moves/s",
                "passes a run",
                "whole process, moves/s",
            ],
            anchor_rows,
        )
    )


def peak_memory_mb(args: list[str]) -> tuple[float, float]:
    """Run a command; its peak resident memory in MB and its CPU seconds (user + system)."""
    _, cpu, peak = measured_run(args, cwd=HOME, env=environment())
    return peak, cpu


def memory(folder: Path) -> str:
    big = folder / "big.jsonl"
    lines = random_games(GAME_NAMES[0], 500, "big")
    with big.open("w") as out:
        while out.tell() < 50 * 1024 * 1024:
            out.write("\n".join(lines) + "\n")
    size = big.stat().st_size / 1024 / 1024
    peak, cpu = peak_memory_mb([*REFEREE, "validate", "-q", str(big)])
    return (
        f"A {size:.0f} MB JSONL of valid {GAME_NAMES[0]} games (500 distinct games repeated): "
        f"peak memory {peak:.0f} MB, {cpu:.1f} s of CPU (`referee validate -q`, one run)."
    )


def jobs(folder: Path, runs: int) -> str:
    many = folder / "many"
    many.mkdir()
    lines = random_games(GAME_NAMES[0], 20, "many")
    for i in range(200):
        (many / f"{i:03d}.jsonl").write_text("\n".join(lines) + "\n")
    timings: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(runs):
        for count in (1, 2):
            started = time.perf_counter()
            subprocess.run(
                [*REFEREE, "validate", "-q", "--jobs", str(count), str(many)],
                check=False,
                stdout=subprocess.DEVNULL,
                cwd=HOME,
                env=environment(),
            )
            timings[count].append(time.perf_counter() - started)
    gain = statistics.median(a / b for a, b in zip(timings[1], timings[2], strict=True))
    return (
        f"A folder of 200 files of 20 games, wall time (the point is the second core), "
        f"median and range of {runs} alternating runs: `--jobs 1` {spread(timings[1], 2)} s, "
        f"`--jobs 2` {spread(timings[2], 2)} s; `--jobs 1` over `--jobs 2`, run by run: "
        f"{gain:.2f} (median). On a machine busy with other work the second core is shared."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--moves",
        type=int,
        default=200_000,
        help="moves per game (and of chess) for speed: enough that one whole `referee"
        " validate` process takes over a second of CPU on the compiled build too",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=RUN_SECONDS,
        help="CPU seconds an in-process run takes at least, in whole passes over the file",
    )
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement")
    parser.add_argument("--no-jobs", action="store_true", help="skip --jobs 1 against 2")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        load = load_average()
        memory_line = memory(folder)
        parts = [speed(folder, args.moves, args.runs, args.seconds)]
        parts.insert(
            0,
            conditions(
                args.runs,
                load,
                "CPU time: of the process (`time.process_time`) in"
                " process, of the child (`getrusage`) as a whole process",
            )
            + " One core.",
        )
        parts.append(memory_line)
        if not args.no_jobs:
            parts.append(jobs(folder, args.runs))
    finally:
        shutil.rmtree(folder)
    report(
        "validation",
        "Validation",
        ".venv/bin/python benchmarks/validate.py --write",
        "\n\n".join(parts),
        args.write,
    )


if __name__ == "__main__":
    main()
