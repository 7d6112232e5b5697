"""Suite-wide hooks."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

FIRST = "test_code_health.py"
"""The module whose checks run before every other test (lint, format, types)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A stable sort: the code-health checks first, every other test in its usual order.
    items.sort(key=lambda item: item.path.name != FIRST)


_CACHE = tempfile.mkdtemp(prefix="referee-test-cache-")


def pytest_configure(config: pytest.Config) -> None:
    # `referee ratings` keeps summaries of big files in a cache folder: the suite's own, one
    # for each of its processes (each xdist worker), never the user's (commands run in
    # subprocesses inherit it). The solved THAX table, kept in the same folder, is linked from
    # the user's when there is one (solving it takes half a minute); a worker, which inherits
    # the variable, links it from the folder of the process that started it.
    from referee.cache import cache_folder
    from referee.games.thax.solver import CACHE_NAME

    users = cache_folder()
    if users is not None and (users / CACHE_NAME).is_file():
        os.symlink(users / CACHE_NAME, os.path.join(_CACHE, CACHE_NAME))
    os.environ["REFEREE_CACHE_DIR"] = _CACHE


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_CACHE, ignore_errors=True)
