"""A tournament's TOML file is held to the ranges of the command line (issue 31): every number
of the file is checked against the range of the option of the same name (read here from the
option itself), and a bot's launch settings against theirs; a value outside, of another type,
NaN or infinite is one line naming the file and the key."""

from __future__ import annotations

import json
import math
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli.app import app
from referee.tournament.config import ConfigError, TournamentConfig, load_config_file
from tests.cli.commands import one_error_line, referee

BOTS = 'bots = [{name = "a", spec = "random"}, {name = "b", command = ["prog"]}]'
BUILT_IN = 'bots = [{name = "a", spec = "random"}, {name = "b", spec = "greedy"}]'


def run_option_ranges() -> dict[str, tuple[float, float, type]]:
    """The range and type of each numeric option of `tournament run`, by its config key."""
    run = typer.main.get_command(app).commands["tournament"].commands["run"]  # type: ignore[attr-defined]
    ranges = {}
    for param in run.params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is not None and descriptor.annotation in (int, float):
            # --games-per-pair's lower end is its callback's: an even number >= 2
            low = 2 if param.name == "games_per_pair" else param.min
            ranges[param.name] = (low, param.max, descriptor.annotation)
    # --concurrency is no key of the file: how a run plays, not what it plays.
    return {key: value for key, value in ranges.items() if key in TournamentConfig.model_fields}


RANGES = run_option_ranges()
# A bot's launch settings (docs/bot-protocol.md): no option of their own to read them from.
BOT_RANGES: dict[str, tuple[float, float, type]] = {
    "startup_time": (0.001, 86_400.0, float),
    "time_limit": (0.001, 86_400.0, float),
    "memory_mb": (16, 1 << 24, int),
    "max_line": (64, 1 << 30, int),
}


def test_the_options_read_are_those_of_the_file() -> None:
    assert {"turn_cap", "games_per_pair", "seeds", "rounds", "time_limit", "log_limit_mb"} <= set(
        RANGES
    )
    assert "openings_start" in RANGES


def toml_value(value: Any) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return json.dumps(value)  # an int, a finite float, a string, a list: TOML writes them so


def in_range(value: Any, low: float, high: float, kind: type) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if not math.isfinite(value):
        return False
    if kind is int and not isinstance(value, int):
        return False
    if not low <= value <= high:
        return False
    return not (kind is int and low == 2 and value % 2)  # games per pair: even


NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 2, 63, 64, 2**31, 2**63, 2**64, 10**6, 10**6 + 1, 10**9, 10**9 + 1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 0.0005, 0.001, 1e-9, 86_400.0, 86_400.5, 1024.0, 1e300]),
    st.text(alphabet="ab1.-", max_size=5),
    st.lists(st.integers(0, 5), max_size=2),
)


def check(path: Path, key: str, value: Any, expected: tuple[float, float, type]) -> None:
    try:
        load_config_file(path, {})
    except ConfigError as error:
        message = str(error)
        assert not in_range(value, *expected), f"{key} = {value!r} refused: {message}"
        assert "\n" not in message and message.startswith(f"{path}: "), message
        assert key in message.split(":")[1], message
        return
    assert in_range(value, *expected), f"{key} = {value!r} accepted"


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(key=st.sampled_from(sorted(RANGES)), value=NUMBERS)
def test_every_number_of_the_file_has_the_options_range(
    key: str, value: Any, tmp_path: Path
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(f'game = "thax"\n{BOTS}\n{key} = {toml_value(value)}\n')
    if key != "openings_start":
        check(path, key, value, RANGES[key])
        return
    # Without a suite only the first opening can be asked for; a number out of range is
    # refused for its range, before that.
    with pytest.raises(ConfigError) if value != 1 else nullcontext() as raised:
        load_config_file(path, {})
    if raised is not None:
        message = str(raised.value)
        assert "\n" not in message and message.startswith(f"{path}: "), message
        if not in_range(value, *RANGES[key]):
            assert message.startswith(f"{path}: openings_start: "), message


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(key=st.sampled_from(sorted(BOT_RANGES)), value=NUMBERS)
def test_every_launch_setting_has_its_range(key: str, value: Any, tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    bots = BOTS.replace('["prog"]}', f'["prog"], {key} = {toml_value(value)}}}')
    path.write_text(f'game = "thax"\n{bots}\n')
    check(path, f"bots.1.{key}", value, BOT_RANGES[key])


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("turn_cap = 18446744073709551616", "turn_cap"),
        ("time_limit = inf", "time_limit"),
        ("log_limit_mb = 1e400", "log_limit_mb"),
        ('rounds = "3"', "rounds"),
        ("seeds = [1]", "seeds"),
        ("games_per_pair = -2", "games_per_pair"),
    ],
)
def test_the_command_says_one_line_with_the_file_and_key(
    line: str, key: str, tmp_path: Path
) -> None:
    path = tmp_path / "hostile.toml"
    path.write_text(f'game = "thax"\n{BUILT_IN}\n{line}\n')
    out = referee("tournament", "run", "--out", str(tmp_path / "t"), "--config", str(path), "-q")
    line = one_error_line(out)
    assert line.startswith(f"referee: error: {path}: {key}: "), line
    assert not (tmp_path / "t").exists()
