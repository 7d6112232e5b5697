"""The code-health checks: ruff's lint and format and mypy (strict, config in pyproject.toml)
over the repository. tests/conftest.py runs them before every other test, so that the suite,
and with it `.ci/run`, fails on a finding first and says what it is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*command: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        pytest.fail(
            f"`{' '.join(command)}` found problems:\n{done.stdout}{done.stderr}", pytrace=False
        )


def test_ruff_check() -> None:
    _run("ruff", "check", ".")


def test_ruff_format() -> None:
    _run("ruff", "format", "--check", ".")


def test_mypy() -> None:
    _run("mypy")
