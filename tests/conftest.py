"""Suite-wide hooks."""

from __future__ import annotations

import pytest

FIRST = "test_code_health.py"
"""The module whose checks run before every other test (lint, format, types)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A stable sort: the code-health checks first, every other test in its usual order.
    items.sort(key=lambda item: item.path.name != FIRST)
