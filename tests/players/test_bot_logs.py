"""Bot logs never decide a game (issue 31): a bot's name of any length or script gets a log of
its own, and a log that cannot be written (a full disk) is told once while the bot's games
are played as if it could. The bots are real processes (tests/players/bots/program.py)
writing more on stderr than a pipe holds, so that a drain that stopped reading would make
them lose on time."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament
from tests.players.helpers import BOTS
from tests.tournament.helpers import stored_records

PROGRAM = BOTS / "program.py"
SPEW = 200_000
"""Bytes each program writes on stderr as it starts: three times what a pipe holds."""


def spewing(name: str) -> BotEntry:
    command = [sys.executable, str(PROGRAM), "json", "--spew", str(SPEW)]
    return BotEntry(name=name, command=command)


def test_bots_of_long_odd_and_clashing_names_play_and_each_has_a_log(tmp_path: Path) -> None:
    names = ["p" * 256, "б" * 200, "ботик", "бот", "bot/../x", "a b", "a_b"]
    config = build_config(game="thax", bots=[spewing(name) for name in names], time_limit=10)
    run_tournament(tmp_path / "t", config)
    records = stored_records(tmp_path / "t")
    assert len(records) == len(names) * (len(names) - 1)
    for record in records:
        assert record.result is not None and record.result.reason.value not in ("time", "crash")
    logs = sorted((tmp_path / "t" / "logs").iterdir())
    assert len(logs) == len(names)  # one each: no two names share a log
    for log in logs:
        assert len(log.name.encode()) < 255 and log.name.isascii()
        text = log.read_text()
        assert text.startswith("environment: ") and text.count("environment: ") == 1
        assert text.count("e" * 99 + "\n") == SPEW // 100
    assert not (tmp_path / "x.stderr.log").exists()


def test_a_log_that_cannot_be_written_is_told_once_and_the_games_are_played(
    tmp_path: Path,
) -> None:
    # A file may not grow past 64 kB, as on a full disk: the logs' first writes fail (EFBIG),
    # the tournament's own files stay far below.
    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (64_000, 64_000))

    bot = f"{sys.executable} {PROGRAM} json --spew {SPEW}"
    command = [sys.executable, "-m", "referee", "tournament", "run", "--game", "thax"]
    command += ["--bots", "random", "--external", f"program={bot}", "--games-per-pair", "4"]
    command += ["--concurrency", "2", "--time-limit", "10", "-q", "--out", str(tmp_path)]
    done = subprocess.run(
        command, capture_output=True, text=True, preexec_fn=small_files, timeout=120
    )
    assert done.returncode == 0, done.stderr
    records = stored_records(tmp_path)
    assert len(records) == 4
    for record in records:
        assert record.result is not None and record.result.reason.value not in ("time", "crash")
    log = tmp_path / "logs" / "program.stderr.log"
    warnings = [line for line in done.stderr.splitlines() if "cannot write the log" in line]
    assert warnings == [
        f"referee: warning: cannot write the log {log}: File too large; "
        "the rest of the bot's stderr is dropped"
    ]


def test_a_logs_folder_that_is_a_file_is_told_and_the_games_are_played(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "logs").write_text("not a folder")
    config = build_config(
        game="thax", bots=[BotEntry(name="random", spec="random"), spewing("program")]
    )
    summary = run_tournament(folder, config)
    assert summary.failed == [] and summary.played == 2
    for record in stored_records(folder):
        assert record.result is not None and record.result.reason.value not in ("time", "crash")
    assert summary.warnings == [
        f"cannot write the log {folder / 'logs' / 'program.stderr.log'}: Not a directory; "
        "the rest of the bot's stderr is dropped"
    ]
