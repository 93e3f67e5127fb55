"""The FESA rating program's files (shared FESA-FILES.md): pure Python readers and writers, no Django.

- ``lisp``: the Lisp syntax of the state list; ``ratingliste``: the state list and ``nye-spillere``;
- ``turnering``: a director's ``turnering.txt`` (read, check, write) and the engine's input from it;
- ``alltxt``: the public list ``all.txt``; ``result_table``: the published result table;
- ``run``: one run of the program on files (what ``manage.py fesa_run`` does).

Every problem with a file is a :class:`FesaFileError` naming the file and line.
"""

from __future__ import annotations

from .errors import FesaFileError

__all__ = ["FesaFileError"]
