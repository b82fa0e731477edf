"""Export a league's games in the history format (JSON), or as a zip of CSV files for spreadsheets."""

from __future__ import annotations

import os
import sys
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ...history import export
from ...leagues.models import League


class Command(BaseCommand):
    help = (
        "Export every game of a league. --format json (the default) writes the history document "
        "(docs/history-format.md) to standard output or --output. --format csv writes a zip of "
        "games.csv, hands.csv, scores.csv and standings.csv to --output, or to standard output when it is redirected "
        "to a file or a pipe (never to a terminal). --seasons adds each game's season (a key of this app's, beside "
        "the exchange format), so a league moved by file keeps its seasons."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--league", required=True, metavar="SLUG", help="the league's short name")
        parser.add_argument("--format", choices=("json", "csv"), default="json", help="json (default) or csv (a zip)")
        parser.add_argument("--output", metavar="FILE", help="write to this file instead of standard output")
        parser.add_argument("--seasons", action="store_true", help="write each game's season (its name and first day)")

    def handle(self, *args, league: str, format: str, output: str | None, seasons: bool = False, **options) -> None:
        found = League.objects.filter(slug=league).first()
        if found is None:
            raise CommandError(f"there is no league with the short name {league!r}")
        games = found.games.all()
        if output is not None:
            try:
                with open(output, "wb") as handle:
                    for chunk in self._chunks(games, found, format, seasons):
                        handle.write(chunk if isinstance(chunk, bytes) else chunk.encode())
            except OSError as error:
                raise CommandError(f"cannot write {output}: {error.strerror}") from error
            self.stderr.write(f"Exported {games.count()} games of {found.slug} to {output}.")
        else:
            # The stream the command writes to (the stubs leave out OutputWrapper._out), or for a zip its bytes.
            stream: IO[Any] = self.stdout._out  # type: ignore[assignment]
            if format != "json":
                buffer = getattr(stream, "buffer", None)
                if buffer is None or self.stdout.isatty():
                    raise CommandError("a zip is not for a terminal: give --output FILE or redirect standard output to a file")
                stream = buffer
            try:
                for chunk in self._chunks(games, found, format, seasons):
                    stream.write(chunk)
                stream.flush()
            except BrokenPipeError:
                # The reader went away (``export_history … | head``): stop quietly, and point standard
                # output at nothing so the interpreter's final flush cannot fail again.
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())

    def _chunks(self, games, league: League, format: str, seasons: bool):
        if format == "json":
            return export.export_json(games, league_name=league.name, seasons=seasons)
        return export.export_csv_zip(games, league=league, seasons=seasons)
