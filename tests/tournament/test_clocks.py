"""Game clocks (issue 15): `--tc BASE+INC` globally and per bot, the clocks in the JSON
protocol's position message, each turn's clock in the record, and losing on time."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.app import app
from referee.games.agent import Bot, Clock, RandomBot
from referee.games.thax import GAME as THAX
from referee.records.model import Player, Record
from referee.tournament.adjudication import parse_adjudication
from referee.tournament.clock import parse_time_control
from referee.tournament.config import BotEntry, ConfigError, build_config, load_config_file
from referee.tournament.play import GameControl, GameSetup, play_game
from referee.tournament.runner import run_tournament
from referee.tournament.store import TournamentStore
from tests.players.helpers import BOTS
from tests.tournament.helpers import stored_records

OVER = re.compile(r"(\d+) ms used with (\d+) ms on the clock: (\d+) ms over")


def clock_bot(mode: str, tc: str | None = None) -> BotEntry:
    command = [sys.executable, str(BOTS / "clock_bot.py"), mode]
    protocol = "trax" if mode.startswith("trax") else "json"
    return BotEntry(name=mode, command=command, startup_time=5.0, tc=tc, protocol=protocol)


def clocks_before(record: Record, bases: Sequence[int], increments: Sequence[int]) -> list[int]:
    """Each turn's clock before the move, worked out from the record alone: a seat starts
    with its base and after each of its moves has base + increments - the times used so far;
    every turn's `clock_ms` must be that to within 1 ms."""
    used = [0, 0]
    moves = [0, 0]
    before = []
    for turn in record.turns:
        seat = turn.seat
        before.append(bases[seat] + moves[seat] * increments[seat] - used[seat])
        assert turn.time_ms is not None
        used[seat] += turn.time_ms
        moves[seat] += 1
        expected = bases[seat] + moves[seat] * increments[seat] - used[seat]
        assert turn.clock_ms is not None and abs(turn.clock_ms - expected) <= 1, turn
    return before


@given(
    base=st.integers(min_value=1, max_value=10**7),
    increment=st.integers(min_value=0, max_value=10**5),
    with_increment=st.booleans(),
)
def test_time_controls_read_seconds_to_the_millisecond(
    base: int, increment: int, with_increment: bool
) -> None:
    text = f"{base // 1000}.{base % 1000:03d}"
    if with_increment:
        text += f"+{increment // 1000}.{increment % 1000:03d}"
    control = parse_time_control(text)
    assert (control.base_ms, control.increment_ms) == (base, increment if with_increment else 0)


@pytest.mark.parametrize("text", ["", "10+", "+1", "-1+0", "0", "0+1", "1/60", "10+0.1+2", "x"])
def test_a_bad_time_control_is_refused_with_the_syntax(text: str) -> None:
    with pytest.raises(ValueError, match="BASE"):
        parse_time_control(text)


@given(
    left=st.integers(0, 10**7),
    more=st.integers(0, 10**6),
    increment=st.integers(0, 10**5),
    seat=st.integers(0, 1),
)
def test_a_bot_on_a_clock_budgets_at_most_half_of_it_and_more_with_more(
    left: int, more: int, increment: int, seat: int
) -> None:
    def budget(own_ms: int, increment_ms: int) -> float:
        bot = RandomBot()
        bot.seat = seat
        clocks = [None, None]
        clocks[seat] = own_ms
        increments = [0, 0]
        increments[seat] = increment_ms
        bot.clock = Clock((clocks[0], clocks[1]), (increments[0], increments[1]))
        return bot.seconds_for_move(7.0)

    seconds = budget(left, increment)
    assert 0 < seconds <= max(0.001, left / 2000)
    assert budget(left + more, increment) >= seconds
    assert budget(left, increment + more) >= seconds
    assert RandomBot().seconds_for_move(7.0) == 7.0  # no clock: the bot's own limit


class Sleeper(Bot):
    """Spends `share` of its first clock on every move."""

    name = "sleeper"

    def __init__(self, share: float) -> None:
        super().__init__()
        self.share = share
        self.first: float | None = None

    def choose(self, state, history=()):
        left = self.clock_seconds()
        assert left is not None
        self.first = self.first or left
        time.sleep(self.first * self.share)
        return self.rng.choice(state.legal_moves())


def test_a_built_in_bot_that_spends_its_clock_loses_on_time_by_the_ms_it_was_over() -> None:
    sleeper = Sleeper(0.4)
    players = [Player(name="sleeper"), Player(name="random")]
    bots = [sleeper, THAX.bots()["greedy"]()]
    control = GameControl(clocks=(parse_time_control("0.6"), parse_time_control("60")))
    record = play_game(GameSetup(THAX, THAX.ruleset(), players, "burn", control=control), bots)
    result = record.result
    assert result is not None and result.reason.value == "time" and result.winner == 1
    match = OVER.search(result.detail or "")
    assert match is not None, result.detail
    used, left, over = map(int, match.groups())
    assert over == used - left > 0
    own = [turn for turn in record.turns if turn.seat == 0]
    assert len(own) == 2  # 40% twice (120 ms to spare), then the third is 120 ms over
    assert left == own[-1].clock_ms
    clocks_before(record, [600, 60_000], [0, 0])


@pytest.mark.parametrize(
    ("game", "mode", "base_ms"),
    # 0.8 s for Trax: the program's start (a Python import, about 0.1 s) and its first late
    # move leave less than its second late move needs, so no short game ends first. 1.2 s for
    # the THAX program: its second move (40% of it) fits with 240 ms to spare, for a loaded
    # machine's answer to come late, and its third is 240 ms over.
    [("thax", "burn", 1200), ("trax", "trax-burn", 800)],
)
def test_an_external_bot_that_spends_its_clock_loses_on_time(
    tmp_path: Path, game: str, mode: str, base_ms: int
) -> None:
    """In both protocols: the Trax contest protocol has no clock, the referee keeps it."""
    config = build_config(
        game=game,
        bots=[BotEntry(name="greedy", spec="greedy"), clock_bot(mode)],
        games_per_pair=2,
        tc=str(base_ms / 1000),
    )
    run_tournament(tmp_path, config)
    for record in stored_records(tmp_path):
        seat = [player.name for player in record.players].index(mode)
        result = record.result
        assert result is not None and result.reason.value == "time"
        assert result.winner == 1 - seat
        match = OVER.search(result.detail or "")
        assert match is not None, result.detail
        used, left, over = map(int, match.groups())
        assert over == used - left > 0
        # The clock it ran out on is the one its last move left (a Trax contest program's
        # start, an import of referee here, counts against its first move).
        own = [turn for turn in record.turns if turn.seat == seat]
        assert left == (own[-1].clock_ms if own else base_ms)
        assert len(own) == 2 or mode == "trax-burn"
        clocks_before(record, [base_ms, base_ms], [0, 0])


def test_the_position_message_carries_both_clocks_and_per_bot_controls(tmp_path: Path) -> None:
    """The echo bot reports the clocks it was sent as its score (its own), depth (its
    increment) and nodes (the opponent's): they must be the clocks before each of its moves,
    under its own time control beside the tournament's."""
    config = build_config(
        game="thax",
        bots=[BotEntry(name="greedy", spec="greedy"), clock_bot("echo", tc="30+0.5")],
        games_per_pair=2,
        tc="20+0.25",
    )
    run_tournament(tmp_path, config)
    records = stored_records(tmp_path)
    assert len(records) == 2
    for record in records:
        seat = [player.name for player in record.players].index("echo")
        bases = [20_000, 20_000]
        increments = [250, 250]
        bases[seat], increments[seat] = 30_000, 500
        before = clocks_before(record, bases, increments)
        assert record.result is not None and record.result.reason.value == "rules"
        latest = list(bases)
        for turn, clock in zip(record.turns, before, strict=True):
            if turn.seat == seat:
                assert turn.score == clock
                assert turn.depth == increments[seat]
                assert turn.nodes == latest[1 - seat]
                assert turn.pv is not None and turn.move == turn.pv[0]
            else:
                assert turn.score is None and turn.pv is None
            assert turn.clock_ms is not None
            latest[turn.seat] = turn.clock_ms


def test_time_controls_and_rules_in_toml_and_on_the_command_line(tmp_path: Path) -> None:
    toml = tmp_path / "t.toml"
    toml.write_text(
        'game = "thax"\ntc = "10+0.1"\nadjudicate = ["resign=0.9:3"]\n'
        '[[bots]]\nname = "a"\nspec = "random"\ntc = "40"\n'
        '[[bots]]\nname = "b"\nspec = "greedy"\n'
    )
    config = load_config_file(toml, {})
    assert config.time_control(0) == parse_time_control("40")
    assert config.time_control(1) == parse_time_control("10+0.1")
    bad = tmp_path / "bad.toml"
    bad.write_text(toml.read_text().replace('"40"', '"40 minutes"'))
    with pytest.raises(ConfigError, match=r"bad.toml: bots.0.tc: time control '40 minutes'"):
        load_config_file(bad, {})
    out = tmp_path / "run"
    args = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    args += ["--tc", "5+0.05", "--adjudicate", "draw=0.1:3:10", "-q"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    info = TournamentStore(out).load()
    assert info.config.tc == parse_time_control("5+0.05")
    assert info.config.adjudicate == parse_adjudication(["draw=0.1:3:10"])
    for record in stored_records(out):
        clocks_before(record, [5000, 5000], [50, 50])
    refused = CliRunner().invoke(app, [*args[:-5], "--tc", "5 min", "-q"])
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "time control '5 min'" in refused.output


GAMES = {
    "thax": "greedy,thax-perfect",
    "takhteh": "expectimax,tdnet",
    "trax": "search,threat",
    "thai": "alphabeta,search",
}


def built_in_bots_on_the_clock(
    tmp_path: Path, games_per_pair: int, bots: dict, turn_cap: int | None = None
) -> int:
    """Tournaments of built-in bots on 2+0.05: no game lost on time and every clock adds up;
    the number of games."""
    tc = "2+0.05"
    control = parse_time_control(tc)
    games = 0
    for game, names in bots.items():
        out = tmp_path / game
        config = build_config(
            game=game,
            bots=[BotEntry(name=name, spec=name) for name in names.split(",")],
            games_per_pair=games_per_pair,
            tc=tc,
            turn_cap=turn_cap,
        )
        run_tournament(out, config, concurrency=2)
        for record in stored_records(out):
            assert record.result is not None and record.result.reason.value != "time", record
            clocks_before(record, [control.base_ms] * 2, [control.increment_ms] * 2)
            games += 1
    return games


def test_built_in_bots_budget_from_the_clock(tmp_path: Path) -> None:
    """The short version of the 200 games below: a pair of games per game, 16 turns each. The
    search bots' own limit (a second a move) would run out of 2 s + 8 increments."""
    assert built_in_bots_on_the_clock(tmp_path, 2, GAMES, turn_cap=16) == 8


@pytest.mark.slow
def test_built_in_bots_never_lose_on_time_in_200_games(tmp_path: Path) -> None:
    every_bot = {
        "thax": "random,greedy,thax-perfect",
        "takhteh": "random,greedy,expectimax,tdnet",
        "trax": "random,greedy,search,threat",
        "thai": "random,greedy,alphabeta,search",
    }
    counts = {"thax": 20, "takhteh": 8, "trax": 8, "thai": 8}
    games = 0
    for game, names in every_bot.items():
        games += built_in_bots_on_the_clock(tmp_path / game, counts[game], {game: names})
    assert games == 60 + 3 * 48
