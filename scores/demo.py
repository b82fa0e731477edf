"""A demo league with a few finished games, so a fresh install has something to look at."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.db import transaction

from . import rules, selectors, services
from .models import League, Membership, Role

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "pitch-demo-league"  # Shown in the README and printed by `make run`; demo data only.


def random_hand(rng: random.Random, table: rules.Table) -> rules.Hand:
    """A plausible hand: any pitcher and bid, points spread over the sides."""
    sides = table.sides
    return rules.Hand(
        pitcher=rng.choice(table.seats),
        bid=rng.choice(table.rules.bids),
        high=rng.choice(sides),
        low=rng.choice(sides),
        jack=rng.choice([*sides, None]),
        game=rng.choice([*sides, None]),
    )


def play_out(game, rng: random.Random, max_hands: int = 200) -> None:
    """Record random hands until the game has a winner."""
    for _ in range(max_hands):
        state = selectors.load_game(game)
        services.record_hand(game=game, hand=random_hand(rng, state.table))
        game.refresh_from_db()
        if game.is_finished:
            return


@transaction.atomic
def create_demo_league(seed: int = 7) -> League:
    """The demo league (made again from scratch) and its demo login."""
    rng = random.Random(seed)
    for old in League.objects.filter(slug="demo"):
        services.delete_league(league=old)
    league = League.objects.create(name="Demo League", slug="demo")
    User = get_user_model()
    user, _ = User.objects.get_or_create(username=DEMO_USERNAME)
    user.set_password(DEMO_PASSWORD)
    user.save()
    Membership.objects.create(league=league, user=user, role=Role.OWNER)
    tables = [
        {"seats": ["Ann", "Bob", "Cat", "Dan"]},
        {"seats": ["Ann", "Bob", "Cat"], "target": 11},
        {"seats": ["Ann", "Bob", "Cat", "Dan"], "teams": [("Hearts", ["Ann", "Cat"]), ("Spades", ["Bob", "Dan"])]},
        {"seats": ["Bob", "Cat", "Dan", "Eve", "Fay"]},
        # House rules: each table plays its own Pitch.
        {"seats": ["Ann", "Bob", "Cat", "Dan"], "house_rules": {"min_bid": 2, "steal": False}},
        {"seats": ["Ann", "Cat", "Eve"], "target": 11, "house_rules": {"smudge": True}},
    ]
    for i, kwargs in enumerate(tables):
        game = services.start_game(league=league, code=f"demo-{i + 1}", **kwargs)
        play_out(game, rng)
    # A table where a set pitcher does not go out: Ann is set back at the target on hand 3 and plays on.
    game = services.start_game(league=league, code="demo-made-bid", seats=["Ann", "Bob", "Dan"], house_rules={"going_out": "made_bid"})
    for pitcher, bid, high, low, jack, game_point in [
        ("Ann", 3, "Ann", "Ann", "Ann", "Ann"),
        ("Bob", 2, "Ann", "Ann", "Ann", "Ann"),
        ("Ann", 1, "Bob", "Dan", None, None),
    ]:
        services.record_hand(game=game, hand=rules.Hand(pitcher=pitcher, bid=bid, high=high, low=low, jack=jack, game=game_point))
    play_out(game, rng)
    services.start_game(league=league, code="demo-in-progress", seats=["Ann", "Bob", "Cat", "Dan"])
    return league
