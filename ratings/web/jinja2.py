"""The Jinja2 environment of the templates Django's own engine renders too slowly for a page's budget: the rating
list's rows (templates/jinja2/, bench/list_rows.py). It offers what their Django templates use: Django's
translations, URLs by name, and the site's grade labels."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, ngettext
from jinja2 import Environment

from ratings.engine import grade_label


def pending_note(grade: int) -> str:
    """ "1 Dan pending": a Dan grade waiting for approval, beside the grade held."""
    return gettext("%(grade)s pending") % {"grade": grade_label(grade)}


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def environment(**options: Any) -> Environment:
    env = Environment(**options)  # noqa: S701 - Django's backend turns autoescape on unless the settings say not
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(url=url, grade_label=grade_label, pending_note=pending_note)
    return env
