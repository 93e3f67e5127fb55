"""The page, the API endpoint and the chart of the comparison: read from the stored report, never computed."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse

from ratings.engine.systems import all_systems
from ratings.engine.systems.compare import compare
from ratings.models import PredictionReport
from ratings.selectors.versions import data_version
from ratings.templatetags.ratings_charts import calibration_chart, calibration_chart_tag
from tests.engine.systems.test_compare import _history
from tests.public.test_translations import english_vocabulary, texts_of, untranslated

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


def stored(version: str | None = None, **fields: object) -> PredictionReport:
    now = timezone.now()
    values = {
        "status": PredictionReport.Status.DONE,
        "result": compare(_history(5), all_systems()),
        "finished_at": now,
        "tables_done": 60,
        "tables_total": 60,
    }
    values.update(fields)
    return PredictionReport.objects.create(
        version=version or data_version().key, started_at=now, updated_at=now, **values
    )


def test_the_page_without_a_report_says_so(client):
    response = client.get(reverse("ratings:predictions"))
    assert response.status_code == 200
    assert "No comparison has been computed yet." in response.content.decode()


def test_the_page_shows_every_system_its_figures_and_a_chart_each(client):
    report = stored()
    response = client.get(reverse("ratings:predictions"))
    page = response.content.decode()
    for name in ["FESA (the site&#x27;s ratings)", "Plain Elo, K = 15", "European system of 1996", "Glicko-2"]:
        assert name in page
    assert page.count('<svg class="chart calibration"') == 6
    hits = report.result["figures"]["elo"]["all"]["even"]["hits"] * 100
    assert f"{hits:.1f} %" in page
    assert "Computed on" in page and "the ratings changed since" not in page
    assert response["Cache-Control"].startswith("max-age=0")


def test_the_page_shows_a_run_under_way_and_the_last_report(client):
    stored(version="older")
    now = timezone.now()
    PredictionReport.objects.create(
        version=data_version().key, started_at=now, updated_at=now, tables_done=30, tables_total=120
    )
    page = client.get(reverse("ratings:predictions")).content.decode()
    assert "30 of 120 tables" in page
    assert '<progress max="100" value="25">' in page
    assert '<meta http-equiv="refresh" content="15">' in page
    assert "the ratings changed since" in page


def test_the_page_costs_three_queries_at_most(client):
    def count() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("ratings:predictions")).status_code == 200
        return len(captured.captured_queries)

    assert count() == 3  # the version, the current report, the latest finished one
    stored()
    assert count() == 2  # the current one is the latest


def test_the_api_answers_with_the_report_and_matches_its_schema(client):
    openapi = OpenAPI.from_dict(client.get(reverse("api-v1:schema")).json())
    report = stored()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("api-v1:predictions"))
    assert len(captured.captured_queries) == 2
    body = response.json()
    assert body["up_to_date"] is True and body["current"]["status"] == "done"
    assert body["report"]["figures"] == report.result["figures"]
    assert body["report"]["systems"][0] == "fesa"
    openapi.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))
    PredictionReport.objects.all().delete()
    empty = client.get(reverse("api-v1:predictions"))
    assert empty.json() == {"up_to_date": False}
    openapi.validate_response(DjangoOpenAPIRequest(empty.wsgi_request), DjangoOpenAPIResponse(empty))


def test_calibration_chart_places_each_bin_and_the_diagonal():
    root = ET.fromstring(calibration_chart([(0.5, 0.5, 100), (0.75, 0.6, 25)], title="T", chart_id="c"))
    circles = list(root.iter(f"{SVG}circle"))
    # Across 50 % at the left edge (40) to 100 % at the right (282); up 0 % at 226 to 100 % at 10.
    assert [(c.get("cx"), c.get("cy")) for c in circles] == [("40.0", "118.0"), ("161.0", "96.4")]
    assert float(circles[0].get("r")) > float(circles[1].get("r"))  # more games, a bigger point
    assert circles[1].find(f"{SVG}title").text == "expected 75 %, won 60 %, 25 games"
    assert calibration_chart([], title="T", chart_id="c") == ""


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_page_with_a_report_is_fully_translated(client, lang):
    stored(version="older")
    now = timezone.now()
    PredictionReport.objects.create(version=data_version().key, started_at=now, updated_at=now, tables_total=9)
    url = reverse("ratings:predictions")
    english = texts_of(client.get(url, headers={"accept-language": "en"}).content.decode())
    page = client.get(url, headers={"accept-language": lang}).content.decode()
    assert untranslated(english, texts_of(page), lang, english_vocabulary()) == []


def test_the_page_speaks_of_players_without_he_or_his(client):
    stored()
    page = client.get(reverse("ratings:predictions"), headers={"accept-language": "en"}).content.decode()
    words = {word.lower() for text in texts_of(page) for word in re.findall(r"[A-Za-z]+", text)}
    assert not words & {"he", "his", "him", "himself"}


def test_the_calibration_tag_draws_the_stored_bins_and_leaves_out_the_empty_ones():
    stored_bins = [
        {"expected": 0.52, "actual": 0.5, "games": 40},
        {"expected": 0.575, "actual": 0.0, "games": 0},
        {"expected": 0.7, "actual": 0.8, "games": 10},
    ]
    drawn = calibration_chart_tag(stored_bins, title="T", chart_id="c")
    assert drawn == calibration_chart([(0.52, 0.5, 40), (0.7, 0.8, 10)], title="T", chart_id="c")
    assert calibration_chart_tag(stored_bins[1:2], title="T", chart_id="c") == ""
