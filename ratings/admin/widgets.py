"""Widgets the federation's admin screens share."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.widgets import AdminDateWidget
from django.db import models
from django.utils.translation import gettext_lazy as _

DATE_HINT = _("YYYY-MM-DD or DD.MM.YYYY")
"""The formats a date field reads (federation/formats): ISO, or day before month; never month first."""

DATE_FIELDS: dict[type[models.Field[Any, Any]], dict[str, Any]] = {
    models.DateField: {"widget": AdminDateWidget(attrs={"placeholder": DATE_HINT, "title": DATE_HINT})},
}
"""``formfield_overrides`` for a ModelAdmin whose date fields people type."""
