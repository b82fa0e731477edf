"""The standings: seasons, the players' figures kept per season, ratings, and a player's page."""
