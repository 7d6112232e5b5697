"""Timing a bot's answer in the time-limit tests of every game.

A bot reads the wall clock and stops at its limit. The time its thread spends working says
whether it did stop: that is what the tests bound tightly. The wall time also counts the
moments the machine gave to other work (a test run beside a build), so its bound only says
that the bot answered.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

BUSY_MACHINE = 2.0
"""Seconds a busy machine may add to an answer's wall time."""


def timed(answer: Callable[[], T]) -> tuple[T, float, float]:
    """The answer, the CPU seconds of this thread, and the wall seconds it took.

    A full garbage collection first: late in a whole test run the heap holds what earlier
    tests left, and a collection of it that falls inside the answer is not the bot's time."""
    gc.collect()
    wall, cpu = time.perf_counter(), time.thread_time()
    result = answer()
    return result, time.thread_time() - cpu, time.perf_counter() - wall
