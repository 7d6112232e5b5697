"""Where games run: a local process pool, or a Dask cluster (`pip install referee[dask]`)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager

from referee.tournament.config import ConfigError

ExecutorFactory = Callable[[], Executor]


PARENT_CHECK = 0.5
"""Seconds between a pool worker's checks that the runner is still alive."""


def _leave_with_parent(parent: int) -> None:
    """Pool worker initializer: exit when the runner is gone.

    A runner killed outright (SIGKILL, the out-of-memory killer) cannot stop its workers, and
    they would wait forever on the task pipe, which their siblings hold open.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(1)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def process_pool(workers: int) -> ExecutorFactory:
    return lambda: ProcessPoolExecutor(
        max_workers=workers, initializer=_leave_with_parent, initargs=(os.getpid(),)
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
    try:
        yield lambda: client.get_executor(pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def shutdown(executor: Executor) -> None:
    """Wait for the work in hand; a process pool also drops what has not started."""
    if isinstance(executor, ProcessPoolExecutor):
        executor.shutdown(wait=True, cancel_futures=True)
    else:
        executor.shutdown(wait=True)
