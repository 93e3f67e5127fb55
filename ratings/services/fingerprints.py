"""Edit fingerprints: an edit saves only onto the state its person loaded and previewed.

Every edit that starts from a loaded state (a correction of a table or a player, a merge and its undo, the
replacement of a player, a grade decision or revision, the answer to a prior-grade proposal, publishing an
official list) goes through two requests or more: the page shows the state and what the edit would change,
then the person confirms. Between the two another person may have changed the same object; saving then would
undo that change unseen, or save something other than what was previewed.

So the page carries the *version* of what it showed: a fingerprint (SHA-256) of the object's facts as the
service reads them, with the moment they were read, in one hidden field. The service that saves reads the facts
again inside its transaction, after locking the object's row (``select_for_update``: a second officer's save
waits for the first to commit, then finds the facts changed), and compares. On a difference it raises
``ChangedMeanwhile``, writing nothing; its message says who changed what and when since the page was loaded,
from the corrections and the audit history. A fingerprint rather than a version column: the facts an edit
starts from span several tables (a table's entries and games, the rows a merge moves, the rows of a rating
list), and a hash of exactly those facts moves whenever any of them does, whoever wrote it.

Services take ``expected`` as a required argument and own the check: the version string the page carried,
or None where no page was shown (a command, an import, a service that checked it already). The admin passes the
hidden field through as posted, never None: a request without it (a tab opened before the pages carried it, a
script) is refused with ``VersionMissing`` rather than saved onto whatever the object is now.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterable
from typing import Any

import orjson
from django.utils import timezone
from django.utils.translation import gettext as _

VERSION_FIELD = "_version"
"""The hidden form field that carries the version of what a page showed."""


class ChangedMeanwhile(Exception):
    """The object changed since its page was loaded; nothing was saved. ``changes``: who changed what, when."""

    def __init__(self, changes: Iterable[str] = ()) -> None:
        self.changes = list(changes)
        text = _("This changed since you loaded it, so nothing was saved: reload it and make your change again.")
        if self.changes:
            text = " ".join([text, _("Changed meanwhile: %(changes)s") % {"changes": "; ".join(self.changes)}])
        super().__init__(text)


class VersionMissing(ChangedMeanwhile):
    """The change came without the version of what its page showed: it may start from anything, so it is refused."""

    def __init__(self) -> None:
        Exception.__init__(
            self,
            _(
                "This change came without the version of the page it was made on (a page opened before the site "
                "changed, or another program), so nothing was saved: reload the page and make your change again."
            ),
        )
        self.changes = []


def fingerprint(facts: Any) -> str:
    """The SHA-256 of ``facts`` (JSON-able: dicts, lists, strings, numbers, dates), keys sorted."""
    data = orjson.dumps(facts, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)
    return hashlib.sha256(data).hexdigest()


def version_of(facts: Any, *, now: dt.datetime | None = None) -> str:
    """The version string of ``facts`` as read now: ``<microseconds since the epoch>-<fingerprint>``."""
    moment = now or timezone.now()
    return f"{int(moment.timestamp() * 1_000_000)}-{fingerprint(facts)}"


def loaded_at(version: str) -> dt.datetime | None:
    """When the facts of ``version`` were read; None for a malformed version."""
    stamp, _sep, digest = version.partition("-")
    if not stamp.isdigit() or len(digest) != 64:
        return None
    return dt.datetime.fromtimestamp(int(stamp) / 1_000_000, tz=dt.UTC)


def version_check(
    expected: str | None, facts: Any, *, changes: Callable[[dt.datetime | None], list[str]] | None = None
) -> None:
    """Raise ChangedMeanwhile unless ``facts`` (read now, with the object locked) are those of ``expected``.

    ``expected`` None asks for no check (no page was shown); an empty one (a page posted without its version)
    raises VersionMissing. ``changes(since)`` lists what was recorded since the version was read (None: the
    version gave no time), for the message.
    """
    if expected is None:
        return
    if not expected.strip():
        raise VersionMissing
    since = loaded_at(expected)
    if since is not None and expected.partition("-")[2] == fingerprint(facts):
        return
    raise ChangedMeanwhile(changes(since) if changes is not None else [])


def when(moment: dt.datetime) -> str:
    """A moment as the officers read it: the site's local date and time to the second."""
    return f"{timezone.localtime(moment):%Y-%m-%d %H:%M:%S}"


def by(user: Any) -> str:
    return str(getattr(user, "username", "") or _("someone without a login (a command or the re-rate)"))


def history_lines(records: Iterable[Any], *, what: Callable[[Any], str]) -> list[str]:
    """Audit-history records (django-simple-history) as "when, who: what", one line per moment and person."""
    lines: list[str] = []
    for record in records:
        line = f"{when(record.history_date)}, {by(record.history_user)}: {what(record)}"
        if line not in lines:
            lines.append(line)
    return lines
