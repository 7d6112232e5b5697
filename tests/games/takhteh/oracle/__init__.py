"""The frozen oracle: Takhteh's rules and notation as they were at commit eccc0d9, before the
engine was reworked for speed, kept verbatim (imports aside) so that the differential test
(tests/games/takhteh/test_oracle.py) compares the engine with them."""
