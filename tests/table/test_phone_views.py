"""The phone at the table, server side: the winner marked, the auction panel, rematch, QR code,
manifest and service worker, and a delete that asks first."""

from __future__ import annotations

import json
import uuid

import pytest
from django.urls import reverse

from scores.engine import rules
from scores.leagues.models import Role
from scores.table import services
from scores.table.models import Game, Hand
from tests.conftest import hand

HTMX = {"HX-Request": "true"}


def url(name: str, game: Game, *args) -> str:
    return reverse(f"scores:{name}", args=[game.league.slug, game.pk, *args])


@pytest.fixture
def won_by_cat(league) -> Game:
    """Ann passes the target without pitching; Cat goes out with fewer points."""
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat"], code="won", rules=rules.Rules())
    for _ in range(3):
        services.record_hand(game=game, hand=hand("Bob", 1, "Ann", "Ann", jack="Ann", game="Cat"))
    services.record_hand(game=game, hand=hand("Cat", 4, "Cat", "Cat", jack="Cat", game="Cat"))
    game.refresh_from_db()
    assert game.is_finished and game.winner.name == "Cat"
    return game


def test_after_a_win_the_winners_row_is_marked_not_the_highest_total(scorer, won_by_cat):
    rows = scorer.get(won_by_cat.get_absolute_url()).context["rows"]
    assert {row["side"].name: (row["total"], row["leading"]) for row in rows} == {
        "Ann": (9, False),
        "Bob": (-3, False),
        "Cat": (7, True),
    }


def test_a_saved_hand_flashes_each_sides_change_and_a_page_load_does_not(scorer, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Bob", 2, "Bob", "Bob"))
    data = {"pitcher": "Cat", "bid": 2, "high": "Cat", "low": "Dan", "jack": "-", "game": "Cat", "number": 2, "key": str(uuid.uuid4())}
    html = scorer.post(url("hand_create", four_player_game), data, headers=HTMX).content.decode()
    assert '<td class="delta">+2</td>' in html and '<td class="delta">+1</td>' in html
    assert 'class="delta' not in scorer.get(four_player_game.get_absolute_url()).content.decode()


def test_the_auction_panel_is_a_fragment_that_says_why_the_choice_is_limited(scorer, four_player_game):
    response = scorer.get(url("auction", four_player_game) + "?bids=p,p,p", headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "HX-Request" in response["Vary"] and "<html" not in html
    assert "Everyone passed: the dealer must bid at least 2." in html
    assert ">Pass</a>" not in html and ">1</a>" not in html and ">2</a>" in html
    assert "Undo last bid" in html and "bids=p%2Cp" in html
    stealing = scorer.get(url("auction", four_player_game) + "?bids=p,2,p", headers=HTMX).content.decode()
    assert "The dealer may steal the bid with 2." in stealing


def test_a_finished_auction_in_the_panel_gives_its_result_to_the_form(scorer, four_player_game):
    html = scorer.get(url("auction", four_player_game) + "?bids=p,3,p,p", headers=HTMX).content.decode()
    assert 'data-auction-result="p,3,p,p" data-pitcher="Cat" data-bid="3"' in html
    assert "Cat is the pitcher with a bid of 3." in html


def test_rematch_seats_the_same_table_and_moves_the_deal_on(scorer, won_by_cat):
    response = scorer.post(url("rematch", won_by_cat))
    rematch = Game.objects.exclude(pk=won_by_cat.pk).get()
    assert response.status_code == 302 and response["Location"] == rematch.get_absolute_url()
    assert rematch.target == won_by_cat.target and not rematch.partnership
    # Hands 1-4 were dealt by Ann, Bob, Cat, Ann: Bob deals the rematch's first hand.
    assert list(rematch.seats.order_by("position").values_list("player__name", flat=True)) == ["Bob", "Cat", "Ann"]


def test_a_partnership_rematch_keeps_the_teams(scorer, league):
    game = services.start_game(
        league=league, seats=["Ann", "Bob", "Cat", "Dan"], teams=[("Us", ["Ann", "Cat"]), ("Them", ["Bob", "Dan"])], rules=rules.Rules()
    )
    services.record_hand(game=game, hand=hand("Ann", 4, "Ann", "Ann", jack="Ann", game="Ann"))
    services.record_hand(game=game, hand=hand("Cat", 4, "Cat", "Cat", jack="Cat", game="Cat"))
    game.refresh_from_db()
    assert game.is_finished
    scorer.post(url("rematch", game))
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert rematch.partnership and sorted(rematch.sides.values_list("name", flat=True)) == ["Them", "Us"]


def test_rematch_before_a_win_is_refused_and_starts_nothing(scorer, four_player_game):
    response = scorer.post(url("rematch", four_player_game), follow=True)
    assert "A rematch can start only when the game has a winner." in response.content.decode()
    assert Game.objects.count() == 1


def test_rematch_and_the_qr_code_are_for_the_leagues_members_only(client, make_user, won_by_cat):
    viewer = make_user("vic", won_by_cat.league, Role.VIEWER)
    make_user("eve")
    client.force_login(viewer)
    assert client.post(url("rematch", won_by_cat)).status_code == 404  # A viewer may not start games.
    assert client.get(url("watch_qr", won_by_cat, won_by_cat.share_token)).status_code == 200
    client.force_login(make_user("mal", None))
    assert client.get(url("watch_qr", won_by_cat, won_by_cat.share_token)).status_code == 404
    assert Game.objects.count() == 1


def test_the_qr_code_is_an_svg_of_the_watch_link(scorer, four_player_game):
    response = scorer.get(url("watch_qr", four_player_game, four_player_game.share_token))
    assert response["Content-Type"] == "image/svg+xml" and response.content.startswith(b"<svg")


def test_the_manifest_and_the_service_worker(client):
    manifest = client.get("/manifest/en.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = json.loads(manifest.content)
    assert data["start_url"] == "/" and data["display"] == "standalone" and len(data["icons"]) == 2
    worker = client.get("/sw.js")
    assert worker["Content-Type"].startswith("text/javascript") and worker["Cache-Control"] == "no-cache"
    assert '"/static/scores/app.js"' in worker.content.decode()
    assert "const IMMUTABLE = false;" in worker.content.decode()  # Tests use plain names: the network first.
    # Every language's script texts, kept for offline: whichever language the player picks later works without a network.
    catalogs = ", ".join(f'"/jsi18n/{lang}/"' for lang in ("en", "af", "ceb", "it", "mt", "vi"))
    assert f"const CATALOGS = [{catalogs}];" in worker.content.decode()


def test_deleting_a_hand_asks_first(scorer, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Bob", 2, "Bob", "Bob"))
    html = scorer.get(url("hand_edit", four_player_game, 1)).content.decode()
    question = html.split('<details class="delete-hand">')[1].split("</details>")[0]
    assert "<summary" in question and ">Yes, delete hand 1</button>" in question
    assert Hand.objects.filter(game=four_player_game).count() == 1


def test_an_edit_refused_by_its_auction_points_to_forgetting_it(scorer, four_player_game):
    auction = (("Bob", None), ("Cat", 2), ("Dan", None), ("Ann", 2))
    services.record_hand(game=four_player_game, hand=hand("Ann", 2, "Ann", "Ann", bids=auction))
    data = {"pitcher": "Cat", "bid": 2, "high": "Cat", "low": "Cat", "jack": "-", "game": "-", "auction": "p,2,p,2"}
    html = scorer.post(url("hand_edit", four_player_game, 1), data).content.decode()
    assert 'href="#forget_auction"' in html and "tick “Forget the auction” below" in html
    assert 'id="forget_auction"' in html


def short(name: str, shown: str) -> str:
    """A name as the history shows it short: the short form on the screen, the whole name in its title and for screen readers."""
    return f'<span title="{name}" aria-hidden="true">{shown}</span><span class="visually-hidden">{name}</span>'


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx-save"])
def test_the_history_shows_names_short_and_whole_in_the_title(scorer, league, headers):
    seats = ["Christopher Robinson", "Christopher Adams", "Alexandria Whitfield", "Dan"]
    game = services.start_game(league=league, seats=seats, code="short", rules=rules.Rules())
    services.record_hand(game=game, hand=hand("Christopher Robinson", 2, "Christopher Robinson", "Christopher Adams"))
    if headers:  # The row a save adds, with htmx.
        data = {"number": 2, "key": uuid.uuid4(), "pitcher": "Alexandria Whitfield", "bid": 2}
        data |= {"high": "Alexandria Whitfield", "low": "Dan", "jack": "-", "game": "Christopher Adams"}
        html = scorer.post(url("hand_create", game), data, headers=headers).content.decode()
        row = html.split('hx-swap-oob="afterbegin:#history-body">')[1]
        assert f"{short('Alexandria Whitfield', 'Alexandria')} bid 2" in row
        assert f"dealt by {short('Christopher Adams', 'Christopher A.')}" in row
        # A first name alone is the whole name: nothing to shorten.
        assert f"Low: Dan · Jack: not in play · Game: {short('Christopher Adams', 'Christopher A.')}" in row
        return
    html = scorer.get(game.get_absolute_url()).content.decode()
    history = html.split('id="history"')[1]
    assert f"{short('Christopher Robinson', 'Christopher R.')} bid 2" in history
    assert f"High: {short('Christopher Robinson', 'Christopher R.')} · Low: {short('Christopher Adams', 'Christopher A.')}" in history
    assert f"dealt by {short('Christopher Robinson', 'Christopher R.')}" in history
    assert f'<th scope="col" class="text-end">{short("Alexandria Whitfield", "Alexandria")}</th>' in history
    # The scoreboard above keeps the whole names (it cuts them short with an ellipsis, the title whole).
    assert 'title="Christopher Robinson" class="side-name">Christopher Robinson' in html
