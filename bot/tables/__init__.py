"""Tables: lobbies, seats, turns, timers, and saving/restoring live games. No Discord here."""
