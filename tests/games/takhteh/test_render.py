"""Text and SVG pictures of a Takhteh position."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from referee.games.takhteh import GAME
from referee.games.takhteh.rules import TakhtehState
from tests.games.takhteh.reference import make_board


def test_text_board_shows_points_checkers_bar_and_status() -> None:
    board = make_board({25: 1, 6: 7, 13: 5, 8: 2}, {25: 2, 19: 5, 17: 3, 12: 5})
    text = GAME.render_text(TakhtehState(GAME.ruleset(), board, 1, (3, 1)))
    lines = text.splitlines()
    assert "seat 1 (O) to move, dice 3-1" in lines[0]
    assert "Position ID:" in lines[0]
    assert lines[1].startswith(" +13-14-15-16-17-18-+---+19")
    assert lines[-3].startswith(" +12-11-10--9--8--7-+---+-6")
    # Seven checkers on the 6-point: five rows, the one nearest the middle showing the count.
    middle = next(index for index, line in enumerate(lines) if "|BAR|" in line)
    assert " 7 " in lines[middle + 1] and " O " in lines[middle + 2]
    assert "O seat 1: pips" in text and "X seat 0: pips" in text
    assert "off 0" in text


def test_opening_and_finished_states_render() -> None:
    assert "opening roll" in GAME.render_text(GAME.initial_state(GAME.ruleset()))
    board = make_board({}, {20: 15})
    end = TakhtehState(GAME.ruleset(), board, 1, None, 0, 2)
    assert "seat 0 (X) has won (a gammon, 2 points)" in GAME.render_text(end)


def test_svg_is_standalone_xml_with_all_checkers() -> None:
    state = GAME.initial_state(GAME.ruleset(), first=0)
    svg = GAME.render_svg(state)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    circles = [e for e in root.iter() if e.tag.endswith("circle")]
    assert len(circles) == 30
    assert "4HPwATDgc/ABMA" in svg
