"""What an external bot costs the referee per move (issue 18): the CPU time of the referee's own
process (every thread: the game loop, the protocol, the stderr reader) for games between two
programs that answer at once, less the same games between two built-in bots that play the
same moves, divided by the moves. The bots' own CPU is not counted.

Modes, run in turn within each run so that the load falls on all alike:
- `builtin`: two built-in bots playing the first legal move (the games' own cost);
- `v1-restart`: protocol version 1 and a new process every 8 games, as a worker did before
  issue 18 (a process per batch of games);
- `v1`: protocol version 1, one process for all the games (the whole game in every position);
- `v2`: protocol version 2, one process for all the games (only the new turns);
- `v2-own`: the same, for a program with its own engine that asks for positions without the
  list of legal moves (its move is then read by the game's notation).
A bare JSON-lines round trip to a Python child (`ping`) is the floor.

In a run, each game and mode plays the same `--games` games over and over (whole rounds, so
that every mode plays the same moves) until they have taken `--seconds` of the referee's CPU,
and the floor makes round trips until they have: 40 games between built-in bots take a
twentieth of a second, a timing mostly of the noise of the clock and the scheduler.

Run: .venv/bin/python benchmarks/external.py [--write] [--runs 5] [--games 40] [--seconds 1]
[--before DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from common import RUN_SECONDS, machine, report, span, table

from referee.games import get_game
from referee.games.agent import Bot
from referee.games.base import State
from referee.players.external import JsonLineBot, Limits
from referee.players.process import BotLog, BotProcess, Launch
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game

BOT = """
import json, sys
version, own = int(sys.argv[1]), sys.argv[2:] == ["own"]
out = sys.stdout
if own:
    from referee.games import get_game


def rolled(state, text):
    # A first turn without its roll (Takhteh's opening roll): the roll its move plays.
    for a in range(1, 7):
        for b in range(1, 7):
            try:
                after = state.apply_chance((a, b))
                return after.play(game.parse_move(after, text))
            except Exception:
                pass
    raise ValueError(text)


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        hello = {"type": "hello", "protocol_version": version}
        if own:
            hello["legal"] = False
        out.write(json.dumps(hello) + "\\n")
    elif kind == "new_game" and own:
        game, seat, state = get_game(message["game"]), message["seat"], None
        ruleset = game.parse_ruleset(message["ruleset"])
    elif kind == "position" and own:
        for turn in message["turns"]:
            if state is None:
                state = game.initial_state(ruleset, None, turn["seat"])
            if "roll" in turn:
                state = state.apply_chance(tuple(turn["roll"]))
            if state.is_chance():
                state = rolled(state, turn["move"])
            else:
                state = state.play(game.parse_move(state, turn["move"]))
        if state is None:
            state = game.initial_state(ruleset, None, seat)
        ahead = state.apply_chance(tuple(message["roll"])) if "roll" in message else state
        move = game.format_move(ahead, ahead.legal_moves()[0])
        out.write(json.dumps({"type": "move", "move": move}) + "\\n")
    elif kind == "position":
        out.write(json.dumps({"type": "move", "move": message["legal"][0]}) + "\\n")
    elif kind == "ping":
        out.write(line)
    elif kind == "quit":
        break
    out.flush()
"""
"""A program that answers at once with the first legal move: the one listed first, or (`own`)
the first its own engine finds, with positions that list no legal moves."""
RESTART_EVERY = 8
GAMES = ("thax", "takhteh")
MODES = ("builtin", "v1-restart", "v1", "v2", "v2-own")
PINGS = 500
"""The round trips to the floor's child between two looks at the clock."""


class FirstMove(Bot):
    """Plays the first legal move: the moves the program plays, without a program."""

    name = "first"

    def choose(self, state: State, history: Sequence[Any] = ()) -> Any:
        return state.legal_moves()[0]


def launch(version: int, *options: str) -> Launch:
    return Launch(command=(sys.executable, "-c", BOT, str(version), *options), cwd=os.getcwd())


def program(mode: str) -> JsonLineBot:
    version, _, option = mode.removeprefix("v").partition("-")
    options = ("own",) if option == "own" else ()
    return JsonLineBot(launch(int(version), *options), Limits(move_seconds=60.0), BotLog(None))


def play(game_name: str, mode: str, games: int, seconds: float) -> tuple[int, int, float, float]:
    """Games, moves, referee CPU seconds and wall seconds of `games` games in `mode`, played
    over and over until they have taken `seconds` of the referee's CPU."""
    game = get_game(game_name)
    ruleset = game.ruleset()
    players = [Player(name="a", kind="bot", spec="first"), Player(name="b", kind="bot")]
    pair: list[Bot] = (
        [FirstMove(), FirstMove()] if mode == "builtin" else [program(mode), program(mode)]
    )
    played = moves = 0
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        while time.process_time() - cpu < seconds:
            for number in range(games):
                if mode == "v1-restart" and played % RESTART_EVERY == 0:
                    for bot in pair:
                        bot.close()
                record = play_game(GameSetup(game, ruleset, players, f"bench/{number}"), pair)
                reason = record.result.reason.value if record.result is not None else None
                assert reason in ("rules", "adjudicated"), record.result
                played += 1
                moves += len(record.turns)
    finally:
        for bot in pair:
            bot.close()
    return played, moves, time.process_time() - cpu, time.perf_counter() - wall


def ping_ms(seconds: float) -> tuple[float, int]:
    """Referee CPU ms of a bare JSON-lines round trip to a Python child, and the round trips
    made: as many as take `seconds` of the referee's CPU."""
    process = BotProcess(launch(1), BotLog(None))
    try:
        count, cpu = 0, time.process_time()
        while time.process_time() - cpu < seconds:
            for _ in range(PINGS):
                process.send('{"type": "ping"}')
                assert process.receive(time.perf_counter() + 10, "ping") is not None
            count += PINGS
        return (time.process_time() - cpu) / count * 1000, count
    finally:
        process.close()


def spread(values: list[float], digits: int = 3) -> str:
    return (
        f"{statistics.median(values):.{digits}f} "
        f"({min(values):.{digits}f}-{max(values):.{digits}f})"
    )


Played = dict[str, dict[str, tuple[int, int, float, float]]]
"""Games, moves, referee CPU seconds and wall seconds, by game and mode."""


def one_run(games: int, seconds: float, modes: Sequence[str], say: Callable[[str], None]) -> Played:
    played: Played = {}
    for game_name in GAMES:
        for mode in modes:
            result = play(game_name, mode, games, seconds)
            played.setdefault(game_name, {})[mode] = result
            say(f"{game_name} {mode}: {result[0]} games, {result[1]} moves, {result[2]:.3f} s CPU")
    return played


def run_before(code: str, games: int, seconds: float, say: Callable[[str], None]) -> Played:
    """One run of the modes version 1 has, in a child process importing referee from `code`
    (a checkout of the code before issue 18)."""
    command = [
        sys.executable,
        __file__,
        "--json",
        f"--games={games}",
        f"--seconds={seconds}",
        "--modes",
        ",".join(BEFORE),
    ]
    environment = {**os.environ, "PYTHONPATH": code}
    done = subprocess.run(command, env=environment, capture_output=True, text=True, cwd=code)
    if done.returncode != 0:
        raise SystemExit(f"the run before failed: {done.stderr.strip()[-500:]}")
    say(f"before: {done.stdout.strip()}")
    return {
        game: {m: (r[0], r[1], r[2], r[3]) for m, r in by.items()}
        for game, by in json.loads(done.stdout).items()
    }


BEFORE = ("builtin", "v1-restart", "v1")


def measure(
    runs: int,
    games: int,
    seconds: float,
    modes: Sequence[str],
    before: str | None,
    say: Callable[[str], None],
) -> str:
    cpu: dict[tuple[str, str], list[float]] = {}
    wall: dict[tuple[str, str], list[float]] = {}
    extra: dict[tuple[str, str], list[float]] = {}
    held: dict[tuple[str, str], list[int]] = {}
    pings: list[float] = []
    trips: list[int] = []
    loads = [os.getloadavg()[0]]
    for _run in range(runs):
        ping, count = ping_ms(seconds)
        pings.append(ping)
        trips.append(count)
        labelled = [("", one_run(games, seconds, modes, say))]
        if before is not None:
            labelled.append(("before: ", run_before(before, games, seconds, say)))
        for label, played in labelled:
            for game_name, by_mode in played.items():
                baseline = by_mode.get("builtin")
                for mode, (played_games, moves, used, elapsed) in by_mode.items():
                    key = (game_name, label + mode)
                    if baseline is not None and mode != "builtin":
                        # Whole rounds of the same games: the same moves a game.
                        assert baseline[1] * played_games == moves * baseline[0], (
                            "not the same games"
                        )
                        overhead = (used / moves - baseline[2] / baseline[1]) * 1000
                        extra.setdefault(key, []).append(overhead)
                    held.setdefault(key, []).append(played_games)
                    cpu.setdefault(key, []).append(used / moves * 1000)
                    wall.setdefault(key, []).append(elapsed / moves * 1000)
        loads.append(os.getloadavg()[0])
    rows = [
        [
            game_name,
            mode,
            span(held[game_name, mode]),
            spread(cpu[game_name, mode]),
            spread(extra[game_name, mode]) if (game_name, mode) in extra else "-",
            spread(wall[game_name, mode]),
        ]
        for game_name, mode in sorted(
            cpu, key=lambda key: (GAMES.index(key[0]), not key[1].startswith("before"))
        )
    ]
    headers = [
        "game",
        "mode",
        "games a run",
        "referee CPU ms/move",
        "overhead ms/move (less builtin)",
        "wall ms/move",
    ]
    code = ""
    if before is not None:
        code = (
            " `before:` rows: the same script run in a child process on the code before "
            f"issue 18 ({before_commit(before)}), alternating with the rows of this code "
            "(DIR: `git archive 9795b47 | tar -x -C DIR; echo 9795b47 > DIR/COMMIT`)."
        )
    return "\n".join(
        [
            f"Machine: {machine()}; load average {min(loads):.1f}-{max(loads):.1f} (1 min) "
            f"during the runs. Median (range) of {runs} runs, modes alternating within each "
            f"run; in a run each game and mode plays the same {games} games over and over, "
            f"until they have taken {seconds:g} s of the referee's CPU (so a run holds a "
            f"multiple of {games} games: `games a run`); a bot playing the first legal move "
            f"({RESTART_EVERY} games per process in `v1-restart`).{code}",
            "",
            table(headers, rows),
            "",
            f"Floor: a bare JSON-lines round trip to a Python child costs the referee "
            f"{spread(pings)} ms CPU ({span(trips)} round trips a run, as many as took "
            f"{seconds:g} s of its CPU).",
            "",
            "The overhead is what a program costs the referee beyond the game itself: the "
            "position written (version 1: the whole game each time), the answer read and "
            "checked, and in `v1-restart` a process started every 8 games. Listing the legal "
            "moves is most of the rest in Takhteh (about 16 a position, each written by the "
            "game's notation): `v2-own` leaves the list out.",
        ]
    )


def before_commit(code: str) -> str:
    marker = Path(code) / "COMMIT"
    return marker.read_text().strip() if marker.exists() else code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--games", type=int, default=40, help="games per game and mode, played over and over"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=RUN_SECONDS,
        help="referee CPU seconds that each game and mode, and the floor, take at least in a run",
    )
    parser.add_argument("--modes", default=",".join(MODES), help="of " + ",".join(MODES))
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="a checkout of the code before issue 18 (`git archive 9795b47 | tar -x -C DIR`), "
        "measured in turn with this code; a COMMIT file there names it in the table",
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    modes = [mode for mode in args.modes.split(",") if mode]
    say = lambda line: print(line, file=sys.stderr)  # noqa: E731
    if args.json:  # one run for --before, in the child process
        print(json.dumps(one_run(args.games, args.seconds, modes, say)))
        return
    text = measure(args.runs, args.games, args.seconds, modes, args.before, say)
    report(
        "external",
        "External bots: the referee's CPU per move",
        ".venv/bin/python benchmarks/external.py --write --before DIR"
        if args.before
        else ".venv/bin/python benchmarks/external.py --write",
        text,
        args.write,
    )


if __name__ == "__main__":
    main()
