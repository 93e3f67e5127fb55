"""The bulk downloads of the whole rating history: every rated table with its games and rating changes, as
gzip-compressed CSV and JSON, as the EGD and FIDE offer theirs.

Written after each re-rate (ratings/tasks.py) into ``settings.DOWNLOADS_DIR``, each file first to a temporary
name in the same folder and then renamed over the old one, so that a download never reads a half-written file
and a failed write leaves the previous file in place.
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import json
import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from federation.celery import app as celery_app
from ratings.selectors.history_dump import history_tables
from ratings.selectors.spreadsheet import csv_cell

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


@dataclass(frozen=True)
class HistoryFile:
    name: str
    path: Path
    size: int
    modified: dt.datetime


def downloads_dir() -> Path:
    return Path(settings.DOWNLOADS_DIR)


@contextmanager
def _atomic_gzip(path: Path) -> Iterator[IO[str]]:
    """A text stream, gzip-compressed into a new file that replaces ``path`` only once it is complete."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", filename="") as packed:
            text = io.TextIOWrapper(packed, encoding="utf-8", newline="")
            yield text
            text.flush()
            text.detach()
        os.chmod(temporary, 0o644)  # mkstemp makes it private; these are public downloads
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
    out.write(json.dumps({"generated_at": generated.isoformat(), "format": 1})[:-1] + ', "tables": [\n')
    for n, table in enumerate(tables):
        out.write((",\n" if n else "") + json.dumps(table, ensure_ascii=False, separators=(",", ":")))
    out.write("\n]}\n")


def history_files_write(*, directory: Path | None = None) -> list[Path]:
    """Write both files anew from the current history; returns their paths."""
    folder = directory or downloads_dir()
    folder.mkdir(parents=True, exist_ok=True)
    generated = timezone.now()
    writers: list[tuple[str, Callable[[IO[str]], None]]] = [
        (CSV_NAME, lambda out: _write_csv(out, history_tables())),
        (JSON_NAME, lambda out: _write_json(out, history_tables(), generated)),
    ]
    paths = []
    for name, write in writers:
        with _atomic_gzip(folder / name) as out:
            write(out)
        paths.append(folder / name)
    log.info("wrote the rating history downloads to %s", folder)
    return paths


def history_files_info(*, directory: Path | None = None) -> list[HistoryFile]:
    """The history files there are, with their sizes and when they were written (none before the first re-rate)."""
    folder = directory or downloads_dir()
    found = []
    for name in HISTORY_FILES:
        path = folder / name
        try:
            stat = path.stat()
        except FileNotFoundError:
            continue
        modified = dt.datetime.fromtimestamp(stat.st_mtime, tz=dt.UTC)
        found.append(HistoryFile(name=name, path=path, size=stat.st_size, modified=modified))
    return found


def history_files_refresh() -> None:
    """Have the files rewritten once the current transaction commits: for a change that alters what they show
    without a re-rate (an erased player's name). The task is looked up by name: ratings/tasks.py imports this
    module, never the reverse. A broker that is down is logged; the next re-rate rewrites them."""

    def queue() -> None:
        try:
            celery_app.tasks[HISTORY_TASK].delay()
        except Exception:  # an unreachable broker fails in many ways
            log.warning("could not queue the rating history downloads", exc_info=True)

    transaction.on_commit(queue)
