"""Validation against an earlier version, side by side in one process: moves per CPU second of
this checkout over those of a baseline checkout, per game.

Run: taskset -c 0 .venv/bin/python benchmarks/validate_ab.py --baseline DIR [--write]
(DIR a checkout of referee, e.g. `git worktree add /tmp/base 9795b47`; a checkout from before
every package had its `__init__.py` needs an empty `referee/__init__.py` added, or this
checkout's package is imported in its place, which the script refuses).

Separate processes differ by up to a third on a shared machine, more than the few per cent a
change of the engines makes, so both versions are loaded into this one process (each
package's modules kept aside and put back in `sys.modules` for its turn) and measured in
pairs: the games' file is cut into chunks, and each round validates one chunk with one
version and then the other, the order alternating, with the engines' memo caches emptied
before each, once each version has validated a chunk unmeasured (what it imports or builds
at first use). The figure is the median, quartiles and range of the rounds' ratios; a ratio
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

from common import conditions, empty_caches, load_average, report, table
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


def _moves_per_second(version: Version, path: Path) -> float:
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
    return sum(r.turns for r in reports) / seconds


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
            _moves_per_second(version, chunks[name][0])
        rates: dict[str, list[float]] = {"baseline": [], "this": []}
        ratios = []
        for turn in range(rounds):
            path = chunks[name][turn % len(chunks[name])]
            order = ("baseline", "this") if turn % 2 == 0 else ("this", "baseline")
            got = {version: _moves_per_second(versions[version], path) for version in order}
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
            ]
        )
        print(rows[-1], file=sys.stderr)
    return "\n\n".join(
        [
            conditions(rounds, before, "CPU time of each chunk's validation (`time.process_time`)")
            + f" Pinned to one core; {games} random games a game, in chunks of {chunk}; "
            f"baseline: {label}.",
            table(
                [
                    "game",
                    "baseline moves/s",
                    "this checkout moves/s",
                    "this / baseline, median of rounds",
                    "quartiles",
                    "range",
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
    parser.add_argument("--rounds", type=int, default=60, help="paired rounds per game")
    parser.add_argument("--chunk", type=int, default=50, help="games a round validates")
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
