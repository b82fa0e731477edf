"""A league's forms: settings, house rules, filters, seasons (``leagues``); roles and invites (``members``)."""
