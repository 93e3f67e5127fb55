"""The server-drawn rating chart: a pure function of its points."""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET

import pytest
from django.utils import translation

from ratings.web.charts import ChartPoint, _nice_step, _x_ticks, rating_chart

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_chart_of_no_points_is_empty() -> None:
    assert rating_chart([]) == ""


def test_chart_of_one_point_draws_the_point_and_its_value_in_the_middle() -> None:
    root = parse(rating_chart([ChartPoint(dt.date(2024, 5, 12), 1234, label="Paris Open")]))
    (circle,) = root.iter(f"{SVG}circle")
    assert float(circle.get("cx", 0)) == (52 + 720 - 16) / 2  # halfway between the plot's left and right edges
    assert not list(root.iter(f"{SVG}path"))
    values = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "value"]
    assert values == ["1234"]
    assert circle.find(f"{SVG}title").text == "2024-05-12: 1234 – Paris Open"  # type: ignore[union-attr]


def test_chart_draws_a_line_through_every_point_in_order() -> None:
    points = [
        ChartPoint(dt.date(2020, 1, 1), 1000),
        ChartPoint(dt.date(2022, 1, 1), 1400),
        ChartPoint(dt.date(2024, 1, 1), 1200),
    ]
    root = parse(rating_chart(points))
    (path,) = root.iter(f"{SVG}path")
    coords = [tuple(map(float, xy.split(","))) for xy in re.findall(r"[ML]([\d.]+,[\d.]+)", path.get("d", ""))]
    assert len(coords) == 3
    assert coords[0][0] < coords[1][0] < coords[2][0]
    # higher rating, higher on the page (smaller y)
    assert coords[1][1] < coords[2][1] < coords[0][1]


def test_chart_is_described_for_screen_readers() -> None:
    svg = rating_chart([ChartPoint(dt.date(2020, 1, 1), 1000), ChartPoint(dt.date(2021, 1, 1), 1100)], chart_id="c")
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "c-t c-d"
    desc = root.find(f"{SVG}desc")
    assert desc is not None and "2020-01-01 (1000)" in (desc.text or "") and "peak 1100" in (desc.text or "")


@pytest.mark.parametrize(
    ("language", "count", "words"),
    [
        ("en", 1, "1 rated table from"),
        ("en", 3, "3 rated tables from"),
        ("fr", 1, "1 tableau évalué du"),
        ("pl", 1, "1 obliczona tabela od"),
        ("pl", 3, "3 obliczone tabele od"),
        ("pl", 5, "5 obliczonych tabel od"),
    ],
)
def test_chart_description_counts_its_tables_in_the_plural_forms_of_the_language(
    language: str, count: int, words: str
) -> None:
    points = [ChartPoint(dt.date(2020, 1, 1 + day), 1000 + day) for day in range(count)]
    with translation.override(language):
        desc = parse(rating_chart(points)).find(f"{SVG}desc")
    assert desc is not None and (desc.text or "").startswith(words)


def test_chart_escapes_labels_and_links() -> None:
    svg = rating_chart([ChartPoint(dt.date(2020, 1, 1), 1000, label="<b>&", href="#t-1")])
    assert "<b>" not in svg and "&lt;b&gt;&amp;" in svg
    root = parse(svg)
    (link,) = root.iter(f"{SVG}a")
    assert link.get("href") == "#t-1"


def test_nice_step_gives_about_five_ticks() -> None:
    assert _nice_step(50) == 10
    assert _nice_step(400) == 100
    assert _nice_step(2600) == 1000


def test_x_ticks_use_years_for_long_spans_and_months_for_short_ones() -> None:
    # 2015-03 .. 2024-06 is 111 months: at most 8 ticks needs a step of 24 months, from January 2016
    long = [label for _d, label in _x_ticks(dt.date(2015, 3, 1), dt.date(2024, 6, 1))]
    assert long == ["2016", "2018", "2020", "2022", "2024"]
    short = [label for _d, label in _x_ticks(dt.date(2024, 1, 15), dt.date(2024, 4, 20))]
    assert short == ["2024-02", "2024-03", "2024-04"]
