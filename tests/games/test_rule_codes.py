"""Every rule code an engine can raise is documented with its rule in docs/rules/, and every
code the rules pages name is one referee has: a validator's diagnostic always leads a reader
to the rule it reports."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
GAMES = ("thax", "takhteh", "trax", "thai")
_CODE = re.compile(r"`((?:" + "|".join(GAMES) + r")\.[a-z0-9]+(?:-[a-z0-9]+)*)`")


def raised_codes(package: Path) -> dict[str, set[str]]:
    """The codes of every `IllegalMove(..., rule=code)` in the package's source, with the files
    (relative to the package) that raise each. A code that is not written out (re-raised
    from a caught error's `rule` or `code`) adds nothing new; any other expression would hide
    a code, and fails."""
    codes: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if isinstance(node.func, ast.Attribute):
                name = node.func.attr
            if name != "IllegalMove":
                continue
            code = next((word.value for word in node.keywords if word.arg == "rule"), None)
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                codes.setdefault(code.value, set()).add(str(path.relative_to(package)))
            else:
                passed_on = isinstance(code, ast.Attribute) and code.attr in ("rule", "code")
                assert passed_on, f"{path}:{node.lineno}: a rule code that is not written out"
    return codes


def page(code: str) -> Path:
    """The page that states a code's rule: its game's, or the common page."""
    game = code.split(".", 1)[0]
    return RULES / (f"{game}.md" if game in GAMES else "README.md")


def test_the_engines_raise_codes_of_every_game() -> None:
    codes = raised_codes(ROOT / "referee" / "games")
    for game in GAMES:
        assert any(code.startswith(f"{game}.") for code in codes), game
    assert "thai.capture-compulsory" in codes


@pytest.mark.parametrize("code", sorted(raised_codes(ROOT / "referee" / "games")))
def test_every_raised_code_is_on_its_rules_page(code: str) -> None:
    assert f"`{code}`" in page(code).read_text(encoding="utf-8"), f"{code} not in {page(code)}"


def test_every_code_on_the_rules_pages_is_one_referee_has() -> None:
    constants = {
        node.value
        for path in (ROOT / "referee").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    named = {code for doc in RULES.glob("*.md") for code in _CODE.findall(doc.read_text())}
    assert named, "the rules pages name no code"
    assert sorted(named - constants) == []


def test_raised_codes_are_found_however_the_call_is_written(tmp_path: Path) -> None:
    source = tmp_path / "engine.py"
    source.write_text(
        "from x import base\n"
        "def f(error):\n"
        "    raise IllegalMove('m', rule='a.one')\n"
        "def g(error):\n"
        '    return base.IllegalMove("m", rule="a.two")\n'
        "def h(error):\n"
        "    raise IllegalMove('again', rule=error.rule)\n"
        "def i():\n"
        "    return NotIllegal('m', rule='a.three')\n"
    )
    assert raised_codes(tmp_path) == {"a.one": {"engine.py"}, "a.two": {"engine.py"}}
    for call in ("IllegalMove('hidden', rule=rule)", "IllegalMove('no rule', **words)"):
        source.write_text(f"def f(rule, words):\n    raise {call}\n")
        with pytest.raises(AssertionError, match="not written out"):
            raised_codes(tmp_path)
