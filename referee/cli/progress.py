"""A live progress bar for tournaments: games done, games per second, time left, the leader."""

from __future__ import annotations

from collections import defaultdict
from types import TracebackType
from typing import Self

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from referee.records.model import Record


class _Live:
    """A rich progress display shown while the `with` block runs."""

    progress: Progress

    def __enter__(self) -> Self:
        self.progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.progress.stop()


class TournamentProgress(_Live):
    def __init__(self, enabled: bool = True) -> None:
        self.scores: dict[str, float] = defaultdict(float)
        self.games: dict[str, int] = defaultdict(int)
        self.progress = Progress(
            TextColumn("[bold]games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[leader]}"),
            console=Console(stderr=True),
            disable=not enabled,
            transient=False,
        )
        self.task = self.progress.add_task("games", total=None, rate="", leader="")

    def start(self, total: int, already: int) -> None:
        self.progress.update(self.task, total=total, completed=already)

    def advance(self, records: list[Record]) -> None:
        """One game (or the games of one match) finished."""
        for record in records:
            result = record.result
            for seat, player in enumerate(record.players):
                self.games[player.name] += 1
                if result is not None:
                    if result.winner is None:
                        self.scores[player.name] += 0.5
                    elif result.winner == seat:
                        self.scores[player.name] += 1
        leader = max(self.games, key=lambda name: self.scores[name] / self.games[name])
        share = 100 * self.scores[leader] / self.games[leader]
        self.progress.advance(self.task)
        task = self.progress.tasks[0]
        rate = f"{task.speed:.1f} games/s" if task.speed else ""
        self.progress.update(self.task, rate=rate, leader=f"leader {leader} {share:.0f}%")


class FileProgress(_Live):
    """Files checked so far, shown on a terminal only and gone when done."""

    def __init__(self, files: int, enabled: bool = True) -> None:
        console = Console(stderr=True)
        self.progress = Progress(
            TextColumn("[bold]files"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            disable=not (enabled and console.is_terminal),
            transient=True,
        )
        self.task = self.progress.add_task("files", total=files)
        self.current: str | None = None

    def seen(self, file: str) -> None:
        if file != self.current:
            if self.current is not None:
                self.progress.advance(self.task)
            self.current = file
