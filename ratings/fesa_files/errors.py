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
