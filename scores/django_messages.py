"""Django's own messages a player can meet, repeated so the project's catalogs carry them.

Django ships no Cebuano or Maltese catalog, so its form errors, the account
forms' labels and the month names of dates would stay English in those
languages. Listing the msgids here (exactly as Django has them) makes
``makemessages`` keep them in every project catalog under ``locale/``, which
Django searches before its own. Nothing calls these functions.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext

FORMS = (
    gettext_noop("This field is required."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Enter a valid date."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Enter a valid UUID."),
    gettext_noop("Enter a list of values."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Select a valid choice. That choice is not one of the available choices."),
    gettext_noop("“%(pk)s” is not a valid value."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    gettext_noop("No file was submitted. Check the encoding type on the form."),
    gettext_noop("No file was submitted."),
    gettext_noop("The submitted file is empty."),
    gettext_noop("%s KB"),
    gettext_noop("%s MB"),
)

ACCOUNTS = (
    gettext_noop("username"),
    gettext_noop("Username"),
    gettext_noop("email address"),
    gettext_noop("Email"),
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),  # noqa: RUF001 (Django's msgid, exactly)
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."),
    gettext_noop("A user with that username already exists."),
    gettext_noop("Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."),
    gettext_noop("This account is inactive."),
    gettext_noop("Old password"),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),  # noqa: RUF001 (Django's msgid, exactly)
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),  # noqa: RUF001 (Django's msgid, exactly)
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),  # noqa: RUF001 (Django's msgid, exactly)
)

MONTHS = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)


def _plurals(n: int) -> list[str]:
    """Never called: the plural msgids, written as calls so makemessages collects them."""
    return [
        ngettext(
            "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
            "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
            n,
        ),
        ngettext("%(size)d byte", "%(size)d bytes", n),
        ngettext(
            "This password is too short. It must contain at least %d character.",
            "This password is too short. It must contain at least %d characters.",
            n,
        ),
        ngettext(
            "Your password must contain at least %(min_length)d character.",
            "Your password must contain at least %(min_length)d characters.",
            n,
        ),
    ]
