"""Top players, the most active players and the federation's numbers by year."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from ratings.selectors import list_countries
from ratings.selectors.stats import ACTIVE_DAYS, YearNumbers, federation_by_year, most_active, top_players
from ratings.web.caching import public_page
from ratings.web.charts import bar_chart
from ratings.web.forms import TopListForm


def _year_charts(years: list[YearNumbers]) -> list[tuple[str, SafeString]]:
    oldest_first = years[::-1]
    titles = {
        "tables": _("Rated tables"),
        "games": _("Rated games"),
        "new_players": _("New players"),
        "promotions": _("Promotions"),
    }
    return [
        (title, bar_chart([(str(y.year), getattr(y, name)) for y in oldest_first], title=title, chart_id=name))
        for name, title in titles.items()
    ]


@public_page
def statistics(request: HttpRequest) -> HttpResponse:
    """Top players (overall, or of one country or grade), the most active players of the last twelve months,
    and the federation's numbers by year with their charts."""
    version = getattr(request, "data_version", None)
    form = TopListForm(request.GET or None, countries=list_countries(version))
    if form.is_bound and not form.is_valid():
        country, grade = "", None
    else:
        country = form.cleaned_data.get("country", "") if form.is_bound else ""
        grade = int(form.cleaned_data["grade"]) if form.is_bound and form.cleaned_data.get("grade") else None
    years = federation_by_year(version)
    context = {
        "form": form,
        "section": "statistics",
        "top": list(top_players(country=country, grade=grade)),
        "active": most_active(version),
        "years": years,
        "charts": _year_charts(years),
        "active_days": ACTIVE_DAYS,
    }
    return render(request, "ratings/statistics.html", context, status=400 if form.errors else 200)
