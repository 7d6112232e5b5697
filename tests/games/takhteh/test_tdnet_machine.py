"""tdnet plays and reports the same on every machine: its network's evaluation must not depend
on the BLAS kernel (which OpenBLAS picks by the CPU, or by `OPENBLAS_CORETYPE`) nor on the code
numpy picks by the CPU (its `exp` has its own for AVX-512)."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.takhteh.net import _exact_matmul, _sigmoid

ROOT = Path(__file__).resolve().parents[3]

# One short game of tdnet looking ahead against tdnet playing its network's choice, its record
# as JSON without the times.
GAME = """
import json
from referee.games import get_game
from referee.players.registry import make_bot
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game

specs = ["tdnet:depth=1,top=2,time=0", "tdnet:depth=0,time=0"]
game = get_game("takhteh")
bots = [make_bot("takhteh", spec) for spec in specs]
players = [Player(name=f"p{seat}", spec=spec) for seat, spec in enumerate(specs)]
record = play_game(GameSetup(game, game.ruleset(), players, "machine", turn_cap=40), bots)
data = record.model_dump(mode="json")
for turn in data["turns"]:
    turn.pop("time_ms")
print(json.dumps(data))
"""

CORETYPES = ["Haswell", "SkylakeX", "Zen", "Prescott"]


def _numpy_has_x86_v4() -> bool:
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:
        return False
    return bool(__cpu_features__.get("X86_V4"))


def _play(env: dict[str, str]) -> dict[str, Any] | None:
    """The game's record played in a fresh process with `env` added; None when the CPU cannot
    run what `env` asks for (the process dies of an illegal instruction)."""
    done = subprocess.run(
        [sys.executable, "-c", GAME],
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode == -signal.SIGILL:
        return None
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(done.stdout)
    return record


def test_tdnet_plays_the_same_game_under_every_blas_kernel() -> None:
    cases: list[dict[str, str]] = [{"OPENBLAS_CORETYPE": core} for core in CORETYPES]
    if _numpy_has_x86_v4():
        # numpy's own AVX-512 code off: its float64 exp differs from the other in the last bit.
        cases.append({"NPY_DISABLE_CPU_FEATURES": "X86_V4"})
    records = {json.dumps(case): _play(case) for case in cases}
    played = {case: record for case, record in records.items() if record is not None}
    assert len(played) >= 2, "fewer than two kernels run on this CPU"
    first = next(iter(played.values()))
    assert first is not None and len(first["turns"]) > 10
    assert any("score" in turn for turn in first["turns"])
    for case, record in played.items():
        assert record == first, case


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.floats(-60, 60, allow_nan=False, allow_subnormal=False),
        min_size=1,
        max_size=40,
    )
)
def test_sigmoid_is_the_sigmoid(values: list[float]) -> None:
    z = np.array(values)
    expected = [1 / (1 + math.exp(-value)) for value in values]
    assert _sigmoid(z) == pytest.approx(expected, rel=1e-13, abs=1e-300)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 10), st.integers(1, 8))
def test_exact_products_do_not_depend_on_the_order_of_the_sums(
    seed: int, rows: int, columns: int
) -> None:
    """The product on the grids equals the sum of its terms taken in any order: forwards,
    backwards, in exact rational arithmetic."""
    rng = np.random.default_rng(seed)
    a = rng.normal(0, 3, (rows, 211))
    b = rng.normal(0, 0.3, (211, columns))
    product = _exact_matmul(a, 18, b, 24)
    ga = np.rint(a * 2.0**18) / 2.0**18
    gb = np.rint(b * 2.0**24) / 2.0**24
    terms = ga[:, :, None] * gb[None, :, :]
    forwards = np.zeros((rows, columns))
    backwards = np.zeros((rows, columns))
    for k in range(211):
        forwards += terms[:, k]
        backwards += terms[:, 210 - k]
    assert np.array_equal(product, forwards)
    assert np.array_equal(product, backwards)
    exact = [
        [sum(int(t * 2.0**42) for t in terms[i, :, j]) / 2.0**42 for j in range(columns)]
        for i in range(rows)
    ]
    assert np.array_equal(product, np.array(exact))


def test_a_product_too_large_to_be_exact_is_refused() -> None:
    with pytest.raises(ValueError, match="not exact"):
        _exact_matmul(np.full((1, 211), 100.0), 18, np.full((211, 1), 1.0), 24)
