"""A league: its settings, members and roles, invites, its players, its public link, and who may see what (``access``)."""
