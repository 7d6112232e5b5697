"""How a participant is run: the registry of built-in bots (specs such as
`search:depth=4`) and external programs behind the JSON-lines and Trax contest protocols."""
