"""Durability and scale-out: a killed runner loses no finished game and resumes to the same
games; a Dask cluster plays the same games as the process pool (issue 7)."""

from __future__ import annotations

import gc
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.tournament.config import BotEntry, ConfigError, build_config
from referee.tournament.executors import dask_executors, process_pool
from referee.tournament.runner import run_tournament
from tests.players.helpers import alive, children
from tests.tournament.helpers import stored_games

GAMES = 200


def command(out: Path, resume: bool) -> list[str]:
    base = [sys.executable, "-m", "referee", "tournament"]
    if resume:
        return [*base, "resume", str(out), "-q", "--concurrency", "2"]
    return [
        *base,
        "run",
        "--game",
        "thax",
        "--bots",
        "random,greedy",
        "--games-per-pair",
        str(GAMES),
        "--seed",
        "42",
        "--out",
        str(out),
        "-q",
        "--concurrency",
        "2",
    ]


def stored_lines(directory: Path) -> int:
    games_file = directory / "games.jsonl"
    return games_file.read_bytes().count(b"\n") if games_file.exists() else 0


@pytest.mark.parametrize(
    "kills",
    [pytest.param(4, id="4 kills"), pytest.param(10, id="10 kills", marks=pytest.mark.slow)],
)
def test_sigkill_at_random_moments_then_resume_gives_the_uninterrupted_games(
    tmp_path: Path, kills: int
) -> None:
    """Kill moments are drawn as random numbers of stored games, so that every kill lands in
    the middle of the run however fast or loaded the machine is. No game stored at a kill is
    lost or moved (the file only grows), none is stored twice, and the games are those of a
    run never killed."""
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    subprocess.run(command(whole, resume=False), check=True, capture_output=True)
    rng = random.Random(5)
    targets = sorted(rng.sample(range(1, GAMES), kills))
    stored_at_kills: list[bytes] = []
    orphans: set[int] = set()
    for target in targets:
        resume = (killed / "tournament.json").exists()
        process = subprocess.Popen(
            command(killed, resume), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        while process.poll() is None and stored_lines(killed) < target:
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.01))
        workers = children(process.pid)
        process.send_signal(signal.SIGKILL)
        process.wait()
        text = (killed / "games.jsonl").read_bytes()
        stored_at_kills.append(text[: text.rfind(b"\n") + 1])  # the whole lines: stored
        orphans.update(workers)
    subprocess.run(command(killed, resume=True), check=True, capture_output=True)
    assert any(0 < count < GAMES for count in map(lines_in, stored_at_kills)), stored_at_kills
    final = (killed / "games.jsonl").read_bytes()
    assert all(final.startswith(stored) for stored in stored_at_kills)
    stored = stored_games(killed)
    numbers = [game["event"]["game_number"] for game in stored]
    assert len(numbers) == len(set(numbers)) == GAMES
    assert stored == stored_games(whole)
    # The pool workers of a killed runner leave by themselves (they check every 0.5 s).
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in orphans) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert orphans and not [pid for pid in orphans if alive(pid)]


def lines_in(text: bytes) -> int:
    return text.count(b"\n")


def test_a_dask_local_cluster_plays_the_same_games_as_the_process_pool(tmp_path: Path) -> None:
    config = build_config(
        game="thax",
        bots=[BotEntry(name=name, spec=name) for name in ("random", "greedy")],
        games_per_pair=20,
        seed="dask",
    )
    run_tournament(tmp_path / "pool", config, concurrency=2)
    with dask_executors("local", 2) as factory:
        run_tournament(tmp_path / "dask", config, concurrency=2, executor_factory=factory)

    assert stored_games(tmp_path / "dask") == stored_games(tmp_path / "pool")


@pytest.mark.parametrize("address", ["", "tcp://host", "foo://host:8786", "\udcff"])
def test_a_dask_address_that_is_none_is_a_configuration_error(address: str) -> None:
    """Dask refuses these with a ValueError before it tries to connect (issue 31's fuzzing
    found the traceback)."""
    with pytest.raises(ConfigError, match="is no scheduler address"), dask_executors(address, 1):
        pass


def test_the_same_configuration_twice_gives_the_same_file_but_for_times(tmp_path):
    """Acceptance (issue 19): the tournament id comes from the configuration and seed, not
    the clock, so two runs give games.jsonl files equal byte for byte once the per-move
    times are taken out (`cmp`); the start time stays in tournament.json."""
    import json
    import subprocess

    from typer.testing import CliRunner

    from referee.cli.app import app

    files = []
    for name in ("first", "second"):
        out = tmp_path / name
        run = ["tournament", "run", "--out", str(out), "--game", "thai", "--seed", "5"]
        result = CliRunner().invoke(
            app, [*run, "--bots", "random,greedy", "--games-per-pair", "2", "-q"]
        )
        assert result.exit_code == 0, result.output
        stripped = tmp_path / f"{name}.jsonl"
        lines = []
        for line in (out / "games.jsonl").read_text().splitlines():
            data = json.loads(line)
            for turn in data["turns"]:
                turn.pop("time_ms", None)
            lines.append(json.dumps(data))
        stripped.write_text("\n".join(lines) + "\n")
        files.append(stripped)
        assert json.loads((out / "tournament.json").read_text())["created"]
    assert subprocess.run(["cmp", *map(str, files)], check=False).returncode == 0
    other = tmp_path / "other"
    run = ["tournament", "run", "--out", str(other), "--game", "thai", "--seed", "6"]
    CliRunner().invoke(app, [*run, "--bots", "random,greedy", "--games-per-pair", "2", "-q"])
    ids = {json.loads(line)["event"]["tournament"] for line in (other / "games.jsonl").open()}
    assert ids.isdisjoint({json.loads(files[0].read_text().splitlines()[0])["event"]["tournament"]})


def _frozen_in_worker() -> int:
    return gc.get_freeze_count()


def test_a_pool_worker_keeps_what_it_inherits_out_of_the_collectors_passes() -> None:
    """The objects a worker starts with (the runner's, inherited) are frozen: the games'
    collections do not walk them again and again."""
    with process_pool(1)() as pool:
        assert pool.submit(_frozen_in_worker).result(timeout=60) > 1000
