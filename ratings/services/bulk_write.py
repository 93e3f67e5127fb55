"""Writing many rows' columns at once: one UPDATE from a temporary table on PostgreSQL, one prepared UPDATE on
SQLite.

The ORM's ``bulk_update`` builds one ``CASE WHEN pk = … THEN …`` per row and field; a re-rate that moves the
ratings of 10^4 players or promotion records spent most of its time there. Here the new values go to the
database as plain rows: on PostgreSQL by COPY into a temporary table and one ``UPDATE … FROM`` joined on the
primary key, on SQLite (no COPY, no UPDATE … FROM before 3.33) as one prepared ``UPDATE … WHERE pk = ?`` run
for every row by the driver. Both in the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import closing
from typing import Any

from django.db import connection, models, transaction

from ratings.models import db_column


def rows_update(model: type[models.Model], fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> int:
    """Set ``fields`` of the model's rows: each of ``rows`` is (primary key, *values in ``fields`` order), the
    values as the model's fields hold them. Returns the number of rows updated (missing keys are skipped)."""
    if not rows:
        return 0
    meta = model._meta
    quote = connection.ops.quote_name
    concrete = {name: field for field in meta.concrete_fields for name in (field.name, field.attname)}
    columns = [concrete[name] for name in fields]  # a field without a column of its own is a KeyError
    key = meta.pk
    assert key is not None
    prepared = [
        (row[0], *(field.get_db_prep_save(value, connection) for field, value in zip(columns, row[1:], strict=True)))
        for row in rows
    ]
    table, pk = quote(meta.db_table), quote(db_column(model, key.attname))
    names = [quote(db_column(model, name)) for name in fields]
    with transaction.atomic():
        connection.ensure_connection()
        # The driver's own cursor: Django's wrapper would check every parameter of 10^4 rows again.
        with closing(connection.connection.cursor()) as cursor:
            if connection.vendor == "postgresql":
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
