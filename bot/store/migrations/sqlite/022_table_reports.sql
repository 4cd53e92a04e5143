-- Reports of a table by a member seated at it (/play report, issue 36): kept for the bot's
-- operator (`python -m bot reports`), never shown in Discord. One per member and table.
CREATE TABLE table_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games (id),
    user_id INTEGER NOT NULL,         -- the member who reported it
    guild_id INTEGER NOT NULL,        -- the server they reported from
    channel_id INTEGER NOT NULL,      -- and the channel (or thread)
    reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 300),
    at REAL NOT NULL,
    UNIQUE (game_id, user_id)
);
CREATE INDEX table_reports_at ON table_reports (at);
