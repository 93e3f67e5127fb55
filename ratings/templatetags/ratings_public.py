"""Template filters of the public pages (grades, signed changes, scores), and the tables' rows written by hand.

The rows of the search (``search_rows``), of a tournament's standings (``standings_rows``) and of the
django-tables2 tables with ``render_<column>`` methods (``table_rows``) are written here in Python, the one place
the public site writes rows by hand (ratings/web/widgets.py writes the filters' fields): those pages are made
afresh after every change of the data, and the rows cost more through the template engine than the rest of the
page (bench/README.md, ``first_view.py``). They are the markup the templates wrote (tests/public/test_fast_rows.py).
The rating list's rows are a Jinja2 template (``rating_list_rows``: templates/jinja2/ratings/rating_list_rows.html).
"""

from __future__ import annotations

import inspect
from typing import Any

from django import template
from django.template import engines
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ratings.engine import grade_label
from ratings.engine.grades import is_dan
from ratings.engine.performance import NO_PERFORMANCE
from ratings.web.tables import grade_text

register = template.Library()


@register.filter
def grade(value: int | None) -> str:
    """ "3 Kyu", "1 Dan", or "" for no grade."""
    return grade_label(value or 0)


@register.filter
def rating_or_dash(value: int | None) -> int | str:
    """The rating, or "–" for none and for the floor a 0% score gives (``NO_PERFORMANCE``): not a strength."""
    return "–" if value is None or value <= NO_PERFORMANCE else value


@register.filter
def is_kyu(value: int | None) -> bool:
    """Whether ``value`` is a Kyu grade (not "no grade", not Dan): a promotion from it is worth a "was" note."""
    return bool(value) and not is_dan(value or 0)


@register.filter
def grade_pending(value: int | None, pending: int | None) -> str:
    """ "1 Kyu (1 Dan pending)" when a higher Dan grade waits for approval, else the grade alone."""
    return grade_text(value, pending)


@register.filter
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
def points(value: float | None) -> str:
    """A score with halves as FESA players write them: 2, 2½, ½."""
    if value is None:
        return ""
    whole, half = divmod(round(value * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


@register.simple_tag
def rating_list_rows(table: Any) -> SafeString:
    """The rating list's rows (``table.paginated_rows``), from a Jinja2 template (ratings/web/jinja2.py): through
    Django's engine the fifty rows cost twice as much, most of a list page's first-view budget (bench/README.md)."""
    rows = engines["jinja2"].get_template("ratings/rating_list_rows.html").render({"table": table})
    return mark_safe(rows)  # noqa: S308 - Jinja2 escaped every value (Django's backend turns autoescape on)


class _Names:
    """Writes players' names as ratings/_player_name.html does, for the rows written in Python: the texts
    translated, and each country's name looked up, once per page rather than once per row."""

    def __init__(self, namesakes: set[int]) -> None:
        self.namesakes = namesakes
        self.player_url = reverse("ratings:player", args=["_"])[:-2]
        self.namesake_title = escape(_("Another player has this name"))
        self.countries: dict[str, str] = {}

    def country_name(self, country: Any) -> str:
        """The escaped name of ``country`` (a django-countries Country with a code)."""
        if country.code not in self.countries:
            self.countries[country.code] = escape(str(country.name))
        return self.countries[country.code]

    def lives_in(self, p: Any) -> str:
        """ "lives in NL" for a player living outside his nationality's country, else ""."""
        code, lives = p.nationality.code or "", p.residence.code or ""
        return escape(_("lives in %(country)s") % {"country": lives}) if lives and lives != code else ""

    def name(self, p: Any) -> str:
        fid = escape(p.federation_id)
        name = f'<a href="{self.player_url}{fid}/">{escape(p.family_name.upper())} {escape(p.given_name)}'
        if p.latin_family_name:
            latin = f"{escape(p.latin_family_name.upper())} {escape(p.latin_given_name)}"
            name += f' <span class="latin-name">({latin})</span>'
        name += "</a>"
        if p.pk in self.namesakes:
            code, lives_in = escape(p.nationality.code or ""), self.lives_in(p)
            told = fid + (f" · {code}" if code else "") + (f" · {lives_in}" if lives_in else "")
            name += f' <span class="namesake" title="{self.namesake_title}">{told}</span>'
        return name


@register.simple_tag
def search_rows(result: Any) -> SafeString:
    """The search page's rows (``result``: a ratings.selectors.search.SearchResult), as the template wrote them
    with ratings/_player_name.html, written in Python: fifty rows through the template engine, each with its
    countries compared, cost most of a search that no cache can keep."""
    names = _Names(result.namesakes)
    professional = escape(_("professional"))
    rows = []
    for p in result.players:
        nationality = p.nationality  # each read makes a Country: once per row
        code, lives_in, fid = escape(nationality.code or ""), names.lives_in(p), escape(p.federation_id)
        name = names.name(p)
        if p.is_professional or p.prior_grade_kind == "pro":
            name += f' <span class="minor">{professional}</span>'
        country = f'<abbr title="{names.country_name(nationality)}">{code}</abbr>' if code else ""
        if lives_in:
            country += f' <span class="minor">({lives_in})</span>'
        rating = p.rating if p.games else "–"
        shown_grade = escape(grade_label(p.grade or 0)) or "–"
        last = p.last_played.isoformat() if p.last_played else "–"
        rows.append(
            f'      <tr>\n        <th scope="row">{name}</th>\n        <td class="minor">{fid}</td>\n'
            f'        <td>{country}</td>\n        <td class="num">{rating}</td>\n        <td>{shown_grade}</td>\n'
            f'        <td class="minor">{last}</td>\n      </tr>'
        )
    return mark_safe("\n".join(rows))  # noqa: S308 - every value in the rows is escaped above


@register.simple_tag
def standings_rows(table_standings: Any, namesakes: set[int]) -> SafeString:
    """A tournament's table's rows (``table_standings``: a ratings.selectors.tournaments.TableStandings), its
    standings with the crosstable's rounds, as templates/ratings/tournament_detail.html wrote them, written in
    Python: through the template engine the rows, a dozen cells and more each, take more than a third of the
    page's first-view budget (bench/README.md, ``first_view.py``)."""
    names = _Names(namesakes)
    table_id = table_standings.crosstable.table.pk
    how, new = escape(_("How the rating moved")), escape(_("new"))
    # Each player's link to the table's explanation, and his name as his opponents' cells' title, made once.
    change_url = reverse("ratings:player_table", args=["_", table_id]).split("/_/")
    titles = {s.row.player.pk: escape(str(s.row.player)) for s in table_standings.standings}
    rows = []
    for s in table_standings.standings:
        row, p = s.row, s.row.player
        nationality = p.nationality
        country = (
            f'<abbr title="{names.country_name(nationality)}">{escape(nationality.code)}</abbr>' if nationality else ""
        )
        rating = "" if row.rating is None else f"{rating_or_dash(row.rating)}{'*' if row.starred else ''}"
        change: str = escape(signed(row.change))
        if row.row:
            url = f"{change_url[0]}/{escape(p.federation_id)}/{change_url[1]}"
            if row.starred:
                shown = f'<span class="minor">{new}</span>'
            else:
                outcome = "win" if row.change > 0 else "loss" if row.change < 0 else ""
                shown = f'<span class="{outcome}">{change}</span>'
            change = f'<a href="{url}" title="{how}">{shown}</a>'
        cells = []
        for cell in row.cells:
            text: str = escape(cell.text)
            if cell.opponent:
                text = f'<a href="#t{table_id}-s{cell.opponent_seat}" title="{titles[cell.opponent.pk]}">{text}</a>'
            forfeit = "" if cell.played else "<sup>ff</sup>"
            cells.append(f'        <td class="cell {escape(cell.outcome)}">{text}{forfeit}</td>\n')
        performance = "" if s.performance is None else rating_or_dash(s.performance)
        rows.append(
            f'      <tr id="t{table_id}-s{row.seat}">\n'
            f'        <td class="num place"><strong>{escape(s.place_label)}</strong></td>\n'
            f'        <td class="num minor seat">{row.seat}</td>\n'
            f'        <th scope="row">{names.name(p)}</th>\n'
            f'        <td class="minor">{country}</td>\n'
            f'        <td class="minor">{escape(grade_label(row.grade or 0))}</td>\n'
            f'        <td class="num">{rating}</td>\n'
            f'        <td class="num"><strong>{escape(points(row.points))}</strong></td>\n'
            f'        <td class="num minor">{performance}</td>\n'
            f'        <td class="num">{change}</td>\n'
            f'        <td class="num">{rating_or_dash(row.row.rating_after) if row.row else ""}</td>\n'
            f"{''.join(cells)}"
            "      </tr>"
        )
    return mark_safe("\n".join(rows))  # noqa: S308 - every value in the rows is escaped above


def _resolve(record: Any, accessor: str) -> Any:
    """``record``'s value at a django-tables2 accessor ("table__date"), None past a missing step."""
    value = record
    for step in str(accessor).replace(".", "__").split("__"):
        if value is None:
            return None
        value = getattr(value, step)
    return value


@register.simple_tag
def table_rows(table: Any) -> SafeString:
    """A django-tables2 table's rows, as its template (django_tables2/table.html) writes them, with each cell of
    a column that has a ``render_<column>(record)`` method taken from that method directly: the per-cell
    machinery (accessor look-ups, ``get_FOO_display``, signature inspection for every cell) cost most of the
    pages of tournaments and promotions. Other cells, and the empty ones, are as django-tables2 makes them."""
    plans = []
    for column in table.columns:
        render = getattr(table, f"render_{column.name}", None)
        fast = render is not None and set(inspect.signature(render).parameters) == {"record"}
        plans.append((column, f"<td {column.attrs['td'].as_html()}>", render if fast else None))
    rows = []
    for row in table.paginated_rows:
        record = row.record
        cells = []
        for column, td, render in plans:
            if render is None:
                cell = row.get_cell(column.name)
            elif _resolve(record, column.accessor) in column.column.empty_values:
                cell = column.default
            else:
                cell = render(record=record)
            cells.append(f"{td}{conditional_escape(cell)}</td>")
        rows.append(f"<tr {row.attrs.as_html()}>{''.join(cells)}</tr>")
    if not rows and table.empty_text:
        return format_html('<tr><td colspan="{}">{}</td></tr>', len(table.columns), table.empty_text)
    return mark_safe("\n".join(rows))  # noqa: S308 - every cell is escaped or safe from its render method
