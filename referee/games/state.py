"""How every engine builds its states: one decorator, `state_class`.

A state class lists its fields once, as annotated class attributes (a dataclass's fields);
the decorator gives it `__slots__` and one constructor taking them, the only way a state is
made: `ThaiState(ruleset, black, white, kings, turn, history)` at the start and in `play`
alike, so a new field is one line here and one argument where states are made.

Immutable by declaration: the type checker sees a frozen dataclass (`dataclass_transform`
with `frozen_default`), so assigning to a field of a state anywhere in referee fails `mypy`,
which the suite runs first (tests/test_code_health.py). At run time the class is a plain
slotted dataclass: a frozen dataclass's constructor writes each field through
`object.__setattr__`, which makes a state five times slower to build (2.2 us against 0.4 us
for eight fields on this machine), and a `__setattr__` guard costs every write the same.

A field declared with `field(default=..., init=False)` is a cache of something the state
already determines (its hash, its outcome): the constructor sets its default, and the state
fills it in once with `object.__setattr__` when first asked. Nothing else is kept on a
state: what a move's notation says is worked out by the notation layer
(`Game.read_move` returns the move with the state it leads to), not left on the state for
`play` to find.

`eq` and `repr` are the class's own: each state says what makes two positions equal (Trax
ignores where its tiles lie, Thai checkers compares the draw history).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar, dataclass_transform

__all__ = ["field", "state_class"]

T = TypeVar("T")


@dataclass_transform(eq_default=False, frozen_default=True, field_specifiers=(field,))
def state_class(cls: type[T]) -> type[T]:
    """The state class `cls` with slots and the constructor of its declared fields."""
    return dataclass(slots=True, eq=False, repr=False, match_args=False)(cls)
