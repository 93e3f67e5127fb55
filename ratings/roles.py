"""The federation's roles as Django groups, and what each may do.

Created by a data migration (0002_roles) and kept in step by ``ensure_roles`` (also called by seed_demo).
Row-level rules (a director only sees his own tournaments, nobody but a rating officer changes a rated table)
are enforced in ratings/permissions.py on top of these model permissions.
"""

from __future__ import annotations

from typing import Any

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
        "add_officiallist", "view_officiallist", "view_officiallistentry",
    ],
    GRADE_OFFICERS: [
        "view_player", "view_tournament", "view_table", "view_ratingrow",
        "view_promotion", "change_promotion", "view_promotionrevision",
    ],
}  # fmt: skip


def ensure_roles(group_model: Any, permission_model: Any) -> None:
    """Create the groups and give each exactly its permissions; works with historical models too."""
    for name, codenames in ROLE_PERMISSIONS.items():
        group, _ = group_model.objects.get_or_create(name=name)
        permissions = permission_model.objects.filter(content_type__app_label="ratings", codename__in=codenames)
        group.permissions.set(permissions)
