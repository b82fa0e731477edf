"""The app's addresses, each area's in its own ``urls`` module; their names are ``scores:<name>``. The table's come
first: they are the requests phones make most often."""

from .accounts import urls as accounts
from .history import urls as history
from .leagues import urls as leagues
from .nights import urls as nights
from .people import urls as people
from .standings import urls as standings
from .table import urls as table

app_name = "scores"
# Tokens are secrets.token_urlsafe: the slug alphabet exactly, so nothing else (a NUL byte, say) reaches a query.
urlpatterns = [
    *table.urlpatterns,
    *accounts.urlpatterns,
    *leagues.urlpatterns,
    *standings.urlpatterns,
    *nights.urlpatterns,
    *people.urlpatterns,
    *history.urlpatterns,
]
