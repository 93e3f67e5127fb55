"""The federation's admin: directors enter tournaments and tables, officers correct and watch re-rating.

Each module registers its own screens; a screen of a model's admin (the upload of a turnering.txt, the crosstable)
hangs on that admin's URLs.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy

from . import (  # noqa: F401 - imported to register
    clubs,
    grades,
    official_lists,
    players,
    prior_grade_proposals,
    privacy,
    reports,
    rerate,
    settle,
    subscriptions,
    tables,
    tokens,
    tournaments,
    users,
    whatif,
)

admin.site.site_header = gettext_lazy("FESA ratings: administration")
admin.site.site_title = gettext_lazy("FESA ratings")
admin.site.index_title = gettext_lazy("Tournaments, tables, players and grades")
