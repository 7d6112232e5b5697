"""The schedule is never listed (issue 32): a pair's jobs are worked out from its number, the
SPRT tracker counts pairs so, and `extend` counts the games it adds from the schedule's size;
setting up an SPRT of a million games, or extending a tournament by a million rounds, takes
no more memory than one of a few games."""

from __future__ import annotations

import pickle
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.ratings.sprt import SprtSpec, llr
from referee.tournament.config import BotEntry, TournamentConfig, build_config
from referee.tournament.play import Ending, Scored
from referee.tournament.runner import run_tournament
from referee.tournament.schedule import GameJob, iter_schedule, schedule_pairs, schedule_size
from referee.tournament.sequential import WAVE_PAIRS, SprtTracker, extend_tournament
from referee.tournament.store import TournamentStore

LAYOUTS = st.sampled_from(["by-round", "by-pairing"])
BOUNDS = "elo0=0,elo1=100,alpha=0.1,beta=0.1"
"""Bounds that random results reach after a few pairs to a few waves of them."""


def config(
    bots: int, games: int, rounds: int, seeds: int = 0, **fields: object
) -> TournamentConfig:
    """THAX random bots; a gauntlet of `seeds` seeds when there are any."""
    entries = [BotEntry(name=f"b{i}", spec="random") for i in range(bots)]
    shape: dict[str, object] = {"format": "gauntlet", "seeds": seeds} if seeds else {}
    return build_config(
        game="thax", bots=entries, games_per_pair=games, rounds=rounds, **shape, **fields
    )


def listed(bots: int, games: int, rounds: int, seeds: int, layout: str) -> list[GameJob]:
    """The schedule written out from its description (docs/design.md, schedule.py)."""
    if seeds:
        met = [(seed, other) for seed in range(seeds) for other in range(seed + 1, bots)]
    else:
        met = [(first, second) for first in range(bots) for second in range(first + 1, bots)]
    per_pairing = rounds * games // 2
    if layout == "by-round":
        order = [(index, p) for index in range(per_pairing) for p in range(len(met))]
    else:
        order = [(index, p) for p in range(len(met)) for index in range(per_pairing)]
    jobs = []
    for pair, (index, p) in enumerate(order):
        first, second = met[p]
        jobs.append(GameJob(2 * pair, pair, (first, second), index))
        jobs.append(GameJob(2 * pair + 1, pair, (second, first), index))
    return jobs


@settings(max_examples=60, deadline=None)
@given(
    bots=st.integers(2, 6),
    games=st.sampled_from([2, 4, 6, 10]),
    rounds=st.integers(1, 4),
    gauntlet=st.booleans(),
    layout=LAYOUTS,
    data=st.data(),
)
def test_a_pair_worked_out_from_its_number_is_the_pair_of_the_listed_schedule(
    bots: int, games: int, rounds: int, gauntlet: bool, layout: str, data: st.DataObject
) -> None:
    seeds = data.draw(st.integers(1, bots - 1)) if gauntlet else 0
    made = config(bots, games, rounds, seeds)
    expected = listed(bots, games, rounds, seeds, layout)
    pairs = schedule_pairs(made, layout)  # type: ignore[arg-type]
    assert 2 * len(pairs) == schedule_size(made) == len(expected)
    # Any pair, asked in any order, holds the two games of the listed schedule.
    for pair in data.draw(st.permutations(range(len(pairs)))):
        assert list(pairs[pair]) == expected[2 * pair : 2 * pair + 2]
    for outside in (-1, len(pairs)):
        with pytest.raises(IndexError):
            pairs[outside]
    stop = data.draw(st.integers(0, len(pairs) + 2))
    assert list(pairs.jobs(stop)) == expected[: 2 * stop]
    assert list(iter_schedule(made, layout)) == expected  # type: ignore[arg-type]


@given(
    number=st.integers(0, 10**12),
    pair=st.integers(0, 10**12),
    seats=st.tuples(st.integers(0, 500), st.integers(0, 500)),
    index=st.integers(0, 10**6),
)
def test_a_job_sent_to_a_worker_comes_back_the_same(
    number: int, pair: int, seats: tuple[int, int], index: int
) -> None:
    job = GameJob(number, pair, seats, index)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(job, protocol))
        assert type(back) is GameJob
        assert (back.number, back.pair, back.seats, back.round) == (number, pair, seats, index)


@settings(max_examples=40, deadline=None)
@given(
    bots=st.integers(2, 5),
    games=st.sampled_from([2, 4, 6]),
    rounds=st.integers(1, 3),
    more=st.integers(1, 10**6 - 3),
    data=st.data(),
)
def test_a_pair_numbered_by_round_is_the_same_in_a_schedule_of_any_more_rounds(
    bots: int, games: int, rounds: int, more: int, data: st.DataObject
) -> None:
    """What `extend` relies on: a million rounds more renumber none of the first pairs, and
    the pairs beyond are worked out without listing those before them."""
    small = schedule_pairs(config(bots, games, rounds))
    large = schedule_pairs(config(bots, games, rounds + more))
    pairings = bots * (bots - 1) // 2
    assert len(large) == (rounds + more) * games // 2 * pairings
    for pair in range(len(small)):
        assert large[pair] == small[pair]
    far = data.draw(st.integers(0, len(large) - 1))
    first, second = large[far]
    assert (first.number, second.number, first.pair) == (2 * far, 2 * far + 1, far)
    assert first.round == far // pairings
    assert first.seats == second.seats[::-1]


def half_points(winner: int | None, seat_of_a: int) -> int:
    return 1 if winner is None else 2 if winner == seat_of_a else 0


@settings(max_examples=60, deadline=None)
@given(pairs=st.integers(1, 80), data=st.data())
def test_the_tracker_counts_pairs_worked_out_from_their_numbers_as_the_listed_schedule_says(
    pairs: int, data: st.DataObject
) -> None:
    """The first games of the schedule stored with the given winners (by seat), but the
    `missing` ones: the tracker counts the run of finished pairs from the first, decides where
    the LLR of the pentanomial counts leaves its bounds, and plays the waves up to its
    decision."""
    made = config(2, 2 * pairs, 1, sprt=BOUNDS)
    expected = listed(2, 2 * pairs, 1, 0, "by-round")
    played = data.draw(st.integers(0, len(expected)), label="games played")
    winners = data.draw(st.lists(st.sampled_from([None, 0, 1]), min_size=played, max_size=played))
    missing = data.draw(st.sets(st.integers(0, len(expected) - 1), max_size=2), label="missing")
    stored: dict[int, list[Scored | None]] = {
        number: [Ending(winner, 1, "normal")]
        for number, winner in enumerate(winners)
        if number not in missing
    }
    spec = SprtSpec.parse(BOUNDS)
    counts = np.zeros(5)
    counted, decided = 0, None
    while decided is None and {2 * counted, 2 * counted + 1} <= stored.keys():
        first, second = stored[2 * counted][0], stored[2 * counted + 1][0]
        assert first is not None and second is not None
        # Bot 0 (A) sits first in the pair's first game, second in its second.
        counts[half_points(first.winner, 0) + half_points(second.winner, 1)] += 1
        counted += 1
        ratio = float(llr(spec, counts))
        if ratio >= spec.upper or ratio <= spec.lower:
            decided = counted - 1
    tracker = SprtTracker(spec, schedule_pairs(made), match_length=1)
    tracker.update(stored)
    assert (tracker.counted, tracker.decided_at) == (counted, decided)
    waves = (
        expected if decided is None else expected[: 2 * WAVE_PAIRS * (decided // WAVE_PAIRS + 1)]
    )
    assert list(tracker.jobs()) == waves
    unplayed = sum(1 for job in waves if job.number not in stored)
    assert tracker.unplayed(stored) == (0 if decided is None else unplayed)


@settings(max_examples=10, deadline=None)
@given(
    bots=st.integers(2, 4),
    games=st.sampled_from([2, 4]),
    rounds=st.integers(1, 3),
    more_games=st.sampled_from([0, 2, 4]),
    more_rounds=st.integers(0, 10**6 - 3),
)
def test_extend_counts_the_games_it_adds(
    bots: int, games: int, rounds: int, more_games: int, more_rounds: int
) -> None:
    if more_games == more_rounds == 0:
        more_rounds = 1
    with tempfile.TemporaryDirectory() as name:
        store = TournamentStore(Path(name))
        store.create(config(bots, games, rounds))
        info, added = extend_tournament(store, games + more_games, rounds + more_rounds)
    pairings = bots * (bots - 1) // 2
    grown = (games + more_games) * (rounds + more_rounds) * pairings
    assert added == grown - games * rounds * pairings
    assert info.size() == grown


class _Started(Exception):
    pass


class _StopAtStart:
    """A progress bar that stops the run when told its total: the set-up is over."""

    def start(self, total: int, already: int) -> None:
        raise _Started

    def advance(self, games: object) -> None:
        raise AssertionError("no game is played")


def _growth(work: Callable[[], object]) -> float:
    """MB that Python allocates at the peak of `work()` above what it held before."""
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        work()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return (peak - base) / 1e6


@pytest.mark.slow
def test_a_million_game_sprt_and_a_million_rounds_more_set_up_in_flat_memory(
    tmp_path: Path,
) -> None:
    """Before, the tracker listed the schedule (+264 MB at 1,000,000 games) and `extend`
    listed it twice to count what it added (+430 MB at a million rounds). The runner keeps
    a byte per scheduled game (1 MB here): that is all that may grow."""
    sprt = config(2, 1_000_000, 1, sprt="elo0=0,elo1=5")

    def set_up() -> None:
        with pytest.raises(_Started):
            run_tournament(tmp_path / "sprt", sprt, progress=_StopAtStart())

    assert _growth(set_up) < 20

    store = TournamentStore(tmp_path / "two")
    store.create(config(2, 2, 1))

    def extend() -> None:
        with store.lock():
            _, added = extend_tournament(store, rounds=1_000_000)
        assert added == 2 * 999_999

    assert _growth(extend) < 20
