"""A decided SPRT has nothing left to play (issue 30): the run, `resume` and `status` say
after how many games it decided, `extend` refuses to add games it would never play unless
given bounds the stored games have not reached, and the progress bar ends full."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.ratings.sprt import SprtSpec, llr
from tests.tournament.helpers import stored_games

RUNNER = CliRunner()
CAP = 2000
BOUNDS = "elo0=0,elo1=100"
"""Random against greedy THAX: decided within a few waves, either way."""
WIDER = "elo0=0,elo1=100,alpha=0.001,beta=0.001"


def run_sprt(out: Path, bounds: str = BOUNDS, *options: str) -> str:
    result = RUNNER.invoke(
        app,
        ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--sprt", bounds,
         "--games-per-pair", str(CAP), "--out", str(out), *options],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return result.output


def decision(directory: Path, bounds: str) -> tuple[int, str] | None:
    """The pair count at which the test over the stored games decides, counted here from
    games.jsonl: the pairs (games 2p and 2p+1) in order, by random's points in each."""
    spec = SprtSpec.parse(bounds)
    points: dict[int, list[int]] = {}
    for line in (directory / "games.jsonl").read_text().splitlines():
        game = json.loads(line)
        seat = [player["name"] for player in game["players"]].index("random")
        winner = game["result"]["winner"]
        half = 1 if winner is None else 2 if winner == seat else 0
        points.setdefault(game["event"]["game_number"] // 2, []).append(half)
    counts = np.zeros(5)
    pair = 0
    while len(points.get(pair, [])) == 2:
        counts[sum(points[pair])] += 1
        pair += 1
        ratio = float(llr(spec, counts))
        if ratio >= spec.upper:
            return pair, "H1"
        if ratio <= spec.lower:
            return pair, "H0"
    return None


def decided_text(pairs: int) -> str:
    return f"the SPRT decided after {2 * pairs} games ({pairs} pairs): nothing is left to play"


@pytest.fixture(scope="module")
def decided(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("sprt") / "t"
    return out, run_sprt(out, BOUNDS, "-q")


def test_the_run_of_a_decided_sprt_says_after_how_many_games_and_that_nothing_is_left(
    decided: tuple[Path, str],
) -> None:
    out, output = decided
    found = decision(out, BOUNDS)
    assert found is not None
    stored = len(stored_games(out))
    first = output.splitlines()[0]
    assert first == (
        f"{stored} games played, {stored} finished in {out / 'games.jsonl'}; "
        + decided_text(found[0])
    )
    assert f"{found[1]} accepted after {2 * found[0]} games" in output


def test_resume_of_a_decided_sprt_plays_nothing_and_says_so(decided: tuple[Path, str]) -> None:
    out, _ = decided
    before = (out / "games.jsonl").read_bytes()
    found = decision(out, BOUNDS)
    assert found is not None
    result = RUNNER.invoke(app, ["tournament", "resume", str(out), "-q"])
    assert result.exit_code == 0, result.output
    stored = len(stored_games(out))
    assert result.output.splitlines()[0] == (
        f"0 games played, {stored} finished in {out / 'games.jsonl'}; " + decided_text(found[0])
    )
    assert f"of {CAP} finished" not in result.output  # it used to say "2000 of 2000 finished"
    assert (out / "games.jsonl").read_bytes() == before


def test_status_of_a_decided_sprt_says_nothing_is_left_to_play(decided: tuple[Path, str]) -> None:
    out, _ = decided
    found = decision(out, BOUNDS)
    assert found is not None
    result = RUNNER.invoke(app, ["tournament", "status", str(out)])
    assert result.exit_code == 0, result.output
    stored = len(stored_games(out))
    lines = result.output.splitlines()
    assert f"games: {stored} finished (the SPRT's cap: {CAP}), {stored} games stored" in lines
    assert lines[-1] == decided_text(found[0])


def test_status_names_the_games_of_the_decisions_wave_a_stopped_run_left(
    decided: tuple[Path, str], tmp_path: Path
) -> None:
    out, _ = decided
    found = decision(out, BOUNDS)
    assert found is not None
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "tournament.json").write_bytes((out / "tournament.json").read_bytes())
    # The games of the pairs up to the decision stay, those after it in its wave are lost.
    kept = [
        line
        for line in (out / "games.jsonl").read_text().splitlines(keepends=True)
        if json.loads(line)["event"]["game_number"] < 2 * found[0]
    ]
    (cut / "games.jsonl").write_text("".join(kept))
    wave_end = -(-found[0] // 16) * 16  # pairs are played in waves of 16
    missing = 2 * (wave_end - found[0])
    assert missing > 0
    result = RUNNER.invoke(app, ["tournament", "status", str(cut)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        f"the SPRT decided after {2 * found[0]} games ({found[0]} pairs): {missing} games of "
        f"its last wave left to play (referee tournament resume {cut})"
    )
    resumed = RUNNER.invoke(app, ["tournament", "resume", str(cut), "-q"])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.output.startswith(f"{missing} games played, ")
    assert stored_games(cut) == stored_games(out)


@pytest.mark.parametrize("options", [["--games-per-pair", "4000"], ["--rounds", "2"], []])
def test_extend_of_a_decided_sprt_exits_2_saying_nothing_is_left_to_play(
    decided: tuple[Path, str], options: list[str]
) -> None:
    out, _ = decided
    found = decision(out, BOUNDS)
    assert found is not None
    before = (out / "tournament.json").read_bytes()
    sprt = [] if options else ["--sprt", "elo0=0,elo1=100,alpha=0.04"]  # bounds reached too
    result = RUNNER.invoke(app, ["tournament", "extend", str(out), *options, *sprt])
    assert result.exit_code == 2
    [line] = result.output.splitlines()
    assert line.startswith(f"referee: error: {out}: the SPRT elo0=0,elo1=100,alpha=")
    bounds = "0.04" if sprt else "0.05"
    again = decision(out, f"elo0=0,elo1=100,alpha={bounds}")
    assert again is not None
    assert (
        f"decided ({again[1]} accepted) after {2 * again[0]} games ({again[0]} pairs): "
        "nothing is left to play" in line
    )
    assert (out / "tournament.json").read_bytes() == before


def test_extend_with_bounds_not_reached_goes_on_as_a_test_given_them_from_the_start(
    decided: tuple[Path, str], tmp_path: Path
) -> None:
    out, _ = decided
    grown = tmp_path / "grown"
    grown.mkdir()
    for name in ("tournament.json", "games.jsonl"):
        (grown / name).write_bytes((out / name).read_bytes())
    assert decision(grown, WIDER) is None  # the stored games decide nothing under these
    result = RUNNER.invoke(app, ["tournament", "extend", str(grown), "--sprt", WIDER])
    assert result.exit_code == 0, result.output
    assert f"SPRT {WIDER}" in result.output
    resumed = RUNNER.invoke(app, ["tournament", "resume", str(grown), "-q"])
    assert resumed.exit_code == 0, resumed.output
    found = decision(grown, WIDER)
    assert found is not None
    assert decided_text(found[0]) in resumed.output
    fresh = tmp_path / "fresh"
    run_sprt(fresh, WIDER, "-q")
    assert stored_games(grown) == stored_games(fresh)


def test_extend_sprt_of_a_tournament_without_one_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "t"
    made = RUNNER.invoke(
        app, ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out),
              "-q"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    result = RUNNER.invoke(app, ["tournament", "extend", str(out), "--sprt", BOUNDS])
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"referee: error: {out} runs no SPRT: --sprt has no bounds to change"
    )


def test_the_bar_of_a_decided_sprt_ends_full_with_no_time_left(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = RUNNER.invoke(
        app,
        ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--sprt", BOUNDS,
         "--games-per-pair", str(CAP), "--out", str(out)],
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    stored = len(stored_games(out))
    bars = [line for line in result.stderr.splitlines() if line.startswith("games ")]
    assert bars, result.stderr
    last = bars[-1]
    assert re.search(rf"\b{stored}/{stored}\b", last), last
    assert "left" not in last


def test_extend_of_an_sprt_that_reached_its_cap_undecided_adds_games(tmp_path: Path) -> None:
    out = tmp_path / "t"
    made = RUNNER.invoke(
        app,
        ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--sprt", BOUNDS,
         "--games-per-pair", "4", "--out", str(out), "-q"],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert decision(out, BOUNDS) is None
    assert f"4 of 4 finished in {out / 'games.jsonl'}" in made.output
    result = RUNNER.invoke(app, ["tournament", "extend", str(out), "--games-per-pair", "8"])
    assert result.exit_code == 0, result.output
    assert "4 games added" in result.output
