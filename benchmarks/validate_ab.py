"""Validation against an earlier version, side by side in one process: moves per CPU second of
this checkout over those of a baseline checkout, per game.

Run: taskset -c 0 .venv/bin/python benchmarks/validate_ab.py --baseline DIR [--write]
(DIR a checkout of referee, e.g. `git worktree add /tmp/base 9795b47`; a checkout from before
every package had its `__init__.py` needs an empty `referee/__init__.py` added, or this
checkout's package is imported in its place, which the script refuses).

Separate processes differ by up to a third on a shared machine, more than the few per cent a
change of the engines makes, so both versions are loaded into this one process (each
package's modules kept aside and put back in `sys.modules` for its turn) and measured in
pairs: the games' file is cut into chunks, and a round validates chunk after chunk with one
version and then the other, the order alternating round by round, with the engines' memo
caches emptied before each, until each version has taken a second of CPU (a chunk takes
hundredths of one), once each version has validated a chunk unmeasured (what it imports or
builds at first use). The figure is the median, quartiles and range of the rounds' ratios; a ratio
above 1 is this checkout faster. The records are random games of this checkout's `random`
bot, which both versions read (record format 1).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from common import RUN_SECONDS, conditions, empty_caches, load_average, report, table
from validate import random_games

from referee.games import GAME_NAMES

HERE = Path(__file__).resolve().parent.parent
Version = tuple[dict[str, ModuleType], Callable[[Path], Any]]
"""A version's modules and its `validate_file`."""


def _ours() -> dict[str, ModuleType]:
    return {n: m for n, m in sys.modules.items() if n == "referee" or n.startswith("referee.")}


def _load(root: Path) -> Version:
    """The referee package of `root`, imported afresh: its modules and its `validate_file`."""
    for name in _ours():
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        import referee
        from referee.validator.check import validate_file

        if [Path(p).resolve() for p in referee.__path__] != [root / "referee"]:
            raise SystemExit(f"{root}: its referee package was not the one imported")
    finally:
        sys.path.remove(str(root))
    return _ours(), validate_file


def _validated(version: Version, path: Path) -> tuple[int, float]:
    """The moves of the file validated by `version` and the CPU seconds it took, the engines'
    memo caches emptied first."""
    modules, validate_file = version
    for name in _ours():
        del sys.modules[name]
    sys.modules.update(modules)
    empty_caches()
    start = time.process_time()
    reports = list(validate_file(path))
    seconds = time.process_time() - start
    # Modules imported at first use (a game's engine) are the version's from now on: else the
    # next swap would drop them and the next run import them again.
    modules.update(_ours())
    invalid = [r for r in reports if not r.valid]
    if invalid:
        raise SystemExit(f"{path}: a game did not validate: {invalid[0]}")
    return sum(r.turns for r in reports), seconds


def paired_round(
    versions: dict[str, Version], order: tuple[str, str], paths: list[Path], first: int
) -> tuple[dict[str, float], int]:
    """One round: chunk after chunk from `paths[first]` on (round the list), each validated by
    both versions in `order`, until each version has taken RUN_SECONDS of CPU; each version's
    moves per CPU second over the round, and the chunks it took."""
    moves = dict.fromkeys(order, 0)
    seconds = dict.fromkeys(order, 0.0)
    taken = 0
    while min(seconds.values()) < RUN_SECONDS:
        path = paths[(first + taken) % len(paths)]
        for version in order:
            done, spent = _validated(versions[version], path)
            moves[version] += done
            seconds[version] += spent
        taken += 1
    return {version: moves[version] / seconds[version] for version in order}, taken


def compare(
    baseline: Path, label: str, names: list[str], games: int, rounds: int, chunk: int
) -> str:
    folder = Path(tempfile.mkdtemp(prefix="referee-ab-"))
    chunks: dict[str, list[Path]] = {}
    for name in names:
        lines = random_games(name, games)
        chunks[name] = []
        for first in range(0, len(lines), chunk):
            path = folder / f"{name}-{first}.jsonl"
            path.write_text("\n".join(lines[first : first + chunk]) + "\n")
            chunks[name].append(path)
    versions = {"baseline": _load(baseline), "this": _load(HERE)}
    before = load_average()
    rows = []
    for name in names:
        for version in versions.values():  # what a version imports or builds at first use
            _validated(version, chunks[name][0])
        rates: dict[str, list[float]] = {"baseline": [], "this": []}
        ratios = []
        taken, counts = 0, []
        for turn in range(rounds):
            order = ("baseline", "this") if turn % 2 == 0 else ("this", "baseline")
            got, count = paired_round(versions, order, chunks[name], taken)
            taken += count
            counts.append(count)
            for version, rate in got.items():
                rates[version].append(rate)
            ratios.append(got["this"] / got["baseline"])
        ratios.sort()
        quarter = len(ratios) // 4
        rows.append(
            [
                name,
                f"{statistics.median(rates['baseline']):,.0f}",
                f"{statistics.median(rates['this']):,.0f}",
                f"**{statistics.median(ratios):.3f}**",
                f"{ratios[quarter]:.3f}-{ratios[-quarter - 1]:.3f}",
                f"{ratios[0]:.3f}-{ratios[-1]:.3f}",
                f"{min(counts):,}",
            ]
        )
        print(rows[-1], file=sys.stderr)
    return "\n\n".join(
        [
            conditions(
                rounds, before, "CPU time of each version's validation (`time.process_time`)"
            )
            + f" Pinned to one core; {games} random games a game, in chunks of {chunk}; a run"
            " is a round: chunk after chunk (round the file), each validated by both versions"
            " in turn, the engines' memo caches emptied before each, until each version has"
            f" taken {RUN_SECONDS:g} s of CPU; the versions' order alternates round by round."
            f" Baseline: {label}.",
            table(
                [
                    "game",
                    "baseline moves/s",
                    "this checkout moves/s",
                    "this / baseline, median of rounds",
                    "quartiles",
                    "range",
                    "chunks a round, at least",
                ],
                rows,
            ),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout of referee")
    parser.add_argument("--label", help="what the baseline is, for the text (default: DIR)")
    parser.add_argument("--game", action="append", choices=GAME_NAMES, help="only these games")
    parser.add_argument("--games", type=int, default=300, help="random games per game")
    parser.add_argument("--rounds", type=int, default=10, help="paired rounds per game")
    parser.add_argument("--chunk", type=int, default=50, help="games a chunk holds")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    baseline = args.baseline.resolve()
    if not (baseline / "referee" / "validator" / "check.py").is_file():
        raise SystemExit(f"{baseline}: not a checkout of referee (no referee/validator/check.py)")
    label = args.label or str(baseline)
    names = args.game or list(GAME_NAMES)
    text = compare(baseline, label, names, args.games, args.rounds, args.chunk)
    script = (
        "taskset -c 0 .venv/bin/python benchmarks/validate_ab.py "
        "--baseline DIR --label TEXT --write"
    )
    report("validation-ab", "Validation against an earlier version", script, text, args.write)


if __name__ == "__main__":
    main()
