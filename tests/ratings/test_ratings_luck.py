"""Luck-adjusted ratings (docs/ratings.md): the fit of continuous scores against values worked
out here, the table's scores and notes, and `referee ratings --luck-adjusted` on a THAX
tournament against `referee analyse`'s adjusted results."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.path_names import ANALYSIS_FILE
from referee.ratings.errors import RatingsError
from referee.ratings.fit import ELO_PER_UNIT, Z95, FitGames, fit_ratings
from referee.ratings.pentanomial import count_pairs
from referee.ratings.results import ADJUSTED
from referee.ratings.table import RatingOptions, build_tables
from tests.ratings.helpers import games_from_records, record

runner = CliRunner()
TINY_PRIOR = 1e-9
"""A prior that keeps the fit's answer that of the games alone, to many digits."""


def elo_of(score: float) -> float:
    """The Elo difference whose expected score is `score`, written out here."""
    return 400 * math.log10(score / (1 - score))


def two_bot_games(scores: list[float]) -> tuple[FitGames, object]:
    """Games of bot 0 against bot 1 in colour-swapped pairs, seats alternating, `scores` bot
    0's luck-adjusted result of each; and their counts."""
    games = len(scores)
    bot0_first = np.arange(games) % 2 == 0
    first = np.where(bot0_first, 0, 1)
    adjusted = np.where(bot0_first, scores, 1 - np.asarray(scores))
    half = np.where(adjusted > 0.5, 2, 0)  # any result: the fit scores the adjusted one
    seat0_half = np.where(bot0_first, half, 2 - half)
    cluster = np.arange(games) // 2
    counts = count_pairs(2, np.zeros(games, int), np.ones(games, int), seat0_half, cluster)
    return FitGames.of(2, first, 1 - first, half, cluster, adjusted), counts


adjusted_scores = st.lists(st.floats(-0.6, 1.6, allow_nan=False), min_size=2, max_size=60).filter(
    lambda scores: len(scores) % 2 == 0 and 0.05 < np.mean(scores) < 0.95
)


@settings(max_examples=60, deadline=None)
@given(adjusted_scores)
def test_two_bots_differ_by_the_elo_of_their_mean_adjusted_score(scores):
    """With the first-move advantage fixed at 0, the fitted difference is the Elo of the
    mean adjusted score, whatever the scores' spread or range."""
    games, counts = two_bot_games(scores)
    fit = fit_ratings(games, counts, advantage=0.0, prior=TINY_PRIOR)
    difference = fit.ratings[0] - fit.ratings[1]
    assert difference == pytest.approx(elo_of(float(np.mean(scores))), abs=1e-4)


@settings(max_examples=60, deadline=None)
@given(adjusted_scores)
def test_the_interval_is_the_pairs_spread_by_hand(scores):
    """The robust interval of a rating is the cluster (pair) variance of the score equation
    over the information squared, worked out here, and nothing added to it."""
    games, counts = two_bot_games(scores)
    fit = fit_ratings(games, counts, advantage=0.0, prior=TINY_PRIOR)
    mean = float(np.mean(scores))
    residual = np.asarray(scores) - mean  # bot 0's, in each game
    pair_sums = residual.reshape(-1, 2).sum(axis=1)
    information = len(scores) * mean * (1 - mean)
    variance = (pair_sums**2).sum() / information**2  # of the difference, on the logistic scale
    # Each rating is half the difference from the average of the two.
    error = Z95 * ELO_PER_UNIT / 2 * math.sqrt(variance)
    assert fit.high[0] - fit.ratings[0] == pytest.approx(error, rel=1e-5, abs=1e-3)
    assert fit.bounds == ["", ""]


def test_adjusted_scores_equal_to_the_results_fit_the_same_ratings():
    """The float scores take the path of the half points: the same games scored alike give
    the same ratings and advantage."""
    rng = np.random.default_rng(3)
    first = rng.integers(0, 3, 200)
    second = (first + rng.integers(1, 3, 200)) % 3
    half = rng.integers(0, 3, 200)
    seat0 = np.where(np.arange(200) % 2 == 0, first, second)
    counts = count_pairs(
        3,
        seat0,
        np.where(seat0 == first, second, first),
        np.where(seat0 == first, half, 2 - half),
        None,
    )
    plain = fit_ratings(FitGames.of(3, first, second, half), counts)
    adjusted = fit_ratings(FitGames.of(3, first, second, half, adjusted=half / 2), counts)
    assert adjusted.ratings == pytest.approx(plain.ratings, abs=1e-9)
    assert adjusted.advantage == pytest.approx(plain.advantage, abs=1e-9)


@pytest.mark.parametrize("interval", ["information", "bootstrap"])
def test_only_robust_intervals_are_taken(interval):
    games, counts = two_bot_games([0.3, 0.9])
    with pytest.raises(ValueError, match="robust"):
        fit_ratings(games, counts, interval=interval)
    with pytest.raises(RatingsError, match=f"robust intervals only, not {interval}"):
        RatingOptions(luck_adjusted=True, interval=interval).check()


def test_the_table_shows_adjusted_scores_and_says_by_which_reference():
    records = [
        record("ann", "bob", 0, tournament="t", pairing=0, game_number=1),
        record("bob", "ann", 0, tournament="t", pairing=0, game_number=2),
        record("ann", "bob", 1, tournament="t", pairing=1, game_number=3),
        record("bob", "ann", 1, tournament="t", pairing=1, game_number=4),
    ]
    games = games_from_records(records)
    ann = [0.8, 0.3, 0.6, 1.3]  # ann's adjusted result in each game
    seat0 = [ann[0], 1 - ann[1], ann[2], 1 - ann[3]]
    games.frame[ADJUSTED] = seat0
    options = RatingOptions(luck_adjusted=True, references=(("thax", "exact"),))
    (table,) = build_tables(games, options)
    standings = table.standings.set_index("bot")
    assert standings.loc["ann", "score_pct"] == pytest.approx(100 * np.mean(ann))
    assert standings.loc["bob", "score_pct"] == pytest.approx(100 * (1 - np.mean(ann)))
    assert list(standings["wins"]) == [2, 2]  # the results themselves are still counted
    cross = table.crosstable.set_index("bot")
    assert cross.loc["ann", "score_pct"] == pytest.approx(100 * np.mean(ann))
    assert any("luck-adjusted" in note and "exact" in note for note in table.notes)


def test_a_game_without_dice_scores_its_result_and_says_so():
    records = [
        record("ann", "bob", 0, game="trax", tournament="t", pairing=0, game_number=1),
        record("bob", "ann", None, game="trax", tournament="t", pairing=0, game_number=2),
    ]
    games = games_from_records(records)
    games.frame[ADJUSTED] = [1.0, 0.5]
    options = RatingOptions(luck_adjusted=True, references=(("trax", ""),))
    (table,) = build_tables(games, options)
    assert any("trax has no dice" in note for note in table.notes)


@pytest.fixture(scope="module")
def thax(tmp_path_factory):
    """A THAX tournament of two bots, and `referee analyse`'s JSON lines of its games."""
    folder = tmp_path_factory.mktemp("thax") / "t"
    result = runner.invoke(
        app,
        ["tournament", "run", "-g", "thax", "--bots", "greedy,random", "--games-per-pair", "30",
         "--out", str(folder), "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    analysed = runner.invoke(app, ["analyse", str(folder), "--format", "json"])
    assert analysed.exit_code == 0, analysed.output
    return folder, [json.loads(line) for line in analysed.stdout.splitlines()]


def greedy_mean(analyses: list[dict[str, object]]) -> float:
    scores = [a["adjusted"][a["players"].index("greedy")] for a in analyses]  # type: ignore[index, union-attr]
    return float(np.mean(scores))


def rated(*args: str) -> tuple[dict[str, dict[str, float]], dict[str, list[str]]]:
    result = runner.invoke(app, ["ratings", *args, "--format", "json", "--no-cache"])
    assert result.exit_code == 0, result.output
    (table,) = json.loads(result.stdout)
    return {row["bot"]: row for row in table["standings"]}, table


def test_luck_adjusted_thax_ratings_match_the_analysis(thax):
    """The table's difference is the Elo of greedy's mean adjusted score by `referee
    analyse`, pulled by the one virtual draw of the prior (`fit.prior_weights`: two bots,
    prior 1), and its score column is that mean."""
    folder, analyses = thax
    rows, table = rated(str(folder), "--luck-adjusted", "--seat-advantage", "0")
    games = len(analyses)
    mean = greedy_mean(analyses)
    with_prior = (mean * games + 0.5) / (games + 1)
    difference = rows["greedy"]["elo"] - rows["random"]["elo"]
    assert difference == pytest.approx(elo_of(with_prior), abs=0.1)  # rounded to 0.1
    assert rows["greedy"]["score_pct"] == pytest.approx(100 * mean, abs=0.05)
    assert any("exact" in note for note in table["notes"])


def test_the_folders_analysis_file_is_used_and_its_reference_checked(thax, tmp_path):
    folder, _ = thax
    stored = folder / ANALYSIS_FILE
    made = runner.invoke(app, ["analyse", str(folder), "--out", str(stored), "--format", "json"])
    assert made.exit_code == 0, made.output
    try:
        lines = stored.read_text().splitlines()
        # A stored analysis shifted by 0.1 for greedy is what the table rates, not one made now.
        shifted = []
        for line in lines:
            data = json.loads(line)
            seat = data["players"].index("greedy")
            data["adjusted"][seat] += 0.1
            data["adjusted"][1 - seat] -= 0.1
            data["seats"][seat]["luck"] -= 0.1 / 2
            data["seats"][1 - seat]["luck"] += 0.1 / 2
            shifted.append(data)
        stored.write_text("".join(json.dumps(data) + "\n" for data in shifted))
        rows, _ = rated(str(folder), "--luck-adjusted")
        assert rows["greedy"]["score_pct"] == pytest.approx(100 * greedy_mean(shifted), abs=0.05)
        other = tmp_path / "other.jsonl"
        other.write_text("".join(
            json.dumps({**data, "engine": "exact:other"}) + "\n" for data in shifted
        ))  # fmt: skip
        stored.unlink()
        result = runner.invoke(
            app, ["ratings", str(folder), "--luck-adjusted", "--analysis", str(other)]
        )
        assert result.exit_code == 2
        assert "'exact:other'" in result.output and "--engine" in result.output
    finally:
        stored.unlink(missing_ok=True)


def test_a_bad_analysis_file_is_one_error_line(thax, tmp_path):
    folder, _ = thax
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"file": "x"}\n')
    result = runner.invoke(app, ["ratings", str(folder), "--luck-adjusted", "--analysis", str(bad)])
    assert result.exit_code == 2
    (line,) = result.output.splitlines()
    assert line.startswith(f"referee: error: {bad}:1: not a game's analysis")


def test_the_analysis_options_need_luck_adjusted(thax):
    folder, _ = thax
    result = runner.invoke(app, ["ratings", str(folder), "--engine", "exact"])
    assert result.exit_code == 2
    assert "options of --luck-adjusted" in result.output
