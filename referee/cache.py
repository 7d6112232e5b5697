"""The folder where referee keeps what it works out once (the solved THAX table, summaries of
big record files): one variable names it for both. Imports nothing of referee, so that the
games may use it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

CACHE_VARIABLE = "REFEREE_CACHE_DIR"
"""The environment variable that names the cache folder."""

OLD_VARIABLE = "REFEREE_CACHE"
"""The THAX table's variable before there was one for both: the folder that holds `referee/`
(as $XDG_CACHE_HOME does), still read after $REFEREE_CACHE_DIR."""


def cache_folder(environment: Mapping[str, str] = os.environ) -> Path | None:
    """$REFEREE_CACHE_DIR, else referee/ in $REFEREE_CACHE, $XDG_CACHE_HOME or ~/.cache; None
    when there is no home folder to find one in."""
    given = environment.get(CACHE_VARIABLE)
    if given:
        return Path(given)
    base = environment.get(OLD_VARIABLE) or environment.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "referee"
    try:
        return Path.home() / ".cache" / "referee"
    except (RuntimeError, KeyError):  # no $HOME and no password entry
        return None
