"""Standings: W/D/L, points (Takhteh gammons), forfeits by reason, games left out, crosstable."""

from __future__ import annotations

from referee.ratings.output import render
from referee.records.model import Reason
from tests.ratings.helpers import by_bot, record, tables_from


def test_forfeits_are_counted_by_reason_against_the_bot_that_forfeited(tmp_path):
    """Protects the forfeit columns: each forfeit reason is counted for the loser; a
    resignation or a rules loss is no forfeit."""
    records = [
        record("A", "B", 1, reason=Reason.TIME),
        record("B", "A", 0, reason=Reason.TIME),
        record("A", "B", 1, reason=Reason.CRASH),
        record("A", "B", 0, reason=Reason.ILLEGAL_MOVE),  # B forfeits
        record("B", "A", 0, reason=Reason.PROTOCOL_ERROR),
        record("A", "B", 1, reason=Reason.RESIGN),
        record("A", "B", 1, reason=Reason.RULES),
    ]
    (table,) = tables_from(tmp_path, records)
    row = table.standings.set_index("bot")
    assert row.loc["A", "forfeit_time"] == 2
    assert row.loc["A", "forfeit_crash"] == 1
    assert row.loc["A", "forfeit_protocol_error"] == 1
    assert row.loc["A", "forfeit_illegal_move"] == 0
    assert row.loc["A", "forfeits"] == 4
    assert row.loc["B", "forfeit_illegal_move"] == 1
    assert row.loc["B", "forfeits"] == 1
    assert "4 (time 2, crash 1, protocol error 1)" in render([table], "markdown")


def test_takhteh_gammons_count_two_points(tmp_path):
    """Protects the points column: a Takhteh gammon (2 points) adds 2, a single game 1,
    while wins, losses and the score count games."""
    records = [
        record("A", "B", 0, game="takhteh", points=2),
        record("B", "A", 1, game="takhteh", points=1),
        record("A", "B", 1, game="takhteh", points=2),
        record("B", "A", None, game="takhteh"),
    ]
    (table,) = tables_from(tmp_path, records)
    assert table.game == "takhteh"
    assert by_bot(table, "points") == {"A": 3, "B": 2}
    assert by_bot(table, "wins") == {"A": 2, "B": 1}
    assert by_bot(table, "draws") == {"A": 1, "B": 1}
    assert by_bot(table, "score_pct") == {"A": 62.5, "B": 37.5}


def test_unfinished_and_self_play_games_are_left_out_and_counted(tmp_path):
    """Protects what is skipped: a game without a result and a bot against itself are not
    rated, and the table's notes say how many."""
    records = [
        record("A", "B", 0),
        record("B", "A", 0),
        record("A", "B", None, finished=False),
        record("A", "A", 0),
    ]
    (table,) = tables_from(tmp_path, records)
    assert table.games == 2
    assert by_bot(table, "games") == {"A": 2, "B": 2}
    assert "1 unfinished game left out" in table.notes
    assert "1 game of a bot against itself left out" in table.notes


def test_crosstable_gives_each_pair_from_both_sides(tmp_path):
    """Protects the crosstable: each pair's W-D-L and score, mirrored for the opponent."""
    records = [record("A", "B", 0), record("B", "A", None), record("A", "C", 1)]
    (table,) = tables_from(tmp_path, records)
    cross = table.crosstable.set_index(["bot", "opponent"])
    assert tuple(cross.loc[("A", "B"), ["wins", "draws", "losses"]]) == (1, 1, 0)
    assert tuple(cross.loc[("B", "A"), ["wins", "draws", "losses"]]) == (0, 1, 1)
    assert cross.loc[("A", "B"), "score_pct"] == 75.0
    assert cross.loc[("C", "A"), "score_pct"] == 100.0
    assert ("B", "C") not in cross.index
