"""Whatever a bot or the machine does (issue 16): time is time however much a bot talks, its
stderr log stays bounded, and no bot process nor a child it started, a daemon in a session of
its own included (issue 30), outlives the tournament, a killed runner, a killed worker or
Ctrl-C. The bots are real processes (tests/players/bots/program.py) that record their own
PIDs, their child's and their daemon's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.players.process import kill_orphans
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament
from tests.players.helpers import BOTS, alive, children
from tests.tournament.helpers import stored_records

PROGRAM = BOTS / "program.py"
GAME = {"json": "thax", "trax": "trax"}


def program(protocol: str, *options: str) -> BotEntry:
    command = [sys.executable, str(PROGRAM), protocol, *options]
    return BotEntry(name="program", command=command, protocol=protocol)


@pytest.mark.parametrize("protocol", ["json", "trax"])
def test_a_bot_flooding_info_lines_loses_on_time_within_its_limit_and_the_grace(
    tmp_path: Path, protocol: str
) -> None:
    config = build_config(
        game=GAME[protocol],
        bots=[BotEntry(name="random", spec="random"), program(protocol, "--flood-after", "2")],
        games_per_pair=2,
        time_limit=0.2,
    )
    started = time.monotonic()
    run_tournament(tmp_path, config)
    assert time.monotonic() - started < 60  # it used to hang forever
    for record in stored_records(tmp_path):
        result = record.result
        assert result is not None and result.reason.value == "time"
        assert [p.name for p in record.players][1 - result.winner] == "program"
        assert "no move within 200 ms (+100 ms)" in (result.detail or "")
    assert "info lines dropped" in (tmp_path / "logs" / "program.stderr.log").read_text()


def test_a_bot_spewing_stderr_leaves_a_log_no_longer_than_the_cap_and_a_note(
    tmp_path: Path,
) -> None:
    config = build_config(
        game="trax",  # a process per game: the cap holds over all of them
        bots=[BotEntry(name="random", spec="random"), program("trax", "--spew", "300000")],
        games_per_pair=2,
        log_limit_mb=0.25,
    )
    run_tournament(tmp_path, config)
    log = (tmp_path / "logs" / "program.stderr.log").read_bytes()
    limit = round(0.25 * (1 << 20))
    note = b"this log reached its limit of 262144 bytes"
    assert note in log and log.count(note) == 1
    assert limit < len(log) <= limit + 200
    assert log.startswith(b"environment: ")


def runner_command(out: Path, pids: Path, protocol: str = "json", *options: str) -> list[str]:
    bot = f"{sys.executable} {PROGRAM} {protocol} --pids {pids} --daemon start --move-delay 0.01"
    bot = " ".join([bot, *options])
    external = "program=" if protocol == "json" else "program@trax="
    return [
        *[sys.executable, "-m", "referee", "tournament", "run", "--game", GAME[protocol]],
        *["--bots", "random", "--external", external + bot, "--games-per-pair", "400"],
        *["--concurrency", "2", "-q", "--out", str(out)],
    ]


def recorded(pids: Path) -> set[int]:
    """Every bot's PID, its child's and its daemon's, as the bots wrote them, and any process
    still running with the folder on its command line (a daemon about to write its PID)."""
    found = set()
    for path in pids.glob("bot-*"):
        found.add(int(path.name.removeprefix("bot-")))
        found.add(int(path.read_text()))
    found.update(int(path.read_text()) for path in pids.glob("daemon-*"))
    return found | marked(pids)


def marked(pids: Path) -> set[int]:
    """The live processes with `pids` on their command line: bots and daemons."""
    mark = str(pids).encode()
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if mark in (entry / "cmdline").read_bytes() and alive(int(entry.name)):
                    found.add(int(entry.name))
            except OSError:
                continue  # gone
    return found


def family_of(pids: Path, bot: int) -> set[int]:
    """A bot, its child and its daemon."""
    child = int((pids / f"bot-{bot}").read_text())
    return {bot, child, int((pids / f"daemon-{bot}").read_text())}


def start_runner(
    tmp_path: Path, bots: int = 2, protocol: str = "json", *options: str
) -> tuple[subprocess.Popen[bytes], Path]:
    pids = tmp_path / "pids"
    pids.mkdir()
    process = subprocess.Popen(
        runner_command(tmp_path / "t", pids, protocol, *options),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # as a shell runs a command: Ctrl-C goes to its group
    )
    deadline = time.monotonic() + 60
    while len(list(pids.glob("bot-*"))) < bots and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(list(pids.glob("bot-*"))) >= bots, "the bots did not start"
    return process, pids


def none_alive_5_seconds_later(
    pids: Path, only: set[int] | None = None, seconds: float = 5
) -> list[int]:
    deadline = time.monotonic() + seconds
    while True:
        live = [pid for pid in (only or recorded(pids)) if alive(pid)]
        if not live or time.monotonic() > deadline:
            return live


@pytest.mark.parametrize("protocol", ["json", "trax"])
@pytest.mark.parametrize("executor", ["pool", "thread"])
def test_no_bot_nor_its_child_nor_its_daemon_outlives_the_tournament(
    tmp_path: Path, protocol: str, executor: str
) -> None:
    factory: Callable[[], Executor] | None = None
    if executor == "thread":  # bots started by the runner's own process, no pool worker
        factory = lambda: ThreadPoolExecutor(1)  # noqa: E731
    pids = _play_with_a_daemon(tmp_path, protocol, "start", factory)
    assert none_alive_5_seconds_later(pids) == []


@pytest.mark.parametrize("protocol", ["json", "trax"])
def test_a_daemon_a_bot_leaves_as_it_exits_does_not_outlive_the_tournament(
    tmp_path: Path, protocol: str
) -> None:
    """Started after the worker last looked below the bot: it comes to the worker, a child
    subreaper, when the bot exits."""
    pids = _play_with_a_daemon(tmp_path, protocol, "exit", None)
    assert none_alive_5_seconds_later(pids) == []


def _play_with_a_daemon(
    tmp_path: Path, protocol: str, when: str, factory: Callable[[], Executor] | None
) -> Path:
    """Play two games against a program that starts a daemon (`when`: as it starts, or as it
    exits); the folder where its processes note their pids."""
    pids = tmp_path / "pids"
    pids.mkdir()
    config = build_config(
        game=GAME[protocol],
        bots=[BotEntry(name="random", spec="random"), program(protocol, "--pids", str(pids),
                                                              "--daemon", when)],
        games_per_pair=2,
    )  # fmt: skip
    run_tournament(tmp_path / "t", config, executor_factory=factory)
    daemons = list(pids.glob("daemon-*"))
    assert len(daemons) == (1 if protocol == "json" else 2)  # Trax: a process a game
    return pids


@pytest.mark.parametrize("protocol", ["json", "trax"])
def test_no_bot_nor_its_child_nor_its_daemon_outlives_a_runner_killed_outright(
    tmp_path: Path, protocol: str
) -> None:
    runner, pids = start_runner(tmp_path, protocol=protocol)
    runner.send_signal(signal.SIGKILL)
    runner.wait()
    assert list(pids.glob("daemon-*"))
    assert recorded(pids) and none_alive_5_seconds_later(pids) == []


def test_what_a_run_killed_with_its_workers_left_is_killed_by_resume(tmp_path: Path) -> None:
    runner, pids = start_runner(tmp_path)
    moved = wait_until_moved(pids, set(_bots(pids)))
    left = set().union(*(family_of(pids, bot) for bot in moved))
    os.killpg(runner.pid, signal.SIGKILL)  # the runner and its workers at once
    runner.wait()
    resumed = subprocess.Popen(
        [sys.executable, "-m", "referee", "tournament", "resume", str(tmp_path / "t"), "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        # As soon as it holds the folder: within the start of a Python program, however slow.
        assert none_alive_5_seconds_later(pids, left, seconds=30) == []
    finally:
        os.killpg(resumed.pid, signal.SIGINT)
        resumed.wait(30)
    assert none_alive_5_seconds_later(pids) == []


def _bots(pids: Path) -> list[int]:
    return [int(path.name.removeprefix("bot-")) for path in pids.glob("bot-*")]


def wait_until_moved(pids: Path, bots: set[int]) -> set[int]:
    """Those of `bots` that have played a move and been sent the next position (referee has
    looked at what runs below them), once all of them have."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        moved = {bot for bot in bots if (pids / f"moved-{bot}").exists()}
        if moved == bots:
            return moved
        time.sleep(0.02)
    raise AssertionError("the bots did not move")


def test_no_bot_nor_its_child_outlives_a_worker_killed_outright(tmp_path: Path) -> None:
    runner, pids = start_runner(tmp_path)
    try:
        workers = children(runner.pid)
        bot = next(pid for pid in _bots(pids) if _parent(pid) in workers)
        wait_until_moved(pids, {bot})
        family = family_of(pids, bot)
        os.kill(_parent(bot), signal.SIGKILL)
        assert none_alive_5_seconds_later(pids, family) == []
    finally:
        os.killpg(runner.pid, signal.SIGINT)
        runner.wait(30)
    assert none_alive_5_seconds_later(pids) == []


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_or_sigterm_stops_everything_stores_every_finished_game_and_says_how_to_resume(
    tmp_path: Path, number: int
) -> None:
    runner, pids = start_runner(tmp_path)
    if number == signal.SIGINT:
        os.killpg(runner.pid, number)  # what the terminal does on Ctrl-C: the whole group
    else:
        runner.send_signal(number)  # `kill PID`: the runner alone
    _, err = runner.communicate(timeout=30)
    assert runner.returncode == 128 + number
    message = err.decode().strip().splitlines()[-1]
    assert message.startswith("stopped: ")
    assert message.endswith(f"continue with `referee tournament resume {tmp_path / 't'}`")
    stored = int(message.split()[1])
    lines = (tmp_path / "t" / "games.jsonl").read_text().splitlines()
    assert len(lines) == stored
    assert all(json.loads(line)["result"] is not None for line in lines)
    assert none_alive_5_seconds_later(pids) == []


def test_ctrl_c_while_the_bots_load_leaves_no_daemon(tmp_path: Path) -> None:
    """Stopped before a bot's first move, before referee has looked below it: its worker is
    told to leave, and kills what runs below its bots as it does."""
    runner, pids = start_runner(tmp_path, 2, "json", "--sleep", "30")
    os.killpg(runner.pid, signal.SIGINT)
    runner.communicate(timeout=30)
    assert runner.returncode == 130
    assert list(pids.glob("daemon-*"))
    assert none_alive_5_seconds_later(pids) == []


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0  # gone already


def test_kill_orphans_kills_a_listed_process_only_while_its_start_time_is_the_one_noted(
    tmp_path: Path,
) -> None:
    groups = tmp_path / ".bots"
    groups.mkdir()
    other = subprocess.Popen(["sleep", "1000"])  # not a bot: its pid is listed, its start not
    listed = subprocess.Popen(["sleep", "1000"])
    try:
        started = {process.pid: _start(process.pid) for process in (other, listed)}
        gone = 2**22 + 1  # beyond any pid: a group whose leader is gone
        (groups / str(gone)).write_text(
            f"1\n{other.pid} {started[other.pid] - 1000}\n{listed.pid} {started[listed.pid]}\n"
            "not a line\n"
        )
        kill_orphans(groups)
        assert listed.wait(5) == -signal.SIGKILL
        assert other.poll() is None
        assert not list(groups.iterdir())
    finally:
        for process in (other, listed):
            process.kill()
            process.wait()


def _start(pid: int) -> int:
    """The start time of a process, field 22 of /proc/PID/stat (proc(5))."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
