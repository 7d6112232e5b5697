"""`state_class` (games/state.py), the one way every engine builds its states: fields given,
defaulted, made by a factory, cached, or derived by `__post_init__`; frozen; pickled and copied
through the constructor. Driven by a made-up state class whose values a test chooses."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import get_game
from referee.games.state import builder, field, state_class


@state_class
class Counter:
    name: str
    count: int = 3
    seen: list[int] = field(default_factory=list)
    doubled: int = field(init=False)
    """Derived once from `count` by the hook."""
    _cache: int | None = field(default=None, init=False)

    def __post_init__(self: Any) -> None:
        # Run before the state is frozen: a plain write.
        self.doubled = 2 * self.count


@state_class
class Plain:
    """A class without the hook: nothing derived."""

    name: str
    count: int = 3


NAMES = st.text(max_size=5)
COUNTS = st.integers(min_value=-(10**6), max_value=10**6)


@settings(max_examples=100, deadline=None)
@given(NAMES, COUNTS, st.lists(st.integers(), max_size=3))
def test_fields_given_and_derived(name: str, count: int, seen: list[int]) -> None:
    state = Counter(name, count, seen)
    assert (state.name, state.count, state.seen) == (name, count, seen)
    assert state.doubled == count + count
    assert state._cache is None
    assert type(state) is Counter


@settings(max_examples=100, deadline=None)
@given(NAMES, COUNTS, st.lists(st.integers(), max_size=3))
def test_the_builder_makes_what_the_class_makes(name: str, count: int, seen: list[int]) -> None:
    """`builder(cls)` is the constructor without the class call: the same fields, given,
    defaulted, made by a factory or derived, and the same frozen class."""
    build = builder(Counter)
    for built, made in (
        (build(name, count, seen), Counter(name, count, seen)),
        (build(name, count=count), Counter(name, count=count)),
        (build(name), Counter(name)),
    ):
        assert type(built) is Counter
        for f in dataclasses.fields(Counter):
            assert getattr(built, f.name) == getattr(made, f.name)
        with pytest.raises(dataclasses.FrozenInstanceError):
            built.count = 1  # type: ignore[misc]
    assert build(name).seen is not build(name).seen  # each its factory's own product
    assert builder(Plain)(name).count == 3
    with pytest.raises(TypeError):
        build()


@settings(max_examples=100, deadline=None)
@given(NAMES, COUNTS, st.lists(st.integers(), max_size=3))
def test_the_derived_builder_takes_the_derived_fields(
    name: str, count: int, seen: list[int]
) -> None:
    """`builder(cls, derived=True)`: every field given, the derived ones last, written as given
    (the hook is not run: a doubled count that is not the double stays), the same frozen
    class; a state of Trax made so is the state the class makes."""
    made = Counter(name, count, seen)
    built = builder(Counter, derived=True)(name, count, seen, made.doubled)
    assert type(built) is Counter
    for f in dataclasses.fields(Counter):
        assert getattr(built, f.name) == getattr(made, f.name)
    assert builder(Counter, derived=True)(name, count, seen, count - 1).doubled == count - 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.count = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        builder(Counter, derived=True)(name, count, seen)


@settings(max_examples=50, deadline=None)
@given(NAMES)
def test_defaults_and_factories(name: str) -> None:
    first, second = Counter(name), Counter(name)
    assert (first.count, first.doubled, first.seen) == (3, 6, [])
    # A factory's product is the state's own, not shared with the next state.
    assert first.seen is not second.seen
    plain = Plain(name)
    assert (plain.name, plain.count) == (name, 3)
    assert not hasattr(plain, "doubled")


@settings(max_examples=50, deadline=None)
@given(NAMES, COUNTS)
def test_frozen(name: str, count: int) -> None:
    state = Counter(name, count)
    for attribute in ("name", "count", "doubled", "_cache"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(state, attribute, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.__post_init__()
    assert state.doubled == 2 * count


@settings(max_examples=50, deadline=None)
@given(NAMES, COUNTS)
def test_pickle_and_copy_rebuild_through_the_constructor(name: str, count: int) -> None:
    state = Counter(name, count, [count])
    object.__setattr__(state, "_cache", 7)
    for again in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state)):
        assert type(again) is Counter
        assert (again.name, again.count, again.seen, again.doubled) == (
            name,
            count,
            [count],
            2 * count,
        )
        # A cache is not carried over: the copy works it out again.
        assert again._cache is None


@pytest.mark.parametrize("variant", ["standard", "8x8", "looptrax"])
def test_trax_variant_rules_derived_in_every_state(variant: str) -> None:
    game = get_game("trax")
    state = game.initial_state(game.ruleset(variant))
    rng = random.Random(variant)
    limit = 8 if variant == "8x8" else 0
    lines = variant != "looptrax"
    for _ in range(40):
        assert (state.limit, state.lines) == (limit, lines)
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.legal_moves()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.limit = 3
