BOTS: dict[str, type] = {}
