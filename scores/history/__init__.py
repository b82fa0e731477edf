"""The game-history exchange format (docs/history-format.md).

- ``document``: a document read, checked and written; pure Python, no database.
- ``export``: a league's stored games read from the database and written as JSON or CSV.
- ``services``: a history file imported into a league, all or nothing (its plain-row inserts in ``bulk``).
- ``models``, ``tasks``: an upload kept as an import job and run by the background worker.
- ``forms``, ``views``, ``urls``: downloads for members, uploads for owners.
"""
