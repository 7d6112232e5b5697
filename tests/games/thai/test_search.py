"""The strong bot `search`: successors as the search sees them, the evaluation's symmetry, what
the search finds, its draws, its time limit, and that it beats greedy."""

from __future__ import annotations

import statistics

from hypothesis import given, settings

from referee.games.thai import ThaiState
from referee.games.thai.search import WIN, SearchBot
from referee.players.registry import make_bot
from referee.records.model import Player
from referee.tournament.play import GameSetup, play_game
from tests.games.bot_clock import BUSY_MACHINE, timed
from tests.games.thai.helpers import GAME, RULESET, play, position, positions


def _mirror(mask: int) -> int:
    """The squares turned half a turn: bit i to bit 31 - i."""
    return int(f"{mask:032b}"[::-1], 2)


@settings(max_examples=300, deadline=None)
@given(positions(max_pieces=20))
def test_successors_are_the_legal_moves_and_the_positions_play_gives(fen: str) -> None:
    state = position(fen)
    successors = state.successors()
    assert [move for move, _ in successors] == state.legal_moves()
    for move, child in successors:
        after = state.play(move)
        assert child == after
        assert (child.black, child.white, child.kings, child.turn) == (
            after.black,
            after.white,
            after.kings,
            after.turn,
        )


def test_successors_ignore_the_draw_rules() -> None:
    """A search applies the draws itself; the moves of a drawn position are still listed."""
    state = play(position("B:WK1:BK32"), *["32-27", "1-6", "27-32", "6-1"] * 2)
    assert state.outcome() is not None and state.legal_moves() == []
    listed = {GAME.format_move(state, move) for move, _ in state.successors()}
    assert listed == {"32-28", "32-27", "32-23", "32-18", "32-14", "32-9", "32-5"}


@settings(max_examples=300, deadline=None)
@given(positions(max_pieces=20))
def test_evaluation_is_the_same_for_either_colour(fen: str) -> None:
    """The position with colours swapped and the board turned half a turn scores the same
    for its player to move."""
    state = position(fen)
    mirrored = ThaiState(
        RULESET, _mirror(state.white), _mirror(state.black), _mirror(state.kings), 1 - state.turn
    )
    evaluate = SearchBot.evaluation
    assert evaluate(state) == evaluate(mirrored)


def test_evaluation_counts_a_man_ahead() -> None:
    assert SearchBot.evaluation(position("B:W1,2:B30,31,32")) > 50
    assert SearchBot.evaluation(position("W:W1,2:B30,31,32")) < -50


def _search_bot(seed: str = "s", **options: float) -> SearchBot:
    bot = SearchBot(**options)  # type: ignore[arg-type]
    bot.start_game(RULESET, 0, seed)
    return bot


def test_search_sees_a_shot_one_ply_cannot() -> None:
    """15-10 gives a man and wins more back; the other three moves lose material."""
    state = position("B:W6,8,22,24:B13,15,18")
    for seed in ("a", "b", "c"):
        bot = _search_bot(seed, depth=4, time=0)
        assert GAME.format_move(state, bot.choose(state)) == "15-10"


def test_search_takes_the_win_and_stops_deepening() -> None:
    state = position("B:W22:B26,30")
    bot = _search_bot(depth=20, time=0)
    assert GAME.format_move(state, bot.choose(state)) == "26x17"
    assert bot.reached < 20


def test_search_stops_at_its_depth_limit() -> None:
    bot = _search_bot(depth=3, time=0)
    bot.choose(GAME.initial_state(RULESET))
    assert bot.reached == 3


def test_search_is_reproducible_from_its_seed_without_a_time_limit() -> None:
    games = []
    for _ in range(2):
        bots = [_search_bot("x", depth=3, time=0), _search_bot("y", depth=3, time=0)]
        state = GAME.initial_state(RULESET)
        moves = []
        for _ in range(30):
            move = bots[state.turn].choose(state)
            moves.append(move)
            state = state.play(move)
        games.append(moves)
    assert games[0] == games[1]


def test_a_repeated_position_scores_as_a_draw() -> None:
    """The second occurrence already counts as the draw the third would be."""
    state = play(position("B:WK1:BK32,K29"), "32-27", "1-6", "27-32", "6-1")
    assert state.repetitions() == 2
    bot = _search_bot(depth=4, time=0)
    assert bot._search(state, 4, -WIN, WIN, 1) == 0


def test_scores_that_met_a_draw_are_not_stored() -> None:
    """Every line from here soon repeats a position of the history, so the search meets
    draws and the root keeps only its move in the table."""
    state = play(position("B:WK1:BK32"), "32-27", "1-6", "27-32", "6-1")
    bot = _search_bot(depth=4, time=0)
    bot.choose(state)
    depth, _, _, move = bot._table[state.key]
    assert depth == -1
    assert move in state.legal_moves()


def test_search_answers_within_a_short_time_limit() -> None:
    """0.05 s a move: the clock is read at every node and the search stops at 90% of the
    time. The bound leaves 0.1 s for a slow machine (bot_clock: CPU time bounded tightly)."""
    limit = 0.05
    spent, walls = [], []
    for fen in (
        "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32",
        "B:W1,2,3,5,6,7,K9,10:B21,22,K23,25,26,27,29,30",
        "W:WK2,K7,12:BK20,K27,30",
    ):
        state = position(fen)
        bot = _search_bot(time=limit)
        for _ in range(4):
            move, cpu, wall = timed(lambda bot=bot, state=state: bot.choose(state))
            spent.append(cpu)
            walls.append(wall)
            state = state.play(move)
            if state.outcome() is not None:
                break
            state = state.play(state.legal_moves()[0])
            if state.outcome() is not None:
                break
    assert max(spent) < limit + 0.1, spent
    assert statistics.median(spent) < limit, spent
    assert max(walls) < limit + BUSY_MACHINE, walls


def test_search_beats_greedy() -> None:
    """Four games, colours swapped: fixed depth, so the games are the same on every run."""
    ruleset = GAME.ruleset()
    players = [Player(name="a", kind="bot"), Player(name="b", kind="bot")]
    score = 0.0
    for game in range(4):
        specs = ["search:depth=4,time=0", "greedy"]
        seat = game % 2
        if seat:
            specs.reverse()
        bots = [make_bot("thai", spec) for spec in specs]
        record = play_game(GameSetup(GAME, ruleset, players, f"match{game}"), bots)
        assert record.result is not None
        winner = record.result.winner
        score += 0.5 if winner is None else float(winner == seat)
    assert score >= 3.5
