"""Takhteh rules (docs/rules/takhteh.md): each Takhteh difference on a position where standard
backgammon answers otherwise, and the standard rules the engine keeps."""

from __future__ import annotations

import pytest

from referee.games.base import IllegalMove, RulesetError
from referee.games.dice import TURN_OUTCOMES
from referee.games.takhteh import GAME
from referee.games.takhteh.rules import (
    NO_MOVE,
    START,
    Board,
    TakhtehState,
    apply_legs,
)
from tests.games.takhteh.reference import make_board, reference_positions

RULESET = GAME.ruleset()


def on_roll(board: Board, roll: tuple[int, int], seat: int = 0) -> TakhtehState:
    return TakhtehState(RULESET, board, seat, roll)


def positions(state: TakhtehState) -> set[Board]:
    return {apply_legs(state.board, move) for move in state.legal_moves()}


def reached(state: TakhtehState, text: str) -> Board:
    """The position (seen from the mover) that the play `text` reaches; raises if illegal."""
    return state.resolve(GAME.parse_move(state, text))[0]


def rule_broken(state: TakhtehState, text: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        state.play(GAME.parse_move(state, text))
    return caught.value.rule


# --- Takhteh difference: no hit-and-run in the home board ------------------------------------

HIT_AND_RUN = make_board({8: 1, 13: 5, 24: 2, 6: 4, 4: 3}, {5: 1, 19: 5, 17: 3, 12: 5, 1: 1})


def test_no_hit_and_run_checker_that_hit_in_home_may_not_move_on() -> None:
    """8/5*/3 hits the blot on the 5-point and runs on: standard, but not Takhteh."""
    state = on_roll(HIT_AND_RUN, (3, 2))
    run = make_board({3: 1, 13: 5, 24: 2, 6: 4, 4: 3}, {25: 1, 19: 5, 17: 3, 12: 5, 1: 1})
    assert run in reference_positions(HIT_AND_RUN, (3, 2), takhteh=False)
    assert run not in positions(state)
    assert rule_broken(state, "8/5*/3") == "takhteh.hit-and-run"
    assert rule_broken(state, "8/5* 5/3") == "takhteh.hit-and-run"


def test_no_hit_and_run_other_checkers_still_move_and_unmarked_route_avoids_the_hit() -> None:
    """After the hit other checkers move; 8/3 written plainly goes round the blot (via 6)."""
    state = on_roll(HIT_AND_RUN, (3, 2))
    assert reached(state, "8/5* 6/4")[5] == 1
    quiet = reached(state, "8/3")
    assert quiet[5] == -1 and quiet[3] == 1 and quiet[0] == 0
    assert positions(state) == reference_positions(HIT_AND_RUN, (3, 2))


def test_no_hit_and_run_another_checker_may_land_and_leave() -> None:
    """7/5* 7/5 5/3 with 2-2: the checker that did not hit moves on; the hitter stays."""
    board = make_board({7: 2, 13: 5, 6: 5, 8: 3}, {5: 1, 19: 5, 17: 3, 12: 5, 1: 1})
    state = on_roll(board, (2, 2))
    after = reached(state, "13/11 7/5* 7/5 5/3")
    assert (after[7], after[5], after[3], after[0]) == (0, 1, 1, -1)
    assert reached(state, "13/11 7/5*/3 7/5") == after
    both_run = make_board({13: 5, 6: 5, 8: 3, 3: 2}, {25: 1, 19: 5, 17: 3, 12: 5, 1: 1})
    assert both_run in reference_positions(board, (2, 2), takhteh=False)
    assert both_run not in positions(state)


# --- Takhteh difference: no wasted pips in the bear-off --------------------------------------

BEAR_OFF = make_board({6: 1, 5: 1, 3: 1}, {20: 2, 13: 13})


def test_no_wasted_pips_die_matching_an_occupied_point_must_bear_off() -> None:
    """With 3-1 and a checker on the 3-point the 3 bears that checker off; 6/3 is refused."""
    state = on_roll(BEAR_OFF, (3, 1))
    inside = make_board({4: 1, 3: 2}, {20: 2, 13: 13})
    assert apply_legs(BEAR_OFF, ((6, 3), (5, 4))) == inside
    assert inside in reference_positions(BEAR_OFF, (3, 1), takhteh=False)
    assert inside not in positions(state)
    assert rule_broken(state, "6/3 5/4") == "takhteh.wasted-pips"
    assert reached(state, "3/off 6/5") == make_board({5: 2}, {20: 2, 13: 13})
    assert positions(state) == reference_positions(BEAR_OFF, (3, 1))


def test_no_wasted_pips_checks_every_leg_in_turn() -> None:
    """Checkers on 6 and 2 with 2-2: the 2 bears off, 6/4/2 then bears off again."""
    board = make_board({6: 1, 2: 1}, {20: 15})
    state = on_roll(board, (2, 2))
    assert positions(state) == {make_board({}, {20: 15})}
    assert state.play(GAME.parse_move(state, "6/off 2/off")).is_terminal()
    assert positions(state) == reference_positions(board, (2, 2))


def test_no_wasted_pips_does_not_apply_before_every_checker_is_home() -> None:
    """5/3 with a 2 is allowed while a checker is still on the 8-point (not bearing off)."""
    board = make_board({8: 1, 5: 3, 2: 1}, {20: 15})
    state = on_roll(board, (2, 2))
    after = reached(state, "5/3(3) 8/6")
    assert (after[8], after[6], after[5], after[3], after[2]) == (0, 1, 0, 3, 1)


# --- Takhteh restrictions come first, then the standard dice rules ---------------------------


def test_larger_die_rule_applies_after_the_takhteh_restrictions() -> None:
    """One checker on 8, blots on 5 and 6, dice 3-2: either hit freezes the checker, so only
    one die plays, and it must be the larger (8/5*); standard plays both dice."""
    board = make_board({8: 1}, {5: 1, 6: 1, 20: 13})
    state = on_roll(board, (3, 2))
    standard = reference_positions(board, (3, 2), takhteh=False)
    assert apply_legs(board, ((8, 5), (5, 3))) in standard
    assert positions(state) == {apply_legs(board, ((8, 5),))}
    assert rule_broken(state, "8/6*") == "takhteh.larger-die"
    assert rule_broken(state, "") == "takhteh.max-dice"


def test_as_many_dice_as_possible_is_judged_on_the_restricted_plays() -> None:
    """A play of one die is legal when the restrictions leave no play of both."""
    board = make_board({8: 1}, {5: 1, 6: 1, 20: 13})
    state = on_roll(board, (3, 2))
    assert state.play(GAME.parse_move(state, "8/5*")).to_move == 1


# --- Takhteh difference: the opening roll is not played --------------------------------------


def test_opening_reroll_then_first_turn_may_be_a_double() -> None:
    """Ties re-roll; the winner of the opening then rolls two dice, which may be 6-6."""
    opening = GAME.initial_state(RULESET)
    assert opening.is_chance() and opening.to_move is None
    assert opening.apply_chance((4, 4)) == opening
    starter = opening.apply_chance((2, 5))
    assert starter.is_chance() and starter.to_move == 1 and starter.roll is None
    first = starter.apply_chance((6, 6))
    assert first.roll == (6, 6)
    texts = {GAME.format_move(first, move) for move in first.legal_moves()}
    assert "24/18(2) 13/7(2)" in texts


def test_opening_outcomes_leave_out_ties() -> None:
    outcomes = GAME.initial_state(RULESET).chance_outcomes()
    assert len(outcomes) == 30 and all(a != b for (a, b), _ in outcomes)
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12


def test_turn_outcomes_are_the_21_rolls() -> None:
    assert len(TURN_OUTCOMES) == 21
    assert abs(sum(p for _, p in TURN_OUTCOMES) - 1) < 1e-12
    state = GAME.initial_state(RULESET, first=0)
    assert state.apply_chance((1, 3)) == state.apply_chance((3, 1))


def test_later_game_of_a_match_starts_with_the_given_seat_rolling_two_dice() -> None:
    state = GAME.initial_state(GAME.parse_ruleset("takhteh/standard@1?match=5"), first=1)
    assert state.is_chance() and state.to_move == 1
    assert state.apply_chance((3, 3)).roll == (3, 3)


# --- Takhteh difference: gammons count 2, backgammons do not exist ---------------------------


def test_gammon_is_two_points_and_there_is_no_backgammon() -> None:
    """The loser has no checker off, one on the bar and two in the winner's home board:
    a backgammon (3) in standard play, a gammon (2) in Takhteh."""
    board = make_board({1: 1}, {25: 1, 3: 2, 20: 12})
    end = on_roll(board, (2, 1), seat=1).play(GAME.parse_move(on_roll(board, (2, 1)), "1/off"))
    outcome = end.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.points, outcome.detail) == (1, 2, "gammon")


def test_single_game_is_one_point_when_the_loser_bore_off() -> None:
    board = make_board({1: 1}, {20: 14})
    end = on_roll(board, (2, 1)).play(((1, 0),))
    outcome = end.outcome()
    assert outcome is not None and (outcome.winner, outcome.points) == (0, 1)
    assert end.legal_moves() == [] and not end.is_chance()


# --- standard backgammon rules ---------------------------------------------------------------


def test_bar_checker_must_enter_before_any_other_moves() -> None:
    board = make_board({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {19: 5, 17: 3, 12: 5, 1: 2})
    state = on_roll(board, (6, 4))
    assert rule_broken(state, "13/7 8/4") == "takhteh.bar-first"
    assert reached(state, "bar/21 13/7")[21] == 1
    assert rule_broken(state, "bar/19 13/9") == "takhteh.blocked"


def test_partial_entry_loses_the_rest_of_the_turn() -> None:
    """Two on the bar, the 6 blocked: one enters with the 3 and the 6 is lost."""
    board = make_board({25: 2, 13: 5, 8: 3, 6: 5}, {19: 5, 17: 3, 12: 5, 1: 2})
    state = on_roll(board, (6, 3))
    assert state.legal_moves() == [((25, 22),)]
    assert rule_broken(state, "bar/22 13/7") == "takhteh.bar-first"
    assert positions(state) == reference_positions(board, (6, 3))


def test_entering_every_bar_checker_frees_the_remaining_dice() -> None:
    board = make_board({25: 3, 13: 5, 8: 2, 6: 5}, {19: 5, 17: 3, 12: 5, 1: 2})
    state = on_roll(board, (4, 4))
    after = reached(state, "bar/21(3) 13/9")
    assert (after[25], after[21], after[9]) == (0, 3, 1)


def test_blocked_point_cannot_be_landed_on() -> None:
    state = on_roll(START, (5, 2))
    assert rule_broken(state, "24/19 13/11") == "takhteh.blocked"


@pytest.mark.parametrize("roll", [roll for roll, _ in TURN_OUTCOMES])
def test_closed_board_leaves_no_legal_move(roll: tuple[int, int]) -> None:
    """Opposing checkers hold the mover's 19..24: no bar checker can enter."""
    board = make_board({25: 2, 6: 5, 5: 4, 4: 4}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 10: 3})
    state = on_roll(board, roll)
    assert state.legal_moves() == [NO_MOVE]
    after = state.play(GAME.parse_move(state, ""))
    assert after.to_move == 1 and after.is_chance()


@pytest.mark.parametrize("roll", [roll for roll, _ in TURN_OUTCOMES])
def test_six_prime_in_front_leaves_no_legal_move(roll: tuple[int, int]) -> None:
    board = make_board({20: 1}, {14: 2, 15: 2, 16: 2, 17: 2, 18: 2, 19: 2, 3: 3})
    state = on_roll(board, roll)
    assert state.legal_moves() == [NO_MOVE]
    assert rule_broken(state, f"20/{20 - roll[0]}") == "takhteh.blocked"


def test_bear_off_with_a_larger_die_only_from_the_highest_point() -> None:
    board = make_board({4: 1, 2: 2}, {20: 15})
    state = on_roll(board, (6, 1))
    assert rule_broken(state, "4/3 2/off") == "takhteh.bear-off-higher"
    assert positions(state) == {make_board({2: 1, 1: 1}, {20: 15}), make_board({2: 2}, {20: 15})}
    assert positions(state) == reference_positions(board, (6, 1))


def test_bear_off_needs_every_checker_home() -> None:
    board = make_board({8: 1, 3: 2}, {20: 15})
    state = on_roll(board, (3, 1))
    assert rule_broken(state, "3/off 8/7") == "takhteh.bear-off-not-home"


def test_must_play_both_dice_when_possible() -> None:
    state = on_roll(START, (3, 1))
    assert rule_broken(state, "8/5") == "takhteh.max-dice"


def test_a_move_must_fit_the_dice() -> None:
    state = on_roll(START, (3, 1))
    assert rule_broken(state, "13/7") == "takhteh.dice"
    assert rule_broken(state, "8/5 6/5 13/12") == "takhteh.dice"
    assert rule_broken(state, "5/8") == "takhteh.direction"
    assert rule_broken(state, "7/4 6/5") == "takhteh.no-checker"


def test_a_move_object_is_judged_whatever_the_order_of_its_legs() -> None:
    """A bot may hand back legs in any order or off the board: the same play, or IllegalMove
    (never an error of the engine)."""
    state = on_roll(START, (3, 1))
    assert state.play(((6, 5), (8, 5))) == state.play(((8, 5), (6, 5)))
    assert state.play(((24, 23), (13, 10))) == state.play(((13, 10), (24, 23)))
    for legs in (((28, 25), (6, 5)), ((8, 5), (2, -1)), ((28, 24),), ((3, -1),)):
        with pytest.raises(IllegalMove) as caught:
            state.play(legs)
        assert caught.value.rule.startswith("takhteh."), legs


def test_turn_passes_to_the_opponent_who_sees_the_board_from_the_other_side() -> None:
    state = GAME.initial_state(RULESET, first=0).apply_chance((3, 1))
    after = state.play(GAME.parse_move(state, "8/5 6/5"))
    assert after.to_move == 1 and after.is_chance()
    assert after.board_of(0)[5] == 2 and after.board[20] == -2


def test_play_needs_a_roll_and_a_game_in_progress() -> None:
    state = GAME.initial_state(RULESET, first=0)
    with pytest.raises(IllegalMove):
        state.play(NO_MOVE)
    rolled = state.apply_chance((3, 1))
    with pytest.raises(IllegalMove):
        rolled.apply_chance((3, 1))
    with pytest.raises(IllegalMove):
        state.apply_chance((0, 7))


def test_ruleset_match_option() -> None:
    """`match=N` is the match length; 1 (a single game) is the default, left out of the id."""
    ruleset = GAME.parse_ruleset("takhteh/standard@1?match=5")
    assert ruleset.id == "takhteh/standard@1?match=5"
    assert GAME.match_length(ruleset) == 5
    assert GAME.parse_ruleset("takhteh/standard@1?match=1").id == "takhteh/standard@1"
    assert GAME.match_length(GAME.parse_ruleset("takhteh/standard@1")) == 1
    for bad in ("takhteh/standard@1?match=0", "takhteh/standard@1?match=x", "takhteh/x@1"):
        with pytest.raises(RulesetError):
            GAME.parse_ruleset(bad)
    with pytest.raises(RulesetError):
        GAME.parse_ruleset("takhteh/standard@1?cube=1")


def test_start_position_from_a_position_id() -> None:
    """A record's start is a Position ID with seat `first` on roll, or with seat 0 on roll
    when the opening roll decides who starts."""
    state = GAME.initial_state(RULESET, "sGfwATDgc/ABMA", first=1)
    assert state.to_move == 1 and GAME.format_position(state) == "sGfwATDgc/ABMA"
    opening = GAME.initial_state(RULESET, "sGfwATDgc/ABMA")
    assert GAME.format_position(opening.apply_chance((2, 1))) == "sGfwATDgc/ABMA"
    seat1 = opening.apply_chance((1, 2))
    assert seat1.board_of(0) == state.board
