"""`moves` and `perft` at the start of the dice games, where the opening roll comes first."""

from __future__ import annotations

from typer.testing import CliRunner

from referee.cli.app import app

runner = CliRunner()

ROLLS = {f"{a}{b}" for a in range(1, 7) for b in range(1, 7) if a >= b}
"""The 21 distinct rolls of two dice, written high die first."""


def lines(args: list[str]) -> list[str]:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_takhteh_opening_31_lists_its_sixteen_plays() -> None:
    plays = lines(["moves", "--game", "takhteh", "--roll", "31"])
    # 31 from the start: the classic point-making 8/5 6/5, among 16 distinct plays.
    assert "8/5 6/5" in plays and "24/21 24/23" not in plays
    assert len(plays) == len(set(plays)) == 16


def test_thax_opening_35_is_the_one_placement() -> None:
    assert lines(["moves", "--game", "thax", "--roll", "35"]) == ["P3 P5"]


def test_without_a_roll_every_first_roll_is_listed() -> None:
    rows = [line.split("\t") for line in lines(["moves", "--game", "takhteh"])]
    assert {"".join(sorted(roll, reverse=True)) for roll, _ in rows} == ROLLS
    thirty_one = [play for roll, play in rows if roll in ("31", "13")]
    assert thirty_one == lines(["moves", "--game", "takhteh", "--roll", "31"])


def test_perft_counts_from_the_start_and_after_the_opening() -> None:
    depth1 = lines(["perft", "--game", "takhteh", "--depth", "1"])
    first_plays = len(lines(["moves", "--game", "takhteh"]))
    # From the start the opening decides who moves: either seat, the same plays mirrored.
    assert depth1 == [f"1\t{2 * first_plays}"]
    rolled = lines(["perft", "--game", "takhteh", "--depth", "1", "--roll", "31"])
    assert rolled == ["1\t16"]
