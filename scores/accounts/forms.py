"""Signing up."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from ..common.forms import ShortRefusals


class SignupForm(ShortRefusals, UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), required=False, help_text=_("Optional; needed to reset a forgotten password."))

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
