"""Validation speed against python-chess reading PGN, per game, paired run by run: in process
(moves per CPU second on one core) and as whole processes (`referee validate -q FILE` against
`python benchmarks/anchors.py FILE.pgn`, their CPU time start-up included); memory on a 50 MB
file; --jobs 1 against --jobs 2 on many files.

Run: .venv/bin/python benchmarks/validate.py [--runs 5] [--moves 100000] [--write]
(not under `taskset`: the --jobs part wants both cores; the rest runs in one thread and counts
its own CPU time).

The records are distinct random games of each game's `random` bot, as many as make `--moves`
moves or more, made once into a temporary folder, and random chess games of up to 200 plies
as PGN, as many as make as many moves. Each run reads each file again and replays every game
from its start with the engines' notation caches emptied first, as a fresh `referee validate`
process would. In process, the file is read in ten slices of consecutive games (the caches
emptied before the first only: one pass over the file), each followed at once by a tenth of
the PGN games, so that both sides meet the same moments of a machine whose speed drifts; as
whole processes, each game's command is followed at once by the anchor's. The ratio is
taken run by run.
"""

from __future__ import annotations

import argparse
import functools
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from anchors import CHESS, chess_games, chess_read_file, chess_replay, missing, optional
from common import (
    conditions,
    cpu_seconds,
    empty_caches,
    installed_environment,
    load_average,
    measured_run,
    report,
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
    slice after the first goes on from where the one before left them (`paired`)."""
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


def paired(parts: list[Path], pgn_slices: list[list[str]]) -> tuple[float, float]:
    """The CPU seconds of one run of validating the file's slices, in order, as one file
    (the caches emptied before the first only), and of reading every PGN slice, the two
    taking turns slice by slice: on a shared machine whose speed drifts from second to
    second, both meet the same moments."""
    empty_caches()
    ours = theirs = 0.0
    for part, texts in zip(parts, pgn_slices, strict=True):
        ours += cpu_seconds(validate, part)
        theirs += cpu_seconds(chess_replay, texts)
    return ours, theirs


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


def speed(folder: Path, moves_wanted: int, runs: int) -> str:
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
        pgn += chess_games(chess, 20, len(pgn))
        chess_moves = chess_replay(pgn)
    pgn_path = folder / "chess.pgn"
    pgn_path.write_text("\n\n".join(pgn) + "\n")
    assert chess_read_file(str(pgn_path)) == chess_moves
    anchor_command = [sys.executable, str(Path(__file__).parent / "anchors.py"), str(pgn_path)]

    slices = {name: slice_file(paths[name], folder) for name in GAME_NAMES}
    pgn_slices = [pgn[i::SLICES] for i in range(SLICES)]
    rates: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    read: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    ratios: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    chess_rates: list[float] = []
    cli: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    cli_ratios: dict[str, list[float]] = {name: [] for name in GAME_NAMES}
    chess_cli: list[float] = []
    for _ in range(runs):
        for name in GAME_NAMES:
            ours, theirs = paired(slices[name], pgn_slices)
            rate = moves[name] / ours
            anchor = chess_moves / theirs
            rates[name].append(rate)
            chess_rates.append(anchor)
            ratios[name].append(rate / anchor)
            read[name].append(moves[name] / cpu_seconds(read_only, paths[name]))
            command = moves[name] / process_cpu([*REFEREE, "validate", "-q", str(paths[name])])
            anchor = chess_moves / process_cpu(anchor_command)
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
    ]
    anchor_rows = [
        [
            f"{len(pgn):,}",
            f"{chess_moves:,}",
            spread(chess_rates),
            spread(chess_cli),
        ]
    ]
    return (
        table(headers, rows)
        + f"\n\nThe anchor, in process a tenth of it after each of the {SLICES} slices of"
        " each game's file, as a whole process right after each game's command: random chess"
        " games of up to 200 plies as PGN text, read by `chess.pgn.read_game` (each SAN move"
        " parsed against its position's legal moves and played), in process and as a whole"
        " process (`python benchmarks/anchors.py FILE.pgn`),"
        f" {len(GAME_NAMES) * runs} runs of each:\n\n"
        + table(["games", "moves", "in process, moves/s", "whole process, moves/s"], anchor_rows)
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
        "--moves", type=int, default=100_000, help="moves per game (and of chess) for speed"
    )
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement")
    parser.add_argument("--no-jobs", action="store_true", help="skip --jobs 1 against 2")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        load = load_average()
        memory_line = memory(folder)
        parts = [speed(folder, args.moves, args.runs)]
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
