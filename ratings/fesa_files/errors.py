"""The one exception the FESA file readers and writers raise for bad input."""

from __future__ import annotations


class FesaFileError(Exception):
    """A FESA file is wrong: ``str()`` names the file, the line (when one is to blame) and what is wrong.

    ``file`` is whatever name the caller gave the text (a path, ``turnering.txt``); ``line`` is 1-based or
    ``None`` when the fault belongs to the file as a whole (a table that does not settle, say).
    """

    def __init__(self, file: str, line: int | None, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}, line {self.line}"
        return f"{where}: {self.message}"


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
