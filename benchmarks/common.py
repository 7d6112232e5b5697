"""Shared by the benchmark scripts: CPU time of several runs (median and range), the machine
and its load, tables, and writing a section of docs/benchmarks.md."""

from __future__ import annotations

import compileall
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.games import compiled_games

DOCS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def installed_environment(*checkouts: Path) -> dict[str, str]:
    """The environment for timing whole `referee` processes as an installed package starts:
    from compiled bytecode. Without it (a checkout under PYTHONDONTWRITEBYTECODE) every
    module is compiled at every start, which makes the time grow with the lines of code
    rather than with what runs; the anchors' own packages come from site-packages, compiled
    at their install. Each checkout's package is compiled here once."""
    for checkout in checkouts:
        compileall.compile_dir(checkout / "referee", quiet=1)
    environment = dict(os.environ)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


PROBE = (
    "import resource,subprocess,sys,json;"
    "p=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL);"
    "u=resource.getrusage(resource.RUSAGE_CHILDREN);"
    "print(json.dumps([p.returncode,u.ru_utime+u.ru_stime,u.ru_maxrss/1024]))"
)


def measured_run(
    args: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> tuple[int, float, float]:
    """Run a command: its exit code, CPU seconds (user + system) and peak memory (MB).

    The command runs as the only child of a bare Python started for it. A child's ru_maxrss
    keeps, across the exec, the peak of the process it was forked from, and RUSAGE_CHILDREN
    gives the greatest of every child so far: run from this script, the command would be
    given this script's peak (and that of every command before it). The bare Python's is
    about 10 MB, below any command measured."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
    )
    code, seconds, peak = json.loads(out.stdout)
    return code, seconds, peak


def median_seconds(work: Callable[[], object], runs: int = 5) -> float:
    """The median wall time of `runs` runs of `work`."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def cpu_seconds(work: Callable[[Any], object], prepared: Any = None) -> float:
    """The CPU time of this process spent in one run of `work(prepared)`. Whatever `work`
    needs made beforehand (fresh states, a file) is made by the caller, outside the clock."""
    started = time.process_time()
    work(prepared)
    return time.process_time() - started


RUN_SECONDS = 1.0
"""The CPU a timed run takes at least (docs/benchmarks.md): under it, the clock's grain and a
moment's load weigh on the figure. Where one piece of work takes less, a run repeats it."""


def span(values: list[int]) -> str:
    """The fewest and the most of `values` (a count that varies from run to run): `2-3`, or
    `2` when they are the same."""
    low, high = min(values), max(values)
    return f"{low:,}" if low == high else f"{low:,}-{high:,}"


def spread(values: list[float], digits: int = 0) -> str:
    """The median and the range of `values`: `1,234 (1,100-1,300)`."""
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{mid:,.{digits}f} ({low:,.{digits}f}-{high:,.{digits}f})"


def ratios(ours: list[float], theirs: list[float], digits: int = 2) -> str:
    """Referee's figure over the anchor's, run by run (each run's pair measured side by
    side): their median and range."""
    return spread([a / b for a, b in zip(ours, theirs, strict=True)], digits)


def load_average() -> str:
    """The 1-minute load average (Linux), or `unknown`."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "unknown"


def cpu_model() -> str:
    """The CPU's model name (Linux /proc/cpuinfo), or what the platform says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> str:
    """The cores, the CPU's model name, Python and the build of referee."""
    games = compiled_games()
    build = f"engines compiled (mypyc): {', '.join(games)}" if games else "pure Python"
    return f"{os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()}; {build}"


IN_PROCESS = "CPU time of the process (`time.process_time`)"


def conditions(runs: int, load_before: str, clock: str = IN_PROCESS) -> str:
    """The line that goes above a table of CPU times: the machine, its load before and after
    the runs, and how the figures are taken."""
    return (
        f"Machine: {machine()}; load average {load_before} before the runs, "
        f"{load_average()} after. {clock}, median and range of {runs} runs."
    )


def empty_caches() -> None:
    """Empty the memo caches of referee's engine modules (move notation), so that a run meets
    them as a fresh process does, not warmed by the run before."""
    for module in list(sys.modules.values()):
        if module is None or not module.__name__.startswith("referee.games"):
            continue
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def table(headers: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def write_section(name: str, text: str, path: Path = DOCS) -> None:
    """Replace the text between the markers of section `name` in `path`, docs/benchmarks.md
    by default (or add the section at the end)."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    block = f"{start}\n{text.strip()}\n{end}"
    docs = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if start in docs and end in docs:
        before, _, rest = docs.partition(start)
        _, _, after = rest.partition(end)
        docs = before + block + after
    else:
        docs = docs.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(docs, encoding="utf-8")


def report(name: str, title: str, script: str, text: str, write: bool) -> None:
    """Print the result; with `write`, also put it into its section of docs/benchmarks.md, or,
    run on the compiled build, into the section beside it that holds that build's figures."""
    print(text)
    if write:
        line = f"Script: `{script}`"
        if compiled_games():
            name, title = f"{name}-compiled", f"{title} (compiled build)"
            line += ", run on the compiled build (README.md, Compiled engines)"
        write_section(name, f"## {title}\n\n{line}\n\n{text}")
