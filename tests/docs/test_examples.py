"""Every shell example of README.md and docs/*.md runs as written (benchmarks/doc_examples.py
reads them and the doc-test directives beside them): in a scratch folder per block, with the
files it names made beforehand (tests/docs/helpers.py), it exits as the doc says, 0 unless a
directive says otherwise, never with a traceback, and prints what the doc quotes of it (an
`output` directive: the text between the doc's markers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_examples import Block, Command, all_blocks, quoted, section

from tests.docs.helpers import Scratch, make_placeholders

BLOCKS = all_blocks()
FAST_SECONDS = 120
SLOW_SECONDS = 1800


def _params() -> list[object]:
    params: list[object] = []
    for block in BLOCKS:
        for command in block.commands:
            marks: list[pytest.MarkDecorator] = []
            if command.skip:
                marks.append(pytest.mark.skip(reason=command.skip))
            if command.slow:
                marks.append(pytest.mark.slow)
            if command.xfail:
                marks.append(pytest.mark.xfail(reason=command.xfail, strict=True))
            params.append(pytest.param(block, command, marks=marks, id=command.where))
    return params


@pytest.fixture(scope="session")
def placeholders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_placeholders(tmp_path_factory.mktemp("doc-placeholders"))


@pytest.fixture(scope="session")
def scratches() -> dict[int, Scratch]:
    return {}


@pytest.mark.parametrize(("block", "command"), _params())
def test_the_example_runs_as_written(
    block: Block,
    command: Command,
    placeholders: Path,
    scratches: dict[int, Scratch],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    if id(block) not in scratches:
        folder = tmp_path_factory.mktemp("doc-example")
        scratches[id(block)] = Scratch(block, folder, placeholders)
    timeout = SLOW_SECONDS if command.slow else FAST_SECONDS
    done = scratches[id(block)].run(command, timeout)
    output = f"$ {command.run}\n{done.stdout}{done.stderr}"
    assert "Traceback" not in output, f"{command.where}:\n{output}"
    assert done.returncode == command.exit, (
        f"{command.where}: exit code {done.returncode}, not {command.exit}:\n{output}"
    )
    for text in command.expect:
        assert text in done.stdout, f"{command.where}: does not print {text!r}:\n{output}"
    if command.output:
        assert quoted(command.doc, command.output) == section(done.stdout), (
            f"{command.where}: the text between the {command.output} markers is not what the "
            f"command prints now: python benchmarks/doc_examples.py --write {command.output}"
        )


def test_every_shell_block_has_a_command() -> None:
    assert all(block.commands for block in BLOCKS if not block.record)
    readme = [b for b in BLOCKS if b.doc.name == "README.md"]
    assert len(readme) >= 8
