"""Trax boards as text (track colours visible) and as standalone SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from referee.games.trax import GAME
from tests.games.trax.helpers import DRAWN_8X8, position

SVG = "{http://www.w3.org/2000/svg}"


def test_text_board_shows_each_edge_colour_and_the_notation_labels() -> None:
    """@0+: white (o) above and below the tile, black (#) left and right; labels @ A B, 0 1 2."""
    assert GAME.render_text(position("@0+")) == (
        "    @   A   B\n"
        "\n"
        "0       .\n"
        "        o\n"
        "1   . # + # .\n"
        "        o\n"
        "2       .\n"
        "\n"
        "o white track, # black track; Black to move"
    )


def test_text_board_of_a_won_game_says_who_won_and_how() -> None:
    text = GAME.render_text(position("@0/ B1\\ A2\\"))
    assert text.endswith("Black wins by a loop")
    assert "/" in text and "\\" in text


def test_text_board_of_the_empty_board_and_of_a_draw() -> None:
    assert "@0+ or @0/" in GAME.render_text(GAME.initial_state(GAME.ruleset()))
    assert GAME.render_text(position(DRAWN_8X8, "8x8")).endswith("drawn (no legal move)")


def test_svg_is_standalone_with_two_tracks_a_tile() -> None:
    state = position("@0+ B1\\ B2/ A2+ A3/ A0\\ @3+ @3\\")
    root = ElementTree.fromstring(GAME.render_svg(state))
    assert root.tag == f"{SVG}svg"
    paths = root.findall(f"{SVG}path")
    white = [p for p in paths if p.get("stroke") == "#ffffff"]
    black = [p for p in paths if p.get("stroke") == "#111111"]
    assert len(white) == len(black) == len(state.tiles)
    labels = [t.text for t in root.findall(f"{SVG}text")]
    assert labels[:2] == ["@", "A"] and "White to move" in labels


def test_svg_of_the_empty_board() -> None:
    root = ElementTree.fromstring(GAME.render_svg(GAME.initial_state(GAME.ruleset())))
    assert root.findall(f"{SVG}path") == []
