"""Line charts as inline SVG, drawn on the server: no chart library, no script, nothing from a CDN.

``line_chart`` turns series of (x, y) points into a ``Chart`` of pixel
coordinates that ``templates/scores/_line_chart.html`` draws; every chart of
the app (a game's score, ratings over time) goes through it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from django.utils import formats

# Colours that stay apart for the colour-blind (Okabe-Ito), then a few more.
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c564b", "#7f7f7f", "#bcbd22")


@dataclasses.dataclass(frozen=True)
class Series:
    label: str
    points: Sequence[tuple[float, float]]


@dataclasses.dataclass(frozen=True)
class Dot:
    x: float
    y: float
    title: str


@dataclasses.dataclass(frozen=True)
class Line:
    label: str
    color: str
    points: str  # SVG polyline points: "x,y x,y ..."
    dots: tuple[Dot, ...]
    last: float | None  # The series' last value, for the legend.


@dataclasses.dataclass(frozen=True)
class Step:
    """What one more point adds to a line drawn already: the segment from its last dot, and the new dot."""

    line: int  # The line's place in the chart.
    color: str
    start: Dot
    end: Dot


@dataclasses.dataclass(frozen=True)
class Tick:
    at: float  # Pixel position.
    label: str


@dataclasses.dataclass(frozen=True)
class Chart:
    """A line chart scaled into its box; its title and the x axis's label are written by the template that shows it."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    lines: tuple[Line, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    marker: Tick | None  # A horizontal line, such as the target.
    scale: tuple[float, float, float, float]  # The x and y values at the box's edges: x_min, x_max, y_min, y_max.

    @property
    def empty(self) -> bool:
        return not any(line.dots for line in self.lines)


def nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) that cuts ``span`` into about ``ticks`` parts."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    power: float = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _label(value: float) -> str:
    """A tick's or a tooltip's number as the active language writes it: 5.1 in English, 5,1 in Italian."""
    return formats.number_format(round(value, 1), 0 if value == int(value) else 1)  # number_format cuts; round first.


def line_chart(
    series: Sequence[Series],
    *,
    marker: float | None = None,
    marker_label: str = "",
    width: int = 480,
    height: int = 240,
    whole_x: bool = True,
    x_until: float = 0,
) -> Chart:
    """Scale the series into a ``width`` x ``height`` box with round y ticks, 0 and the marker always in view, and the
    x axis reaching at least ``x_until``."""
    left, right, top, bottom = 40, width - 10, 10, height - 28
    xs = [x for s in series for x, _ in s.points]
    ys = [y for s in series for _, y in s.points]
    y_min, y_max = min([*ys, 0.0]), max([*ys, 0.0, marker if marker is not None else 0.0])
    step = nice_step(y_max - y_min)
    y_min, y_max = math.floor(y_min / step) * step, math.ceil(y_max / step) * step
    if y_max == y_min:
        y_max = y_min + step
    x_min, x_max = min(xs, default=0), max([*xs, x_until], default=1)
    if x_max == x_min:
        x_max = x_min + 1

    def px(x: float) -> float:
        return round(left + (x - x_min) / (x_max - x_min) * (right - left), 1)

    def py(y: float) -> float:
        return round(bottom - (y - y_min) / (y_max - y_min) * (bottom - top), 1)

    lines = []
    for i, s in enumerate(series):
        dots = tuple(Dot(px(x), py(y), f"{s.label}: {_label(y)}") for x, y in s.points)
        lines.append(
            Line(
                label=s.label,
                color=PALETTE[i % len(PALETTE)],
                points=" ".join(f"{d.x},{d.y}" for d in dots),
                dots=dots,
                last=s.points[-1][1] if s.points else None,
            )
        )
    y_ticks = []
    value = y_min
    while value <= y_max + step / 2:
        y_ticks.append(Tick(py(value), _label(value)))
        value += step
    x_step = nice_step(x_max - x_min, 8)
    if whole_x:
        x_step = max(1, round(x_step))
    x_ticks = []
    value = math.ceil(x_min / x_step) * x_step
    while value <= x_max:
        x_ticks.append(Tick(px(value), _label(value)))
        value += x_step
    return Chart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        lines=tuple(lines),
        y_ticks=tuple(y_ticks),
        x_ticks=tuple(x_ticks),
        marker=Tick(py(marker), marker_label) if marker is not None else None,
        scale=(x_min, x_max, y_min, y_max),
    )


# While a game goes on, its chart's x axis reaches the next multiple of this many hands: a hand saved then only adds
# a segment to each line (``steps``), and the chart is drawn anew only when the scale moves.
HANDS_AHEAD = 10


def score_chart(sides: Sequence[tuple[int, str]], totals: Sequence[dict[int, int]], target: int, *, going_on: bool = False) -> Chart:
    """A game's score: one line per side from 0 before the first hand, the target marked.

    ``sides`` are (id, name); ``totals`` has each hand's {side id: total after it}. ``going_on``: room on the right
    for the hands to come.
    """
    series = [Series(name, [(0, 0), *((n, hand[pk]) for n, hand in enumerate(totals, start=1) if pk in hand)]) for pk, name in sides]
    room = -(-len(totals) // HANDS_AHEAD) * HANDS_AHEAD if going_on else 0
    return line_chart(series, marker=target, marker_label=str(target), x_until=room)


def steps(before: Chart, after: Chart) -> tuple[Step, ...] | None:
    """What ``after`` adds to ``before`` when it is ``before`` with one more point on every line, on the same scale
    and ticks; None when the chart must be drawn again (the scale moved, or the lines are not the same)."""
    same_frame = (before.scale, before.y_ticks, before.x_ticks, before.marker) == (after.scale, after.y_ticks, after.x_ticks, after.marker)
    if not same_frame or len(before.lines) != len(after.lines):
        return None
    added = []
    for i, (old, new) in enumerate(zip(before.lines, after.lines, strict=True)):
        if not old.dots or new.dots[:-1] != old.dots or (old.label, old.color) != (new.label, new.color):
            return None
        added.append(Step(line=i, color=new.color, start=old.dots[-1], end=new.dots[-1]))
    return tuple(added)


def ratings_chart(ratings: Sequence[tuple[object, str, float]]) -> Chart:
    """Ratings over time: ``ratings`` is (game, player, rating after that game), oldest game first.

    The x axis counts the rated games, so every player's line moves on the same clock.
    """
    by_player: dict[str, list[tuple[float, float]]] = {}
    clock, previous = 0, object()
    for game, player, value in ratings:
        if game != previous:
            clock, previous = clock + 1, game
        by_player.setdefault(player, []).append((clock, round(value, 1)))
    series = [Series(player, points) for player, points in sorted(by_player.items(), key=lambda item: item[0].casefold())]
    return line_chart(series)
