"""``manage.py compile_translations [--stale]``: compile the French and German catalogues (federation/translations.py).

Run at every install and update of the code (docs/deploy.md); the image's build does the same. ``--stale``
compiles only the catalogues that are missing or older than their ``.po``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from federation.translations import catalogues_compile


class Command(BaseCommand):
    help = "Compile the translation catalogues (.po into .mo) with Babel; no GNU gettext needed."
    requires_system_checks = []  # one of the checks is that this command has been run

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--stale", action="store_true", help="only those missing or older than their .po")

    def handle(self, *args: Any, **options: Any) -> None:
        written = catalogues_compile(settings.LOCALE_PATHS, only_stale=options["stale"])
        for mo in written:
            self.stdout.write(f"compiled {mo}")
        if not written:
            self.stdout.write("every catalogue is up to date")
