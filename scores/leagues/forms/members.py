"""A league's members: a member's role, and invite links."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ...common.forms import ShortRefusals
from ..models import INVITE_DAYS, Invite, Membership, Role


class MemberRoleForm(ShortRefusals, forms.ModelForm):
    class Meta:
        model = Membership
        fields = ["role"]
        widgets = {"role": forms.Select(attrs={"class": "form-select form-select-sm"})}


class InviteForm(ShortRefusals, forms.ModelForm):
    DAYS = [("1", _("1 day")), ("7", _("7 days")), ("30", _("30 days"))]

    days = forms.TypedChoiceField(
        label=_("Expires after"),
        choices=DAYS,
        coerce=int,
        required=False,
        empty_value=INVITE_DAYS,  # type: ignore[arg-type]  # The stubs allow str or None only; Django returns any value given.
        initial=str(INVITE_DAYS),
    )

    class Meta:
        model = Invite
        fields = ["role"]
        labels = {"role": _("Invite as")}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        role = self.fields["role"]
        assert isinstance(role, forms.ChoiceField)
        role.choices = [(Role.SCORER, Role.SCORER.label), (Role.VIEWER, Role.VIEWER.label)]
