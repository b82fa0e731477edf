"""The game page: recording hands in taps, with and without htmx, errors, double taps, two phones, access."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.urls import reverse

from scores.engine import rules
from scores.leagues.models import Role
from scores.table import services
from scores.table.models import Game, Hand
from tests.conftest import PASSWORD, hand

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def game_url(game: Game) -> str:
    return game.get_absolute_url()


def save_url(game: Game) -> str:
    return reverse("scores:hand_create", args=[game.league.slug, game.pk])


def taps(pitcher="Bob", bid=3, high="Bob", low="Bob", jack="-", game="Ann", *, number=1, key=None, **extra) -> dict:
    """What the hand form posts after the taps."""
    return {
        "pitcher": pitcher, "bid": bid, "high": high, "low": low, "jack": jack, "game": game,
        "number": number, "key": str(key or uuid.uuid4()), **extra,
    }  # fmt: skip


def totals(game: Game) -> dict[str, int]:
    last = Hand.objects.filter(game=game).order_by("-number").first()
    if last is None:
        return {}
    return {score.side.name: score.total for score in last.scores.select_related("side")}


def test_game_page_shows_hand_number_dealer_first_bidder_and_the_buttons(scorer, four_player_game):
    html = scorer.get(game_url(four_player_game)).content.decode()
    assert "Hand 1" in html
    assert "Ann deals, Bob bids first" in html
    for legend in ("Pitcher", "Bid", "High", "Low", "Jack", "Game"):
        assert f">{legend}</legend>" in html
    assert "Not in play" in html and "Tied" in html and "Save hand" in html
    assert 'name="key"' in html and 'name="number" value="1"' in html


def test_save_hand_without_javascript_redirects_to_the_updated_game(scorer, four_player_game):
    response = scorer.post(save_url(four_player_game), taps())
    assert response.status_code == 302 and response["Location"] == game_url(four_player_game)
    assert totals(four_player_game) == {"Ann": 1, "Bob": -3, "Cat": 0, "Dan": 0}
    html = scorer.get(game_url(four_player_game)).content.decode()
    assert "Bob was set back 3" in html  # Bob won 2 of a bid of 3.
    assert "Hand 2" in html and "Bob deals, Cat bids first" in html


def test_save_hand_with_htmx_answers_the_game_fragment(scorer, four_player_game):
    response = scorer.post(save_url(four_player_game), taps(high="Bob", low="Bob", jack="Bob", game="Bob", bid=4), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and 'id="live"' in html
    assert "Bob made 4, +4" in html
    assert "Hand 2" in html
    assert "HX-Request" in response["Vary"]
    assert totals(four_player_game)["Bob"] == 4


def test_a_fresh_form_with_a_new_key_follows_a_saved_hand(scorer, four_player_game):
    key = uuid.uuid4()
    html = scorer.post(save_url(four_player_game), taps(key=key), **HTMX).content.decode()
    assert str(key) not in html
    assert 'name="number" value="2"' in html


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["no-js", "htmx"])
def test_missing_taps_are_shown_next_to_their_field_with_the_choices_kept(scorer, four_player_game, headers):
    data = taps(pitcher="Cat", bid=2)
    del data["high"], data["jack"]
    response = scorer.post(save_url(four_player_game), data, **headers)
    html = response.content.decode()
    assert response.status_code == 200
    assert ("<html" in html) == (not headers)
    assert 'id="id_high_error">Tap who won High.' in html
    assert 'id="id_jack_error">Tap who won the Jack, or Not in play.' in html
    assert 'value="Cat" checked' in html  # The pitcher tapped is still tapped.
    assert 'name="bid" id="id_bid_1" value="2" checked' in html
    assert not Hand.objects.exists()


def test_a_choice_that_is_not_a_button_is_refused(scorer, four_player_game):
    html = scorer.post(save_url(four_player_game), taps(pitcher="Zed", bid=5)).content.decode()
    assert 'id="id_pitcher_error">Select a valid choice. Zed is not one of the available choices.' in html
    assert 'id="id_bid_error">Select a valid choice. 5 is not one of the available choices.' in html
    assert not Hand.objects.exists()


def test_an_auction_that_disagrees_with_pitcher_and_bid_is_refused(scorer, four_player_game):
    # Ann deals: Bob passes, Cat bids 2, Dan passes, Ann steals with 2. Ann pitches 2, not Bob 3.
    html = scorer.post(save_url(four_player_game), taps(auction="p,2,p,2")).content.decode()
    assert "the auction makes Ann the pitcher with 2, not Bob with 3" in html
    assert not Hand.objects.exists()


@pytest.mark.parametrize("auction", ["", "3,p,p,p"], ids=["taps", "with its auction"])
def test_the_same_key_twice_stores_one_hand(scorer, four_player_game, auction):
    data = taps(auction=auction)
    scorer.post(save_url(four_player_game), data)
    response = scorer.post(save_url(four_player_game), data, **HTMX)
    assert response.status_code == 200
    assert Hand.objects.filter(game=four_player_game).count() == 1
    assert "already recorded" not in response.content.decode() and "already saved" not in response.content.decode()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["no-js", "htmx"])
def test_a_key_already_used_for_another_hand_is_refused_in_words_and_the_taps_are_kept(scorer, four_player_game, headers):
    key = uuid.uuid4()
    scorer.post(save_url(four_player_game), taps(key=key))  # Bob bid 3 and was set back.
    response = scorer.post(save_url(four_player_game), taps(pitcher="Cat", high="Cat", low="Cat", key=key), **headers)
    html = response.content.decode()
    assert response.status_code == 409 and ("<html" in html) == (not headers)
    assert "Hand 1 was already saved from the same form, so this one was not stored" in html
    assert "Bob was set back 3" in html  # The hand stored under the key is the one shown...
    # ...and the taps sent are kept, for the next hand, under a new key.
    assert 'name="pitcher" id="id_pitcher_2" value="Cat" checked' in html and 'name="high" id="id_high_2" value="Cat" checked' in html
    assert 'name="number" value="2"' in html and str(key) not in html
    assert list(Hand.objects.values_list("number", "pitcher__player__name")) == [(1, "Bob")]


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["no-js", "htmx"])
def test_a_second_phone_saving_the_same_hand_is_told_and_shown_the_game(scorer, four_player_game, headers):
    scorer.post(save_url(four_player_game), taps(pitcher="Bob", high="Bob", low="Bob"))
    response = scorer.post(save_url(four_player_game), taps(pitcher="Dan", high="Dan", low="Dan"), follow=not headers, **headers)
    html = response.content.decode()
    assert "Hand 1 was already recorded." in html
    assert "Bob was set back 3" in html  # The hand that was stored is the one shown.
    assert Hand.objects.filter(game=four_player_game).count() == 1
    assert totals(four_player_game)["Dan"] == 0


def test_the_winning_hand_shows_the_winner_and_no_more_hands_can_be_entered(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=4))
    response = scorer.post(save_url(game), taps(pitcher="Bob", bid=4, high="Bob", low="Bob", jack="Bob", game="Bob"), follow=True)
    html = response.content.decode()
    assert "Bob won!" in html
    assert "Final scores: Ann 0, Bob 4" in html
    assert "Save hand" not in html
    response = scorer.post(save_url(game), taps(pitcher="Ann", number=2), follow=True)
    assert Hand.objects.filter(game=game).count() == 1
    assert "The game is over: no more hands can be entered." in response.content.decode()


def test_a_non_pitcher_past_the_target_does_not_win(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat"], rules=rules.Rules(target=3))
    for number, pitcher in enumerate(["Bob", "Cat"], start=1):
        scorer.post(save_url(game), taps(pitcher=pitcher, bid=2, high="Ann", low="Ann", number=number, jack="-", game="-"))
    game.refresh_from_db()
    assert totals(game)["Ann"] == 4 and not game.is_finished
    html = scorer.get(game_url(game)).content.decode()
    assert "won!" not in html and "Save hand" in html


def test_viewers_see_the_game_but_cannot_score(client, make_user, league, four_player_game):
    make_user("vic", league, Role.VIEWER)
    client.login(username="vic", password=PASSWORD)
    html = client.get(game_url(four_player_game)).content.decode()
    assert "Ann deals" in html and "Save hand" not in html and "Undo last hand" not in html
    assert client.post(save_url(four_player_game), taps()).status_code == 404
    assert not Hand.objects.exists()


@pytest.mark.parametrize("url_name", ["game_detail", "hand_create", "hand_undo", "auction"])
def test_non_members_get_404(client, make_user, league, four_player_game, url_name):
    make_user("stranger", None)
    client.login(username="stranger", password=PASSWORD)
    url = reverse(f"scores:{url_name}", args=[league.slug, four_player_game.pk])
    response = client.post(url, taps()) if url_name in ("hand_create", "hand_undo") else client.get(url)
    assert response.status_code == 404


def test_a_game_of_another_league_is_404(scorer, make_user, league):
    from scores.leagues.models import League

    other = League.objects.create(name="Elsewhere", slug="elsewhere")
    game = services.start_game(league=other, seats=["Ann", "Bob"], rules=rules.Rules())
    assert scorer.get(reverse("scores:game_detail", args=[league.slug, game.pk])).status_code == 404
    assert scorer.post(reverse("scores:hand_create", args=[league.slug, game.pk]), taps(pitcher="Ann")).status_code == 404


def test_game_page_queries_do_not_grow_with_hands(scorer, four_player_game, django_assert_num_queries):
    for _ in range(40):
        services.record_hand(game=four_player_game, hand=hand("Bob", 2, "Ann", "Cat", None, None))
    # session, user, the game with its league and the membership; its seats; the hands (who dealt last among them), their scores.
    with django_assert_num_queries(6):
        response = scorer.get(game_url(four_player_game))
    assert response.content.decode().count('class="small points"') == 40


def test_game_page_shows_the_watch_link_to_members(scorer, four_player_game):
    html = scorer.get(game_url(four_player_game)).content.decode()
    assert f"/watch/{four_player_game.share_token}/" in html


def test_a_hand_saved_with_htmx_adds_only_its_row_to_the_history(scorer, four_player_game):
    for h in [hand("Bob", 2, "Bob", "Bob"), hand("Cat", 2, "Cat", "Ann")]:
        services.record_hand(game=four_player_game, hand=h)
    key = str(uuid.uuid4())
    response = scorer.post(
        save_url(four_player_game), taps(pitcher="Dan", bid=2, high="Dan", low="Dan", game="Dan", number=3, key=key), **HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200 and "HX-Request" in response["Vary"]
    # The scoreboard in place of the old one; the form stays on the page: only hand 4's number and a new key for it.
    assert response["HX-Retarget"] == "#scoreboard" and response["HX-Reswap"] == "outerHTML"
    assert html.lstrip().startswith('<div id="scoreboard">') and "Hand 3: <strong>Dan made 2, +3</strong>" in html
    assert "Dan deals, Ann bids first" in html and 'id="live"' not in html and "Save hand" not in html
    keys = re.search(r'<div id="hand-keys" hx-swap-oob="true"><input type="hidden" name="number" value="4" id="id_number">'
                     r'<input type="hidden" name="key" value="([0-9a-f-]{36})" id="id_key"></div>', html)  # fmt: skip
    assert keys and keys[1] != key
    # The page clears the taps on "hand-saved"; the answer adds the hand to the chart, which does not reload itself.
    assert json.loads(response["HX-Trigger"]) == {"hand-saved": {}}
    # One row, hand 3's, added at the top of the history (the newest first) out of band; the earlier hands are not sent again.
    assert '<tbody hx-swap-oob="afterbegin:#history-body">' in html
    assert html.count('class="small points"') == 1 and "Dan bid 2" in html and "Bob bid 2" not in html
    assert 'id="history"' not in html
    # The undo button now undoes hand 3.
    assert '<input type="hidden" name="number" value="3" id="undo-number" hx-swap-oob="true">' in html
    assert Hand.objects.filter(game=four_player_game).count() == 3


def test_the_score_chart_catches_up_after_the_first_htmx_save(scorer, four_player_game):
    page = scorer.get(game_url(four_player_game)).content.decode()
    assert 'hx-trigger="scores-changed from:body"' in page and "Score by hand" not in page
    response = scorer.post(save_url(four_player_game), taps(pitcher="Bob", bid=2, high="Bob", low="Bob", number=1), **HTMX)
    assert "scores-changed" in json.loads(response["HX-Trigger"])  # The page had no chart: it asks for it.
    chart = scorer.get(game_url(four_player_game) + "?part=chart", **HTMX)
    html = chart.content.decode()
    assert chart.status_code == 200 and "<html" not in html and "HX-Request" in chart["Vary"]
    assert 'id="score-chart-box"' in html and "Bob: 2" in html


def test_a_saved_hand_adds_a_segment_to_each_line_of_the_chart_not_the_whole_chart(scorer, four_player_game):
    services.record_hand(game=four_player_game, hand=hand("Bob", 2, "Bob", "Bob"))
    page = scorer.get(game_url(four_player_game)).content.decode()
    drawn = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="3" fill="(#\w+)"><title>Bob: 2</title>', page)
    assert len(drawn) == 1 and 'id="score-chart-line-1"' in page  # Bob's line, the second.
    response = scorer.post(save_url(four_player_game), taps(pitcher="Dan", bid=2, high="Dan", low="Dan", game="Dan", number=2), **HTMX)
    html = response.content.decode()
    assert json.loads(response["HX-Trigger"]) == {"hand-saved": {}}
    # No chart to reload: not its box, figure, axes or earlier dots; one segment and dot appended to each side's line,
    # from where the line ended on the page, and the legend with the new totals.
    assert "score-chart-box" not in html and 'id="score-chart-figure"' not in html and "<polyline" not in html and "target " not in html
    assert html.count("<line ") == 4 and html.count("<circle ") == 4 and "Bob: 2</title>" in html and "Dan: 3</title>" in html
    bob_x, bob_y, bob_color = drawn[0]
    step = re.search(rf'<g hx-swap-oob="beforeend:#score-chart-line-1"><line x1="{bob_x}" y1="{bob_y}" x2="([\d.]+)" y2="{bob_y}"'
                     rf' stroke="{bob_color}"', html)  # fmt: skip
    assert step and float(step[1]) > float(bob_x)  # Bob stays at 2, one hand to the right.
    assert re.search(r'<figcaption [^>]*id="score-chart-legend" hx-swap-oob="true">', html) and "Dan: 3" in html
    # The chart the page draws after a reload ends where the answer's segments did.
    reloaded = scorer.get(game_url(four_player_game)).content.decode()
    assert f'<circle cx="{step[1]}" cy="{bob_y}" r="3" fill="{bob_color}"><title>Bob: 2</title>' in reloaded


def test_a_saved_hand_that_moves_the_charts_scale_sends_the_chart_again(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=rules.MAX_TARGET))
    for number in range(10):  # The chart has room for ten hands: the eleventh moves its scale.
        services.record_hand(game=game, hand=hand("Ann" if number % 2 else "Bob", 2, "Ann", "Bob", None, None))
    response = scorer.post(save_url(game), taps(pitcher="Ann", bid=2, high="Ann", low="Ann", game="-", number=11), **HTMX)
    html = response.content.decode()
    assert json.loads(response["HX-Trigger"]) == {"hand-saved": {}}
    assert '<figure class="chart mb-3" id="score-chart-figure" hx-swap-oob="true">' in html and html.count("<polyline") == 2
    assert "beforeend:#score-chart-line" not in html


@pytest.mark.parametrize("query", ["?part=table", "?part=chart&part=x", "?restore=junk", "?restore=" + "x" * 5000])
def test_an_address_the_game_page_does_not_understand_shows_the_page_as_it_is(scorer, four_player_game, query):
    response = scorer.get(game_url(four_player_game) + query, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html and "Save hand" in html and ">Restore<" not in html


def test_the_first_hand_saved_with_htmx_replaces_the_empty_history(scorer, four_player_game):
    html = scorer.post(save_url(four_player_game), taps(), **HTMX).content.decode()
    assert "No hands yet." not in html and 'id="history" hx-swap-oob="true"' in html
    assert html.count('class="small points"') == 1


def test_the_winning_hand_saved_with_htmx_shows_the_winner_and_no_form(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=4))
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Bob"))
    html = scorer.post(save_url(game), taps(pitcher="Bob", bid=4, high="Bob", low="Bob", jack="Bob", game="Bob", number=2), **HTMX)
    html = html.content.decode()
    final = totals(game)
    assert "Bob won!" in html and f"Final scores: Ann {final['Ann']}, Bob {final['Bob']}" in html
    assert "Save hand" not in html and html.count('class="small points"') == 1


def test_saving_a_hand_with_htmx_costs_the_same_queries_however_long_the_game(scorer, four_player_game, django_assert_num_queries):
    game = services.start_game(
        league=four_player_game.league, seats=["Ann", "Bob", "Cat", "Dan"], rules=rules.Rules(target=rules.MAX_TARGET)
    )
    for _ in range(10):  # Each pitcher is set back and the next seat takes Low: forty hands, and the game goes on.
        for pitcher, other in [("Ann", "Bob"), ("Bob", "Cat"), ("Cat", "Dan"), ("Dan", "Ann")]:
            services.record_hand(game=game, hand=hand(pitcher, 2, pitcher, other, None, None))
    # session, user, the game with its league and the membership; its seats for the form; the write, in a transaction
    # (2): the game locked by bumping its version, its winner and version, the last hand, that hand's totals, the hand,
    # its scores (no seat: their figures are counted when the game ends); for the score chart, every hand's totals.
    # The whole game is neither read nor replayed.
    with django_assert_num_queries(13):
        response = scorer.post(save_url(game), taps(pitcher="Ann", bid=2, high="Ann", low="Bob", game="-", number=41), **HTMX)
    assert response.status_code == 200 and 'name="number" value="42"' in response.content.decode()


def test_names_are_shown_as_text_not_as_markup(scorer, league):
    ann, bob = "<b>Ann</b>", "Bob & Co"
    game = services.start_game(league=league, seats=[ann, bob, '"Cat"'], rules=rules.Rules(target=rules.MAX_TARGET))
    services.record_hand(game=game, hand=hand(ann, 2, ann, bob, None, None))
    html = scorer.get(game_url(game)).content.decode()
    assert ann not in html
    assert 'side-name">&lt;b&gt;Ann&lt;/b&gt;' in html and "&lt;b&gt;Ann&lt;/b&gt; bid 2" in html
    # "Bob & Co" is "Bob" in the history (the only Bob), whole in its title and for screen readers.
    bob_short = '<span title="Bob &amp; Co" aria-hidden="true">Bob</span><span class="visually-hidden">Bob &amp; Co</span>'
    assert "dealt by &lt;b&gt;Ann&lt;/b&gt;" in html and f"High: &lt;b&gt;Ann&lt;/b&gt; · Low: {bob_short}" in html
