"""Random Takhteh games and matches as records, for the tests."""

from __future__ import annotations

import random

from referee.games.takhteh import GAME
from referee.games.takhteh.rules import CHECKERS, TakhtehState
from referee.records.model import MatchInfo, Player, Reason, Result, TakhtehRecord, Turn


def checkers_conserved(state: TakhtehState) -> bool:
    """15 checkers a side on the points, the bar or off."""
    return all(sum(state.checkers(seat)) == CHECKERS for seat in (0, 1))


def random_game(
    rng: random.Random,
    length: int = 1,
    number: int = 1,
    score: tuple[int, int] = (0, 0),
    first: int | None = None,
) -> TakhtehRecord:
    """One game of random plays; `first` starts it without an opening roll."""
    ruleset = GAME.ruleset(match=length)
    state = GAME.initial_state(ruleset, first=first)
    opening: list[list[int]] = []
    while state.is_chance() and state.to_move is None:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        opening.append(list(roll))
        state = state.apply_chance(roll)
    turns: list[Turn] = []
    while not state.is_terminal():
        assert checkers_conserved(state)
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        state = state.apply_chance(roll)
        move = rng.choice(state.legal_moves())
        text = GAME.format_move(state, move)
        after = state.play(move)
        # The written move reads back to the same position.
        assert state.play(GAME.parse_move(state, text)) == after
        turns.append(Turn(seat=state.to_move, roll=list(roll), move=text))
        state = after
    assert checkers_conserved(state)
    outcome = state.outcome()
    assert outcome is not None
    return TakhtehRecord(
        game="takhteh",
        ruleset=ruleset.id,
        players=[Player(name="alice"), Player(name="bob")],
        opening_rolls=opening,
        turns=turns,
        result=Result(
            winner=outcome.winner, points=outcome.points, reason=Reason.RULES, detail=outcome.detail
        ),
        match=MatchInfo(length=length, game=number, score=list(score), first=first)
        if length > 1 or first is not None
        else None,
    )


def random_match(rng: random.Random, length: int) -> list[TakhtehRecord]:
    """Games until a player has `length` points; the winner of a game starts the next."""
    score = [0, 0]
    records: list[TakhtehRecord] = []
    first: int | None = None
    while max(score) < length:
        record = random_game(rng, length, len(records) + 1, (score[0], score[1]), first)
        records.append(record)
        assert record.result is not None and record.result.winner is not None
        score[record.result.winner] += record.result.points
        first = record.result.winner
    return records
