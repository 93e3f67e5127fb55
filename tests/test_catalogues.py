"""Every language's catalogue is complete: every entry translated (none fuzzy), the placeholders kept, as many
plural forms as the language has, and every text the code marks for translation present (found as `make messages`
finds them)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from django.conf import settings

from tests.conftest import skip_or_fail

LANGUAGES = tuple(code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE)
ROOT = Path(settings.BASE_DIR)
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")
# The same options as the Makefile's `messages` target.
MAKEMESSAGES = ["--no-location", "--no-obsolete", "--ignore=.venv", "--ignore=tests", "--ignore=bench"]


def catalogue(lang: str, root: Path = ROOT) -> Catalog:
    with (root / "locale" / lang / "LC_MESSAGES" / "django.po").open("rb") as po:
        return read_po(po, locale=lang)


def duplicated_msgids(lang: str) -> list[str]:
    """Babel keeps one of two entries with the same msgid; GNU gettext's msgfmt and msgmerge refuse the file."""
    po = (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    # An entry is its context and its msgid: one text may have two meanings ("Change": a rating's; the verb).
    entries = [m.group(0) for m in re.finditer(r'^(?:msgctxt ".*"\n)?msgid ".*"\n(?:".*"\n)*', po, flags=re.M)]
    return sorted({entry for entry in entries if entries.count(entry) > 1})


def msgids(catalog: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(lang: str) -> None:
    catalog = catalogue(lang)
    assert len(msgids(catalog)) > 700
    assert catalog.plural_forms == Catalog(locale=lang).plural_forms, f"the Plural-Forms header of {lang}"
    assert not catalog.fuzzy
    empty = [m.id for m in catalog if m.id and not all(m.string if isinstance(m.string, tuple) else [m.string])]
    forms = [m.id for m in catalog if m.pluralizable and len(m.string) != catalog.num_plurals]
    assert not forms, f"not {catalog.num_plurals} plural forms in {lang}: {forms}"
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not empty, f"untranslated in {lang}: {empty}"
    assert not fuzzy, f"fuzzy in {lang}: {fuzzy}"
    assert not list(catalog.obsolete), f"obsolete entries in {lang}: run `make messages`"
    assert not duplicated_msgids(lang), f"entries twice in {lang}: {duplicated_msgids(lang)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_the_placeholders(lang: str) -> None:
    wrong = []
    for message in catalogue(lang):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        expected = set(PLACEHOLDER.findall(ids[-1]))
        for form, string in enumerate(strings):
            # A singular may name its count in words ("One player matches."), so only the first form may leave it
            # out: every other plural form, or a language's only one (Japanese), must hold it.
            if set(PLACEHOLDER.findall(string)) - set(PLACEHOLDER.findall(" ".join(ids))) or (
                (form > 0 or len(strings) == 1) and expected - set(PLACEHOLDER.findall(string))
            ):
                wrong.append((message.id, string))
    assert not wrong, f"placeholders differ in {lang}: {wrong}"


@pytest.mark.slow
def test_catalogues_hold_every_text_marked_in_the_code(tmp_path: Path) -> None:
    """makemessages into a copy of the code: its msgids must be exactly the catalogues' msgids."""
    if shutil.which("xgettext") is None:
        skip_or_fail("GNU gettext's xgettext is not installed (apt-get install gettext)")
    for name in ("ratings", "federation", "templates", "static"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    for lang in LANGUAGES:
        (tmp_path / "locale" / lang / "LC_MESSAGES").mkdir(parents=True)
    env = {**os.environ, "DEBUG": "1"}
    args = [sys.executable, "manage.py", "makemessages", *(f"-l{lang}" for lang in LANGUAGES), *MAKEMESSAGES]
    subprocess.run(args, cwd=tmp_path, env=env, check=True, capture_output=True)
    for lang in LANGUAGES:
        found, shipped = msgids(catalogue(lang, tmp_path)), msgids(catalogue(lang))
        assert not found - shipped, f"missing from locale/{lang} (run `make messages`): {sorted(found - shipped)}"
        assert not shipped - found, f"no longer in the code (run `make messages`): {sorted(shipped - found)}"
