"""The federation's admin: directors enter tournaments and tables, officers correct and watch re-rating.

Each module registers its own screens; ``grades`` (promotions, for grade officers) and ``upload``
(turnering.txt files) are filled in separately and imported here like the others.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy

from . import (  # noqa: F401 - imported to register
    grades,
    players,
    prior_grade_proposals,
    privacy,
    rerate,
    settle,
    tables,
    tournaments,
    upload,
)

admin.site.site_header = gettext_lazy("FESA ratings: administration")
admin.site.site_title = gettext_lazy("FESA ratings")
admin.site.index_title = gettext_lazy("Tournaments, tables, players and grades")
