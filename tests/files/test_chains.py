"""Chains of tables, side by side with the program: state → table (+ nye-spillere) → state → next table.

Each chain starts from a reference case's ``ratingliste.pre``: its table with its ``nye-spillere``
(``import_turnering --new-players``), then the same pairings a month and two months later, each with a
``nye-spillere`` of its own whose players do not play yet (some with rating 0, some bringing the rating of a
listed player, so that equal ratings are everywhere), then a correction of the second table. After every
step ``export_fesa_state`` must give, byte for byte, what the program's run on files gives when fed the
same files in order (ratings/fesa_files/run.py; each single run is checked against the program's own
output by tests/fesa). The first step is also compared with the program's own ``ratingliste.post``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from ratings.fesa_files.ratingliste import read_ratingliste
from ratings.fesa_files.run import rate_files
from ratings.fesa_files.turnering import read_turnering, write_turnering
from ratings.models import Game, GameResult, Player, Table, TableStatus
from ratings.services.fesa.state import fesa_state_export
from ratings.services.rerate import rerate_check
from ratings.services.tables.submit import table_changed
from tests.files.fesa_cases import case_dir, case_names_with_new_players, without_rated_game
from tests.files.test_side_by_side import later

pytestmark = pytest.mark.slow


def nye_spillere(players: list[tuple[str, str, int]]) -> bytes:
    """A nye-spillere file: (family name, given name, stored rating) each, no games, no prior grade."""
    lines = [
        f'("{last}" "{first}" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 0 "" {rating} 0 nil)'
        for last, first, rating in players
    ]
    return ("(\n" + "\n".join(lines) + "\n)\n").encode("iso-8859-1")


def flip_first_decisive_game(turnering: bytes) -> tuple[bytes, tuple[str, str], tuple[str, str], int]:
    """The table with its first won game (in line order) turned round, and that game's (winner, loser, round)."""
    table = read_turnering(turnering)
    for p in table.players:
        for r, cell in enumerate(p.cells):
            if cell.is_game and cell.sign in "+-" and not table.player(cell.opponent).simul_giver:
                q = table.player(cell.opponent)
                flip = {"+": "-", "-": "+"}
                players = list(table.players)
                for who, c in ((p, cell), (q, q.cells[r])):
                    cells = list(who.cells)
                    cells[r] = c._replace(sign=flip[c.sign])  # type: ignore[arg-type]
                    players[who.number - 1] = who._replace(cells=tuple(cells))
                winner, loser = (p, q) if cell.sign == "+" else (q, p)
                flipped = write_turnering(table._replace(players=tuple(players)))
                return flipped, winner.name, loser.name, r + 1
    raise AssertionError("no decisive game")


def site_import(path: Path, data: bytes, nye: bytes | None, capture: object) -> None:
    path.write_bytes(data)
    args = [str(path), "--submit"]
    if nye is not None:
        path.with_suffix(".nye").write_bytes(nye)
        args += ["--new-players", str(path.with_suffix(".nye"))]
    with capture(execute=True):  # type: ignore[operator]
        call_command("import_turnering", *args, stdout=io.StringIO(), stderr=io.StringIO())


@pytest.mark.django_db
@pytest.mark.parametrize("name", case_names_with_new_players())
def test_chain_of_tables_lists_every_step_as_the_program(
    name: str, tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    case = case_dir(name)
    pre = (case / "ratingliste.pre").read_bytes()
    first = (case / "turnering.txt").read_bytes()
    rated = [r.state.rating for r in read_ratingliste(pre) if r.state.rating > 0]
    tie = rated[len(rated) // 2] if rated else 1500
    steps = [
        (first, (case / "nye-spillere").read_bytes()),
        (later(first, 30)[0], nye_spillere([("Late", "A", 0), ("Late", "B", 0), ("Tied", "A", tie)])),
        (later(first, 60)[0], nye_spillere([("Later", "A", 0), ("Tied", "B", tie), ("Later", "B", 0)])),
    ]
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    program = pre
    for i, (turnering, nye) in enumerate(steps):
        program = rate_files(turnering, program, nye).ratingliste_post
        site_import(tmp_path / f"t{i}.txt", turnering, nye, django_capture_on_commit_callbacks)
        assert fesa_state_export() == program, f"step {i + 1}"
    if not without_rated_game(case):
        program_post = (case / "ratingliste.post").read_bytes()
        assert rate_files(first, pre, steps[0][1]).ratingliste_post == program_post
    assert [t.status for t in Table.objects.all()] == [TableStatus.RATED] * 3

    # A correction of the second table: its first won game was lost. The program is fed the corrected file.
    corrected, winner, loser, round_number = flip_first_decisive_game(steps[1][0])
    program = pre
    for turnering, nye in [steps[0], (corrected, steps[1][1]), steps[2]]:
        program = rate_files(turnering, program, nye).ratingliste_post
    table = Table.objects.order_by("date", "sequence")[1]
    ids = {p.name_key: p.pk for p in Player.objects.all() for p.name_key in [(p.family_name, p.given_name)]}
    game = Game.objects.get(table=table, round=round_number, first__in=[ids[winner], ids[loser]])
    game.result = GameResult.SECOND_WON if game.first_id == ids[winner] else GameResult.FIRST_WON
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        game.save()
        table_changed(table=table)
    assert fesa_state_export() == program
    assert rerate_check() == []
