"""The season's calendar: accepted tournaments by month and country, where each tournament's results stand,
and the calendar as iCalendar (RFC 5545) for calendar programs to subscribe to."""

from __future__ import annotations

import datetime as dt
from typing import Any

import icalendar
from django import forms
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.dates import MONTHS
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_countries import countries

from ratings.selectors.season import (
    announced_tournaments,
    calendar_countries,
    calendar_tournaments,
    coming_tournaments,
    status_list,
)
from ratings.web.caching import public_page

ICAL_DAYS_BACK = 365  # a subscribed calendar keeps the past season, not every year


class CalendarForm(forms.Form):
    year = forms.IntegerField(label=gettext_lazy("Year"), min_value=1990, max_value=2200, required=False)
    month = forms.TypedChoiceField(
        label=gettext_lazy("Month"),
        choices=[("", "–"), *MONTHS.items()],
        coerce=int,
        empty_value=None,
        required=False,
    )
    country = forms.ChoiceField(label=gettext_lazy("Country"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("All countries"))] + [(code, countries.name(code)) for code in calendar_countries()]
        country = self.fields["country"]
        assert isinstance(country, forms.ChoiceField)
        country.choices = choices


@public_page
def calendar(request: HttpRequest) -> HttpResponse:
    """The accepted tournaments to come (without a year or a month asked), or of a month, or of a whole year,
    by first day."""
    today = timezone.localdate()
    form = CalendarForm(request.GET)
    context: dict[str, Any] = {"form": form, "section": "calendar"}
    if not form.is_valid():
        return render(request, "ratings/calendar.html", context, status=400)
    country = form.cleaned_data["country"]
    context["country"] = country
    context["ical_url"] = reverse("feeds:calendar_country", args=[country]) if country else reverse("feeds:calendar")
    if not (form.cleaned_data["year"] or form.cleaned_data["month"]):
        suffix = f"&country={country}" if country else ""
        context |= {
            "coming": True,
            "tournaments": coming_tournaments(today=today, country=country),
            "this_month": f"?year={today.year}&month={today.month}{suffix}",
        }
        return render(request, "ratings/calendar.html", context)
    year = form.cleaned_data["year"] or today.year
    month = form.cleaned_data["month"] if form.cleaned_data["year"] else (form.cleaned_data["month"] or today.month)
    context |= {
        "year": year,
        "month": month,
        "month_label": dt.date(year, month, 1) if month else None,
        "tournaments": calendar_tournaments(year=year, month=month, country=country),
    }
    context |= _neighbours(year, month, country)
    return render(request, "ratings/calendar.html", context)


def _neighbours(year: int, month: int | None, country: str) -> dict[str, str]:
    suffix = f"&country={country}" if country else ""
    if month is None:
        return {"previous": f"?year={year - 1}{suffix}", "next": f"?year={year + 1}{suffix}"}
    before = dt.date(year, month, 1) - dt.timedelta(days=1)
    after = dt.date(year, month, 28) + dt.timedelta(days=4)
    return {
        "previous": f"?year={before.year}&month={before.month}{suffix}",
        "next": f"?year={after.year}&month={after.month}{suffix}",
    }


@public_page
def results_status(request: HttpRequest) -> HttpResponse:
    """Has my tournament been rated yet? The tournaments of the last months, each with its stage and dates."""
    today = timezone.localdate()
    context = {
        "rows": status_list(today=today),
        "deadline_days": settings.SEASON_RESULTS_DEADLINE_DAYS,
        "section": "calendar",
    }
    return render(request, "ratings/results_status.html", context)


def calendar_ical(request: HttpRequest, country: str = "") -> HttpResponse:
    """The accepted tournaments from a year ago on, as all-day events (DTEND is exclusive: the day after)."""
    since = timezone.localdate() - dt.timedelta(days=ICAL_DAYS_BACK)
    qs = announced_tournaments().filter(end_date__gte=since).order_by("start_date", "pk")
    if country:
        if not countries.name(country.upper()):  # a calendar named "FESA tournaments ()" that stays empty for ever
            raise Http404
        qs = qs.filter(country=country.upper())
    cal = icalendar.Calendar()
    cal.add("prodid", "-//FESA ratings//season calendar//EN")
    cal.add("version", "2.0")
    name = _("FESA tournaments") + (f" ({countries.name(country.upper())})" if country else "")
    cal.add("x-wr-calname", name)
    host = request.get_host()
    for tournament in qs:
        event = icalendar.Event()
        event.add("uid", f"tournament-{tournament.pk}@{host}")
        event.add("summary", tournament.name)
        event.add("dtstart", tournament.start_date)
        event.add("dtend", tournament.end_date + dt.timedelta(days=1))
        event.add("dtstamp", tournament.reviewed_at or tournament.created_at)
        if tournament.place:
            event.add("location", tournament.place)
        details = [tournament.time_control, tournament.mode, tournament.announcement_url]
        event.add("description", "\n".join(d for d in details if d))
        event.add("url", request.build_absolute_uri(reverse("ratings:tournament", args=[tournament.pk])))
        cal.add_component(event)
    response = HttpResponse(cal.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="fesa-tournaments{"-" + country if country else ""}.ics"'
    return response
