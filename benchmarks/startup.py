"""Start-up of the `referee` command: the CPU time of whole processes, beside Python itself,
and beside another checkout of referee when one is given.

Each command runs `--runs` times as a fresh process, the commands taking turns; its CPU time
(user + system, from `resource.getrusage(RUSAGE_CHILDREN)`) is reported as the median and the
range. The goal (issue 17): each command within 0.25 s of CPU or within 3x `python -c "import
pydantic, typer"`, whichever is larger. With `--baseline DIR` (a checkout of the code before a
change, e.g. `git worktree add /tmp/before main`) each `referee` command also runs with DIR's
`referee` package first on the path, its runs alternating with this checkout's.

Run: .venv/bin/python benchmarks/startup.py [--runs 10] [--baseline DIR] [--write]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import installed_environment, load_average, machine, report, spread, table

GOAL_SECONDS = 0.25
GOAL_FACTOR = 3.0


def child_cpu(command: list[str], folder: Path, env: dict[str, str]) -> float:
    """The user + system CPU time of one run of `command` and its children. The command runs
    in `folder`, so that the current directory puts no checkout on the path."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        command,
        check=True,
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def small_records(referee: str, folder: Path) -> Path:
    """A small record file: the two games of a THAX pairing of two built-in bots."""
    out = folder / "t"
    subprocess.run(
        [referee, "tournament", "run", "--game", "thax", "--bots", "random,greedy",
         "--games-per-pair", "2", "--out", str(out), "-q"],
        check=True, cwd=folder, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    return out / "games.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10, help="runs of each command")
    parser.add_argument("--baseline", type=Path, help="a checkout of referee to compare with")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    python = sys.executable
    referee = str(Path(python).parent / "referee")
    checkouts = [Path(__file__).resolve().parents[1]]
    if args.baseline is not None:
        if not (args.baseline / "referee" / "cli" / "app.py").is_file():
            raise SystemExit(f"{args.baseline}: not a checkout of referee (no referee/cli/app.py)")
        checkouts.append(args.baseline.resolve())
    ours = installed_environment(*checkouts)
    ours.pop("PYTHONPATH", None)
    theirs = None
    if args.baseline is not None:
        theirs = {**ours, "PYTHONPATH": str(args.baseline.resolve())}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        small = small_records(referee, folder)
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
        load_before = load_average()
        times: dict[str, list[float]] = {name: [] for name in commands}
        before: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                times[name].append(child_cpu(command, folder, ours))
                if theirs is not None and name.startswith("referee"):
                    before[name].append(child_cpu(command, folder, theirs))
        load_after = load_average()
    base = statistics.median(times['python -c "import pydantic, typer"'])
    goal = max(GOAL_SECONDS, GOAL_FACTOR * base)
    rows = []
    for name, runs in times.items():
        meets = ""
        if name.startswith("referee"):
            meets = "yes" if statistics.median(runs) <= goal else "NO"
        row = [f"`{name}`", spread(runs, 3)]
        if theirs is not None:
            row.append(spread(before[name], 3) if before[name] else "")
        rows.append([*row, meets])
    headers = ["command", "CPU s, median (range)"]
    if theirs is not None:
        headers.append(f"baseline ({args.baseline}), CPU s")
    text = "\n".join(
        [
            f"CPU time (user + system) of whole processes, median and range of {args.runs} "
            f"runs, the commands taking turns; {machine()}; load average {load_before} before "
            f"and {load_after} after. Goal: {GOAL_SECONDS} s or {GOAL_FACTOR:g}x `import "
            f"pydantic, typer` ({GOAL_FACTOR:g} x {base:.3f} s), whichever is larger: "
            f"{goal:.3f} s.",
            "",
            table([*headers, "meets the goal"], rows),
        ]
    )
    report(
        "startup", "Start-up", ".venv/bin/python benchmarks/startup.py --write", text, args.write
    )


if __name__ == "__main__":
    main()
