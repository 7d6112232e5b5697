"""Games keep their knowledge: no module outside `referee/games/` (the engines and the
registry) tests a game's name or names one in its code; what differs between games is asked
of the game (`Game.position_key`, `warm_up`, `demo`, `symmetric_positions`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from referee.games import GAME_NAMES

PACKAGE = Path(__file__).resolve().parents[1] / "referee"

KNOWN: dict[str, str] = {
    "records/model.py": "the record classes of the built-in games, one per game",
    "records/scan.py": "the whole records of the built-in games read without the model, as above",
    "records/formats/__init__.py": "the registry of record formats: `trax` names Trax's list",
    "records/formats/thai_pdn.py": "PDN, Thai checkers' own file format",
    "records/formats/takhteh_mat.py": "`.mat`, Takhteh's own file format",
    "records/formats/trax_list.py": "the Trax game list, Trax's own file format",
    "players/external.py": "the Trax contest protocol, which plays Trax alone",
    "tournament/config.py": "`NAME@trax`: the Trax contest protocol's name",
    "tournament/worker.py": "the Trax contest protocol's name",
    "tournament/demo.py": "the README's next steps, in the demo's folders of the games",
}
"""Modules that name a game for a reason of their own (a game's file format or protocol), each
with it; a test holds each to still doing so, so that the list does not outlive its reasons."""


def game_knowledge(path: Path) -> list[str]:
    """Where a module names a built-in game in its code (a string that is a game's name: a
    comparison, a key, an argument), compares a game's `.name` with a string, or imports from
    a game's package (to read its states' fields)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[:3] in [
            ["referee", "games", name] for name in GAME_NAMES
        ]:
            found.append(f"line {node.lineno}: imports {node.module}")
        elif isinstance(node, ast.Constant) and node.value in GAME_NAMES:
            found.append(f"line {node.lineno}: {node.value!r}")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(map(_a_game_name, sides)) and any(
                isinstance(side, ast.Constant) and isinstance(side.value, str) for side in sides
            ):
                found.append(f"line {node.lineno}: compares a game's name with a string")
    return sorted(found)


def _a_game_name(node: ast.expr) -> bool:
    """`game.name`, `engine.name`, `record.game`, `config.game`: what names a game."""
    if not isinstance(node, ast.Attribute):
        return False
    owner = ast.unparse(node.value).lower()
    return node.attr == "game" or (node.attr == "name" and ("game" in owner or "engine" in owner))


def outside_the_games() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if (PACKAGE / "games") not in path.parents)


def test_no_module_outside_the_games_knows_a_game() -> None:
    knowing = {
        str(path.relative_to(PACKAGE)): found
        for path in outside_the_games()
        if (found := game_knowledge(path)) and str(path.relative_to(PACKAGE)) not in KNOWN
    }
    assert knowing == {}


@pytest.mark.parametrize("module", sorted(KNOWN))
def test_each_module_let_name_a_game_still_does(module: str) -> None:
    assert game_knowledge(PACKAGE / module), f"{module} no longer names a game: drop it"


def test_the_check_sees_a_name_tested_and_a_game_named(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        'if game.name == "x":\n    pass\nKEYS = {"thai": 1}\nif p.name != "self":\n    pass\n'
        "from referee.games.trax.rules import TraxState\nfrom referee.games import get_game\n",
        encoding="utf-8",
    )
    assert game_knowledge(module) == [
        "line 1: compares a game's name with a string",
        "line 3: 'thai'",
        "line 6: imports referee.games.trax.rules",
    ]
