-- Cross-server quick play (issue 36, where: everywhere). A cross-server table's games row has
-- guild_id EVERYWHERE (bot.records) and belongs to no server; it is shown in one place per
-- server its players come from: that server's quick-play channel, its own thread there and
-- its own live table message. The games row's channel, thread and message mirror the first
-- place (position 0), so lookups by them keep working; these rows hold every place.
CREATE TABLE table_places (
    game_id BIGINT NOT NULL REFERENCES games (id),
    guild_id BIGINT NOT NULL,
    position INTEGER NOT NULL,        -- 0: the place the games row mirrors
    channel_id BIGINT NOT NULL,
    thread_id BIGINT,
    message_id BIGINT,                -- the place's live table message
    user_ids TEXT NOT NULL,           -- JSON: the members who play from this place
    PRIMARY KEY (game_id, guild_id)
);
CREATE INDEX table_places_message ON table_places (message_id) WHERE message_id IS NOT NULL;
CREATE INDEX table_places_thread ON table_places (thread_id) WHERE thread_id IS NOT NULL;
-- A queue entry's reach: 0 this server only (where: here), 1 every server on `everywhere`.
ALTER TABLE quick_queue ADD COLUMN everywhere INTEGER NOT NULL DEFAULT 0
    CHECK (everywhere IN (0, 1));
CREATE INDEX quick_queue_everywhere ON quick_queue (game_key, queued_at)
    WHERE match_id IS NULL AND everywhere = 1;
-- The server each matched member queued from (their ready check and their table's place).
ALTER TABLE quick_match_seats ADD COLUMN guild_id BIGINT;
