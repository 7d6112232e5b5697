"""Live progress for tournaments and file checks: games done, a rate and time left that hold
up between batches, the leader."""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Self

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Column
from rich.text import Text

from referee.cli.output import showing
from referee.wording import plural

if TYPE_CHECKING:
    from referee.tournament.worker import PlayedGame

WINDOW_SECONDS = 60.0
"""The rate counts the games finished in the last minute at least..."""
WINDOW_GAMES = 20
"""...and reaches back over the last 20 games when they took longer than that."""


class GameRate:
    """Games per second, from the games finished in a recent window of time.

    Results come back in batches, several games at once: a rate taken between two arrivals
    would jump to thousands of games a second. The games finished in the window divided by the
    window's length, from the last game before it up to now (not up to the last arrival), keep
    the rate steady while a batch is being played, and let it fall honestly when nothing comes
    back.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._since = clock()
        """When the window opens: the start, or the finish of the last game dropped from it."""
        self._finished: deque[float] = deque()

    def finished(self, games: int = 1) -> None:
        now = self._clock()
        self._finished.extend([now] * games)
        finished = self._finished
        while finished[0] < now - WINDOW_SECONDS:
            # The games of a batch finish together: all of them leave the window, or none,
            # and the window keeps WINDOW_GAMES games at least.
            oldest = finished[0]
            batch = next((i for i, at in enumerate(finished) if at != oldest), len(finished))
            if len(finished) - batch < WINDOW_GAMES:
                break
            for _ in range(batch):
                finished.popleft()
            self._since = oldest

    def per_second(self) -> float | None:
        """None until a game is finished."""
        if not self._finished:
            return None
        return len(self._finished) / max(self._clock() - self._since, 1e-3)

    def seconds_left(self, remaining: int) -> float | None:
        rate = self.per_second()
        if rate is None:
            return None
        return remaining / rate


def _clock_text(seconds: float) -> str:
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


class _RateColumn(ProgressColumn):
    """Rate and time left, worked out at each refresh so that they move between batches."""

    def __init__(self, rate: GameRate) -> None:
        super().__init__(table_column=Column(no_wrap=True))
        self.rate = rate

    def render(self, task: Task) -> Text:
        per_second = self.rate.per_second()
        if per_second is None or task.total is None:
            return Text("")
        speed = f"{per_second:.1f}/s" if per_second >= 1 else f"{60 * per_second:.1f}/min"
        remaining = int(task.total - task.completed)
        if remaining <= 0:  # all played, or the SPRT has decided: no time left to guess
            return Text(speed)
        left = self.rate.seconds_left(remaining)
        return Text(f"{speed} {_clock_text(left) if left is not None else '?'} left")


class _Live:
    """A rich progress display on stderr, shown from `show()` until the `with` block ends,
    through which `output.echo` prints meanwhile. rich's own redirection of sys.stdout is off:
    it would send what goes to a file or a pipe to the terminal instead."""

    progress: Progress
    shown = False

    def show(self) -> None:
        if not self.progress.disable and not self.shown:
            self.shown = True
            self.progress.start()
            if self.progress.console.is_terminal:  # else rich draws nothing until the end
                showing(self.progress.console)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.shown:
            if kind is not None and not self.progress.console.is_terminal:
                # On a file or a pipe rich draws the bar once, when it stops (and `Progress.stop`
                # a blank line after it): the run's last word when it ends well, but before an
                # error it would make that error one line of several. Stopped unseen (a
                # terminal has shown the bar all along and keeps it).
                live = self.progress.live
                live.transient = True
                live.stop()
            else:
                self.progress.stop()
            showing(None)


class TournamentProgress(_Live):
    """Games (or matches) finished of those scheduled, the rate, time left and the leader."""

    def __init__(
        self,
        enabled: bool = True,
        unit: str = "games",
        before_play: Callable[[], None] | None = None,
    ) -> None:
        self.scores: dict[str, float] = defaultdict(float)
        self.games: dict[str, int] = defaultdict(int)
        self.rate = GameRate()
        self.before_play = before_play
        """Called once the tournament is read and some game is left to play."""
        # One line of 80 columns: the bar is short, and the leader's name gives way.
        self.progress = Progress(
            TextColumn(f"[bold]{unit}", table_column=Column(no_wrap=True)),
            BarColumn(bar_width=12),
            MofNCompleteColumn(table_column=Column(no_wrap=True)),
            TimeElapsedColumn(table_column=Column(no_wrap=True)),
            _RateColumn(self.rate),
            TextColumn(
                "{task.fields[leader]}",
                table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1),
            ),
            console=Console(stderr=True),
            disable=not enabled,
            transient=False,
            expand=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self.task = self.progress.add_task(unit, total=None, leader="")

    def start(self, total: int, already: int) -> None:
        """The tournament is read (its configuration checked): nothing is drawn before, so that
        an error about it comes alone. Told again, of fewer, when an SPRT decides: the bar
        ends full."""
        if not self.shown:
            if already >= total:
                return
            if self.before_play is not None:
                self.before_play()
        self.progress.update(self.task, total=total, completed=already)
        self.show()

    def advance(self, games: list[PlayedGame]) -> None:
        """One game (or the games of one match) finished."""
        for game in games:
            result = game.ending
            for seat, name in enumerate(game.players):
                self.games[name] += 1
                if result is not None:
                    if result.winner is None:
                        self.scores[name] += 0.5
                    elif result.winner == seat:
                        self.scores[name] += 1
        leader = max(self.games, key=lambda name: self.scores[name] / self.games[name])
        share = 100 * self.scores[leader] / self.games[leader]
        self.rate.finished()
        self.progress.advance(self.task)
        self.progress.update(self.task, leader=f"leader {leader} {share:.0f}%")


def stopped_message(directory: Path, stored: int) -> str:
    """What Ctrl-C leaves behind, and how to go on."""
    return (
        f"stopped: {plural(stored, 'game')} stored; continue with "
        f"`referee tournament resume {directory}`"
    )


class FileProgress(_Live):
    """Files done so far (with `games`, also the games done in them: analyse), shown on a
    terminal only and gone when done."""

    def __init__(self, files: int, enabled: bool = True, games: bool = False) -> None:
        console = Console(stderr=True)
        self.progress = Progress(
            TextColumn("[bold]{task.fields[games]}" if games else "[bold]files"),
            BarColumn(bar_width=30),
            MofNCompleteColumn(),
            *([TextColumn("files")] if games else []),
            TimeElapsedColumn(),
            console=console,
            disable=not (enabled and console.is_terminal),
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self.task = self.progress.add_task("files", total=files, games="")
        self.counting = games
        self.games = 0
        self.current: str | None = None

    def __enter__(self) -> Self:
        self.show()
        return self

    def seen(self, file: str) -> None:
        """A file, or with `games` one game of it, done."""
        if file != self.current:
            if self.current is not None:
                self.progress.advance(self.task)
            self.current = file
        if self.counting:
            self.games += 1
            self.progress.update(self.task, games=plural(self.games, "game"))
