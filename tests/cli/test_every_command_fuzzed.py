"""Every command of `referee`, run as a subprocess with hostile option values and damaged
records of the four games (issue 31): a result, or an error in one line with exit 1, 2 or 4;
never a traceback, a hang, a temporary file or a process left behind (tests.cli.campaign).

The default run is a sample: each command three times. The full campaign, with its counts:
    PYTHONPATH=. python -m pytest tests/cli/test_every_command_fuzzed.py -m slow -n 0 -s
(REFEREE_FUZZ_RUNS sets the number of runs), or `python -m tests.cli.campaign`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.campaign import Tally, fuzz, played_tournament
from tests.cli.commands import COMMANDS, Kind, base_args, parameters

SAMPLE_TIMEOUT = 120
"""Seconds a run of the sample may take: generous, for a loaded machine (hangs are the slow
campaign's to find, at 30 s)."""
CAMPAIGN_TIMEOUT = 30
JOBS = 3
"""Runs at once: each spends much of its time starting Python."""


@pytest.fixture(scope="module")
def template() -> Iterator[Path]:
    with played_tournament() as folder:
        yield folder


def test_every_command_has_base_arguments(tmp_path: Path) -> None:
    assert {"validate", "tournament run", "tournament repair", "select", "demo"} <= set(COMMANDS)
    assert "tournament" not in COMMANDS, "a group is not run, its commands are"
    for words in COMMANDS:
        assert isinstance(base_args(tuple(words.split()), tmp_path), list), words


def kinds(words: str) -> dict[str, Kind]:
    return {parameter.name: parameter.kind for parameter in parameters(COMMANDS[words])}


def test_parameters_are_classified_by_what_they_take() -> None:
    assert kinds("convert") == {
        "source": Kind.PATH_IN,
        "target": Kind.PATH_OUT,
        "--format": Kind.TEXT,
    }
    ratings = kinds("ratings")
    assert ratings["paths"] is Kind.PATH_IN and ratings["--plot"] is Kind.PATH_OUT
    assert ratings["--rating"] is Kind.FLOAT and ratings["--samples"] is Kind.INT
    assert ratings["--format"] is Kind.CHOICE and ratings["--pairs"] is Kind.FLAG
    assert ratings["--anchor"] is Kind.TEXT
    run = kinds("tournament run")
    assert run["--config"] is Kind.PATH_IN and run["--out"] is Kind.PATH_OUT
    assert kinds("select")["paths"] is Kind.PATH_IN
    assert kinds("tournament repair") == {"directory": Kind.PATH_IN}


def failures(tally: Tally) -> str:
    return "\n\n".join(outcome.shown() for outcome in tally.failures[:5])


def test_every_command_in_a_sample_of_hostile_runs(template: Path) -> None:
    tally = Tally()
    fuzz(tally, 3 * len(COMMANDS), JOBS, SAMPLE_TIMEOUT, template, derandomize=True)
    assert set(tally.runs) == set(COMMANDS), "every command ran"
    assert not tally.failures, failures(tally)


@pytest.mark.slow
def test_the_full_campaign(template: Path) -> None:
    tally = Tally()
    runs = int(os.environ.get("REFEREE_FUZZ_RUNS", "3000"))
    fuzz(tally, runs, JOBS, CAMPAIGN_TIMEOUT, template, derandomize=False)
    print(tally.table())
    assert set(tally.runs) == set(COMMANDS), "every command ran"
    assert not tally.failures, failures(tally)
