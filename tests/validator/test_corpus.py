"""Golden diagnostics for the corpus of bad files (like pgn-extract's test files): each file
gives exactly its expected diagnostics (code and place). REFEREE_UPDATE_GOLDEN=1 rewrites
corpus.expected.json after a deliberate change; review the diff."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.validator.check import validate_file

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
EXPECTED = HERE / "corpus.expected.json"
DOCS = HERE.parents[1] / "docs" / "validator.md"
FILES = sorted(path.name for path in CORPUS.iterdir())


def diagnostics(name: str) -> list[dict]:
    found = []
    for report in validate_file(CORPUS / name):
        for d in report.diagnostics:
            place = {k: v for k, v in d.model_dump().items() if k in PLACE and v is not None}
            found.append(place)
    return found


PLACE = ("code", "game", "line", "column", "pointer", "turn", "move_number", "move")


def expected() -> dict[str, list[dict]]:
    if os.environ.get("REFEREE_UPDATE_GOLDEN"):
        EXPECTED.write_text(json.dumps({n: diagnostics(n) for n in FILES}, indent=1) + "\n")
    return json.loads(EXPECTED.read_text())


def test_the_corpus_has_at_least_40_files_all_with_expectations() -> None:
    golden = expected()
    assert len(FILES) >= 40
    assert sorted(golden) == FILES


@pytest.mark.parametrize("name", FILES)
def test_each_bad_file_gives_its_golden_diagnostics(name: str) -> None:
    assert diagnostics(name) == expected()[name]


def test_every_documented_code_is_in_the_corpus() -> None:
    codes_section = DOCS.read_text().partition("## Codes")[2]
    documented = set(re.findall(r"^\| `([a-z0-9.\-]+)` \|", codes_section, re.MULTILINE))
    seen = {d["code"] for found in expected().values() for d in found}
    assert documented, "docs/validator.md lists the codes"
    assert documented - seen == set(), "codes without a bad file in the corpus"
    assert seen - documented == set(), "codes in the corpus missing from docs/validator.md"


def test_the_cli_exits_1_on_every_bad_file_and_0_on_the_good_one() -> None:
    runner = CliRunner()
    for name in FILES:
        result = runner.invoke(app, ["validate", "-q", str(CORPUS / name)])
        assert "Traceback" not in result.output
        assert result.exit_code == (0 if "valid" in name and "invalid" not in name else 1), name
