"""FESA's published result tables imported as historical tables: stored, shown, never rated.

ratings/services/fesa/history.py: the table's players, games and the published ratings are kept as
printed (HistoricalRow); the re-rate leaves them alone, ``rerate --check`` stays clean, the program's
list the site writes is what it was, and the player's page and chart show them, marked as imported.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from ratings.fesa_files.run import rate_files
from ratings.fesa_files.turnering import read_turnering, write_turnering
from ratings.models import Game, HistoricalRow, Player, RatingRow, Table, TableStatus
from ratings.services.fesa.state import fesa_state_export
from ratings.services.rerate import rerate_check, rerate_from
from tests.factories import make_player
from tests.fesa.data import published_result_table
from tests.files.fesa_cases import case_dir

SAMPLE = "sample-2016-01-07"


def earlier_sample_page(date: dt.date) -> bytes:
    """The sample table as if played on ``date`` against the sample's list, as FESA would publish it."""
    case = case_dir(SAMPLE)
    table = read_turnering((case / "turnering.txt").read_bytes())
    earlier = write_turnering(table._replace(date=date, date_text=date.isoformat()))
    return rate_files(earlier, (case / "ratingliste.pre").read_bytes()).result_txt


def import_pages(*paths: Path) -> str:
    out = io.StringIO()
    call_command("import_published_tables", *map(str, paths), stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_published_cdf_becomes_a_historical_table_with_the_published_numbers() -> None:
    out = import_pages(published_result_table())
    table = Table.objects.get()
    assert table.status == TableStatus.HISTORICAL and "32 created" in out
    pucher = HistoricalRow.objects.get(player__family_name="Pucher")
    assert (pucher.rating_before, pucher.rating_after, pucher.change, pucher.rated_games, pucher.score) == (
        1887,
        1873,
        -14,
        6,
        4.0,
    )
    coirier = HistoricalRow.objects.get(player__family_name="Coirier", player__given_name="Catherine")
    assert (coirier.rating_before, coirier.rating_after, coirier.performance, coirier.change) == (None, 1, True, None)
    celestin = HistoricalRow.objects.get(player__given_name="Célestin")
    assert (celestin.grade_before, celestin.grade_after) == (20, 21)  # 1 Kyu, promoted to 1 Dan
    assert Game.objects.filter(table=table).count() == 32 * 6 // 2
    rerate_from()
    assert not RatingRow.objects.exists() and Table.objects.get().status == TableStatus.HISTORICAL
    assert rerate_check() == []
    assert fesa_state_export() == b"(\n)\n"  # players known only from history are not on the program's list


@pytest.mark.django_db
def test_history_before_the_opening_balance_leaves_the_rated_tables_as_the_program(
    tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    case = case_dir(SAMPLE)
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    (tmp_path / "2015.txt").write_bytes(earlier_sample_page(dt.date(2015, 6, 1)))
    assert "4 players matched, 0 created" in import_pages(tmp_path / "2015.txt")
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        call_command("import_turnering", str(case / "turnering.txt"), "--submit", stdout=io.StringIO())
    assert fesa_state_export() == (case / "ratingliste.post").read_bytes()
    assert rerate_check() == []
    assert RatingRow.objects.count() == 4 and HistoricalRow.objects.count() == 4

    player = Player.objects.get(family_name="Ishikawa")
    page = Client().get(f"/players/{player.federation_id}/").content.decode()
    assert "Before the switch to this site" in page and "(imported)" in page
    assert page.count('class="point imported"') == 1 and page.count('class="point"') == 1

    (tmp_path / "2017.txt").write_bytes(earlier_sample_page(dt.date(2017, 1, 1)))
    with pytest.raises(CommandError, match="must come before the opening balance"):
        import_pages(tmp_path / "2017.txt")
    assert HistoricalRow.objects.count() == 4


@pytest.mark.django_db
def test_published_table_whose_games_disagree_is_refused_whole(tmp_path: Path) -> None:
    text = (
        published_result_table()
        .read_bytes()
        .replace(
            b" 1 Pucher          Olivier    FR   2 Dan  1887  16+",
            b" 1 Pucher          Olivier    FR   2 Dan  1887  15+",
        )
    )
    (tmp_path / "bad.txt").write_bytes(text)
    with pytest.raises(CommandError, match="the cells do not name each other"):
        import_pages(tmp_path / "bad.txt")
    assert not Table.objects.exists() and not Player.objects.exists()


@pytest.mark.django_db
def test_published_names_match_players_by_their_plain_letters_not_by_a_close_name() -> None:
    # The file writes names in ISO-8859-1: a player whose name has letters it lacks is written transliterated
    # (Pučher → Pucher) and read back to him; so is a name that reads the same without its accents (Cöirier),
    # the upload's rule. A name a letter apart (Kaliszczak for Kaliszczack) is someone else, with nobody to ask.
    written = make_player(family_name="Pučher", given_name="Olivier", nationality="FR")
    folded = make_player(family_name="Cöirier", given_name="Catherine", nationality="FR")
    close = make_player(family_name="Kaliszczak", given_name="Julien", nationality="FR")
    out = import_pages(published_result_table())
    assert "2 players matched, 30 created" in out
    assert HistoricalRow.objects.get(player=written).rating_after == 1873
    assert HistoricalRow.objects.filter(player=folded).exists()
    assert not HistoricalRow.objects.filter(player=close).exists()
