"""The calibration chart of a rating system, drawn on the server as an SVG, for the public comparison
(templates/jinja2/ratings/predictions.html) and a what-if's page in the admin (templates/admin/ratings/whatifreport/
report.html) alike.

It lives here, not in ratings/web/charts.py beside the other charts, because the admin may not import the public
site (the layers in pyproject.toml): both templates draw it through ``calibration_chart`` (a tag for Django's
engine, a function for Jinja2's), so neither interface imports the other. The drawing is a pure function of its
bins (no database), tested on its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django_jinja import library

register = template.Library()


@register.simple_tag(name="calibration_chart")
@library.global_function(name="calibration_chart")
def calibration_chart_tag(bins: Sequence[Mapping[str, Any]], *, title: str, chart_id: str) -> SafeString:
    """The chart of the bins as the comparison stores them (``expected``, ``actual``, ``games`` each, in the
    order of the favourite's expected score); a bin without games has no mean to place and is left out."""
    points = [(b["expected"], b["actual"], b["games"]) for b in bins if b["games"]]
    return calibration_chart(points, title=title, chart_id=chart_id)


def calibration_chart(
    bins: Sequence[tuple[float, float, int]], *, title: str, chart_id: str, width: int = 300, height: int = 260
) -> SafeString:
    """The SVG of a rating system's calibration: for each bin of games, the favourite's mean expected score
    (across, 50 % to 100 %) against his mean actual score (up, 0 % to 100 %), with the diagonal where the two
    agree; ``bins`` are (expected, actual, games), empty bins left out. An empty string without bins.

    A point's area grows with its games, so that a bin of three games does not look like one of three hundred;
    its tooltip and the description give a screen reader every number.
    """
    if not bins:
        return mark_safe("")
    left, right, top, bottom = 40, 18, 10, 34
    inner_w, inner_h = width - left - right, height - top - bottom

    def x(share: float) -> float:
        return left + inner_w * (share - 0.5) / 0.5

    def y(share: float) -> float:
        return top + inner_h * (1 - share)

    most = max(games for _, _, games in bins)
    tips = [
        _("expected %(expected)s %%, won %(actual)s %%, %(games)s games")
        % {"expected": round(e * 100), "actual": round(a * 100), "games": g}
        for e, a, g in bins
    ]
    out = [
        f'<svg class="chart calibration" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-t">{escape(title)}</title><desc id="{chart_id}-d">{escape("; ".join(tips))}</desc>',
        '<g class="grid">',
    ]
    for value in range(0, 101, 25):
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(value / 100):.1f}" y2="{y(value / 100):.1f}"/>'
            f'<text class="ylabel" x="{left - 5}" y="{y(value / 100) + 4:.1f}" text-anchor="end">{value}%</text>'
        )
    for value in range(50, 101, 10):
        out.append(
            f'<line x1="{x(value / 100):.1f}" x2="{x(value / 100):.1f}" y1="{top}" y2="{height - bottom}"/>'
            f'<text class="xlabel" x="{x(value / 100):.1f}" y="{height - bottom + 16}" '
            f'text-anchor="middle">{value}%</text>'
        )
    # The axis's name outside the f-string: the catalogues' extraction does not look inside one.
    axis = escape(_("expected"))
    out.append(
        f'<text class="xlabel" x="{left + inner_w / 2:.1f}" y="{height - 3}" text-anchor="middle">{axis}</text></g>'
    )
    out.append(f'<line class="diagonal" x1="{x(0.5):.1f}" y1="{y(0.5):.1f}" x2="{x(1):.1f}" y2="{y(1):.1f}"/>')
    for (expected, actual, games), tip in zip(bins, tips, strict=True):
        radius = 2.5 + 6.5 * math.sqrt(games / most)
        out.append(
            f'<circle class="point" cx="{x(expected):.1f}" cy="{y(actual):.1f}" r="{radius:.1f}">'
            f"<title>{escape(tip)}</title></circle>"
        )
    out.append("</svg>")
    return mark_safe("".join(out))  # noqa: S308 - every text in it is escaped above
