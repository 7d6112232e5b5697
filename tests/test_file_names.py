"""File names from names: a safe short name is its own file name; any other is bounded, ASCII,
safe, and differs from every other name's."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from referee.file_names import file_stem

SAFE_NAMES = st.from_regex(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}", fullmatch=True)


@given(SAFE_NAMES)
def test_a_short_safe_name_is_its_own_file_name(name: str) -> None:
    assert file_stem(name) == name


@given(st.text(max_size=400))
def test_a_file_name_is_short_ascii_and_never_a_path(name: str) -> None:
    stem = file_stem(name)
    assert re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*", stem), stem
    assert len(stem) <= 100


@given(st.lists(st.text(max_size=300), min_size=2, max_size=2, unique=True))
def test_two_names_never_share_a_file(names: list[str]) -> None:
    assert file_stem(names[0]) != file_stem(names[1])


def test_a_changed_name_keeps_its_readable_part() -> None:
    assert file_stem("bot/../x").startswith("bot_.._x-")
    assert file_stem("p" * 300).startswith("p" * 64 + "-")
