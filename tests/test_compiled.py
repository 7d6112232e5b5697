"""The optional compiled build (README.md, "Compiled engines"): built from this tree with the
build hook on, it runs its engines compiled and gives the answers of the pure package.

Slow: the build takes a minute and fetches its tools (hatch-mypyc, mypy) from the package
index."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent

COMPILED = ("takhteh", "trax", "thai")
"""The games whose modules pyproject.toml's build hook names, in the registry's order."""

COMPILED_BESIDE = ("referee/records/replay.py",)
"""The modules outside the games that the build hook names."""

PERFT = [("takhteh", 2, 401_032), ("trax", 4, 9_568), ("thai", 6, 218_695)]
"""Move-sequence counts from each game's start, as docs/benchmarks.md and the games' perft
tests give them."""


def _build(into: Path) -> Path:
    """The compiled wheel's files unpacked into `into`; the build runs on a copy of the package
    and its build files, so that no compiled module lands beside this tree's sources."""
    source = into / "source"
    shutil.copytree(
        ROOT / "referee",
        source / "referee",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    wheels = into / "wheels"
    pip = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-cache-dir"]
    subprocess.run(
        [*pip, "-w", str(wheels), str(source)],
        env={**os.environ, "HATCH_BUILD_HOOK_ENABLE_MYPYC": "1"},
        check=True,
        timeout=1200,
    )
    (wheel,) = wheels.glob("referee-*.whl")
    site = into / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def _referee(path: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`referee ARGS` run with the package found at `path` (first on the module path)."""
    return subprocess.run(
        [sys.executable, "-m", "referee", *args],
        env={**os.environ, "PYTHONPATH": str(path)},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _without_times(folder: Path) -> list[dict[str, object]]:
    """The records of a tournament folder, less what a clock decides (each move's time)."""
    records = []
    for line in (folder / "games.jsonl").read_text().splitlines():
        record = json.loads(line)
        for turn in record["turns"]:
            del turn["time_ms"]
        records.append(record)
    return records


def test_the_build_hook_names_modules_that_exist_and_the_games_this_test_expects() -> None:
    """The list the build compiles, read from pyproject.toml: a module renamed or moved would
    otherwise fail only in the slow test, or a game join the build unchecked."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    assert hook["enable-by-default"] is False
    for path in hook["include"]:
        assert (ROOT / path).is_file(), path
    games = {Path(path).parts[2] for path in hook["include"] if path.startswith("referee/games/")}
    assert games == set(COMPILED)
    beside = {path for path in hook["include"] if not path.startswith("referee/games/")}
    assert beside == set(COMPILED_BESIDE)


@pytest.mark.slow
def test_the_compiled_build_gives_the_answers_of_the_pure_package(tmp_path: Path) -> None:
    site = _build(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    compiled = {path.parent.name for path in site.glob("referee/games/*/*.cpython-*")}
    assert compiled == set(COMPILED)
    for module in COMPILED_BESIDE:
        assert list(site.glob(module.removesuffix(".py") + ".cpython-*")), module
    version = _referee(site, work, "--version")
    assert version.stdout.strip().endswith(f"engines compiled (mypyc): {', '.join(COMPILED)}")

    for game, depth, count in PERFT:
        result = _referee(site, work, "perft", "--game", game, "--depth", str(depth))
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines()[-1] == f"{depth}\t{count}", (game, result.stdout)

    for game in COMPILED:
        runs = {}
        for build, path in (("pure", ROOT), ("compiled", site)):
            folder = work / f"{game}-{build}"
            played = _referee(
                path,
                work,
                *("tournament", "run", "--out", str(folder), "--game", game),
                *("--bots", "random,greedy", "--games-per-pair", "20", "--seed", "7"),
            )
            assert played.returncode == 0, played.stderr
            checked = _referee(path, work, "validate", str(folder / "games.jsonl"))
            assert checked.returncode == 0, checked.stdout + checked.stderr
            runs[build] = _without_times(folder)
        assert len(runs["pure"]) == 20
        assert runs["compiled"] == runs["pure"], game
