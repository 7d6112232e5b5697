"""What the docs quote stays true: the records they show are valid, each output they quote has
its markers (tests/docs/test_examples.py checks the text between them), the solved THAX value
is the solver's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from doc_examples import ROOT, all_blocks, outputs, quoted, shown

from referee.games.thax.solver import win_probability
from referee.validator.check import validate_file

BLOCKS = all_blocks()
OUTPUTS = outputs(BLOCKS)
THAX_DOC = ROOT / "docs" / "thax.md"


@pytest.mark.parametrize(
    "block", [b for b in BLOCKS if b.record], ids=lambda b: f"{shown(b.doc)}:{b.line}"
)
def test_a_record_shown_in_the_docs_is_valid(block, tmp_path: Path) -> None:
    path = tmp_path / "record.jsonl"
    path.write_text(json.dumps(json.loads(block.record)) + "\n")
    reports = list(validate_file(path))
    assert len(reports) == 1
    assert reports[0].valid, reports[0].diagnostics


def test_the_record_format_shows_a_whole_record() -> None:
    assert any(b.record and b.doc.name == "records.md" for b in BLOCKS)


def test_every_quoted_output_has_its_markers() -> None:
    names = [command.output for _, command in OUTPUTS]
    assert len(names) == len(set(names)), names
    assert {"bots-thax", "bots-takhteh", "bots-trax", "bots-thai"} <= set(names)
    for _, command in OUTPUTS:
        assert quoted(command.doc, command.output) is not None


def test_the_solved_first_player_chance_quoted_is_the_solvers() -> None:
    """docs/thax.md (and the docs that cite it) quote the solver's value of the start."""
    empty = (0, 0, 0, 0, 0)
    match = re.search(r"\*\*The first player wins ([\d.]+)% .*\((0\.\d+)\)", THAX_DOC.read_text())
    assert match is not None
    percent, value = float(match.group(1)), float(match.group(2))
    start = win_probability(empty, empty)
    # ten digits: the solver stops at a change below 1e-11
    assert round(value, 10) == round(start, 10)
    assert percent == round(100 * start, 2)
