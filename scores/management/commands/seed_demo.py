"""Create (or re-create) the demo league and its demo login."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from ...demo import DEMO_PASSWORD, DEMO_USERNAME, create_demo_league


class Command(BaseCommand):
    help = "Create the demo league with a few finished games, and the demo login."

    def add_arguments(self, parser: CommandParser) -> None:
        languages = [code for code, _name in settings.LANGUAGES]
        parser.add_argument("--language", choices=languages, default=settings.LANGUAGE_CODE, help="the language of its names")

    def handle(self, *args, **options) -> None:
        league = create_demo_league(language=options["language"])
        self.stdout.write(
            self.style.SUCCESS(f"Demo league {league.name!r}: {league.games.count()} games. Log in as {DEMO_USERNAME} / {DEMO_PASSWORD}")
        )
