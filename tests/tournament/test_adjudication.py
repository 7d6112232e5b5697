"""Adjudication by the bots' scores (issue 15): `resign=SCORE:MOVES`, `draw=SCORE:MOVES:AFTER`."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.records.model import Reason
from referee.tournament.adjudication import (
    Adjudication,
    Adjudicator,
    DrawRule,
    ResignRule,
    parse_adjudication,
)
from referee.tournament.config import BotEntry, ConfigError, build_config
from referee.tournament.runner import run_tournament
from referee.validator.check import validate_record
from tests.tournament.helpers import stored_records

Turns = list[tuple[int, int | None]]
"""(seat, score or None) of each turn."""


def last_moves(turns: Turns, seat: int, count: int) -> list[tuple[int, int | None]] | None:
    """The last `count` moves of `seat` as (turn number, score), or None if it has fewer."""
    own = [(number, score) for number, (s, score) in enumerate(turns, 1) if s == seat]
    return own[-count:] if len(own) >= count else None


def resign_winner(turns: Turns, rule: ResignRule) -> int | None:
    for loser in (0, 1):
        lost = last_moves(turns, loser, rule.moves)
        won = last_moves(turns, 1 - loser, rule.moves)
        if lost is None or won is None:
            continue
        losing = all(s is not None and s <= -rule.score for _, s in lost)
        if losing and all(s is not None and s >= rule.score for _, s in won):
            return 1 - loser
    return None


def drawn(turns: Turns, rule: DrawRule) -> bool:
    for seat in (0, 1):
        moves = last_moves(turns, seat, rule.moves)
        if moves is None or not all(
            number > rule.after and s is not None and abs(s) <= rule.score for number, s in moves
        ):
            return False
    return True


def expected(turns: Turns, rules: Adjudication) -> tuple[int, int | None] | None:
    """The first turn (1-based) after which a rule holds, and the winner (None: a draw)."""
    for end in range(1, len(turns) + 1):
        played = turns[:end]
        if rules.resign is not None:
            winner = resign_winner(played, rules.resign)
            if winner is not None:
                return end, winner
        if rules.draw is not None and drawn(played, rules.draw):
            return end, None
    return None


scores = st.one_of(st.none(), st.integers(-12, 12))
streams = st.lists(st.tuples(st.integers(0, 1), scores), max_size=60)
resign_rules = st.builds(ResignRule, st.integers(1, 10), st.integers(1, 4))
draw_rules = st.builds(DrawRule, st.integers(0, 10), st.integers(1, 4), st.integers(0, 12))


@given(
    turns=streams,
    resign=st.one_of(st.none(), resign_rules),
    draw=st.one_of(st.none(), draw_rules),
)
def test_a_rule_fires_exactly_when_its_condition_first_holds(
    turns: Turns, resign: ResignRule | None, draw: DrawRule | None
) -> None:
    rules = Adjudication(resign, draw)
    judge = Adjudicator(rules)
    fired = None
    for number, (seat, score) in enumerate(turns, 1):
        result = judge.after_turn(number, seat, score)
        if result is not None:
            assert result.reason.value == "adjudicated"
            assert result.points == (0 if result.winner is None else 1)
            rule = rules.resign if result.winner is not None else rules.draw
            assert result.detail is not None and result.detail.startswith(str(rule))
            fired = (number, result.winner)
            break
    assert fired == expected(turns, rules)


@given(score=st.floats(0.01, 1e6), moves=st.integers(1, 99), after=st.integers(0, 999))
def test_rules_read_back_from_their_text(score: float, moves: int, after: int) -> None:
    rules = parse_adjudication([f"resign=-{score!r}:{moves}", f"draw={score!r}:{moves}:{after}"])
    assert rules.resign == ResignRule(score, moves)
    assert rules.draw == DrawRule(score, moves, after)
    assert parse_adjudication([str(rules.resign), str(rules.draw)]) == rules


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (["resign=0:3"], "must not be 0"),
        (["resign=5"], "not resign=SCORE:MOVES"),
        (["draw=-1:2:3"], "a draw SCORE is a bound"),
        (["draw=1:0:3"], "MOVES '0' is not a whole number >= 1"),
        (["resign=x:3"], "SCORE 'x' is not a number"),
        (["resign=nan:3"], "SCORE 'nan' is not a number"),
        (["resign=5:3", "resign=6:3"], "given twice"),
        (["mercy=5:3"], "not resign=SCORE:MOVES"),
    ],
)
def test_a_bad_rule_is_refused_in_the_configuration(rules: list[str], message: str) -> None:
    bots = [BotEntry(name="a", spec="random"), BotEntry(name="b", spec="random")]
    with pytest.raises(ConfigError, match=f"adjudicate: .*{message}"):
        build_config(game="thax", bots=bots, adjudicate=rules)


def test_a_thax_tournament_ends_games_by_adjudication_and_the_records_validate(
    tmp_path: Path,
) -> None:
    """Perfect play scores THAX by its expected points (2 x win chance - 1)."""
    config = build_config(
        game="thax",
        bots=[BotEntry(name=name, spec="thax-perfect") for name in ("a", "b")],
        games_per_pair=12,
        adjudicate=["resign=0.5:2", "draw=0.1:3:10"],
    )
    run_tournament(tmp_path, config)
    records = stored_records(tmp_path)
    adjudicated = [r for r in records if r.result and r.result.reason.value == "adjudicated"]
    assert {r.result.winner is None for r in adjudicated} == {True, False}  # type: ignore[union-attr]
    for record in records:
        assert validate_record(record, "", 0).valid
        assert all(turn.score is not None for turn in record.turns)
    for record in adjudicated:
        assert record.result is not None
        # The validator takes an adjudicated result only with its reason.
        as_rules = record.result.model_copy(update={"reason": Reason.RULES})
        report = validate_record(record.model_copy(update={"result": as_rules}), "", 0)
        assert [d.code for d in report.diagnostics] == ["result-not-over"]
        rule = config.adjudicate.resign if record.result.winner is not None else None
        turns = [(turn.seat, turn.score) for turn in record.turns]
        # The game stopped at the first turn a rule held, as the rule's own check says.
        if rule is not None:
            assert resign_winner(turns, rule) == record.result.winner
            assert resign_winner(turns[:-1], rule) is None
        else:
            draw = config.adjudicate.draw
            assert draw is not None and drawn(turns, draw) and not drawn(turns[:-1], draw)
