"""The bots' probes of Trax moves: what each turn completes, kept right as the game goes."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import IllegalMove
from referee.games.trax import GAME, TraxState
from referee.games.trax.threats import BLACK_FORMS, BROKEN, WHITE_FORMS, Move, Probe, Scan, probe
from tests.games.trax.helpers import board_of, naive_formed, random_state

VARIANTS = st.sampled_from(GAME.variants)
CHOICES = st.lists(st.integers(0, 10**6), min_size=1, max_size=60)


def completed(state: TraxState, move: Move) -> int:
    """What the turn completes, found by playing it and walking every track of the board."""
    try:
        after = state.play(state.move_at(*move))
    except IllegalMove:
        return BROKEN
    formed = naive_formed(board_of(after), lines=state.lines)
    return (WHITE_FORMS if formed["w"] else 0) | (BLACK_FORMS if formed["b"] else 0)


def open_position(variant: str, choices: list[int]) -> TraxState | None:
    state = random_state(variant, choices)
    return None if state.box is None or state.is_terminal() else state


def same(found: Probe, fresh: Probe) -> bool:
    return (found.result, found.reads, found.writes, found.lines) == (
        fresh.result,
        fresh.reads,
        fresh.writes,
        fresh.lines,
    )


@settings(max_examples=60, deadline=None)
@given(variant=VARIANTS, choices=CHOICES)
def test_a_probe_tells_the_colours_a_turn_completes(variant: str, choices: list[int]) -> None:
    """Loops and lines (where they win) of either colour, and illegal turns (a space entered
    three times by one colour), for every candidate of random positions."""
    state = open_position(variant, choices)
    if state is None:
        return
    for move in state.candidates():
        assert probe(state, *move).result == completed(state, move), move


@settings(max_examples=60, deadline=None)
@given(variant=VARIANTS, choices=CHOICES, pick=st.integers(0, 10**6))
def test_the_scan_of_a_child_is_the_scan_made_afresh(
    variant: str, choices: list[int], pick: int
) -> None:
    """A turn changes only the probes whose reads it writes (and lines whose outermost sides
    it moves): the scan built from the parent's equals a new one, probe by probe."""
    state = open_position(variant, choices)
    if state is None:
        return
    scan = Scan(state)
    quiet = [move for move, found in scan.probes.items() if found.result != BROKEN]
    move = quiet[pick % len(quiet)]
    after = state.play(state.move_at(*move))
    if after.is_terminal():
        return
    child = scan.child(state, move, after)
    fresh = Scan(after)
    assert child.probes.keys() == fresh.probes.keys()
    for candidate, found in child.probes.items():
        assert same(found, fresh.probes[candidate]), candidate
    assert [set(moves) for moves in child.forms] == [set(moves) for moves in fresh.forms]
    assert child.legal == fresh.legal == len(after.legal_moves())


@settings(max_examples=40, deadline=None)
@given(variant=VARIANTS, seeds=st.lists(st.integers(0, 2**32), min_size=2, max_size=4))
def test_probes_taken_from_other_games_are_revised_or_refused(
    variant: str, seeds: list[int]
) -> None:
    """A probe kept from any other position (here: other random games over the same spaces)
    is used only as far as what it read still holds; what it gives equals a new probe."""
    cache: dict[Move, Probe] = {}
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.initial_state(GAME.ruleset(variant))
        while not state.is_terminal():
            if state.box is not None:
                scan = Scan(state, hints=[cache], cache=cache)
                for move, found in scan.probes.items():
                    assert same(found, probe(state, *move)), move
            state = state.play(rng.choice(state.legal_moves()))
