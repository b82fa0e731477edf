"""The seasons' page (``seasons``) and a player's page (``players``)."""
