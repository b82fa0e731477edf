"""Fixing mistakes: undo the last hand, edit an earlier hand, delete a hand."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scores.engine import rules
from scores.leagues.models import Role
from scores.table import services
from scores.table.models import Game, Hand
from tests.conftest import PASSWORD, hand

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, game, *args) -> str:
    return reverse(f"scores:{name}", args=[game.league.slug, game.pk, *args])


def edit_data(pitcher, bid, high, low, jack="-", game="-") -> dict:
    return {"pitcher": pitcher, "bid": bid, "high": high, "low": low, "jack": jack, "game": game}


def shown(game) -> dict:
    """The hidden field of the edit page: the game's version when it was shown, here now."""
    return {"version": Game.objects.values_list("version", flat=True).get(pk=game.pk)}


def totals_by_hand(game) -> list[dict[str, int]]:
    hands = Hand.objects.filter(game=game).prefetch_related("scores__side").order_by("number")
    return [{s.side.name: s.total for s in h.scores.all()} for h in hands]


@pytest.fixture
def three_hands(four_player_game):
    for h in [hand("Bob", 2, "Bob", "Bob"), hand("Cat", 2, "Cat", "Ann"), hand("Dan", 1, "Dan", "Dan")]:
        services.record_hand(game=four_player_game, hand=h)
    return four_player_game


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["no-js", "htmx"])
def test_undo_removes_the_last_hand(scorer, three_hands, headers):
    response = scorer.post(url("hand_undo", three_hands), {"number": 3}, **headers)
    assert Hand.objects.filter(game=three_hands).count() == 2
    if headers:
        html = response.content.decode()
        assert "<html" not in html and "Hand 3 was undone." in html and "Hand 3</strong>" in html
    else:
        assert response.status_code == 302


def test_undo_tapped_twice_undoes_one_hand(scorer, three_hands):
    scorer.post(url("hand_undo", three_hands), {"number": 3})
    response = scorer.post(url("hand_undo", three_hands), {"number": 3}, follow=True)
    assert Hand.objects.filter(game=three_hands).count() == 2
    assert "Hand 3 is not the last hand any more, so nothing was undone." in response.content.decode()


def test_undo_of_the_winning_hand_reopens_the_game(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=2))
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    game.refresh_from_db()
    assert game.is_finished
    html = scorer.post(url("hand_undo", game), {"number": 1}, follow=True).content.decode()
    game.refresh_from_db()
    assert not game.is_finished and "Save hand" in html


def test_edit_page_shows_the_hand_as_tapped(scorer, three_hands):
    html = scorer.get(url("hand_edit", three_hands, 2)).content.decode()
    assert "Edit hand 2" in html and "Bob dealt this hand." in html
    assert 'name="pitcher" id="id_pitcher_2" value="Cat" checked' in html
    assert 'name="jack" id="id_jack_4" value="-" checked' in html


def test_editing_an_earlier_hand_recomputes_every_later_total(scorer, three_hands):
    before = totals_by_hand(three_hands)
    response = scorer.post(url("hand_edit", three_hands, 1), edit_data("Bob", 2, "Bob", "Bob", jack="Bob") | shown(three_hands))
    assert response.status_code == 302 and response["Location"] == three_hands.get_absolute_url()
    after = totals_by_hand(three_hands)
    assert [t["Bob"] - b["Bob"] for t, b in zip(after, before, strict=True)] == [1, 1, 1]
    assert [t["Cat"] for t in after] == [b["Cat"] for b in before]
    assert Hand.objects.get(game=three_hands, number=1).dealer.player.name == "Ann"  # The dealer stays.


def test_an_edit_that_would_end_the_game_before_later_hands_is_refused(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=4))
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    services.record_hand(game=game, hand=hand("Bob", 1, "Bob", "Ann"))
    before = totals_by_hand(game)
    response = scorer.post(url("hand_edit", game, 1), edit_data("Ann", 4, "Ann", "Ann", jack="Ann", game="Ann") | shown(game))
    html = response.content.decode()
    assert response.status_code == 200
    assert "With this change the game would be won on hand 1, before the hands after it, so nothing was changed." in html
    assert 'value="Ann" checked' in html
    assert totals_by_hand(game) == before
    game.refresh_from_db()
    assert not game.is_finished


def test_edit_with_a_missing_tap_shows_the_field(scorer, three_hands):
    data = edit_data("Bob", 2, "Bob", "Bob") | shown(three_hands)
    del data["low"]
    html = scorer.post(url("hand_edit", three_hands, 1), data).content.decode()
    assert 'id="id_low_error">Tap who won Low' in html


def test_deleting_a_hand_moves_the_later_ones_up(scorer, three_hands):
    response = scorer.post(url("hand_delete", three_hands, 1), shown(three_hands), follow=True)
    assert "Hand 1 was deleted." in response.content.decode()
    pitchers = list(Hand.objects.filter(game=three_hands).order_by("number").values_list("number", "pitcher__player__name"))
    assert pitchers == [(1, "Cat"), (2, "Dan")]


def test_a_delete_that_would_end_the_game_early_is_refused(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=3))
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))  # Ann 2
    services.record_hand(game=game, hand=hand("Ann", 2, "Bob", "Bob"))  # Ann set: 0
    services.record_hand(game=game, hand=hand("Ann", 1, "Ann", "Bob"))  # Ann 1
    services.record_hand(game=game, hand=hand("Bob", 1, "Bob", "Bob"))  # Without hand 2, Ann goes out before this hand.
    before = totals_by_hand(game)
    html = scorer.post(url("hand_delete", game, 2), shown(game), follow=True).content.decode()
    assert "With this change the game would be won on hand 2, before the hands after it, so nothing was changed." in html
    assert totals_by_hand(game) == before


def test_editing_a_hand_that_does_not_exist_is_404(scorer, three_hands):
    assert scorer.get(url("hand_edit", three_hands, 4)).status_code == 404
    assert scorer.post(url("hand_delete", three_hands, 9)).status_code == 404
    assert Hand.objects.filter(game=three_hands).count() == 3


def test_viewers_cannot_fix_hands(client, make_user, league, three_hands):
    make_user("vic", league, Role.VIEWER)
    client.login(username="vic", password=PASSWORD)
    assert client.get(url("hand_edit", three_hands, 1)).status_code == 404
    assert client.post(url("hand_edit", three_hands, 1), edit_data("Ann", 4, "Ann", "Ann")).status_code == 404
    assert client.post(url("hand_delete", three_hands, 1)).status_code == 404
    assert client.post(url("hand_undo", three_hands), {"number": 3}).status_code == 404
    assert Hand.objects.filter(game=three_hands).count() == 3
    assert "Edit" not in client.get(three_hands.get_absolute_url()).content.decode().split("Hands</h2>")[1]


def test_an_edit_can_forget_the_auction_to_change_the_pitcher(scorer, four_player_game):
    auction = (("Bob", None), ("Cat", 2), ("Dan", None), ("Ann", 2))
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann", bids=auction))
    assert 'name="auction" value="p,2,p,2"' in scorer.get(url("hand_edit", four_player_game, 1)).content.decode()
    as_posted = edit_data("Cat", 2, "Cat", "Cat") | {"auction": "p,2,p,2"} | shown(four_player_game)
    refused = scorer.post(url("hand_edit", four_player_game, 1), as_posted)
    assert "the auction makes Ann the pitcher with 2, not Cat with 2" in refused.content.decode()
    assert "Forget the auction" in refused.content.decode()
    scorer.post(url("hand_edit", four_player_game, 1), as_posted | {"forget_auction": "on"})
    stored = Hand.objects.get(game=four_player_game)
    assert stored.pitcher.player.name == "Cat" and stored.auction is None


# "Restore" after an undo: the hand undone, put back exactly, for a few seconds.


def restore_token_in(html: str) -> str:
    """The token the page's Restore button posts."""
    match = re.search(r'<input type="hidden" name="token" value="([^"]+)">', html)
    assert match, "no Restore button on the page"
    return match.group(1)


def stored(game) -> list[tuple]:
    """Each hand as entered and scored: number, dealer, pitcher, bid, auction, points, set, and each side's change and total."""
    hands = Hand.objects.filter(game=game).select_related("dealer__player", "pitcher__player").prefetch_related("scores").order_by("number")
    return [
        (
            h.number,
            h.dealer.player.name,
            h.pitcher.player.name,
            h.bid,
            h.auction,
            h.points,
            h.set,
            [(s.side_id, s.delta, s.total) for s in h.scores.order_by("side__position")],
        )
        for h in hands
    ]


@pytest.fixture
def auction_hand_last(three_hands):
    """A fourth hand with an auction (Dan deals: Ann passes, Bob bids 2, Cat 3, Dan passes), Jack and Game won."""
    bids = (("Ann", None), ("Bob", 2), ("Cat", 3), ("Dan", None))
    services.record_hand(game=three_hands, hand=hand("Cat", 3, "Cat", "Ann", jack="Cat", game="Dan", bids=bids))
    return three_hands


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["no-js", "htmx"])
def test_restore_puts_the_undone_hand_back_exactly(scorer, auction_hand_last, headers):
    game = auction_hand_last
    before = stored(game)
    undone = scorer.post(url("hand_undo", game), {"number": 4}, **headers)
    if headers:
        html = undone.content.decode()
    else:  # Without JavaScript the token rides on the redirect, and the game page shows the button.
        assert undone.status_code == 302 and undone["Location"].startswith(game.get_absolute_url() + "?restore=")
        html = scorer.get(undone["Location"]).content.decode()
    assert "Hand 4 was undone." in html and ">Restore<" in html
    assert len(stored(game)) == 3
    response = scorer.post(url("hand_restore", game), {"token": restore_token_in(html)}, **headers, follow=not headers)
    html = response.content.decode()
    assert "Hand 4 was restored." in html and ">Restore<" not in html
    assert stored(game) == before


def test_restore_tapped_twice_restores_one_hand(scorer, auction_hand_last):
    game = auction_hand_last
    before = stored(game)
    token = restore_token_in(scorer.post(url("hand_undo", game), {"number": 4}, **HTMX).content.decode())
    first = scorer.post(url("hand_restore", game), {"token": token}, **HTMX).content.decode()
    second = scorer.post(url("hand_restore", game), {"token": token}, **HTMX).content.decode()
    assert "Hand 4 was restored." in first and "Hand 4 was restored." in second
    assert stored(game) == before


def test_restore_is_refused_once_another_hand_was_saved(scorer, three_hands):
    token = restore_token_in(scorer.post(url("hand_undo", three_hands), {"number": 3}, **HTMX).content.decode())
    services.record_hand(game=three_hands, hand=hand("Ann", 2, "Ann", "Ann"), number=3)  # Another phone's hand 3.
    before = stored(three_hands)
    html = scorer.post(url("hand_restore", three_hands), {"token": token}, **HTMX).content.decode()
    assert "Hand 3 was saved meanwhile, so nothing was restored." in html
    assert stored(three_hands) == before
    # Without JavaScript, the page no longer offers it either.
    assert ">Restore<" not in scorer.get(three_hands.get_absolute_url() + "?restore=" + token).content.decode()


def test_restore_is_refused_once_the_game_changed_otherwise(scorer, three_hands):
    token = restore_token_in(scorer.post(url("hand_undo", three_hands), {"number": 3}, **HTMX).content.decode())
    services.edit_hand(game=three_hands, number=1, hand=hand("Bob", 3, "Bob", "Bob"))
    before = stored(three_hands)
    response = scorer.post(url("hand_restore", three_hands), {"token": token}, follow=True)
    assert "The game was changed meanwhile, so nothing was restored." in response.content.decode()
    assert stored(three_hands) == before


def test_restoring_the_winning_hand_ends_the_game_again(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=2))
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    token = restore_token_in(scorer.post(url("hand_undo", game), {"number": 1}, **HTMX).content.decode())
    html = scorer.post(url("hand_restore", game), {"token": token}, **HTMX).content.decode()
    game.refresh_from_db()
    assert game.is_finished and game.winner.name == "Ann" and "Ann won!" in html


@pytest.mark.parametrize("token", ["", "junk", "x" * 5000], ids=["empty", "junk", "long"])
def test_a_restore_with_a_bad_token_restores_nothing(scorer, three_hands, token):
    before = stored(three_hands)
    html = scorer.post(url("hand_restore", three_hands), {"token": token}, **HTMX).content.decode()
    assert "Nothing was restored: the page did not say which hand. Reload it." in html
    assert stored(three_hands) == before


def test_a_restore_token_of_another_game_restores_nothing(scorer, league, three_hands):
    other = services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], code="other", rules=rules.Rules())
    services.record_hand(game=other, hand=hand("Bob", 2, "Bob", "Bob"))
    token = restore_token_in(scorer.post(url("hand_undo", other), {"number": 1}, **HTMX).content.decode())
    before = stored(three_hands)
    html = scorer.post(url("hand_restore", three_hands), {"token": token}, **HTMX).content.decode()
    assert "Nothing was restored" in html and stored(three_hands) == before
    assert ">Restore<" not in scorer.get(three_hands.get_absolute_url() + "?restore=" + token).content.decode()


@pytest.mark.parametrize("number", ["", "three", "0", "-3", "2.5"])
def test_an_undo_that_does_not_say_which_hand_undoes_nothing_and_says_so(scorer, three_hands, number):
    before = totals_by_hand(three_hands)
    html = scorer.post(url("hand_undo", three_hands), {"number": number}, follow=True).content.decode()
    assert "Nothing was undone: the page did not say which hand." in html
    assert totals_by_hand(three_hands) == before


@pytest.mark.parametrize("version", ["", "new", "-1", "1e3"])
def test_an_edit_or_a_delete_that_does_not_say_the_version_changes_nothing_and_says_so(scorer, three_hands, version):
    before = totals_by_hand(three_hands)
    edit = scorer.post(url("hand_edit", three_hands, 1), {**edit_data("Ann", 2, "Ann", "Ann"), "version": version})
    assert edit.status_code == 200
    assert "The page did not say which version of the game it showed; reload it and try again." in edit.content.decode()
    deleted = scorer.post(url("hand_delete", three_hands, 1), {"version": version}, follow=True).content.decode()
    assert "Nothing was deleted: the page did not say which version of the game it showed." in deleted
    assert totals_by_hand(three_hands) == before


@pytest.mark.parametrize("name", ["hand_undo", "hand_restore"])
def test_a_write_answered_with_a_redirect_says_it_varies_with_htmx(scorer, three_hands, name):
    """A browser's cache keeps the redirect apart from the fragment the same post gets with htmx."""
    response = scorer.post(url(name, three_hands), {"number": 3, "token": "junk"})
    assert response.status_code == 302 and "HX-Request" in response["Vary"]
