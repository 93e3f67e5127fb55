"""``import_turnering`` and the service behind it: every upload error, matching, and what gets saved."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.models import Game, GameResult, Player, Table, TableEntry, TableStatus, Tournament
from ratings.services.fesa.tables import tournament_header
from ratings.services.fesa.turnering import NEW, TurneringRejected, turnering_import
from ratings.services.tables.submit import table_submit
from tests.factories import add_game, make_player, make_table, make_tournament

FOUR = """[Nekomado-ken]
[2016-01-07]
1 [Ishikawa] [Musashi] [2+ 4+ 3+]
2 [Ould Ahmed] [Samy] [1- 3+ 4+]
3 [Hebert] [Pascal] [4+ 2- 1-]
4 [Mazouzi] [Sana] [3- 1- 2-]
"""


def write(tmp_path: Path, text: str | bytes, encoding: str = "iso-8859-1") -> str:
    path = tmp_path / "turnering.txt"
    path.write_bytes(text if isinstance(text, bytes) else text.encode(encoding))
    return str(path)


def run(tmp_path: Path, text: str | bytes, *args: str, encoding: str = "iso-8859-1") -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_turnering", write(tmp_path, text, encoding), *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refused(tmp_path: Path, text: str | bytes, *args: str) -> str:
    """The problems the command printed; the command must fail and save nothing."""
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_turnering", write(tmp_path, text), *args, stdout=io.StringIO(), stderr=err)
    assert not Table.objects.exists()
    return err.getvalue()


def four_players() -> list[Player]:
    return [
        make_player("Ishikawa", "Musashi"),
        make_player("Ould Ahmed", "Samy"),
        make_player("Hebert", "Pascal"),
        make_player("Mazouzi", "Sana"),
    ]


# Errors of the file itself


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param(bytes(range(256)) * 4, "not a text file", id="binary-garbage"),
        pytest.param(FOUR.encode("utf-16"), "not a text file", id="utf16-file"),
        pytest.param(b"  \n", "empty", id="empty-file"),
        pytest.param("just some text\nwithout brackets\n", "no [table name] line", id="missing-header"),
        pytest.param(
            "[Nekomado-ken]\n[January 2016]\n1 [A] [B] [2+]\n2 [C] [D] [1-]\n",
            "line 2: the table's date must be YYYY-MM-DD",
            id="missing-date-names-the-line",
        ),
        pytest.param(
            FOUR.replace("[4+ 2- 1-]", "[4+ 2x 1-]"),
            "line 5: round 2: cannot read the cell '2x'",
            id="malformed-cell-names-line-and-round",
        ),
        pytest.param(
            FOUR.replace("[3- 1- 2-]", "[3- 2- 1-]"), "do not name each other", id="cells-naming-another-opponent"
        ),
        pytest.param(
            FOUR.replace("[2+ 4+ 3+]", "[2+(-Q) 4+ 3+]").replace("[1- 3+ 4+]", "[1-(+Q) 3+ 4+]"),
            "line 3: round 1: unknown handicap code 'Q'",
            id="unknown-handicap",
        ),
        pytest.param(
            FOUR.replace("[2+ 4+ 3+]", "[2+(-R) 4+ 3+]"), "a handicap on one side only", id="handicap-on-one-side"
        ),
        pytest.param(
            FOUR.replace("[3- 1- 2-]", "[3- 1-]").replace("[1- 3+ 4+]", "[1- 3+ 0+]"),
            "uneven number of rounds",
            id="uneven-rounds",
        ),
    ],
)
def test_import_turnering_malformed_file_is_refused_naming_its_problem(
    tmp_path: Path, text: str | bytes, problem: str
) -> None:
    assert problem in refused(tmp_path, text)


@pytest.mark.django_db
def test_import_turnering_control_character_names_its_line(tmp_path: Path) -> None:
    four_players()
    text = FOUR.replace("[Hebert]", "[Heb\x02ert]")
    assert "line 5: the family name 'Heb\\x02ert' holds a control character (U+0002)" in refused(tmp_path, text)
    # Outside a name the upload's own check names it.
    text = FOUR.replace("[Hebert] [Pascal] [4+ 2- 1-]", "[Hebert] [Pascal] [4+ 2- 1-] \x02")
    assert "line 5: control character U+0002: this is not a text table" in refused(tmp_path, text)


@pytest.mark.django_db
def test_import_turnering_cells_that_do_not_mirror_name_both_players(tmp_path: Path) -> None:
    text = FOUR.replace("[1- 3+ 4+]", "[1+ 3+ 4+]")  # Ishikawa beat Ould Ahmed, who says he won too
    problems = refused(tmp_path, text)
    assert "round 1: Ishikawa Musashi (line 3)" in problems
    assert "Ould Ahmed Samy (line 4)" in problems
    assert "do not add up to one point" in problems


# Errors of the table against the federation


@pytest.mark.django_db
def test_import_turnering_unknown_players_are_errors_naming_each_line(tmp_path: Path) -> None:
    make_player("Ishikawa", "Musashi")
    make_player("Ould Ahmed", "Samy")
    problems = refused(tmp_path, FOUR)
    assert "line 5: unknown player Hebert Pascal" in problems
    assert "line 6: unknown player Mazouzi Sana" in problems
    assert "line 3" not in problems


@pytest.mark.django_db
def test_import_turnering_close_names_are_errors_on_the_command_line(tmp_path: Path) -> None:
    four_players()
    for player in Player.objects.filter(family_name__in=["Hebert", "Mazouzi"]):
        # As a rating officer corrects the spelling, or the order of the names, in the admin.
        player.family_name, player.given_name = (
            ("Hebbert", player.given_name) if player.family_name == "Hebert" else ("Sana", "Mazouzi")
        )
        player.save()
    problems = refused(tmp_path, FOUR, "--create-new")  # close names are never created as new players
    assert "line 5: Hebert Pascal is not a known player, but close to: Hebbert Pascal" in problems
    assert "one letter apart" in problems
    assert "line 6: Mazouzi Sana is not a known player, but close to: Sana Mazouzi" in problems
    assert "swapped" in problems


@pytest.mark.django_db
def test_import_turnering_namesakes_are_errors_naming_the_line(tmp_path: Path) -> None:
    four_players()
    make_player("Hebert", "Pascal", nationality="BE")
    assert "line 5: Hebert Pascal: 2 players have this name" in refused(tmp_path, FOUR)


@pytest.mark.django_db
def test_import_turnering_same_player_on_two_lines_is_refused(tmp_path: Path) -> None:
    four_players()
    text = FOUR.replace("[Mazouzi] [Sana]", "[Hebert] [Pascal]")
    assert "line 6: Hebert Pascal is the same player as on line 5" in refused(tmp_path, text)


@pytest.mark.django_db
def test_import_turnering_date_before_last_rated_table_is_refused(
    tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    players = four_players()
    later = make_table(players[2:], date=dt.date(2016, 3, 1))
    add_game(later, 1, players[2], players[3])
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        table_submit(table=later, user=None)
    problems = refused_after(tmp_path, FOUR, existing=1)
    assert (
        "line 2: the table's date 2016-01-07 is before the last rated table of 2 of its players: "
        "Hebert Pascal (line 5, 2016-03-01); Mazouzi Sana (line 6, 2016-03-01)"
    ) in problems


def refused_after(tmp_path: Path, text: str, *, existing: int) -> str:
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_turnering", write(tmp_path, text), stdout=io.StringIO(), stderr=err)
    assert Table.objects.count() == existing
    return err.getvalue()


@pytest.mark.django_db
def test_import_turnering_date_in_the_future_is_refused(tmp_path: Path) -> None:
    four_players()
    text = FOUR.replace("2016-01-07", "2999-01-07")
    assert "line 2: The table's date 2999-01-07 is in the future" in refused(tmp_path, text)


@pytest.mark.django_db
def test_import_turnering_taken_sequence_is_refused_and_free_one_taken(tmp_path: Path) -> None:
    four_players()
    other = make_table([make_player("Other", "One")], date=dt.date(2016, 1, 7), sequence=1)
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_turnering", write(tmp_path, FOUR), "--sequence", "1", stdout=io.StringIO(), stderr=err)
    assert "2016-01-07 already has a table with sequence 1; leave the sequence empty to take 2" in err.getvalue()
    out, _err = run(tmp_path, FOUR)
    assert "already has 1 table: this one comes after it, with sequence 2" in out
    table = Table.objects.exclude(pk=other.pk).get()
    assert (table.date, table.sequence) == (dt.date(2016, 1, 7), 2)


@pytest.mark.django_db
@pytest.mark.parametrize("sequence", ["0", "1000", "40000"])
def test_import_turnering_sequence_out_of_range_is_refused(tmp_path: Path, sequence: str) -> None:
    four_players()
    assert "the sequence must be between 1 and 999" in refused(tmp_path, FOUR, "--sequence", sequence)


@pytest.mark.django_db
def test_import_turnering_hostile_numbers_are_named_errors(tmp_path: Path) -> None:
    four_players()
    huge = FOUR.replace("[2+ 4+ 3+]", "[" + "9" * 5000 + "+ 4+ 3+]").replace("[1- 3+ 4+]", "[1- 3+ 4+] [١٢]")
    problems = refused(tmp_path, huge.encode("utf-8"))
    assert "line 3: round 1: opponent number 999999999999… is too large" in problems
    assert "line 4: the MacMahon start score must be a number such as 2 or -1.5, not '١٢'" in problems


# What gets saved


@pytest.mark.django_db
def test_import_turnering_saves_table_entries_and_games_as_draft(tmp_path: Path) -> None:
    players = four_players()
    tournament = make_tournament("Nekomado-ken", date=dt.date(2016, 1, 7))
    text = FOUR.replace("[2+ 4+ 3+]", "[2+(-2p) 4+ 3=]").replace("[1- 3+ 4+]", "[1-(+2p) 3+ 0+]")
    text = text.replace("[4+ 2- 1-]", "[4+ 2- 1=]").replace("[3- 1- 2-]", "[3- 1- 0-]")
    run(tmp_path, text, "--tournament", str(tournament.pk))
    table = Table.objects.get()
    assert (table.tournament, table.status, table.date) == (tournament, TableStatus.DRAFT, dt.date(2016, 1, 7))
    assert [e.player for e in TableEntry.objects.filter(table=table).order_by("seat")] == players
    games = {(g.round, g.first.family_name, g.second.family_name if g.second else None): g for g in table.games.all()}
    assert len(games) == 7  # rounds 1 and 2: two games each; round 3: one game, a bye and an absence
    hc = games[(1, "Ishikawa", "Ould Ahmed")]
    # "2+(-2p)": line 1 won and gave two pieces ("-" = this player gave it).
    assert (hc.result, hc.handicap, hc.handicap_giver) == (GameResult.FIRST_WON, "2p", "first")
    assert games[(3, "Ishikawa", "Hebert")].result == GameResult.DRAW
    assert games[(3, "Ould Ahmed", None)].result == GameResult.BYE
    assert games[(3, "Mazouzi", None)].result == GameResult.ABSENT


@pytest.mark.django_db
def test_import_turnering_into_a_tournament_of_other_dates_is_refused(tmp_path: Path) -> None:
    four_players()
    tournament = make_tournament("Nekomado-ken", date=dt.date(2016, 1, 9))
    err = refused(tmp_path, FOUR, "--tournament", str(tournament.pk))
    assert "The table's date 2016-01-07 is outside its tournament's dates (2016-01-09 to 2016-01-09)." in err


@pytest.mark.django_db
def test_import_turnering_without_tournament_creates_one_named_after_the_file(tmp_path: Path) -> None:
    four_players()
    run(tmp_path, FOUR)
    tournament = Tournament.objects.get()
    assert (tournament.name, tournament.start_date, tournament.end_date) == (
        "Nekomado-ken",
        dt.date(2016, 1, 7),
        dt.date(2016, 1, 7),
    )


@pytest.mark.django_db
def test_import_turnering_header_fills_the_new_tournaments_name_city_and_country(tmp_path: Path) -> None:
    four_players()
    run(tmp_path, FOUR.replace("[Nekomado-ken]", "[Nekomado-ken, Spring cup, Lyon, France, 2016-01-06/07]"))
    tournament = Tournament.objects.get()
    assert (tournament.name, tournament.city, tournament.country.code) == ("Nekomado-ken, Spring cup", "Lyon", "FR")
    assert (tournament.start_date, tournament.end_date) == (dt.date(2016, 1, 7), dt.date(2016, 1, 7))


@pytest.mark.parametrize(
    ("header", "parts"),
    [
        ("Open, Oslo, Norway", ("Open", "Oslo", "NO")),
        ("Open, Oslo, NO, 2020-05-01", ("Open", "Oslo", "NO")),
        ("Open, A group, Oslo", ("Open, A group, Oslo", "", "")),  # no country: all of it is the name
        ("Open, Oslo", ("Open, Oslo", "", "")),
        ("Open 2020", ("Open 2020", "", "")),
    ],
)
def test_tournament_header_reads_name_city_and_country_only_when_a_country_ends_it(
    header: str, parts: tuple[str, str, str]
) -> None:
    read = tournament_header(header)
    assert (read.name, read.city, read.country) == parts


@pytest.mark.django_db
def test_import_turnering_unknown_tournament_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no tournament with id 999"):
        run(tmp_path, FOUR, "--tournament", "999")


@pytest.mark.django_db
def test_import_turnering_create_new_takes_nationality_from_the_free_text(tmp_path: Path) -> None:
    make_player("Ishikawa", "Musashi")
    text = FOUR.replace("[Ould Ahmed] [Samy] [", "[Ould Ahmed] [Samy] FR N [").replace(
        "[Hebert] [Pascal] [", "[Hebert] [Pascal] be ["
    )
    out, _err = run(tmp_path, text, "--create-new")
    assert "3 new players" in out
    assert str(Player.objects.get(family_name="Ould Ahmed").nationality) == "FR"
    assert str(Player.objects.get(family_name="Hebert").nationality) == "BE"
    assert str(Player.objects.get(family_name="Mazouzi").nationality) == ""


@pytest.mark.django_db
def test_import_turnering_utf8_file_matches_accented_names(tmp_path: Path) -> None:
    players = four_players()
    players[2].family_name = "Hébert"  # as a rating officer corrects the spelling in the admin
    players[2].save()
    run(tmp_path, FOUR.replace("Hebert", "Hébert"), encoding="utf-8")
    assert Table.objects.get().entries.get(seat=3).player_id == players[2].pk


@pytest.mark.django_db
def test_import_turnering_dry_run_saves_nothing(tmp_path: Path) -> None:
    four_players()
    out, _err = run(tmp_path, FOUR, "--dry-run", "--create-new")
    assert "Dry run" in out
    assert not Table.objects.exists() and not Tournament.objects.exists()


@pytest.mark.django_db
def test_import_turnering_preview_saves_nothing_even_new_players() -> None:
    plan = turnering_import(data=FOUR.encode(), tournament=None, create_new=True)
    assert plan.ok and len(plan.effects) == 4 and [line.choice for line in plan.lines] == [NEW] * 4
    assert not Player.objects.exists() and not Table.objects.exists() and not Game.objects.exists()


@pytest.mark.django_db
def test_import_turnering_choice_resolves_close_name() -> None:
    players = four_players()
    players[2].family_name = "Hébbert"  # as a rating officer corrects the spelling in the admin
    players[2].save()
    plan = turnering_import(data=FOUR.encode(), tournament=None)
    assert [p.line for p in plan.problems] == [5]
    plan = turnering_import(data=FOUR.encode(), tournament=None, choices={3: players[2].pk}, commit=True)
    assert Table.objects.get(pk=plan.table_id).entries.get(seat=3).player_id == players[2].pk


@pytest.mark.django_db
def test_import_turnering_choice_of_unrelated_player_is_refused() -> None:
    four_players()
    stranger = make_player("Stranger", "Danger")
    plan = turnering_import(data=FOUR.encode(), tournament=None, choices={3: stranger.pk})
    assert [str(p) for p in plan.problems] == ["line 5: Hebert Pascal: the chosen player is not one this name may mean"]


@pytest.mark.django_db
def test_import_turnering_new_player_choice_needs_permission_to_create() -> None:
    four_players()
    plan = turnering_import(data=FOUR.encode(), tournament=None, choices={3: NEW}, create_new=False)
    assert [p.line for p in plan.problems] == [5]


@pytest.mark.django_db
def test_import_turnering_preview_is_what_submitting_stores(django_capture_on_commit_callbacks: object) -> None:
    from ratings.models import RatingRow

    four_players()
    preview = turnering_import(data=FOUR.encode(), tournament=None)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        done = turnering_import(data=FOUR.encode(), tournament=None, commit=True, submit=True)
    table = Table.objects.get(pk=done.table_id)
    assert table.status == TableStatus.RATED
    seat = {e.player_id: e.seat for e in table.entries.all()}
    stored = {seat[r.player_id]: (r.rating_before, r.rating_after) for r in RatingRow.objects.filter(table=table)}
    assert stored == {e.number: (e.rating_before, e.rating_after) for e in preview.effects}


@pytest.mark.django_db
def test_the_same_file_uploaded_again_is_refused_in_its_preview_naming_the_table() -> None:
    """A director saved and submitted a file, then uploaded it again: both were rated, every game twice."""
    four_players()
    first = turnering_import(data=FOUR.encode(), tournament=None, commit=True, submit=True)
    again = turnering_import(data=FOUR.encode(), tournament=None)
    table = Table.objects.get(pk=first.table_id)
    assert [str(p) for p in again.problems] == [
        f"These games are already saved as table {table.pk}, {table.label} (submitted, waiting to be rated): "
        "saved again, every result would count twice. Correct that table instead, or delete it first."
    ]
    with pytest.raises(TurneringRejected):
        turnering_import(data=FOUR.encode(), tournament=None, commit=True)
    assert Table.objects.count() == 1
    other_results = FOUR.replace("[2+ 4+ 3+]", "[2+ 4+ 3-]").replace("[4+ 2- 1-]", "[4+ 2- 1+]")
    assert turnering_import(data=other_results.encode(), tournament=None).ok  # the same players, other games


@pytest.mark.django_db
def test_a_file_naming_an_opponent_it_does_not_hold_is_told_not_checked_for_a_twin() -> None:
    """Its games cannot be made (line 1 plays a number 9 of a table of four): the check of a table saved twice,
    which makes them, waits for a file without problems."""
    four_players()
    plan = turnering_import(data=FOUR.replace("[2+ 4+ 3+]", "[9+ 4+ 3+]").encode(), tournament=None)
    assert plan.problems and not plan.ok


@pytest.mark.django_db
def test_every_door_refuses_a_table_whose_games_another_table_of_its_date_holds() -> None:
    """The admin's forms and the API save through table_save: the same games on the same date are refused there
    too, and a table's own games are not its twin when it is saved again."""
    from ratings.services.tables.save import EntryFacts, GameEdit, TableRefused, table_save
    from ratings.services.tables.submit import GameFacts

    a, b = make_player("Aoki"), make_player("Baba")
    date = dt.date(2016, 1, 7)

    def save(table: Table | None = None) -> Table:
        return table_save(
            table=table,
            tournament=make_tournament(date=date) if table is None else table.tournament,
            name="",
            date=date,
            sequence=None,
            entries=[EntryFacts(player_id=a.pk, seat=1), EntryFacts(player_id=b.pk, seat=2)],
            games=[GameEdit(facts=GameFacts(round=1, first_id=a.pk, second_id=b.pk, result="first"))],
            strict_dates=False,
        ).table

    table = save()
    assert save(table).pk == table.pk  # saved again as itself
    with pytest.raises(TableRefused) as refused_twin:
        save()
    [problem] = refused_twin.value.by_field["games"]
    assert set(refused_twin.value.by_field) == {"games"} and f"already saved as table {table.pk}," in problem
    assert Table.objects.count() == 1


@pytest.mark.django_db
def test_import_turnering_sequence_taken_meanwhile_is_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two uploads for the same date at once: the second is refused by table_save's check (or, closer still, by
    the unique (date, sequence) on insert)."""
    import ratings.services.fesa.turnering as service

    four_players()
    make_table([make_player("Other", "One")], date=dt.date(2016, 1, 7), sequence=1)
    # As if the check ran before the other table was saved: it found sequence 1 free.
    monkeypatch.setattr(service, "_position", lambda plan, date, sequence: 1)
    with pytest.raises(service.TurneringRejected) as rejected:
        turnering_import(data=FOUR.encode(), tournament=None, commit=True)
    assert "Another table of 2016-01-07 has the number 1" in str(rejected.value)
    assert Table.objects.count() == 1 and not Tournament.objects.exclude(tables__isnull=False).exists()


@pytest.mark.django_db
def test_import_turnering_reports_every_bad_line_at_once(tmp_path: Path) -> None:
    # Two unreadable cells on two lines, and, on a readable table, two pairs whose cells disagree: the
    # director sees all of them in one go, each with its line.
    text = FOUR.replace("[4+ 2- 1-]", "[4+ 2x 1-]").replace("[3- 1- 2-]", "[3- 1- 2?]")
    problems = refused(tmp_path, text)
    assert "line 5: round 2: cannot read the cell '2x'" in problems
    assert "line 6: round 3: cannot read the cell '2?'" in problems
    text = FOUR.replace("[1- 3+ 4+]", "[1+ 3+ 4+]").replace("[3- 1- 2-]", "[3+ 1- 2-]")
    problems = refused(tmp_path, text)
    assert "round 1: Ishikawa Musashi (line 3)" in problems
    assert "round 1: Hebert Pascal (line 5)" in problems
    assert problems.count("do not add up to one point") == 2  # each pair told once, not from both sides


@pytest.mark.django_db
def test_upload_preview_lists_every_file_problem() -> None:
    text = FOUR.replace("[4+ 2- 1-]", "[4+ 2x 1-]").replace("[3- 1- 2-]", "[3- 1- 2?]")
    plan = turnering_import(data=text.encode("iso-8859-1"), tournament=None)
    unreadable = [p.line for p in plan.problems if "cannot read the cell" in p.message]
    unknown = [p.line for p in plan.problems if p.message.startswith("unknown player")]
    assert (unreadable, unknown) == ([5, 6], [3, 4])  # the lines it could read are matched all the same
    assert len(plan.problems) == 4


@pytest.mark.django_db
def test_import_turnering_name_written_by_the_fesa_files_is_the_same_player(tmp_path: Path) -> None:
    """A name outside ISO-8859-1 comes back from a FESA file transliterated: it is that player, not a guess."""
    players = four_players()
    players[2].family_name, players[2].given_name = "Zieliński", "Paweł"
    players[2].save()
    run(tmp_path, FOUR.replace("[Hebert] [Pascal]", "[Zielinski] [Pawel]"))
    assert TableEntry.objects.filter(player=players[2]).exists()
    assert Player.objects.count() == 4


@pytest.mark.django_db
def test_import_turnering_transliterated_name_and_its_plain_namesake_are_namesakes(tmp_path: Path) -> None:
    four_players()
    make_player("Hebert", "Pascał")
    problems = refused(tmp_path, FOUR)
    assert "line 5: Hebert Pascal: 2 players have this name" in problems
