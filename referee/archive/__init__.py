"""Questions to an archive of records: select games (`select.py`, by the filters of
`filters.py`, positions by `positions.py`) and summarise them (`stats.py`)."""
