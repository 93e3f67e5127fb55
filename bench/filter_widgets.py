"""CPU time of the public filter forms rendered by ratings/web/widgets.py, and by Django's own widget templates.

    python bench/filter_widgets.py            # the database of the settings (e.g. `make demo`'s db.sqlite3)

Each form of ratings/web/filters.py is rendered ``--repeat`` times both ways, in one process, alternated: the
grade filters' selects have forty options, and Django renders each option through a template. The figure in
ratings/web/widgets.py comes from here. CPU time (``time.process_time``): the machine may be shared.
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

from django import forms  # noqa: E402
from django.forms.renderers import Jinja2  # noqa: E402
from django.utils import translation  # noqa: E402

from ratings.web import filters, widgets  # noqa: E402

QUICK = {widgets.QuickSelect: widgets.QuickSelect.render, widgets.QuickInput: widgets.QuickInput.render}
DJANGO = {widgets.QuickSelect: forms.Select.render, widgets.QuickInput: forms.Widget.render}


def render_ms(form_class: type, renders: dict[type, object], repeat: int, renderer: object = None) -> float:
    for widget, render in renders.items():
        widget.render = render  # type: ignore[attr-defined]

    def form() -> forms.Form:
        made = form_class(data={}).form
        if renderer is not None:
            made.renderer = renderer
        return made

    str(form())  # templates loaded, translations read
    began = time.process_time()
    for _ in range(repeat):
        str(form())
    return (time.process_time() - began) / repeat * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    translation.activate("en")
    print(f"load average {os.getloadavg()[0]:.1f}")
    for form_class in (filters.RatingListFilter, filters.TournamentFilter):
        quick, plain, jinja = [], [], []
        for _ in range(args.rounds):
            quick.append(render_ms(form_class, QUICK, args.repeat))
            plain.append(render_ms(form_class, DJANGO, args.repeat))
            jinja.append(render_ms(form_class, DJANGO, args.repeat, Jinja2()))
        print(
            f"{form_class.__name__}: widgets.py {statistics.median(quick):.1f} ms, "
            f"Django's templates {statistics.median(plain):.1f} ms, "
            f"Django's widgets through Jinja2 {statistics.median(jinja):.1f} ms (median of {args.rounds})"
        )


if __name__ == "__main__":
    main()
