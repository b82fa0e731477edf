"""Accounts' protections: the login limit (django-axes with an atomic count), sign-up and reset-mail limits,
the session store that refuses malformed keys, and the password rule Django lacks."""
