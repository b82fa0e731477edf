"""The table's pages: a game and its hands (``games``), the auction, the watch link, a phone's offline queue, and
the home and Rules pages (``pages``)."""
