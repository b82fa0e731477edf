"""A demo league with a few finished games, so a fresh install has something to look at.

The league's and the teams' names are in the language it is made in (``seed_demo --language``): they are stored
names, as a league's own would be, so they read in the language of the table that looks at the demo. The players'
names (Ann, Bob...) read the same in every language.
"""

from __future__ import annotations

import random
from typing import NotRequired, TypedDict

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, pgettext

from .engine import rules
from .leagues import services as leagues_services
from .leagues.models import League, Membership, Role
from .table import selectors, services


# A demo table: start_game's arguments but its league and code.
class _Table(TypedDict):
    seats: list[str]
    rules: rules.Rules
    teams: NotRequired[list[tuple[str, list[str]]]]


DEMO_USERNAME = "demo"
DEMO_PASSWORD = "pitch-demo-league"  # Shown in the README and printed by `make run`; demo data only.


def _suit(name: str) -> str:
    """A demo team's name: a suit of cards (or the jokers), as the table calls them."""
    names = {
        "Hearts": pgettext("demo team", "Hearts"),
        "Spades": pgettext("demo team", "Spades"),
        "Clubs": pgettext("demo team", "Clubs"),
        "Diamonds": pgettext("demo team", "Diamonds"),
        "Jokers": pgettext("demo team", "Jokers"),
    }
    return names[name]


def random_hand(rng: random.Random, table: rules.Table) -> rules.Hand:
    """A plausible hand: any pitcher, a bid near the minimum, points spread over the sides with the pitcher's taking
    more than its share (a card sometimes not in play, Game sometimes tied)."""
    sides = table.sides
    pitcher = rng.choice(table.seats)
    pitching = table.side(pitcher)

    def winner(optional: bool) -> str | None:
        return pitching if rng.random() < 0.4 else rng.choice([*sides, None] if optional else sides)

    points = {point.key: winner(point.optional) for point in table.rules.kinds}
    return rules.Hand(pitcher=pitcher, bid=rng.choice(table.rules.bids[:3]), points=points)


def play_out(game, rng: random.Random, max_hands: int = 200) -> None:
    """Record random hands until the game has a winner."""
    for _ in range(max_hands):
        state = selectors.load_game(game)
        services.record_hand(game=game, hand=random_hand(rng, state.table))
        game.refresh_from_db()
        if game.is_finished:
            return


def create_demo_league(seed: int = 7, language: str = "en") -> League:
    """The demo league (made again from scratch) and its demo login, named in ``language``."""
    with translation.override(language):
        return _create_demo_league(seed)


@transaction.atomic
def _create_demo_league(seed: int) -> League:
    rng = random.Random(seed)
    for old in League.objects.filter(slug="demo"):
        leagues_services.delete_league(league=old)
    league = League.objects.create(name=gettext("Demo League"), slug="demo")
    User = get_user_model()
    user, _ = User.objects.get_or_create(username=DEMO_USERNAME)
    user.set_password(DEMO_PASSWORD)
    user.save()
    Membership.objects.create(league=league, user=user, role=Role.OWNER)
    tables: list[_Table] = [
        {"seats": ["Ann", "Bob", "Cat", "Dan"], "rules": rules.Rules()},
        {"seats": ["Ann", "Bob", "Cat"], "rules": rules.Rules(target=11)},
        {
            "seats": ["Ann", "Bob", "Cat", "Dan"],
            "teams": [(_suit("Hearts"), ["Ann", "Cat"]), (_suit("Spades"), ["Bob", "Dan"])],
            "rules": rules.Rules(),
        },
        {"seats": ["Bob", "Cat", "Dan", "Eve", "Fay"], "rules": rules.Rules()},
        # House rules: each table plays its own Pitch.
        {"seats": ["Ann", "Bob", "Cat", "Dan"], "rules": rules.Rules(min_bid=2, steal=False)},
        {"seats": ["Ann", "Cat", "Eve"], "rules": rules.Rules(target=11, smudge=True)},
        # A bigger member of the family: ten-point Pitch to 52, six players in three teams of two.
        {
            "seats": ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"],
            "teams": [(_suit("Clubs"), ["Ann", "Dan"]), (_suit("Diamonds"), ["Bob", "Eve"]), (_suit("Jokers"), ["Cat", "Fay"])],
            "rules": rules.Rules(variant="10-point"),
        },
    ]
    for i, kwargs in enumerate(tables):
        game = services.start_game(league=league, code=f"demo-{i + 1}", **kwargs)
        play_out(game, rng)
    # A table where a set pitcher does not go out: Ann is set back at the target on hand 3 and plays on.
    game = services.start_game(league=league, code="demo-made-bid", seats=["Ann", "Bob", "Dan"], rules=rules.Rules(going_out="made_bid"))
    for pitcher, bid, high, low, jack, game_point in [
        ("Ann", 3, "Ann", "Ann", "Ann", "Ann"),
        ("Bob", 2, "Ann", "Ann", "Ann", "Ann"),
        ("Ann", 1, "Bob", "Dan", None, None),
    ]:
        points = {"high": high, "low": low, "jack": jack, "game": game_point}
        services.record_hand(game=game, hand=rules.Hand(pitcher=pitcher, bid=bid, points=points))
    play_out(game, rng)
    services.start_game(league=league, code="demo-in-progress", seats=["Ann", "Bob", "Cat", "Dan"], rules=rules.Rules())
    return league
