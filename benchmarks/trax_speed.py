"""Trax engine speed: `python benchmarks/trax_speed.py` (median and fastest of 5 runs, and the
median in CPU time, which a machine busy with other work disturbs less).

- perft 5: move sequences of depth 5 from the empty board (246,888);
- replay: parse and play every move of the real games in tests/fixtures (engine only);
- validate: JSONL line -> record -> validator report, for the real games and for 300 random
  games (the whole path of `referee validate` but the file reading);
- legal moves: `legal_moves()` of every position of 300 random games.
"""

from __future__ import annotations

import csv
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from referee.games.base import perft_counts
from referee.games.trax import GAME, TraxState
from referee.records.io import parse_record_json, record_to_json
from referee.records.model import Player, TraxRecord, Turn
from referee.records.replay import result_of
from referee.validator.check import validate_record

FIXTURE = Path(__file__).parents[1] / "tests" / "fixtures" / "trax" / "commented-games.tsv"
RUNS = 5


def timed(work: Callable[[], object]) -> tuple[float, float, float]:
    """Median and fastest wall time, and median CPU time, of RUNS runs."""
    times, cpu = [], []
    for _ in range(RUNS):
        started, used = time.perf_counter(), time.process_time()
        work()
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    return statistics.median(times), min(times), statistics.median(cpu)


def real_games() -> list[tuple[str, list[str]]]:
    games = []
    with FIXTURE.open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream, delimiter="\t"):
            if not row["expected"].startswith("illegal"):
                moves = [t for t in row["moves"].split() if t.lower() != "resign"]
                games.append((row["variant"], moves))
    return games


def random_games(count: int) -> list[tuple[str, list[str]]]:
    rng = random.Random(1)
    games = []
    for index in range(count):
        variant = GAME.variants[index % 3]
        state = GAME.initial_state(GAME.ruleset(variant))
        moves = []
        while not state.is_terminal() and len(moves) < 400:
            move = rng.choice(state.legal_moves())
            moves.append(GAME.format_move(state, move))
            state = state.play(move)
        games.append((variant, moves))
    return games


def jsonl(games: list[tuple[str, list[str]]]) -> list[str]:
    """The games as JSONL records, with the result the rules give them."""
    players = [Player(name="White"), Player(name="Black")]
    lines = []
    for variant, moves in games:
        state = GAME.initial_state(GAME.ruleset(variant))
        for move in moves:
            state = state.play(GAME.parse_move(state, move))
        outcome = state.outcome()
        record = TraxRecord(
            game="trax",
            ruleset=f"trax/{variant}@1",
            players=players,
            turns=[Turn(seat=i % 2, move=m) for i, m in enumerate(moves)],  # type: ignore[arg-type]
            result=None if outcome is None else result_of(outcome),
        )
        lines.append(record_to_json(record))
    return lines


def replay(games: list[tuple[str, list[str]]]) -> None:
    for variant, moves in games:
        state = GAME.initial_state(GAME.ruleset(variant))
        for move in moves:
            state = state.play(GAME.parse_move(state, move))


def validate(lines: list[str]) -> None:
    for line in lines:
        assert validate_record(parse_record_json(line), "bench", 1).valid


def positions(games: list[tuple[str, list[str]]]) -> list[TraxState]:
    found = []
    for variant, moves in games:
        state = GAME.initial_state(GAME.ruleset(variant))
        for move in moves:
            found.append(state)
            state = state.play(GAME.parse_move(state, move))
    return found


def main() -> None:
    real, rand = real_games(), random_games(300)
    rows: list[tuple[str, float, float, float, str]] = []
    median, fastest, cpu = timed(lambda: perft_counts(GAME.initial_state(GAME.ruleset()), 5))
    rows.append(("perft 5 (246,888 sequences)", median, fastest, cpu, "s"))
    for name, games in (("real games", real), ("random games", rand)):
        moves = sum(len(m) for _, m in games)
        median, fastest, cpu = timed(lambda games=games: replay(games))
        rows.append(
            (
                f"replay {name} ({moves} moves)",
                moves / median,
                moves / fastest,
                moves / cpu,
                "moves/s",
            )
        )
        lines = jsonl(games)
        median, fastest, cpu = timed(lambda lines=lines: validate(lines))
        rows.append(
            (f"validate {name} from JSONL", moves / median, moves / fastest, moves / cpu, "moves/s")
        )
    states = [s for s in positions(rand) if not s.is_terminal()]
    median, fastest, cpu = timed(lambda: [s.legal_moves() for s in states])
    count = len(states)
    rows.append(
        (
            f"legal_moves ({count} positions)",
            count / median,
            count / fastest,
            count / cpu,
            "positions/s",
        )
    )
    print("| what | median | fastest | median (CPU) | unit |")
    print("| :--- | ---: | ---: | ---: | :--- |")
    for name, median, fastest, cpu, unit in rows:
        print(f"| {name} | {median:,.2f} | {fastest:,.2f} | {cpu:,.2f} | {unit} |")


if __name__ == "__main__":
    main()
