-- A server's latest finished games (the web server page's "recent games", /replay's
-- autocomplete, /history) newest first without sorting them all: with 100,000 finished
-- games the planner walked games_host and sorted every one of the server's (190 ms a read);
-- this partial index holds only finished games, so a live game's saves never touch it.
CREATE INDEX games_guild_finished ON games (guild_id, id) WHERE status = 'finished';
