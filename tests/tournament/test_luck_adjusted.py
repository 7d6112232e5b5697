"""A luck-adjusted SPRT (`tournament run --sprt ... --luck-adjusted`): every game analysed as it
ends and kept in the folder's analysis file, the test counted pair by pair on the adjusted
results under the normal model (computed again here from the file, by the formula), and a
kill between a game and its analysis, or an analysis file lost, changes nothing."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app

RUNNER = CliRunner()
BOUNDS = "elo0=-90,elo1=-70"
"""greedy against thax-perfect (about -79 Elo): decided within a few dozen pairs."""
MIN_PAIRS = 20
"""The normal model's LLR is 0 before this many pairs (docs/tournaments.md)."""


def run(out: Path, *options: str) -> tuple[int, str]:
    result = RUNNER.invoke(
        app,
        ["tournament", "run", "--game", "thax", "--bots", "greedy,thax-perfect",
         "--games-per-pair", "400", "--sprt", BOUNDS, "--out", str(out), "-q", *options],
    )  # fmt: skip
    return result.exit_code, result.output


def logistic(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def mean_square(scores: list[float], score: float) -> float:
    """The scores' variance plus the square of their mean's deviation from `score`, that
    deviation corrected for their skewness by Hall's transformation of the t statistic."""
    n = len(scores)
    mean = sum(scores) / n
    variance = sum((x - mean) ** 2 for x in scores) / n
    skewness = sum((x - mean) ** 3 for x in scores) / n / variance**1.5
    a = skewness / (3 * math.sqrt(n))
    t = (mean - score) / math.sqrt(variance / n)
    deviation = (t + a / 2 + a * t * t + a * a * t**3 / 3) * math.sqrt(variance / n)
    return variance + deviation**2


def decision_from_files(directory: Path) -> tuple[int, str] | None:
    """The pair after which the test decides, counted here: greedy's adjusted results from the
    analysis file, the pairs (games 2p and 2p+1) in schedule order, the LLR of the normal
    model with its variance unknown, (n / 2) log(V0 / V1)."""
    adjusted: dict[int, float] = {}
    for line in (directory / "analysis.jsonl").read_text().splitlines():
        data = json.loads(line)
        seat = data["players"].index("greedy")
        adjusted[data["key"]["game_number"]] = data["adjusted"][seat]
    s0, s1 = logistic(-90), logistic(-70)
    lower, upper = math.log(0.05 / 0.95), math.log(0.95 / 0.05)
    scores: list[float] = []
    pair = 0
    while 2 * pair in adjusted and 2 * pair + 1 in adjusted:
        scores.append((adjusted[2 * pair] + adjusted[2 * pair + 1]) / 2)
        pair += 1
        if len(scores) < MIN_PAIRS:
            continue
        n = len(scores)
        ratio = n / 2 * math.log(mean_square(scores, s0) / mean_square(scores, s1))
        if ratio >= upper:
            return pair, "H1"
        if ratio <= lower:
            return pair, "H0"
    return None


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("luck") / "t"
    code, output = run(out, "--luck-adjusted")
    assert code == 0, output
    return out, output


def test_every_stored_game_has_its_analysis_as_analyse_makes_it(
    played: tuple[Path, str], tmp_path: Path
) -> None:
    out, _ = played
    games = (out / "games.jsonl").read_text().splitlines()
    kept = [json.loads(line) for line in (out / "analysis.jsonl").read_text().splitlines()]
    assert sorted(a["key"]["game_number"] for a in kept) == sorted(
        json.loads(line)["event"]["game_number"] for line in games
    )
    again = RUNNER.invoke(app, ["analyse", str(out / "games.jsonl"), "--format", "json"])
    assert again.exit_code == 0, again.output
    made = {
        data["key"]["game_number"]: data["adjusted"]
        for data in map(json.loads, again.output.splitlines())
    }
    for analysis in kept:
        assert analysis["engine"] == "exact"
        assert analysis["adjusted"] == pytest.approx(made[analysis["key"]["game_number"]])


def test_the_test_decides_where_the_normal_model_over_the_adjusted_pairs_does(
    played: tuple[Path, str],
) -> None:
    out, output = played
    found = decision_from_files(out)
    assert found is not None
    pairs, verdict = found
    assert f"{verdict} accepted after {2 * pairs} games ({pairs} pairs)" in output
    assert "(luck-adjusted)" in output
    status = RUNNER.invoke(app, ["tournament", "status", str(out), "--json"])
    sprt = json.loads(status.output)["sprt"]
    assert sprt["luck_adjusted"] is True
    assert sprt["pairs"] == pairs
    assert sprt["decision"] == verdict


def test_a_lost_or_cut_analysis_file_is_made_again_and_decides_the_same(
    played: tuple[Path, str], tmp_path: Path
) -> None:
    out, _ = played
    whole = (out / "analysis.jsonl").read_bytes()
    lines = whole.splitlines(keepends=True)
    for damage in (b"", b"".join(lines[:5]) + lines[5][:40]):
        copy = tmp_path / f"copy{len(damage)}"
        copy.mkdir()
        for name in ("tournament.json", "games.jsonl"):
            (copy / name).write_bytes((out / name).read_bytes())
        (copy / "analysis.jsonl").write_bytes(damage)
        resumed = RUNNER.invoke(app, ["tournament", "resume", str(copy), "-q"])
        assert resumed.exit_code == 0, resumed.output
        assert decision_from_files(copy) == decision_from_files(out)
        kept = (copy / "analysis.jsonl").read_bytes()
        assert kept.endswith(b"\n")
        assert len(kept.splitlines()) == len(lines)
        assert sorted(json.loads(line)["adjusted"][0] for line in kept.splitlines()) == sorted(
            json.loads(line)["adjusted"][0] for line in lines
        )


def test_a_plain_sprt_writes_no_analysis_and_its_configuration_no_luck_key(
    tmp_path: Path,
) -> None:
    code, output = run(tmp_path / "plain")
    assert code == 0, output
    assert not (tmp_path / "plain" / "analysis.jsonl").exists()
    config = json.loads((tmp_path / "plain" / "tournament.json").read_text())["config"]
    assert "luck_adjusted" not in config
    assert "(luck-adjusted)" not in output


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["--luck-adjusted", "--engine", "tdnet"], "THAX has no reference 'tdnet'"),
        (["--engine", "exact"], "--engine goes with --luck-adjusted"),
        (["--luck-adjusted", "--engine", ""], "THAX has no reference ''"),
    ],
)
def test_wrong_luck_options_are_one_error_line(
    tmp_path: Path, arguments: list[str], says: str
) -> None:
    code, output = run(tmp_path / "t", *arguments)
    assert code == 2
    assert output.count("\n") == 1 and output.startswith("referee: error:"), output
    assert says in output
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize(
    ("game", "bots", "extra", "says"),
    [
        ("trax", "random,random2", ["--sprt", "elo0=0,elo1=5"], "Trax has no dice"),
        ("thax", "greedy,random", [], "give --sprt too"),
    ],
)
def test_luck_adjustment_needs_dice_and_an_sprt(
    tmp_path: Path, game: str, bots: str, extra: list[str], says: str
) -> None:
    result = RUNNER.invoke(
        app,
        ["tournament", "run", "--game", game, "--bots", bots, "--luck-adjusted",
         "--out", str(tmp_path / "t"), *extra],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and says in result.output, result.output
