"""The game-history exchange format (docs/history-format.md).

- ``document``: a document read, checked and written; pure Python, no database.
- ``export``: a league's stored games read from the database and written as JSON or CSV.

Importing into the database is a write: ``scores.history.services``.
"""
