"""Plain rows into the database, for the history import alone.

An import writes every row of a file at once: tens of thousands of games, each with its sides, seats, hands
and a score per side per hand. There ``bulk_create`` spent most of the time building a model instance per
row and compiling each row's SQL, so the import inserts plain values instead, through ``insert_rows``. This
is the only SQL the app writes by hand; everything else, the export included, goes through the ORM.

Nothing is checked or defaulted here and no ids come back: the caller gives every column a value, as the
database takes it (``connection.ops.adapt_…`` for dates, ``get_db_prep_save`` for JSON), and reads the ids
back in one query if the next rows point at them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from django.db import connection, models

ROWS_PER_INSERT = 1000  # On SQLite: rows to a statement.


def _column(field: models.Field | models.ForeignObjectRel) -> str:
    """The field's column: each field a row is inserted with is one of the table's own, not a relation's other end."""
    assert isinstance(field, models.Field) and field.column is not None
    return field.column


def insert_rows(model: type[models.Model], fields: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """Insert ``rows`` (values in ``fields`` order) into ``model``'s table: on PostgreSQL with COPY, on SQLite as
    statements of many rows (psycopg writes each value into a statement's text, and COPY takes them as data)."""
    columns = [model._meta.get_field(name) for name in fields]
    names = ", ".join(connection.ops.quote_name(_column(column)) for column in columns)
    table = connection.ops.quote_name(model._meta.db_table)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for values in rows:
                copy.write_row(values)
        return
    # SQLite: statements of ``size`` rows (the last may have fewer). Those of ``size`` rows are one statement run by
    # executemany: Django turns each of its thousands of ``%s`` into sqlite3's ``?`` once, not once a statement, and
    # sqlite3 prepares it once.
    size = min(ROWS_PER_INSERT, connection.ops.bulk_batch_size(columns, rows)) or 1
    row = f"({', '.join(['%s'] * len(fields))})"

    def statement(count: int) -> str:
        return f"INSERT INTO {table} ({names}) VALUES {', '.join([row] * count)}"

    full = len(rows) - len(rows) % size
    with connection.cursor() as cursor:
        # The values are the fields' database values, of types the stubs' list of parameters does not all name.
        if full:
            chunks = [list(itertools.chain.from_iterable(rows[start : start + size])) for start in range(0, full, size)]
            cursor.executemany(statement(size), chunks)  # type: ignore[arg-type]
        if full < len(rows):
            cursor.execute(statement(len(rows) - full), list(itertools.chain.from_iterable(rows[full:])))  # type: ignore[arg-type]
