"""Progress that tells the truth: a rate over finished games, the one-time THAX line, Ctrl-C."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.cli.progress import WINDOW_GAMES, GameRate
from referee.tournament import runner as tournament_runner

cli = CliRunner()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_batch_arriving_is_not_thousands_of_games_a_second() -> None:
    clock = Clock()
    rate = GameRate(clock)
    assert rate.per_second() is None
    clock.now = 10.0
    rate.finished(8)  # eight games played over ten seconds come back together
    assert rate.per_second() == pytest.approx(0.8)
    assert rate.seconds_left(80) == pytest.approx(100.0)
    clock.now = 20.0  # nothing came back since: the rate falls, the time left grows
    assert rate.per_second() == pytest.approx(0.4)
    assert rate.seconds_left(80) == pytest.approx(200.0)
    clock.now = 200.0  # one batch long ago still counts, over the whole time
    rate.finished(8)
    assert rate.per_second() == pytest.approx(16 / 200)


@given(
    batch=st.integers(1, 8),
    seconds_a_game=st.floats(0.01, 30.0),
    batches=st.integers(10, 60),
    into_next=st.floats(0.0, 1.0),
)
def test_a_steady_rate_in_batches_is_seen_as_itself(
    batch: int, seconds_a_game: float, batches: int, into_next: float
) -> None:
    """Games played at a steady pace and returned in batches: however far into the next batch
    one looks, the rate is the true one less at most a batch's share of the window."""
    clock = Clock()
    rate = GameRate(clock)
    for _ in range(batches):
        clock.now += batch * seconds_a_game
        rate.finished(batch)
    clock.now += into_next * batch * seconds_a_game
    true = 1 / seconds_a_game
    measured = rate.per_second()
    assert measured is not None
    # The window holds WINDOW_GAMES games at least (all of them, early on) and a batch not
    # yet back costs at most one batch's time.
    counted = min(batches * batch, WINDOW_GAMES)
    assert true * counted / (counted + batch) * 0.99 <= measured <= true * 1.01


def test_ctrl_c_says_what_is_stored_and_how_to_continue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "t"
    run = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    assert cli.invoke(app, [*run, "--games-per-pair", "2", "-q"]).exit_code == 0

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament_runner, "run_tournament", interrupted)
    result = cli.invoke(app, ["tournament", "resume", str(out), "-q"])
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines()[-1] == (
        f"stopped: 2 games stored; continue with `referee tournament resume {out}`"
    )


def test_a_line_before_solving_thax(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One variable names the folder of the THAX table and of the summaries.
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path / "cache"))

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # stop before the half minute of solving

    monkeypatch.setattr(tournament_runner, "run_tournament", interrupted)
    args = ["tournament", "run", "--game", "thax", "--out", str(tmp_path / "t")]
    result = cli.invoke(app, [*args, "--bots", "random,thax-perfect"])
    table = tmp_path / "cache" / "thax-values-v1.npy"
    assert f"solving THAX once, about 30 s; cached in {table}" in result.stderr
    assert "stopped: 0 games stored" in result.stderr
    table.parent.mkdir(parents=True)
    table.write_bytes(b"")
    again = cli.invoke(app, [*args, "--bots", "random,thax-perfect"])
    assert "solving THAX" not in again.stderr
