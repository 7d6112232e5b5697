"""`--json` of `tournament status` and `bots`: one object with the documented fields, checked
against the records and the bots' own signatures."""

from __future__ import annotations

import inspect
import json
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from referee.cli.app import app
from referee.players.registry import bot_classes

cli = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def _run(out: Path, *extra: str) -> None:
    args = ["tournament", "run", "--game", "thax", "--bots", "random,greedy", "--out", str(out)]
    result = cli.invoke(app, [*args, *extra, "-q"])
    assert result.exit_code == 0, result.output


def _status(out: Path) -> dict[str, object]:
    result = cli.invoke(app, ["tournament", "status", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_status_json_counts_what_the_records_hold(tmp_path: Path) -> None:
    out = tmp_path / "t"
    _run(out, "--games-per-pair", "6", "--seed", "7")
    lines = (out / "games.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    (out / "games.jsonl").write_text("\n".join([*lines, lines[2]]) + "\n")  # a copy stored
    data = _status(out)
    assert data == {
        "id": records[0]["event"]["tournament"],
        "game": "thax",
        "variant": "standard",
        "seed": "7",
        "bots": ["random", "greedy"],
        "unit": "games",
        "scheduled": 6,
        "finished": 6,
        "left_to_play": 0,
        "stored": 6,
        "stored_again": 1,
        "reasons": dict(Counter(record["result"]["reason"] for record in records)),
        "sprt": None,
        "failed_start": None,
        "damaged_lines": 0,
        "damaged": [],
    }
    # Every field is documented.
    doc = (ROOT / "docs" / "tournaments.md").read_text()
    assert all(f"`{field}`" in doc for field in data)


def test_status_json_of_an_sprt(tmp_path: Path) -> None:
    out = tmp_path / "s"
    _run(out, "--games-per-pair", "8", "--sprt", "elo0=0,elo1=50,alpha=0.1,beta=0.2")
    data = _status(out)
    sprt = data["sprt"]
    assert isinstance(sprt, dict)
    # A decided test leaves nothing to play; an undecided one the rest of its cap.
    assert data["left_to_play"] == (0 if sprt["decision"] else 8 - data["finished"])
    stored = len((out / "games.jsonl").read_text().splitlines())
    assert sprt["elo0"] == 0 and sprt["elo1"] == 50 and sprt["alpha"] == 0.1
    assert sprt["games"] == stored and sprt["pairs"] == stored // 2
    # The bounds of Wald's test: log(beta / (1 - alpha)) and log((1 - beta) / alpha).
    assert abs(sprt["lower"] - -1.5040774) < 1e-6 and abs(sprt["upper"] - 2.0794415) < 1e-6
    assert sprt["decision"] in ("H0", "H1", None)
    assert sprt["luck_adjusted"] is False
    assert set(sprt) == {
        "elo0",
        "elo1",
        "alpha",
        "beta",
        "luck_adjusted",
        "llr",
        "lower",
        "upper",
        "decision",
        "games",
        "pairs",
        "elo",
        "elo_lower",
        "elo_upper",
    }


def test_bots_json_lists_each_bot_with_its_defaults() -> None:
    result = cli.invoke(app, ["bots", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [entry["game"] for entry in data["games"]] == ["thax", "takhteh", "trax", "thai"]
    for entry in data["games"]:
        classes = bot_classes(entry["game"])
        assert [bot["name"] for bot in entry["bots"]] == list(classes)
        for bot in entry["bots"]:
            cls = classes[bot["name"]]
            parameters = inspect.signature(cls.__init__).parameters.values()
            defaults = {p.name: p.default for p in parameters if p.name != "self"}
            assert bot["options"] == defaults
            assert bot["description"] == cls.description
    one = json.loads(cli.invoke(app, ["bots", "--json", "--game", "trax"]).stdout)
    assert [entry["game"] for entry in one["games"]] == ["trax"]
