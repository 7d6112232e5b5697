"""The registry every kind of format is an entry of (referee/registry.py): names listed in
the order added, detection in the order of the places given, the code imported by name."""

from __future__ import annotations

import json

import pytest

from referee.registry import OutputFormat, Registry


def registry() -> Registry[object]:
    return Registry(
        OutputFormat("b", "json:dumps", extensions=(".b",), detect=2),
        OutputFormat("a", "json:loads", extensions=(".a", ".aa"), detect=3),
        OutputFormat("c", "json:JSONDecoder"),
        OutputFormat("d", "json:JSONEncoder", detect=1),
    )


def test_names_are_listed_as_added_and_detected_by_place() -> None:
    formats = registry()
    assert formats.names() == ("b", "a", "c", "d")
    assert [entry.name for entry in formats] == ["b", "a", "c", "d"]
    assert [entry.name for entry in formats.detection_order()] == ["d", "b", "a"]


def test_a_format_is_found_by_name_and_by_any_of_its_extensions() -> None:
    formats = registry()
    assert formats.get("a") is formats.named("a") is formats.for_suffix(".AA")
    assert formats.for_suffix(".a") is formats.get("a")
    assert formats.get("x") is None and formats.for_suffix(".x") is None
    assert formats.for_suffix("") is None  # a file name without an extension
    with pytest.raises(ValueError, match=r"unknown format 'x' \(known: b, a, c, d\)"):
        formats.named("x")


def test_the_code_is_imported_by_name() -> None:
    assert registry().named("b").load() is json.dumps
    with pytest.raises(ModuleNotFoundError):
        OutputFormat("x", "referee.nowhere:writer").load()


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (OutputFormat("a", "json:dumps"), "'a' is registered already"),
        (OutputFormat("e", "json:dumps", extensions=(".aa",)), "e and a share an extension"),
        (OutputFormat("e", "json:dumps", detect=1), "e and d share a detection place"),
    ],
)
def test_a_taken_name_extension_or_place_is_refused(entry: OutputFormat[object], message: str):
    formats = registry()
    with pytest.raises(ValueError, match=message):
        formats.add(entry)
    assert formats.names() == ("b", "a", "c", "d")


def test_an_entry_added_later_takes_its_place() -> None:
    formats = registry()
    formats.add(OutputFormat("e", "json:dump", extensions=(".e",), detect=0))
    assert formats.names()[-1] == "e"
    assert formats.detection_order()[0].name == "e"
    assert formats.for_suffix(".E") is formats.get("e")
