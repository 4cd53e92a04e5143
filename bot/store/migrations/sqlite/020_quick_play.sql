-- Quick play (issue 36, bot/tables/quickplay.py). The queue: one entry per member across
-- every server (the primary key). match_id is the ready check that claimed the entry (NULL:
-- waiting); queued_at orders the queue and widens the rating window (a member sent back to
-- the front keeps theirs, a no-show is queued again at the back).
CREATE TABLE quick_queue (
    user_id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    game_key TEXT NOT NULL,
    rating INTEGER NOT NULL,
    queued_at REAL NOT NULL,
    bot_after REAL NOT NULL,          -- seconds of waiting before "Play a bot now"
    bot_offered INTEGER NOT NULL DEFAULT 0 CHECK (bot_offered IN (0, 1)),
    match_id INTEGER
);
CREATE INDEX quick_queue_waiting ON quick_queue (guild_id, game_key, queued_at)
    WHERE match_id IS NULL;
-- Members a member is never matched with (/play block).
CREATE TABLE quick_blocks (
    user_id INTEGER NOT NULL,
    blocked_id INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);
-- Ready checks missed: three in an hour keep the member out of the queue for 10 minutes.
CREATE TABLE quick_no_shows (
    user_id INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (user_id, at)
);
CREATE TABLE quick_timeouts (
    user_id INTEGER PRIMARY KEY,
    until REAL NOT NULL
);
-- A match waiting for its members to press Ready (status 'asking') until its deadline;
-- 'opened' once every member pressed (table_id: its table), 'failed' once one did not.
CREATE TABLE quick_matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    game_key TEXT NOT NULL,
    created_at REAL NOT NULL,
    deadline REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('asking', 'opening', 'opened', 'failed')),
    table_id INTEGER
);
CREATE INDEX quick_matches_asking ON quick_matches (deadline) WHERE status = 'asking';
CREATE TABLE quick_match_seats (
    match_id INTEGER NOT NULL REFERENCES quick_matches (id),
    user_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,            -- the order the matcher grouped them in
    channel_id INTEGER NOT NULL,      -- where they queued: their Ready message is there
    message_id INTEGER,
    ready INTEGER NOT NULL DEFAULT 0 CHECK (ready IN (0, 1)),
    PRIMARY KEY (match_id, user_id)
);
-- A server's choice (/settings quickplay, /settings quickplay-channel); no row: 'here'.
CREATE TABLE quick_guilds (
    guild_id INTEGER PRIMARY KEY,
    mode TEXT NOT NULL CHECK (mode IN ('off', 'here', 'everywhere')),
    channel_id INTEGER,
    updated_at REAL NOT NULL,
    updated_by INTEGER
);
