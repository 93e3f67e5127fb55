"""The FESA state list in and out: import as opening balance, export, round trips, refusals."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.fesa_files.ratingliste import read_ratingliste
from ratings.models import OpeningState, Player
from ratings.selectors.states import starting_states
from ratings.services.fesa.state import fesa_state_export, fesa_state_import
from tests.factories import add_game, make_player, make_table
from tests.files.fesa_cases import case_dir, case_names

SAMPLE = b"""(#S(PLAYER :LAST-NAME "Ishikawa" :FIRST-NAME "Musashi" :NATIONALITY-LIST (#S(HOME :LIST #\\E :NATIONALITY "FR" :RESIDENS "FR" :LAST "2013-04-05")) :GRADE-LEVEL 0 :GRADE-NAME "" :NSR-GRADE-LEVEL 1 :NSR-GRADE-NAME "Dan" :ELO-NUMBER 1766 :GAMES ((1740 0 1) (1740 1 1) (1315 1 1) (400 1 1) (850 1 1)) :LAST-PLAYED "2013-04-05" :LB-COUNT NIL :MP-COUNT NIL :BONUS-COUNT 0)
#S(PLAYER :LAST-NAME "H\xe9bert" :FIRST-NAME "Pascal" :NATIONALITY-LIST (#S(HOME :LIST #\\E :NATIONALITY "FR" :RESIDENS "BE" :LAST "2013-04-05")) :GRADE-LEVEL 3 :GRADE-NAME "Kyu" :NSR-GRADE-LEVEL 0 :NSR-GRADE-NAME "" :ELO-NUMBER 1400 :GAMES 42 :LAST-PLAYED "2013-04-05" :LB-COUNT (:LB 3 T) :MP-COUNT (:MP 2) :BONUS-COUNT 42)

)
"""  # noqa: E501 - the program writes one record per line


@pytest.mark.django_db
@pytest.mark.parametrize("name", case_names())
@pytest.mark.parametrize("which", ["ratingliste.pre", "ratingliste.post"])
def test_state_round_trip_changes_nothing(name: str, which: str, tmp_path: Path) -> None:
    """Importing a list the FESA program wrote and exporting it again gives the same bytes."""
    source = case_dir(name) / which
    call_command("import_fesa_state", str(source), stdout=io.StringIO())
    call_command("export_fesa_state", str(tmp_path / "out"), stdout=io.StringIO())
    assert (tmp_path / "out").read_bytes() == source.read_bytes()


@pytest.mark.django_db
def test_state_import_keeps_every_field_of_the_record() -> None:
    fesa_state_import(ratingliste=SAMPLE, source="ratingliste")
    hebert = Player.objects.get(family_name="Hébert")
    state = starting_states([hebert.pk])[hebert.pk]
    # The record's numbers, read by hand: 3 Kyu is grade index 21 - 3 = 18; a game count of 42.
    assert (state.rating, state.result_list, state.game_count, state.bonus_count) == (1400, None, 42, 42)
    assert (state.grade, state.lb_run, state.lb_mp_seen, state.mp_run) == (18, 3, True, 2)
    assert state.last_played == dt.date(2013, 4, 5)
    assert (str(hebert.nationality), str(hebert.residence)) == ("FR", "BE")
    assert (hebert.rating, hebert.games, hebert.fesa_grade) == (1400, 42, 18)  # derived columns refreshed
    ishikawa = Player.objects.get(family_name="Ishikawa")
    assert (ishikawa.prior_grade_kind, ishikawa.prior_grade_level) == ("dan", 1)
    assert starting_states([ishikawa.pk])[ishikawa.pk].result_list == (
        (1740, 0.0),
        (1740, 1.0),
        (1315, 1.0),
        (400, 1.0),
        (850, 1.0),
    )


@pytest.mark.django_db
def test_state_import_plain_newcomer_keeps_prior_grade_on_the_player() -> None:
    newcomers = b'(("N55" "" (#S(HOME :list #\\E :nationality "JP" :residens "JP")) 3 "Kyu" 0 0 nil))'
    outcome = fesa_state_import(ratingliste=SAMPLE, new_players=newcomers)
    assert (outcome.players_created, outcome.opening_states, outcome.newcomers) == (3, 2, 1)
    n55 = Player.objects.get(family_name="N55")
    assert not OpeningState.objects.filter(player=n55).exists()
    assert (n55.prior_grade_kind, n55.prior_grade_level, str(n55.nationality)) == ("kyu", 3, "JP")


@pytest.mark.django_db
def test_state_import_twice_is_refused_and_saves_nothing(tmp_path: Path) -> None:
    fesa_state_import(ratingliste=SAMPLE)
    with pytest.raises(CommandError, match="already has a state"):
        call_command("import_fesa_state", _write(tmp_path, SAMPLE), stdout=io.StringIO())
    assert Player.objects.count() == 2


@pytest.mark.django_db
def test_state_import_bad_record_names_line_and_saves_nothing(tmp_path: Path) -> None:
    bad = SAMPLE.replace(b":ELO-NUMBER 1400", b':ELO-NUMBER "x"')
    with pytest.raises(CommandError, match=r"line 2: ELO-NUMBER"):
        call_command("import_fesa_state", _write(tmp_path, bad), stdout=io.StringIO())
    assert Player.objects.count() == 0


@pytest.mark.django_db
def test_state_import_takes_player_entered_before_the_migration() -> None:
    entered = make_player("Ishikawa", "Musashi", nationality="JP")
    outcome = fesa_state_import(ratingliste=SAMPLE)
    assert (outcome.players_created, outcome.players_matched) == (1, 1)
    entered.refresh_from_db()
    assert (entered.rating, str(entered.nationality)) == (1766, "FR")


@pytest.mark.django_db
def test_state_import_refuses_player_with_rated_tables(django_capture_on_commit_callbacks: object) -> None:
    from ratings.services.tables.submit import table_submit

    a, b = make_player("Ishikawa", "Musashi"), make_player("Other", "One")
    table = make_table([a, b], date=dt.date(2012, 1, 1))
    add_game(table, 1, a, b)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        table_submit(table=table, user=None)
    with pytest.raises(Exception, match="already has a state"):
        fesa_state_import(ratingliste=SAMPLE)
    assert not OpeningState.objects.exists()


@pytest.mark.django_db
def test_state_export_as_of_date_before_tables_is_the_opening_balance(
    tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    case = case_dir("sample-2016-01-07")
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        call_command("import_turnering", str(case / "turnering.txt"), "--submit", stdout=io.StringIO())
    date = read_ratingliste((case / "ratingliste.post").read_bytes())[0].state.last_played
    assert date is not None
    before = fesa_state_export(as_of=date - dt.timedelta(days=1))
    assert before == (case / "ratingliste.pre").read_bytes()
    assert fesa_state_export() != before


def _write(directory: Path, data: bytes) -> str:
    path = directory / "ratingliste"
    path.write_bytes(data)
    return str(path)


@pytest.mark.django_db
def test_state_import_players_found_by_name_search_without_accents() -> None:
    fesa_state_import(ratingliste=SAMPLE, source="ratingliste")
    # Imported in bulk, so Player.save() never ran: the import must fill the search key itself.
    assert list(Player.objects.filter(search_name__contains="hebert").values_list("family_name", flat=True)) == [
        "Hébert"
    ]
