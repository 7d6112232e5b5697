"""The frozen oracle: Thai checkers' rules, notation and FEN as they were at commit 947957b,
before the engine was reworked for speed, kept verbatim (imports aside) so that the
differential test (tests/games/thai/test_oracle.py) compares the engine with them."""
