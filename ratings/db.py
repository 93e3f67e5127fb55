"""What the selectors and services ask of the database below the ORM, and the one place that knows how
PostgreSQL (production) and SQLite (development, most tests) differ in it.

- **Many ids in one statement.** On PostgreSQL the ids go as one array parameter (``ids_condition`` for raw SQL,
  ``ids_in`` for an ORM ``__in``): the driver would otherwise parse a placeholder per id on every query, about a
  tenth of a correction's re-rate and a fifth of a long career's merge preview. SQLite has no arrays and takes
  at most 32766 parameters a statement, so there the ids go as IN lists of at most ``IN_LIST`` ids.
  ``id_batches`` cuts a list of ids so, on both databases or, for those two, on SQLite alone.
- **Raw reads.** ``raw_values`` and ``raw_rows`` return rows as the driver does, without the ORM's per-value
  converters, for reading 10^5 rows and more; JSON columns come as text (``json_column``) and are parsed with
  orjson (``json_value``), dates as the driver gives them (``as_date``).
- **Bulk writes.** ``rows_insert`` (COPY on PostgreSQL, one prepared INSERT on SQLite), ``rows_update`` (COPY
  into a temporary table and one ``UPDATE … FROM``, or one prepared UPDATE) and ``RowStream``, on PostgreSQL a COPY kept
  open and fed by psycopg's queued writer. They use the driver's own cursor: Django's wrapper would check and convert
  every parameter of 10^5 rows again.
- **Around big work.** ``gc_paused``, ``advisory_xact_lock``, ``locked_transaction``, ``statistics_refresh``,
  ``value_statistics_refresh``.
- **Each new connection** (``session_prepare``): PostgreSQL's JIT compilation off.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, closing, contextmanager
from types import TracebackType
from typing import Any

import orjson
from django.db import OperationalError, connection, models, transaction
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL
from psycopg.copy import QueuedLibpqWriter

IN_LIST = 5000  # ids per IN (...) list: SQLite takes at most 32766 parameters a statement


# --- Ids ------------------------------------------------------------------------------------------------------


def arrays() -> bool:
    """Whether a statement takes any number of ids (one array parameter): PostgreSQL, not SQLite."""
    return _postgresql()


def _postgresql() -> bool:
    return connection.vendor == "postgresql"


def id_batches(ids: Sequence[int], *, as_array: bool = False) -> Iterator[Sequence[int]]:
    """``ids`` cut into the batches of one statement each, in their order, ``IN_LIST`` a batch. ``as_array``:
    for ``ids_condition`` or ``ids_in``, which take any number of ids as one array on PostgreSQL: there all in
    one batch."""
    size = max(len(ids), 1) if as_array and arrays() else IN_LIST
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def batched_load(load: Callable[[Sequence[int]], dict[int, Any]], ids: Iterable[int]) -> dict[int, Any]:
    """``load`` over the ids (sorted) ``IN_LIST`` at a time, the results merged."""
    out: dict[int, Any] = {}
    for batch in id_batches(sorted(ids)):
        out.update(load(batch))
    return out


def ids_condition(column: str, ids: Sequence[int]) -> tuple[str, list[Any]]:
    """Raw SQL: ``column`` is one of ``ids`` (one array parameter on PostgreSQL, an IN list on SQLite)."""
    if arrays():
        return f"{column} = ANY(%s)", [list(ids)]
    return f"{column} IN ({', '.join(['%s'] * len(ids))})", list(ids)


def ids_in(ids: Sequence[int]) -> Any:
    """The right-hand side of an ORM ``__in`` filter on many ids: one array parameter on PostgreSQL, the ids
    themselves on SQLite."""
    if arrays():
        return RawSQL("SELECT unnest(%s::bigint[])", [list(ids)])
    return list(ids)


# --- Raw reads ------------------------------------------------------------------------------------------------


def raw_values(queryset: QuerySet[Any], *fields: str) -> list[tuple[Any, ...]]:
    """``queryset.values_list(*fields)`` as the database driver returns it, without the ORM's per-value
    converters (booleans are 0/1 on SQLite, dates ISO text)."""
    sql, params = queryset.values_list(*fields).query.sql_with_params()
    return raw_rows(sql, list(params))


def raw_rows(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of a raw query, as the driver returns them."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


def execute(sql: str, params: Sequence[Any]) -> int:
    """Run a raw statement that writes; the number of rows it changed."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def json_column(quoted: str) -> str:
    """A quoted JSON column read as its text: the ORM's JSON converters would parse it with the json module,
    which is several times slower than ``json_value``."""
    return f"{quoted}::text" if _postgresql() else quoted


def json_value(text: str | bytes) -> Any:
    """A JSON column's stored text as the ORM would give it (orjson reads the same values as the json module)."""
    return orjson.loads(text)


def json_text(value: Any) -> str:
    """JSON text as the database stores it; orjson writes the same JSON as the json module (floats in their
    shortest exact form), several times faster, which counts for the 10^6 game details of a full re-rate."""
    return orjson.dumps(value).decode()


def date_param(value: dt.date) -> Any:
    """A date as a raw query's parameter or a written row's value (SQLite: ISO text)."""
    return date_params()(value)


def date_params() -> Callable[[dt.date | None], Any]:
    """``date_param`` for many rows: the function that makes each date a parameter, looked up once."""
    return connection.ops.adapt_datefield_value


def as_date(value: Any) -> dt.date:
    """A date column as the driver returns it (SQLite: ISO text)."""
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


def index_hint(index: str) -> str:
    """SQLite: the clause after a table's name that has it read through ``index`` (where its planner, with no
    statistics of its own, would pick another); nothing on PostgreSQL, which has no such clause."""
    return "" if _postgresql() else f"INDEXED BY {index}"


# --- Bulk writes ----------------------------------------------------------------------------------------------


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """The model's concrete field of that name or attname."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field) and field.column is not None, f"{name} is no column"
    return field


def _column(model: type[models.Model], name: str) -> str:
    """The quoted column of the model's field of that name or attname."""
    return connection.ops.quote_name(str(_field(model, name).column))


class _Table:
    """A model's table and columns (field names or attnames), quoted, for the driver's own cursor."""

    def __init__(self, model: type[models.Model], columns: Sequence[str]) -> None:
        quote = connection.ops.quote_name
        self.name = quote(model._meta.db_table)
        self.width = len(columns)
        self.columns = ", ".join(_column(model, c) for c in columns)

    def copy(self, cursor: Any, **kwargs: Any) -> Any:
        """PostgreSQL: the COPY of rows into the table (a context manager), with psycopg's options."""
        return cursor.copy(f"COPY {self.name} ({self.columns}) FROM STDIN", **kwargs)


def _driver_cursor() -> Any:
    connection.ensure_connection()
    return closing(connection.connection.cursor())


def rows_insert(model: type[models.Model], columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """INSERT ``rows``, tuples of values as the database takes them (``date_param``, JSON as text) in the order
    of ``columns``: COPY on PostgreSQL, one prepared INSERT run by the driver for every row on SQLite."""
    if not rows:
        return
    table = _Table(model, columns)
    with _driver_cursor() as cursor:
        if _postgresql():
            with table.copy(cursor) as copy:
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join(["?"] * table.width)
        cursor.executemany(f"INSERT INTO {table.name} ({table.columns}) VALUES ({marks})", rows)  # noqa: S608


def rows_delete(
    model: type[models.Model], column: str, ids: Sequence[int] | None, *, returning: Sequence[str] = ()
) -> list[tuple[Any, ...]]:
    """DELETE the rows whose ``column`` is one of ``ids`` (None: every row), ``IN_LIST`` ids a statement; with
    ``returning`` (field names), the deleted rows' values of those columns (none when deleting every row)."""
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    with _driver_cursor() as cursor:
        if ids is None:
            cursor.execute(f"DELETE FROM {table}")  # noqa: S608
            return []
        mark = "%s" if _postgresql() else "?"
        name = _column(model, column)
        tail = f" RETURNING {', '.join(_column(model, c) for c in returning)}" if returning else ""
        deleted: list[tuple[Any, ...]] = []
        for batch in id_batches(ids):
            marks = ", ".join([mark] * len(batch))
            cursor.execute(f"DELETE FROM {table} WHERE {name} IN ({marks}){tail}", list(batch))  # noqa: S608
            if returning:
                deleted.extend(cursor.fetchall())
        return deleted


def rows_read(model: type[models.Model], columns: Sequence[str], *, batch: int = 5000) -> Iterator[tuple[Any, ...]]:
    """Every row of the model's table, its values of ``columns`` as the driver returns them, read ``batch`` rows
    at a time (a server-side cursor on PostgreSQL): for a pass over 10^6 rows that keeps none of them."""
    names = ", ".join(_column(model, c) for c in columns)
    with connection.chunked_cursor() as cursor:
        cursor.execute(f"SELECT {names} FROM {connection.ops.quote_name(model._meta.db_table)}")  # noqa: S608
        while rows := cursor.fetchmany(batch):
            yield from rows


class RowStream:
    """Rows inserted into the model's table as they come, batch by batch, until ``close()``.

    PostgreSQL: one COPY that stays open while its caller goes on, fed by psycopg's queued writer: a row written
    goes into a queue that a thread of psycopg's sends, so the server stores one batch while Python makes the
    next. ``close()`` waits until the server has every row (or raises its error); the next ``write`` opens a
    new COPY. While it is open the connection can run nothing else: a Django query made meanwhile is refused
    with an error (psycopg would wait for the COPY's lock forever). SQLite: each ``write`` is ``rows_insert``.
    """

    def __init__(self, model: type[models.Model], columns: Sequence[str]) -> None:
        self._model, self._columns = model, columns
        self._open: Any = None  # psycopg's Copy, while open
        self._stack = ExitStack()  # the COPY, its cursor and the guard against other queries

    def write(self, rows: Sequence[Sequence[Any]]) -> None:
        """Insert ``rows`` (as for ``rows_insert``); on PostgreSQL queue them, opening the COPY if need be."""
        if not rows:
            return
        if not _postgresql():
            rows_insert(self._model, self._columns, rows)
            return
        if self._open is None:
            with ExitStack() as stack:
                cursor = stack.enter_context(_driver_cursor())
                table = _Table(self._model, self._columns)
                self._open = stack.enter_context(table.copy(cursor, writer=QueuedLibpqWriter(cursor)))
                stack.enter_context(connection.execute_wrapper(_refused_during_copy))
                self._stack = stack.pop_all()
        for row in rows:
            self._open.write_row(row)

    def close(self) -> None:
        """End the COPY, if open: wait until the server has every row queued (or raise its error)."""
        self._open = None
        self._stack.close()

    def abort(self, kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        """End the COPY, if open, failing it with ``error``."""
        self._open = None
        self._stack.__exit__(kind, error, trace)


def _refused_during_copy(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
    """Django's queries while a ``RowStream``'s COPY is open: an error, rather than waiting forever."""
    raise RuntimeError(f"an open COPY holds the connection until its writer ends it; refused: {sql[:80]}")


def rows_update(model: type[models.Model], fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> int:
    """Set ``fields`` of the model's rows: each of ``rows`` is (primary key, *values in ``fields`` order), the
    values as the model's fields hold them. Returns the number of rows updated (missing keys are skipped).

    The ORM's ``bulk_update`` builds one ``CASE WHEN pk = … THEN …`` per row and field; a re-rate that moves the
    ratings of 10^4 players or promotion records spent most of its time there. Here the new values go to the
    database as plain rows: on PostgreSQL by COPY into a temporary table and one ``UPDATE … FROM`` joined on the
    primary key, on SQLite (no COPY, no UPDATE … FROM before 3.33) as one prepared ``UPDATE … WHERE pk = ?``
    run for every row by the driver. Both in the caller's transaction.
    """
    if not rows:
        return 0
    meta = model._meta
    quote = connection.ops.quote_name
    columns = [_field(model, name) for name in fields]
    assert meta.pk is not None
    prepared = [
        (row[0], *(field.get_db_prep_save(value, connection) for field, value in zip(columns, row[1:], strict=True)))
        for row in rows
    ]
    table, pk = quote(meta.db_table), _column(model, meta.pk.name)
    names = [_column(model, name) for name in fields]
    with transaction.atomic(), _driver_cursor() as cursor:
        if _postgresql():
            return _update_from_copy(cursor, table, pk, names, prepared)
        assignments = ", ".join(f"{name} = ?" for name in names)
        cursor.executemany(
            f"UPDATE {table} SET {assignments} WHERE {pk} = ?",  # noqa: S608
            [(*values, row_key) for row_key, *values in prepared],
        )
        return int(cursor.rowcount)


def _update_from_copy(cursor: Any, table: str, pk: str, names: list[str], rows: list[tuple[Any, ...]]) -> int:
    temporary = connection.ops.quote_name("rows_update_values")
    listed = ", ".join([pk, *names])
    # Same column types as the table's own, so COPY and the UPDATE convert nothing. Dropped at the end, so
    # that the next call in the same transaction can make it again; an error rolls its creation back.
    cursor.execute(f"CREATE TEMPORARY TABLE {temporary} AS SELECT {listed} FROM {table} WITH NO DATA")  # noqa: S608
    with cursor.copy(f"COPY {temporary} ({listed}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
    assignments = ", ".join(f"{name} = new.{name}" for name in names)
    cursor.execute(f"UPDATE {table} SET {assignments} FROM {temporary} AS new WHERE {table}.{pk} = new.{pk}")  # noqa: S608
    updated = int(cursor.rowcount)
    cursor.execute(f"DROP TABLE {temporary}")
    return updated


# --- Around big work ------------------------------------------------------------------------------------------


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: a replay keeps 10^6 objects alive, which the collector would walk
    again and again for nearly nothing (about 15% of a full re-rate); any cycles left are collected after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def advisory_xact_lock(*keys: int) -> None:
    """PostgreSQL: hold the advisory lock of ``keys`` (one bigint or two ints) until the transaction ends;
    a second transaction asking for it waits. Nothing on SQLite, which lets one transaction write at a time
    anyway. Must run inside ``transaction.atomic`` (else it would be released at once)."""
    if not _postgresql():
        return
    assert connection.in_atomic_block, "an advisory lock outside a transaction would end at once"
    marks = ", ".join(["%s"] * len(keys))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_advisory_xact_lock({marks})", list(keys))


class LockWaitExceeded(Exception):
    """``locked_transaction`` did not have its lock within the time given; nothing was done."""


@contextmanager
def locked_transaction(key: int, seconds: float) -> Iterator[None]:
    """A transaction holding the lock ``key``, waited for at most ``seconds`` by the database itself (not a
    loop); ``LockWaitExceeded`` when another transaction holds it longer.

    PostgreSQL: the transaction-level advisory lock ``key``, waited for under a ``lock_timeout`` of this
    transaction only; once it is had, the transaction's other locks wait as the session's setting says again.
    SQLite: its write lock, which one transaction holds at a time (``BEGIN IMMEDIATE``), waited for under a
    busy timeout of ``seconds``; the connection's own timeout is given back once it is had.
    """
    if not _postgresql():
        atomic = transaction.atomic()
        with _sqlite_busy_timeout(seconds):
            try:
                atomic.__enter__()  # BEGIN IMMEDIATE: waits for the write lock
            except OperationalError as exc:
                raise LockWaitExceeded(f"the database stayed locked for {seconds:g} s") from exc
        try:
            yield
        except BaseException as exc:
            atomic.__exit__(type(exc), exc, exc.__traceback__)  # rolls back
            raise
        else:
            atomic.__exit__(None, None, None)
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT current_setting('lock_timeout'), set_config('lock_timeout', %s, true)",
                [f"{max(1, round(seconds * 1000))}ms"],
            )
            usual = cursor.fetchone()[0]
            try:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
            except OperationalError as exc:  # lock_timeout: the transaction is aborted and rolls back
                raise LockWaitExceeded(f"another transaction held the lock for more than {seconds:g} s") from exc
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [usual])
        yield


@contextmanager
def _sqlite_busy_timeout(seconds: float) -> Iterator[None]:
    """Wait at most ``seconds`` for SQLite's write lock, then give the connection its own timeout back."""
    if connection.in_atomic_block:  # a savepoint: the outer transaction holds the lock already
        yield
        return
    usual = int(float(connection.settings_dict.get("OPTIONS", {}).get("timeout", 5)) * 1000)
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {usual}")


def statistics_refresh(model: type[models.Model]) -> None:
    """Have the planner's statistics made afresh after the model's rows were all replaced: PostgreSQL's of
    that table; SQLite keeps none until asked, and its ANALYZE covers every table."""
    with connection.cursor() as cursor:
        if _postgresql():
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
        elif connection.vendor == "sqlite":
            cursor.execute("ANALYZE")


def value_statistics_refresh(model: type[models.Model], field: str) -> None:
    """Have PostgreSQL's planner learn the values of one column afresh after rows with a new value were written
    (``ANALYZE table (column)``: a sample of the table, about 0.1 s for half a million list entries). Until
    autovacuum comes by, a value missing from the statistics' most common values is estimated at a few hundred
    rows, whatever it holds, and the plans of its rows go wrong (bench/README.md). SQLite's estimates do not tell
    one value from another: nothing there."""
    if _postgresql():
        with connection.cursor() as cursor:
            table, column = (connection.ops.quote_name(n) for n in (model._meta.db_table, _column(model, field)))
            cursor.execute(f"ANALYZE {table} ({column})")


def session_prepare(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Set up each new database connection (Django's ``connection_created``). On PostgreSQL, JIT compilation is
    turned off: it compiles a plan's expressions when its estimated cost is high, which here are a past date's
    list and the re-rate's reads, and compiling took longer than it saved on them (bench/README.md). A ``SET``,
    not a connection option, so that it passes through a connection pooler too; sent on the driver's connection
    (in autocommit, as Django leaves it here), not as one of the site's queries, which the query counts and
    the replica's routing read."""
    if connection.vendor == "postgresql":
        connection.connection.execute("SET jit = off")
