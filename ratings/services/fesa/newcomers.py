"""The players of the ``nye-spillere`` file that comes with a table: planned with the table's preview (read,
checked and matched to the site's players, nothing written), created with the table when it is saved.

Who is who. A record whose names read the same in plain Latin letters as one player's of the site (the rule
that takes an upload's line as a player, ratings/selectors/fesa_match.py: ``Muller`` for ``Müller``) is that
player:

* one who came onto the list from a ``nye-spillere`` already (the opening balance's, or an earlier upload of
  the same table, a draft still) is taken as he is: nobody is created twice;
* one with no state on the site yet (no opening state, no rated table: entered by hand) is taken, and comes
  onto the list with this table;
* one with a state is refused (the file would restate him), as is a name several players have (``Muller``
  when the site has both ``Muller`` and ``Müller``).

Any other record is a new player. Prior grades: a prior grade decides a newcomer's first rating, so only
rating officers set one (ratings/services/grades/proposals.py). A rating officer's upload and the command
line give new players the file's grade; a director's upload creates them without one and proposes the file's
grade to a rating officer, as the add form does; and no file changes the grade of a player the site has
already. A record that brings the program's stored state (a rating, games, promotion runs) is a rating
officer's to import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.ratingliste import ListRecord, read_nye_spillere
from ratings.models import ListArrival, OpeningState, Player, PriorGradeSource, Table
from ratings.selectors.fesa_match import PlayerIndex
from ratings.services.fesa.state import (
    check_prior,
    fesa_newcomers_arrive,
    is_plain_newcomer,
    list_player_fields,
    opening_state_of,
    players_with_a_state,
    prior_grade_text,
)
from ratings.services.fesa.tables import MAX_NEW_PLAYERS
from ratings.services.grades.proposals import prior_grade_propose
from ratings.services.players import players_refresh

Grade = Literal["set", "proposed", "kept", "none"]


@dataclass(frozen=True, slots=True)
class Newcomer:
    """A record of ``nye-spillere`` and what saving the table does with it.

    ``player_id`` is the site's player of that name (None: created with the table); ``arrives``: he comes
    onto the list with the table (False: he came with an earlier file); ``grade``: what becomes of the
    file's prior grade; ``site_grade``: the prior grade the site has for him, for a player it has."""

    record: ListRecord
    position: int
    player_id: int | None
    arrives: bool
    grade: Grade
    site_grade: str = ""

    @property
    def key(self) -> int:
        """The player's id, or a negative stand-in for a player still to be created (unique in the file)."""
        return self.player_id if self.player_id is not None else -1 - self.position

    @property
    def file(self) -> str:
        return self.record.file or "nye-spillere"

    @property
    def name(self) -> str:
        return f"{self.record.last_name} {self.record.first_name}".strip()

    @property
    def file_grade(self) -> str:
        prior = self.record.state.prior_grade
        return prior_grade_text(prior.kind, prior.level) if prior else ""

    @property
    def nationality(self) -> str:
        return str(list_player_fields(self.record, "")["nationality"])

    @property
    def outcome(self) -> str:
        """What the preview says happens to him."""
        if self.player_id is not None:
            return _("already on the site: taken as he is, his prior grade (%(grade)s) kept") % {
                "grade": self.site_grade
            }
        if not is_plain_newcomer(self.record):
            return _("created with the rating and games the file stores")
        if self.grade == "set":
            return _("created with this prior grade")
        if self.grade == "proposed":
            return _("created without a prior grade; this one is proposed to a rating officer")
        return _("created without a prior grade")


def newcomers_plan(*, data: bytes, file: str, may_set_prior_grades: bool) -> tuple[list[Newcomer], list[FesaFileError]]:
    """Read ``nye-spillere`` and decide, for every record, who he is and what becomes of his prior grade
    (see the module docstring); every problem found. Reads only."""
    try:
        records = read_nye_spillere(data, file)
    except FesaFileError as exc:
        return [], [exc]
    if len(records) > MAX_NEW_PLAYERS:
        message = _("a nye-spillere holds at most %(max)s players") % {"max": f"{MAX_NEW_PLAYERS:,}"}
        return [], [FesaFileError(file, None, message)]
    problems: list[FesaFileError] = []
    for record in records:
        try:
            check_prior(record)
        except FesaFileError as exc:
            problems.append(exc)
    existing = _players_reading_as(records)
    ids = [p.pk for found in existing.values() for p in found]
    stated = players_with_a_state(ids)
    arrived = set(_arrived(ids))
    newcomers = []
    for position, record in enumerate(records):
        found = existing.get(record.name, [])
        plain = is_plain_newcomer(record)
        if len(found) > 1:
            problems.append(FesaFileError(file, record.line, _("several players of the site have this name")))
            continue
        if found and found[0].pk in stated and found[0].pk not in arrived:
            message = _("this player already has a state on the site (imported twice?)")
            problems.append(FesaFileError(file, record.line, message))
            continue
        if not plain and not may_set_prior_grades and not (found and found[0].pk in arrived):
            message = _("%(name)s brings a rating or games: only a rating officer may import such a player") % {
                "name": f"{record.last_name} {record.first_name}".strip()
            }
            problems.append(FesaFileError(file, record.line, message))
            continue
        if found:
            player = found[0]
            site_grade = prior_grade_text(player.prior_grade_kind, player.prior_grade_level)
            arrives = player.pk not in arrived
            newcomers.append(Newcomer(record, position, player.pk, arrives, "kept", site_grade))
        else:
            grade: Grade = "none"
            if record.state.prior_grade is not None:
                grade = "set" if may_set_prior_grades else "proposed"
            newcomers.append(Newcomer(record, position, None, True, grade))
    return newcomers, problems


def _players_reading_as(records: Sequence[ListRecord]) -> dict[tuple[str, str], list[Player]]:
    """The site's players whose names read as each record's in plain Latin letters (exact spellings first)."""
    index = PlayerIndex()
    same = {r.name: [c.player_id for c in index.match(*r.name).same] for r in records}
    players = Player.objects.in_bulk({pk for found in same.values() for pk in found})
    return {name: [players[pk] for pk in found] for name, found in same.items()}


def _arrived(player_ids: list[int]) -> list[int]:
    return list(ListArrival.objects.filter(player_id__in=player_ids).values_list("player_id", flat=True))


def newcomers_notes(newcomers: Sequence[Newcomer]) -> list[str]:
    """A note for every player of the site whose prior grade is not the file's: the file does not change it."""
    return [
        _(
            "nye-spillere, line %(line)s: %(name)s keeps his prior grade on the site (%(kept)s), not the file's "
            "(%(file_grade)s): only a rating officer changes a prior grade"
        )
        % {
            "line": n.record.line,
            "name": n.name,
            "kept": n.site_grade,
            "file_grade": n.file_grade or _("no prior grade"),
        }
        for n in newcomers
        if n.player_id is not None and n.site_grade != (n.file_grade or _("no prior grade"))
    ]


def newcomers_create(*, newcomers: Sequence[Newcomer], user: Any, note: str) -> Mapping[int, int]:
    """Save what :func:`newcomers_plan` decided, in the caller's transaction: the new players (with their
    prior grade, or a proposal of it noted ``note``) and the opening states of those who bring a stored state.
    Returns the player id of every newcomer's :attr:`~Newcomer.key`."""
    new = [n for n in newcomers if n.player_id is None]
    rows = []
    for n in new:
        fields = list_player_fields(n.record, n.file)
        if n.grade != "set":
            fields.update(
                is_professional=False,
                prior_grade_kind="",
                prior_grade_level=None,
                prior_grade_source="",
                prior_grade_note="",
            )
        rows.append(Player(**fields))
    created = bulk_create_with_history(rows, Player, batch_size=500, default_user=_staff(user))
    ids = {n.key: n.key for n in newcomers if n.player_id is not None}
    ids.update({n.key: player.pk for n, player in zip(new, created, strict=True)})
    for n, player in zip(new, created, strict=True):
        prior = n.record.state.prior_grade
        if n.grade == "proposed" and prior is not None:
            prior_grade_propose(
                player=player, kind=prior.kind, level=prior.level, source=PriorGradeSource.OTHER, note=note, user=user
            )
    openings = [
        opening_state_of(Player(pk=ids[n.key]), n.record, None, n.file)
        for n in newcomers
        if n.arrives and not is_plain_newcomer(n.record)
    ]
    OpeningState.objects.bulk_create(openings)
    # A new player without an opening state has the derived columns of a player who never played: the
    # model's defaults. Only those with one need theirs computed.
    players_refresh([o.player_id for o in openings])
    return ids


def newcomers_arrive(*, newcomers: Sequence[Newcomer], ids: Mapping[int, int], table: Table) -> None:
    """Record that the newcomers who had not come onto the list yet came with ``table``, in file order."""
    fesa_newcomers_arrive(table=table, players=[Player(pk=ids[n.key]) for n in newcomers if n.arrives])


def _staff(user: Any) -> Any:
    return user if getattr(user, "pk", None) else None
