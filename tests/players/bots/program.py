"""A test program for either protocol that behaves as real engines do: it may need a data file
in its working folder, take seconds to start, flood info lines, write a lot on stderr, start a
child process or a daemon, and record its PIDs (and its child's, its daemon's, and when it has
moved) for the tests to look up.

    program.py json|trax [--data] [--sleep S] [--flood-after N] [--spew BYTES] [--pids DIR]
        [--daemon start|exit]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("protocol", choices=["json", "trax"])
parser.add_argument("--data", action="store_true", help="read data/book.txt, or exit 1")
parser.add_argument("--sleep", type=float, default=0.0, help="seconds of loading at start")
parser.add_argument("--flood-after", type=int, help="after N moves, write info lines forever")
parser.add_argument("--spew", type=int, default=0, help="bytes written on stderr at start")
parser.add_argument("--pids", help="a folder for files naming this PID and its child's")
parser.add_argument(
    "--daemon",
    choices=["start", "exit"],
    help="with --pids: also leave a daemon (setsid, double fork) as it starts, or as it exits",
)
parser.add_argument("--move-delay", type=float, default=0.0)
parser.add_argument("--team", default="Test Team")
options = parser.parse_args()


def start_daemon(folder: Path) -> None:
    """Detach a process as a daemon does (fork, setsid, fork again, the middle one exits; its
    standard streams on /dev/null), out of this program's group and session. It sleeps with
    `folder` on its command line, and names its PID in `daemon-<this PID>` before it starts."""
    bot = os.getpid()
    middle = os.fork()
    if middle == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for stream in (0, 1, 2):
                os.dup2(null, stream)
            (folder / f"new-daemon-{bot}").write_text(str(os.getpid()))
            (folder / f"new-daemon-{bot}").rename(folder / f"daemon-{bot}")
            sleep = [sys.executable, "-c", "import time; time.sleep(1000)", str(folder)]
            os.execv(sys.executable, sleep)
        os._exit(0)
    os.waitpid(middle, 0)
    while not (folder / f"daemon-{bot}").exists():
        time.sleep(0.005)


print("environment: " + " ".join(sorted(os.environ)), file=sys.stderr, flush=True)
if options.pids:
    child = subprocess.Popen(["sleep", "1000"])
    folder = Path(options.pids)
    if options.daemon == "start":
        start_daemon(folder)
    (folder / f"new-{os.getpid()}").write_text(str(child.pid))
    (folder / f"new-{os.getpid()}").rename(folder / f"bot-{os.getpid()}")  # whole or not at all
if options.data:
    try:
        Path("data/book.txt").read_text()
    except OSError:
        print(f"cannot open data/book.txt in {os.getcwd()}", file=sys.stderr, flush=True)
        sys.exit(1)
if options.spew:
    for _ in range(options.spew // 100):
        sys.stderr.write("e" * 99 + "\n")
    sys.stderr.flush()
if options.sleep:
    print("loading the opening book", file=sys.stderr, flush=True)
    time.sleep(options.sleep)
moves = 0


def send(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def move_made() -> None:
    """Count a move; after --flood-after moves, never answer again, only talk."""
    global moves
    moves += 1
    if options.pids and moves == 2:  # referee has read its first move
        (Path(options.pids) / f"moved-{os.getpid()}").touch()
    time.sleep(options.move_delay)
    if options.flood_after is not None and moves > options.flood_after:
        info = json.dumps({"type": "info", "depth": 1}) if options.protocol == "json" else "# d1"
        while True:
            send(info)


def leave() -> None:
    """Told to go (quit, or its input closed): with `--daemon exit`, leave a daemon behind."""
    if options.pids and options.daemon == "exit":
        start_daemon(Path(options.pids))


def play_json() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            send(json.dumps({"type": "hello", "name": "program", "protocol_version": 1}))
        elif message["type"] == "position":
            move_made()
            send(json.dumps({"type": "move", "move": message["legal"][0]}))
        elif message["type"] == "quit":
            break
    leave()


def play_trax() -> None:
    from referee.games.trax import GAME

    rng = random.Random(3)
    state = GAME.initial_state(GAME.ruleset())
    colour = sys.stdin.readline().strip()
    if colour == "-T":
        send(options.team)
        colour = sys.stdin.readline().strip()
    mine = colour == "-W"
    while True:
        if mine:
            move_made()
            move = rng.choice(state.legal_moves())
            send(GAME.format_move(state, move))
            state = state.play(move)
        else:
            line = sys.stdin.readline()
            if not line:
                leave()
                return
            state = state.play(GAME.parse_move(state, line.strip()))
        mine = not mine


if options.protocol == "json":
    play_json()
else:
    play_trax()
