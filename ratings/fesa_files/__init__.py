"""The FESA rating program's files (shared docs/fesa-files.md): pure Python readers and writers, no Django.

- ``lisp``: the Lisp syntax of the state list; ``ratingliste``: the state list and ``nye-spillere``;
- ``spelling``: the list's records read and written back as lines where they are in the program's spelling;
- ``turnering``: a director's ``turnering.txt`` (read, write) and the engine's input from it, with its values
  in ``turnering_values`` and the checks between its lines in ``turnering_checks``;
- ``alltxt``: the public list ``all.txt``; ``result_table``: the published result table;
  ``published``: a reader of the result tables FESA's season pages publish;
- ``run``: one run of the program on files; ``folders``: over folders (``manage.py fesa_run`` and
  ``python -m ratings.fesa_files``); ``list_order``: the order of the program's list after many runs;
  ``compare``: two lists side by side.

Every problem with a file is a :class:`FesaFileError` naming the file and line.
"""

from __future__ import annotations

from .errors import FesaFileError

__all__ = ["FesaFileError"]
