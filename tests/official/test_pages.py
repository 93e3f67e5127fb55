"""The official lists' public pages: the archive, a list as published with its files, the list as it would be
today beside it, the player's page; caching and bad input."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import OfficialList
from ratings.selectors.official_lists import official_list_all_txt
from ratings.services.official_lists import official_list_publish
from ratings.web.views import official as views_official
from tests.official.conftest import Federation, correct_first_table
from tests.public.conftest import days_ago

pytestmark = pytest.mark.django_db


def urls(official: OfficialList) -> dict[str, str]:
    iso = official.date.isoformat()
    return {
        "archive": reverse("ratings:official_lists"),
        "list": reverse("ratings:official_list", args=[iso]),
        "revised": reverse("ratings:official_list_revised", args=[iso]),
        "txt": reverse("ratings:official_list_txt", args=[iso]),
        "csv": reverse("ratings:official_list_csv", args=[iso]),
        "json": reverse("ratings:official_list_json", args=[iso]),
    }


def test_the_archive_lists_every_published_list(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    official_list_publish(date=days_ago(20), user=federation.officer, title="Later list", expected=None)
    page = client.get(reverse("ratings:official_lists")).content.decode()
    assert page.index("Later list") < page.index("Spring list")  # the latest first
    assert urls(published)["list"] in page and urls(published)["revised"] in page and urls(published)["txt"] in page


def test_the_archive_is_linked_from_the_rating_list_and_the_nav(client: Client, federation: Federation) -> None:
    page = client.get(reverse("ratings:rating_list")).content.decode()
    assert page.count(f'href="{reverse("ratings:official_lists")}"') == 2
    assert client.get(reverse("ratings:official_lists")).status_code == 200  # none published yet


def test_the_list_page_shows_the_published_figures_after_a_correction(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    before = client.get(urls(published)["list"]).content.decode()
    correct_first_table(federation)
    after = client.get(urls(published)["list"]).content.decode()
    rows = lambda page: page[page.index("<tbody>") : page.index("</tbody>")]  # noqa: E731
    assert rows(after) == rows(before)
    assert "Spring list" in after and "First." in after
    filtered = client.get(urls(published)["list"], {"country": "DE"}).content.decode()
    assert "CLAES" in filtered and "ANDERS" not in rows(filtered)
    assert client.get(urls(published)["list"], {"country": "XX"}).status_code == 400


def test_the_list_page_shows_the_published_ranks(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    page = client.get(urls(published)["list"]).content.decode()
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    for entry in published.stored_list.entries.order_by("position"):
        cells = f'<td class="num">{entry.rank}</td><td class="num extra">{entry.country_rank}</td>'
        assert cells in body, entry
    assert '<td class="num">–</td>' not in body


def test_the_files_are_the_published_ones(client: Client, federation: Federation, published: OfficialList) -> None:
    correct_first_table(federation)
    txt = client.get(urls(published)["txt"])
    assert txt["Content-Type"] == "text/plain; charset=iso-8859-1"
    assert txt.content == official_list_all_txt(published)
    body = b"".join(client.get(urls(published)["csv"]).streaming_content).decode()
    lines = list(csv.DictReader(io.StringIO(body)))
    entries = published.stored_list.entries.order_by("position")
    assert [(int(r["rank"]), r["family_name"], int(r["rating"])) for r in lines] == [
        (e.position, e.family_name, e.rating) for e in entries
    ]
    document = json.loads(client.get(urls(published)["json"]).content)
    assert document["official"] and document["title"] == "Spring list"
    assert [p["rating"] for p in document["players"]] == [e.rating for e in entries]


def test_the_csv_neutralises_a_formula_in_a_name(client: Client, federation: Federation) -> None:
    a = federation.players[0]
    a.family_name = "=HYPERLINK(1)"
    a.save()
    official = official_list_publish(date=federation.date, user=federation.officer, expected=None)
    body = b"".join(client.get(urls(official)["csv"]).streaming_content).decode()
    assert "'=HYPERLINK(1)" in body


def test_the_revised_page_marks_what_changed_since(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    unchanged = client.get(urls(published)["revised"]).content.decode()
    assert "No change since publication" in unchanged
    correct_first_table(federation)
    page = client.get(urls(published)["revised"]).content.decode()
    assert "rows changed since publication" in page
    assert 'class="changed"' in page and 'class="was"' in page
    only = client.get(urls(published)["revised"], {"changed": "on"}).content.decode()
    body = only[only.index("<tbody>") : only.index("</tbody>")]
    assert "ANDERS" in body and "DUPONT" not in body  # Dupont played no table: nothing of his changed
    assert "DUPONT" in page


def test_the_revised_page_shows_players_added_and_dropped(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    claes = published.stored_list.entries.get(family_name="Claes")
    claes.player = None  # a player row gone (merged away): his published line cannot be matched any more
    claes.save()
    page = client.get(urls(published)["revised"]).content.decode()
    assert 'class="added"' in page and 'class="dropped"' in page
    assert "added 1, dropped 1" in page


def test_the_player_page_shows_the_lists_he_was_on(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    a = federation.players[0]
    page = client.get(reverse("ratings:player", args=[a.federation_id])).content.decode()
    assert 'id="official-lists"' in page
    assert f"{urls(published)['list']}?q={a.federation_id}" in page
    entry = published.stored_list.entries.get(player=a)
    section = page[page.index('id="official-lists"') :]
    assert f'<td class="num">{entry.position}</td>' in section and f'<td class="num">{entry.rating}</td>' in section


def test_an_unknown_or_malformed_date_is_a_404(client: Client, federation: Federation, published: OfficialList) -> None:
    for text in ("2001-01-01", "yesterday", "2024-1-1", "9999-99-99"):
        for name in ("ratings:official_list", "ratings:official_list_revised", "ratings:official_list_txt"):
            assert client.get(reverse(name, args=[text])).status_code == 404, (name, text)


def test_the_pages_answer_a_conditional_get_with_304(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    for url in urls(published).values():
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["ETag"] and response["Last-Modified"], url
        assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304, url


def test_publishing_changes_the_archive_etag(client: Client, federation: Federation) -> None:
    url = reverse("ratings:official_lists")
    etag = client.get(url)["ETag"]
    official_list_publish(date=federation.date, user=federation.officer, expected=None)
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and federation.date.isoformat() in response.content.decode()


def test_the_revised_pages_links_keep_the_filters(
    client: Client, published: OfficialList, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views_official, "REVISED_PER_PAGE", 1)
    page = client.get(urls(published)["revised"], {"country": "FR", "page": "2"}).content.decode()
    assert 'href="?country=FR&amp;page=3" rel="next"' in page
    assert 'href="?country=FR&amp;page=1" rel="prev"' in page


def test_the_list_page_ranks_as_the_rating_list_did_passing_over_the_unranked(
    client: Client, federation: Federation
) -> None:
    from tests.public.conftest import seasoned

    newcomer = seasoned(1700, family_name="Newcomer", result_list=((1700, 0.5),) * 3, last_played=days_ago(300))
    official = official_list_publish(
        date=federation.date, user=federation.officer, title="With a newcomer", expected=None
    )
    line = official.stored_list.entries.get(player=newcomer)
    assert (line.position, line.rank) == (1, None)  # its all.txt numbers every line; the page ranks the ranked
    page = client.get(urls(official)["list"]).content.decode()
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    assert body.index("NEWCOMER") < body.index('<td class="num">1</td><td class="num extra">1</td>')
    assert '<td class="num">–</td><td class="num extra">–</td>' in body
