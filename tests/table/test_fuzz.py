"""Hostile input to every form and htmx endpoint: always an answer with a message, never a 500, nothing stored.

Hypothesis posts wrong types, huge numbers, unknown ids, other leagues' ids,
missing fields, very long strings and NUL bytes. Each example makes sure at least
one value is one the endpoint must refuse, so "nothing stored" is always the
right expectation.
"""

from __future__ import annotations

import uuid
from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scores.engine import names, rules
from scores.leagues.models import Invite, League, Membership, Player
from scores.standings.models import PlayerRating
from scores.table import services
from scores.table.models import Game, Hand, HandScore, Seat, Side
from tests.conftest import hand

pytestmark = pytest.mark.django_db
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
HTMX = {"HTTP_HX_REQUEST": "true"}

# Values no form of the app takes as they are: a few fixed nasties, then generated ones.
NASTY = [
    "", " ", "\x00", "Ann\x00", "null", "None", "true", "[]", "{}", "-1", "0", "1.5", "1e309", "NaN", "-0",
    "99999999999999999999999999", "-99999999999999999999999999", "<script>alert(1)</script>", "' OR 1=1 --",
    "../../etc/passwd", "%00", "\u202e", "😀", "x" * 5000,
]  # fmt: skip
HOSTILE = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=30),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(min_size=1, max_size=10).map(lambda s: s + "\x00"),
)
MISSING = object()


def address(name: str, slug: str, *numbers: object) -> str:
    """The page's address with any numbers in it, including ones its pattern would never produce (0, -1, 2**63)."""
    url = reverse(f"scores:{name}", args=[slug, *(900_001 + i for i in range(len(numbers)))])
    for i, number in enumerate(numbers):
        url = url.replace(f"/{900_001 + i}/", f"/{number}/")
    return url


def snapshot() -> tuple:
    """Everything a write could change, to compare before and after a request."""
    return (
        tuple(League.objects.order_by("pk").values_list("pk", "name", "slug", "public_token")),
        tuple(Membership.objects.order_by("pk").values_list("pk", "role")),
        tuple(Invite.objects.order_by("pk").values_list("pk", "role", "revoked")),
        tuple(Player.objects.order_by("pk").values_list("pk", "name")),
        tuple(Game.objects.order_by("pk").values_list("pk", "version", "status", "winner_id")),
        *(model.objects.count() for model in (Side, Seat, Hand, HandScore, PlayerRating)),
        tuple(Hand.objects.order_by("pk").values_list("pk", "number", "bid", "pitcher_id", "points")),
    )


def assert_refused(response, before: tuple, *, allowed: tuple[int, ...] = (200, 400, 404, 405), message: bool = True) -> None:
    """An answer with a message, and nothing stored."""
    assert response.status_code in allowed, response.status_code
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if response.status_code in (200, 400) and message:
        text = body.decode()
        assert any(mark in text for mark in ("invalid-feedback", 'role="alert"', 'role="status"')), text[:2000]
    elif response.status_code == 404:
        assert b"Page not found" in body  # The app's own 404 page (templates/404.html).
    assert snapshot() == before


def form_data(draw, fields: dict[str, list[str]], optional: frozenset[str] = frozenset()) -> dict:
    """A post where each field is a valid value, a hostile one or missing, and at least one is surely wrong."""
    bad = draw(st.sampled_from(sorted(fields)))
    data = {}
    for name, valid in fields.items():
        if name == bad:
            wrong = HOSTILE.filter(lambda v, valid=valid: v.strip() not in valid)
            value = draw(wrong | (st.just(MISSING) if name not in optional else st.nothing()))
        else:
            value = draw(st.sampled_from(valid) | HOSTILE | st.just(MISSING))
        if value is not MISSING:
            data[name] = value
    return data


@pytest.fixture
def game(league):
    game = services.start_game(league=league, seats=["Ann", "Bob", "Cat"], code="fuzz", rules=rules.Rules())
    services.record_hand(game=game, hand=hand("Ann", 1, "Bob", "Cat"))
    return game


@pytest.fixture
def other_league_ids(db):
    other = League.objects.create(name="Elsewhere", slug="elsewhere")
    game = services.start_game(league=other, seats=["Xi", "Yo"], code="theirs", rules=rules.Rules())
    return {"game": game.pk, "player": Player.objects.filter(league=other).first().pk}


HAND_FIELDS = {
    "pitcher": ["Ann", "Bob", "Cat"],
    "bid": ["1", "2", "3", "4"],
    "high": ["Ann", "Bob", "Cat"],
    "low": ["Ann", "Bob", "Cat"],
    "jack": ["Ann", "Bob", "Cat", "-"],
    "game": ["Ann", "Bob", "Cat", "-"],
}


@FUZZ
@given(data=st.data(), htmx=st.booleans())
def test_hostile_hand_posts_store_nothing(owner_client, game, data, htmx):
    post = form_data(data.draw, HAND_FIELDS)
    post["number"] = data.draw(st.sampled_from(["2"]) | HOSTILE)
    post["key"] = data.draw(st.sampled_from([str(uuid.uuid4())]) | HOSTILE)
    if data.draw(st.booleans()):
        post["auction"] = data.draw(HOSTILE)
    before = snapshot()
    response = owner_client.post(reverse("scores:hand_create", args=["thursday", game.pk]), post, **(HTMX if htmx else {}))
    assert_refused(response, before)


@FUZZ
@given(data=st.data())
def test_every_field_right_but_the_hidden_ones_wrong_says_so(owner_client, game, data):
    post = {"pitcher": "Ann", "bid": "2", "high": "Ann", "low": "Ann", "jack": "-", "game": "-"}
    post["number"] = data.draw(st.sampled_from(["abc", "1.5", "x" * 200, "2\x00"]))
    post["key"] = data.draw(st.sampled_from(["not-a-uuid", "\x00", "1" * 100]))
    before = snapshot()
    response = owner_client.post(reverse("scores:hand_create", args=["thursday", game.pk]), post, **HTMX)
    assert_refused(response, before)
    assert "reload the page" in response.content.decode()


@FUZZ
@given(number=HOSTILE.filter(lambda v: v.strip().lstrip("+").lstrip("0") != "1" or v.strip() in ("", "0", "-0")))
def test_hostile_undo_posts_undo_nothing(owner_client, game, number):
    before = snapshot()
    response = owner_client.post(reverse("scores:hand_undo", args=["thursday", game.pk]), {"number": number}, **HTMX)
    assert_refused(response, before)


@FUZZ
@given(token=HOSTILE)
def test_hostile_restore_posts_restore_nothing(owner_client, game, token):
    before = snapshot()
    response = owner_client.post(reverse("scores:hand_restore", args=["thursday", game.pk]), {"token": token}, **HTMX)
    assert_refused(response, before)
    assert "Nothing was restored" in response.content.decode()


@FUZZ
@given(data=st.data(), number=st.integers(min_value=0, max_value=10**25))
def test_hostile_edits_and_deletes_change_nothing(owner_client, game, data, number):
    before = snapshot()
    post = form_data(data.draw, HAND_FIELDS)
    response = owner_client.post(reverse("scores:hand_edit", args=["thursday", game.pk, 1]), post)
    assert_refused(response, before)
    if number != 1:
        assert_refused(owner_client.post(address("hand_edit", "thursday", game.pk, number), post), before)
        assert_refused(owner_client.post(address("hand_delete", "thursday", game.pk, number)), before)


@FUZZ
@given(data=st.data())
def test_hostile_new_game_posts_start_nothing(owner_client, game, other_league_ids, data):
    ours = [str(pk) for pk in Player.objects.filter(league__slug="thursday").values_list("pk", flat=True)]
    fields = {
        "players": [*ours, str(other_league_ids["player"])],
        "mode": ["solo", "2x2", "3x2", "2x3"],
        # Left out (or empty), a rule is the league's: "" is a valid choice too.
        "variant": ["", *rules.VARIANTS, "custom"],
        "target": ["", "usual", "7", "11", "15", "21", "52", "other"],
        "other_target": ["5", "50"],
        "min_bid": ["", "usual", *map(str, range(1, 24))],
        "negative": ["", "yes", "no"],
        "first_dealer": ["1", "2"],
        **{f"seat_{pk}": ["1", "2", "3"] for pk in ours},
    }
    bad = data.draw(st.sampled_from(["players", "mode", "variant", "target", "min_bid", "negative", "first_dealer", "other_league_player"]))
    post = {name: data.draw(st.sampled_from(valid) | HOSTILE) for name, valid in fields.items() if data.draw(st.booleans())}
    post["new_1"], post["new_2"] = data.draw(HOSTILE), data.draw(st.sampled_from(["Dee", "Eve"]) | HOSTILE)
    if bad == "other_league_player":
        post["players"] = [ours[0], str(other_league_ids["player"])]
    else:
        post[bad] = data.draw(HOSTILE.filter(lambda v: v.strip() not in fields[bad]))
    before = snapshot()
    response = owner_client.post(reverse("scores:game_new", args=["thursday"]), post)
    assert_refused(response, before)


def unreadable(auction: str) -> bool:
    """Not even the shape of an auction ("p,2,p"): the page must say so."""
    return bool(set(auction) - set("p,1234"))


@FUZZ
@given(bids=HOSTILE, auction=HOSTILE)
@example(bids="2,²", auction="²")  # A digit to str.isdigit() that int() refuses: once a 500.
def test_hostile_auction_query_strings_are_answered_with_a_message(owner_client, game, bids, auction):
    before = snapshot()
    response = owner_client.get(reverse("scores:auction", args=["thursday", game.pk]), {"bids": bids})
    assert_refused(response, before, allowed=(200, 302), message=unreadable(bids))
    response = owner_client.get(reverse("scores:game_detail", args=["thursday", game.pk]), {"auction": auction})
    assert_refused(response, before, allowed=(200,), message=unreadable(auction))


@FUZZ
@given(data=st.data(), htmx=st.booleans())
def test_hostile_standings_and_game_list_parameters_are_400_with_a_message(owner_client, game, other_league_ids, data, htmx):
    standings = {k: data.draw(HOSTILE) for k in ("sort", "order", "season", "mode", "page") if data.draw(st.booleans())}
    standings[data.draw(st.sampled_from(["sort", "season", "mode"]))] = data.draw(HOSTILE.filter(lambda v: v.strip() != ""))
    before = snapshot()
    response = owner_client.get(reverse("scores:league_detail", args=["thursday"]), standings, **(HTMX if htmx else {}))
    assert_refused(response, before, allowed=(400,))
    games = {k: data.draw(HOSTILE) for k in ("player", "status", "start", "end", "page") if data.draw(st.booleans())}
    games[data.draw(st.sampled_from(["player", "status", "start", "end"]))] = data.draw(
        HOSTILE.filter(lambda v: v.strip() != "") | st.just(str(other_league_ids["player"]))
    )
    if _own_player(games.get("player"), game):  # A number can be one of the league's own players: a fine filter.
        games["player"] = str(other_league_ids["player"])
    response = owner_client.get(reverse("scores:game_list", args=["thursday"]), games)
    assert_refused(response, before, allowed=(400,))


def _own_player(value: str | None, game) -> bool:
    try:
        return Player.objects.filter(league=game.league_id, pk=int(value)).exists()
    except (TypeError, ValueError, OverflowError):
        return False


@FUZZ
# Too long even once clean (names.clean): 100 letters and a "\r" or a "\x00" are a valid name; invisible alone, none.
@given(
    name=st.sampled_from(["", "   ", "x" * 101, "\x00", "\u202e\u200b"])
    | st.text(min_size=101, max_size=300).filter(lambda v: len(names.clean(v)) > 100),
    role=HOSTILE,
)
def test_hostile_league_member_and_invite_forms_change_nothing(owner_client, league, make_user, name, role):
    member = Membership.objects.get(league=league, user__username="olive")
    before = snapshot()
    assert_refused(owner_client.post(reverse("scores:league_settings", args=["thursday"]), {"name": name}), before, allowed=(400,))
    assert_refused(owner_client.post(reverse("scores:league_new"), {"name": name}), before, allowed=(200, 400))
    if role.strip() not in ("scorer", "viewer"):
        assert_refused(owner_client.post(reverse("scores:invite_new", args=["thursday"]), {"role": role}), before, allowed=(400,))
    if role.strip() != "owner":
        response = owner_client.post(reverse("scores:member_role", args=["thursday", member.pk]), {f"m{member.pk}-role": role}, follow=True)
        assert_refused(response, before)
    if role not in ("on", "off", "new"):
        response = owner_client.post(reverse("scores:league_public_link", args=["thursday"]), {"action": role}, follow=True)
        assert_refused(response, before)


NUL_ID = b'{"format": "pitch-history", "version": 1, "games": [{"id": "\\u0000", "seats": ["A\\u0000", "B"], "hands": []}]}'


@FUZZ
@given(content=st.binary(max_size=300) | HOSTILE.map(str.encode) | st.just(NUL_ID))
def test_hostile_uploads_import_nothing(owner_client, game, content):
    before = snapshot()
    upload = SimpleUploadedFile("history.json", content, content_type="application/json")
    response = owner_client.post(reverse("scores:league_import", args=["thursday"]), {"file": upload})
    assert_refused(response, before, allowed=(400,))


@FUZZ
@given(token=HOSTILE.filter(lambda v: v and "/" not in v), pk=st.just(0) | st.integers(min_value=10**5, max_value=10**25))
def test_hostile_ids_and_tokens_in_urls_are_404(owner_client, game, other_league_ids, token, pk):
    before = snapshot()
    token = quote(token, safe="")  # In the path, as a browser sends it: a "?" or "#" is not the start of a query.
    for url in (f"/watch/{token}/", f"/p/{token}/", f"/invite/{token}/", f"/p/{token}/games/{pk}/"):
        assert_refused(owner_client.get(url), before, allowed=(404,))
    for name in ("game_detail", "auction", "hand_create", "hand_undo", "hand_restore"):
        for game_pk in (pk, other_league_ids["game"]):
            url = address(name, "thursday", game_pk)
            assert_refused(owner_client.post(url) if name.startswith("hand") else owner_client.get(url), before, allowed=(404,))
    assert_refused(owner_client.get(address("player_detail", "thursday", pk)), before, allowed=(404,))
    assert_refused(owner_client.get(reverse("scores:player_detail", args=["thursday", other_league_ids["player"]])), before, allowed=(404,))
