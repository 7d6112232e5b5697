"""The package's import structure: the contracts of pyproject.toml `[tool.importlinter]` (the
layers of docs/design.md, the four games apart, no import cycle) hold, and a package face
loads only what its modules need."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# import-linter's command; run from the repository root, whose `referee` it puts first on the
# path (not an installed copy elsewhere).
LINT_IMPORTS = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def lint_imports(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "--no-cache", "--no-logo", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_import_contracts_hold() -> None:
    done = lint_imports()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_a_broken_contract_fails(tmp_path: Path) -> None:
    """The check above can fail: the command line imports the games, so a contract that puts
    the games above it is broken, and lint-imports says so and exits non-zero."""
    config = tmp_path / "upside-down.toml"
    config.write_text(
        "[tool.importlinter]\n"
        'root_package = "referee"\n'
        "[[tool.importlinter.contracts]]\n"
        'name = "upside down"\n'
        'type = "layers"\n'
        'containers = ["referee"]\n'
        'layers = ["games", "cli"]\n'
    )
    done = lint_imports(str(config))
    assert done.returncode != 0
    assert "upside down BROKEN" in done.stdout
    assert "referee.cli" in done.stdout


def loaded_by(statement: str) -> set[str]:
    """The top-level modules (packages) a fresh interpreter has loaded after `statement`."""
    code = f"{statement}\nimport sys\nprint(*{{name.partition('.')[0] for name in sys.modules}})"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return set(done.stdout.split())


def test_the_sprt_loads_neither_pandas_nor_elo() -> None:
    """`referee.ratings.sprt` needs numpy alone: the ratings package's face does not pull in
    the rating tables (pandas, the `elo` package)."""
    loaded = loaded_by("import referee.ratings.sprt")
    assert "numpy" in loaded
    assert not loaded & {"pandas", "elo", "matplotlib"}


def test_the_probe_sees_pandas() -> None:
    """The check above can fail: the rating tables' module loads pandas and elo."""
    assert {"pandas", "elo"} <= loaded_by("import referee.ratings.table")
