"""Trax rules (docs/rules/trax.md): the known positions, placement, forced play, wins, variants."""

from __future__ import annotations

import pytest

from referee.games.base import IllegalMove, NotationError, Outcome
from referee.games.trax import GAME, TraxMove, TraxState
from referee.games.trax.rules import CURVE_WHITE_NW, STRAIGHT_WHITE_NS
from tests.games.trax.helpers import DRAWN_8X8, board_of, entering, frontier, naive_formed, position


def play(state: TraxState, token: str) -> TraxState:
    return state.play(GAME.parse_move(state, token))


def refusal(state: TraxState, token: str) -> str:
    with pytest.raises(IllegalMove) as raised:
        play(state, token)
    return raised.value.rule


def test_known_position_forced_tile_closes_black_loop_so_black_wins() -> None:
    """`@0/ B1\\ A2\\`: the forced tile closes a 2x2 black loop; White made it, Black wins."""
    state = position("@0/ B1\\ A2\\")
    assert len(state.tiles) == 4  # three placed, one forced
    assert state.outcome() == Outcome(1, 1, "rules", "loop")


def test_known_position_black_line_of_eight_columns_mover_wins() -> None:
    """A black line across 8 columns: Black, the mover, wins; ending with H1\\ it is no line."""
    state = position("@0+ B1+ C1+ D1+ E1+ F1+ G1+ H1+")
    assert state.outcome() == Outcome(1, 1, "rules", "line")
    assert position("@0+ B1+ C1+ D1+ E1+ F1+ G1+ H1\\").outcome() is None


def test_known_position_both_colours_complete_mover_wins() -> None:
    """Move 9 completes both colours: the mover (White) wins."""
    before = position("@0+ B1\\ B2/ A2+ A3/ A0\\ @3+ @3\\")
    assert before.outcome() is None and before.to_move == 0
    after = play(before, "B2+")
    board = board_of(after)
    assert all(naive_formed(board, True).values())  # both colours did complete
    assert after.outcome() == Outcome(0, 1, "rules", "loop")


def test_known_position_c3_slash_is_illegal_and_c3_plus_legal() -> None:
    """After `@0+ B1/ C1/ A2/ A3+ A4/ B4+ C4/`, C3/ forces a third same-coloured edge."""
    state = position("@0+ B1/ C1/ A2/ A3+ A4/ B4+ C4/")
    assert refusal(state, "C3/") == "trax.three-edges"
    assert play(state, "C3+").outcome() is None
    tokens = {GAME.format_move(state, move) for move in state.legal_moves()}
    assert "C3+" in tokens and "C3/" not in tokens


@pytest.mark.parametrize(("token", "tile"), [("@0+", STRAIGHT_WHITE_NS), ("@0/", CURVE_WHITE_NW)])
def test_first_move_fixes_the_orientation(token: str, tile: int) -> None:
    """`@0+` has white top-bottom (black left-right); `@0/` white joins top and left."""
    state = GAME.initial_state(GAME.ruleset())
    move = GAME.parse_move(state, token)
    assert move == TraxMove(0, 0, tile)
    assert set(state.legal_moves()) == {TraxMove(0, 0, STRAIGHT_WHITE_NS), TraxMove(0, 0, 9)}


@pytest.mark.parametrize("token", ["@0\\", "A1+", "@1/", "B2+"])
def test_first_move_is_only_at0_plus_or_slash(token: str) -> None:
    """Any other first move is refused: the first move fixes the notation's orientation."""
    assert refusal(GAME.initial_state(GAME.ruleset()), token) == "trax.first-move"
    with pytest.raises(IllegalMove) as raised:
        GAME.initial_state(GAME.ruleset()).play(TraxMove(0, 0, 3))
    assert raised.value.rule == "trax.first-move"


@pytest.mark.parametrize(
    ("moves", "token", "rule"),
    [
        ("@0+", "A1+", "trax.occupied"),
        ("@0+", "@0+", "trax.not-adjacent"),
        ("@0+", "C1+", "trax.not-adjacent"),
        ("@0+ B1+", "@3/", "trax.not-adjacent"),
        ("@0/ A2\\ A3/ A0+ B4\\", "B3\\", "trax.colour-mismatch"),
    ],
)
def test_placement_refusals_name_the_rule(moves: str, token: str, rule: str) -> None:
    """A tile must go on an empty space touching a tile, and match every touching colour."""
    assert refusal(position(moves), token) == rule


def test_a_token_whose_colours_cannot_match_is_refused_when_read() -> None:
    """Reading the token already refuses it: neither tile of the symbol fits the space."""
    state = position("@0/ A2\\ A3/ A0+ B4\\")
    with pytest.raises(IllegalMove) as raised:
        GAME.parse_move(state, "B3\\")
    assert raised.value.rule == "trax.colour-mismatch"


def test_the_neighbours_colours_pick_the_tile_of_a_symbol() -> None:
    """`B1+` after `@0+` continues the black track left-right (white top-bottom is impossible)."""
    state = position("@0+")
    move = GAME.parse_move(state, "B1+")
    assert move.tile == STRAIGHT_WHITE_NS  # white N-S, so black W-E meets A1's black E edge
    after = state.play(move)
    assert board_of(after)[max(board_of(after))][3] == "b"


def test_forced_play_is_filled_by_the_same_turn() -> None:
    """After the turn no empty space is entered twice by one colour (forced spaces filled)."""
    state = position("@0/ B1\\ A2\\")
    board = board_of(state)
    for space in frontier(board):
        colours = entering(board, space)
        assert colours.count("w") < 2 and colours.count("b") < 2


def test_a_seven_column_track_is_no_line() -> None:
    """A line needs the tiles in play to span at least 8 columns."""
    assert position("@0+ B1+ C1+ D1+ E1+ F1+ G1+").outcome() is None


def test_a_vertical_line_of_eight_rows_wins() -> None:
    """Top row to bottom row over 8 rows: Black placed the 8th tile, White's line wins."""
    state = position("@0+ A2+ A3+ A4+ A5+ A6+ A7+ A8+")
    assert state.outcome() == Outcome(0, 1, "rules", "line")


def test_a_track_is_no_line_once_the_tiles_span_one_more_column() -> None:
    """8 columns of black track, but the tiles span 9 and the track misses the new edge."""
    grown = position("@0+ B1+ C1+ D1+ E1+ F1+ G1+ A2+ @2+ I1+")
    assert grown.box is not None and grown.box[1] - grown.box[0] + 1 == 9
    assert grown.outcome() is None
    assert play(grown, "A1+").outcome() == Outcome(1, 1, "rules", "line")


def test_looptrax_lines_do_not_win() -> None:
    """LoopTrax: a line does not win, a loop still does."""
    line = "@0+ B1+ C1+ D1+ E1+ F1+ G1+ H1+"
    assert position(line, "looptrax").outcome() is None
    assert position("@0/ B1\\ A2\\", "looptrax").outcome() == Outcome(1, 1, "rules", "loop")


def test_8x8_a_line_spans_exactly_eight() -> None:
    """8x8: the black line of 8 columns wins."""
    assert position("@0+ B1+ C1+ D1+ E1+ F1+ G1+ H1+", "8x8").outcome() == Outcome(
        1, 1, "rules", "line"
    )


def test_8x8_a_ninth_column_is_illegal() -> None:
    """8x8: a tile that would make the tiles span 9 columns is refused (standard allows it)."""
    moves = "@0+ B1+ C1+ D1+ E1+ F1+ G1+ H1\\"
    assert refusal(position(moves, "8x8"), "I1+") == "trax.8x8-limit"
    assert play(position(moves), "I1+").outcome() is None
    state = position(moves, "8x8")
    assert "I1+" not in {GAME.format_move(state, move) for move in state.legal_moves()}


def test_8x8_no_legal_move_is_a_draw() -> None:
    """[project rule] 8x8: the player to move without a legal move draws the game."""
    state = position(DRAWN_8X8, "8x8")
    assert state.legal_moves() == []
    assert state.outcome() == Outcome(None, 0, "rules", "no legal move")
    assert state.is_terminal()
    assert refusal(state, "A1+") == "trax.game-over"


def test_no_move_after_the_game_is_won() -> None:
    state = position("@0/ B1\\ A2\\")
    assert state.legal_moves() == []
    assert refusal(state, "A0+") == "trax.game-over"


def test_a_move_from_elsewhere_is_refused() -> None:
    """play checks the move itself: a malformed move is an IllegalMove, not a crash."""
    state = position("@0+")
    strange = [(1, 2, 5), TraxMove(1, 1, 7), TraxMove("B", 1, 5), TraxMove(-1, 1, 5), None]
    for move in strange:  # type: ignore[arg-type]
        with pytest.raises(IllegalMove) as raised:
            state.play(move)
        assert raised.value.rule == "trax.no-such-move"


def test_positions_are_equal_wherever_their_tiles_lie() -> None:
    """`@0+ B1+` and `@0+ @1+` are the same two tiles: equal states, equal hashes."""
    right, left = position("@0+ B1+"), position("@0+ @1+")
    assert right.tiles.keys() != left.tiles.keys()
    assert right == left and hash(right) == hash(left)
    assert right != position("@0+ A2+")
    assert right != position("@0+ B1+ C1+")


def test_position_text_round_trips() -> None:
    """format_position gives the token list; parse_position of it is the same position."""
    text = "@0+ B1\\ B2/ A2+ A3/ A0\\ @3+ @3\\"
    state = position(text)
    assert GAME.format_position(state) == text
    assert position(GAME.format_position(state)) == state
    assert GAME.initial_state(GAME.ruleset(), start=text) == state


def test_position_text_may_number_its_moves() -> None:
    """A pasted game list works as a position: move numbers and comments are skipped."""
    assert position("1. @0+ 2. B1+ # two tiles") == position("@0+ B1+")
    assert position("") == GAME.initial_state(GAME.ruleset())


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("@0+ B1+ Resign", NotationError, "Resign"),
        ("@0+ B1+ X", NotationError, "move 3"),
        ("@0+ B1+ A1+", IllegalMove, "move 3 A1+"),
    ],
)
def test_a_bad_position_text_names_the_move(text: str, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        position(text)
