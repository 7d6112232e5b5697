"""The premises of the benchmark scripts: a rebuilt state is the same position with nothing
worked out yet, the anchors count the work they did, the summary is the median and range, a
pair score sums a seat-swapped pair and the games needed give a 10 Elo interval."""

from __future__ import annotations

import math
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from anchors import chess_games, chess_replay
from common import spread
from engines import fresh, playout, start_of
from hypothesis import given, settings
from hypothesis import strategies as st
from luck_variance import ELO_HALF_WIDTH, Z, games_needed, pair_scores

from referee.analysis.run import analyse_files
from referee.games import GAME_NAMES, get_game
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(GAME_NAMES), seed=st.integers(0, 10**6))
def test_a_rebuilt_state_lists_the_same_moves(name: str, seed: int) -> None:
    game = get_game(name)
    seen: list = []
    playout(start_of(game), random.Random(seed), 80, seen)
    assert seen
    for state in seen:
        rebuilt = fresh(game, state)
        assert rebuilt is not state
        # Takhteh's position text is seen from the player on roll, whichever seat that is.
        assert game.format_position(rebuilt) == game.format_position(state)
        assert rebuilt.roll == state.roll
        assert rebuilt.legal_moves() == state.legal_moves()


@settings(max_examples=20, deadline=None)
@given(st.lists(st.floats(0, 1e6), min_size=1, max_size=9))
def test_spread_is_the_median_and_the_range(values: list[float]) -> None:
    ordered = sorted(values)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    assert spread(values, 3) == f"{median:,.3f} ({ordered[0]:,.3f}-{ordered[-1]:,.3f})"
    assert median == pytest.approx(statistics.median(values))


def test_python_chess_replay_counts_every_move() -> None:
    chess = pytest.importorskip("chess")
    texts = chess_games(chess, 3, seed=7, cap=40)
    # The moves in the PGN text: its tokens less the move numbers and the result.
    body = [text.split("\n\n", 1)[1] for text in texts]
    tokens = [t for movetext in body for t in movetext.split() if not re.fullmatch(r"\d+\.+", t)]
    results = {"1-0", "0-1", "1/2-1/2", "*"}
    assert chess_replay(texts) == len([t for t in tokens if t not in results]) == 3 * 40


def test_the_side_by_side_comparison_runs_against_a_checkout_and_refuses_others(
    tmp_path: Path,
) -> None:
    """benchmarks/validate_ab.py against this checkout itself gives its table row; a folder
    that is no checkout is refused in one line."""
    root = Path(__file__).resolve().parents[2]
    script = [sys.executable, str(root / "benchmarks" / "validate_ab.py")]
    sizes = ["--games", "4", "--rounds", "4", "--chunk", "2"]
    done = subprocess.run(
        [*script, "--baseline", str(root), "--game", "thai", *sizes],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| thai |")]
    assert len(rows) == 1
    ratio = float(rows[0].split("|")[4].strip(" *"))
    assert ratio > 0
    refused = subprocess.run(
        [*script, "--baseline", str(tmp_path), *sizes], capture_output=True, text=True
    )
    assert refused.returncode != 0
    assert refused.stderr.strip() == (
        f"{tmp_path}: not a checkout of referee (no referee/validator/check.py)"
    )


def _elo(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


@settings(max_examples=50, deadline=None)
@given(score=st.floats(0.05, 0.95), pair_sd=st.floats(0.05, 1.4))
def test_the_games_needed_give_a_ten_elo_interval(score: float, pair_sd: float) -> None:
    """With the games given, 1.96 standard errors of the per-game score span 10 Elo on the
    logistic curve itself (to the first order the formula takes), and a pair fewer would not."""
    games = games_needed(score, pair_sd)
    assert games is not None and games % 2 == 0
    pairs = games // 2

    def half_width(pairs: int) -> float:
        error = Z * pair_sd / 2 / math.sqrt(pairs)
        return (_elo(min(score + error, 1 - 1e-12)) - _elo(max(score - error, 1e-12))) / 2

    assert half_width(pairs) == pytest.approx(ELO_HALF_WIDTH, rel=0.02, abs=0.5) or pairs == 1
    assert half_width(pairs) <= ELO_HALF_WIDTH * 1.02
    if pairs > 1:
        error = Z * pair_sd / 2 / math.sqrt(pairs - 1)
        slope = 400 / (math.log(10) * score * (1 - score))
        assert error * slope > ELO_HALF_WIDTH
    assert games_needed(0.0, pair_sd) is None and games_needed(1.0, pair_sd) is None


def test_pair_scores_sum_each_seat_swapped_pair(tmp_path: Path) -> None:
    """A THAX tournament's analyses, in any order: a row per pair, the sums of the bot's two
    results and adjusted results; a pair short of a game is refused."""
    config = build_config(
        game="thax",
        bots=[BotEntry(name="greedy", spec="greedy"), BotEntry(name="random", spec="random")],
        games_per_pair=8,
        seed="pairs",
    )
    run_tournament(tmp_path / "t", config, concurrency=1, verify="none")
    analyses = list(analyse_files([str(tmp_path / "t" / "games.jsonl")], None))
    plain, adjusted = pair_scores(reversed(analyses), "random")
    by_number = {analysis.key[2]: analysis for analysis in analyses if analysis.key}
    for pair in range(4):
        games = [by_number[2 * pair], by_number[2 * pair + 1]]
        assert [game.players.index("random") for game in games] == [1, 0]
        first, second = (game.result for game in games)
        assert first is not None and second is not None
        assert plain[pair] == first[1] + second[0]
        first, second = (game.adjusted for game in games)
        assert first is not None and second is not None
        assert adjusted[pair] == pytest.approx(first[1] + second[0])
    with pytest.raises(ValueError, match="not two seat-swapped games"):
        pair_scores(analyses[1:], "random")
