-- Foundation schema: servers, members, games (live and finished), their logs and results.

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    turn_timeout_seconds INTEGER,
    updated_by INTEGER,
    updated_at REAL NOT NULL
);

-- Display names as last seen, so leaderboards can name members who left.
CREATE TABLE members (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- One row per table, from lobby to end. state_json holds the whole live table (seats,
-- settings, rules state); version increases with every change, so stale clicks are refused.
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    thread_id INTEGER,
    lobby_message_id INTEGER,
    message_id INTEGER,
    game_key TEXT NOT NULL,          -- leaderboard key, e.g. 'sequences:standard', 'heartsdue'
    status TEXT NOT NULL CHECK (status IN
        ('lobby', 'running', 'finished', 'cancelled', 'expired', 'abandoned', 'ended')),
    host_id INTEGER NOT NULL,
    stake INTEGER NOT NULL DEFAULT 0 CHECK (stake >= 0),
    state_json TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    deadline REAL,                   -- unix time the current lobby/turn timer fires
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    finished_at REAL
);
CREATE INDEX games_live ON games (status) WHERE status IN ('lobby', 'running');
CREATE INDEX games_channel ON games (channel_id, status);
CREATE INDEX games_guild_key ON games (guild_id, game_key, status);

-- Append-only record of everything that happened in a game (who, what, dice, cards).
CREATE TABLE game_log (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    actor_id INTEGER,                -- member id, NULL for the bot / a timer
    kind TEXT NOT NULL,              -- 'join', 'action', 'timeout', 'end', ...
    detail_json TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- One row per seat of a finished game: what leaderboards and ratings are built from.
CREATE TABLE game_results (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    game_key TEXT NOT NULL,
    user_id INTEGER,                 -- NULL for a bot player
    name TEXT NOT NULL,
    team INTEGER,
    score INTEGER NOT NULL,
    place INTEGER NOT NULL,          -- 1 = winner (several on a winning team)
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    best_turn INTEGER NOT NULL DEFAULT 0,
    finished_at REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_board ON game_results (guild_id, game_key, user_id);
CREATE INDEX results_user ON game_results (user_id, game_key);
