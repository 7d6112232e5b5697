"""Tournaments for the report tests, played in this process (no process pool to start)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.tournament.config import BotEntry, build_config
from referee.tournament.runner import run_tournament


@pytest.fixture
def make_tournament() -> Callable[..., Path]:
    def make(
        directory: Path,
        game: str = "thax",
        games_per_pair: int = 4,
        bots: tuple[tuple[str, str], ...] = (("random-a", "random"), ("random-b", "random")),
        event: str | None = None,
    ) -> Path:
        entries = [BotEntry(name=name, spec=spec) for name, spec in bots]
        config = build_config(
            game=game, bots=entries, games_per_pair=games_per_pair, seed="3", event=event
        )
        run_tournament(directory, config, executor_factory=lambda: ThreadPoolExecutor(1))
        return directory

    return make
