"""A player's name as a narrow table shows it: its short form on the screen, the whole name for screen readers."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.filter
def short_name(full: str, short_names: dict[str, str] | None) -> str | SafeString:
    """``full`` as ``short_names`` (``names.short_forms``) shortens it, in the title and for screen readers whole.

    A filter, not a partial, because the name goes inside translated sentences ("%(pitcher)s bid %(bid)s"), which
    take values and no tags, in each language's word order. A name that is not shortened stays plain text.
    """
    shown = (short_names or {}).get(full, full)
    if shown == full:
        return full
    return format_html('<span title="{0}" aria-hidden="true">{1}</span><span class="visually-hidden">{0}</span>', full, shown)
