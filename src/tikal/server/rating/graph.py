"""A player's rating over time as an SVG picture, in the manner of python-chess's
``chess.svg``: an :mod:`xml.etree.ElementTree` tree, its point drawn once under ``<defs>``
and placed with ``<use>`` for every rated game.

The picture is an image to assistive technology (``role="img"``) named by its ``<title>``
(and ``aria-label``), with a ``<desc>`` that says what it shows, all in the page's
language; the axes' dates and numbers are written as that language writes them (Babel),
in UTC.  Colours are presentation attributes, not a ``<style>``: the pages' Content
Security Policy allows no inline style but the board's.
"""

from __future__ import annotations

import datetime as dt
import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from babel.dates import format_date
from babel.numbers import format_decimal

from ...messages import text
from ...svg.draw import SVG_NS, child, node, num
from .store import HistoryPoint

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 20, 16, 52
INK, MUTED, GRID, LINE, PAPER = "#1f1d18", "#6b665a", "#ddd5bf", "#1a6b3a", "#fffdf7"
FONT = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK JP', sans-serif"
#: Steps the rating axis is marked in: the smallest that needs at most 5 marks.
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True)
class Scale:
    """Where a time and a rating go in the picture."""

    start: float
    end: float
    low: int
    high: int

    def x(self, at: float) -> float:
        span = self.end - self.start
        inner = WIDTH - LEFT - RIGHT
        return LEFT + (inner / 2 if span <= 0 else inner * (at - self.start) / span)

    def y(self, shown: float) -> float:
        inner = HEIGHT - TOP - BOTTOM
        return TOP + inner * (self.high - shown) / (self.high - self.low)


def rating_ticks(low: int, high: int) -> list[int]:
    """Round ratings to mark, from below ``low`` to above ``high`` (a span of 20 at
    least, so that one game's change does not fill the picture)."""
    if high - low < 20:
        low, high = low - 10, high + 10
    step = next((s for s in STEPS if math.ceil(high / s) - math.floor(low / s) <= 5), STEPS[-1])
    first, last = math.floor(low / step) * step, math.ceil(high / step) * step
    if first == last:
        first, last = first - step, last + step
    return list(range(first, last + 1, step))


def scale_of(points: Sequence[HistoryPoint]) -> tuple[Scale, list[int]]:
    shown = [p.shown for p in points]
    ticks = rating_ticks(min(shown), max(shown))
    return Scale(points[0].at, points[-1].at, ticks[0], ticks[-1]), ticks


def day(at: float, language: str) -> str:
    return format_date(dt.datetime.fromtimestamp(at, dt.UTC).date(), "medium", locale=language)


def title_text(name: str, rules: str, language: str) -> str:
    return text("web.profile.graph_title", language, name=name,
                rules=text(f"web.ruleset.{rules}", language))


def desc_text(points: Sequence[HistoryPoint], language: str) -> str:
    return text("web.profile.graph_desc", language, count=len(points),
                first=day(points[0].at, language), last=day(points[-1].at, language),
                rating=points[-1].shown)


def rating_axis(svg: ET.Element, scale: Scale, ticks: list[int], language: str) -> None:
    """Horizontal lines at round ratings, labelled on the left, and the axis's name."""
    for tick in ticks:
        y = scale.y(tick)
        child(svg, "line", x1=LEFT, x2=WIDTH - RIGHT, y1=num(y), y2=num(y), stroke=GRID)
        child(svg, "text", format_decimal(tick, locale=language), x=LEFT - 8, y=num(y + 4),
              text_anchor="end", fill=MUTED, font_size=12)
    middle = num(TOP + (HEIGHT - TOP - BOTTOM) / 2)
    child(svg, "text", text("web.ratings.col_rating", language), x=14, y=middle,
          transform=f"rotate(-90 14 {middle})", text_anchor="middle", fill=INK, font_size=12)


def time_axis(svg: ET.Element, scale: Scale, language: str) -> None:
    """The time line with its first, middle and last day, and the axis's name."""
    base = HEIGHT - BOTTOM
    child(svg, "line", x1=LEFT, x2=WIDTH - RIGHT, y1=base, y2=base, stroke=MUTED)
    child(svg, "line", x1=LEFT, x2=LEFT, y1=TOP, y2=base, stroke=MUTED)
    times = [scale.start] if scale.end <= scale.start else [
        scale.start, (scale.start + scale.end) / 2, scale.end]
    anchors = ["middle"] if len(times) == 1 else ["start", "middle", "end"]
    for at, anchor in zip(times, anchors, strict=True):
        x = num(scale.x(at))
        child(svg, "line", x1=x, x2=x, y1=base, y2=base + 5, stroke=MUTED)
        child(svg, "text", day(at, language), x=x, y=base + 20, text_anchor=anchor,
              fill=MUTED, font_size=12)
    child(svg, "text", text("web.profile.axis_date", language), x=num(LEFT + (
        WIDTH - LEFT - RIGHT) / 2), y=HEIGHT - 8, text_anchor="middle", fill=INK, font_size=12)


def line_and_points(svg: ET.Element, points: Sequence[HistoryPoint], scale: Scale,
                    point_id: str, language: str) -> None:
    """The rating after each rated game: a line through one point a game, each point
    titled with its day and rating (a tooltip)."""
    places = [(scale.x(p.at), scale.y(p.shown)) for p in points]
    if len(places) > 1:
        child(svg, "polyline", points=" ".join(f"{num(x)},{num(y)}" for x, y in places),
              fill="none", stroke=LINE, stroke_width=2, stroke_linejoin="round")
    for point, (x, y) in zip(points, places, strict=True):
        used = child(svg, "use", href=f"#{point_id}", x=num(x), y=num(y), class_="point")
        child(used, "title", text("web.profile.point", language, date=day(point.at, language),
                                  rating=point.shown))


def rating_graph(points: Sequence[HistoryPoint], language: str, *, name: str, rules: str,
                 key: str | None = None) -> ET.Element:
    """The picture of ``points`` (oldest first, at least one) of ``name`` in ``rules``;
    ``key`` makes its ids unique on a page that shows several (one per rule set)."""
    if not points:
        raise ValueError("a rating graph needs at least one rated game")
    ids = f"tk-rating-{key or rules}"
    title = title_text(name, rules, language)
    svg = node("svg", xmlns=SVG_NS, viewBox=f"0 0 {WIDTH} {HEIGHT}", role="img",
               aria_label=title, class_="rating-graph", font_family=FONT)
    child(svg, "title", title, id=f"{ids}-title")
    child(svg, "desc", desc_text(points, language), id=f"{ids}-desc")
    defs = child(svg, "defs")
    child(defs, "circle", id=f"{ids}-point", r=4, fill=LINE, stroke=PAPER, stroke_width=1.5)
    scale, ticks = scale_of(points)
    rating_axis(svg, scale, ticks, language)
    time_axis(svg, scale, language)
    line_and_points(svg, points, scale, f"{ids}-point", language)
    return svg


def rating_graph_svg(points: Sequence[HistoryPoint], language: str, *, name: str,
                     rules: str, key: str | None = None) -> str:
    """:func:`rating_graph` as SVG text."""
    return ET.tostring(rating_graph(points, language, name=name, rules=rules, key=key),
                       encoding="unicode")
