"""Trax positions as text and as SVG."""

from __future__ import annotations

from referee.games.trax.rules import TraxState


def render_text(state: TraxState) -> str:
    return ""


def render_svg(state: TraxState) -> str:
    return ""
