"""The tournament pipeline: records written straight from the game loop, bots reused from game
to game, sampled verification, batches in flight and stored keys in bounded memory."""

from __future__ import annotations

import json
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import GAME_NAMES, get_game
from referee.players.registry import make_bot
from referee.records.io import record_to_json
from referee.records.keys import GameKey
from referee.records.model import EventInfo, MatchInfo, Player, record_adapter
from referee.records.replay import replay
from referee.tournament import worker
from referee.tournament.config import BotEntry, build_config
from referee.tournament.openings import Opening, read_opening
from referee.tournament.play import GameControl, GameSetup, play_game_data
from referee.tournament.runner import IN_FLIGHT_PER_WORKER, run_tournament
from referee.tournament.schedule import iter_schedule, schedule, schedule_size
from referee.tournament.store import NumberSet, StoredKeys
from referee.tournament.worker import BatchOptions
from tests.tournament.helpers import stored_games

OPENINGS = Path(__file__).resolve().parents[2] / "referee" / "data" / "openings"

CASES = [
    ("thax", "random", "greedy"),
    ("takhteh", "random", "greedy"),
    ("trax", "greedy", "random"),
    ("thai", "alphabeta:depth=1,time=0", "random"),  # engine output in the turns
]


@settings(max_examples=12, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seed=st.text("abc", max_size=3),
    clocked=st.booleans(),
    in_match=st.booleans(),
    book=st.booleans(),
)
def test_the_written_line_is_the_record_as_the_model_writes_it(
    case: tuple[str, str, str],
    seed: str,
    clocked: bool,
    in_match: bool,
    book: bool,
) -> None:
    name, first, second = case
    game = get_game(name)
    ruleset = game.ruleset()
    bots = [make_bot(name, first), make_bot(name, second)]
    players = [Player(name="a", kind="bot", spec=first), Player(name="b", kind="human")]
    control = GameControl()
    if clocked:
        config = build_config(
            game=name,
            bots=[BotEntry(name="a", spec=first), BotEntry(name="b", spec=second)],
            tc="30+1",
        )
        control = GameControl(clocks=(config.time_control(0), config.time_control(1)))
    in_match = in_match and name == "takhteh"  # the one game with matches
    match = MatchInfo(length=3, game=2, score=[1, 0], first=1) if in_match else None
    opening = None
    if book and name in ("trax", "thai"):
        line = (OPENINGS / f"{name}-3ply.txt").read_text().splitlines()[-1]
        opening = read_opening(game, ruleset, line, "suite")
    assert opening is None or isinstance(opening, Opening)
    event = EventInfo(tournament="t", game_number=3) if seed else None
    setup = GameSetup(game, ruleset, players, seed, 60, event, control, opening)
    data = play_game_data(setup, bots, match=match)
    text = json.dumps(data, ensure_ascii=False)
    # Independently: the record built and checked by pydantic, written by records/io.py.
    assert text == record_to_json(record_adapter().validate_python(data))
    assert text == record_to_json(record_adapter().validate_json(text))


@settings(max_examples=8, deadline=None)
@given(name=st.sampled_from(GAME_NAMES), seed=st.text("abc", max_size=3))
def test_each_move_is_written_as_format_move_writes_it_in_its_position(
    name: str, seed: str
) -> None:
    # The game loop keeps the texts of a game whose moves are written alone: one move's text
    # serves it in every later position, game after game.
    game = get_game(name)
    ruleset = game.ruleset()
    players = [Player(name=n, kind="bot", spec="random") for n in ("a", "b")]
    for number in range(3):
        setup = GameSetup(game, ruleset, players, f"{seed}/{number}", 200)
        data = play_game_data(setup, [make_bot(name, "random"), make_bot(name, "random")])
        record = record_adapter().validate_python(data)
        written = [turn.move for turn in record.turns]
        assert [
            game.format_move(step.before, step.move) for step in replay(record, game)
        ] == written


def _config(bots: tuple[str, str] = ("random", "greedy"), games: int = 8, game: str = "thax"):
    return build_config(
        game=game,
        bots=[BotEntry(name=f"b{i}", spec=spec) for i, spec in enumerate(bots)],
        games_per_pair=games,
        seed="pipe",
    )


def _without_times(lines: list[bytes]) -> list[dict[str, Any]]:
    games = [json.loads(line) for line in lines]
    for data in games:
        for turn in data.get("turns", []):
            turn.pop("time_ms")
    return games


def test_a_reused_bot_plays_as_a_new_one(monkeypatch: Any) -> None:
    config = _config(games=12)
    jobs = schedule(config)
    monkeypatch.setattr(worker, "_BUILT", {})
    together = worker.play_batch(config, jobs, BatchOptions("t", verify="none"))
    assert worker._BUILT  # the random and greedy bots were kept for the next game
    alone = []
    for job in jobs:
        monkeypatch.setattr(worker, "_BUILT", {})
        alone += worker.play_batch(config, [job], BatchOptions("t", verify="none")).games
    assert _without_times([g.line for g in together.games]) == _without_times(
        [g.line for g in alone]
    )


def test_a_bot_that_cannot_forget_is_built_for_every_game(monkeypatch: Any) -> None:
    from referee.games.agent import RandomBot

    built: list[RandomBot] = []

    class Keeper(RandomBot):
        def __init__(self) -> None:
            super().__init__()
            built.append(self)

        def reset(self) -> bool:
            return False

    monkeypatch.setattr(worker, "_BUILT", {})
    monkeypatch.setattr(worker, "make_bot", lambda game, spec: Keeper())
    config = _config(games=4)
    worker.play_batch(config, schedule(config), BatchOptions("t", verify="none"))
    assert len(built) == 2 * 4


@given(st.sampled_from(["all", "sample", "none"]))
@settings(max_examples=3, deadline=None)
def test_verify_replays_the_games_it_names(verify: str) -> None:
    config = _config(games=34)
    played = worker.play_batch(config, schedule(config), BatchOptions("t", verify=verify))  # type: ignore[arg-type]
    checked = [game.number for game in played.games if game.valid is not None]
    expected = {"all": list(range(34)), "sample": [0, 16, 32], "none": []}[verify]
    assert checked == expected
    assert all(game.valid for game in played.games if game.valid is not None)


class _Counting(Executor):
    """Runs work on a thread and notes the most submitted work not yet collected."""

    def __init__(self) -> None:
        self.inner = ThreadPoolExecutor(1)
        self.out: set[Future[Any]] = set()
        self.most = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.out = {future for future in self.out if not future.done()}
        future = self.inner.submit(fn, *args, **kwargs)
        self.out.add(future)
        self.most = max(self.most, len(self.out))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait, cancel_futures=cancel_futures)


def test_the_runner_keeps_only_a_few_batches_in_flight(tmp_path: Path) -> None:
    executor = _Counting()
    summary = run_tournament(
        tmp_path, _config(games=80), executor_factory=lambda: executor, verify="none"
    )
    assert summary.played == 80
    assert 1 <= executor.most <= IN_FLIGHT_PER_WORKER
    assert len(stored_games(tmp_path)) == 80


@given(
    rounds=st.integers(1, 3),
    games=st.sampled_from([2, 4, 6]),
    bots=st.integers(2, 5),
    layout=st.sampled_from(["by-round", "by-pairing"]),
)
def test_the_lazy_schedule_is_the_schedule(rounds: int, games: int, bots: int, layout: str) -> None:
    config = build_config(
        game="thax",
        bots=[BotEntry(name=f"b{i}", spec="random") for i in range(bots)],
        games_per_pair=games,
        rounds=rounds,
    )
    listed = list(iter_schedule(config, layout))  # type: ignore[arg-type]
    assert len(listed) == schedule_size(config) == rounds * games * bots * (bots - 1) // 2
    assert [job.number for job in listed] == list(range(len(listed)))
    # Every pairing plays games_per_pair x rounds games, half in each seat order.
    seats: dict[tuple[int, int], int] = {}
    for job in listed:
        seats[job.seats] = seats.get(job.seats, 0) + 1
    assert set(seats.values()) == {rounds * games // 2}
    assert listed == schedule(config, layout)  # type: ignore[arg-type]


@given(
    st.lists(
        st.tuples(st.sampled_from("xy"), st.integers(-1, 2), st.integers(0, 40), st.integers(0, 3))
    )
)
def test_stored_keys_refuse_what_a_set_refuses(keys: list[GameKey]) -> None:
    stored = StoredKeys()
    seen: set[GameKey] = set()
    for key in keys:
        assert stored.add(key) == (key not in seen)
        seen.add(key)


@given(
    st.lists(
        st.one_of(st.integers(0, 40_000), st.integers(0, 2**53 - 1), st.sampled_from([7, 4096])),
        max_size=60,
    )
)
def test_number_sets_refuse_what_a_set_refuses_whatever_the_numbers(numbers: list[int]) -> None:
    """Game numbers up to the largest a record holds, as an edited line may carry: a number
    far beyond the others is held without a bit array reaching it (else MemoryError)."""
    held = NumberSet()
    seen: set[int] = set()
    for number in numbers:
        assert held.add(number) == (number not in seen)
        seen.add(number)


def test_a_number_held_as_far_is_still_refused_once_the_bits_reach_it() -> None:
    held = NumberSet()
    assert held.add(200_000)  # far beyond the nothing held so far
    assert all(held.add(number) for number in range(100_000, 200_000))
    assert all(held.add(number) for number in range(100_000))
    assert not held.add(200_000) and not held.add(150_000) and held.add(200_001)


def test_a_resumed_run_plays_what_one_run_plays(tmp_path: Path) -> None:
    config = _config(games=16)
    run_tournament(tmp_path / "whole", config, verify="none")
    cut = tmp_path / "cut"
    run_tournament(cut, config, verify="none")
    games = cut / "games.jsonl"
    lines = games.read_bytes().splitlines(keepends=True)
    games.write_bytes(b"".join(lines[:5]) + lines[5][:40])  # a last line cut short
    summary = run_tournament(cut, verify="none")
    assert summary.already == 5 and summary.played == 11
    assert stored_games(cut) == stored_games(tmp_path / "whole")
