"""A correction's words are rendered from its facts in the reader's language, not stored in the officer's."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ratings.models import Correction
from ratings.services.corrections.apply import correction_make
from ratings.services.corrections.words import correction_lines, correction_text
from ratings.services.merge.apply import player_merge
from tests.corrections.helpers import rerate_and_check, result_flipped
from tests.duplicates.helpers import twice_entered
from tests.factories import add_game, make_player, make_rating_officer, make_table
from tests.pipeline.histories import submit

pytestmark = pytest.mark.django_db


def corrected_table() -> Correction:
    a, b = make_player("Abe"), make_player("Berg")
    table = make_table([a, b], date=dt.date(2024, 3, 2))
    add_game(table, 1, a, b)
    submit(table)
    rerate_and_check()
    with translation.override("en"):  # the officer reads English
        correction = correction_make(
            user=make_rating_officer(), reason="Swapped", change=result_flipped(table), expected=None
        )
    rerate_and_check()
    return correction


def test_a_table_correction_made_in_english_reads_in_french_and_german_on_the_table_page(client: Client) -> None:
    correction = corrected_table()
    assert correction.summary.startswith("Game round 1")
    url = reverse("ratings:table", args=[correction.table_id])
    with translation.override("en"):  # the middleware activates the page's language; give the test its own back
        french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
        german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Game round 1" in english
    for page in (french, german):
        assert "Game round" not in page and " won" not in page
    assert "Partie ronde 1" in french or "ronde 1" in french
    assert "Runde 1" in german


def test_a_correction_is_named_in_the_reader_language() -> None:
    correction = corrected_table()
    with translation.override("de"):
        assert str(correction).startswith("Tabelle berichtigt am ")
        assert "corrected" not in str(correction)
    with translation.override("fr"):
        assert "corrected" not in str(correction) and "Tableau" in str(correction)


def test_a_merge_counts_its_tables_with_plurals_in_each_language() -> None:
    kept, duplicate, _others, _tables = twice_entered(1)
    with translation.override("en"):
        merge = player_merge(
            user=make_rating_officer(), duplicate=duplicate, kept=kept, reason="Entered twice", expected=None
        )
    assert "4 tables moved" in merge.summary and "(s)" not in merge.summary
    with translation.override("fr"):
        text = correction_text(merge)
        assert "fusionné" in text or "fusionn" in text
        assert "4 tableaux transférés" in text and "merged" not in text
    with translation.override("de"):
        assert "4 Tabellen übertragen" in correction_text(merge)


def test_a_row_whose_facts_do_not_say_the_change_keeps_its_stored_words() -> None:
    old = Correction.objects.create(
        kind=Correction.Kind.IDENTITY, reason="Erased", summary="Player 17: personal data erased", before={}, after={}
    )
    assert correction_lines(old) == ["Player 17: personal data erased"]
    odd = Correction.objects.create(
        kind=Correction.Kind.MERGE, reason="Old form", summary="A merged into B\ntables moved: 1", before={}, after={}
    )
    assert correction_lines(odd) == ["A merged into B", "tables moved: 1"]


def test_records_the_admin_names_are_named_in_the_reader_language() -> None:
    correction = corrected_table()
    row = correction.table.rating_rows.first()  # type: ignore[union-attr]
    with translation.override("fr"):
        assert " à " in str(row) and " at " not in str(row)
    with translation.override("de"):
        assert " bei " in str(row)


@pytest.mark.parametrize(
    ("language", "rating_change", "correction_change"),
    [("fr", "variation", "modification"), ("pl", "zmiana", "zmiana"), ("ja", "変化", "変更")],
)
def test_change_is_named_as_a_noun_not_as_the_admins_verb(
    language: str, rating_change: str, correction_change: str
) -> None:
    """The corrections' list headed its column "MODIFIER" ("edit"), and a rating row's change too."""
    from ratings.admin.corrections import CorrectionAdmin
    from ratings.models import HistoricalRow, RatingRow

    with translation.override(language):
        assert str(RatingRow._meta.get_field("change").verbose_name) == rating_change
        assert str(HistoricalRow._meta.get_field("change").verbose_name) == rating_change
        assert str(Correction._meta.get_field("summary").verbose_name) == correction_change
        assert str(CorrectionAdmin.summary_shown.short_description) == correction_change  # type: ignore[attr-defined]
