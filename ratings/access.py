"""Who may do what: the federation's roles as Django groups with their model permissions, and the row rules on
top of them (a director only sees his own tournaments, nobody but a rating officer changes a rated table, who
must confirm his login with a second factor).

The groups are created by a data migration (0002_roles) and kept in step by ``ensure_roles`` (also called by
seed_demo). The admin, the API, the templates' tags and the services ask the rules below; none of them checks a
permission or a role itself (tests/test_layers.py finds a ``can_`` or ``may_`` function defined anywhere else).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django_otp import user_has_device

from ratings.models import AccessToken, AnnouncementStatus, Table, TableStatus, Tournament

TOURNAMENT_DIRECTORS = "Tournament directors"
RATING_OFFICERS = "Rating officers"
GRADE_OFFICERS = "Grade officers"

ROLE_PERMISSIONS: dict[str, list[str]] = {
    TOURNAMENT_DIRECTORS: [
        "add_tournament", "change_tournament", "view_tournament",
        "add_table", "change_table", "delete_table", "view_table",
        "add_tableentry", "change_tableentry", "delete_tableentry", "view_tableentry",
        "add_game", "change_game", "delete_game", "view_game",
        "add_player", "view_player",
        "view_ratingrow", "view_promotion", "view_priorgradeproposal",
        "add_accesstoken", "change_accesstoken", "view_accesstoken",
        "view_club",
    ],
    RATING_OFFICERS: [
        "add_tournament", "change_tournament", "delete_tournament", "view_tournament",
        "add_table", "change_table", "delete_table", "view_table",
        "add_tableentry", "change_tableentry", "delete_tableentry", "view_tableentry",
        "add_game", "change_game", "delete_game", "view_game",
        "add_player", "change_player", "view_player",
        "view_ratingrow", "view_promotion", "view_openingstate",
        "view_pendingrerate", "view_reraterun",
        "view_unsettledtable", "view_tableresolution",
        "view_priorgradeproposal", "change_priorgradeproposal", "view_promotionrevision",
        "add_officiallist", "view_officiallist",  # and the published lists' entries (ratings/admin/official_lists.py)
        "add_accesstoken", "change_accesstoken", "view_accesstoken",
        "add_club", "change_club", "delete_club", "view_club",
        "add_clubmembership", "change_clubmembership", "delete_clubmembership", "view_clubmembership",
        "change_womenslistentry", "view_womenslistentry",
        "change_mistakereport", "view_mistakereport",
    ],
    GRADE_OFFICERS: [
        "view_player", "view_tournament", "view_table", "view_ratingrow",
        "view_promotion", "change_promotion", "view_promotionrevision",
        "view_club",  # public anyway; a tournament's host club links to it
    ],
}  # fmt: skip


def ensure_roles(group_model: Any, permission_model: Any) -> None:
    """Create the groups and give each exactly its permissions; works with historical models too."""
    for name, codenames in ROLE_PERMISSIONS.items():
        group, _ = group_model.objects.get_or_create(name=name)
        permissions = permission_model.objects.filter(content_type__app_label="ratings", codename__in=codenames)
        group.permissions.set(permissions)


User = Any  # a django.contrib.auth user, or AnonymousUser


def _in_group(user: User, name: str) -> bool:
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    # Cached per user object: the admin asks many times per page.
    cache: dict[str, bool] | None = getattr(user, "_ratings_groups", None)
    if cache is None:
        cache = {}
        user._ratings_groups = cache
    if name not in cache:
        cache[name] = user.groups.filter(name=name).exists()
    return cache[name]


def is_rating_officer(user: User) -> bool:
    """Superusers count as rating officers: they may do everything."""
    if getattr(user, "is_superuser", False) and user.is_active:
        return True
    return _in_group(user, RATING_OFFICERS)


def is_director(user: User) -> bool:
    return _in_group(user, TOURNAMENT_DIRECTORS)


def is_grade_officer(user: User) -> bool:
    return _in_group(user, GRADE_OFFICERS)


def sees_everything(user: User) -> bool:
    return is_rating_officer(user) or is_grade_officer(user)


def directs(user: User, tournament: Tournament) -> bool:
    """Whether ``user`` is one of the tournament's directors (a tournament not saved yet has none)."""
    if tournament.pk is None or not getattr(user, "is_authenticated", False):
        return False
    return tournament.directors.filter(pk=user.pk).exists()


def tournaments_visible(user: User, queryset: QuerySet[Tournament] | None = None) -> QuerySet[Tournament]:
    """The tournaments ``user`` may see: all for officers, his own for a director, none for anyone else."""
    qs = Tournament.objects.all() if queryset is None else queryset
    if sees_everything(user):
        return qs
    if is_director(user):
        return qs.filter(directors=user)
    return qs.none()


def tournaments_for_new_tables(user: User) -> QuerySet[Tournament]:
    """The tournaments ``user`` may add a table to: all for rating officers, his own for a director."""
    if is_rating_officer(user):
        return Tournament.objects.all()
    if is_director(user):
        return Tournament.objects.filter(directors=user)
    return Tournament.objects.none()


def tournaments_for_api_tables(user: User) -> QuerySet[Tournament]:
    """The tournaments ``user`` may send a table to through the API (docs/api.md): those he may add a table to,
    once registered with the federation and accepted by a rating officer (ratings/services/season/)."""
    return tournaments_for_new_tables(user).filter(announcement=AnnouncementStatus.ACCEPTED)


def may_hold_access_token(user: User) -> bool:
    """Who may create an access token for himself: those who may add tables (directors, rating officers)."""
    return is_director(user) or is_rating_officer(user)


def access_tokens_visible(user: User, queryset: QuerySet[AccessToken] | None = None) -> QuerySet[AccessToken]:
    """Rating officers see every token (to revoke any); anyone else his own."""
    qs = AccessToken.objects.all() if queryset is None else queryset
    if is_rating_officer(user):
        return qs
    return qs.filter(user=user) if getattr(user, "is_authenticated", False) else qs.none()


def can_revoke_access_token(user: User, token: AccessToken) -> bool:
    """Its owner, or a rating officer."""
    return is_rating_officer(user) or (getattr(user, "is_authenticated", False) and token.user_id == user.pk)


def has_been_rated(tournament: Tournament) -> bool:
    """Whether any of its tables is rated, or was rated once (see ``is_rated``)."""
    return tournament.tables.filter(Q(first_rated_at__isnull=False) | Q(status=TableStatus.RATED)).exists()


def can_view_tournament(user: User, tournament: Tournament) -> bool:
    if sees_everything(user):
        return True
    return is_director(user) and directs(user, tournament)


def can_change_tournament(user: User, tournament: Tournament) -> bool:
    """Rating officers always; its directors until one of its tables has been rated."""
    if is_rating_officer(user):
        return True
    return is_director(user) and directs(user, tournament) and not has_been_rated(tournament)


def can_delete_tournament(user: User, tournament: Tournament) -> bool:
    return is_rating_officer(user)


def tables_visible(user: User, queryset: QuerySet[Table] | None = None) -> QuerySet[Table]:
    """The tables ``user`` may see: those of the tournaments he may see."""
    qs = Table.objects.all() if queryset is None else queryset
    if sees_everything(user):
        return qs
    if is_director(user):
        directed = Tournament.directors.through.objects.filter(tournament_id=OuterRef("tournament_id"), user=user)
        return qs.filter(Exists(directed))
    return qs.none()


def is_rated(table: Table) -> bool:
    """Rated now, or rated once and waiting to be re-rated: either way its numbers are public."""
    return table.status == TableStatus.RATED or table.first_rated_at is not None


def can_view_table(user: User, table: Table) -> bool:
    return can_view_tournament(user, table.tournament)


def can_change_table(user: User, table: Table) -> bool:
    """Rating officers always; the tournament's directors while the table is a draft or waits to be rated."""
    if is_rating_officer(user):
        return True
    return is_director(user) and not is_rated(table) and directs(user, table.tournament)


def can_delete_table(user: User, table: Table) -> bool:
    return can_change_table(user, table)


def can_submit_table(user: User, table: Table) -> bool:
    """Submitting moves a draft on; a submitted or rated table is re-rated by saving it instead."""
    return table.status == TableStatus.DRAFT and can_change_table(user, table)


def is_staff(user: User) -> bool:
    """Everyone at the desk (directors and officers): the staff's own pages, and who made a correction."""
    return bool(user is not None and user.is_active and user.is_staff)


def can_view_users(user: User) -> bool:
    """Whoever holds auth's view_user permission (no role has it: superusers): he sees the users' accounts,
    everyone else a user field as the name it shows."""
    return bool(user.has_perm("auth.view_user"))


def can_create_tournaments(user: User) -> bool:
    """Directors and rating officers; an upload by anyone else must name a tournament he may add tables to."""
    return bool(user.has_perm("ratings.add_tournament"))


def can_create_players(user: User) -> bool:
    """Directors and rating officers: an uploaded table's newcomers (and a nye-spillere file) become players."""
    return bool(user.has_perm("ratings.add_player"))


def can_upload_table(user: User) -> bool:
    """Who may send a turnering.txt through the admin: whoever may add tables (directors, rating officers)."""
    return bool(user.has_perm("ratings.add_table"))


def can_submit_upload(user: User, tournament: Tournament | None) -> bool:
    """Whether an uploaded table may be submitted for rating as it is saved: by a rating officer, or by a
    director into his own tournament or the new one the upload creates."""
    if is_rating_officer(user):
        return True
    return is_director(user) and (tournament is None or directs(user, tournament))


def can_change_prior_grade(user: User) -> bool:
    """A prior grade decides a newcomer's first rating, so correcting one is a rating officer's decision."""
    return is_rating_officer(user)


def may_set_prior_grades(user: User | None) -> bool:
    """Whether the prior grades a file carries are set (a rating officer's import, or the command line with no
    user) rather than proposed to a rating officer."""
    return not getattr(user, "pk", None) or can_change_prior_grade(user)


def can_correct(user: User) -> bool:
    """Rating officers: those who may change tables' games and players."""
    return bool(user.is_active and user.has_perm("ratings.change_game") and user.has_perm("ratings.change_player"))


PUBLISH_PERMISSION = "ratings.add_officiallist"
DECIDE_PERMISSION = "ratings.change_promotion"  # held by the grade officers and superusers only


def can_publish(user: User | None) -> bool:
    """Rating officers (and superusers): the role that carries the permission to publish an official list."""
    return bool(user is not None and user.is_active and user.has_perm(PUBLISH_PERMISSION))


def can_decide(user: User | None) -> bool:
    """Grade officers and superusers decide promotions; rating officers and directors do not."""
    return bool(user is not None and user.is_active and user.has_perm(DECIDE_PERMISSION))


def can_handle_personal_data(user: User) -> bool:
    """Only rating officers see a player's date of birth, and export or erase his personal data
    (docs/privacy.md)."""
    return is_rating_officer(user)


def needs_second_factor(user: User) -> bool:
    """Whether the user must confirm his login with a one-time code before the admin lets him in: rating and
    grade officers and superusers (they can change any player's rating or grade) while the site requires it
    (SECOND_FACTOR_REQUIRED), and anyone, a director too, who has set up an authenticator of his own."""
    if settings.SECOND_FACTOR_REQUIRED and (
        user.is_superuser or _in_group(user, RATING_OFFICERS) or _in_group(user, GRADE_OFFICERS)
    ):
        return True
    return bool(user_has_device(user))
