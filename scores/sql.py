"""Reads and writes of model rows as plain SQL, for the paths every tap takes.

Saving a hand took about ten times a trivial request, and most of that was the
ORM building its queries, not the database answering them (measured by
``make bench``; see BENCHMARKS.md). These helpers keep the models as the one
description of the tables: columns come from the fields, and each field
prepares its own value for the database, as ``save()`` would. Everything else
uses the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import DEFAULT_DB_ALIAS, connections, models


class Columns[M: models.Model]:
    """A model's columns in a SELECT, and its instances made from them as the ORM makes them.

    Several models can share one row: ``f"SELECT {GAME.of('game')}, {LEAGUE.of('league')} FROM ..."``, then
    ``GAME.make(row)`` and ``LEAGUE.make(row, start=len(GAME))``.
    """

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self.fields = model._meta.concrete_fields
        self.names = [field.attname for field in self.fields]
        self._converters: dict[str, list[list]] = {}  # By database vendor: each field's converters.

    def __len__(self) -> int:
        return len(self.fields)

    def of(self, table: str) -> str:
        """The columns, from the table named ``table`` in the query."""
        quote = _db().ops.quote_name
        return cached(("of", self.model, table), lambda: ", ".join(f"{table}.{quote(f.column)}" for f in self.fields))

    def make(self, row: Sequence, start: int = 0) -> M:
        """The instance in ``row`` from ``start`` on, each value converted by its field (dates, booleans, JSON...)."""
        db = _db()
        converters = self._converters.get(db.vendor)
        if converters is None:
            columns = [field.get_col(self.model._meta.db_table) for field in self.fields]
            converters = self._converters[db.vendor] = [
                [(c, column) for c in db.ops.get_db_converters(column) + column.get_db_converters(db)] for column in columns
            ]
        values = list(row[start : start + len(self.fields)])
        for i, field_converters in enumerate(converters):
            for converter, column in field_converters:
                values[i] = converter(values[i], column, db)
        return self.model.from_db(DEFAULT_DB_ALIAS, self.names, values)


def _db():
    """The database connection itself: ``django.db.connection`` is a proxy that looks it up on every use."""
    return connections[DEFAULT_DB_ALIAS]


def rows(query: str, params: Sequence) -> list[tuple]:
    with _db().cursor() as cursor:
        cursor.execute(query, params)
        return cursor.fetchall()


def insert(rows: Sequence[models.Model]) -> None:
    """INSERT rows of one model in one statement."""
    query, params = _insert(rows)
    with _db().cursor() as cursor:
        cursor.execute(query, params)
    for row in rows:
        row._state.adding, row._state.db = False, DEFAULT_DB_ALIAS


def insert_new(row: models.Model) -> bool:
    """INSERT one row, which gets its new id; False, and nothing stored, if it would break a unique constraint.

    No IntegrityError, so no savepoint is needed to carry on with the transaction (PostgreSQL aborts it).
    """
    query, params = _insert([row])
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(f"{query} ON CONFLICT DO NOTHING RETURNING {db.ops.quote_name(row._meta.pk.column)}", params)
        returned = cursor.fetchone()
    if returned is None:
        return False
    row.pk = returned[0]
    row._state.adding, row._state.db = False, DEFAULT_DB_ALIAS
    return True


def _insert(rows: Sequence[models.Model]) -> tuple[str, list]:
    """The INSERT statement for these rows: each field prepares its own value (``auto_now_add`` ones set to now)."""
    meta, db = rows[0]._meta, _db()
    fields = [field for field in meta.concrete_fields if not field.primary_key]

    def statement() -> str:
        quote = db.ops.quote_name
        values = ", ".join(["(" + ", ".join(["%s"] * len(fields)) + ")"] * len(rows))
        return f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) VALUES {values}"

    params = [field.get_db_prep_save(field.pre_save(row, add=True), db) for row in rows for field in fields]
    return cached(("insert", meta.model, len(rows)), statement), params


_statements: dict[tuple, str] = {}


def cached(key: tuple, build: Callable[[], str]) -> str:
    """A statement (or a part of one) built once per database vendor: they are made from the models, which do not change."""
    key = (_db().vendor, *key)
    statement = _statements.get(key)
    if statement is None:
        statement = _statements[key] = build()
    return statement


def update(row: models.Model, names: Sequence[str]) -> None:
    """UPDATE these fields of one row (``auto_now`` ones are set to now, as ``save()`` would)."""
    fields, db = [row._meta.get_field(name) for name in names], _db()

    def statement() -> str:
        quote = db.ops.quote_name
        assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
        return f"UPDATE {quote(row._meta.db_table)} SET {assignments} WHERE {quote(row._meta.pk.column)} = %s"

    with db.cursor() as cursor:
        cursor.execute(
            cached(("update", row._meta.model, *names), statement),
            [*(field.get_db_prep_save(field.pre_save(row, add=False), db) for field in fields), row.pk],
        )
