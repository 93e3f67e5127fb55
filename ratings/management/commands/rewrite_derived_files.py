"""``manage.py rewrite_derived_files``: write every file derived from the database anew, and forget the kept pages.

The derived files are the rating history downloads (ratings/services/history_files.py), in the storage of
derived files (``DOWNLOADS_DIR`` or a bucket). The official lists keep their files in the database itself, so a
backup holds them and nothing needs rewriting. Run it after a restore (the files would still show the history as
it was before the restore, and kept pages could be those of data the restore removed) and after an import of
FESA files (the files are otherwise written at the next re-rate); docs/deploy.md.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from federation.cache import cache_forget
from ratings.services.history_files import DerivedFilesUnavailable, history_files_write

PAGE_CACHE = "pages"  # settings.CACHES: the public pages kept as anonymous visitors got them


class Command(BaseCommand):
    help = "Write the rating history downloads anew from the database and forget the kept public pages."

    def handle(self, *args: Any, **options: Any) -> None:
        # Its own keys only, never FLUSHDB (the broker may share the Redis); first, so that a store failing
        # below leaves no page of the data before.
        cache_forget(PAGE_CACHE)
        self.stdout.write("forgot the kept public pages")
        try:
            written = history_files_write()
        except DerivedFilesUnavailable as exc:
            raise CommandError(f"{exc}; the files stay as they were: run the command again once it answers") from exc
        for name in written:
            self.stdout.write(f"wrote {name}")
