"""The admin: browse leagues, games and hands; scores are written only through the services."""

from django import forms
from django.contrib import admin

from .leagues import services
from .leagues.models import League, Membership, Player
from .table.forms.games import NameField
from .table.models import Game, Hand, HandScore, Seat


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


class PlayerAdminForm(forms.ModelForm):
    # In its normal form before the name is checked against the league's others (the unique constraint).
    name = NameField(label=Player._meta.get_field("name").verbose_name)

    class Meta:
        model = Player
        fields = ["league", "name"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerAdminForm
    list_display = ["name", "league"]
    list_filter = ["league"]
    search_fields = ["name"]

    def save_model(self, request, obj, form, change):
        if change and "name" in form.changed_data:  # Their solo games' sides bear the name too.
            services.rename_player(player=obj, name=obj.name)
        else:
            super().save_model(request, obj, form, change)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["player", "position", "side"]
    can_delete = False


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = readonly_fields = ("number", "dealer", "pitcher", "bid", "points", "set", "ends_game")
    can_delete = False
    show_change_link = True


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["code", "league", "played_on", "variant", "target", "partnership", "status", "winner"]
    list_filter = ["status", "partnership", "league"]
    search_fields = ["code"]
    date_hierarchy = "played_on"
    # A game's rules are fixed when it starts: its stored scores were worked out by them.
    readonly_fields = [
        "status",
        "winner",
        "version",
        "partnership",
        "variant",
        "points",
        "target",
        "going_out",
        "min_bid",
        "steal",
        "smudge",
        "negative",
    ]
    inlines = [SeatInline, HandInline]

    def has_add_permission(self, request) -> bool:
        return False  # Games are started through the app, which checks the rules.


class HandScoreInline(admin.TabularInline):
    model = HandScore
    extra = 0
    readonly_fields = ["side", "won", "delta", "total"]
    can_delete = False


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "pitcher", "bid", "set", "ends_game"]
    list_filter = ["set", "game__league"]
    readonly_fields = [f.name for f in Hand._meta.fields]
    inlines = [HandScoreInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
