"""referee: game records, a validator, bot tournaments and rating tables for THAX,
Takhteh/Tavla, Trax and Thai checkers (docs/design.md describes the layout)."""
