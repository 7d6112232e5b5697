"""Tournament speed: games per second with built-in random bots per game at concurrency 1 and 2,
and the round-trip cost per move of an external bot (the example bot, JSON lines).

Run: .venv/bin/python benchmarks/tournament.py [--write]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from common import machine, median_seconds, report, table

from referee.games import GAME_NAMES
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament
from referee.tournament.store import TournamentStore

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "bots" / "random_bot.py"


def games_per_second(game: str, games: int, concurrency: int) -> float:
    config = build_config(
        game=game,
        bots=[BotEntry(name="a", spec="random"), BotEntry(name="b", spec="random")],
        games_per_pair=games,
    )

    def run() -> None:
        folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
        run_tournament(folder, config, concurrency=concurrency)
        shutil.rmtree(folder)

    return games / median_seconds(run, runs=3)


def round_trip_ms(games: int = 20) -> tuple[float, int]:
    """Per move: an external random bot against a built-in one, minus the built-in's cost."""

    def turns_and_time(second: BotEntry) -> tuple[int, float]:
        config = build_config(
            game="thax", bots=[BotEntry(name="a", spec="random"), second], games_per_pair=games
        )
        folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
        started = time.perf_counter()
        run_tournament(folder, config, concurrency=1)
        elapsed = time.perf_counter() - started
        records = TournamentStore(folder).records()
        moves = sum(1 for r in records for t in r.turns if r.players[t.seat].name == second.name)
        shutil.rmtree(folder)
        return moves, elapsed

    external = BotEntry(name="ext", command=[sys.executable, str(EXAMPLE)])
    moves, with_external = turns_and_time(external)
    _, built_in = turns_and_time(BotEntry(name="ext", spec="random"))
    return (with_external - built_in) / moves * 1000, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per measurement")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    rows = [
        [name, *(f"{games_per_second(name, args.games, c):,.0f}" for c in (1, 2))]
        for name in GAME_NAMES
    ]
    cost, moves = round_trip_ms()
    text = "\n\n".join(
        [
            f"Machine: {machine()}; median of 3 runs of {args.games} games of random bots, "
            "process pool, every game validated and stored.",
            table(["game", "games/s, concurrency 1", "games/s, concurrency 2"], rows),
            "Each worker replays the games it played to validate them (for random bots that "
            "costs about as much as playing) and the runner writes them to the file: with "
            "games of about a millisecond (THAX, Thai checkers) the runner's share of the two "
            "cores keeps concurrency 2 from doubling the rate.",
            f"External bot protocol: {cost:.3f} ms per move round trip (JSON lines, the "
            f"example bot in examples/bots/random_bot.py, {moves:,} moves).",
        ]
    )
    report(
        "tournaments",
        "Tournaments",
        ".venv/bin/python benchmarks/tournament.py --write",
        text,
        args.write,
    )


if __name__ == "__main__":
    main()
