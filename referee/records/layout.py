"""The layout of a record's line as referee writes it, byte for byte: the contract between
the writers (records/io.py `record_to_json`, tournament/jsonline.py `json_line`) and the
header scan's fast path (records/scan.py `skim_jsonl`), which finds a line's turns by byte
search instead of decoding them.

A line is `{"format": "referee", ..., "turns": [{"seat": 0, ...}, ...], "result": ...}`:
the members in the model's order (the turns just before the result), each member and item
after the first preceded by `", "`, each key followed by `": "`, and each turn naming its
seat first. A line laid out otherwise is still read, only more slowly.
tests/records/test_layout.py fails when a writer's layout and the fast path part.
"""

from __future__ import annotations

import re
from typing import Final

ITEM_SEPARATOR: Final = ", "
KEY_SEPARATOR: Final = ": "
SEPARATORS: Final = (ITEM_SEPARATOR, KEY_SEPARATOR)
"""For `json.dumps(separators=...)`; also what `msgspec.json.format(indent=0)` writes."""

TURNS_KEY: Final = b'"turns":'
RESULT_KEY: Final = b'"result":'
BEFORE_TURNS: Final = ITEM_SEPARATOR.encode()
"""What comes just before the turns' key: the separator after the member before them."""
TURNS_END: Final = b"}]" + BEFORE_TURNS
"""What comes just before the result's key: the last turn's end, its list's, a separator."""
FIRST_SEAT: Final = re.compile(rb'\s*\[\s*\{\s*"seat"\s*:\s*([01])\s*[,}]')
"""The turns' list after its key, as far as the first turn's seat."""
