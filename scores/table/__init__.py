"""At the table: games, their seats and hands, the auction, the watch link, a phone's offline queue, the home and
Rules pages."""
