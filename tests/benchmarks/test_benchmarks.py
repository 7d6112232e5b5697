"""The premises of the benchmark scripts: a rebuilt state is the same position with nothing
worked out yet, the anchors count the work they did, the summary is the median and range."""

from __future__ import annotations

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

from referee.games import GAME_NAMES, get_game


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
