"""A player's personal data, on request: exported to him, or erased while his rating history stays.

Erasure pseudonymises rather than deletes: the player keeps his row, federation id, prior grade, tables,
games, rating rows and promotions, so every other player's rating stays what the rules gave it; what could
name him goes. That is his name (now "Erased player <id>"), date of birth, country of residence and the
prior grade's note, in the player row and in every recorded version of it (django-simple-history), in the
FESA list record his opening state was imported from, on the official lists he was on (their entries and
all.txt), in the rating lists stored before (deleted, written again when asked for), in the admin's log of
changes and in the corrections (what they changed, and their words); the e-mail subscriptions to him are deleted
with their messages, and his clubs by date; the women's list and his consent to it are cleared (his age category
goes with the date of birth), and the mistakes reported about him are deleted with their messages. Both actions are
recorded (``PrivacyAction``: whom, by whom, when), never with the data itself. docs/privacy.md has the policy.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ratings.fesa_files.lisp import Struct, print_form, read_one
from ratings.models import (
    ClubMembership,
    Correction,
    MistakeReport,
    OpeningState,
    Player,
    PrivacyAction,
    player_search_key,
)
from ratings.selectors.fesa_records import FESA_KEY
from ratings.selectors.privacy import player_personal_data
from ratings.services.corrections.facts import IDENTITY_FIELDS, describe
from ratings.services.history_files import history_files_refresh
from ratings.services.lists import computed_lists_delete
from ratings.services.official_lists import official_lists_erase
from ratings.services.reports import reports_delete
from ratings.services.season.subscriptions import subscriptions_erase

ERASED_FIELDS = {
    "date_of_birth": None,
    "residence": "",
    "prior_grade_note": "",
    "latin_family_name": "",
    "latin_given_name": "",
    "on_womens_list": False,
    "womens_list_consent": None,
}
"""Personal fields an erasure clears, with their empty values; the names become the pseudonym."""


def pseudonym(player: Player) -> str:
    return f"Erased player {player.pk}"


def player_export(*, player: Player, user: Any) -> bytes:
    """The JSON document of everything held about ``player`` (ratings/selectors/privacy.py), recorded as
    exported by ``user``."""
    PrivacyAction.objects.create(player=player, kind=PrivacyAction.Kind.EXPORT, done_by=user, done_at=timezone.now())
    document = player_personal_data(player=player)
    return (json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


@transaction.atomic
def player_erase(*, player: Player, user: Any) -> PrivacyAction:
    """Pseudonymise ``player`` everywhere the site keeps his personal data; ratings, games and grades stay.

    Erasing an erased player again changes nothing more, and is recorded again.
    """
    player = Player.objects.select_for_update().get(pk=player.pk)
    latin_name = (player.latin_family_name, player.latin_given_name)
    latin = " ".join(latin_name).strip()
    old_names = {str(player), f"{player.given_name} {player.family_name}".strip(), latin} - {"", pseudonym(player)}
    player.family_name = pseudonym(player)
    player.given_name = ""
    for name, empty in ERASED_FIELDS.items():
        setattr(player, name, empty)
    player.save()
    _scrub_history(player)
    _scrub_opening_state(player)
    _scrub_admin_log(player, old_names)
    official_lists_erase(player=player, latin_name=latin_name)  # the published lists name him too
    computed_lists_delete()  # so do the lists computed before, of older data versions: written again when asked for
    _scrub_corrections(player, old_names)
    subscriptions_erase(player=player)  # the addresses told about him, and their messages
    _erase_clubs(player)
    reports_delete(MistakeReport.objects.filter(player=player).values_list("pk", flat=True))  # they name him
    history_files_refresh()  # the downloads name him too
    return PrivacyAction.objects.create(
        player=player, kind=PrivacyAction.Kind.ERASURE, done_by=user, done_at=timezone.now()
    )


def _erase_clubs(player: Player) -> None:
    """His clubs by date and their recorded versions go: with his rating they could name him, and no rating
    depends on them."""
    ClubMembership.objects.filter(player=player).delete()
    ClubMembership.history.filter(player_id=player.pk).delete()


def _scrub_history(player: Player) -> None:
    """Every recorded version of the player takes the pseudonym: the versions stay, so the audit trail of
    his prior grade (which decides his ratings) stays too."""
    player.history.update(
        family_name=player.family_name,
        given_name="",
        search_name=player_search_key(player.family_name, ""),
        history_change_reason=None,
        **ERASED_FIELDS,
    )


def _scrub_opening_state(player: Player) -> None:
    """The FESA list record he was imported from names him: its name slots take the pseudonym."""
    opening = OpeningState.objects.filter(player=player).first()
    fesa = (opening.state.get(FESA_KEY) or {}) if opening is not None else {}
    if opening is None or not fesa.get("record"):
        return
    record = read_one(fesa["record"], "opening state")
    if isinstance(record, Struct):
        names = {"LAST-NAME": player.family_name, "FIRST-NAME": ""}
        fields = tuple((key, names.get(key, value)) for key, value in record.fields)
        fesa["record"] = print_form(Struct(record.name, fields))
    else:
        fesa["record"] = None  # not a record this site wrote: the HOMEs kept beside it are enough
    opening.source = ""
    opening.save(update_fields=["state", "source"])


def _scrub_admin_log(player: Player, old_names: set[str]) -> None:
    """The admin's log names objects as they were shown ("1. Tanaka Hiro" for a table entry): the old
    names give way to the pseudonym wherever they appear."""
    if not old_names:
        return
    player_type = ContentType.objects.get_for_model(Player)
    # The change messages are JSON, where a name with an accent is written as \u escapes.
    spellings = sorted(old_names | {json.dumps(name)[1:-1] for name in old_names}, key=len, reverse=True)
    mentions = Q(content_type=player_type, object_id=str(player.pk))
    for spelling in spellings:
        mentions |= Q(object_repr__contains=spelling) | Q(change_message__contains=spelling)
    for entry in LogEntry.objects.filter(mentions):
        for spelling in spellings:
            entry.object_repr = entry.object_repr.replace(spelling, player.family_name)
            entry.change_message = entry.change_message.replace(spelling, player.family_name)
        if entry.content_type_id == player_type.pk and entry.object_id == str(player.pk):
            entry.object_repr = player.family_name
        entry.save(update_fields=["object_repr", "change_message"])


def _scrub_corrections(player: Player, old_names: set[str]) -> None:
    """His identity and prior-grade corrections keep what changed, with the erased values in place of the
    personal ones on both sides; his old names give way to the pseudonym in every correction's words."""
    erased: dict[str, object] = {"family_name": player.family_name, "given_name": ""}
    erased |= {name: value for name, value in ERASED_FIELDS.items() if name in IDENTITY_FIELDS}
    for correction in Correction.objects.filter(player=player):
        if correction.kind == Correction.Kind.IDENTITY:
            old_names = old_names | _names_in(correction.before) | _names_in(correction.after)
            correction.before, correction.after = correction.before | erased, correction.after | erased
        elif correction.kind == Correction.Kind.PRIOR_GRADE:
            correction.before, correction.after = correction.before | {"note": ""}, correction.after | {"note": ""}
        if correction.kind != Correction.Kind.TABLE:
            lines = describe(correction.kind, correction.before, correction.after)
            correction.summary = "\n".join(lines) or f"{pseudonym(player)}: personal data erased"
        correction.save(update_fields=["before", "after", "summary"])
    old_names -= {"", player.family_name}
    if not old_names:
        return
    spellings = sorted(old_names, key=len, reverse=True)
    mentions = Q()
    for spelling in spellings:
        mentions |= Q(summary__contains=spelling) | Q(reason__contains=spelling)
    for correction in Correction.objects.filter(mentions):
        for spelling in spellings:
            correction.summary = correction.summary.replace(spelling, player.family_name)
            correction.reason = correction.reason.replace(spelling, player.family_name)
        correction.save(update_fields=["summary", "reason"])


def _names_in(facts: dict[str, Any]) -> set[str]:
    """The names an identity snapshot gives him, as the summaries write them (family name first)."""
    family, given = facts.get("family_name") or "", facts.get("given_name") or ""
    return {f"{family} {given}".strip(), f"{given} {family}".strip()}
