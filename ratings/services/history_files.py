"""The bulk downloads of the whole rating history: every rated table with its games and rating changes, as
gzip-compressed CSV and JSON, as the EGD and FIDE offer theirs.

Written after each re-rate (ratings/tasks.py), and by ``manage.py rewrite_derived_files`` after a restore or an
import, into the storage of derived files (``storages["derived"]``, federation/storage.py: ``DOWNLOADS_DIR`` or
an S3-compatible bucket). Each file is made whole in a temporary file first and then handed to the storage, which
replaces the old one at once, so that a download never reads a half-written file and a failed write leaves the
previous file in place.

A store that fails (a bucket that cannot be reached, a full disk) raises ``DerivedFilesUnavailable`` naming the
file and the store's own error: the files are derived, so the re-rate that asked for them stands, and the next
write (the next re-rate, or the command) writes them whole again.
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import json
import logging
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from django.conf import settings
from django.core.files.base import File
from django.core.files.storage import Storage, storages
from django.utils import timezone

from ratings.selectors.history_dump import history_tables
from ratings.selectors.spreadsheet import csv_cell
from ratings.services.queue import enqueue

log = logging.getLogger(__name__)

HISTORY_TASK = "ratings.tasks.task_history_files_write"  # the name ratings/tasks.py registers it under
CSV_NAME = "rating-history.csv.gz"
JSON_NAME = "rating-history.json.gz"
HISTORY_FILES = (CSV_NAME, JSON_NAME)
CSV_COLUMNS = (
    "table_id",
    "date",
    "sequence",
    "tournament",
    "table",
    "country",
    "round",
    "first_id",
    "first_name",
    "first_rating_before",
    "first_rating_after",
    "second_id",
    "second_name",
    "second_rating_before",
    "second_rating_after",
    "result",
    "handicap",
    "handicap_giver",
    "played",
    "replay_draw",
)


class DerivedFilesUnavailable(RuntimeError):
    """The storage of derived files failed to store or read a file; the message names the file and the cause."""


@dataclass(frozen=True)
class HistoryFile:
    name: str
    size: int
    modified: dt.datetime


def derived_storage() -> Storage:
    return storages["derived"]


def _store_gzip(storage: Storage, name: str, write: Callable[[IO[str]], None]) -> None:
    """Compress what ``write`` writes into a temporary file (in memory while small), then store it under
    ``name`` at once; if ``write`` fails, the stored file is left as it was."""
    with tempfile.SpooledTemporaryFile(max_size=8 * 1024 * 1024) as spool:
        with gzip.GzipFile(fileobj=spool, mode="wb", filename="") as packed:
            text = io.TextIOWrapper(packed, encoding="utf-8", newline="")
            write(text)
            text.flush()
            text.detach()
        spool.seek(0)
        try:
            storage.save(name, File(spool, name=name))
        except Exception as exc:  # botocore's, OSError...: every store fails in its own way
            raise DerivedFilesUnavailable(f"the storage of derived files did not store {name}: {exc}") from exc


def _csv_lines(table: dict[str, Any]) -> Iterator[list[Any]]:
    """One line per game, with both players' ratings before and after the table."""
    by_id = {p["federation_id"]: p for p in table["players"]}

    def side(federation_id: str | None) -> list[Any]:
        if federation_id is None:
            return ["", "", "", ""]
        p = by_id.get(federation_id, {})
        name = f"{p.get('family_name', '')} {p.get('given_name', '')}".strip()
        return [federation_id, name, p.get("rating_before"), p.get("rating_after")]

    head = [table["id"], table["date"], table["sequence"], table["tournament"]["name"], table["name"]]
    head.append(table["tournament"]["country"])
    for g in table["games"]:
        tail = [g["result"], g["handicap"], g["handicap_giver"], int(g["played"]), int(g["replay_draw"])]
        yield [*head, g["round"], *side(g["first"]), *side(g["second"]), *tail]


def _write_csv(out: IO[str], tables: Iterator[dict[str, Any]]) -> None:
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for table in tables:
        writer.writerows(["" if v is None else csv_cell(v) for v in line] for line in _csv_lines(table))


def _write_json(out: IO[str], tables: Iterator[dict[str, Any]], generated: dt.datetime) -> None:
    licence = {"name": settings.DATA_LICENCE_NAME, "url": settings.DATA_LICENCE_URL}
    head = {"generated_at": generated.isoformat(), "format": 1, "licence": licence}
    out.write(json.dumps(head)[:-1] + ', "tables": [\n')
    for n, table in enumerate(tables):
        out.write((",\n" if n else "") + json.dumps(table, ensure_ascii=False, separators=(",", ":")))
    out.write("\n]}\n")


def history_files_write() -> list[str]:
    """Write both files anew from the current history; returns their names in the storage."""
    storage = derived_storage()
    generated = timezone.now()
    writers: list[tuple[str, Callable[[IO[str]], None]]] = [
        (CSV_NAME, lambda out: _write_csv(out, history_tables())),
        (JSON_NAME, lambda out: _write_json(out, history_tables(), generated)),
    ]
    for name, write in writers:
        _store_gzip(storage, name, write)
    log.info("wrote the rating history downloads", extra={"files": [name for name, _ in writers]})
    return [name for name, _ in writers]


def history_file_info(name: str) -> HistoryFile | None:
    """A history file's size and when it was written, or None before it is first written."""
    storage = derived_storage()
    if name not in HISTORY_FILES:
        return None
    try:
        if not storage.exists(name):
            return None
        return HistoryFile(name=name, size=storage.size(name), modified=storage.get_modified_time(name))
    except FileNotFoundError:  # removed between the two questions
        return None
    except Exception as exc:
        raise DerivedFilesUnavailable(f"the storage of derived files did not answer for {name}: {exc}") from exc


def history_files_info() -> list[HistoryFile]:
    """The history files there are, with their sizes and when they were written (none before the first re-rate)."""
    return [info for info in (history_file_info(name) for name in HISTORY_FILES) if info is not None]


def history_file_open(name: str) -> IO[bytes]:
    """A history file to read; FileNotFoundError if it was never written (or ``name`` is not one of them),
    DerivedFilesUnavailable if the store cannot be reached."""
    if name not in HISTORY_FILES:
        raise FileNotFoundError(name)
    storage = derived_storage()
    try:
        return storage.open(name, "rb")
    except OSError as exc:
        raise FileNotFoundError(name) from exc
    except Exception as exc:
        raise DerivedFilesUnavailable(f"the storage of derived files did not answer for {name}: {exc}") from exc


def history_files_refresh() -> None:
    """Have the files rewritten once the current transaction commits: for a change that alters what they show
    without a re-rate (an erased player's name). The task is looked up by name: ratings/tasks.py imports this
    module, never the reverse. A broker that is down is logged; the next re-rate rewrites them."""
    enqueue(HISTORY_TASK, failure="could not queue the rating history downloads")
