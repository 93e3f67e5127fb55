"""The one exception the FESA file readers and writers raise for bad input.

A reader's message is English, and also kept as its template and values, so that the site can show it in the
reader's language: ``error.translated(gettext)``. The templates are marked with :func:`gettext_noop`, which the
site's ``makemessages`` collects into its catalogues; this package itself stays free of Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the site's catalogues (its name is the one ``makemessages`` looks for); returns it as is."""
    return message


class Phrase(str):
    """A message's value that is itself words to translate ("a control character"), marked with gettext_noop."""


class FesaFileError(Exception):
    """A FESA file is wrong: ``str()`` names the file, the line (when one is to blame) and what is wrong.

    ``file`` is whatever name the caller gave the text (a path, ``turnering.txt``); ``line`` is 1-based or
    ``None`` when the fault belongs to the file as a whole (a table that does not settle, say). ``message`` is
    the English text; with ``params`` it is a ``%(name)s`` template filled with them, kept as ``template``; a
    value that is a :class:`Phrase` is translated too.
    """

    def __init__(self, file: str, line: int | None, message: str, params: Mapping[str, Any] | None = None) -> None:
        self.file = file
        self.line = line
        self.template = message
        self.params = dict(params) if params is not None else None
        self.message = message if params is None else message % params
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}, line {self.line}"
        return f"{where}: {self.message}"

    def moved(self, lines: int) -> FesaFileError:
        """The same problem with every line number ``lines`` further (the line's, and values named ``line`` or
        ending in ``_line``): for a text read with lines put before it."""
        if self.line is None and not self.params:
            return self

        def move(key: str, value: Any) -> Any:
            named = key == "line" or key.endswith("_line")
            return value + lines if named and isinstance(value, int) else value

        params = None if self.params is None else {k: move(k, v) for k, v in self.params.items()}
        return FesaFileError(self.file, None if self.line is None else self.line + lines, self.template, params)

    def translated(self, gettext: Callable[[str], str]) -> str:
        """The message in the language ``gettext`` translates to; a text without a translation stays as it is."""
        text = gettext(self.template)
        if self.params is None:
            return text
        return text % {k: gettext(v) if isinstance(v, Phrase) else v for k, v in self.params.items()}


class FesaFileErrors(FesaFileError):
    """Several problems found in one reading; the first is the exception's own, ``errors`` holds them all.

    Callers that handle a single FesaFileError keep working; those that can show a list (the upload preview)
    read ``errors``.
    """

    def __init__(self, errors: list[FesaFileError]) -> None:
        self.errors = list(errors)
        first = self.errors[0]
        more = len(self.errors) - 1
        message = first.message if not more else f"{first.message} (and {more} more problem{'s' if more > 1 else ''})"
        super().__init__(first.file, first.line, message)


def raise_collected(errors: list[FesaFileError]) -> None:
    """Raise the collected problems: one as itself, several as FesaFileErrors; nothing when there are none."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise FesaFileErrors(errors)
