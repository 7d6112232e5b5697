"""Gauntlets, rounds, opening suites and the SPRT, through the runner and the command line."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.games import get_game
from referee.records.model import record_adapter
from referee.records.replay import final_state, result_of
from referee.tournament.config import BotEntry, ConfigError, build_config
from referee.tournament.openings import all_openings
from referee.tournament.runner import run_tournament
from referee.tournament.schedule import schedule
from referee.validator.check import validate_record
from tests.tournament.helpers import stored_games

RUNNER = CliRunner()


def entries(*specs: str) -> list[BotEntry]:
    names = [spec if not specs[:i].count(spec) else f"{spec}#{i}" for i, spec in enumerate(specs)]
    return [BotEntry(name=name, spec=spec) for name, spec in zip(names, specs, strict=True)]


@given(
    st.integers(2, 6),
    st.integers(1, 5),
    st.integers(1, 3),
    st.integers(1, 3).map(lambda n: 2 * n),
    st.booleans(),
)
@settings(max_examples=80, deadline=None)
def test_the_schedule_meets_who_it_should(
    bots: int, seeds: int, rounds: int, games_per_pair: int, gauntlet: bool
) -> None:
    seeds = min(seeds, bots - 1)
    config = build_config(
        game="thax",
        bots=entries(*(["random"] * bots)),
        games_per_pair=games_per_pair,
        rounds=rounds,
        format="gauntlet" if gauntlet else "round-robin",
        seeds=seeds,
    )
    jobs = schedule(config)
    expected = {
        (i, j) for i in range(bots) for j in range(i + 1, bots) if not gauntlet or i < seeds
    }
    met = {tuple(sorted(job.seats)) for job in jobs}
    assert met == expected
    assert [job.number for job in jobs] == list(range(len(jobs)))
    assert len(jobs) == len(expected) * games_per_pair * rounds
    for pairing in expected:
        own = [job for job in jobs if tuple(sorted(job.seats)) == pairing]
        # Each pair is one game in each seat, and the pairs of a pairing count up its rounds.
        by_pair: dict[int, list] = {}
        for job in own:
            by_pair.setdefault(job.pair, []).append(job)
        assert all(len(p) == 2 and p[0].seats == p[1].seats[::-1] for p in by_pair.values())
        assert sorted(p[0].round for p in by_pair.values()) == list(
            range(rounds * games_per_pair // 2)
        )


def test_the_pairing_system_is_read_and_written_under_the_key_format_alone() -> None:
    config = build_config(game="thax", bots=entries("random", "greedy"), format="gauntlet")
    assert config.pairing_system == "gauntlet"
    dumped = config.model_dump()
    assert dumped["format"] == "gauntlet"
    assert "pairing_system" not in dumped
    assert json.loads(config.model_dump_json())["format"] == "gauntlet"
    assert build_config(**dumped) == config
    with pytest.raises(ConfigError, match="pairing_system"):
        build_config(game="thax", bots=entries("random", "greedy"), pairing_system="gauntlet")


def test_a_gauntlet_of_four_plays_three_pairings_and_rates_all(tmp_path: Path) -> None:
    config = build_config(
        game="thax",
        bots=entries("greedy", "random", "random", "random"),
        games_per_pair=4,
        format="gauntlet",
        seeds=1,
    )
    run_tournament(tmp_path, config)
    games = stored_games(tmp_path)
    pairings = {frozenset(player["name"] for player in game["players"]) for game in games}
    assert pairings == {
        frozenset({"greedy", "random"}),
        frozenset({"greedy", "random#2"}),
        frozenset({"greedy", "random#3"}),
    }
    assert len(games) == 12
    rated = RUNNER.invoke(app, ["ratings", str(tmp_path), "--format", "csv"])
    assert rated.exit_code == 0, rated.output
    for name in ("greedy", "random", "random#2", "random#3"):
        assert f"\n{name}," in rated.output or f",{name}," in rated.output


def trax_suite(tmp_path: Path, count: int) -> Path:
    game = get_game("trax")
    openings = all_openings(game, game.ruleset(), 3, symmetric=True)[:count]
    path = tmp_path / "suite.txt"
    path.write_text("".join(opening.text() + "\n" for opening in openings))
    return path


def openings_give_distinct_games(tmp_path: Path, count: int) -> None:
    """Two deterministic bots (the greedy bot and a depth-1 threat search without a time
    limit) over `count` Trax openings: 2 x `count` distinct games, each opening played in both
    seats, every record valid and replaying to its stored result."""
    suite = trax_suite(tmp_path, count)
    out = tmp_path / "t"
    result = RUNNER.invoke(
        app,
        [
            "tournament", "run", "--game", "trax", "--out", str(out), "-q",
            "--bots", "greedy,threat:depth=1,time=100", "--games-per-pair", str(2 * count),
            "--openings", str(suite),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = (out / "games.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == 2 * count
    moves = {tuple(turn["move"] for turn in record["turns"]) for record in records}
    assert len(moves) == 2 * count
    suite_lines = [line.split() for line in suite.read_text().splitlines()]
    for number, (line, record) in enumerate(zip(lines, records, strict=True)):
        # The book: the opening of the pair, both games of a pair the same one.
        book = [turn["move"] for turn in record["turns"] if turn.get("book")]
        assert book == suite_lines[record["event"]["pairing"] % count]
        assert all(turn.get("book") for turn in record["turns"][: len(book)])
        parsed = record_adapter().validate_json(line)
        assert validate_record(parsed, "games.jsonl", number).valid
        outcome = final_state(parsed).outcome()
        if parsed.result.reason == "rules":
            assert outcome is not None and result_of(outcome) == parsed.result


def test_openings_give_distinct_games_that_replay(tmp_path: Path) -> None:
    openings_give_distinct_games(tmp_path, 2)


@pytest.mark.slow
def test_twenty_openings_give_forty_distinct_games_that_replay(tmp_path: Path) -> None:
    openings_give_distinct_games(tmp_path, 20)


def test_a_bad_opening_line_stops_the_run_before_any_game(tmp_path: Path) -> None:
    suite = tmp_path / "bad.txt"
    suite.write_text("@0+ A0+\n# fine so far\n@0+ Q7/\n")
    result = RUNNER.invoke(
        app,
        [
            "tournament", "run", "--game", "trax", "--bots", "random,greedy",
            "--openings", str(suite), "--out", str(tmp_path / "t"),
        ],
    )  # fmt: skip
    assert result.exit_code == 2
    assert f"{suite}:3:" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "t" / "games.jsonl").exists()


def sprt_run(out: Path, bots: str, cap: int, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable, "-m", "referee", "tournament", "run", "--game", "thax", "--bots", bots,
        "--sprt", "elo0=0,elo1=20", "--games-per-pair", str(cap), "--seed", "7",
        "--out", str(out), "-q", *extra,
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def sprt_line(output: str) -> str:
    return next(line for line in output.splitlines() if line.startswith("SPRT "))


def test_an_sprt_stops_at_its_decision_the_same_at_any_concurrency(tmp_path: Path) -> None:
    one = sprt_run(tmp_path / "one", "greedy,random", 4000)
    two = sprt_run(tmp_path / "two", "greedy,random", 4000, "--concurrency", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert "H1 accepted" in sprt_line(one.stdout)
    assert sprt_line(one.stdout) == sprt_line(two.stdout)
    games = stored_games(tmp_path / "one")
    assert games == stored_games(tmp_path / "two")
    assert 0 < len(games) < 4000
    # status, ratings and the report say the same of the stored games
    status = RUNNER.invoke(app, ["tournament", "status", str(tmp_path / "one")])
    assert sprt_line(status.output) == sprt_line(one.stdout)
    rated = RUNNER.invoke(app, ["ratings", str(tmp_path / "one")])
    assert rated.exit_code == 0, rated.output
    assert f"{tmp_path / 'one'}: {sprt_line(one.stdout)}" in rated.output
    page = tmp_path / "report.html"
    made = RUNNER.invoke(app, ["report", str(tmp_path / "one"), "-o", str(page)])
    assert made.exit_code == 0, made.output
    assert sprt_line(one.stdout) in page.read_text()


def test_self_play_does_not_accept_h1(tmp_path: Path) -> None:
    run = sprt_run(tmp_path / "self", "greedy,greedy", 20000)
    assert run.returncode == 0, run.stderr
    line = sprt_line(run.stdout)
    assert "H1 accepted" not in line
    assert len(stored_games(tmp_path / "self")) < 20000


@pytest.mark.slow
def test_thax_perfect_against_greedy_accepts_h1(tmp_path: Path) -> None:
    run = sprt_run(tmp_path / "perfect", "thax-perfect,greedy", 20000, "--concurrency", "2")
    assert run.returncode == 0, run.stderr
    assert "H1 accepted" in sprt_line(run.stdout)
    assert len(stored_games(tmp_path / "perfect")) < 20000


def stored_lines(directory: Path) -> int:
    path = directory / "games.jsonl"
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.parametrize(
    "kind",
    ["gauntlet", "sprt", "openings"],
)
def test_killed_and_resumed_runs_play_the_same_games(tmp_path: Path, kind: str) -> None:
    suite = trax_suite(tmp_path, 6)
    options = {
        "gauntlet": ["--game", "thax", "--bots", "random,greedy,random", "--format",
                     "gauntlet", "--games-per-pair", "60", "--rounds", "2"],
        "sprt": ["--game", "thax", "--bots", "greedy,random", "--sprt", "elo0=0,elo1=20",
                 "--games-per-pair", "4000"],
        "openings": ["--game", "trax", "--bots", "random,random", "--openings", str(suite),
                     "--openings-order", "random", "--games-per-pair", "40"],
    }[kind]  # fmt: skip
    base = [sys.executable, "-m", "referee", "tournament"]

    def run(out: Path, concurrency: int) -> list[str]:
        return [*base, "run", *options, "--seed", "3", "--out", str(out), "-q",
                "--concurrency", str(concurrency)]  # fmt: skip

    subprocess.run(run(tmp_path / "one", 1), check=True, capture_output=True, timeout=600)
    killed = tmp_path / "killed"
    process = subprocess.Popen(run(killed, 2), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while process.poll() is None and stored_lines(killed) < 10:
        time.sleep(0.002)
    process.send_signal(signal.SIGKILL)
    process.wait()
    resumed = subprocess.run(
        [*base, "resume", str(killed), "-q", "--concurrency", "2"],
        capture_output=True,
        timeout=600,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert stored_games(killed) == stored_games(tmp_path / "one")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--sprt", "elo0=5,elo1=0"], "elo0 (5) must be below elo1 (0)"),
        (["--sprt", "elo0=0"], "give elo1"),
        (["--sprt", "elo0=0,elo1=5,alpha=2"], "alpha must be between 0 and 0.5"),
        (["--bots", "greedy,random,random", "--sprt", "elo0=0,elo1=5"], "exactly two"),
        (["--format", "gauntlet", "--seeds", "2"], "--seeds (2) must be fewer than the bots"),
        (["--format", "swiss"], "'swiss' is not one of 'round-robin', 'gauntlet'"),
        (["--rounds", "0"], "--rounds"),
        (["--openings-start", "3"], "--openings-start goes with --openings"),
        (["--openings", "/nonexistent/suite.txt"], "/nonexistent/suite.txt: no such file"),
    ],
)
def test_a_format_given_wrong_is_one_line_and_exit_2(
    tmp_path: Path, options: list[str], words: str
) -> None:
    bots = [] if "--bots" in options else ["--bots", "greedy,random"]
    result = RUNNER.invoke(
        app, ["tournament", "run", "--game", "thax", *bots, *options, "--out", str(tmp_path)]
    )
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("referee: error: "), result.output
    assert words in lines[0]
    assert not (tmp_path / "games.jsonl").exists()
