"""A member's claim of a guest's games."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from ..leagues.models import Player


class Claim(models.Model):
    """A member asks for a guest's games to be theirs; an owner confirms (the guest becomes the member's player) or declines."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["player", "user"], name="one_claim_per_user_and_player")]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player}"
