"""Issue 18: an external program runs once per worker across games and batches (a new process
only after a forfeit or when it asks), never outlives its worker, and protocol version 2 sends
only the turns played since the bot's last position (docs/bot-protocol.md)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games import get_game
from referee.games.agent import Forfeit
from referee.players import running
from referee.players.external import JsonLineBot, Limits, Terms, hello_terms, turn_message
from referee.players.process import Launch
from referee.records.model import Turn
from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import PAIRS_PER_BATCH, run_tournament
from tests.players.helpers import BOTS, alive
from tests.tournament.helpers import stored_records

ENGINE_OUTPUT = {"score", "depth", "nodes", "pv"}
TURNS_BOT = BOTS / "turns_bot.py"
GAMES = 24


def turns_entry(notes: Path, *arguments: str) -> BotEntry:
    return BotEntry(name="turns", command=[sys.executable, str(TURNS_BOT), str(notes), *arguments])


def play(
    tmp_path: Path, *arguments: str, keep_going: bool = False, games: int = GAMES
) -> tuple[list, dict[int, list[dict]]]:
    """The records of a THAX tournament of `random` against the turns bot on one worker, and
    what the bot noted, game by game, by process id."""
    notes = tmp_path / "notes"
    notes.mkdir()
    config = build_config(
        game="thax",
        bots=[BotEntry(name="random", spec="random"), turns_entry(notes, *arguments)],
        games_per_pair=games,
    )
    run_tournament(tmp_path / "t", config, concurrency=1, keep_going=keep_going)
    noted = {
        int(path.stem): [json.loads(line) for line in path.read_text().splitlines()]
        for path in notes.glob("*.jsonl")
    }
    return stored_records(tmp_path / "t"), noted


@pytest.mark.parametrize("arguments", [["1"], ["2"], ["2", "0", "own"]], ids=["v1", "v2", "own"])
def test_one_process_plays_every_batch_of_a_worker_and_sees_every_turn(
    tmp_path: Path, arguments: list[str]
) -> None:
    """`own`: a program with its own engine, sent positions without the legal moves."""
    records, noted = play(tmp_path, *arguments)
    assert GAMES > 2 * PAIRS_PER_BATCH  # several batches
    assert len(noted) == 1  # one process, for every batch the worker played
    assert not any(alive(pid) for pid in noted)  # gone with the worker
    assert not list((tmp_path / "t" / ".bots").glob("*"))
    games = noted[next(iter(noted))]
    assert len(games) == len(records) == GAMES
    assert all(r.result is not None and r.result.reason.value == "rules" for r in records)
    sent = [
        (
            [t.model_dump(mode="json", exclude_none=True, exclude=ENGINE_OUTPUT) for t in r.turns],
            [p.name for p in r.players].index("turns"),
        )
        for r in records
    ]
    for note in games:
        # The turns the bot put together are those of one game up to its last position: the
        # record then holds its own last move and, perhaps, the opponent's last turns.
        known = len(note["turns"])
        matching = [
            (turns, seat)
            for turns, seat in sent
            if turns[:known] == note["turns"]
            and turns[known]["seat"] == seat
            and all(turn["seat"] != seat for turn in turns[known + 1 :])
        ]
        assert matching
        turns, seat = matching[0]
        assert note["positions"] == sum(1 for turn in turns if turn["seat"] == seat)


def test_a_program_asking_for_it_gets_a_new_process_every_few_games(tmp_path: Path) -> None:
    records, noted = play(tmp_path, "2", "5")
    assert len(records) == GAMES
    assert sorted(len(games) for games in noted.values()) == [4, 5, 5, 5, 5]
    assert not any(alive(pid) for pid in noted)


def test_a_program_speaking_an_unknown_version_forfeits(tmp_path: Path) -> None:
    records, noted = play(tmp_path, "3", keep_going=True, games=4)
    assert len(records) == 4
    assert not noted
    for record in records:
        assert record.result is not None and record.result.reason.value == "protocol_error"
        assert "speaks protocol version 3, not 1 or 2" in (record.result.detail or "")


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 5)
    | st.floats(allow_nan=False)
    | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=2),
    max_leaves=3,
)


@given(
    version=JSON_VALUES,
    games=JSON_VALUES,
    legal=JSON_VALUES,
    given_fields=st.sets(st.sampled_from("vgl")),
)
def test_the_hello_answer_chooses_version_1_or_2_and_in_2_its_terms(
    version, games, legal, given_fields
) -> None:
    reply: dict = {"type": "hello"}
    for field, key, value in (
        ("v", "protocol_version", version),
        ("g", "games_per_process", games),
        ("l", "legal", legal),
    ):
        if field in given_fields:
            reply[key] = value

    def whole(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    chosen = reply.get("protocol_version", 1)
    asked = reply.get("games_per_process")
    listed = reply.get("legal", True)
    if not (whole(chosen) and chosen in (1, 2)):
        problem = "protocol version"
    elif chosen == 2 and not (asked is None or (whole(asked) and asked >= 1)):
        problem = "games_per_process"
    elif chosen == 2 and not isinstance(listed, bool):
        problem = "'legal'"
    else:
        expected = Terms() if chosen == 1 else Terms(2, asked, listed)
        assert hello_terms(reply) == expected
        return
    with pytest.raises(Forfeit) as caught:
        hello_terms(reply)
    assert caught.value.reason == "protocol_error" and problem in str(caught.value)


TEXT = st.text(alphabet="abcP0123456789 /*", min_size=1, max_size=6)
COUNT = st.none() | st.integers(0, 10**6)


@given(
    st.builds(
        Turn,
        seat=st.integers(0, 1),
        roll=st.none() | st.lists(st.integers(1, 6), min_size=2, max_size=2),
        move=TEXT,
        time_ms=COUNT,
        clock_ms=COUNT,
        score=st.none() | st.integers(-100, 100) | st.floats(-1e3, 1e3),
        depth=COUNT,
        nodes=COUNT,
        pv=st.none() | st.lists(TEXT, max_size=2),
        book=st.none() | st.just(True),
        comment=st.none() | TEXT,
    )
)
def test_a_turn_is_sent_as_its_record_has_it_without_the_engine_output(turn: Turn) -> None:
    expected = turn.model_dump(mode="json", exclude_none=True, exclude=ENGINE_OUTPUT)
    assert turn_message(turn) == expected
    assert json.loads(json.dumps(turn_message(turn))) == expected


def program(notes: Path, name: str = "turns") -> JsonLineBot:
    launch = Launch(command=(sys.executable, str(TURNS_BOT), str(notes), "2"), cwd=str(notes))
    return JsonLineBot(launch, Limits(move_seconds=5.0))


def test_a_released_program_is_handed_out_again_and_closed_at_the_end(tmp_path: Path) -> None:
    game = get_game("thax")
    first = running.running_bot("a", program(tmp_path))
    first.start_game(game.ruleset(), 0, "s")
    first.end_game(None, "rules")
    assert first.process is not None and first.process.alive()
    running.release(first)
    again = running.running_bot("a", program(tmp_path))
    assert again is first and first.process.alive()
    other = running.running_bot("b", program(tmp_path))  # another name: another program
    assert other is not first
    running.release(other)
    running.release(again)
    process = first.process
    running.close_all()
    assert not process.alive() and not alive(process.pid)
    assert running.running_bot("a", program(tmp_path)) is not first


def test_a_program_left_in_a_broken_batch_is_closed_not_kept(tmp_path: Path) -> None:
    bot = running.running_bot("a", program(tmp_path))
    bot.start_game(get_game("thax").ruleset(), 0, "s")
    process = bot.process
    assert process is not None
    running.release(bot, clean=False)
    assert not process.alive()
    assert running.running_bot("a", program(tmp_path)) is not bot


def test_a_program_idle_too_long_is_closed_at_the_next_look_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = running.running_bot("a", program(tmp_path))
    bot.start_game(get_game("thax").ruleset(), 0, "s")
    bot.end_game(None, "rules")
    running.release(bot)
    process = bot.process
    assert process is not None
    monkeypatch.setattr(running, "IDLE_SECONDS", -math.inf)
    running.release(running.running_bot("b", program(tmp_path)))
    assert not process.alive()
    running.close_all()
