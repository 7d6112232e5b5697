"""How the tournament's modules depend on each other (issue 32): the configuration holds its
parsed values and its ruleset without the worker, an SPRT's standing is read without the
runner, and no function takes a long positional list."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PACKAGES = ("tournament", "players", "records", "validator", "archive", "report")
MOST_POSITIONAL = 6


def modules_after(code: str) -> set[str]:
    """The referee modules a fresh interpreter has loaded after running `code`."""
    probe = f"{code}\nimport sys\nprint(sorted(m for m in sys.modules if m.startswith('referee')))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    return set(eval(done.stdout.splitlines()[-1]))  # a list literal printed by the probe


def test_the_configuration_parses_and_resolves_its_rules_without_the_worker() -> None:
    loaded = modules_after(
        "from pathlib import Path\n"
        "from referee.tournament.config import BotEntry, build_config, with_openings\n"
        "bots = [BotEntry(name='a', spec='random'), BotEntry(name='b', spec='greedy')]\n"
        "config = build_config(game='trax', bots=bots, tc='10+0.1', adjudicate=['draw=1:2:3'])\n"
        "config = with_openings(config, 'trax-3ply', Path.cwd())\n"
        "assert config.rules()[1].id == 'trax/standard@1' and config.openings\n"
    )
    assert "referee.tournament.config" in loaded  # the probe sees what it imported
    assert "referee.tournament.worker" not in loaded
    assert "referee.tournament.runner" not in loaded


SPRT_FOLDER = ROOT / "tests" / "fixtures" / "tournament-bc9d3ef" / "made"


@pytest.mark.parametrize(
    "code",
    [
        "import referee.report.build",
        "from pathlib import Path\nfrom referee.cli.ratings import _sprt_lines\n"
        f"assert _sprt_lines([Path({str(SPRT_FOLDER)!r})])",
    ],
)
def test_reading_an_sprt_does_not_import_the_runner(code: str) -> None:
    """The report and `referee ratings` tell an SPRT's line without the runner's signals,
    executors and process killing."""
    loaded = modules_after(code)
    assert "referee.tournament.sequential" in loaded
    assert "referee.tournament.runner" not in loaded


def long_positional_lists(folder: Path) -> list[str]:
    """Each function of the package's files with more than MOST_POSITIONAL positional
    parameters (`self` and `cls` aside; keyword-only ones do not count)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            names = [arg.arg for arg in [*node.args.posonlyargs, *node.args.args]]
            if names[:1] in (["self"], ["cls"]):
                names = names[1:]
            if len(names) > MOST_POSITIONAL:
                found.append(f"{path}:{node.lineno} {node.name}: {len(names)}")
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_function_takes_more_than_six_positional_parameters(package: str) -> None:
    assert long_positional_lists(ROOT / "referee" / package) == []


def test_the_count_sees_a_long_positional_list(tmp_path: Path) -> None:
    """The check above can fail: seven positional parameters are found, keyword-only not."""
    (tmp_path / "m.py").write_text(
        "def long(a, b, c, d, e, f, g): ...\n"
        "def fine(self, a, b, c, d, e, f, *, g, h): ...\n"
        "class C:\n    def long(self, a, b, c, d, e, f, g=1): ...\n"
    )
    found = long_positional_lists(tmp_path)
    assert [line.rsplit(" ", 2)[-2:] for line in found] == [["long:", "7"], ["long:", "7"]]
