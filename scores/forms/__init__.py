"""Forms, one module an area: ``games`` (a new game), ``hands`` (the tap-to-score hand form and the auction),
``leagues`` (settings, house rules, filters), ``members`` (roles, invites), ``history`` (uploads), ``accounts``."""
