"""Start-up of the `referee` command: the CPU time of whole processes, beside Python itself.

Each command runs 10 times as a fresh process; its CPU time (user + system, from
`resource.getrusage(RUSAGE_CHILDREN)`) is reported as the median and the range. The goal
(issue 17): each command within 0.25 s of CPU or within 3x `python -c "import pydantic,
typer"`, whichever is larger. Run it as `python benchmarks/startup.py [--write]`.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import cpu_model, report, table

RUNS = 10
GOAL_SECONDS = 0.25
GOAL_FACTOR = 3.0


def cpu_seconds(command: list[str]) -> float:
    """The user + system CPU time of one run of `command` and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def small_records(folder: Path) -> Path:
    """A small record file: one THAX game between two built-in bots."""
    referee = shutil.which("referee", path=str(Path(sys.executable).parent))
    assert referee is not None, "referee is not installed beside this Python"
    out = folder / "t"
    subprocess.run(
        [referee, "tournament", "run", "--game", "thax", "--bots", "random,greedy",
         "--games-per-pair", "2", "--out", str(out), "-q"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    return out / "games.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    python = sys.executable
    referee = str(Path(python).parent / "referee")
    with tempfile.TemporaryDirectory() as folder:
        small = small_records(Path(folder))
        commands = {
            "python -c pass": [python, "-c", "pass"],
            'python -c "import pydantic, typer"': [python, "-c", "import pydantic, typer"],
            "referee --help": [referee, "--help"],
            "referee moves --game takhteh --roll 31": [
                referee, "moves", "--game", "takhteh", "--roll", "31",
            ],
            "referee perft --game trax --depth 1": [
                referee, "perft", "--game", "trax", "--depth", "1",
            ],
            "referee validate small.jsonl (2 THAX games)": [referee, "validate", str(small)],
        }  # fmt: skip
        load_before = os.getloadavg()[0]
        times = {
            name: [cpu_seconds(command) for _ in range(RUNS)] for name, command in commands.items()
        }
        load_after = os.getloadavg()[0]
    base = statistics.median(times['python -c "import pydantic, typer"'])
    goal = max(GOAL_SECONDS, GOAL_FACTOR * base)
    rows = []
    for name, runs in times.items():
        median = statistics.median(runs)
        meets = "" if not name.startswith("referee") else ("yes" if median <= goal else "NO")
        rows.append([f"`{name}`", f"{median:.3f}", f"{min(runs):.3f}–{max(runs):.3f}", meets])
    text = "\n".join(
        [
            f"CPU time (user + system) of whole processes, median and range of {RUNS} runs, "
            f"on {os.cpu_count()} cores of an {cpu_model()}, Python "
            f"{sys.version.split()[0]}, load average {load_before:.1f} before and "
            f"{load_after:.1f} after. Goal: {GOAL_SECONDS} s or {GOAL_FACTOR:g}x `import "
            f"pydantic, typer` ({GOAL_FACTOR:g} x {base:.3f} s), whichever is larger: "
            f"{goal:.3f} s.",
            "",
            table(["command", "median CPU (s)", "range (s)", "meets the goal"], rows),
        ]
    )
    report("startup", "Start-up", "python benchmarks/startup.py --write", text, args.write)


if __name__ == "__main__":
    main()
