"""What the public pages' templates (templates/jinja2/, Jinja2 through django-jinja) use beside Django's filters:
the filters of grades, signed changes and scores (``points`` for the admin's Django templates too),
``row_url`` for the links of a table's rows, ``querystring`` for its sort and page links, the language menu's
languages, and the texts that need a gettext context.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django import template
from django.conf import settings
from django.http import HttpRequest
from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.translation import get_language_info, gettext, pgettext_lazy
from django_jinja import library
from django_tables2.templatetags.django_tables2 import table_page_range

from ratings.engine import grade_label
from ratings.engine.grades import is_dan
from ratings.engine.performance import NO_PERFORMANCE
from ratings.web.tables import grade_text

register = template.Library()


@library.filter
def grade(value: int | None) -> str:
    """ "3 Kyu", "1 Dan", or "" for no grade."""
    return grade_label(value or 0)


@library.filter
def rating_or_dash(value: int | None) -> int | str:
    """The rating, or "–" for none and for the floor a 0% score gives (``NO_PERFORMANCE``): not a strength."""
    return "–" if value is None or value <= NO_PERFORMANCE else value


@library.filter
def percent_below(value: float) -> int:
    """A share of players rated below, in whole percent rounded down: the best of 3,000 is above 99%, never 100%
    (he is not above himself)."""
    return math.floor(value)


@library.filter
def is_kyu(value: int | None) -> bool:
    """Whether ``value`` is a Kyu grade (not "no grade", not Dan): a promotion from it is worth a "was" note."""
    return bool(value) and not is_dan(value or 0)


@library.filter
def grade_pending(value: int | None, pending: int | None) -> str:
    """ "1 Kyu (1 Dan pending)" when a higher Dan grade waits for approval, else the grade alone."""
    return grade_text(value, pending)


@library.filter
def unbroken(value: object) -> str:
    """The text in a ``nowrap`` span, escaped: a grade ("12 Kyu") inside a sentence that may wrap around it."""
    return format_html('<span class="nowrap">{}</span>', value)


@library.filter
def signed(value: float | int | None) -> str:
    """ "+23", "-14", "+0"; "+0.52" with the language's decimal separator ("+0,52"); "" for None (a
    performance-rated player has no change)."""
    if value is None:
        return ""
    if isinstance(value, int):
        return f"{value:+d}"
    shown = number_format(abs(value), decimal_pos=2)  # the reader's decimal mark, as floatformat writes it
    return f"-{shown}" if value < 0 else f"+{shown}"


@register.filter
@library.filter
def points(value: float | str | None) -> str:
    """A score with halves as FESA players write them: 2, 2½, ½ (a number, or its text as a plan holds it: "1.5")."""
    if value is None or value == "":
        return ""
    whole, half = divmod(round(float(value) * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


@library.filter
def pending_note(value: int) -> str:
    """ "1 Dan pending": a Dan grade waiting for approval, beside the grade held."""
    return gettext("%(grade)s pending") % {"grade": grade_label(value)}


_STAND_IN = "9" * 12  # an argument every path converter accepts, and no path holds otherwise


@library.global_function
def row_url(name: str, *leading: object) -> Callable[[object], str]:
    """``reverse(name, args=[*leading, argument])`` for the rows of a page. ``reverse`` looks up the language,
    the script prefix and the URL conf on every call; the rows' function reverses once around a stand-in and puts
    each row's argument in its place, quoted as ``reverse`` quotes it."""
    head, _, tail = reverse(name, args=[*leading, _STAND_IN]).partition(_STAND_IN)
    return lambda argument: f"{head}{quote(str(argument), safe=RFC3986_SUBDELIMS + '/~:@')}{tail}"


@library.global_function
def site_languages() -> list[dict[str, Any]]:
    """The site's languages for the language menu, as Django's ``get_language_info`` gives them."""
    return [get_language_info(code) for code, _name in settings.LANGUAGES]


@library.global_function
def querystring(request: HttpRequest, **params: object) -> str:
    """The request's query string with ``params`` set (a sort, a page), as Django's ``{% querystring %}``."""
    query = request.GET.copy()
    for name, value in params.items():
        query[name] = str(value)
    return f"?{query.urlencode()}"


library.filter(table_page_range)
library.filter(filesizeformat)  # Django's, in the reader's language ("1,2 Mo"), not Jinja2's ("1.2 kB")


# The texts of the pages that need a context (makemessages reads the Jinja2 pages' _() and {% trans %}, not their
# pgettext()): "Change" is a rating's change or what a correction changed, not the verb.
library.global_function("RATING_CHANGE", pgettext_lazy("a rating's change", "Change"))
library.global_function("CORRECTION_CHANGE", pgettext_lazy("what a correction changed", "Change"))


@library.filter(name="date")
def local_date(value: dt.date | str | None, arg: str | None = None) -> str:
    """Django's ``date`` filter as Django's engine applies it: an aware date and time in the site's time zone
    first (a correction made at 23:30 UTC is of the next day in Paris)."""
    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return date_filter(value, arg)
