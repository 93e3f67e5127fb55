"""A player's rating over time as an SVG drawn on the server: works without JavaScript and without any
library, scales with the page, and reads well with a single point.

Pure function of its points (no database), so it is tested on its own.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

NICE_STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MONTH_STEPS = (1, 2, 3, 6, 12, 24, 60, 120)


@dataclass(frozen=True)
class ChartPoint:
    date: dt.date
    rating: int
    label: str = ""  # what the point's tooltip names (the table)
    href: str = ""  # where the point leads (the table's row on the page)
    imported: bool = False  # FESA's published number from before the opening balance, not rated here


def _nice_step(span: float, ticks: int = 5) -> int:
    for step in NICE_STEPS:
        if span / step <= ticks:
            return step
    return NICE_STEPS[-1] * math.ceil(span / (NICE_STEPS[-1] * ticks))


def _month_index(d: dt.date) -> int:
    return d.year * 12 + d.month - 1


def _x_ticks(first: dt.date, last: dt.date, most: int = 8, *, within: int = 1) -> list[tuple[dt.date, str]]:
    """First days of months (or years) between the two dates, at most ``most`` of them; with ``within``, a
    multiple of that step (so that they fall on the grid lines of ``within`` months)."""
    start, end = _month_index(first), _month_index(last)
    steps = [s for s in MONTH_STEPS if s % within == 0] or [within]
    step = next((s for s in steps if (end - start) / s <= most), max(steps))
    index = math.ceil(start / step) * step
    out = []
    while index <= end:
        day = dt.date(index // 12, index % 12 + 1, 1)
        if first <= day <= last:
            out.append((day, str(day.year) if step >= 12 else f"{day.year}-{day.month:02d}"))
        index += step
    return out


def rating_chart(
    points: Sequence[ChartPoint], *, chart_id: str = "rating-chart", width: int = 720, height: int = 260
) -> SafeString:
    """The SVG of ``points`` (in date order), or an empty string when there are none.

    The vertical axis spans the ratings with a margin and round ticks; the horizontal axis spans the dates
    (a single date gets a month on each side, so its point sits in the middle). Each point carries a tooltip
    (its date, rating and label) and, with ``href``, is a link. The title and description tell a screen
    reader the range and the peak.

    The axis labels come twice: for a wide chart (``wide``: beside the axes, every tick) and for a phone
    (``narrow``: larger, fewer dates, the ratings inside the plot, where a scaled-down margin has no room).
    The stylesheet shows one set or the other by the width of the screen (static/css/site.css).
    """
    if not points:
        return mark_safe("")
    left, right, top, bottom = 52, 16, 14, 30
    inner_w, inner_h = width - left - right, height - top - bottom
    first, last = points[0].date, points[-1].date
    if first == last:
        first, last = first - dt.timedelta(days=31), last + dt.timedelta(days=31)
    low = min(p.rating for p in points)
    high = max(p.rating for p in points)
    step = _nice_step(max(high - low, 50))
    y_min = max(0, math.floor((low - step / 4) / step) * step)  # ratings are never below 0
    y_max = math.ceil((high + step / 4) / step) * step
    days = (last - first).days

    def x(d: dt.date) -> float:
        return left + inner_w * (d - first).days / days

    def y(r: float) -> float:
        return top + inner_h * (1 - (r - y_min) / (y_max - y_min))

    peak = max(points, key=lambda p: p.rating)
    title = _("Rating over time")
    desc = ngettext(
        "%(count)s rated table from %(first)s (%(first_rating)s) to %(last)s (%(last_rating)s); peak %(peak)s.",
        "%(count)s rated tables from %(first)s (%(first_rating)s) to %(last)s (%(last_rating)s); peak %(peak)s.",
        len(points),
    ) % {
        "count": len(points),
        "first": points[0].date.isoformat(),
        "first_rating": points[0].rating,
        "last": points[-1].date.isoformat(),
        "last_rating": points[-1].rating,
        "peak": peak.rating,
    }
    # A chart whose points are links is a group of links (an "img" may hold nothing interactive: axe's
    # nested-interactive); one without links is a picture.
    role = "group" if any(p.href for p in points) else "img"
    out = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="{role}" aria-labelledby="{chart_id}-t {chart_id}-d" '
        f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet">',
        f'<title id="{chart_id}-t">{escape(title)}</title><desc id="{chart_id}-d">{escape(desc)}</desc>',
        '<g class="grid">',
    ]
    value = y_min
    while value <= y_max:
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>'
            f'<text class="ylabel wide" x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>'
        )
        if value < y_max:  # the top one would leave the chart
            out.append(
                f'<text class="ylabel narrow" x="{left + 4}" y="{y(value) - 5:.1f}" text-anchor="start">{value}</text>'
            )
        value += step
    wide_ticks = _x_ticks(first, last)
    for day, label in wide_ticks:
        out.append(
            f'<line x1="{x(day):.1f}" x2="{x(day):.1f}" y1="{top}" y2="{height - bottom}"/>'
            f'<text class="xlabel wide" x="{x(day):.1f}" y="{height - bottom + 18}" text-anchor="middle">{label}</text>'
        )
    month_step = (_month_index(wide_ticks[1][0]) - _month_index(wide_ticks[0][0])) if len(wide_ticks) > 1 else 1
    for day, label in _x_ticks(first, last, 3, within=month_step):
        if not 48 <= x(day) <= width - 48:  # a label centred there would be cut off by the chart's edge
            continue
        out.append(f'<text class="xlabel narrow" x="{x(day):.1f}" y="{height - 4}" text-anchor="middle">{label}</text>')
    out.append("</g>")
    if len(points) > 1:
        path = " ".join(f"{'M' if i == 0 else 'L'}{x(p.date):.1f},{y(p.rating):.1f}" for i, p in enumerate(points))
        out.append(f'<path class="line" d="{path}" fill="none"/>')
    radius = 4 if len(points) <= 40 else 2.5
    for p in points:
        tip = escape(
            f"{p.date.isoformat()}: {p.rating}"
            + (f" – {p.label}" if p.label else "")
            + (" (" + _("imported from FESA") + ")" if p.imported else "")
        )
        kind = "point imported" if p.imported else "point"
        dot = (
            f'<circle class="{kind}" cx="{x(p.date):.1f}" cy="{y(p.rating):.1f}" r="{radius}">'
            f"<title>{tip}</title></circle>"
        )
        out.append(f'<a href="{escape(p.href)}" aria-label="{tip}">{dot}</a>' if p.href else dot)
    if len(points) == 1:
        only = points[0]
        out.append(
            f'<text class="value" x="{x(only.date):.1f}" y="{y(only.rating) - 10:.1f}" text-anchor="middle">'
            f"{only.rating}</text>"
        )
    out.append("</svg>")
    return mark_safe("".join(out))  # noqa: S308 - every text in it is escaped above


def bar_chart(
    bars: Sequence[tuple[str, int]], *, title: str, chart_id: str, width: int = 360, height: int = 180
) -> SafeString:
    """The SVG of one count per label (years, oldest first) as bars, or an empty string without bars.

    Drawn like ``rating_chart``: round ticks on the vertical axis from 0, every label under its bar (every
    second one past 12 bars, so that they never overlap), the value in each bar's tooltip, and a title and a
    description that give a screen reader the numbers.
    """
    if not bars:
        return mark_safe("")
    left, right, top, bottom = 40, 8, 12, 24
    inner_w, inner_h = width - left - right, height - top - bottom
    high = max(max(value for _, value in bars), 1)
    step = _nice_step(high, 4) if high >= 5 else 1
    y_max = math.ceil(high / step) * step

    def y(value: float) -> float:
        return top + inner_h * (1 - value / y_max)

    desc = ", ".join(f"{label}: {value}" for label, value in bars)
    out = [
        f'<svg class="chart bars" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-t">{escape(title)}</title><desc id="{chart_id}-d">{escape(desc)}</desc>',
        '<g class="grid">',
    ]
    for value in range(0, y_max + 1, step):
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>'
            f'<text class="ylabel" x="{left - 5}" y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>'
        )
    out.append("</g>")
    slot = inner_w / len(bars)
    every = 1 if len(bars) <= 12 else 2
    for i, (label, value) in enumerate(bars):
        x = left + slot * i + slot * 0.15
        out.append(
            f'<rect class="bar" x="{x:.1f}" y="{y(value):.1f}" width="{slot * 0.7:.1f}" '
            f'height="{y(0) - y(value):.1f}"><title>{escape(f"{label}: {value}")}</title></rect>'
        )
        if (len(bars) - 1 - i) % every == 0:
            out.append(
                f'<text class="xlabel" x="{x + slot * 0.35:.1f}" y="{height - bottom + 16}" '
                f'text-anchor="middle">{escape(label)}</text>'
            )
    out.append("</svg>")
    return mark_safe("".join(out))  # noqa: S308 - every text in it is escaped above
