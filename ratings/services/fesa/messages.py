"""The file readers' messages in the reader's language.

The readers (ratings/fesa_files) know nothing of Django: an error keeps its English template and values, and
the catalogues hold the templates (marked there with ``gettext_noop``). Every page, form and answer of the
API that shows a reader's problem takes its text from here.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from ratings.fesa_files.errors import FesaFileError


def problem_text(error: FesaFileError) -> str:
    """What is wrong, in the active language, without the file and line: "round 2: cannot read the cell '7x'"."""
    return error.translated(_)


def error_text(error: FesaFileError) -> str:
    """The file, the line and what is wrong, in the active language: ``str(error)`` translated."""
    if error.line is None:
        return _("%(file)s: %(problem)s") % {"file": error.file, "problem": problem_text(error)}
    return _("%(file)s, line %(line)s: %(problem)s") % {
        "file": error.file,
        "line": error.line,
        "problem": problem_text(error),
    }
