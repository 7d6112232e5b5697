"""The JSON Schemas of what referee writes, so other tools and languages can read and write it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
from pydantic import BaseModel, TypeAdapter

from referee.analysis.stored import StoredAnalysis
from referee.files import write_atomically
from referee.games import game_names
from referee.records.model import record_adapter
from referee.tournament.store import TournamentFile
from referee.validator.diagnostics import GameReport

BASE_URL = "https://referee.invalid/schemas/"


def _schema(
    adapter: TypeAdapter[Any] | type[BaseModel] | type[msgspec.Struct], name: str, title: str
) -> dict[str, Any]:
    if isinstance(adapter, TypeAdapter):
        body = adapter.json_schema()
    elif issubclass(adapter, msgspec.Struct):
        body = msgspec.json.schema(adapter)
    else:
        body = adapter.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": BASE_URL + name,
        "title": title,
        **body,
    }


def schemas() -> dict[str, dict[str, Any]]:
    """File name -> schema; the record schema has every game registered or installed."""
    game_names()
    return {
        "record.schema.json": _schema(
            record_adapter(), "record.schema.json", "referee game record (format 'referee' v1)"
        ),
        "tournament.schema.json": _schema(
            TournamentFile, "tournament.schema.json", "referee tournament.json"
        ),
        "validation-report.schema.json": _schema(
            GameReport, "validation-report.schema.json", "one game of `referee validate --json`"
        ),
        "analysis.schema.json": _schema(
            StoredAnalysis,
            "analysis.schema.json",
            "one game of `referee analyse --format json`, a line of an analysis file",
        ),
    }


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=False) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = folder / name
        with write_atomically(path) as file:
            file.write(render(schema))
        written.append(path)
    return written
