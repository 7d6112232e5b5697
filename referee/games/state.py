"""How every engine builds its states: one decorator, `state_class`.

A state class lists its fields once, as annotated class attributes (a dataclass's fields), and
is made by calling it with them: `ThaiState(ruleset, black, white, kings, turn, history)` at
the start and in `play` alike, so a new field is one line in the class and one argument where
states are made.

A state is a frozen, slotted dataclass: assigning to a field raises `FrozenInstanceError` (an
`AttributeError`), and the type checker knows the class as frozen. Only the constructor is
replaced: a frozen dataclass's own writes each field through `object.__setattr__`, which
makes a state several times slower to build (eight fields: 2.2 us against 0.45 us, measured
side by side on the development machine), and the engines build one or two states a move.
`state_class` gives the class a `__new__` that writes the fields to a twin class without the
guard (same slots, so the object can change class) and then turns the object into the frozen
class: generated once per class from its fields, as `dataclasses` generates `__init__`.

A field declared `field(init=False)` without a default is derived from the others once, by
the class's `__post_init__` (as in a dataclass), which the constructor calls before the object
becomes frozen, so that the hook writes the fields plainly; the constructor of a class without
the hook calls nothing. Such a field is read at a slot's speed, where a property computing it
would run a function at every use.

A field declared with `field(default=..., init=False)` is a cache of something the state
already determines (its hash, its outcome): the constructor sets its default, and the state
fills it in once, with `object.__setattr__`, when first asked. Nothing else is kept on a state:
what a move's notation says is worked out by the notation layer (`Game.read_move` returns the
move with the state it leads to), not left on the state for `play` to find.

`builder(cls)` is the same constructor as a plain function of the fields, for the few places
that build states by the hundred thousand (a replay builds two a turn): calling a class costs
a quarter of building a small state on top of the constructor itself (CPython looks up
`__new__`, packs the arguments into a tuple and calls `__init__`), which a plain call skips.
`builder(TakhtehState)(ruleset, board, seat)` is `TakhtehState(ruleset, board, seat)`.

`eq` and `repr` are each class's own: each says what makes two positions equal (Trax ignores
where its tiles lie, Thai checkers compares the draw history).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, dataclass_transform

__all__ = ["builder", "field", "state_class"]

T = TypeVar("T")


@dataclass_transform(eq_default=False, frozen_default=True, field_specifiers=(field,))
def state_class(cls: type[T]) -> type[T]:
    """The frozen, slotted dataclass of `cls`'s fields, with the fast constructor."""
    # Any: the methods below are replaced on the class, which the type checker refuses.
    frozen: Any = dataclass(frozen=True, slots=True, eq=False, repr=False, match_args=False)(cls)
    building = type(
        f"_Building{cls.__name__}",
        (frozen,),
        # Both of the guard's methods undone: while either is Python's, every write to the
        # object would go through a look-up of `__setattr__` (CPython's type slots).
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__module__": cls.__module__,
        },
    )
    frozen.__new__ = staticmethod(_constructor(frozen, building, "cls"))
    _BUILDERS[frozen] = _constructor(frozen, building, "")
    _BUILDING[frozen] = building
    # The fields are written by `__new__`; the object's `__init__` accepts and ignores them.
    frozen.__init__ = object.__init__
    frozen.__reduce__ = _reduce
    made: type[T] = frozen
    return made


_BUILDERS: dict[type[Any], Callable[..., Any]] = {}
_BUILDING: dict[type[Any], type[Any]] = {}


def builder(cls: type[T], derived: bool = False) -> Callable[..., T]:
    """The constructor of a `state_class` class as a plain function of its fields.

    With `derived`, every field it takes is required, and the fields `__post_init__` derives
    are arguments too, after the others in their order; the hook is not called: for a state
    made from another whose derived fields it shares (a move keeps the ruleset, and so what
    the rules derive from it), without the call and its work."""
    if derived:
        return _constructor(cls, _BUILDING[cls], "", derived=True)
    return _BUILDERS[cls]


def _reduce(state: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """Pickle and copy a state as its class and the constructor's arguments."""
    return type(state), tuple(getattr(state, f.name) for f in dataclasses.fields(state) if f.init)


_NO_VALUE = object()
"""The default of a field whose default is made by a factory, as a dataclass marks it."""


def _constructor(
    cls: type[Any], building: type[Any], first: str, derived: bool = False
) -> Callable[..., Any]:
    """`cls.__new__` (`first` "cls"), or the builder, the same as a function of the fields
    alone (`first` ""): the fields written in order to a new `building` object (an argument,
    its default, or its factory's product), the derived ones by `__post_init__` (or, with
    `derived`, from arguments after the others), and then the object becomes a `cls`."""
    names: dict[str, Any] = {
        "new": object.__new__,
        "building": building,
        "NO_VALUE": _NO_VALUE,
        "cls": cls,  # the builder's; `__new__`'s is its first argument
    }
    params = [first] if first else []
    body = ["state = new(building)"]
    given: list[str] = []
    for f in dataclasses.fields(cls):
        name = f.name
        has_default = f.default is not dataclasses.MISSING
        factory = f.default_factory is not dataclasses.MISSING
        names[f"default_{name}"] = f.default
        names[f"factory_{name}"] = f.default_factory
        if not f.init:
            if has_default or factory:
                value = f"default_{name}" if has_default else f"factory_{name}()"
                body.append(f"state.{name} = {value}")
            elif derived:
                given.append(name)
                body.append(f"state.{name} = {name}")
            continue
        if derived:
            params.append(name)
        elif has_default:
            params.append(f"{name}=default_{name}")
        elif factory:
            params.append(f"{name}=NO_VALUE")
            body.append(f"if {name} is NO_VALUE: {name} = factory_{name}()")
        else:
            params.append(name)
        body.append(f"state.{name} = {name}")
    params += given
    post_init = getattr(cls, "__post_init__", None)
    if post_init is not None and not derived:
        names["post_init"] = post_init
        body.append("post_init(state)")
    body.append("state.__class__ = cls")
    body.append("return state")
    name = "__new__" if first else "build"
    source = f"def {name}({', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body)
    exec(source, names)
    constructor: Callable[..., Any] = names[name]
    constructor.__qualname__ = f"{cls.__qualname__}.{name}"
    return constructor
