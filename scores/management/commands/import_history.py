"""Import a game-history file (docs/history-format.md) into a league: all or nothing."""

from __future__ import annotations

import sys

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_slug
from django.db import transaction

from ...engine.names import clean as clean_name
from ...engine.names import has_surrogate
from ...engine.rules import RulesError
from ...history import services
from ...history.document import HistoryError, load_json
from ...leagues.models import League


class Command(BaseCommand):
    help = (
        "Import the games of a history file into a league, creating the league if it does not exist. "
        "Games the league already has (same id) are skipped. If anything in the file is invalid, nothing "
        "is stored, every problem is listed, and the exit status is 1."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the history file (JSON); - reads standard input")
        parser.add_argument("--league", required=True, metavar="SLUG", help="the league's short name")

    def handle(self, *args, file: str, league: str, **options) -> None:
        try:
            validate_slug(league)
        except ValidationError as error:
            raise CommandError(f"--league {league!r}: a short name has only letters, numbers, hyphens and underscores") from error
        source = self._read(file)
        try:
            with transaction.atomic():  # A league made here is rolled back with a refused file.
                target, created = League.objects.get_or_create(slug=league, defaults={"name": _league_name(source, league)})
                report = services.import_history(league=target, source=source)
        except RulesError as error:
            problems = error.problems
            noun = "problem" if len(problems) == 1 else "problems"
            self.stderr.write(f"{file} has {len(problems)} {noun}:")
            for problem in problems:
                self.stderr.write(f"  {problem}")
            raise CommandError(f"nothing was imported: fix the {noun} above and import the file again", returncode=1) from error
        if created:
            self.stdout.write(f"Created the league {target.name!r} ({target.slug}).")
        self.stdout.write(self.style.SUCCESS(f"Imported {len(report.imported)} games into {target.slug}."))
        for game_id in report.imported:
            self.stdout.write(f"  imported {game_id}")
        if report.skipped:
            self.stdout.write(f"Skipped {len(report.skipped)} games the league already has:")
            for game_id in report.skipped:
                self.stdout.write(f"  skipped {game_id}")
        if report.matched:
            self.stdout.write("Names in the file that are league players spelt another way:")
            for typed, name in report.matched:
                self.stdout.write(f'  "{typed}" is the league\'s player "{name}"')

    def _read(self, file: str) -> bytes:
        if file == "-":
            return sys.stdin.buffer.read()
        try:
            with open(file, "rb") as handle:
                return handle.read()
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from error


def _league_name(source: bytes, slug: str) -> str:
    """The league's name in the file (its ``league.name``), or the short name."""
    try:
        data = load_json(source)
    except HistoryError:
        return slug  # The import reports what is wrong with the file.
    league = data.get("league") if isinstance(data, dict) else None
    name = league.get("name") if isinstance(league, dict) else None
    if not isinstance(name, str) or has_surrogate(name) or not clean_name(name):
        return slug  # A name that is no text is reported with the file's other problems, and nothing is stored.
    return clean_name(name)[:100]
