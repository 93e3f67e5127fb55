"""CPU time of the rating list's fifty rows rendered by Jinja2 (what the site does: templates/jinja2/) and by
Django's template engine (the same markup), on the benchmark's federation.

    DATABASE_URL=sqlite:///bench/out/load-demo-20000.sqlite3 python bench/list_rows.py   # load_rating_list.py's

The rows of today's stored list, read once per round; each engine renders them ``--repeat`` times, alternated,
and the median of ``--rounds`` is printed with the load average. CPU time (``time.process_time``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
os.environ.setdefault("DEBUG", "1")

import django

django.setup()

from django.template import engines  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django.utils import translation  # noqa: E402

from ratings.selectors.lists import list_entries  # noqa: E402
from ratings.services.lists import list_stored  # noqa: E402
from ratings.web.tables import RatingListTable  # noqa: E402
from ratings.web.views.paging import paginate_table  # noqa: E402

DJANGO_ROWS = """{% load i18n ratings_public %}{% for row in table.paginated_rows %}{% with e=row.record %}
<tr><td class="num">{{ e.rank|default:"–" }}</td><td class="num extra">{{ e.country_rank|default:"–" }}</td>\
<td><a href="{% url 'ratings:player' e.federation_id %}">{{ e.family_name|upper }}</a> {{ e.given_name }}</td>\
<td><abbr title="{{ e.country.name }}">{{ e.nationality }}</abbr></td><td class="extra club">{% if e.club %}\
<a href="{% url 'ratings:club' e.club.pk %}">{{ e.club.name }}</a>{% endif %}</td><td class="num rating">\
{{ e.rating }}</td><td>{{ e.grade|grade }}{% if e.shown_pending_grade %} <span class="pending">\
({% blocktranslate with grade=e.shown_pending_grade|grade %}{{ grade }} pending{% endblocktranslate %})</span>\
{% endif %}</td><td class="minor">{{ e.prior_grade_label|default:"—" }}</td><td class="num extra">{{ e.games }}\
</td><td class="extra"><span class="cat cat-{{ e.category }}">{{ e.get_category_display }}</span></td>\
<td class="minor">{{ e.last_played|date:"Y-m-d" }}</td></tr>
{% endwith %}{% endfor %}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    translation.activate("en")
    stored = list_stored(None, active=True)
    table = RatingListTable(list_entries(stored).filter(rank__isnull=False))
    paginate_table(table, RequestFactory().get("/"), per_page=50)
    table.clubs_show(stored.date)
    list(table.paginated_rows)
    jinja = engines["jinja2"].get_template("ratings/rating_list_rows.html")
    plain = engines["django"].from_string(DJANGO_ROWS)
    timings: dict[str, list[float]] = {"Jinja2": [], "Django": []}
    for _ in range(args.rounds):
        for name, render in (
            ("Jinja2", lambda: jinja.render({"table": table})),
            ("Django", lambda: plain.render({"table": table})),
        ):
            began = time.process_time()
            for _ in range(args.repeat):
                render()
            timings[name].append((time.process_time() - began) / args.repeat * 1000)
    print(f"load average {os.getloadavg()[0]:.1f}; fifty rows of today's list, {stored.player_count} players")
    for name, values in timings.items():
        print(f"{name:7} {statistics.median(values):5.1f} ms (median of {args.rounds})")


if __name__ == "__main__":
    main()
