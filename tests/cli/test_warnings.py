"""Warnings never show referee's source paths (issue 31): every command that computes or
plots, run as a user runs it with every warning shown (`-X dev`, PYTHONWARNINGS=always), says
nothing of a source file; a warning of numpy or matplotlib, in the command or in a worker
process that plays games, is one line `referee: warning: ...`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import referee

SOURCE = Path(referee.__file__).parent
"""referee's own source folder, which no message may name."""


def referee_run(*args: str | Path, code: str | None = None) -> subprocess.CompletedProcess[str]:
    """A command in a new interpreter that shows every warning."""
    start = ["-m", "referee"] if code is None else ["-c", code]
    env = {**os.environ, "PYTHONWARNINGS": "always"}
    return subprocess.run(
        [sys.executable, "-X", "dev", *start, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )


def assert_no_source(stderr: str) -> None:
    assert str(SOURCE) not in stderr and "referee/" not in stderr, stderr
    assert "Warning:" not in stderr and "warnings.warn" not in stderr, stderr


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("w") / "t"
    played = referee_run(
        "tournament", "run", "-g", "thax", "--bots", "random,greedy", "--games-per-pair", "6",
        "--concurrency", "2", "--out", out, "-q",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert_no_source(played.stderr)
    return out


def commands(source: Path, out: Path) -> list[list[str | Path]]:
    return [
        ["ratings", source, "--no-cache", "--plot", out / "r.png"],
        ["ratings", source, "--no-cache", "--interval", "bootstrap", "--format", "json"],
        ["stats", source, "--plot", out / "s.png"],
        ["report", source, "-o", out / "r.html", "--force"],
        ["show", source, "--svg", out / "p.svg"],
        ["export", source, "--format", "csv"],
        ["validate", "-j", "2", source, source],
    ]


@pytest.mark.slow  # some twenty commands, each a new interpreter
@pytest.mark.parametrize("data", ["all", "one game", "one-sided"])
def test_commands_on_odd_data_show_no_source_path(games: Path, tmp_path: Path, data: str) -> None:
    lines = (games / "games.jsonl").read_text().splitlines(keepends=True)
    source = tmp_path / "games.jsonl"
    if data == "all":
        source = games / "games.jsonl"
    elif data == "one game":
        source.write_text(lines[0])
    else:  # the games one bot won: ratings without a finite bound on one side
        kept = referee_run("select", games, "--winner", "greedy", "-o", source)
        assert kept.returncode == 0, kept.stderr
    for args in commands(source, tmp_path):
        result = referee_run(*args)
        assert result.returncode in (0, 1), (args, result.stderr)
        assert_no_source(result.stderr)


WARNING_LIBRARIES = f"""
import sys, warnings
from referee.ratings import plot
from referee.tournament import worker

def warn(text):
    # As numpy warns from a line of referee's that computes (the file Python would show).
    warnings.warn_explicit(text, RuntimeWarning, {str(SOURCE / "ratings" / "fit.py")!r}, 123)

drawn = plot.plot_ratings
def plot_ratings(*args, **kwargs):
    warn("overflow encountered in exp")
    return drawn(*args, **kwargs)
plot.plot_ratings = plot_ratings

made = worker.built_in_bot  # called in the worker processes, which inherit this module
def built_in_bot(*args):
    warn("divide by zero encountered in log")
    return made(*args)
worker.built_in_bot = built_in_bot

sys.argv = ["referee", *sys.argv[1:]]
from referee.cli.app import main
main()
"""


def test_a_warning_in_a_command_or_its_workers_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "t"
    played = referee_run(
        "tournament", "run", "-g", "thax", "--bots", "random,greedy", "--games-per-pair", "4",
        "--concurrency", "2", "--out", out, "-q", code=WARNING_LIBRARIES,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert_no_source(played.stderr)
    told = set(played.stderr.splitlines())
    assert told == {"referee: warning: divide by zero encountered in log"}, played.stderr
    plotted = referee_run(
        "ratings", out, "--no-cache", "--plot", tmp_path / "r.png", code=WARNING_LIBRARIES
    )
    assert plotted.returncode == 0, plotted.stderr
    assert plotted.stderr == "referee: warning: overflow encountered in exp\n"
