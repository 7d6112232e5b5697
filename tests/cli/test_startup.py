"""Start-up: the command line imports pandas, matplotlib, numpy and dask only where used."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("pandas", "matplotlib", "numpy", "dask", "distributed")

# Runs the command in a fresh interpreter and prints, as it exits, the heavy modules loaded.
PROBE = """
import atexit, sys
heavy = {heavy!r}
atexit.register(lambda: print("loaded:", sorted(m for m in heavy if m in sys.modules),
                              file=sys.stderr))
sys.argv = ["referee", *{args!r}]
{body}
"""


def loaded(args: list[str], body: str = "from referee.cli.app import main; main()") -> list[str]:
    code = PROBE.format(heavy=HEAVY, args=args, body=body)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    line = next(line for line in done.stderr.splitlines() if line.startswith("loaded:"))
    return eval(line.removeprefix("loaded:"))  # a list literal printed just above


def test_importing_the_app_loads_no_heavy_library() -> None:
    assert loaded([], body="import referee.cli.app") == []


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["moves", "--game", "takhteh", "--roll", "31"],
        ["perft", "--game", "trax", "--depth", "1"],
        ["tournament", "run", "--help"],
    ],
)
def test_light_commands_load_no_heavy_library(args: list[str]) -> None:
    assert loaded(args) == []


def test_the_probe_sees_a_heavy_import() -> None:
    """The check above can fail: a command that draws a plot loads matplotlib."""
    assert "numpy" in loaded([], body="import numpy")
