"""The processes a command starts are capped by the work (issue 31): `validate -j N` starts no
more workers than files to check, `tournament run --concurrency N` no more than pairs of games
to play (a batch is whole pairs), and neither more than the documented 64. The pools are
observed where they are made: the max_workers each is given."""

from __future__ import annotations

import concurrent.futures
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee.tournament.runner as runner
from referee.tournament.executors import process_pool
from tests.cli.test_fuzz_commands import run

THAX = Path(__file__).parents[1] / "validator" / "samples" / "thax.jsonl"


class InlinePool:
    """A process pool's stand-in that notes its size and checks the files here."""

    sizes: ClassVar[list[int]] = []

    def __init__(self, max_workers: int, mp_context: object = None) -> None:
        InlinePool.sizes.append(max_workers)

    def __enter__(self) -> InlinePool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(
        self, function: Callable[[Any], Any], items: Iterable[Any], chunksize: int = 1
    ) -> Iterator[Any]:
        return map(function, items)


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    InlinePool.sizes = []
    # validate imports the pool where it runs more than one job (a single job starts light)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", InlinePool)
    return InlinePool.sizes


def files(where: Path, count: int) -> list[Path]:
    made = [where / f"g{number}.jsonl" for number in range(count)]
    for path in made:
        shutil.copyfile(THAX, path)
    return made


def test_validate_starts_a_worker_a_file(pools: list[int], tmp_path: Path) -> None:
    assert run("validate", "-q", "-j", 32, *files(tmp_path, 2)) == 0
    assert pools == [2]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(jobs=st.integers(1, 64), count=st.integers(1, 6))
def test_validate_workers_are_the_fewer_of_jobs_and_files(
    pools: list[int], tmp_path: Path, jobs: int, count: int
) -> None:
    pools.clear()
    where = tmp_path / f"{jobs}-{count}"
    where.mkdir(exist_ok=True)
    assert run("validate", "-q", "-j", jobs, *files(where, count)) == 0
    workers = min(jobs, count)
    assert pools == ([workers] if workers > 1 else [])  # one file is read here, streamed


@pytest.fixture
def tournament_pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes asked of the process pools; the games are played by one real worker."""
    sizes: ClassVar[list[int]] = []

    def one_worker(workers: int) -> Any:
        sizes.append(workers)
        return process_pool(1)

    monkeypatch.setattr(runner, "process_pool", one_worker)
    return sizes


def test_a_two_game_tournament_starts_one_worker(
    tournament_pools: list[int], tmp_path: Path
) -> None:
    out = tmp_path / "t"
    args = ["-g", "thax", "--bots", "random,greedy", "--games-per-pair", 2, "--out", out]
    assert run("tournament", "run", *args, "--concurrency", 32, "-q") == 0
    assert tournament_pools == [1]  # one pair: one batch


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(concurrency=st.integers(1, 64), pairs=st.integers(1, 40), bots=st.integers(2, 3))
def test_tournament_workers_are_the_fewer_of_concurrency_and_pairs(
    tournament_pools: list[int], tmp_path: Path, concurrency: int, pairs: int, bots: int
) -> None:
    tournament_pools.clear()
    out = Path(tempfile.mkdtemp(dir=tmp_path)) / "t"
    names = ",".join(["random"] * bots)
    args = ["-g", "thax", "--bots", names, "--games-per-pair", 2 * pairs, "--out", out, "-q"]
    assert run("tournament", "run", *args, "--concurrency", concurrency) == 0
    pairings = bots * (bots - 1) // 2
    assert tournament_pools == [min(concurrency, pairs * pairings)]


def test_a_local_dask_cluster_for_two_games_starts_one_worker(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import referee.tournament.executors as executors

    asked: list[int] = []

    @contextmanager
    def cluster(address: str, workers: int) -> Iterator[Any]:
        asked.append(workers)  # a LocalCluster would start this many processes at once
        yield process_pool(1)

    monkeypatch.setattr(executors, "dask_executors", cluster)
    out = tmp_path / "t"
    args = ["-g", "thax", "--bots", "random,greedy", "--games-per-pair", 2, "--out", out, "-q"]
    assert run("tournament", "run", *args, "--concurrency", 32, "--dask", "local") == 0
    assert asked == [1]
