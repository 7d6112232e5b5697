"""A record's line in games.jsonl is json.dumps's, byte for byte, whatever its values hold."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.tournament import jsonline
from referee.tournament.jsonline import json_line

# Text that trips a fast path: separators, quotes, escapes, control characters, non-ASCII,
# lone surrogates (json.dumps writes them and UTF-8 refuses them).
TEXT = st.text(st.sampled_from([*',:"\\ {}[]a\n\t\x00\x1f\x7fé€😀\u2028', "\ud800"]))
SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | TEXT
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=20,
)
FLOATS = st.floats(allow_nan=True, allow_infinity=True)


def expected(data: dict[str, Any]) -> bytes | type[Exception]:
    try:
        return (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return UnicodeEncodeError


def written(data: dict[str, Any]) -> bytes | type[Exception]:
    try:
        return json_line(data)
    except UnicodeEncodeError:
        return UnicodeEncodeError


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(TEXT, VALUES, max_size=6))
def test_the_line_is_json_dumps(data: dict[str, Any]) -> None:
    assert written(data) == expected(data)


TURN = st.fixed_dictionaries(
    {"seat": st.integers(0, 1), "move": TEXT},
    optional={"score": FLOATS | st.integers() | st.none(), "pv": st.lists(TEXT, max_size=2)},
)


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {"turns": st.lists(TURN, max_size=4)},
        optional={"match": st.fixed_dictionaries({"score": st.lists(st.integers(0, 9))})},
    )
)
def test_a_turn_s_score_is_written_as_json_dumps_writes_it(data: dict[str, Any]) -> None:
    assert written(data) == expected(data)


def test_only_a_record_with_a_score_goes_through_json_dumps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[object] = []

    def dumps(value: object, **options: Any) -> str:
        calls.append(value)
        return json.dumps(value, **options)

    monkeypatch.setattr(jsonline, "json", SimpleNamespace(dumps=dumps))
    turns = [{"seat": s % 2, "roll": [3, 5], "move": "24/21 13/8", "time_ms": 0} for s in range(3)]
    plain = {"players": [{"name": "a", "spec": "random"}], "turns": turns, "ok": True}
    text = '{"players": [{"name": "a", "spec": "random"}], "turns": ['
    text += ", ".join(
        f'{{"seat": {s % 2}, "roll": [3, 5], "move": "24/21 13/8", "time_ms": 0}}' for s in range(3)
    )
    assert json_line(plain) == (text + '], "ok": true}\n').encode()
    # Separators and quotes inside strings stay as they are.
    options = {"spec": "alphabeta:depth=4,time=1", "pv": ['say "hi", x:y'], "e": {}, "l": []}
    assert json_line(options) == (
        b'{"spec": "alphabeta:depth=4,time=1", "pv": ["say \\"hi\\", x:y"], "e": {}, "l": []}\n'
    )
    trax = {"turns": [{"move": "A1\\"}], "match": {"score": [0, 1]}}
    assert json_line(trax) == b'{"turns": [{"move": "A1\\\\"}], "match": {"score": [0, 1]}}\n'
    assert calls == []
    scored = {"turns": [{"move": "A1\\", "score": 1e16}], "match": {"score": [0, 1]}}
    assert (
        json_line(scored)
        == b'{"turns": [{"move": "A1\\\\", "score": 1e+16}], "match": {"score": [0, 1]}}\n'
    )
    assert calls == [scored]
