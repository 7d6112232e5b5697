"""Where games run: a local process pool, or a Dask cluster (`pip install referee[dask]`)."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import util
from types import FrameType

from referee.players.process import become_subreaper, kill_adopted, kill_live_groups
from referee.tournament.config import ConfigError
from referee.tournament.worker import stop_spooling

ExecutorFactory = Callable[[], Executor]


PARENT_CHECK = 0.5
"""Seconds between a pool worker's checks that the runner is still alive."""


def _worker_setup(parent: int) -> None:
    """Pool worker initializer: leave, killing the bots it runs, when the runner is gone or
    tells it to (SIGTERM); Ctrl-C is the runner's to handle. The worker is a child subreaper:
    what its bots leave when they exit comes to it, and is killed (`kill_adopted`) when a bot
    stops and as the worker ends.

    A runner killed outright (SIGKILL, the out-of-memory killer) cannot stop its workers, and
    they would wait forever on the task pipe, which their siblings hold open.
    """

    def leave(code: int) -> None:
        stop_spooling()  # a game that its bots' killing ends is no result
        kill_live_groups()
        os._exit(code)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        leave(1)

    def terminated(number: int, frame: FrameType | None) -> None:
        leave(128 + number)

    # What the worker inherits from the runner (its modules, the configuration) lives as long
    # as the worker: kept out of the collector's passes, which otherwise walk all of it again
    # and again while the games make and drop objects by the million (a random-bot tournament
    # played a tenth to a fifth more games a CPU second with it, measured side by side).
    gc.freeze()
    become_subreaper()
    # After the kept bots are closed (running.py, priority 100) as the worker ends.
    util.Finalize(None, kill_adopted, exitpriority=1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, terminated)
    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def process_pool(workers: int) -> ExecutorFactory:
    # Forked, not the default of Python 3.14 (forkserver): a worker inherits the games
    # registered by a call and closes its copies of the folder locks (store.py) at the fork.
    return lambda: ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_worker_setup,
        initargs=(os.getpid(),),
    )


@contextmanager
def dask_executors(address: str, workers: int) -> Iterator[ExecutorFactory]:
    """Executors on the Dask scheduler at `address`, or on a LocalCluster started here
    (loopback only) when `address` is `local`."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ConfigError("--dask needs Dask: pip install 'referee[dask]'") from None
    cluster = None
    if address == "local":
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout=10)
        except OSError as error:
            raise ConfigError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        except ValueError as error:  # no address: empty, no port, an unknown scheme
            raise ConfigError(f"--dask {address!r} is no scheduler address: {error}") from None
    try:
        yield lambda: client.get_executor(pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


LEAVE_WAIT = 1.0
"""Seconds the workers of a pool stopped at once have to kill their bots and leave."""


def stop_at_once(executor: Executor) -> None:
    """Stop now, dropping the work in hand: a process pool's workers are told to leave
    (SIGTERM: each kills its bots and everything below them, even what it has not looked at
    yet) and killed if they have not within LEAVE_WAIT (the kernel kills their bots,
    `kill_orphans` what those started); other executors only let go (the caller cancels its
    futures)."""
    if isinstance(executor, ProcessPoolExecutor):
        # concurrent.futures has no public way to stop running work before Python 3.14.
        workers = list((getattr(executor, "_processes", None) or {}).values())
        for process in workers:
            with contextlib.suppress(OSError, ValueError):
                process.terminate()
        deadline = time.monotonic() + LEAVE_WAIT
        for process in workers:
            with contextlib.suppress(OSError, ValueError, AssertionError):
                process.join(max(0.0, deadline - time.monotonic()))
        for process in workers:
            with contextlib.suppress(OSError, ValueError):
                process.kill()
        executor.shutdown(wait=True, cancel_futures=True)
    else:
        executor.shutdown(wait=False)
    executor._referee_stopped = True  # type: ignore[attr-defined]


def shutdown(executor: Executor) -> None:
    """Wait for the work in hand; a process pool also drops what has not started."""
    if getattr(executor, "_referee_stopped", False):
        return
    if isinstance(executor, ProcessPoolExecutor):
        executor.shutdown(wait=True, cancel_futures=True)
    else:
        executor.shutdown(wait=True)
