"""The characters a name may not hold: the rule the file readers and the site's forms share (ratings/models).

A name is shown on pages, printed in lists and compared by the program's files. Control characters (tabs, NUL,
line breaks), format characters (right-to-left overrides and isolates that reorder the text around them,
zero-width spaces and joiners that hide a difference between two names, soft hyphens) and Unicode's line and
paragraph separators (U+2028, U+2029) show nothing, or show something other than what is stored: refused,
with the character named.
"""

from __future__ import annotations

import unicodedata

from .errors import Phrase, gettext_noop

REFUSED_CATEGORIES = {
    "Cc": Phrase(gettext_noop("a control character")),
    "Cf": Phrase(gettext_noop("an invisible format character")),
    "Zl": Phrase(gettext_noop("a line separator")),
    "Zp": Phrase(gettext_noop("a paragraph separator")),
    "Cs": Phrase(gettext_noop("a surrogate")),
}


def first_refused(text: str) -> tuple[str, Phrase] | None:
    """The first character of ``text`` no name may hold and its kind: ``("U+0009 CHARACTER TABULATION", "a
    control character")``, or None."""
    if text.isprintable():  # in C, and true of almost every name: none of the refused categories is printable
        return None
    for char in text:
        kind = REFUSED_CATEGORIES.get(unicodedata.category(char))
        if kind is not None:
            named = unicodedata.name(char, "")
            return f"U+{ord(char):04X}{' ' + named if named else ''}", kind
    return None


def refused_character(text: str) -> str | None:
    """The first character of ``text`` no name may hold, written ``U+202E RIGHT-TO-LEFT OVERRIDE``, or None."""
    found = first_refused(text)
    return None if found is None else found[0]
