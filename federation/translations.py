"""The catalogues of every language: compiled from ``locale/*/LC_MESSAGES/django.po`` into the ``.mo`` files
Django reads, with Babel (pure Python: no GNU gettext on the server).

The ``.mo`` files are built, never committed, so every way of putting the site on a server compiles them: the
image's build (Dockerfile), the documented install and update (``deploy/fesa-manage compile_translations``),
``make``. A site started with DEBUG off and a catalogue missing or older than its ``.po`` would serve English
to that language's visitors without a word in any log: the check below stops ``migrate`` (run before the web
process starts) and ``check`` with a message saying what to run.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.core import checks


def catalogues(locale_dirs: Iterable[Path]) -> list[Path]:
    """Every ``django.po`` of the site's languages."""
    return sorted(po for folder in locale_dirs for po in Path(folder).glob("*/LC_MESSAGES/django.po"))


def catalogue_is_stale(po: Path) -> bool:
    mo = po.with_suffix(".mo")
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


def catalogues_compile(locale_dirs: Iterable[Path], *, only_stale: bool = False) -> list[Path]:
    """Write each catalogue's ``.mo`` beside its ``.po`` (first to a new file, then renamed over the old one, so
    a running site never reads half of one); returns the ``.mo`` files written."""
    written = []
    for po in catalogues(locale_dirs):
        if only_stale and not catalogue_is_stale(po):
            continue
        mo = po.with_suffix(".mo")
        partial = mo.with_name(f".{mo.name}.partial")
        with po.open("rb") as source, partial.open("wb") as target:
            write_mo(target, read_po(source, locale=po.parent.parent.name))
        partial.replace(mo)
        written.append(mo)
    return written


@checks.register(checks.Tags.translation)
def check_catalogues_compiled(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """With DEBUG off, every catalogue must be compiled and no older than its source."""
    if settings.DEBUG:
        return []  # a developer's make targets and the tests compile them themselves
    stale = [po for po in catalogues(settings.LOCALE_PATHS) if catalogue_is_stale(po)]
    if not stale:
        return []
    languages = ", ".join(po.parent.parent.name for po in stale)
    return [
        checks.Error(
            f"the translations ({languages}) are not compiled or older than their .po files: the site would "
            "serve English to those visitors",
            hint="run deploy/fesa-manage compile_translations (manage.py compile_translations), as "
            "docs/deploy.md's install and update steps do",
            id="federation.E001",
        )
    ]
