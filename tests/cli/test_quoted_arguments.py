"""A message that quotes what the user typed shows a byte that is no UTF-8 as `\\xff`, as
every other message does, never as the lone surrogate Python keeps it as (`\\udcff`), and an
escape character as `\\x1b`, never sent to the terminal (issue 31)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

THAX = str(Path(__file__).parents[1] / "validator" / "samples" / "thax.jsonl")
HOSTILE = b"\xff\x1b[31m"
SHOWN = "'\\xff\\x1b[31m'"

CASES = [
    ["select", THAX, "--player"],
    ["select", THAX, "--event"],
    ["select", THAX, "--turns"],
    ["select", THAX, "--tag"],
    ["select", THAX, "--moves"],
    ["select", THAX, "--position"],
    ["ratings", THAX, "--anchor"],
    ["ratings", THAX, "--seat-advantage"],
    ["tournament", "run", "--out", "OUT", "-g", "thax", "--bots", "random,greedy", "--tc"],
    ["tournament", "run", "--out", "OUT", "-g", "thax", "--bots", "random,greedy", "--sprt"],
    ["tournament", "run", "--out", "OUT", "-g", "thax", "--bots", "random,greedy", "--adjudicate"],
    ["tournament", "run", "--out", "OUT", "-g", "thax", "--bots", "random,greedy", "--bot-option"],
    ["tournament", "run", "--out", "OUT", "-g", "thax", "--bots", "random", "--external"],
]


@pytest.mark.parametrize("args", CASES, ids=lambda args: " ".join(args[::2][:1] + args[-1:]))
def test_a_typed_byte_is_quoted_as_every_message_shows_it(args: list[str], tmp_path: Path) -> None:
    argv = [arg.replace("OUT", str(tmp_path / "t")).encode() for arg in args]
    out = subprocess.run(
        [sys.executable.encode(), b"-m", b"referee", *argv, HOSTILE],
        capture_output=True,
        timeout=120,
        check=False,
    )
    stderr = out.stderr.decode("utf-8")  # whole UTF-8: no surrogate reached it raw
    assert SHOWN in stderr, stderr
    assert "\\udc" not in stderr and "\x1b" not in stderr, stderr
