"""External bots kept running in a worker process from batch to batch, so that a program starts
once per worker rather than once per batch of games (issue 18).

A worker asks `running_bot` for a program's bot: the one it already runs for the same program
and settings, or the fresh one it passes. When the batch ends it hands the bot back with
`release`; a bot whose batch did not end cleanly is closed instead. Every bot still kept is
closed when the worker process ends (a pool shutting down; also a plain interpreter exit), so
none is left behind. A bot that sits unused for IDLE_SECONDS is closed at the next look-up, so
that a long-lived worker (a Dask cluster's) does not keep the programs of a tournament that
has ended.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections.abc import Hashable
from multiprocessing import util

from referee.players.external import ProgramBot

IDLE_SECONDS = 120.0
"""How long a released bot may wait for its next batch before it is closed."""

_idle: dict[Hashable, tuple[ProgramBot, float]] = {}
"""Released bots by key, with the time each was released."""
_lent: dict[int, Hashable] = {}
"""The key of each bot handed out and not yet released, by the bot's id."""
_lock = threading.Lock()


def program_key(name: str, bot: ProgramBot) -> Hashable:
    """What makes two bots the same running program: the tournament's name for it, every
    setting it was made with, and the thread asking. On Linux a program dies with the thread
    that started it (its parent-death signal follows the thread), so a worker running batches
    on several threads (Dask) keeps programs for each thread."""
    launch, log = bot.launch, bot.log
    return (
        threading.get_ident(),
        name,
        type(bot),
        launch.command,
        launch.cwd,
        tuple(sorted(launch.env.items())),
        launch.memory_mb,
        launch.max_line,
        launch.groups,
        bot.limits,
        log.path,
        log.limit,
        getattr(bot, "team", None),
    )


def running_bot(name: str, fresh: ProgramBot) -> ProgramBot:
    """The bot released earlier for the same program (its process still running), else
    `fresh` (which has started nothing yet).

    The caller owns the bot until it calls `release`: a bot is never handed out twice."""
    _close_at_exit()
    key = program_key(name, fresh)
    now = time.monotonic()
    with _lock:
        stale = [other for other, (_bot, since) in _idle.items() if now - since > IDLE_SECONDS]
        unused = [_idle.pop(other)[0] for other in stale if other != key]
        kept = _idle.pop(key, None)
        bot = kept[0] if kept is not None else fresh
        _lent[id(bot)] = key
    for old in unused:
        old.close()
    return bot


def release(bot: ProgramBot, clean: bool = True) -> None:
    """Keep `bot` running for the next batch; close it unless it ended `clean` (between games:
    a batch that broke off may leave a program in the middle of a move)."""
    with _lock:
        key = _lent.pop(id(bot), None)
        earlier = None
        if clean and key is not None:
            earlier = _idle.pop(key, None)
            _idle[key] = (bot, time.monotonic())
    if not clean or key is None:
        bot.close()
    if earlier is not None:
        earlier[0].close()


def close_all() -> None:
    """Close every kept bot (its process and process group)."""
    with _lock:
        bots = [bot for bot, _since in _idle.values()]
        _idle.clear()
    for bot in bots:
        bot.close()


_registered_in: int | None = None


def _close_at_exit() -> None:
    """Have this process close its kept bots when it ends: a pool worker ends through
    multiprocessing, which runs its finalizers (registered in the worker itself: a forked
    child drops its parent's) but not atexit; any other process ends through atexit."""
    global _registered_in
    if _registered_in == os.getpid():
        return
    _registered_in = os.getpid()
    util.Finalize(None, close_all, exitpriority=100)
    atexit.register(close_all)


def _forget_inherited() -> None:
    # A forked child shares its parent's pipes to the parent's bots: they are not its own to
    # use or to close. The lock may have been held by a thread the child does not have.
    global _lock
    _lock = threading.Lock()
    _idle.clear()
    _lent.clear()


os.register_at_fork(after_in_child=_forget_inherited)
