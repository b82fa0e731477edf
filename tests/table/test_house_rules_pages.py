"""House rules outside the engine: stored with games and leagues, chosen on the new-game form, shown, enforced on
the hand form, the auction and edits, and carried by the history format."""

from __future__ import annotations

import csv
import datetime
import io
import json
import uuid
import zipfile

import pytest
from django.urls import reverse

from scores.engine import rules
from scores.history import document as history_document
from scores.history import export as history_export
from scores.history import services as history_services
from scores.leagues.models import League, Role
from scores.standings.selectors.standings import standings
from scores.table import services
from scores.table.models import Game, Hand
from tests.conftest import PASSWORD, hand
from tests.history_docs import document, dumps
from tests.history_docs import game as game_doc
from tests.history_docs import hand as hand_doc

pytestmark = pytest.mark.django_db

MADE_BID_2 = {"going_out": "made_bid", "min_bid": 2}
# Ann reaches 8 without pitching, then is set at 7: the hand that would end the game under the rule sheet.
SET_AT_THE_TARGET = [
    hand("Ann", 3, "Ann", "Ann", "Ann", "Ann"),  # Ann 4.
    hand("Bob", 2, "Ann", "Ann", "Ann", "Ann"),  # Ann 8, Bob set to -2.
    hand("Ann", 1, "Bob", "Bob"),  # Ann set to 7, at the target; Bob 0.
]


def new_game_url(league: League) -> str:
    return reverse("scores:game_new", args=[league.slug])


def save_url(game: Game) -> str:
    return reverse("scores:hand_create", args=[game.league.slug, game.pk])


def taps(pitcher="Ann", bid=2, high="Ann", low="Ann", jack="-", game="-", number=1, **extra) -> dict:
    return {
        "pitcher": pitcher,
        "bid": bid,
        "high": high,
        "low": low,
        "jack": jack,
        "game": game,
        "number": number,
        "key": str(uuid.uuid4()),
        **extra,
    }


def two_player_game(league: League, **house) -> Game:
    return services.start_game(league=league, seats=["Ann", "Bob"], code=f"g{Game.objects.count()}", rules=rules.Rules(**house))


# Stored rules


def test_a_game_keeps_the_rules_it_started_with_when_the_league_changes_its_defaults(league):
    league.going_out, league.min_bid = "made_bid", 2
    league.save()
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(**{"smudge": True}))
    game.refresh_from_db()
    assert game.rules == rules.Rules(smudge=True)  # The service is told the rules; the league's are the form's default.
    League.objects.filter(pk=league.pk).update(going_out="pitcher", min_bid=1, steal=False)
    game.refresh_from_db()
    assert game.rules == rules.Rules(smudge=True)


def test_a_made_bid_game_plays_on_after_a_set_pitcher_reaches_the_target(league):
    game = two_player_game(league, going_out="made_bid")
    for played in SET_AT_THE_TARGET:
        services.record_hand(game=game, hand=played)
    game.refresh_from_db()
    assert not game.is_finished
    services.record_hand(game=game, hand=hand("Bob", 1, "Bob", "Bob"))
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    game.refresh_from_db()
    assert game.is_finished and game.winner.name == "Ann"


def test_the_rule_sheet_ends_the_same_game_on_the_set(league):
    game = two_player_game(league)
    for played in SET_AT_THE_TARGET:
        services.record_hand(game=game, hand=played)
    game.refresh_from_db()
    assert game.is_finished and game.winner.name == "Ann"
    with pytest.raises(rules.RulesError, match="already over"):
        services.record_hand(game=game, hand=hand("Bob", 1, "Bob", "Bob"))


# The new-game form


def test_the_new_game_form_starts_with_the_leagues_house_rules(scorer, league):
    league.target, league.going_out, league.min_bid, league.steal = 11, "made_bid", 2, False
    league.save()
    html = scorer.get(new_game_url(league)).content.decode()
    assert "House rules" in html and "4-point · to 11 · set pitcher can&#x27;t go out · minimum bid 2 · no dealer&#x27;s steal" in html
    for name, value in [("target", "11"), ("going_out", "made_bid"), ("min_bid", "2"), ("steal", "no"), ("smudge", "no")]:
        assert f'name="{name}" id="id_{name}_' in html
        assert f'value="{value}" checked' in html.split(f'name="{name}"', 1)[1].split("</fieldset>")[0]


def test_a_new_game_left_without_house_rules_gets_the_leagues(scorer, league):
    League.objects.filter(pk=league.pk).update(going_out="made_bid", smudge=True)
    scorer.post(new_game_url(league), {"mode": "solo", "target": "7", "first_dealer": "1", "new_1": "Ann", "new_2": "Bob"})
    assert Game.objects.get().rules == rules.Rules(going_out="made_bid", smudge=True)


def test_a_new_game_can_change_the_house_rules_for_itself(scorer, league):
    data = {"mode": "solo", "target": "15", "first_dealer": "1", "new_1": "Ann", "new_2": "Bob"}
    scorer.post(new_game_url(league), {**data, "going_out": "made_bid", "min_bid": "2", "steal": "no", "smudge": "yes"})
    assert Game.objects.get().rules == rules.Rules(target=15, going_out="made_bid", min_bid=2, steal=False, smudge=True)
    league.refresh_from_db()
    assert league.rules == rules.Rules()


@pytest.mark.parametrize(
    ("field", "value"), [("going_out", "sometimes"), ("min_bid", "24"), ("steal", "maybe"), ("smudge", "1"), ("negative", "0")]
)
def test_a_house_rule_the_form_does_not_offer_is_refused(scorer, league, field, value):
    data = {"mode": "solo", "target": "7", "first_dealer": "1", "new_1": "Ann", "new_2": "Bob", field: value}
    response = scorer.post(new_game_url(league), data)
    assert response.status_code == 200 and field in response.context["form"].errors
    assert "Select a valid choice" in response.content.decode()
    assert not Game.objects.exists()


# League settings


def test_the_owner_sets_the_leagues_house_rules(owner_client, league):
    url = reverse("scores:league_settings", args=[league.slug])
    data = {"form": "rules", "target": "11", "going_out": "made_bid", "min_bid": "2", "steal": "no", "smudge": "yes"}
    response = owner_client.post(url, data)
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.rules == rules.Rules(target=11, going_out="made_bid", min_bid=2, steal=False, smudge=True)
    assert league.name == "Thursday Pitch"


def test_bad_league_house_rules_are_refused_and_change_nothing(owner_client, league):
    url = reverse("scores:league_settings", args=[league.slug])
    data = {"form": "rules", "target": "other", "other_target": "1000", "going_out": "made_bid", "min_bid": "1", "steal": "no"}
    response = owner_client.post(url, data)
    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 999." in response.content.decode()
    league.refresh_from_db()
    assert league.rules == rules.Rules()


def test_only_the_owner_sets_the_house_rules(client, make_user, league):
    make_user("sam", league, Role.SCORER)
    client.login(username="sam", password=PASSWORD)
    response = client.post(
        reverse("scores:league_settings", args=[league.slug]), {"form": "rules", "target": "11", "going_out": "made_bid", "min_bid": "2"}
    )
    assert response.status_code == 404
    league.refresh_from_db()
    assert league.rules == rules.Rules()


# The game and watch pages


def test_the_game_and_watch_pages_say_the_rules_in_one_line(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=11, **MADE_BID_2))
    line = "4-point · to 11 · set pitcher can&#x27;t go out · minimum bid 2</p>"
    assert line in scorer.get(game.get_absolute_url()).content.decode()
    assert line in scorer.get(reverse("scores:watch", args=[game.share_token])).content.decode()
    sheet = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules())
    assert "4-point · to 7</p>" in scorer.get(sheet.get_absolute_url()).content.decode()


# Bids a house rule forbids


def bid_buttons(html: str) -> list[str]:
    fieldset = html.split('id="id_bid"', 1)[1].split("</fieldset>", 1)[0]
    return [part.split('"', 1)[0] for part in fieldset.split('name="bid" id="id_bid_')[1:] for part in [part.split('value="', 1)[1]]]


def test_the_hand_form_offers_no_bid_below_the_minimum(scorer, league):
    assert bid_buttons(scorer.get(two_player_game(league, min_bid=2).get_absolute_url()).content.decode()) == ["2", "3", "4"]
    assert bid_buttons(scorer.get(two_player_game(league).get_absolute_url()).content.decode()) == ["1", "2", "3", "4"]


def test_a_crafted_bid_below_the_minimum_is_refused_naming_the_house_rule(scorer, league):
    game = two_player_game(league, min_bid=2)
    response = scorer.post(save_url(game), taps(bid=1))
    assert "this game&#x27;s house rules make the minimum bid 2, got 1" in response.content.decode()
    assert not Hand.objects.exists()


def test_an_edit_to_a_bid_the_house_rules_forbid_is_refused(scorer, league):
    game = two_player_game(league, min_bid=2)
    services.record_hand(game=game, hand=hand("Ann", 2, "Ann", "Ann"))
    url = reverse("scores:hand_edit", args=[league.slug, game.pk, 1])
    game.refresh_from_db()
    response = scorer.post(url, taps(bid=1, version=game.version))  # The version the edit page showed.
    assert "this game&#x27;s house rules make the minimum bid 2, got 1" in response.content.decode()
    assert Hand.objects.get().bid == 2


def auction_url(game: Game, bids: str) -> str:
    return reverse("scores:auction", args=[game.league.slug, game.pk]) + f"?bids={bids}"


def test_the_auction_offers_what_the_house_rules_allow(scorer, league):
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], rules=rules.Rules(**{"min_bid": 2, "steal": False}))
    html = scorer.get(auction_url(game, "")).content.decode()
    assert ">Pass</a>" in html and ">1</a>" not in html and ">2</a>" in html
    html = scorer.get(auction_url(game, "2,p,p")).content.decode()  # Ann deals: no steal of the 2.
    assert "Ann bids:" in html and ">2</a>" not in html and ">3</a>" in html
    sheet = services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], rules=rules.Rules())
    assert ">2</a>" in scorer.get(auction_url(sheet, "2,p,p")).content.decode()


@pytest.mark.parametrize(
    ("bids", "message"),
    [
        ("1", "This game&#x27;s house rules make the minimum bid 2, so a bid of 1 is not allowed; start again."),
        ("2,p,p,2", "This game&#x27;s house rules do not let the dealer steal the bid; start again."),
    ],
)
def test_a_crafted_auction_link_names_the_house_rule(scorer, league, bids, message):
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat", "Dan"], rules=rules.Rules(**{"min_bid": 2, "steal": False}))
    assert message in scorer.get(auction_url(game, bids)).content.decode()
    html = scorer.get(game.get_absolute_url() + f"?auction={bids}").content.decode()
    assert "house rules" in html and not Hand.objects.exists()


# History


def test_a_house_rules_game_exports_imports_and_exports_the_same(league, make_user):
    house = {"going_out": "made_bid", "steal": False, "smudge": True}
    game = services.start_game(league=league, seats=["Ann", "Bob"], rules=rules.Rules(target=7, **house))
    for played in [*SET_AT_THE_TARGET, hand("Bob", 2, "Bob", "Bob"), hand("Ann", 4, "Ann", "Ann", "Ann", "Ann")]:
        services.record_hand(game=game, hand=played)
    exported = "".join(
        history_export.export_json(league.games.all(), league_name="L", exported_at=datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC))
    )
    doc = json.loads(exported)
    assert doc["games"][0]["rules"] == {
        "variant": "4-point", "points": ["high", "low", "jack", "game"], "target": 7, "going_out": "made_bid", "min_bid": 1,
        "steal": False, "smudge": True, "negative": True,
    }  # fmt: skip
    assert doc["games"][0]["result"]["winner"] == "Ann" and len(doc["games"][0]["hands"]) == 5
    empty = League.objects.create(name="Empty", slug="empty")
    history_services.import_history(league=empty, source=exported.encode())
    assert (
        "".join(
            history_export.export_json(empty.games.all(), league_name="L", exported_at=datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC))
        )
        == exported
    )


def test_import_scores_each_game_by_its_own_rules(league):
    hands = [hand_doc(h.pitcher, h.bid, **h.points) for h in SET_AT_THE_TARGET]
    doc = document(
        game_doc("sheet", seats=["Ann", "Bob"], hands=hands),
        game_doc("made", seats=["Ann", "Bob"], hands=hands, rules={"going_out": "made_bid"}),
    )
    history_services.import_history(league=league, source=dumps(doc))
    assert Game.objects.get(code="sheet").is_finished
    made = Game.objects.get(code="made")
    assert not made.is_finished and made.rules == rules.Rules(going_out="made_bid")


@pytest.mark.parametrize(
    ("rules_", "message"),
    [
        ({"going_out": "made bid"}, 'rules.going_out: going_out must be "pitcher" or "made_bid", got \'made bid\''),
        ({"min_bid": 3}, "rules.min_bid: min_bid must be 1 or 2, got 3"),
        ({"steal": "no"}, "rules.steal: steal must be true or false, got 'no'"),
        ({"smudge": 1}, "rules.smudge: smudge must be true or false, got 1"),
    ],
)
def test_import_refuses_a_house_rule_value_it_does_not_know(league, rules_, message):
    doc = document(game_doc("g", seats=["Ann", "Bob"], hands=[], rules=rules_))
    with pytest.raises(history_document.HistoryError) as error:
        history_services.import_history(league=league, source=dumps(doc))
    assert [str(p) for p in error.value.problems] == [f'game "g", {message}']
    assert not Game.objects.exists()


def test_import_refuses_a_bid_the_games_house_rules_forbid(league):
    doc = document(game_doc("g", seats=["Ann", "Bob"], hands=[hand_doc("Ann", 1, "Ann", "Ann")], rules={"min_bid": 2}))
    with pytest.raises(history_document.HistoryError) as error:
        history_services.import_history(league=league, source=dumps(doc))
    assert [str(p) for p in error.value.problems] == ['game "g", hand 1, bid: this game\'s house rules make the minimum bid 2, got 1']


def test_the_csv_has_a_row_per_game_with_its_rules(league):
    two_player_game(league, going_out="made_bid", smudge=True)
    data = b"".join(history_export.export_csv_zip(league.games.all()))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        rows = list(csv.DictReader(io.StringIO(archive.read("games.csv").decode("utf-8-sig"))))
    assert rows == [
        {"game_id": "g0", "played_on": rows[0]["played_on"], "variant": "4-point", "points": "high low jack game", "target": "7",
         "going_out": "made_bid", "min_bid": "1", "steal": "TRUE", "smudge": "TRUE", "negative": "TRUE", "partnership": "FALSE",
         "winner": ""}
    ]  # fmt: skip


# Standings and the games list


def test_games_with_different_rules_mix_in_the_standings(league):
    sheet = two_player_game(league)
    made = two_player_game(league, going_out="made_bid")
    for game in (sheet, made):
        for played in SET_AT_THE_TARGET:
            services.record_hand(game=game, hand=played)
    services.record_hand(game=made, hand=hand("Bob", 1, "Bob", "Bob"))
    services.record_hand(game=made, hand=hand("Ann", 2, "Ann", "Ann"))
    rows = {row.name: row for row in standings(league)}
    assert (rows["Ann"].games, rows["Ann"].wins, rows["Bob"].games, rows["Bob"].wins) == (2, 2, 2, 0)
    assert rows["Ann"].points == 7 + 9


def test_the_games_list_filters_by_house_rules(owner_client, league):
    two_player_game(league)
    two_player_game(league, going_out="made_bid", min_bid=2)
    two_player_game(league, smudge=True)
    url = reverse("scores:game_list", args=[league.slug])

    def codes(**params) -> list[str]:
        return sorted(game.code for game in owner_client.get(url, params).context["page"].object_list)

    assert codes(going_out="made_bid") == ["g1"]
    assert codes(min_bid="1") == ["g0", "g2"]
    assert codes(smudge="yes") == ["g2"] and codes(smudge="no") == ["g0", "g1"]
    assert codes(steal="no") == []
    assert owner_client.get(url, {"going_out": "never"}).status_code == 400
