"""Create (or re-create) the demo league and its demo login."""

from django.core.management.base import BaseCommand

from scores.demo import DEMO_PASSWORD, DEMO_USERNAME, create_demo_league


class Command(BaseCommand):
    help = "Create the demo league with a few finished games, and the demo login."

    def handle(self, *args, **options) -> None:
        league = create_demo_league()
        self.stdout.write(
            self.style.SUCCESS(f"Demo league {league.name!r}: {league.games.count()} games. Log in as {DEMO_USERNAME} / {DEMO_PASSWORD}")
        )
