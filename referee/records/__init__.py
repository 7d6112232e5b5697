"""Game records: the pydantic model, JSON/JSONL I/O, replay through an engine, the file
formats of other tools, conversion, and a fast scan of JSONL headers."""
